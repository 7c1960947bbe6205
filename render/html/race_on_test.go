//go:build race

package html_test

const raceEnabled = true
