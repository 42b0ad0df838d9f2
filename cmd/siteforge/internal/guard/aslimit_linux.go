//go:build linux

package guard

import (
	"bytes"
	"os"
	"strconv"
	"sync"

	"golang.org/x/sys/unix"
)

// The watchdog (watchdog.go) looks at the heap every few milliseconds: it
// stops a site whose memory grows step by step, but not one allocation
// that is itself too large, nor a string doubled in a few steps (each
// step one allocation twice the last: before the watchdog looks again, the
// heap is far past the limit; a site built so reached 8 GB). What bounds
// those is the kernel: while a site evaluates, the worker's address space
// may grow by at most SiteAddressSpaceGrowth (setrlimit RLIMIT_AS,
// getrlimit(2): "The maximum size of the process's virtual memory ... mmap(2)
// ... fail[s] with the error ENOMEM upon exceeding this limit"). The Go
// runtime takes the heap's memory with mmap and treats a refusal as fatal
// ("runtime: out of memory", runtime/malloc.go sysReserve and mheap.grow):
// the allocation is refused before a byte of it is used, the worker ends,
// and the supervisor names the site (supervise.go). Only the supervised
// worker is bounded so: elsewhere the runtime's dump would be the message.
//
// The bound is relative: each site that starts sets it to the address
// space in use then plus SiteAddressSpaceGrowth (never below what an
// earlier site still running was given), and the last site to end takes
// it away again (the limit the process started with, which a user's
// `ulimit -v` may have set, is kept whenever it is lower). Go does not
// give heap address space back to the system, so the space in use only
// grows: what sites before left behind is not counted against the next.
// No child process is started while a site evaluates (impact runs git
// before), so none inherits the bound.

var addrLimit struct {
	mu     sync.Mutex
	active int
	orig   unix.Rlimit
	cur    uint64
	broken bool
}

// boundAddressSpace sets the bound for a site that starts; the returned
// func ends it. A no-op outside a supervised worker, and where the limit
// cannot be read or set.
func boundAddressSpace() func() {
	reportMu.Lock()
	worker := report != nil
	reportMu.Unlock()
	if !worker {
		return func() {}
	}
	l := &addrLimit
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.broken {
		return func() {}
	}
	if l.active == 0 {
		if err := unix.Getrlimit(unix.RLIMIT_AS, &l.orig); err != nil {
			l.broken = true
			return func() {}
		}
		l.cur = l.orig.Cur
	}
	used, ok := addressSpaceInUse()
	if !ok {
		return func() {}
	}
	want := min(used+SiteAddressSpaceGrowth, l.orig.Cur, l.orig.Max)
	if l.active > 0 {
		want = max(want, l.cur)
	}
	if want != l.cur {
		if err := unix.Setrlimit(unix.RLIMIT_AS, &unix.Rlimit{Cur: want, Max: l.orig.Max}); err != nil {
			l.broken = l.active == 0
			return func() {}
		}
		l.cur = want
	}
	l.active++
	return func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		if l.active--; l.active == 0 && l.cur != l.orig.Cur {
			if unix.Setrlimit(unix.RLIMIT_AS, &l.orig) == nil {
				l.cur = l.orig.Cur
			}
		}
	}
}

// addressSpaceInUse is the process's virtual memory size, the quantity
// RLIMIT_AS bounds: the first field of /proc/self/statm, in pages (proc(5)).
// The file is opened once and read again from its start for each site (the
// kernel writes it anew on every read): one pread, not an open, a poller
// registration and a close per site.
func addressSpaceInUse() (uint64, bool) {
	fd, err := statm()
	if err != nil {
		return 0, false
	}
	var buf [256]byte
	n, err := unix.Pread(fd, buf[:], 0)
	for err == unix.EINTR {
		n, err = unix.Pread(fd, buf[:], 0)
	}
	if err != nil || n <= 0 {
		return 0, false
	}
	f, _, _ := bytes.Cut(buf[:n], []byte(" "))
	pages, err := strconv.ParseUint(string(f), 10, 64)
	if err != nil {
		return 0, false
	}
	return pages * uint64(os.Getpagesize()), true
}

// statm is this process's /proc/self/statm, opened once (close-on-exec).
var statm = sync.OnceValues(func() (int, error) {
	return unix.Open("/proc/self/statm", unix.O_RDONLY|unix.O_CLOEXEC, 0)
})
