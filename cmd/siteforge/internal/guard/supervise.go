package guard

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"

	"github.com/siteforge/siteforge/internal/diag"
)

// A Go program cannot survive its runtime's fatal errors: an allocation the
// operating system refuses ("runtime: out of memory") ends the process at
// once, with no recover, no deferred call and no signal handler. A CUE
// builtin can ask for such an allocation in a single call (strings.Replace
// of a 16 MiB string with an 8 MiB replacement asks for 128 TiB; CUE bounds
// repeat counts, adt.MaxRepeatCount, but not the sizes they multiply), and
// the CUE API has no hook to stop it before it allocates (see watchdog.go).
//
// So on Linux siteforge runs as two processes: a supervisor (this file and
// supervise_linux.go), which starts the same executable as a worker with
// the same arguments, standard input and output, and passes its standard
// error through; and the worker, which does the job. The worker tells the
// supervisor, on a pipe (workerFD), which site it is evaluating and which
// folders it stages output in. When the worker ends in a runtime fatal
// error or is killed, the supervisor swallows the runtime's stack dump,
// names the site that was being evaluated, rolls back or removes what the
// worker staged (the same recovery a later run would do), and exits 2.

// workerEnv marks the worker process; its value is the descriptor of the
// report pipe.
const workerEnv = "SITEFORGE_WORKER_FD"

// workerFD is the report pipe's descriptor in the worker (the first of
// exec.Cmd.ExtraFiles).
const workerFD = 3

var (
	reportMu sync.Mutex
	report   io.Writer // the report pipe in a worker; nil otherwise
)

// recoverStale removes what a killed run left in dir: stages and scratch
// folders named prefix<random> that no process holds. Set by SetRecover.
var (
	recoverMu    sync.Mutex
	recoverStale func(dir, prefix string) error
)

// SetRecover sets how the supervisor removes what a crashed worker left in
// an announced folder (output.RecoverStale).
func SetRecover(f func(dir, prefix string) error) {
	recoverMu.Lock()
	recoverStale = f
	recoverMu.Unlock()
}

// AnnounceCreated tells the supervisor that this run is about to create the
// folders dirs (deepest first): if the worker crashes, the supervisor
// removes those that are empty. A no-op outside a worker.
func AnnounceCreated(dirs []string) {
	for _, d := range dirs {
		send('C', d)
	}
}

// Announce tells the supervisor that this run is about to stage output in
// dir/prefix<random>: if the worker crashes, the supervisor recovers that
// folder. Call it before the folder is made. A no-op outside a worker.
func Announce(dir, prefix string) {
	send('R', dir, prefix)
}

func send(op byte, fields ...string) {
	reportMu.Lock()
	defer reportMu.Unlock()
	if report == nil {
		return
	}
	b := []byte{op}
	for i, f := range fields {
		if i > 0 {
			b = append(b, ' ')
		}
		b = strconv.AppendQuote(b, f)
	}
	b = append(b, '\n')
	// A write error means the supervisor is gone: Pdeathsig ends this
	// process soon, and nothing is lost by not reporting.
	_, _ = report.Write(b)
}

// workerState is what the supervisor learned from the report pipe.
type workerState struct {
	mu       sync.Mutex
	seq      int
	inFlight map[string]int // label -> the order it started in
	announce [][2]string    // (dir, prefix), in order, deduplicated
	seen     map[[2]string]bool
	created  []string // folders the worker was about to create, deepest first
}

func newWorkerState() *workerState {
	return &workerState{inFlight: map[string]int{}, seen: map[[2]string]bool{}}
}

// read consumes the report pipe until the worker closes it.
func (s *workerState) read(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) < 1 {
			continue
		}
		fields := unquoteFields(line[1:])
		s.mu.Lock()
		switch {
		case line[0] == '+' && len(fields) == 1:
			s.seq++
			s.inFlight[fields[0]] = s.seq
		case line[0] == '-' && len(fields) == 1:
			delete(s.inFlight, fields[0])
		case line[0] == 'R' && len(fields) == 2:
			k := [2]string{fields[0], fields[1]}
			if !s.seen[k] {
				s.seen[k] = true
				s.announce = append(s.announce, k)
			}
		case line[0] == 'C' && len(fields) == 1:
			s.created = append(s.created, fields[0])
		}
		s.mu.Unlock()
	}
	// A line over 1 MiB ends the scan; drain so the worker never blocks.
	_, _ = io.Copy(io.Discard, r)
}

func unquoteFields(b []byte) []string {
	var out []string
	for len(b) > 0 {
		q, err := strconv.QuotedPrefix(string(b))
		if err != nil {
			return nil
		}
		v, err := strconv.Unquote(q)
		if err != nil {
			return nil
		}
		out = append(out, v)
		b = bytes.TrimPrefix(b[len(q):], []byte(" "))
	}
	return out
}

// oldest is the site in progress that started first ("" when none).
func (s *workerState) oldest() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	label, best := "", 0
	for l, n := range s.inFlight {
		if best == 0 || n < best {
			label, best = l, n
		}
	}
	return label
}

// recover removes what the worker staged, as the next run would.
func (s *workerState) recover(errOut io.Writer) {
	recoverMu.Lock()
	f := recoverStale
	recoverMu.Unlock()
	s.mu.Lock()
	announced := append([][2]string(nil), s.announce...)
	created := append([]string(nil), s.created...)
	s.mu.Unlock()
	if f != nil {
		for _, a := range announced {
			if err := f(a[0], a[1]); err != nil {
				fmt.Fprintf(errOut, "siteforge: %s\n", diag.Clean(err.Error()))
			}
		}
	}
	// Empty only: never a folder something else has written into.
	for _, d := range created {
		_ = os.Remove(d)
	}
}

// stderrFilter passes the worker's standard error through, line by line,
// except a Go runtime fatal error: from its first line on, the output (the
// runtime's message and every goroutine's stack, hundreds of lines) is kept
// aside, bounded, and the supervisor prints its own message instead.
type stderrFilter struct {
	out   io.Writer
	held  []byte // a "runtime: " line, held until the next says whether a fatal error follows
	fatal []byte // the runtime's fatal message (first lines), once seen
	dead  bool   // inside a fatal error's dump
}

const fatalKeep = 4 << 10

func (f *stderrFilter) run(r io.Reader) {
	br := bufio.NewReaderSize(r, 64<<10)
	atStart := true
	for {
		chunk, err := br.ReadSlice('\n')
		if len(chunk) > 0 {
			f.chunk(chunk, atStart)
			atStart = chunk[len(chunk)-1] == '\n'
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			break
		}
	}
	if f.held != nil && !f.dead {
		_, _ = f.out.Write(f.held)
		f.held = nil
	}
}

func (f *stderrFilter) chunk(b []byte, atStart bool) {
	if f.dead {
		f.keep(b)
		return
	}
	if atStart && bytes.HasPrefix(b, []byte("fatal error: ")) {
		f.dead = true
		f.keep(f.held)
		f.held = nil
		f.keep(b)
		return
	}
	if f.held != nil {
		_, _ = f.out.Write(f.held)
		f.held = nil
	}
	// The runtime writes "runtime: out of memory: cannot allocate ..."
	// before "fatal error: out of memory".
	if atStart && bytes.HasPrefix(b, []byte("runtime: ")) && bytes.HasSuffix(b, []byte("\n")) && len(b) < fatalKeep {
		f.held = append([]byte(nil), b...)
		return
	}
	_, _ = f.out.Write(b)
}

func (f *stderrFilter) keep(b []byte) {
	if room := fatalKeep - len(f.fatal); room > 0 {
		f.fatal = append(f.fatal, b[:min(len(b), room)]...)
	}
}

// outOfMemory: the fatal error is the runtime's "out of memory" (the
// operating system refused an allocation).
func (f *stderrFilter) outOfMemory() bool {
	return bytes.Contains(f.fatal, []byte("fatal error: out of memory")) ||
		bytes.Contains(f.fatal, []byte("fatal error: runtime: out of memory"))
}

// firstFatalLine is the fatal error's message, as the runtime wrote it.
func (f *stderrFilter) firstFatalLine() string {
	i := bytes.Index(f.fatal, []byte("fatal error: "))
	if i < 0 {
		return ""
	}
	line := f.fatal[i:]
	if j := bytes.IndexByte(line, '\n'); j >= 0 {
		line = line[:j]
	}
	return string(line)
}

// crashMessage is what the supervisor prints for a worker that ended in a
// fatal error (fatal != "") or was killed by a signal (sig != "").
func crashMessage(site string, oom bool, fatal, sig string) string {
	switch {
	case oom && site != "":
		return fmt.Sprintf("%s: error: evaluating this site asked for more memory than one site may use (%d MiB) or the system gives; stopped (nothing was written)\n"+
			"  = hint: a site needs a few MiB: look for a builtin call or an interpolation whose result is far larger than a cluster could use (strings.Replace, strings.Repeat, strings.Join, list.Repeat, a string doubled in a loop)\n", diag.Clean(site), SiteAddressSpaceGrowth>>20)
	case oom:
		return "siteforge: error: out of memory: the system refused an allocation; stopped (nothing was written; any previous output is unchanged)\n"
	case sig != "" && site != "":
		return fmt.Sprintf("%s: error: siteforge was killed (%s) while evaluating this site; stopped (nothing was written)\n"+
			"  = hint: if the kernel's out-of-memory killer ended it, the site asks for far more memory than a cluster description needs\n", diag.Clean(site), sig)
	case sig != "":
		return fmt.Sprintf("siteforge: killed (%s); stopped (nothing was written; any previous output is unchanged)\n", sig)
	}
	return fmt.Sprintf("siteforge: internal error: %s\n"+
		"  this is a bug in siteforge, not in your input: please report it with the input that caused it (set SITEFORGE_DEBUG=1 for the runtime's output)\n", diag.Clean(fatal))
}
