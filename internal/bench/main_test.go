//go:build bench

package main

import (
	"testing"
	"time"
)

// TestOverTarget: a row's value says which of its measurements are over
// the target, and nothing when none is.
func TestOverTarget(t *testing.T) {
	for _, c := range []struct {
		r    result
		want string
	}{
		{result{wall: time.Second, rss: 200 << 20}, ""},
		{result{wall: 2 * time.Second, rss: 256 << 20}, ""},
		{result{wall: time.Second, rss: 300 << 20}, "; OVER THE TARGET: peak RSS 300 MiB > 256 MiB"},
		{result{wall: 2500 * time.Millisecond, rss: 300 << 20}, "; OVER THE TARGET: wall 2.50 s > 2 s, peak RSS 300 MiB > 256 MiB"},
	} {
		if got := overTarget(c.r, targetMustGatherWall, targetMustGatherRSSMiB); got != c.want {
			t.Errorf("overTarget(%v) = %q, want %q", c.r, got, c.want)
		}
	}
}
