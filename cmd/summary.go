package cmd

import (
	"errors"
	"os"

	"github.com/agentfmt/agentfmt/render"
)

// writeStepSummary appends a markdown summary of the last run (outcome,
// duration, turns, tokens, cost, tool calls, the final answer) to the
// file named by $GITHUB_STEP_SUMMARY: with --summary auto when the
// variable is set (GitHub Actions sets it for every step), with always
// whenever it is set (an error if it is not), never with never. The file
// is opened in append mode: other steps' summaries and earlier agentfmt
// runs in the same step are kept. The summary does not depend on -o.
func writeStepSummary(env *Env, o *Options, sum render.Summary, rend render.Renderer) error {
	path := env.getenv("GITHUB_STEP_SUMMARY")
	switch o.Summary {
	case "never":
		return nil
	case "always":
		if path == "" {
			return errors.New("GITHUB_STEP_SUMMARY is not set")
		}
	default:
		if path == "" {
			return nil
		}
	}
	facts := &render.RunFacts{}
	answer := sum.Answer
	if out, ok := rend.(*output); ok {
		facts = &out.facts
		answer = out.shown(answer)
	}
	text := render.StepSummary(facts, sum, answer, o.Until)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	if st, err := f.Stat(); err == nil && st.Size() > 0 {
		// After what is there, as a block of its own.
		text = "\n" + text
		var last [1]byte
		if _, err := f.ReadAt(last[:], st.Size()-1); err == nil && last[0] != '\n' {
			text = "\n" + text
		}
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
