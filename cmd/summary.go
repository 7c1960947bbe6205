package cmd

import (
	"errors"
	"os"
	"strings"

	"github.com/agentfmt/agentfmt/render"
)

// The GitHub job summary: a markdown summary of every run read (outcome,
// duration, turns, tokens, cost, tool calls, the final answer), appended
// to the file named by $GITHUB_STEP_SUMMARY: with --summary auto when the
// variable is set (GitHub Actions sets it for every step), with always
// whenever it is set (an error if it is not), never with never. With
// several FILEs, each one's run has its part, named after the FILE: a
// failing run before a passing one is not hidden by it (the exit status
// is the worst run's). The summary does not depend on -o.

// stepSummaryPath is the file the job summary goes to, "" for none.
func stepSummaryPath(env *Env, o *Options) (string, error) {
	path := env.getenv("GITHUB_STEP_SUMMARY")
	switch o.Summary {
	case "never":
		return "", nil
	case "always":
		if path == "" {
			return "", errors.New("GITHUB_STEP_SUMMARY is not set")
		}
	}
	return path, nil
}

// noteStep adds the summary of the session's last run, which ended as sum
// says, to the job summary.
func (p *pipeline) noteStep(sum render.Summary) {
	p.unsummarised = false
	if path, _ := stepSummaryPath(p.env, p.o); path == "" {
		return
	}
	answer := p.out.shown(sum.Answer)
	p.steps = append(p.steps, render.StepSummary(p.sess.Run(), sum, answer, p.o.Until, p.input))
}

// writeStepSummary appends the runs' summaries to the job summary file.
// The file is opened in append mode: other steps' summaries and earlier
// agentfmt runs in the same step are kept.
func writeStepSummary(env *Env, o *Options, steps []string) error {
	path, err := stepSummaryPath(env, o)
	if path == "" || err != nil {
		return err
	}
	text := strings.Join(steps, "\n")
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
