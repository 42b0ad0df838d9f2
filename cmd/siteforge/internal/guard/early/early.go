// Package early takes SIGINT and SIGTERM from the Go runtime before any
// other package of siteforge is initialised, so that a signal in the first
// milliseconds of a run ends it with exit 2, not with the signal (exit
// 143 or 130 in a shell).
//
// Between the runtime installing its signal handlers and signal.Notify, the
// runtime's answer to SIGTERM is to die of it; package initialisation of
// siteforge's dependencies (CUE, the OpenShift API types, ...) takes
// milliseconds. Go initialises packages sorted by import path, each as soon
// as its imports are (The Go Programming Language Specification, "Package
// initialization"): this package imports only os, os/signal, sync and
// syscall, which the runtime's own dependencies initialise first, so it
// runs right after os/signal (GODEBUG=inittrace=1 shows the order). Do not
// add imports to it.
//
// Until package guard takes the signals over (Handle), a signal ends the
// process with exit 2 at once: nothing can have been written yet.
package early

import (
	"os"
	"os/signal"
	"sync"
	"syscall"
)

var (
	ch      = make(chan os.Signal, 4)
	mu      sync.Mutex
	handler func(os.Signal)
)

func init() {
	signal.Notify(ch, syscall.SIGINT, syscall.SIGTERM)
	go loop()
}

func loop() {
	for sig := range ch {
		mu.Lock()
		h := handler
		mu.Unlock()
		if h == nil {
			os.Stderr.WriteString("siteforge: interrupted (" + Name(sig) + ") while starting: stopped; nothing was written\n")
			os.Exit(2)
		}
		h(sig)
	}
}

// Handle makes h the handler of SIGINT and SIGTERM from now on. h runs in
// the one goroutine that receives the signals: it must not block.
func Handle(h func(os.Signal)) {
	mu.Lock()
	handler = h
	mu.Unlock()
}

// Name is the signal's name as the shell writes it (SIGINT, SIGTERM).
func Name(sig os.Signal) string {
	switch sig {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return sig.String()
}
