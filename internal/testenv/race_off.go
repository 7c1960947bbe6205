//go:build !race

package testenv

// Race reports that the tests run under the race detector (see
// race_on.go).
const Race = false
