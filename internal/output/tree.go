package output

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// TreePrefix names the hidden folder a WriteTree stages in, next to its
// target.
const TreePrefix = ".siteforge-tree-"

// Tree is a new folder written as a whole (siteforge import): staged in a
// hidden sibling folder, then renamed into place, so a reader sees all of it
// or nothing, and a failure or an Abort leaves nothing behind. The stage is
// flocked while its run lives: a stage nobody holds was left by a killed
// run, and the next NewTree beside it removes it.
type Tree struct {
	dir, tmp string
	lock     *os.File
}

// NewTree stages files for dir, which must not exist or be an empty folder:
// a tree never replaces or mixes with what is there.
func NewTree(dir string, files map[string][]byte) (*Tree, error) {
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return nil, fmt.Errorf("%s is not empty: write into a new folder", dir)
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	parent := filepath.Dir(filepath.Clean(dir))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, err
	}
	for _, p := range staleFolders(parent, TreePrefix) {
		if f, ok := tryLock(p); ok {
			_ = os.RemoveAll(p)
			f.Close()
		}
	}
	tmp, err := os.MkdirTemp(parent, TreePrefix)
	if err != nil {
		return nil, err
	}
	t := &Tree{dir: dir, tmp: tmp}
	if t.lock, err = os.Open(tmp); err != nil {
		_ = os.Remove(tmp)
		return nil, err
	}
	if err := flock(t.lock, unix.LOCK_EX|unix.LOCK_NB); err != nil && !lockUnsupported(err) {
		t.Abort()
		return nil, fmt.Errorf("lock %s: %w", tmp, err)
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		t.Abort()
		return nil, err
	}
	if err := writeTree(tmp, files); err != nil {
		t.Abort()
		return nil, err
	}
	return t, nil
}

// Commit puts the staged folder in place.
func (t *Tree) Commit() error {
	if fi, err := os.Lstat(t.dir); err == nil {
		if !fi.IsDir() {
			t.Abort()
			return fmt.Errorf("%s exists and is not a directory", t.dir)
		}
		if err := os.Remove(t.dir); err != nil { // empty: checked by NewTree
			t.Abort()
			return fmt.Errorf("%s is not empty: write into a new folder", t.dir)
		}
	}
	if err := os.Rename(t.tmp, t.dir); err != nil {
		t.Abort()
		return err
	}
	t.lock.Close()
	return nil
}

// Abort removes the staged folder; it reports whether there was one to
// remove (false once committed).
func (t *Tree) Abort() bool {
	if _, err := os.Lstat(t.tmp); err != nil {
		return false
	}
	_ = os.RemoveAll(t.tmp)
	if t.lock != nil {
		t.lock.Close()
	}
	return true
}
