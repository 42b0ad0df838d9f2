package output

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// A Scratch is a temporary folder of one run that is not render output:
// the tree of a git revision (impact --git), the assets directory being
// written before it is moved into place (install-config). It follows the
// stage's rules:
//
//   - the caller registers Abort with the abort path (guard.OnAbort) before
//     Create, so there is no moment at which the folder exists and an
//     interrupt would not remove it;
//   - the writers write through Do and the move into place goes through
//     Commit: Abort stops them first (a write in progress finishes, no other
//     starts) and only then removes the folder, so nothing writes into a
//     folder being removed or moves it away meanwhile;
//   - the run holds an exclusive flock on the folder for its life; a folder
//     with the same prefix that nobody holds was left by a run that was
//     killed (kill -9, a power cut), and the next Create with that prefix in
//     the same parent removes it (as NewStage removes stale stages).
//
// The zero Scratch is ready for Abort and Create.
type Scratch struct {
	mu     sync.Mutex // held by Do, Commit, Create and Abort
	cancel atomic.Bool
	state  stageState
	path   string
	lock   *os.File
}

// Create makes the folder parent/<prefix><random>, mode 0700, after
// removing the folders of killed runs with the same prefix. It returns
// ErrInterrupted when Abort came first.
func (s *Scratch) Create(parent, prefix string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cancel.Load() || s.state != staging {
		return "", ErrInterrupted
	}
	if s.path != "" {
		return "", errors.New("scratch folder created twice")
	}
	unlock, err := lockDir(parent)
	if err != nil {
		return "", err
	}
	defer unlock()
	if err := removeStaleScratch(parent, prefix); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(parent, prefix)
	if err != nil {
		return "", err
	}
	f, err := os.Open(tmp)
	if err == nil {
		if err = flock(f, unix.LOCK_EX|unix.LOCK_NB); err != nil && lockUnsupported(err) {
			err = nil
		}
		if err != nil {
			f.Close()
		}
	}
	if err != nil {
		_ = os.RemoveAll(tmp)
		return "", fmt.Errorf("lock %s: %w", tmp, err)
	}
	s.path, s.lock = tmp, f
	return tmp, nil
}

// Do runs f, a write into the folder, unless the scratch was aborted
// (ErrInterrupted). Abort waits for it.
func (s *Scratch) Do(f func() error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cancel.Load() || s.state != staging {
		return ErrInterrupted
	}
	return f()
}

// Commit runs f, which moves the folder into place, unless the scratch was
// aborted. When f succeeds the scratch is committed: Abort returns false
// and removes nothing.
func (s *Scratch) Commit(f func() error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cancel.Load() || s.state != staging {
		return ErrInterrupted
	}
	if err := f(); err != nil {
		return err
	}
	s.state = committed
	s.release()
	return nil
}

// Abort stops the writers and removes the folder. It returns false when
// the scratch was committed (the job completed; nothing to undo).
func (s *Scratch) Abort() bool {
	s.cancel.Store(true)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state == committed {
		return false
	}
	if s.path != "" {
		_ = os.RemoveAll(s.path)
	}
	s.release()
	s.state = aborted
	return true
}

func (s *Scratch) release() {
	if s.lock != nil {
		s.lock.Close()
		s.lock = nil
	}
}

// removeStaleScratch removes the folders parent/<prefix><random> of killed
// runs (no process holds their lock); the caller holds parent's lock.
func removeStaleScratch(parent, prefix string) error {
	for _, p := range staleFolders(parent, prefix) {
		if f, ok := tryLock(p); ok {
			err := os.RemoveAll(p)
			f.Close()
			if err != nil {
				return fmt.Errorf("%s is left by a run that was killed, and removing it failed: %w", p, err)
			}
		}
	}
	return nil
}

// staleFolders lists the folders dir/<prefix><digits> (os.MkdirTemp's
// names) that no running siteforge holds: left by a run that was killed.
func staleFolders(dir, prefix string) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok || !e.IsDir() || rest == "" || strings.Trim(rest, "0123456789") != "" {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if f, ok := tryLock(p); ok {
			f.Close()
			out = append(out, p)
		}
	}
	return out
}
