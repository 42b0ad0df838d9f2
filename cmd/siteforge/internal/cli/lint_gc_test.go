package cli

import (
	"io"
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

// TestLintGC: lint raises GOGC to lintGCPercent and sets the memory limit
// while it runs and puts both back; a GOGC or GOMEMLIMIT of the user's is
// left alone.
func TestLintGC(t *testing.T) {
	before, beforeLimit := gcPercent(), memoryLimit()
	t.Run("default", func(t *testing.T) {
		t.Setenv("GOGC", "")
		t.Setenv("GOMEMLIMIT", "")
		restore := lintGC()
		if got := gcPercent(); got != lintGCPercent {
			t.Errorf("GOGC during lint = %d, want %d", got, lintGCPercent)
		}
		if got := memoryLimit(); got != lintMemoryLimit {
			t.Errorf("memory limit during lint = %d, want %d", got, lintMemoryLimit)
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
			restore := lintGC()
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
	})
}

// TestRenderGC: render runs with GOGC at lintGCPercent and the memory limit
// at lintMemoryLimit (seen from a site worker) and puts them back.
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
	if len(during) != 1 || during[0] != lintGCPercent || limits[0] != lintMemoryLimit {
		t.Errorf("GOGC, memory limit during render = %v, %v, want [%d], [%d]", during, limits, lintGCPercent, lintMemoryLimit)
	}
	if got := gcPercent(); got != before {
		t.Errorf("GOGC after render = %d, want %d back", got, before)
	}
}
