package krm

import (
	"errors"
	"path/filepath"

	"github.com/siteforge/siteforge/internal/fsread"
	"github.com/siteforge/siteforge/internal/load"
)

// boundary is the folder the function reads sites in: the git work tree
// holding the kustomization (or kpt package) folder, as git finds it
// (load.GitWorkTree: GIT_DIR, GIT_WORK_TREE, core.worktree, then the
// nearest .git), so the common GitOps layout, sites in sites/<name>/ and
// kustomizations in clusters/<name>/, can name its site as
// ../../sites/<name>; outside a git work tree, the kustomization folder
// itself, as kustomize's own default (--load-restrictor
// LoadRestrictionsRootOnly) confines a kustomization's files. What resolves
// outside it (an absolute path, "..", a symbolic link) is refused.
type boundary struct {
	dir  string // the folder
	name string // what it is, for messages
	repo bool   // a git work tree
}

// boundaryOf returns the boundary of the kustomization or package folder
// root (relative to the working directory).
func boundaryOf(root string) boundary {
	if abs, err := filepath.Abs(root); err == nil {
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			if top := load.GitWorkTree(real); top != "" {
				return boundary{dir: top, name: "the git work tree holding the kustomization (or kpt package)", repo: true}
			}
		}
	}
	return boundary{dir: root, name: "the kustomization root"}
}

// confined reports a path (what names it; relative to root, the package
// or kustomization folder) that leads outside the boundary, naming the path
// and never its content.
func (b boundary) confined(r *reporter, root, what, p string) bool {
	_, err := fsread.ConfineWithin(b.dir, b.name, root, p)
	var oe *fsread.OutsideError
	switch {
	case err == nil:
		return true
	case errors.As(err, &oe) && b.repo:
		r.failure("%s: %s: the function reads sites only inside the git work tree that holds the kustomization or kpt package folder (spec.paths are relative to that folder); move the site into the repository", what, err)
	case errors.As(err, &oe):
		r.failure("%s: %s: outside a git work tree, the function reads only inside the kustomization or kpt package folder (kustomize's own default, --load-restrictor LoadRestrictionsRootOnly); move the site under that folder, or keep the kustomization and the site in one git repository", what, err)
	default:
		name := p
		if root != "." {
			name += " (" + filepath.ToSlash(filepath.Join(root, p)) + ": spec.paths are relative to the function config's folder)"
		}
		r.failure("%s: %s: %s", what, name, fsread.Describe(err))
	}
	return false
}
