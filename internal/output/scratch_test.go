package output

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestScratchAbortStopsWriters: Abort waits for a write in progress, then
// removes the folder; no write starts after it, and the move into place
// cannot happen (before: install-config's abort removed the folder while
// the writer went on writing into it or renamed it to DIR).
func TestScratchAbortStopsWriters(t *testing.T) {
	parent := t.TempDir()
	var sc Scratch
	tmp, err := sc.Create(parent, ".assets.siteforge-")
	if err != nil {
		t.Fatal(err)
	}
	inWrite := make(chan struct{})
	aborted := make(chan bool)
	go func() {
		<-inWrite
		aborted <- sc.Abort()
	}()
	err = sc.Do(func() error {
		close(inWrite)
		time.Sleep(50 * time.Millisecond) // the abort waits meanwhile
		return os.WriteFile(filepath.Join(tmp, "a"), []byte("x"), 0o600)
	})
	if err != nil {
		t.Fatal(err)
	}
	if !<-aborted {
		t.Fatal("Abort before the commit returned false")
	}
	if err := sc.Do(func() error { t.Error("a write ran after the abort"); return nil }); !errors.Is(err, ErrInterrupted) {
		t.Errorf("Do after Abort: %v", err)
	}
	if err := sc.Commit(func() error { t.Error("the commit ran after the abort"); return nil }); !errors.Is(err, ErrInterrupted) {
		t.Errorf("Commit after Abort: %v", err)
	}
	if left, _ := os.ReadDir(parent); len(left) > 0 {
		t.Errorf("left %v", left)
	}
}

// TestScratchAbortBeforeCreate: registered before the folder exists, an
// abort that comes first means it is never made.
func TestScratchAbortBeforeCreate(t *testing.T) {
	parent := t.TempDir()
	var sc Scratch
	if !sc.Abort() {
		t.Fatal("Abort returned false")
	}
	if _, err := sc.Create(parent, "siteforge-impact-"); !errors.Is(err, ErrInterrupted) {
		t.Errorf("Create after Abort: %v", err)
	}
	if left, _ := os.ReadDir(parent); len(left) > 0 {
		t.Errorf("left %v", left)
	}
}

// TestScratchRemovesKilledRuns: a folder of the prefix that nobody holds
// (its run was killed) goes when the next run creates its own; one a
// running process holds, and other names, stay.
func TestScratchRemovesKilledRuns(t *testing.T) {
	parent := t.TempDir()
	var running Scratch
	held, err := running.Create(parent, "siteforge-impact-")
	if err != nil {
		t.Fatal(err)
	}
	defer running.Abort()
	for _, n := range []string{"siteforge-impact-123", "siteforge-impact-x", "other-456"} {
		if err := os.MkdirAll(filepath.Join(parent, n, "sub"), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	var next Scratch
	mine, err := next.Create(parent, "siteforge-impact-")
	if err != nil {
		t.Fatal(err)
	}
	defer next.Abort()
	var got []string
	entries, _ := os.ReadDir(parent)
	for _, e := range entries {
		got = append(got, e.Name())
	}
	want := []string{filepath.Base(held), filepath.Base(mine), "siteforge-impact-x", "other-456"}
	for _, w := range want {
		if !strings.Contains(strings.Join(got, ","), w) {
			t.Errorf("%s was removed: %v", w, got)
		}
	}
	if strings.Contains(strings.Join(got, ","), "siteforge-impact-123") || len(got) != len(want) {
		t.Errorf("left %v, want %v", got, want)
	}
	if !next.Abort() {
		t.Error("Abort returned false")
	}
	if _, err := os.Stat(mine); err == nil {
		t.Error("Abort left the folder")
	}
	if _, err := os.Stat(held); err != nil {
		t.Error("another run's folder was removed")
	}
}
