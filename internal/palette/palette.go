// Package palette colours output: a Palette of styling functions that are
// the identity when colour is off, so that renderers share one code path.
// The renderers (render.Config.Color) and the command's own listings use
// it.
package palette

import "github.com/fatih/color"

// Palette colours output. Each field is the identity when colour is off,
// so renderers share one code path; it is a value decided once by the
// command, never a global.
type Palette struct {
	Enabled bool
	Dim     func(string) string
	Bold    func(string) string
	Red     func(string) string
	Green   func(string) string
	Yellow  func(string) string
	Blue    func(string) string
	Magenta func(string) string
	Cyan    func(string) string

	// Off is set when every field is the identity (New(false)): then a
	// renderer may write the pieces of a styled text one by one.
	Off bool
}

func identity(s string) string { return s }

// New returns a palette with colour on or off.
func New(enabled bool) Palette {
	if !enabled {
		return Palette{Dim: identity, Bold: identity, Red: identity, Green: identity,
			Yellow: identity, Blue: identity, Magenta: identity, Cyan: identity, Off: true}
	}
	mk := func(attrs ...color.Attribute) func(string) string {
		c := color.New(attrs...)
		c.EnableColor()
		return func(s string) string {
			if s == "" {
				return s
			}
			return c.Sprint(s)
		}
	}
	return Palette{
		Enabled: true,
		Dim:     mk(color.Faint),
		Bold:    mk(color.Bold),
		Red:     mk(color.FgRed),
		Green:   mk(color.FgGreen),
		Yellow:  mk(color.FgYellow),
		Blue:    mk(color.FgBlue),
		Magenta: mk(color.FgMagenta),
		Cyan:    mk(color.FgCyan),
	}
}
