// Package output writes rendered sites to disk. A render replaces its sites
// as a whole: every site of the run, or none. Sites are staged in one hidden
// folder inside the output directory, then swapped in one by one under a
// journal; a failure or an interrupt rolls back the swaps done, and a
// render that was killed (kill -9) is rolled back by the next render, which
// finds its stage by name and knows it is stale because no process holds
// its lock. Nothing is written outside the output directory, and a
// directory siteforge did not create is never removed.
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

	"github.com/siteforge/siteforge/internal/fsread"
)

// Site is one site's files: slash-separated relative path -> content.
type Site struct {
	Name  string
	Files map[string][]byte
}

// PrepareDir checks that dir can receive output: it is a directory (created
// when missing), not a file. undo removes the folders PrepareDir created,
// deepest first, and only while they are empty: never a folder that
// something else (a concurrent render) has written into.
func PrepareDir(dir string) (undo func(), err error) {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		created := MissingFolders(dir)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return func() {}, err
		}
		return func() {
			for _, p := range created {
				if os.Remove(p) != nil {
					return // not empty (or gone): leave it and its parents
				}
			}
		}, nil
	case err != nil:
		return func() {}, err
	case !fi.IsDir():
		return func() {}, fmt.Errorf("%s is not a directory", dir)
	}
	return func() {}, nil
}

// MissingFolders lists the folders of dir that do not exist yet, deepest
// first: what PrepareDir creates.
func MissingFolders(dir string) []string {
	var missing []string
	for p := filepath.Clean(dir); ; {
		if _, err := os.Lstat(p); err == nil {
			break
		}
		missing = append(missing, p)
		parent := filepath.Dir(p)
		if parent == p {
			break
		}
		p = parent
	}
	return missing
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
			// its parent is most often made already: one mkdir, not
			// MkdirAll's stat of each ancestor first
			if err := os.Mkdir(dir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					return err
				}
			}
			made[dir] = true
		}
		if err := writeFile(full, files[p], 0o644); err != nil {
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

// walkSiteFiles calls fn for every entry under root (a site folder) that is
// not a folder, with its path relative to root and its full path. Every
// file counts: render keeps nothing of its own in a site folder (its digest
// records live outside the output, cmd/siteforge/internal/cli/rendercache.go),
// so no file there is exempt from Diff or Unchanged. A root that does not exist holds nothing. fn
// returning fs.SkipAll ends the walk without an error.
func walkSiteFiles(root string, fn func(rel, path string) error) error {
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
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
		return fn(rel, p)
	})
}

// Diff compares dir/<site> with the files a render would write and returns
// one line per difference: "stale PATH", "missing PATH", "extra PATH". A
// committed file is read only up to the size the render would write, and
// never through a symbolic link or from a device: such a file is stale.
func Diff(dir string, s Site) ([]string, error) {
	if err := checkName(s.Name); err != nil {
		return nil, err
	}
	root := filepath.Join(dir, s.Name)
	var out []string
	onDisk := map[string]bool{}
	if fi, err := os.Lstat(root); err == nil && !fi.IsDir() {
		// a file or a link where the site folder belongs
		for _, p := range sortedPaths(s.Files) {
			out = append(out, "missing "+filepath.Join(root, p))
		}
		return append(out, "extra "+root), nil
	}
	err := walkSiteFiles(root, func(rel, _ string) error {
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
		want := s.Files[p]
		b, err := fsread.FileNoFollow(filepath.Join(root, filepath.FromSlash(p)), int64(len(want)))
		var nr *fsread.NotRegularError
		var tl *fsread.TooLargeError
		switch {
		case errors.As(err, &nr), errors.As(err, &tl):
			out = append(out, "stale "+filepath.Join(root, p))
			continue
		case err != nil:
			return nil, err
		}
		if !bytes.Equal(b, want) {
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
