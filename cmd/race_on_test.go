//go:build race

package cmd

// raceEnabled: the memory tests render tens of MB, too slow under the race
// detector (and its shadow memory would blur what they measure).
const raceEnabled = true
