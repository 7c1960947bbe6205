package sessions

import (
	"fmt"
	"strings"
	"testing"
)

// benchHome is a busy home: n Codex rollouts of other projects (each with
// a 20 KB first line and 200 KB in all, as newer Codex writes them), ten of
// the wanted directory, and as many Claude transcripts.
func benchHome(b *testing.B, n int) *home {
	h := &home{t: b, dir: b.TempDir(), env: map[string]string{}}
	instr := strings.Repeat("i", 20<<10)
	body := strings.Repeat(`{"timestamp":"2026-11-22T10:00:00.000Z","type":"event_msg","payload":{"type":"token_count","info":null}}`+"\n", 2000)
	for i := range n {
		dir := "/work/other"
		if i%(n/10) == 0 {
			dir = "/work/proj"
		}
		meta := `{"timestamp":"2026-11-22T10:00:00.000Z","type":"session_meta","payload":{"id":"r` + fmt.Sprint(i) + `","cwd":"` + dir +
			`","base_instructions":{"text":"` + instr + `"}}}` + "\n"
		h.write(fmt.Sprintf(".codex/sessions/2026/11/%02d/rollout-%d.jsonl", 1+i%28, i), meta+codexFile(dir, "x", "prompt")+body, i)
		h.write(fmt.Sprintf(".claude/projects/-work-proj/c%d.jsonl", i), claudeFile("/work/proj", "c", "prompt")+body, i)
	}
	return h
}

// BenchmarkList lists a directory's sessions among 1000 rollouts and 1000
// transcripts: the work is the first lines of each file, not their size.
func BenchmarkList(b *testing.B) {
	h := benchHome(b, 1000)
	o := h.opts("/work/proj")
	b.ResetTimer()
	for b.Loop() {
		if r := List(o); len(r.Sessions) != 1010 {
			b.Fatalf("%d sessions", len(r.Sessions))
		}
	}
}

// BenchmarkLatestCodex finds the newest Codex session of a directory among
// 1000 rollouts.
func BenchmarkLatestCodex(b *testing.B) {
	h := benchHome(b, 1000)
	o := h.opts("/work/proj", Codex)
	b.ResetTimer()
	for b.Loop() {
		if r := Latest(o); len(r.Sessions) != 1 {
			b.Fatal("none")
		}
	}
}
