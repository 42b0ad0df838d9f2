package guard

import (
	"bytes"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestGroupRepanicsInWaiter(t *testing.T) {
	for i := 0; i < 200; i++ {
		var g Group
		var ran sync.WaitGroup
		ran.Add(4)
		for w := 0; w < 4; w++ {
			g.Go(func() {
				defer ran.Done()
				if w == 2 {
					panic("boom")
				}
				<-g.Done() // the others stop when one panics
			})
		}
		func() {
			defer func() {
				p := Recovered(recover())
				if p == nil || p.Value != "boom" || len(p.Stack) == 0 {
					t.Fatalf("Wait did not re-panic with the worker's panic: %#v", p)
				}
				if !strings.Contains(string(p.Stack), "guard_test.go") {
					t.Errorf("the stack is not the worker's:\n%s", p.Stack)
				}
			}()
			g.Wait()
			t.Fatal("Wait returned after a panic")
		}()
		ran.Wait()
	}
}

func TestGroupWithoutPanic(t *testing.T) {
	var g Group
	n := 0
	var mu sync.Mutex
	for i := 0; i < 8; i++ {
		g.Go(func() { mu.Lock(); n++; mu.Unlock() })
	}
	g.Wait()
	if n != 8 {
		t.Errorf("ran %d of 8", n)
	}
}

// fakeExit replaces the process exit for a test: it reports the code, then
// (once the test closes release, or at its end) gives up the exit lock and
// ends its goroutine, as a process exit would end everything.
func fakeExit(t *testing.T) (codes chan int, out *bytes.Buffer, release func()) {
	codes = make(chan int, 4)
	out = &bytes.Buffer{}
	gate := make(chan struct{})
	var once sync.Once
	release = func() { once.Do(func() { close(gate) }) }
	oldExit, oldOut := exit, errOut
	exit = func(c int) {
		codes <- c
		<-gate
		exitMu.Unlock()
		runtime.Goexit()
	}
	errOut = out
	t.Cleanup(func() {
		release()
		exitMu.Lock() // wait for every fake exit to let go
		exitMu.Unlock()
		exit, errOut = oldExit, oldOut
	})
	return codes, out, release
}

func TestAbortRunsCleanupsThenExits2(t *testing.T) {
	codes, out, release := fakeExit(t)
	var order []string
	defer OnAbort(func() bool { order = append(order, "first"); return true })()
	defer OnAbort(func() bool { order = append(order, "second"); return true })()
	go Abort("stopped\n")
	if c := <-codes; c != 2 {
		t.Errorf("exit %d", c)
	}
	if strings.Join(order, ",") != "second,first" || out.String() != "stopped\n" {
		t.Errorf("cleanups %v, message %q", order, out.String())
	}
	// the abort holds the exit: a command returning now cannot exit 0
	exited := make(chan struct{})
	go func() { Exit(0); close(exited) }()
	select {
	case <-exited:
		t.Error("Exit(0) went through during an abort")
	case c := <-codes:
		t.Errorf("Exit(%d) went through during an abort", c)
	case <-time.After(100 * time.Millisecond):
	}
	release()
	if c := <-codes; c != 0 {
		t.Errorf("after the abort, Exit(%d)", c)
	}
}

func TestAbortDroppedWhenJobCompleted(t *testing.T) {
	codes, _, _ := fakeExit(t)
	defer OnAbort(func() bool { return false })() // committed: too late to undo
	Abort("stopped\n")                            // returns
	go Exit(0)
	if c := <-codes; c != 0 {
		t.Errorf("exit %d, want the command's 0", c)
	}
}

func TestWatchdogLimits(t *testing.T) {
	var msgs []string
	var live uint64 // what the stand-in collection leaves
	collections := 0
	w := &watchdog{tasks: map[*task]struct{}{}, limit: time.Second, growth: 100, abort: func(m string) { msgs = append(msgs, m) },
		collect: func() uint64 { collections++; return live }}
	now := time.Now()
	if m := w.check(now, 1000); m != "" {
		t.Errorf("no task, message %q", m)
	}
	w.tasks[&task{label: "sites/a", start: now.Add(-2 * time.Second), heap: 1000}] = struct{}{}
	w.tasks[&task{label: "sites/b", start: now, heap: 1000}] = struct{}{}
	if m := w.check(now, 1000); !strings.Contains(m, "sites/a: error: evaluating this site took more than 1s") {
		t.Errorf("time limit: %q", m)
	}
	w.tasks = map[*task]struct{}{{label: "sites/c", start: now, heap: 1000}: {}}
	if m := w.check(now, 1050); m != "" {
		t.Errorf("within the growth limit: %q", m)
	}
	// past the limit, but mostly garbage: a collection leaves 1090
	live = 1090
	if m := w.check(now, 1200); m != "" || collections != 1 {
		t.Errorf("garbage past the growth limit: %q after %d collections, want none after 1", m, collections)
	}
	// no second collection before the heap grew by the slack (100/4)
	// past what the last one left
	if m := w.check(now, 1110); m != "" || collections != 1 {
		t.Errorf("heap 1110 after a collection left 1090: %q, %d collections, want 1", m, collections)
	}
	// live growth past the limit, found by the next collection
	live = 1101
	if m := w.check(now, 1120); !strings.Contains(m, "sites/c: error: evaluating this site used more than") || collections != 2 {
		t.Errorf("growth limit: %q after %d collections", m, collections)
	}
	// another base (other sites in progress): no slack from the last one
	w.tasks = map[*task]struct{}{{label: "sites/e", start: now, heap: 900}: {}}
	live = 950
	if m := w.check(now, 1101); m != "" || collections != 3 {
		t.Errorf("new base: %q after %d collections, want none after 3", m, collections)
	}
	done := w.track("sites/d")
	done()
	if len(w.tasks) != 1 {
		t.Errorf("track/done left %d tasks", len(w.tasks))
	}
}
