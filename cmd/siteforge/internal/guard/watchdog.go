package guard

import (
	"fmt"
	"runtime"
	"runtime/metrics"
	"sync"
	"time"
)

// The CUE API has no way to bound or cancel an evaluation (cuecontext
// offers no limit option and cue.Value no context; only string and list
// repetition are capped, adt.MaxRepeatCount), and a few lines of CUE can ask
// for billions of values: `for i in list.Range(0, 20000, 1) for j in ...`.
// Inputs are bounded before evaluation (file size, list and map sizes,
// alias expansion: see package load); what evaluation itself makes is
// bounded here, per site, by wall time and by heap growth. A site that
// exceeds either ends the run with exit 2 naming the site, after the
// cleanups ran.
const (
	// SiteTimeLimit is the longest one site may take to load and render.
	// A site takes milliseconds (make bench: about 6 ms); the limit leaves
	// three orders of magnitude for slow and loaded machines.
	SiteTimeLimit = 10 * time.Second
	// SiteHeapGrowthLimit bounds how much the heap may grow while a site
	// evaluates and stay grown through a collection (measured from the
	// lowest heap any site in progress started at; see check).
	// A site's evaluation allocates a few MiB; with the process's own
	// baseline this keeps vet and render of any input under 512 MiB.
	SiteHeapGrowthLimit = 256 << 20
	// SiteAddressSpaceGrowth is how much a supervised worker's address
	// space may grow while a site evaluates (aslimit_linux.go): twice
	// SiteHeapGrowthLimit (the heap grows in the runtime's 64 MiB arenas,
	// and the collector lets garbage accumulate up to GOGC's target before
	// it runs). It bounds what the watchdog cannot see coming: one
	// allocation far past the limit, a string doubled in a few steps.
	SiteAddressSpaceGrowth = 2 * SiteHeapGrowthLimit
	// watchInterval is how often the watchdog looks.
	watchInterval = 10 * time.Millisecond
)

// heapMetric is the heap's bytes in objects, live or not yet swept: it moves
// with every allocation, not only at the end of a GC cycle.
const heapMetric = "/memory/classes/heap/objects:bytes"

type task struct {
	label string
	start time.Time
	heap  uint64
}

// watchdog watches the sites being evaluated.
type watchdog struct {
	mu     sync.Mutex
	tasks  map[*task]struct{}
	limit  time.Duration
	growth uint64
	abort  func(msg string)
	// collect runs a full GC and returns the heap left (collectHeap; a
	// test's stand-in); collected is what it returned last, with the base
	// the tasks then had.
	collect       func() uint64
	collected     uint64
	collectedBase uint64
}

var (
	wdMu sync.Mutex
	wd   *watchdog
)

// StartWatchdog starts watching the work Track reports, with the limits
// above; an exceeded limit aborts the process (Abort). Only the process
// entry point starts it: in-process callers (tests, a library) get no
// watchdog and Track does nothing.
func StartWatchdog() { startWatchdog(SiteTimeLimit, SiteHeapGrowthLimit, Abort) }

func startWatchdog(limit time.Duration, growth uint64, abort func(string)) *watchdog {
	w := &watchdog{tasks: map[*task]struct{}{}, limit: limit, growth: growth, abort: abort, collect: collectHeap}
	wdMu.Lock()
	wd = w
	wdMu.Unlock()
	go w.run()
	return w
}

// Track reports that the work named label (a site's input path) starts;
// call the returned func when it ends.
func Track(label string) (done func()) {
	send('+', label)
	unbound := boundAddressSpace()
	wdMu.Lock()
	w := wd
	wdMu.Unlock()
	if w == nil {
		return func() {
			unbound()
			send('-', label)
		}
	}
	end := w.track(label)
	return func() {
		end()
		unbound()
		send('-', label)
	}
}

func (w *watchdog) track(label string) func() {
	t := &task{label: label, start: time.Now(), heap: heapBytes()}
	w.mu.Lock()
	w.tasks[t] = struct{}{}
	w.mu.Unlock()
	return func() {
		w.mu.Lock()
		delete(w.tasks, t)
		w.mu.Unlock()
	}
}

func (w *watchdog) run() {
	tick := time.NewTicker(watchInterval)
	defer tick.Stop()
	for range tick.C {
		if msg := w.check(time.Now(), heapBytes()); msg != "" {
			w.abort(msg)
			return
		}
	}
}

// check returns the abort message when a limit is exceeded. The heap holds
// the garbage of every worker too, as much as GOGC and the soft memory
// limit let accumulate (hundreds of MiB on a machine with many workers), so
// growth past the limit is only a sign: the watchdog then collects (a full
// GC, outside its lock) and what survives decides. While the same base
// stands it collects again only once the heap has grown by collectSlack
// past what the last collection left, so a site is stopped with at most
// that much more than the limit live.
func (w *watchdog) check(now time.Time, heap uint64) string {
	w.mu.Lock()
	oldest, base := w.oldest()
	if oldest == nil {
		w.mu.Unlock()
		return ""
	}
	if d := now.Sub(oldest.start); d > w.limit {
		w.mu.Unlock()
		return fmt.Sprintf("%s: error: evaluating this site took more than %s; stopped (nothing was written)\n"+
			"  = hint: a site takes milliseconds: look for a comprehension or a list far larger than a cluster could use\n", oldest.label, w.limit)
	}
	over := heap > base && heap-base > w.growth &&
		(base != w.collectedBase || heap > w.collected+w.growth/collectSlackDivisor)
	w.mu.Unlock()
	if !over {
		return ""
	}
	live := w.collect()
	w.mu.Lock()
	defer w.mu.Unlock()
	w.collected, w.collectedBase = live, base
	if oldest, base = w.oldest(); oldest != nil && live > base && live-base > w.growth {
		return fmt.Sprintf("%s: error: evaluating this site used more than %d MiB of memory; stopped (nothing was written)\n"+
			"  = hint: a site needs a few MiB: look for a comprehension or a list far larger than a cluster could use\n", oldest.label, w.growth>>20)
	}
	return ""
}

// collectSlackDivisor: collectSlack is w.growth / collectSlackDivisor
// (64 MiB for SiteHeapGrowthLimit).
const collectSlackDivisor = 4

// oldest is the task in progress that started first, and the lowest heap
// any task in progress started at; w.mu is held.
func (w *watchdog) oldest() (*task, uint64) {
	var oldest *task
	for t := range w.tasks {
		if oldest == nil || t.start.Before(oldest.start) || (t.start.Equal(oldest.start) && t.label < oldest.label) {
			oldest = t
		}
	}
	if oldest == nil {
		return nil, 0
	}
	base := oldest.heap
	for t := range w.tasks {
		base = min(base, t.heap)
	}
	return oldest, base
}

// collectHeap runs a full collection and returns the heap left: the live
// objects (runtime.GC returns once the heap is swept).
func collectHeap() uint64 {
	runtime.GC()
	return heapBytes()
}

func heapBytes() uint64 {
	s := []metrics.Sample{{Name: heapMetric}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}
