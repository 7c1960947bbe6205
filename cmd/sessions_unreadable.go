package cmd

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/agentfmt/agentfmt/internal/sessions"
)

// unreadableFolders says, one message each, which of the folders the
// sessions were looked for in exist but cannot be read (a permission
// problem, an I/O error): without it, a folder agentfmt may not read looks
// like a folder with no sessions. A folder that does not exist is no
// problem: the agent has saved nothing there. readDir is os.ReadDir.
func unreadableFolders(home string, searched []sessions.Searched, readDir func(string) ([]fs.DirEntry, error)) []string {
	var msgs []string
	for _, s := range searched {
		_, err := readDir(s.Dir)
		if err == nil || errors.Is(err, fs.ErrNotExist) {
			continue
		}
		why := err
		var pe *fs.PathError
		if errors.As(err, &pe) {
			why = pe.Err
		}
		msg := fmt.Sprintf("%s: cannot read %s's sessions folder: %v", tildePath(home, s.Dir), s.Agent, why)
		if errors.Is(err, fs.ErrPermission) {
			msg += " (its sessions are not listed: see its owner and permissions, ls -ld " + tildePath(home, s.Dir) + ")"
		}
		msgs = append(msgs, msg)
	}
	return msgs
}
