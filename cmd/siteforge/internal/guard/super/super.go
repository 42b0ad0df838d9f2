// Package super makes the siteforge process the supervisor of a worker
// (guard.Supervise) from its package initialisation, not from main: the
// supervisor never runs the initialisation of the packages only the worker
// needs (CUE, the OpenShift and Kubernetes API types, protobuf: about 10 ms
// of a run's start, which the worker pays once instead of both processes
// paying it). Go initialises packages in import-path order, each as soon as
// its imports are (The Go Programming Language Specification, "Package
// initialization"); this package imports only guard and output, whose
// imports are light, so it runs a few milliseconds into the start.
//
// Only package main imports it: a test binary is never supervised.
package super

import (
	"os"

	"github.com/siteforge/siteforge/cmd/siteforge/internal/guard"
	"github.com/siteforge/siteforge/internal/output"
)

// unsupervised are the commands and flags that evaluate no site and write
// nothing: they run in one process (a second would double their start,
// about 15 ms of a `siteforge version`). A panic in them is still exit 2
// (guard.Process).
var unsupervised = map[string]bool{
	"version": true, "--version": true, "-V": true,
	"explain": true, "completion": true, "help": true, "--help": true, "-h": true,
	// cobra's hidden completion requests (the shell asks at every TAB)
	"__complete": true, "__completeNoDesc": true,
}

func init() {
	if len(os.Args) < 2 || unsupervised[os.Args[1]] {
		return
	}
	// The supervisor recovers what a crashed worker staged the way the
	// next run would: render's stages rolled back, temporary folders
	// removed.
	guard.SetRecover(output.RecoverStale)
	guard.Supervise() // on Linux: the supervisor exits here; the worker goes on
}
