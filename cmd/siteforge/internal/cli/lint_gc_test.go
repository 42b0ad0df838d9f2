package cli

import (
	"io"
	"runtime"
	"runtime/debug"
	"testing"
)

// gcPercent reads GOGC without changing it for longer than the call.
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// memoryLimit reads the soft memory limit (a negative input reads it).
func memoryLimit() int64 { return debug.SetMemoryLimit(-1) }

// TestLintGC: lint raises GOGC to fleetGCPercent and sets the memory limit
// while it runs and puts both back; a GOGC or GOMEMLIMIT of the user's is
// left alone.
func TestLintGC(t *testing.T) {
	before, beforeLimit := gcPercent(), memoryLimit()
	t.Run("default", func(t *testing.T) {
		t.Setenv("GOGC", "")
		t.Setenv("GOMEMLIMIT", "")
		restore := fleetGC()
		if got := gcPercent(); got != fleetGCPercent {
			t.Errorf("GOGC during lint = %d, want %d", got, fleetGCPercent)
		}
		if got, want := memoryLimit(), fleetMemoryLimit(runtime.GOMAXPROCS(0)); got != want {
			t.Errorf("memory limit during lint = %d, want %d", got, want)
		}
		restore()
		if got := gcPercent(); got != before {
			t.Errorf("GOGC after lint = %d, want %d back", got, before)
		}
		if got := memoryLimit(); got != beforeLimit {
			t.Errorf("memory limit after lint = %d, want %d back", got, beforeLimit)
		}
	})
	for _, v := range []string{"GOGC", "GOMEMLIMIT"} {
		t.Run(v, func(t *testing.T) {
			t.Setenv("GOGC", "")
			t.Setenv("GOMEMLIMIT", "")
			t.Setenv(v, "150")
			restore := fleetGC()
			if got := gcPercent(); got != before {
				t.Errorf("with %s set, GOGC during lint = %d, want %d (the user's)", v, got, before)
			}
			if got := memoryLimit(); got != beforeLimit {
				t.Errorf("with %s set, memory limit during lint = %d, want %d (the user's)", v, got, beforeLimit)
			}
			restore()
		})
	}
	t.Run("Main", func(t *testing.T) {
		t.Setenv("GOGC", "")
		t.Setenv("GOMEMLIMIT", "")
		if code := Main([]string{"lint", "../../../../examples"}, nil, io.Discard, io.Discard); code == ExitFailure {
			t.Fatalf("lint exited %d", code)
		}
		if got := gcPercent(); got != before {
			t.Errorf("GOGC after siteforge lint = %d, want %d back", got, before)
		}
		if got := memoryLimit(); got != beforeLimit {
			t.Errorf("memory limit after siteforge lint = %d, want %d back", got, beforeLimit)
		}
	})
}

// TestRenderGC: render runs with GOGC at fleetGCPercent and the memory limit
// at fleetMemoryLimit (seen from a site worker) and puts them back.
func TestRenderGC(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	before := gcPercent()
	var during []int
	var limits []int64
	testHookSite = func(string) { during, limits = append(during, gcPercent()), append(limits, memoryLimit()) }
	defer func() { testHookSite = nil }()
	if code := Main([]string{"render", "--stdout", "../../../../examples/remote-workers"}, nil, io.Discard, io.Discard); code != ExitOK {
		t.Fatalf("render exited %d", code)
	}
	if len(during) != 1 || during[0] != fleetGCPercent || limits[0] != fleetMemoryLimit(runtime.GOMAXPROCS(0)) {
		t.Errorf("GOGC, memory limit during render = %v, %v, want [%d], [%d]", during, limits, fleetGCPercent, fleetMemoryLimit(runtime.GOMAXPROCS(0)))
	}
	if got := gcPercent(); got != before {
		t.Errorf("GOGC after render = %d, want %d back", got, before)
	}
}

// TestLintMemoryLimit: the soft limit grows with the workers (each holds a
// site and a CUE context): 192 MiB on the 2-core machine of the budget.
func TestLintMemoryLimit(t *testing.T) {
	for workers, want := range map[int]int64{0: 128 << 20, 1: 128 << 20, 2: 192 << 20, 16: 1088 << 20} {
		if got := fleetMemoryLimit(workers); got != want {
			t.Errorf("fleetMemoryLimit(%d) = %d MiB, want %d MiB", workers, got>>20, want>>20)
		}
	}
}

// TestVetGC: vet runs with the settings of render and lint (seen from a
// site worker) and puts them back.
func TestVetGC(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	before, beforeLimit := gcPercent(), memoryLimit()
	var during []int
	var limits []int64
	testHookSite = func(string) { during, limits = append(during, gcPercent()), append(limits, memoryLimit()) }
	defer func() { testHookSite = nil }()
	if code := Main([]string{"vet", "../../../../examples/remote-workers"}, nil, io.Discard, io.Discard); code != ExitOK {
		t.Fatalf("vet exited %d", code)
	}
	if len(during) != 1 || during[0] != fleetGCPercent || limits[0] != fleetMemoryLimit(runtime.GOMAXPROCS(0)) {
		t.Errorf("GOGC, memory limit during vet = %v, %v, want [%d], [%d]", during, limits, fleetGCPercent, fleetMemoryLimit(runtime.GOMAXPROCS(0)))
	}
	if gcPercent() != before || memoryLimit() != beforeLimit {
		t.Errorf("GOGC, memory limit after vet = %d, %d, want %d, %d back", gcPercent(), memoryLimit(), before, beforeLimit)
	}
}
