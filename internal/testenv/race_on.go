//go:build race

package testenv

// Race reports that the tests run under the race detector, which checks
// concurrency, not sizes: a test that renders megabytes where nothing runs
// concurrently uses a smaller input under it, and the memory and
// allocation tests, whose figures its shadow memory blurs, skip.
const Race = true
