package cmd

// shows is what an output format shows, where the command does work for
// it alone: the configuration of the filters, the decoder and the end of
// a run, by format (the renderers are not asked).
type shows struct {
	// person: a format for a person, which shows the agent's chatter
	// only with --verbose and a long raw line in pieces (json is data
	// and keeps everything; text shows only the answer).
	person bool
	// answer: the final answer, joined at the end from the pieces the
	// session holds (megabytes, maybe): -o text prints it.
	answer bool
	// edits: file edits, which the decoder derives from tool inputs;
	// laneEdits, the same in a lane of several streams.
	edits, laneEdits bool
}

// formatShows is what each format shows (-o).
var formatShows = map[string]shows{
	"pretty":   {person: true, edits: true, laneEdits: true},
	"plain":    {person: true, edits: true},
	"markdown": {person: true, edits: true},
	"html":     {person: true, edits: true},
	"json":     {edits: true, laneEdits: true},
	"text":     {answer: true},
	"none":     {},
}
