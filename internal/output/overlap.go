package output

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/siteforge/siteforge/internal/fsread"
)

// CheckNotInput refuses an output directory that is an input, holds one
// (a render swaps whole folders in the output directory, so `render lab -o
// .` would replace lab/ with its own output), or lies inside a folder
// whose files are read as input (a site folder, a fleet's sites/), after
// resolving symbolic links. files and dirs are the inputs of the run.
func CheckNotInput(out string, files, dirs []string) error {
	realOut, err := resolve(out)
	if err != nil {
		return err
	}
	r := resolver{}
	for _, f := range append(append([]string{}, files...), dirs...) {
		real, err := r.resolve(f)
		if err != nil {
			continue
		}
		if real == realOut {
			return fmt.Errorf("the output directory %s is the input %s: write the output to a folder of its own, outside the inputs (for example -o rendered)", out, f)
		}
		if fsread.Within(realOut, real) {
			return fmt.Errorf("the output directory %s holds the input %s, which a render would replace or lose: write the output to a folder of its own, outside the inputs (for example -o rendered)", out, f)
		}
	}
	for _, d := range dirs {
		real, err := r.resolve(d)
		if err != nil {
			continue
		}
		if fsread.Within(real, realOut) {
			return fmt.Errorf("the output directory %s lies inside the input folder %s, whose files siteforge reads as input: write the output to a folder of its own, outside the inputs (for example -o rendered)", out, d)
		}
	}
	return nil
}

// resolve is p absolute with its symbolic links resolved; the part of p
// that does not exist yet is appended as written.
func resolve(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	var rest []string
	for cur := abs; ; {
		real, err := filepath.EvalSymlinks(cur)
		if err == nil {
			for i := len(rest) - 1; i >= 0; i-- {
				real = filepath.Join(real, rest[i])
			}
			return real, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			if _, serr := os.Lstat(cur); serr == nil {
				return "", err // a loop or a permission problem
			}
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return abs, nil
		}
		rest = append(rest, filepath.Base(cur))
		cur = parent
	}
}

// resolver is resolve for the many inputs of one run (a fleet's sites: a
// few files in each of thousands of folders), remembering the real path of
// every folder it resolved: filepath.EvalSymlinks reads every component of
// every path it is given (a render of 100 sites made 3,200 lstat calls
// here), this reads each folder once. It answers as resolve does; what it
// cannot answer from its folders (a symbolic link, a path that does not
// exist) it leaves to resolve.
type resolver map[string]string // absolute folder -> its real path

func (r resolver) resolve(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	if real, ok := r.real(abs); ok {
		return real, nil
	}
	return resolve(abs)
}

// real is the real path of abs (absolute and clean) when abs exists and is
// no symbolic link, and its parent folder resolves the same way (or is the
// root); its folders' answers are remembered.
func (r resolver) real(abs string) (string, bool) {
	if real, ok := r[abs]; ok {
		return real, true
	}
	fi, err := os.Lstat(abs)
	if err != nil || fi.Mode()&fs.ModeSymlink != 0 {
		return "", false
	}
	parent := filepath.Dir(abs)
	var real string
	if parent == abs {
		real = abs // the root
	} else {
		rp, ok := r.real(parent)
		if !ok {
			return "", false
		}
		real = filepath.Join(rp, filepath.Base(abs))
	}
	if fi.IsDir() {
		r[abs] = real
	}
	return real, true
}
