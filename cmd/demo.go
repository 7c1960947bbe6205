package cmd

import (
	"bufio"
	"bytes"
	_ "embed"
	"io"
	"time"

	"github.com/spf13/cobra"
	"github.com/tidwall/gjson"
)

// demoSession is a Claude Code run written for the demo: thinking, text
// streamed as deltas, parallel tool calls, a failed command, a subagent and
// a result with cost. Each line's "_t" is its arrival time in milliseconds.
//
//go:embed demo/session.jsonl
var demoSession []byte

// demoMaxGap caps the pause between two lines, so the demo stays short.
const demoMaxGap = 800 * time.Millisecond

func newDemo(env *Env, o *Options, code *int) *cobra.Command {
	speed := 1.0
	c := &cobra.Command{
		Use:   "demo",
		Short: "Replay a bundled agent session through the renderer",
		Long: `Replay a bundled Claude Code session (thinking, streamed text, parallel tool calls, a failed
command, a subagent, a result with cost) with its original pacing, so you can see what agentfmt
does without any agent installed. Every output flag applies: try 'agentfmt demo -o plain'. When
stdout is no terminal (agentfmt demo > file), the session is written at once, unless --speed is given.`,
		Args: cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if speed <= 0 {
				return usagef("--speed must be positive")
			}
			if err := o.validate(c); err != nil {
				return err
			}
			denv := *env
			denv.Stdin = demoInput(env, speed, c.Flags().Changed("speed"))
			n, err := runFormat(c.Context(), &denv, o, nil)
			*code = n
			return err
		},
	}
	c.Flags().Float64Var(&speed, "speed", 1, "replay speed factor (2 is twice as fast)")
	return c
}

// demoInput is the demo session as agentfmt reads it: at its pace on a
// terminal, or when --speed is given (paced); at once otherwise, as
// nobody watches a file being written.
func demoInput(env *Env, speed float64, paced bool) io.Reader {
	if !paced && !env.isTerminal(env.Stdout) {
		return bytes.NewReader(demoSession)
	}
	return newPacedReader(demoSession, speed)
}

// pacedReader hands out lines at the pace their "_t" fields give.
type pacedReader struct {
	lines [][]byte
	speed float64
	lastT float64
	cur   []byte
	sleep func(time.Duration)
}

func newPacedReader(data []byte, speed float64) *pacedReader {
	p := &pacedReader{speed: speed, sleep: time.Sleep}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 1<<20), 1<<24)
	for sc.Scan() {
		p.lines = append(p.lines, append(append([]byte(nil), sc.Bytes()...), '\n'))
	}
	return p
}

func (p *pacedReader) Read(b []byte) (int, error) {
	if len(p.cur) == 0 {
		if len(p.lines) == 0 {
			return 0, io.EOF
		}
		p.cur = p.lines[0]
		p.lines = p.lines[1:]
		if t := gjson.GetBytes(p.cur, "_t"); t.Exists() {
			gap := min(time.Duration((t.Float()-p.lastT)*float64(time.Millisecond)), demoMaxGap)
			p.lastT = t.Float()
			if gap > 0 {
				p.sleep(time.Duration(float64(gap) / p.speed))
			}
		}
	}
	n := copy(b, p.cur)
	p.cur = p.cur[n:]
	return n, nil
}
