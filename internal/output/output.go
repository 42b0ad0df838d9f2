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
// when missing), not a file.
func PrepareDir(dir string) error {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return os.MkdirAll(dir, 0o755)
	case err != nil:
		return err
	case !fi.IsDir():
		return fmt.Errorf("%s is not a directory", dir)
	}
	return nil
}

// Write replaces dir/<site> with the site's files. The new folder is built
// beside the old one and swapped in with one rename (RENAME_EXCHANGE), so
// readers see either the old or the new folder, never a mix.
func Write(dir string, s Site) error {
	if err := checkName(s.Name); err != nil {
		return err
	}
	dst := filepath.Join(dir, s.Name)
	if fi, err := os.Lstat(dst); err == nil {
		if fi.Mode()&fs.ModeSymlink != 0 {
			return fmt.Errorf("%s is a symbolic link; refusing to replace it (siteforge writes only real folders inside the output directory)", dst)
		}
		if !fi.IsDir() {
			return fmt.Errorf("%s exists and is not a directory", dst)
		}
	}
	tmp, err := os.MkdirTemp(dir, tmpPrefix+s.Name+"-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp) // after a swap this holds the old folder
	if err := writeTree(tmp, s.Files); err != nil {
		return err
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	if _, err := os.Lstat(dst); errors.Is(err, fs.ErrNotExist) {
		return os.Rename(tmp, dst)
	}
	err = unix.Renameat2(unix.AT_FDCWD, tmp, unix.AT_FDCWD, dst, unix.RENAME_EXCHANGE)
	if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EINVAL) {
		// No atomic exchange on this file system: move the old folder
		// aside, move the new one in, and put the old one back on failure.
		old := tmp + ".old"
		if err := os.Rename(dst, old); err != nil {
			return err
		}
		if err := os.Rename(tmp, dst); err != nil {
			_ = os.Rename(old, dst)
			return err
		}
		return os.RemoveAll(old)
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
	for _, p := range sortedPaths(files) {
		full, err := inside(root, p)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
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
