package krm

import (
	"fmt"
	"path/filepath"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/siteforge/siteforge/cmd/siteforge/internal/guard"
	"github.com/siteforge/siteforge/cmd/siteforge/internal/verdict"
	"github.com/siteforge/siteforge/generators"
	_ "github.com/siteforge/siteforge/generators/all" // every generator
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/load"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/site"
)

// loadSites loads the sites named by spec.paths (relative to root, the
// package: see packageRoot) and the inline spec.site. It reports every
// problem and returns false when any site is invalid.
func loadSites(r *reporter, root string, paths []string, inline bool) ([]*site.Site, load.Result, bool) {
	defer guard.Track(r.label)()
	l, err := load.New()
	if err != nil {
		r.failure("internal error: %v", err)
		return nil, load.Result{}, false
	}
	res := load.Result{Sources: map[string][]byte{}}
	b := boundaryOf(root)
	joined := make([]string, len(paths))
	for i, p := range paths {
		if !b.confined(r, root, fmt.Sprintf("spec.paths[%d]", i), p) {
			return nil, res, false
		}
		joined[i] = filepath.Join(root, filepath.FromSlash(p))
	}
	// Every file the sites read, too: a site folder inside the boundary may
	// hold a symbolic link to a file outside it.
	units, diags := load.Discover(joined)
	files, _ := load.InputPaths(units)
	for _, f := range files {
		rel, err := filepath.Rel(root, f)
		if err != nil {
			rel = f
		}
		if !b.confined(r, root, "spec.paths", rel) {
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
		name, data, file, ok := inlineSource(r, root)
		if !ok {
			// No file holds the function config (a container function, a
			// config from stdin): positions are within spec.site, under a
			// name that says so and is no file.
			fc := r.rl.FunctionConfig
			if data, ok = inlineSite(fc); !ok {
				r.failure("spec.site: cannot read the inline site")
				return nil, res, false
			}
			name = inlineSiteName(fc)
		}
		add(l.LoadSource(name, data))
		if file != nil {
			res.Sources[name] = file // snippets show the file's own lines
		}
	}
	if len(res.Diagnostics) > 0 {
		r.diagnostics(res, verdict.Ruled(res.Diagnostics), "error")
		r.note("the site does not load: render and the lint rules did not run on it, nor the cross-field checks where a value breaks the schema (an unknown field does not stop them); fix the errors above, then run again for the rest")
		r.failure("%d error%s in the site input", len(res.Diagnostics), plural(len(res.Diagnostics)))
		return nil, res, false
	}
	return res.Sites, res, true
}

// renderOutputs runs the check pipeline (verdict.Site: render, then the
// lint rules on what it rendered) on every site; it reports every problem
// (warnings only when asked: SiteLint renders to lint, the warnings are
// SiteRender's to show) and returns false when any site fails. SiteLint
// (lintMode) lints the outputs with its items itself: the lint rules'
// findings refuse no site there.
func renderOutputs(r *reporter, sites []*site.Site, res load.Result, opts generators.Options, warn, lintMode bool) ([]*generators.Output, bool) {
	defer guard.Track(r.label)()
	var outs []*generators.Output
	var problems diag.List
	var skipped []string
	for _, s := range sites {
		v, err := verdict.Site(s, verdict.Options{Render: opts, RenderOnly: lintMode})
		if err != nil {
			r.failure("site %s: internal error: %v", s.Name, err)
			return nil, false
		}
		if len(v.Errors) > 0 {
			problems = append(problems, v.Errors...)
			if v.Skipped != "" {
				skipped = append(skipped, v.Skipped)
			}
			continue
		}
		o := v.Output
		if warn {
			r.diagnostics(res, o.Warnings, "warning")
			if n := len(o.Suppressed); n > 0 {
				msg := fmt.Sprintf("site %s: %d warning%s suppressed (lint: suppress or @lint(ignore=...) in the site, each with its reason)", s.Name, n, plural(n))
				r.rl.Results = append(r.rl.Results, &framework.Result{Message: msg, Severity: framework.Info})
				fmt.Fprintf(r.stderr, "siteforge fn: %s\n", diag.Clean(msg))
			}
		}
		outs = append(outs, o)
	}
	if len(problems) > 0 {
		r.diagnostics(res, problems.Sort(), "error")
		for _, s := range skipped {
			r.note(s)
		}
		r.failure("%d error%s in the site input", len(problems), plural(len(problems)))
		return nil, false
	}
	return outs, true
}

// renderSites is SiteRender: the input items pass through, minus what an
// earlier run of this SiteRender generated (kpt feeds a generator's output
// back to it), and the site's resources are appended, as `siteforge render
// --stdout` writes them (each carrying the siteforge.dev/source
// annotation), plus the generated-by mark and the file annotations kpt
// writes them by (kustomize strips those).
func renderSites(r *reporter, spec RenderSpec) int {
	if len(spec.Paths) == 0 && spec.Site == nil {
		r.failure("spec.paths or spec.site is required: the site to render, relative to the kustomization folder (kpt: the package folder)")
		return exitFailure
	}
	root, ok := packageRoot(r)
	if !ok {
		return exitFailure
	}
	sites, res, ok := loadSites(r, root, spec.Paths, spec.Site != nil)
	if !ok {
		return exitFailure
	}
	if len(sites) > 1 {
		names := make([]string, len(sites))
		for i, s := range sites {
			names[i] = s.Name + " (" + s.Source + ")"
		}
		r.failure("%d sites in one SiteRender: %s. One kustomize build (one kpt package) is one cluster: every site has the cluster-scoped singletons of its own cluster (%s), which two sites in one build would both define. Give each site its own kustomization (or kpt package) with one SiteRender",
			len(sites), strings.Join(names, ", "), singletons())
		return exitFailure
	}
	outs, ok := renderOutputs(r, sites, res, generators.Options{Strict: spec.Strict}, true, false)
	if !ok {
		return exitFailure
	}
	by := KindSiteRender + "/" + r.rl.FunctionConfig.GetName()
	r.rl.Items = dropGenerated(r.rl.Items, by)
	for _, o := range outs {
		for _, p := range o.Resources {
			n, err := kyaml.Parse(string(o.Files[p]))
			if err != nil {
				r.failure("site %s: internal error: %s does not parse: %v", o.Site.Name, p, err)
				return exitFailure
			}
			if err := mark(n, by, generatedPath(root, o.Site.Name, p)); err != nil {
				r.failure("site %s: internal error: %s: %v", o.Site.Name, p, err)
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

// singletons names the cluster-scoped singletons two sites would collide
// on (openshift/api config/v1: the cluster configuration objects are named
// "cluster", one per cluster).
func singletons() string {
	return fmt.Sprintf("Network, Image, OperatorHub and Ingress config.openshift.io/v1 objects named %q", platform.ConfigSingletonName)
}
