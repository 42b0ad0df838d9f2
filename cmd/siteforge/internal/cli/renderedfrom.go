package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/siteforge/siteforge/cmd/siteforge/internal/verdict"
	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/discover"
	"github.com/siteforge/siteforge/internal/load"
	"github.com/siteforge/siteforge/lint"
)

// renderedFrom finds the site a rendered site folder linted without it was
// rendered from, so that the site's suppressions and severity settings
// apply to the folder's findings as they do to the site's own (one verdict
// for a site and its output). The folder names the site by the
// siteforge.dev/source annotation of its objects: a path relative to the
// root of the repository that held the site (load.Origin), or as given to
// render outside one. It is looked for from the repository holding the
// folder, then from the one holding the working directory, then from the
// working directory. The site is rendered again for the origins of its
// files (a field's @lint(ignore=...) covers what was rendered from the
// field) and its suppressed render warnings (a warning under a lint rule's
// ID is the fact that rule reports on the folder: suppressed in the site,
// it is suppressed in the folder). When it is not found or does not load, the returned finding
// (INP007) says so and the folder is linted without it.
func renderedFrom(c discover.Cluster) (*lint.RenderedFrom, *lint.Finding) {
	at := diag.Position{File: filepath.Join(c.Root, generators.KustomizationFile), Line: 1, Col: 1}
	gone := func(format string, a ...any) (*lint.RenderedFrom, *lint.Finding) {
		f := lint.InputFinding(lint.RuleRenderedSiteGone, "", diag.Diagnostic{Pos: at,
			Message: fmt.Sprintf("rendered site %s: ", c.RenderedSite) + fmt.Sprintf(format, a...) + ": the site's suppressions and severity settings are not applied to this folder's findings"})
		return nil, &f
	}
	src := c.Source()
	if src == "" {
		return gone("no object names the site it was rendered from (annotation %s)", generators.SourceAnnotation)
	}
	var candidates []string
	if abs, err := filepath.Abs(c.Root); err == nil {
		if root := load.GitWorkTree(abs); root != "" {
			candidates = append(candidates, filepath.Join(root, filepath.FromSlash(src)))
		}
	}
	if wd, err := os.Getwd(); err == nil {
		if root := load.GitWorkTree(wd); root != "" {
			candidates = append(candidates, filepath.Join(root, filepath.FromSlash(src)))
		}
	}
	candidates = append(candidates, filepath.FromSlash(src))
	path := ""
	for _, p := range candidates {
		if _, err := os.Stat(p); err == nil {
			path = p
			break
		}
	}
	if path == "" {
		return gone("its site %s (annotation %s) is not found from the repository holding the folder nor from the working directory", src, generators.SourceAnnotation)
	}
	units, diags := load.Discover([]string{path})
	var (
		mu    sync.Mutex
		found *lint.RenderedFrom
	)
	// only rendered: a site whose lint rules find errors still gives its
	// suppressions and origins
	run, err := eachUnit(units, diags, verdict.Options{RenderOnly: true}, func(_ int, o *generators.Output) error {
		if o.Site.Name != c.RenderedSite {
			return nil
		}
		origins := map[string][]diag.Position{}
		for p, org := range o.Origins {
			origins[filepath.Join(c.Root, filepath.FromSlash(p))] = org
		}
		mu.Lock()
		found = &lint.RenderedFrom{Site: o.Site, Origins: origins, Acknowledged: o.Suppressed}
		mu.Unlock()
		return nil
	})
	switch {
	case err != nil:
		return gone("its site %s does not render: %v", diag.Clean(path), err)
	case found != nil:
		return found, nil
	case len(run.Diagnostics) > 0:
		return gone("its site %s does not load (siteforge vet %s): %s", diag.Clean(path), diag.Clean(path), run.Diagnostics[0].Error())
	}
	return gone("%s holds no site named %s", diag.Clean(path), c.RenderedSite)
}
