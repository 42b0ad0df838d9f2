// Package output writes rendered sites to disk: each site folder is replaced
// atomically, so a failed or interrupted run never leaves half a render and
// never loses the previous one; nothing is written outside the output
// directory.
package output

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/sys/unix"
)

// Site is one site's files: slash-separated relative path -> content.
type Site struct {
	Name  string
	Files map[string][]byte
}

// tmpPrefix marks siteforge's temporary folders inside the output directory.
const tmpPrefix = ".siteforge-"

// PrepareDir checks that dir can receive output: it is a directory (created
// when missing), not a file. undo removes what PrepareDir created, for a run
// that fails and must leave nothing behind.
func PrepareDir(dir string) (undo func(), err error) {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		// the topmost folder that does not exist yet
		top := filepath.Clean(dir)
		for {
			parent := filepath.Dir(top)
			if _, err := os.Stat(parent); err == nil || parent == top {
				break
			}
			top = parent
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return func() {}, err
		}
		return func() { _ = os.RemoveAll(top) }, nil
	case err != nil:
		return func() {}, err
	case !fi.IsDir():
		return func() {}, fmt.Errorf("%s is not a directory", dir)
	}
	return func() {}, nil
}

// Write replaces dir/<site> with the site's files (see Stage).
func Write(dir string, s Site) error {
	st, err := NewStage(dir)
	if err != nil {
		return err
	}
	if err := st.Add(s); err != nil {
		st.Abort()
		return err
	}
	return st.Commit()
}

// Stage collects rendered sites on disk, in a hidden folder inside the
// output directory, before any of them replaces its predecessor: a run that
// fails part-way is aborted without touching the output, and memory does not
// grow with the number of sites.
type Stage struct {
	dir, tmp string
}

// NewStage starts staging into dir (which must exist: PrepareDir).
func NewStage(dir string) (*Stage, error) {
	tmp, err := os.MkdirTemp(dir, tmpPrefix+"stage-")
	if err != nil {
		return nil, err
	}
	return &Stage{dir: dir, tmp: tmp}, nil
}

// Add writes a site into the stage. Safe for concurrent use with distinct
// sites.
func (st *Stage) Add(s Site) error {
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

// Commit replaces each staged site's folder: the new folder is swapped in
// with one rename (RENAME_EXCHANGE), so readers see either the old or the new
// folder, never a mix.
func (st *Stage) Commit() error {
	defer os.RemoveAll(st.tmp) // after the swaps it holds the old folders
	entries, err := os.ReadDir(st.tmp)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if err := swapIn(filepath.Join(st.tmp, e.Name()), filepath.Join(st.dir, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

// Abort drops everything staged.
func (st *Stage) Abort() { _ = os.RemoveAll(st.tmp) }

// swapIn moves src to dst; an existing dst ends up at src.
func swapIn(src, dst string) error {
	if _, err := os.Lstat(dst); errors.Is(err, fs.ErrNotExist) {
		return os.Rename(src, dst)
	}
	err := unix.Renameat2(unix.AT_FDCWD, src, unix.AT_FDCWD, dst, unix.RENAME_EXCHANGE)
	if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EINVAL) {
		// No atomic exchange on this file system: move the old folder
		// aside, move the new one in, and put the old one back on failure.
		old := src + ".old"
		if err := os.Rename(dst, old); err != nil {
			return err
		}
		if err := os.Rename(src, dst); err != nil {
			_ = os.Rename(old, dst)
			return err
		}
		return os.Rename(old, src)
	}
	return err
}

func checkName(name string) error {
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, `/\`) || strings.HasPrefix(name, ".") {
		return fmt.Errorf("site name %q cannot name an output folder", name)
	}
	return nil
}

func writeTree(root string, files map[string][]byte) error {
	made := map[string]bool{root: true}
	for _, p := range sortedPaths(files) {
		full, err := inside(root, p)
		if err != nil {
			return err
		}
		if dir := filepath.Dir(full); !made[dir] {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
			made[dir] = true
		}
		if err := os.WriteFile(full, files[p], 0o644); err != nil {
			return err
		}
	}
	return nil
}

// inside joins a relative slash path to root and refuses paths that leave it.
func inside(root, p string) (string, error) {
	if p == "" || filepath.IsAbs(p) || strings.HasPrefix(p, "/") {
		return "", fmt.Errorf("refusing to write %q: not a relative path", p)
	}
	clean := filepath.Clean(filepath.FromSlash(p))
	if clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("refusing to write %q: outside the output folder", p)
	}
	return filepath.Join(root, clean), nil
}

func sortedPaths(files map[string][]byte) []string {
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	return paths
}

// Diff compares dir/<site> with the files a render would write and returns
// one line per difference: "stale PATH", "missing PATH", "extra PATH".
func Diff(dir string, s Site) ([]string, error) {
	if err := checkName(s.Name); err != nil {
		return nil, err
	}
	root := filepath.Join(dir, s.Name)
	var out []string
	onDisk := map[string]bool{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && p == root {
				return fs.SkipAll
			}
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		onDisk[filepath.ToSlash(rel)] = true
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, p := range sortedPaths(s.Files) {
		if !onDisk[p] {
			out = append(out, "missing "+filepath.Join(root, p))
			continue
		}
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil {
			return nil, err
		}
		if !bytes.Equal(b, s.Files[p]) {
			out = append(out, "stale "+filepath.Join(root, p))
		}
	}
	var extra []string
	for p := range onDisk {
		if _, ok := s.Files[p]; !ok {
			extra = append(extra, "extra "+filepath.Join(root, filepath.FromSlash(p)))
		}
	}
	sort.Strings(extra)
	return append(out, extra...), nil
}
