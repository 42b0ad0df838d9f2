// Package guard keeps siteforge's exit-code promise when something goes
// wrong inside the process: a panic in any goroutine, a site whose
// evaluation runs away, or SIGINT/SIGTERM. Each ends the run with exit 2
// after the registered cleanups ran (a render's stage is removed, the
// previous output stays as it was); none can end it with exit 0.
//
// Goroutines are started through a Group, which recovers a panic and hands
// it to the goroutine that waits; the CLI recovers it there, in one place.
// The process ends through Exit (the normal path) or abort (signal,
// watchdog), serialised so that a run that is being aborted can never exit
// 0 behind the abort's back.
package guard

import (
	"fmt"
	"os"
	"runtime/debug"
	"sync"
)

// Panic is a panic recovered in a goroutine: the value and the stack of the
// goroutine that panicked.
type Panic struct {
	Value any
	Stack []byte
}

func (p *Panic) Error() string { return fmt.Sprintf("panic: %v", p.Value) }

// Group runs goroutines and waits for them. A panic in one is recovered;
// Done is closed so that the others (and whoever feeds them) stop, and Wait
// re-panics with the *Panic in the waiting goroutine, where the caller's
// recovery point turns it into exit 2.
type Group struct {
	wg   sync.WaitGroup
	once sync.Once
	done chan struct{}
	mu   sync.Mutex
	p    *Panic
}

func (g *Group) init() { g.once.Do(func() { g.done = make(chan struct{}) }) }

// Done is closed when a goroutine of the group panicked.
func (g *Group) Done() <-chan struct{} {
	g.init()
	return g.done
}

// Go runs f in a new goroutine.
func (g *Group) Go(f func()) {
	g.init()
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		defer func() {
			if r := recover(); r != nil {
				g.mu.Lock()
				if g.p == nil {
					g.p = asPanic(r, debug.Stack())
					close(g.done)
				}
				g.mu.Unlock()
			}
		}()
		f()
	}()
}

// Wait waits for every goroutine; if one panicked, Wait panics with its
// *Panic.
func (g *Group) Wait() {
	g.wg.Wait()
	g.mu.Lock()
	p := g.p
	g.mu.Unlock()
	if p != nil {
		panic(p)
	}
}

// asPanic keeps a *Panic that is re-panicked as it is (its stack is the
// original one).
func asPanic(r any, stack []byte) *Panic {
	if p, ok := r.(*Panic); ok {
		return p
	}
	return &Panic{Value: r, Stack: stack}
}

// Recovered turns a recovered value into a *Panic (nil stays nil).
func Recovered(r any) *Panic {
	if r == nil {
		return nil
	}
	return asPanic(r, debug.Stack())
}

// InternalError is the message for a panic: one line, then where to report
// it. The stack is printed only when SITEFORGE_DEBUG is set.
func InternalError(p *Panic) string {
	msg := fmt.Sprintf("siteforge: internal error: %v\n"+
		"  this is a bug in siteforge, not in your input: please report it with the input that caused it (set SITEFORGE_DEBUG=1 for the stack)\n", p.Value)
	if os.Getenv("SITEFORGE_DEBUG") != "" {
		msg += string(p.Stack)
	}
	return msg
}
