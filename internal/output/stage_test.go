package output

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// render stages sites a, b and c with content v and returns the stage.
func stageSites(t *testing.T, dir, v string, names ...string) *Stage {
	t.Helper()
	st, err := NewStage(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		if err := st.Add(Site{Name: n, Files: map[string][]byte{"f.yaml": []byte(n + v)}}); err != nil {
			t.Fatal(err)
		}
	}
	return st
}

func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	got := readTree(t, dir)
	return got
}

func TestCommitReplacesAllSites(t *testing.T) {
	dir := t.TempDir()
	if err := stageSites(t, dir, "1", "a", "b").Commit(); err != nil {
		t.Fatal(err)
	}
	if err := stageSites(t, dir, "2", "a", "b", "c").Commit(); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"a/f.yaml": "a2", "b/f.yaml": "b2", "c/f.yaml": "c2"}
	if got := tree(t, dir); !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// TestCommitFailureRollsBackEverySite: a swap that fails half-way through
// the sites leaves every site as it was (before: the sites swapped before
// the failure stayed new).
func TestCommitFailureRollsBackEverySite(t *testing.T) {
	dir := t.TempDir()
	if err := stageSites(t, dir, "1", "a", "b", "c").Commit(); err != nil {
		t.Fatal(err)
	}
	before := tree(t, dir)
	st := stageSites(t, dir, "2", "a", "b", "c", "d")
	// the third swap fails (a full disk, a mount point in the way)
	testSwapFault = func(name string) error {
		if name == "c" {
			return errors.New("no space left on device")
		}
		return nil
	}
	defer func() { testSwapFault = nil }()
	if err := st.Commit(); err == nil || !strings.Contains(err.Error(), "no space") {
		t.Fatalf("commit = %v", err)
	}
	if _, err := os.Stat(st.tmp); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("failed commit left its stage: %v", err)
	}
	if got := tree(t, dir); !reflect.DeepEqual(got, before) {
		t.Errorf("after a failed commit: %v, want the previous output %v", got, before)
	}
}

func TestAbortDuringCommitRollsBack(t *testing.T) {
	dir := t.TempDir()
	if err := stageSites(t, dir, "1", "a", "b").Commit(); err != nil {
		t.Fatal(err)
	}
	before := tree(t, dir)
	st := stageSites(t, dir, "2", "a", "b")
	st.cancel.Store(true) // as Abort does before it waits for the commit
	if err := st.Commit(); !errors.Is(err, ErrInterrupted) {
		t.Fatalf("commit after cancel: %v", err)
	}
	if !st.Abort() {
		t.Error("Abort of an interrupted commit says it was committed")
	}
	if got := tree(t, dir); !reflect.DeepEqual(got, before) {
		t.Errorf("got %v, want %v", got, before)
	}
	// A committed stage cannot be aborted: the run is complete.
	st = stageSites(t, dir, "3", "a")
	if err := st.Commit(); err != nil {
		t.Fatal(err)
	}
	if st.Abort() {
		t.Error("Abort after Commit claims to undo it")
	}
}

// crash commits the first n swaps of a stage, then dies as kill -9 would:
// the stage stays on disk and its lock goes with the process.
func crash(t *testing.T, st *Stage, n int, fallbackStep int) {
	t.Helper()
	entries, err := st.journal()
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		if err := swapIn(st.tmp, st.dir, &entries[i]); err != nil {
			t.Fatal(err)
		}
	}
	if fallbackStep > 0 {
		// the rename fallback killed after step 1 or 2 of 3
		e := entries[n]
		old := filepath.Join(st.tmp, oldPrefix+e.name)
		if err := os.Rename(filepath.Join(st.dir, e.name), old); err != nil {
			t.Fatal(err)
		}
		if fallbackStep > 1 {
			if err := os.Rename(filepath.Join(st.tmp, e.name), filepath.Join(st.dir, e.name)); err != nil {
				t.Fatal(err)
			}
		}
	}
	st.release()
}

// TestKilledRenderIsRolledBack: a render killed in the middle of its swaps
// (kill -9: no cleanup ran) leaves a stage that the next render finds,
// rolls back from its journal and removes; render --check reports it
// until then.
func TestKilledRenderIsRolledBack(t *testing.T) {
	for name, tc := range map[string]struct{ swaps, fallbackStep int }{
		"before any swap":          {0, 0},
		"after one swap":           {1, 0},
		"after every swap":         {3, 0},
		"rename fallback, step 1":  {1, 1},
		"rename fallback, step 2":  {1, 2},
		"new site after its swap":  {3, 0},
		"rename fallback, step 2b": {0, 2},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			if err := stageSites(t, dir, "1", "a", "b", "c").Commit(); err != nil {
				t.Fatal(err)
			}
			before := tree(t, dir)
			names := []string{"a", "b", "c"}
			if name == "new site after its swap" {
				names = append(names, "d") // d is new: rolled back, it goes
			}
			st := stageSites(t, dir, "2", names...)
			crash(t, st, tc.swaps, tc.fallbackStep)
			stale := StaleStages(dir)
			if len(stale) != 1 || stale[0] != st.tmp {
				t.Fatalf("StaleStages = %v, want [%s]", stale, st.tmp)
			}
			next, err := NewStage(dir)
			if err != nil {
				t.Fatal(err)
			}
			next.Abort()
			if got := tree(t, dir); !reflect.DeepEqual(got, before) {
				t.Errorf("after recovery: %v, want the output before the killed render %v", got, before)
			}
			if _, err := os.Stat(st.tmp); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("stale stage left behind: %v", err)
			}
		})
	}
}

// TestRunningStageIsNotStale: a stage whose render is alive is never taken
// for a leftover (concurrent renders into one directory).
func TestRunningStageIsNotStale(t *testing.T) {
	dir := t.TempDir()
	st := stageSites(t, dir, "1", "a")
	if s := StaleStages(dir); len(s) != 0 {
		t.Errorf("a live stage is reported stale: %v", s)
	}
	other, err := NewStage(dir)
	if err != nil {
		t.Fatal(err)
	}
	other.Abort()
	if _, err := os.Stat(st.tmp); err != nil {
		t.Fatalf("a concurrent render removed a live stage: %v", err)
	}
	if err := st.Commit(); err != nil {
		t.Fatal(err)
	}
}

// TestUndoKeepsWhatOthersWrote: undo of a failed run removes only the empty
// folders it created (before: RemoveAll of the topmost one, which deleted a
// concurrent render's output).
func TestUndoKeepsWhatOthersWrote(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "new", "out")
	undo, err := PrepareDir(out)
	if err != nil {
		t.Fatal(err)
	}
	// a concurrent render writes its site meanwhile
	if err := Write(out, Site{Name: "other", Files: map[string][]byte{"f": []byte("x")}}); err != nil {
		t.Fatal(err)
	}
	undo()
	if b, err := os.ReadFile(filepath.Join(out, "other", "f")); err != nil || string(b) != "x" {
		t.Errorf("undo removed another render's output: %v", err)
	}
	// alone, undo removes what it made
	out2 := filepath.Join(dir, "n2", "deep")
	undo, err = PrepareDir(out2)
	if err != nil {
		t.Fatal(err)
	}
	undo()
	if _, err := os.Stat(filepath.Join(dir, "n2")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("undo left the folders it created: %v", err)
	}
}

func TestDiffReadsCommittedFilesBounded(t *testing.T) {
	dir := t.TempDir()
	s := Site{Name: "a", Files: map[string][]byte{"x": []byte("content"), "y": []byte("y")}}
	if err := Write(dir, s); err != nil {
		t.Fatal(err)
	}
	// a committed output file replaced by a link to /dev/zero (before:
	// read until memory ran out) and one by a FIFO (before: hung)
	x := filepath.Join(dir, "a", "x")
	os.Remove(x)
	if err := os.Symlink("/dev/zero", x); err != nil {
		t.Fatal(err)
	}
	y := filepath.Join(dir, "a", "y")
	os.Remove(y)
	if err := mkfifo(y); err != nil {
		t.Fatal(err)
	}
	d, err := Diff(dir, s)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(d, "\n") != "stale "+x+"\nstale "+y {
		t.Errorf("Diff = %v", d)
	}
}

func mkfifo(p string) error { return unix.Mkfifo(p, 0o644) }
