// Package renderenv is what the command sets of a renderer's surroundings
// that a program embedding render does not: the clock, the redraw ticker
// its tests drive by hand, and how long several streams' plain output
// waits for a line's end. They are not render.Config's fields, so that no
// test knob is in render's API; package render installs how a Config
// takes them (Install), and the command gives them with Set.
package renderenv

import "time"

// Env is a renderer's surroundings; its zero value is the real ones.
type Env struct {
	// Now returns the current time (nil: time.Now); tests fix it.
	Now func() time.Time
	// Tick, when set, replaces the pretty renderer's redraw and spinner
	// timer (tests drive it by hand); nil means a real ticker.
	Tick <-chan time.Time
	// PartialWait is how long, in plain output of several streams, a
	// stream's unfinished line waits for its end before it is shown as a
	// line (0: a second; tests shorten it).
	PartialWait time.Duration
}

// set stores an Env in the render.Config its first argument points to.
var set func(cfg any, e Env)

// Install is called by package render, once, with how a *render.Config
// takes an Env.
func Install(f func(cfg any, e Env)) { set = f }

// Set gives the render.Config cfg points to the surroundings e.
func Set(cfg any, e Env) { set(cfg, e) }
