package load

import (
	"os"
	"path/filepath"
	"sync"
)

// The origin of a site is the path rendered output names it by (file
// headers and the siteforge.dev/source annotation): the site's path
// relative to the root of the repository holding it, so the same site
// renders the same bytes from the command line at the repository root,
// from a kustomization folder and from an Argo CD plugin, whatever the
// working directory. The repository root is the nearest folder above the
// site with a .git entry (a folder, or a file for a worktree or
// submodule), unless an adapter set it (SetRepoRoot: the Argo CD plugin
// knows it from ARGOCD_APP_SOURCE_PATH). A site in no repository keeps the
// path as given.
var (
	rootMu   sync.Mutex
	repoRoot string
)

// SetRepoRoot sets the folder origins are relative to, for an adapter that
// knows the repository root better than a search for .git (call it before
// loading; "" restores the search). A relative dir is taken from the
// working directory now.
func SetRepoRoot(dir string) {
	if dir != "" {
		if abs, err := filepath.Abs(dir); err == nil {
			dir = abs
		}
	}
	rootMu.Lock()
	defer rootMu.Unlock()
	repoRoot = dir
}

// Origin is the path rendered output names the site at source by.
func Origin(source string) string {
	abs, err := filepath.Abs(source)
	if err != nil {
		return filepath.ToSlash(filepath.Clean(source))
	}
	rootMu.Lock()
	root := repoRoot
	rootMu.Unlock()
	if root == "" {
		root = findRepoRoot(abs)
	}
	if root != "" {
		if rel, err := filepath.Rel(root, abs); err == nil && rel != ".." && !filepath.IsAbs(rel) && !startsWithDotDot(rel) {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.ToSlash(filepath.Clean(source))
}

func startsWithDotDot(rel string) bool {
	return len(rel) >= 3 && rel[:3] == ".."+string(filepath.Separator)
}

// findRepoRoot returns the nearest folder at or above path's folder that
// holds a .git entry, or "".
func findRepoRoot(path string) string {
	dir := path
	if fi, err := os.Stat(path); err != nil || !fi.IsDir() {
		dir = filepath.Dir(path)
	}
	return GitWorkTree(dir)
}

// GitWorkTree returns the folder holding a .git entry (a directory, or the
// file of a worktree or a submodule) at or above dir, "" when there is
// none.
func GitWorkTree(dir string) string {
	for {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}
