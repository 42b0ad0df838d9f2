package output

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/siteforge/siteforge/internal/digest"
	"github.com/siteforge/siteforge/internal/fsread"
)

// maxOutputFile bounds what Unchanged reads of one file of a site folder: a
// rendered file is a few kilobytes (a day-0 ConfigMap of a hub site a few
// hundred); a larger file is not what render wrote.
const maxOutputFile = 64 << 20

// Unchanged reports whether dir/<name> holds exactly the files listed (slash
// path -> digest.FileHash), with those contents, and nothing else (a
// stray .siteforge-digest, the record older releases kept there, included):
// what Diff would find no difference in, were files the
// render's output. Anything it cannot vouch for (a symbolic link, a device,
// a file too large, an unreadable folder) is a change.
func Unchanged(dir, name string, files map[string]string) bool {
	if checkName(name) != nil {
		return false
	}
	root := filepath.Join(dir, name)
	if fi, err := os.Lstat(root); err != nil || !fi.IsDir() {
		return false
	}
	seen := 0
	ok := true
	err := walkSiteFiles(root, func(rel, p string) error {
		want, listed := files[filepath.ToSlash(rel)]
		if !listed || strings.Contains(rel, `\`) {
			ok = false
			return fs.SkipAll
		}
		b, err := fsread.FileNoFollow(p, maxOutputFile)
		if err != nil || digest.FileHash(b) != want {
			ok = false
			return fs.SkipAll
		}
		seen++
		return nil
	})
	if err != nil {
		return false
	}
	return ok && seen == len(files)
}
