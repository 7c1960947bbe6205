package cmd

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/agentfmt/agentfmt/internal/testenv"
)

// The version line names the commit and a date, from the Makefile's
// ldflags or from Go's VCS stamping; without either it says so.
func TestReadBuild(t *testing.T) {
	stamped := &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261122120000-73ce5be1d046"}, Settings: []debug.BuildSetting{
		{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "73ce5be1d046df9290f88974ef11428f159c6895"},
		{Key: "vcs.time", Value: "2026-11-22T12:00:00Z"}, {Key: "vcs.modified", Value: "true"}}}
	bare := &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}
	for _, c := range []struct {
		name                  string
		ldVersion, ldCommit   string
		ldDate                string
		bi                    *debug.BuildInfo
		version, commit, date string
	}{
		{"ldflags", "v1.2.3", "0123456789abcdef0123", "2026-11-23T08:00:00Z", bare, "v1.2.3 ", "commit 0123456789ab,", "built 2026-11-23"},
		{"ldflags, dirty", "devel", "0123456789abcdef0123-dirty", "2026-11-23T08:00:00Z", nil, "devel ", "commit 0123456789ab with local changes,", "built 2026-11-23"},
		{"ldflags win over stamping", "v1.2.3", "0123456789abcdef0123", "2026-11-23T08:00:00Z", stamped, "v1.2.3 ", "commit 0123456789ab,", "built 2026-11-23"},
		{"vcs stamping", "", "", "", stamped, "v0.0.0-20261122120000-73ce5be1d046 ", "commit 73ce5be1d046 with local changes,", "committed 2026-11-22"},
		{"nothing", "", "", "", bare, "devel ", "commit unknown,", ""},
	} {
		got := readBuild(c.ldVersion, c.ldCommit, c.ldDate, c.bi).String()
		if !strings.HasPrefix(got, c.version) || !strings.Contains(got, c.commit) || !strings.Contains(got, c.date) || !strings.Contains(got, runtime.Version()) {
			t.Errorf("%s: %q, want %q, %q and %q", c.name, got, c.version, c.commit, c.date)
		}
	}
}

// 'agentfmt version' and --version print the same line, as gh does.
func TestVersionCommand(t *testing.T) {
	t.Parallel()
	a := cli{args: []string{"version"}}.run(t)
	b := cli{args: []string{"--version"}}.run(t)
	if a.code != 0 || b.code != 0 || a.stdout != b.stdout || !strings.HasPrefix(a.stdout, "agentfmt version ") || !strings.Contains(a.stdout, "commit ") {
		t.Errorf("version: %d %q; --version: %d %q", a.code, a.stdout, b.code, b.stdout)
	}
}

// The README's install commands are the ones that work: no module proxy
// install of a module it does not serve, and a make install target.
func TestInstallDocumented(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"go install .", "make install"} {
		if !strings.Contains(string(readme), want) {
			t.Errorf("README does not say %q", want)
		}
	}
	if strings.Contains(string(readme), "@latest") {
		t.Errorf("README offers an @latest install the module proxy cannot serve")
	}
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("no make")
	}
	out, err := exec.Command("make", "-C", "..", "-n", "install").CombinedOutput()
	if err != nil || !strings.Contains(string(out), "install -ldflags") || !strings.Contains(string(out), "cmd.commit=") {
		t.Errorf("make -n install: %v\n%s", err, out)
	}
}

// make install gives a binary whose version names the checked-out commit
// (slow: it builds agentfmt).
func TestMakeInstallNamesCommit(t *testing.T) {
	t.Parallel()
	testenv.Slow(t)
	for _, tool := range []string{"make", "git"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skip("no " + tool)
		}
	}
	head, err := exec.Command("git", "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skip("not a git checkout")
	}
	bin := t.TempDir()
	mk := exec.Command("make", "-C", "..", "install")
	mk.Env = append(os.Environ(), "GOBIN="+bin)
	if out, err := mk.CombinedOutput(); err != nil {
		t.Fatalf("make install: %v\n%s", err, out)
	}
	out, err := exec.Command(filepath.Join(bin, "agentfmt"), "--version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if want := "commit " + string(head[:12]); !strings.Contains(string(out), want) || !strings.Contains(string(out), "built ") {
		t.Errorf("--version of the installed binary: %q, want %q and a build date", out, want)
	}
}
