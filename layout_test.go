package main

import (
	"bufio"
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFilesOfOneConcern: no Go file of the program (tests and generated
// files aside) is over 500 lines (DESIGN §1, issue 22); a longer one does
// more than one job and is split by concern.
func TestFilesOfOneConcern(t *testing.T) {
	const most = 500
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if generated(b) {
			return nil
		}
		if n := bytes.Count(b, []byte("\n")); n > most {
			t.Errorf("%s: %d lines (at most %d): split it by concern", path, n, most)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// generated reports Go's marker of a generated file ("// Code generated …
// DO NOT EDIT.") on a line before the package clause.
func generated(b []byte) bool {
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		l := sc.Text()
		if strings.HasPrefix(l, "// Code generated ") && strings.HasSuffix(l, " DO NOT EDIT.") {
			return true
		}
		if strings.HasPrefix(l, "package ") {
			return false
		}
	}
	return false
}

// TestNoCopiedFiles: nothing of another project is kept in the tree
// (DESIGN §1): no licence or notice file, which comes with a copy, and no
// file that says it was copied or vendored from elsewhere.
func TestNoCopiedFiles(t *testing.T) {
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := strings.ToUpper(d.Name())
		if d.IsDir() {
			if path != "." && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			if name == "VENDOR" || name == "THIRD_PARTY" {
				t.Errorf("%s: a copy of other projects' code; take it as a module", path)
			}
			return nil
		}
		for _, p := range []string{"LICENSE", "LICENCE", "COPYING", "NOTICE"} {
			if strings.HasPrefix(name, p) {
				t.Errorf("%s: a licence file comes with another project's copy; take it as a module", path)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
