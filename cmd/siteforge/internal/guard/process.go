package guard

import (
	"fmt"
	"io"
	"os"
	"sort"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/siteforge/siteforge/cmd/siteforge/internal/guard/early"
)

// The process ends in one of two ways, never both: Exit (the command
// returned) or abort (a signal, the watchdog). exitMu orders them: an abort
// holds it from its first cleanup until the process is gone, so a command
// that returns meanwhile blocks in Exit instead of exiting 0.
var (
	exitMu sync.Mutex

	cleanupMu sync.Mutex
	cleanups  = map[int]func() bool{}
	nextID    int

	// exit and errOut are replaced by tests.
	exit             = os.Exit
	errOut io.Writer = os.Stderr
)

// Exit ends the process with code, unless an abort is under way: then it
// blocks, and the abort ends the process with exit 2.
func Exit(code int) {
	exitMu.Lock()
	exit(code)
}

// OnAbort registers a cleanup that an abort runs before the process exits
// (latest first). The cleanup returns false when the job it guards has
// already completed (a render whose output is committed): the abort is then
// dropped and the command ends normally. The returned func unregisters it.
func OnAbort(f func() (abort bool)) (remove func()) {
	cleanupMu.Lock()
	defer cleanupMu.Unlock()
	nextID++
	id := nextID
	cleanups[id] = f
	return func() {
		cleanupMu.Lock()
		delete(cleanups, id)
		cleanupMu.Unlock()
	}
}

// Abort runs the cleanups, prints msg and exits 2. It returns only when a
// cleanup says the job already completed.
func Abort(msg string) {
	exitMu.Lock()
	cleanupMu.Lock()
	ids := make([]int, 0, len(cleanups))
	for id := range cleanups {
		ids = append(ids, id)
	}
	fs := make([]func() bool, 0, len(ids))
	sort.Sort(sort.Reverse(sort.IntSlice(ids)))
	for _, id := range ids {
		fs = append(fs, cleanups[id])
	}
	cleanupMu.Unlock()
	proceed := true
	for _, f := range fs {
		if !f() {
			proceed = false
		}
	}
	if !proceed {
		exitMu.Unlock()
		return
	}
	fmt.Fprint(errOut, msg)
	exit(2)
}

// HandleSignals turns SIGINT and SIGTERM into an abort: the cleanups run
// (a render removes its stage and keeps the previous output) and the
// process exits 2. A second signal exits at once. The signals are taken
// from the runtime by package early, before any other package is
// initialised; until HandleSignals runs, a signal exits 2 at once.
func HandleSignals() {
	var n atomic.Int32
	var first atomic.Int64 // when the first signal came, unix nanoseconds
	early.Handle(func(sig os.Signal) {
		now := time.Now().UnixNano()
		if n.Load() > 0 && now-first.Load() < sameSignalWindow.Nanoseconds() {
			return // the supervisor's copy of the signal just taken (supervise.go)
		}
		if n.Add(1) == 1 {
			first.Store(now)
		}
		if n.Load() > 1 {
			fmt.Fprintf(errOut, "siteforge: %s again: exiting now (a later run removes any stage or temporary folder left behind)\n", name(sig))
			exit(2)
			return
		}
		go Abort(fmt.Sprintf("siteforge: interrupted (%s): stopped; nothing was written and any previous output is unchanged\n", name(sig)))
	})
}

// sameSignalWindow: signals this close to the first are the same event.
// A Ctrl-C reaches the worker twice, from the terminal and from the
// supervisor (supervise.go); a person's second Ctrl-C comes later than this.
const sameSignalWindow = 250 * time.Millisecond

func name(sig os.Signal) string {
	if n, ok := sig.(syscall.Signal); ok && unix.SignalName(n) != "" {
		return unix.SignalName(n)
	}
	return sig.String()
}
