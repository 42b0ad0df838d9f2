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

// TestLintGC: lint raises GOGC to lintGCPercent while it runs and puts it
// back; a GOGC or GOMEMLIMIT of the user's is left alone.
func TestLintGC(t *testing.T) {
	before := gcPercent()
	t.Run("default", func(t *testing.T) {
		t.Setenv("GOGC", "")
		t.Setenv("GOMEMLIMIT", "")
		restore := lintGC()
		if got := gcPercent(); got != lintGCPercent {
			t.Errorf("GOGC during lint = %d, want %d", got, lintGCPercent)
		}
		restore()
		if got := gcPercent(); got != before {
			t.Errorf("GOGC after lint = %d, want %d back", got, before)
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

// TestRenderGC: render runs with GOGC at lintGCPercent (seen from a site
// worker) and puts it back.
func TestRenderGC(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	before := gcPercent()
	var during []int
	testHookSite = func(string) { during = append(during, gcPercent()) }
	defer func() { testHookSite = nil }()
	if code := Main([]string{"render", "--stdout", "../../../../examples/remote-workers"}, nil, io.Discard, io.Discard); code != ExitOK {
		t.Fatalf("render exited %d", code)
	}
	if len(during) != 1 || during[0] != lintGCPercent {
		t.Errorf("GOGC during render = %v, want [%d]", during, lintGCPercent)
	}
	if got := gcPercent(); got != before {
		t.Errorf("GOGC after render = %d, want %d back", got, before)
	}
}
