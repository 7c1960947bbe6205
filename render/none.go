package render

import (
	"io"

	"github.com/agentfmt/agentfmt/streaming"
)

// none is -o none: it renders nothing. With --otlp it makes a run that
// only exports (a backfill of saved sessions).
type none struct {
	stateless
	headless
}

func init() { Register("none", func(io.Writer, Config) Renderer { return none{} }) }

func (none) Handle(*streaming.Event) error { return nil }
func (none) Finish(Summary) error          { return nil }
func (none) Flush() error                  { return nil }
func (none) Lane(Lane) Renderer            { return none{} }

// noneView is none for several streams.
type noneView struct{ none }

func (noneView) Finish(bool) error { return nil }
