package cmd

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/spf13/cobra"
)

// What the Makefile stamps in where Go's own VCS stamping is off (a git
// worktree, -buildvcs=false, a build outside the clone):
//
//	-ldflags "-X github.com/agentfmt/agentfmt/cmd.version=v1.2.3
//	          -X github.com/agentfmt/agentfmt/cmd.commit=<hash>
//	          -X github.com/agentfmt/agentfmt/cmd.date=2026-11-22T12:00:00Z"
var version, commit, date = "", "", ""

// buildInfo is what a bug report needs to name the build: the version,
// the commit and whether the tree had changes, and when it was built (or,
// from Go's VCS stamping, when its commit was made).
type buildInfo struct {
	Version  string
	Commit   string
	Modified bool
	Date     string // YYYY-MM-DD
	Built    bool   // Date is the build's (ldflags), not the commit's
	Go       string // go1.26.8 linux/amd64
}

// readBuild gathers buildInfo from the ldflags values, else Go's VCS
// stamping (vcs.revision, vcs.time, vcs.modified) and module version.
func readBuild(ldVersion, ldCommit, ldDate string, bi *debug.BuildInfo) buildInfo {
	b := buildInfo{Version: ldVersion, Commit: ldCommit, Go: runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH}
	if ldDate != "" {
		b.Date, b.Built = day(ldDate), true
	}
	if bi != nil {
		if b.Version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			b.Version = bi.Main.Version
		}
		if b.Commit == "" {
			for _, s := range bi.Settings {
				switch s.Key {
				case "vcs.revision":
					b.Commit = s.Value
				case "vcs.modified":
					b.Modified = s.Value == "true"
				case "vcs.time":
					if b.Date == "" {
						b.Date = day(s.Value)
					}
				}
			}
		}
	}
	if strings.HasSuffix(b.Commit, "-dirty") {
		b.Commit, b.Modified = strings.TrimSuffix(b.Commit, "-dirty"), true
	}
	if b.Version == "" {
		b.Version = "devel"
	}
	return b
}

// day is the date of an RFC 3339 time, or the text as it is.
func day(s string) string {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t.UTC().Format(time.DateOnly)
	}
	return s
}

// String is the version line without the program's name:
// "v1.2.3 (commit 73ce5be1d046, built 2026-11-22, go1.26.8 linux/amd64)".
func (b buildInfo) String() string {
	var parts []string
	switch {
	case b.Commit != "":
		c := b.Commit
		if len(c) > 12 {
			c = c[:12]
		}
		if b.Modified {
			c += " with local changes"
		}
		parts = append(parts, "commit "+c)
	default:
		parts = append(parts, "commit unknown") // (go build -buildvcs=false or a worktree; make build records it)
	}
	if b.Date != "" {
		if b.Built {
			parts = append(parts, "built "+b.Date)
		} else {
			parts = append(parts, "committed "+b.Date)
		}
	}
	parts = append(parts, b.Go)
	return b.Version + " (" + strings.Join(parts, ", ") + ")"
}

// build is this binary's buildInfo.
func build() buildInfo {
	bi, _ := debug.ReadBuildInfo()
	return readBuild(version, commit, date, bi)
}

// Version is agentfmt's version: the ldflags value, else the module
// version from the build info, else "devel".
func Version() string { return build().Version }

// versionLine is what 'agentfmt version' and --version print.
func versionLine() string { return "agentfmt version " + build().String() }

// newVersion is 'agentfmt version', the same as --version (as gh has it).
func newVersion() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Show agentfmt's version, commit and build date (the same as --version)",
		Args:  cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			_, err := fmt.Fprintln(c.OutOrStdout(), versionLine())
			return err
		},
	}
}
