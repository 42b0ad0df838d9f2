//go:build !race

package cli

// panicRuns is how many times TestWorkerPanicExits2 runs each verb: many,
// for the timing of a panic in a worker against the main goroutine's
// return (race_on_test.go: fewer under the race detector).
const panicRuns = 50
