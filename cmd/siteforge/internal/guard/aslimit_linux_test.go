//go:build linux

package guard

import (
	"io"
	"testing"

	"golang.org/x/sys/unix"
)

// TestBoundAddressSpace: in a worker, a site in progress bounds the
// address space at what is in use plus SiteAddressSpaceGrowth; a second
// site never lowers the first one's bound; the last to end restores the
// limit the process had, and a lower limit of the user's is kept. Outside
// a worker nothing is bounded.
func TestBoundAddressSpace(t *testing.T) {
	var start unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_AS, &start); err != nil {
		t.Skipf("SKIPPED: getrlimit: %v", err)
	}
	t.Cleanup(func() { unix.Setrlimit(unix.RLIMIT_AS, &start) })
	cur := func() uint64 {
		var l unix.Rlimit
		if err := unix.Getrlimit(unix.RLIMIT_AS, &l); err != nil {
			t.Fatal(err)
		}
		return l.Cur
	}

	// not a worker: nothing changes
	boundAddressSpace()()
	if cur() != start.Cur {
		t.Fatalf("outside a worker the limit moved to %d", cur())
	}

	reportMu.Lock()
	report = io.Discard
	reportMu.Unlock()
	t.Cleanup(func() { reportMu.Lock(); report = nil; reportMu.Unlock() })

	used, ok := addressSpaceInUse()
	if !ok || used == 0 {
		t.Fatal("no address space in use read from /proc/self/statm")
	}
	end1 := boundAddressSpace()
	first := cur()
	if first < used+SiteAddressSpaceGrowth-64<<20 || first > used+SiteAddressSpaceGrowth+64<<20 {
		t.Errorf("bound %d MiB, want about %d MiB in use + %d MiB", first>>20, used>>20, SiteAddressSpaceGrowth>>20)
	}
	// an allocation past the bound is refused by the kernel
	if _, err := unix.Mmap(-1, 0, int(first-used+(64<<20)), unix.PROT_READ, unix.MAP_ANON|unix.MAP_PRIVATE); err == nil {
		t.Error("a mapping past the bound was granted")
	}
	end2 := boundAddressSpace()
	if cur() < first {
		t.Errorf("a second site lowered the first one's bound: %d < %d", cur(), first)
	}
	end1()
	if cur() == start.Cur {
		t.Error("the bound went away while a site was still running")
	}
	end2()
	if cur() != start.Cur {
		t.Errorf("after the last site the limit is %d, want the process's %d", cur(), start.Cur)
	}

	// a user's lower limit is kept
	low := used + 256<<20
	if err := unix.Setrlimit(unix.RLIMIT_AS, &unix.Rlimit{Cur: low, Max: start.Max}); err != nil {
		t.Fatal(err)
	}
	end := boundAddressSpace()
	if cur() != low {
		t.Errorf("with ulimit -v %d MiB the bound is %d MiB", low>>20, cur()>>20)
	}
	end()
	if cur() != low {
		t.Errorf("the user's limit was not restored: %d", cur())
	}
}

// TestAddressSpaceInUseFresh: each read of the kept /proc/self/statm is
// the address space in use then (a mapping made between two reads shows).
func TestAddressSpaceInUseFresh(t *testing.T) {
	before, ok := addressSpaceInUse()
	if !ok {
		t.Fatal("no address space in use read from /proc/self/statm")
	}
	const size = 256 << 20
	m, err := unix.Mmap(-1, 0, size, unix.PROT_READ, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		t.Fatal(err)
	}
	after, ok := addressSpaceInUse()
	unix.Munmap(m)
	if !ok || after < before+size-(32<<20) {
		t.Fatalf("address space in use %d MiB, then %d MiB after mapping %d MiB", before>>20, after>>20, size>>20)
	}
	if again, _ := addressSpaceInUse(); again > after-size+(32<<20) {
		t.Fatalf("address space in use %d MiB after unmapping, %d MiB before", again>>20, after>>20)
	}
}
