//go:build race

package cli

// panicRuns is how many times TestWorkerPanicExits2 runs each verb. Under
// the race detector (make race) a run costs several times as much, and the
// detector reports a race from the first run that makes the racing
// accesses, whatever their timing: fewer runs there, the full count in
// the plain run (make unit).
const panicRuns = 10
