package parsers

import "github.com/agentfmt/agentfmt/streaming"

// misreads is what the parser Force chose did not understand: n counts
// its unknown events, and claims, by agent, whose of them (the first
// maxLooks) another agent's detector says are its own.
type misreads struct {
	forced bool
	n      int
	claims map[string]int
	last   int // the line last looked at
}

// maxLooks is how many of a forced parser's unknown events are looked at
// for whose lines they are.
const maxLooks = 50

// lookAt counts an unknown event of the forced agent's parser, and which
// other agent claims its line.
func (d *Decoder) lookAt(ev *streaming.Event) {
	m := &d.mis
	m.n++
	if m.n > maxLooks || d.line.N != ev.Line || m.last == ev.Line && ev.Line > 0 {
		return
	}
	m.last = ev.Line
	for i := range d.agents {
		a := &d.agents[i]
		if a != d.curAgent && a.Detect(&d.line) == Decisive {
			if m.claims == nil {
				m.claims = map[string]int{}
			}
			m.claims[a.Name]++
			return
		}
	}
}

// Misread reports, when Force chose the agent, how many events its
// parser could not understand (unknown events), and the agent most of
// their lines look like ("" when none): --agent claude on a Codex log.
func (d *Decoder) Misread() (events int, looksLike string) {
	n := 0
	for name, c := range d.mis.claims {
		if c > n || c == n && name < looksLike {
			looksLike, n = name, c
		}
	}
	return d.mis.n, looksLike
}
