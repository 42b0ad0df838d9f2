package output

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// TreePrefix names the hidden folder a WriteTree stages in, next to its
// target.
const TreePrefix = ".siteforge-tree-"

// Tree is a new folder written as a whole (siteforge import): staged in a
// hidden sibling folder, then renamed into place, so a reader sees all of it
// or nothing, and a failure or an Abort leaves nothing behind.
type Tree struct {
	dir, tmp string
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
	tmp, err := os.MkdirTemp(parent, TreePrefix)
	if err != nil {
		return nil, err
	}
	t := &Tree{dir: dir, tmp: tmp}
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
	return nil
}

// Abort removes the staged folder; it reports whether there was one to
// remove (false once committed).
func (t *Tree) Abort() bool {
	if _, err := os.Lstat(t.tmp); err != nil {
		return false
	}
	_ = os.RemoveAll(t.tmp)
	return true
}
