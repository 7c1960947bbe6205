package parsers

import "github.com/agentfmt/agentfmt/streaming"

// maxLooks is how many of a forced parser's unknown events are looked at
// for whose lines they are.
const maxLooks = 50

// lookAt counts an unknown event of the forced agent's parser, and which
// other agent claims its line.
func (d *Decoder) lookAt(ev *streaming.Event) {
	d.misread++
	if d.misread > maxLooks || d.line.N != ev.Line || d.claimed == ev.Line && ev.Line > 0 {
		return
	}
	d.claimed = ev.Line
	for i := range d.agents {
		a := &d.agents[i]
		if a != d.curAgent && a.Detect(&d.line) == Decisive {
			if d.claims == nil {
				d.claims = map[string]int{}
			}
			d.claims[a.Name]++
			return
		}
	}
}

// Misread reports, when Force chose the agent, how many events its
// parser could not understand (unknown events), and the agent most of
// their lines look like ("" when none): --agent claude on a Codex log.
func (d *Decoder) Misread() (events int, looksLike string) {
	n := 0
	for name, c := range d.claims {
		if c > n || c == n && name < looksLike {
			looksLike, n = name, c
		}
	}
	return d.misread, looksLike
}
