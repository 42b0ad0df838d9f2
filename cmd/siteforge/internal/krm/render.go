package krm

import (
	"errors"
	"fmt"

	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/siteforge/siteforge/cmd/siteforge/internal/guard"
	"github.com/siteforge/siteforge/generators"
	_ "github.com/siteforge/siteforge/generators/all" // every generator
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/fsread"
	"github.com/siteforge/siteforge/internal/load"
	"github.com/siteforge/siteforge/internal/site"
)

// loadSites loads the sites named by spec.paths (relative to the working
// dir, the kustomization root) and the inline spec.site. It reports every
// problem and returns false when any site is invalid.
func loadSites(r *reporter, paths []string, inline bool) ([]*site.Site, load.Result, bool) {
	defer guard.Track(r.label)()
	l, err := load.New()
	if err != nil {
		r.failure("internal error: %v", err)
		return nil, load.Result{}, false
	}
	res := load.Result{Sources: map[string][]byte{}}
	for i, p := range paths {
		if !confined(r, fmt.Sprintf("spec.paths[%d]", i), p) {
			return nil, res, false
		}
	}
	// Every file the sites read, too: a site folder inside the root may
	// hold a symbolic link to a file outside it.
	units, diags := load.Discover(paths)
	files, _ := load.InputPaths(units)
	for _, f := range files {
		if !confined(r, "spec.paths", f) {
			return nil, res, false
		}
	}
	add := func(part load.Result) {
		res.Sites = append(res.Sites, part.Sites...)
		res.Diagnostics = append(res.Diagnostics, part.Diagnostics...)
		for k, v := range part.Sources {
			res.Sources[k] = v
		}
	}
	if len(paths) > 0 {
		add(l.LoadUnits(units, diags))
	}
	if inline {
		fc := r.rl.FunctionConfig
		data, ok := inlineSite(fc)
		if !ok {
			r.failure("spec.site: cannot read the inline site")
			return nil, res, false
		}
		add(l.LoadSource(inlineSiteName(fc), data))
	}
	if len(res.Diagnostics) > 0 {
		r.diagnostics(res, res.Diagnostics, "error")
		r.failure("%d error%s in the site input", len(res.Diagnostics), plural(len(res.Diagnostics)))
		return nil, res, false
	}
	return res.Sites, res, true
}

// confined reports a path (what names it) that leads outside the
// kustomization root, naming the path and never its content.
func confined(r *reporter, what, p string) bool {
	_, err := fsread.Confine(".", p)
	var oe *fsread.OutsideError
	switch {
	case err == nil:
		return true
	case errors.As(err, &oe):
		r.failure("%s: %s: the function reads only inside the kustomization root (kustomize's own default, --load-restrictor LoadRestrictionsRootOnly); move the site under the kustomization folder", what, err)
	default:
		r.failure("%s: %s: %s", what, p, fsread.Describe(err))
	}
	return false
}

// renderOutputs renders every site; it reports every problem (warnings only
// when asked: SiteLint renders to lint, the warnings are SiteRender's to
// show) and returns false when any site fails.
func renderOutputs(r *reporter, sites []*site.Site, res load.Result, opts generators.Options, warn bool) ([]*generators.Output, bool) {
	defer guard.Track(r.label)()
	var outs []*generators.Output
	var problems diag.List
	for _, s := range sites {
		o, err := generators.Render(s, opts)
		dl, err := diag.Split(err)
		if err != nil {
			r.failure("site %s: internal error: %v", s.Name, err)
			return nil, false
		}
		if len(dl) > 0 {
			problems = append(problems, dl...)
			continue
		}
		if warn {
			r.diagnostics(res, o.Warnings, "warning")
		}
		outs = append(outs, o)
	}
	if len(problems) > 0 {
		r.diagnostics(res, problems, "error")
		r.failure("%d error%s in the site input", len(problems), plural(len(problems)))
		return nil, false
	}
	return outs, true
}

// renderSites is SiteRender: the input items pass through and every site's
// resources are appended, exactly as `siteforge render --stdout` writes them
// (each carrying the siteforge.dev/source annotation).
func renderSites(r *reporter, spec RenderSpec) int {
	if len(spec.Paths) == 0 && spec.Site == nil {
		r.failure("spec.paths or spec.site is required: the sites to render, relative to the kustomization root")
		return exitFailure
	}
	sites, res, ok := loadSites(r, spec.Paths, spec.Site != nil)
	if !ok {
		return exitFailure
	}
	outs, ok := renderOutputs(r, sites, res, generators.Options{Strict: spec.Strict}, true)
	if !ok {
		return exitFailure
	}
	for _, o := range outs {
		for _, p := range o.Resources {
			n, err := kyaml.Parse(string(o.Files[p]))
			if err != nil {
				r.failure("site %s: internal error: %s does not parse: %v", o.Site.Name, p, err)
				return exitFailure
			}
			r.rl.Items = append(r.rl.Items, n)
		}
	}
	return exitOK
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
