package load

import (
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/siteforge/siteforge/internal/fsread"
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
func Origin(source string) string { return (*Origins)(nil).Origin(source) }

// Origins gives Origin for the sites of one run, each folder's search for
// its git work tree done once: the sites of a fleet share their parent
// folders, and each site's origin was one Lstat per folder up to the
// repository (2.6% of a fleet render's CPU). Safe for concurrent use. Make
// one per run (NewOrigins): a folder that becomes a repository during a
// run is seen by the next run. A nil *Origins searches every time.
type Origins struct {
	mu      sync.Mutex
	wd      string // the working directory, "" until read
	env     *string
	nearest map[string]string // folder: the nearest folder at or above it holding .git, ""
}

// NewOrigins returns an empty Origins for one run.
func NewOrigins() *Origins { return &Origins{nearest: map[string]string{}} }

// Origin is the path rendered output names the site at source by.
func (o *Origins) Origin(source string) string {
	abs, err := o.abs(source)
	if err != nil {
		return filepath.ToSlash(filepath.Clean(source))
	}
	rootMu.Lock()
	root := repoRoot
	rootMu.Unlock()
	if root == "" {
		dir := abs
		if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
			dir = filepath.Dir(abs)
		}
		root = o.WorkTree(dir)
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

// abs is filepath.Abs, the working directory read once per run.
func (o *Origins) abs(p string) (string, error) {
	if o == nil || filepath.IsAbs(p) {
		return filepath.Abs(p)
	}
	o.mu.Lock()
	wd := o.wd
	o.mu.Unlock()
	if wd == "" {
		var err error
		if wd, err = os.Getwd(); err != nil {
			return "", err
		}
		o.mu.Lock()
		o.wd = wd
		o.mu.Unlock()
	}
	return filepath.Join(wd, p), nil
}

// WorkTree is GitWorkTree(dir), the environment's work tree and each
// folder's nearest .git remembered for the run.
func (o *Origins) WorkTree(dir string) string {
	if o == nil {
		return GitWorkTree(dir)
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.env == nil {
		env := envWorkTree()
		o.env = &env
	}
	return workTreeOf(dir, *o.env, o.nearest)
}

// GitWorkTree returns the top of the git work tree that holds dir (an
// absolute path), "" when there is none. It is the one search for the
// enclosing work tree, and it follows git's rules, environment included
// (git(1) ENVIRONMENT, git-config(1) core.worktree and core.bare):
//
//   - GIT_WORK_TREE set: that folder is the work tree (relative to the
//     working directory);
//   - GIT_DIR set without GIT_WORK_TREE: core.worktree of $GIT_DIR/config
//     when set (relative to GIT_DIR); none when core.bare is true;
//     otherwise the working directory ("If --git-dir or GIT_DIR is
//     specified but none of --work-tree, GIT_WORK_TREE and core.worktree is
//     specified, the current working directory is regarded as the top level
//     of your working tree");
//   - and the folder holding a .git entry (a directory, or the file of a
//     worktree or a submodule) at or above dir, as git finds it without
//     those variables.
//
// When more than one holds dir (a repository inside a "dotfiles" work
// tree that GIT_DIR and GIT_WORK_TREE name), the nearest is returned: the
// folder is inside a work tree either way, and the nearest is the one
// whose paths rendered output names sites by.
func GitWorkTree(dir string) string { return workTreeOf(dir, envWorkTree(), nil) }

// workTreeOf is GitWorkTree with the environment's work tree env, each
// folder's nearest .git looked up in and added to nearest (nil: none
// remembered).
func workTreeOf(dir, env string, nearest map[string]string) string {
	best := within(env, dir)
	var visited []string
	found := ""
	for d := dir; ; {
		if n, ok := nearest[d]; ok {
			found = n
			break
		}
		visited = append(visited, d)
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			found = d
			break
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	if nearest != nil {
		for _, v := range visited {
			nearest[v] = found
		}
	}
	if len(found) > len(best) {
		best = found
	}
	return best
}

// within returns root when p is root or inside it, comparing the paths as
// given, then with root's symbolic links resolved (dir is usually resolved
// already, $HOME in GIT_WORK_TREE often not): root as it matched, or "".
func within(root, p string) string {
	if root == "" {
		return ""
	}
	if fsread.Within(root, p) {
		return root
	}
	if real, err := filepath.EvalSymlinks(root); err == nil && fsread.Within(real, p) {
		return real
	}
	return ""
}

// envWorkTree is the work tree GIT_DIR and GIT_WORK_TREE name, absolute,
// "" when they name none.
func envWorkTree() string {
	abs := func(base, p string) string {
		if !filepath.IsAbs(p) {
			p = filepath.Join(base, p)
		}
		return filepath.Clean(p)
	}
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	if wt := os.Getenv("GIT_WORK_TREE"); wt != "" {
		return abs(wd, wt)
	}
	gd := os.Getenv("GIT_DIR")
	if gd == "" {
		return ""
	}
	gd = abs(wd, gd)
	worktree, bare := gitCoreConfig(filepath.Join(gd, "config"))
	switch {
	case worktree != "":
		return abs(gd, worktree)
	case bare:
		return ""
	}
	return wd
}

// gitCoreConfig reads core.worktree and core.bare from a git config file
// (the plain "[core]" section with "key = value" lines git writes; a
// value git would read differently through includes or quoting is not
// followed). A missing or unreadable file sets neither.
func gitCoreConfig(p string) (worktree string, bare bool) {
	data, err := fsread.File(p, MaxFileSize)
	if err != nil {
		return "", false
	}
	inCore := false
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			name, _, _ := strings.Cut(strings.Trim(line, "[]"), " ")
			inCore = strings.EqualFold(strings.TrimSpace(name), "core")
			continue
		}
		if !inCore {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		k, v = strings.TrimSpace(k), strings.Trim(strings.TrimSpace(v), `"`)
		switch {
		case strings.EqualFold(k, "worktree") && ok:
			worktree = v
		case strings.EqualFold(k, "bare"):
			bare = !ok || strings.EqualFold(v, "true") || strings.EqualFold(v, "yes") || strings.EqualFold(v, "on") || v == "1"
		}
	}
	return worktree, bare
}
