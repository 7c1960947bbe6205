//go:build race

package render

// raceEnabled: the race detector is on (slow tests skip).
const raceEnabled = true
