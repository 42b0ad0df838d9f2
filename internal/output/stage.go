package output

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"golang.org/x/sys/unix"
)

// A stage is a hidden folder inside the output directory, named with
// StagePrefix: the next render finds leftovers by that name. The render that
// owns a stage holds an exclusive flock on it for its whole life, so a stage
// nobody holds is stale: its render was killed. Before its first swap, a
// commit writes the journal: per site, the inode of the new folder and of
// the folder it replaces, which is all a later render needs to roll a
// half-done commit back.
const (
	StagePrefix = ".siteforge-stage-"
	journalName = ".journal" // site names never start with "."
	// oldPrefix holds an old folder while the rename fallback swaps (file
	// systems without RENAME_EXCHANGE).
	oldPrefix = ".old-"
	newPrefix = ".new-"
)

// ErrInterrupted is returned by Commit when Abort stopped it: the swaps done
// were rolled back.
var ErrInterrupted = errors.New("interrupted: the swaps done were rolled back; the previous output is unchanged")

// testSwapFault, set by tests, fails the swap of a site.
var testSwapFault func(name string) error

type stageState int

const (
	staging stageState = iota
	committed
	aborted
)

// Stage collects the sites of one render on disk before any of them
// replaces its predecessor, so memory does not grow with the number of
// sites and a run that fails part-way changes nothing.
type Stage struct {
	dir, tmp string
	lock     *os.File // the stage folder, flocked while this process owns it

	mu     sync.RWMutex // Add holds it shared; Commit and Abort exclusively
	state  stageState
	cancel atomic.Bool

	keptMu sync.Mutex
	kept   map[string]uint64 // site folders the run leaves as they are -> inode
}

// NewStage starts staging into dir, which must exist (PrepareDir). Stale
// stages of killed renders are rolled back and removed first.
func NewStage(dir string) (*Stage, error) {
	unlock, err := lockDir(dir)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if err := removeStale(dir); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(dir, StagePrefix)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(tmp)
	if err != nil {
		_ = os.Remove(tmp)
		return nil, err
	}
	if err := flock(f, unix.LOCK_EX|unix.LOCK_NB); err != nil && !lockUnsupported(err) {
		f.Close()
		_ = os.Remove(tmp)
		return nil, fmt.Errorf("lock %s: %w", tmp, err)
	}
	return &Stage{dir: dir, tmp: tmp, lock: f}, nil
}

// Add writes a site into the stage. Safe for concurrent use with distinct
// sites.
func (st *Stage) Add(s Site) error {
	st.mu.RLock()
	defer st.mu.RUnlock()
	if st.state != staging || st.cancel.Load() {
		return ErrInterrupted
	}
	if err := checkName(s.Name); err != nil {
		return err
	}
	if fi, err := os.Lstat(filepath.Join(st.dir, s.Name)); err == nil {
		if fi.Mode()&fs.ModeSymlink != 0 {
			return fmt.Errorf("%s is a symbolic link; refusing to replace it (siteforge writes only real folders inside the output directory)", filepath.Join(st.dir, s.Name))
		}
		if !fi.IsDir() {
			return fmt.Errorf("%s exists and is not a directory", filepath.Join(st.dir, s.Name))
		}
	}
	root := filepath.Join(st.tmp, s.Name)
	if err := os.Mkdir(root, 0o755); err != nil {
		return err
	}
	return writeTree(root, s.Files)
}

// Keep records that the run leaves dir/<name> as it is, as it was when the
// run found it unchanged (its inode, FolderID): Commit fails, changing
// nothing, when another render replaced that folder meanwhile, so a run
// never commits half its sites over another run's. Safe for concurrent use.
func (st *Stage) Keep(name string, ino uint64) {
	st.keptMu.Lock()
	defer st.keptMu.Unlock()
	if st.kept == nil {
		st.kept = map[string]uint64{}
	}
	st.kept[name] = ino
}

// FolderID identifies dir/<name> (its inode) for Keep; false when it is not
// a folder.
func FolderID(dir, name string) (uint64, bool) {
	p := filepath.Join(dir, name)
	fi, err := os.Lstat(p)
	if err != nil || !fi.IsDir() {
		return 0, false
	}
	return fi.Sys().(*syscall.Stat_t).Ino, true
}

// ErrReplaced is returned by Commit when a folder the run kept was replaced
// during the run (by another render into the same directory).
var ErrReplaced = errors.New("changed during this render (another render into the same directory?): nothing was written; run the render again")

// entry is one site of a commit, as the journal records it.
type entry struct {
	name     string
	newIno   uint64
	oldIno   uint64 // 0: the site had no folder
	fallback bool   // swapped by renames, not RENAME_EXCHANGE
}

// Commit swaps every staged site in: each new folder replaces the old one
// with one rename (RENAME_EXCHANGE), so a reader never sees half a site,
// and the run replaces all its sites or, on any failure or an Abort, none:
// the swaps done are rolled back.
func (st *Stage) Commit() error {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.state != staging {
		return ErrInterrupted
	}
	unlock, err := lockDir(st.dir)
	if err != nil {
		st.discard()
		return err
	}
	defer unlock()
	st.keptMu.Lock()
	for name, ino := range st.kept {
		if cur, ok := FolderID(st.dir, name); !ok || cur != ino {
			st.keptMu.Unlock()
			st.discard()
			return fmt.Errorf("%s: %w", filepath.Join(st.dir, name), ErrReplaced)
		}
	}
	st.keptMu.Unlock()
	entries, err := st.journal()
	if err != nil {
		st.discard()
		return err
	}
	var done []entry
	for _, e := range entries {
		if st.cancel.Load() {
			err = ErrInterrupted
		} else if testSwapFault != nil {
			err = testSwapFault(e.name)
		}
		if err == nil {
			err = swapIn(st.tmp, st.dir, &e)
		}
		if err != nil {
			if rerr := rollback(st.tmp, st.dir, done); rerr != nil {
				// Keep the stage: the next render rolls the rest back
				// from the journal.
				st.release()
				st.state = aborted
				return fmt.Errorf("%w; rolling back failed too (%v): the next render of %s restores the previous output", err, rerr, st.dir)
			}
			st.discard()
			return err
		}
		done = append(done, e)
	}
	st.state = committed
	// The stage now holds the old folders.
	_ = os.RemoveAll(st.tmp)
	st.release()
	return nil
}

// Abort drops everything staged. It returns false when the stage was
// already committed (the run completed; nothing to undo). A Commit in
// progress is stopped and rolled back.
func (st *Stage) Abort() bool {
	st.cancel.Store(true)
	st.mu.Lock()
	defer st.mu.Unlock()
	switch st.state {
	case committed:
		return false
	case staging:
		st.discard()
	}
	return true
}

func (st *Stage) discard() {
	_ = os.RemoveAll(st.tmp)
	st.release()
	st.state = aborted
}

func (st *Stage) release() {
	if st.lock != nil {
		st.lock.Close()
		st.lock = nil
	}
}

// journal lists the staged sites with their inodes and writes them to the
// stage's journal before anything is swapped.
func (st *Stage) journal() ([]entry, error) {
	names, err := os.ReadDir(st.tmp)
	if err != nil {
		return nil, err
	}
	var entries []entry
	for _, n := range names {
		if strings.HasPrefix(n.Name(), ".") {
			continue
		}
		e := entry{name: n.Name()}
		if e.newIno, err = inode(filepath.Join(st.tmp, e.name)); err != nil {
			return nil, err
		}
		fi, err := os.Lstat(filepath.Join(st.dir, e.name))
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return nil, err
		case !fi.IsDir():
			return nil, fmt.Errorf("%s exists and is not a directory", filepath.Join(st.dir, e.name))
		default:
			e.oldIno = fi.Sys().(*syscall.Stat_t).Ino
		}
		entries = append(entries, e)
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].name < entries[j].name })
	var b strings.Builder
	for _, e := range entries {
		fmt.Fprintf(&b, "%s\t%d\t%d\n", e.name, e.newIno, e.oldIno)
	}
	if err := os.WriteFile(filepath.Join(st.tmp, journalName), []byte(b.String()), 0o644); err != nil {
		return nil, err
	}
	return entries, nil
}

// swapIn moves tmp/<name> to dir/<name>; an existing folder ends up at
// tmp/<name>.
func swapIn(tmp, dir string, e *entry) error {
	src, dst := filepath.Join(tmp, e.name), filepath.Join(dir, e.name)
	if e.oldIno == 0 {
		return os.Rename(src, dst)
	}
	err := exchange(src, dst)
	if !errors.Is(err, errNoExchange) {
		return err
	}
	// No atomic exchange on this file system: move the old folder aside,
	// the new one in, and the old one to where the exchange would put it.
	e.fallback = true
	old := filepath.Join(tmp, oldPrefix+e.name)
	if err := os.Rename(dst, old); err != nil {
		return err
	}
	if err := os.Rename(src, dst); err != nil {
		_ = os.Rename(old, dst)
		return err
	}
	return os.Rename(old, src)
}

// rollback undoes the swaps done, latest first.
func rollback(tmp, dir string, done []entry) error {
	for i := len(done) - 1; i >= 0; i-- {
		if err := restore(tmp, dir, done[i]); err != nil {
			return err
		}
	}
	return nil
}

// restore puts the folder e replaced back at dir/<name>, wherever a commit
// (finished or killed at any step) left things; the new folder goes back to
// the stage.
func restore(tmp, dir string, e entry) error {
	dst := filepath.Join(dir, e.name)
	cur, _ := inode(dst)
	switch {
	case e.oldIno != 0 && cur == e.oldIno:
		return nil // not swapped
	case e.oldIno == 0 && cur == 0:
		return nil
	case cur != 0 && cur != e.newIno:
		return nil // replaced since by someone else: leave it
	}
	if e.oldIno != 0 && cur == e.newIno {
		// The usual case: one exchange undoes another.
		src := filepath.Join(tmp, e.name)
		if ino, _ := inode(src); ino == e.oldIno {
			err := exchange(src, dst)
			if !errors.Is(err, errNoExchange) {
				return err
			}
		}
	}
	if cur == e.newIno {
		if err := os.Rename(dst, filepath.Join(tmp, newPrefix+e.name)); err != nil {
			return err
		}
	}
	if e.oldIno == 0 {
		return nil
	}
	for _, p := range []string{filepath.Join(tmp, e.name), filepath.Join(tmp, oldPrefix+e.name)} {
		if ino, _ := inode(p); ino == e.oldIno {
			return os.Rename(p, dst)
		}
	}
	return fmt.Errorf("the previous folder of %s is not in %s", dst, tmp)
}

func inode(p string) (uint64, error) {
	fi, err := os.Lstat(p)
	if err != nil {
		return 0, err
	}
	return fi.Sys().(*syscall.Stat_t).Ino, nil
}

// StaleStages lists the stages in dir that no running render owns: renders
// killed before they finished (render --check reports them).
func StaleStages(dir string) []string { return staleFolders(dir, StagePrefix) }

// removeStale rolls back and removes the stages of killed renders. The
// caller holds the output directory's lock.
func removeStale(dir string) error {
	for _, p := range StaleStages(dir) {
		f, ok := tryLock(p)
		if !ok {
			continue // taken meanwhile
		}
		entries, err := readJournal(filepath.Join(p, journalName))
		if err == nil {
			err = rollback(p, dir, entries)
		}
		f.Close()
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%s is left by a render that was killed, and rolling it back failed: %w (remove it by hand once the output is as you want it)", p, err)
		}
		if err := os.RemoveAll(p); err != nil {
			return err
		}
	}
	return nil
}

// RecoverStale does, for the folders dir/<prefix><random> that no process
// holds, what the next run would do before its own: a render's stage
// (StagePrefix) is rolled back and removed, any other (a Scratch's folder)
// is removed. It is how a run whose process crashed is cleaned up at once.
func RecoverStale(dir, prefix string) error {
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	unlock, err := lockDir(dir)
	if err != nil {
		return err
	}
	defer unlock()
	if prefix == StagePrefix {
		return removeStale(dir)
	}
	return removeStaleScratch(dir, prefix)
}

func readJournal(p string) ([]entry, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []entry
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		parts := strings.Split(sc.Text(), "\t")
		if len(parts) != 3 || checkName(parts[0]) != nil {
			return nil, fmt.Errorf("%s: malformed line %q", p, sc.Text())
		}
		newIno, err1 := strconv.ParseUint(parts[1], 10, 64)
		oldIno, err2 := strconv.ParseUint(parts[2], 10, 64)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("%s: malformed line %q", p, sc.Text())
		}
		out = append(out, entry{name: parts[0], newIno: newIno, oldIno: oldIno})
	}
	return out, sc.Err()
}

// lockDir takes the output directory's exclusive lock (commits and stale
// stage recovery of concurrent renders do not interleave).
func lockDir(dir string) (unlock func(), err error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	if err := flock(f, unix.LOCK_EX); err != nil && !lockUnsupported(err) {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", dir, err)
	}
	return func() { f.Close() }, nil
}

// tryLock takes a stage's lock if nobody holds it.
func tryLock(p string) (*os.File, bool) {
	f, err := os.Open(p)
	if err != nil {
		return nil, false
	}
	if err := flock(f, unix.LOCK_EX|unix.LOCK_NB); err != nil {
		f.Close()
		return nil, false // held by a running render (or no locks here: never stale)
	}
	return f, true
}

func flock(f *os.File, how int) error {
	for {
		err := unix.Flock(int(f.Fd()), how)
		if !errors.Is(err, unix.EINTR) {
			return err
		}
	}
}

// lockUnsupported: file systems without flock (some network file systems)
// work unlocked; their stale stages are never removed automatically.
func lockUnsupported(err error) bool {
	return errors.Is(err, unix.ENOLCK) || errors.Is(err, unix.EOPNOTSUPP)
}
