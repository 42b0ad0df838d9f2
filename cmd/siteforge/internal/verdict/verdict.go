// Package verdict is the one check pipeline every command runs on a loaded
// site: the generators (their refusals), then the lint rules on what they
// rendered (the site's own rendered objects, with the site's suppressions
// and severity settings). vet, render, mtu, lint, argocd generate, the
// install-config and impact verbs and the KRM function (SiteRender,
// SiteLint) all call Site, so a site gets one verdict: the same rule ID at
// the same file:line:col whichever command reads it.
//
// Loading (syntax, schema, the cross-field checks and the install checks of
// internal/load) comes before it; Ruled gives those diagnostics their rule
// ID.
package verdict

import (
	"fmt"
	"sync"

	"github.com/siteforge/siteforge/generators"
	_ "github.com/siteforge/siteforge/generators/all" // every generator
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/site"
	"github.com/siteforge/siteforge/lint"
	_ "github.com/siteforge/siteforge/lint/rules" // every rule
)

// Options say how a site is rendered and linted.
type Options struct {
	Render generators.Options
	// Linter runs the rules; nil is every rule, as `siteforge lint` runs
	// them without --enable or --disable.
	Linter *lint.Linter
	// Extra are plain manifests of the site's cluster, linted with it
	// (`siteforge lint SITE extra.yaml`, SiteLint's items).
	Extra []*manifests.Object
	// Minor is the release of a site whose cluster.version does not say
	// one (lint --ocp-version), given where MinorFrom says
	// (lint.GivenMinorFrom).
	Minor     platform.OCPMinor
	MinorFrom string
	// Findings is lint's mode: the lint rules' findings are the report
	// (Result.Lint, every severity), not refusals of the site.
	Findings bool
	// RenderOnly stops after the generators: for a caller that lints the
	// rendered site itself (SiteLint, with its items) or needs only its
	// origins and suppressions (lint of a rendered folder without its
	// site). Nothing the lint rules find is reported.
	RenderOnly bool
}

// Result is the verdict on one site.
type Result struct {
	// Output is the rendered site, nil when it is refused. Its Warnings
	// hold the render warnings and the lint rules' warnings on it.
	Output *generators.Output
	// Lint is what the lint rules found on the rendered site; Linted says
	// whether they ran (a site that does not render is not linted).
	Lint   lint.Result
	Linted bool
	// Errors are the site's problems, each with its rule ID: the
	// generators' refusals, or the lint rules' errors on what they
	// rendered.
	Errors diag.List
	// Skipped says which checks did not run and why ("" when all ran).
	Skipped string
}

var defaultLinter = sync.OnceValues(func() (*lint.Linter, error) { return lint.New(lint.Options{}) })

// Site renders s and lints what it renders. err is an internal error; a
// problem in the site is in Result.Errors.
func Site(s *site.Site, opts Options) (Result, error) {
	var r Result
	unknown := UnknownSuppressions(s)
	if opts.Render.Strict && len(unknown) > 0 {
		r.Errors = unknown
		r.Skipped = skippedRender(s)
		return r, nil
	}
	o, err := generators.Render(s, opts.Render)
	if dl, ok := err.(diag.List); ok {
		r.Errors = Ruled(dl)
		r.Skipped = fmt.Sprintf("site %s: the lint rules did not run: the site does not render", s.Name)
		return r, nil
	}
	if err != nil {
		return r, fmt.Errorf("site %s: %w", s.Name, err)
	}
	o.Warnings = append(o.Warnings, unknown...).Sort()
	if opts.RenderOnly {
		r.Output = o
		return r, nil
	}
	objs, origin, err := o.Objects()
	if err != nil {
		return r, fmt.Errorf("site %s: %w", s.Name, err)
	}
	linter := opts.Linter
	if linter == nil {
		if linter, err = defaultLinter(); err != nil {
			return r, err
		}
	}
	// lint reports a suppression of an unknown rule itself (LNT003);
	// render and vet print the warning above.
	var warnings diag.List
	for _, w := range o.AllWarnings() {
		if w.Rule != lint.RuleUnknownRule {
			warnings = append(warnings, w)
		}
	}
	set := lint.SiteSet(&lint.Site{Site: s, Objects: objs, Origin: origin, Extra: opts.Extra, Warnings: warnings})
	if set.Minor == 0 && opts.Minor > 0 {
		set.Minor, set.MinorFrom = opts.Minor, lint.GivenMinorFrom(opts.MinorFrom)
	}
	r.Lint, r.Linted = linter.Check(set), true
	if opts.Findings {
		r.Output = o
		return r, nil
	}
	errs, warns := judge(r.Lint, o)
	if opts.Render.Strict {
		errs, warns = append(errs, warns...), nil
	}
	if len(errs) > 0 {
		r.Errors = errs.Sort()
		return r, nil
	}
	o.Warnings = append(o.Warnings, warns...).Sort()
	r.Output = o
	return r, nil
}

// judge turns the lint findings on a rendered site into its errors (every
// error finding) and warnings (the warning findings render does not print
// already as its own warnings). Infos are lint's alone.
func judge(res lint.Result, o *generators.Output) (errs, warns diag.List) {
	type key struct {
		rule string
		pos  diag.Position
	}
	printed := map[key]bool{}
	for _, w := range o.AllWarnings() {
		printed[key{w.Rule, w.Pos}] = true
	}
	for _, f := range res.Findings {
		d := diag.Diagnostic{Pos: f.Pos, Message: f.Message, Rule: f.Rule}
		if f.End.Line == f.Pos.Line && f.End.Col > f.Pos.Col {
			d.Len = f.End.Col - f.Pos.Col
		}
		switch {
		case f.Severity == lint.Error:
			errs = append(errs, d)
		case f.Severity == lint.Warning && !printed[key{f.Rule, f.Pos}]:
			warns = append(warns, d)
		}
	}
	return errs, warns
}

// Ruled gives every diagnostic of a site that has no rule ID the rule lint
// reports it under: INP002 (site-does-not-load) for syntax, schema and
// cross-field errors and for a generator's refusal. A check that states
// the same fact as a lint rule sets that rule's ID itself (the install
// checks: INS).
func Ruled(dl diag.List) diag.List {
	for i := range dl {
		if dl[i].Rule == "" {
			dl[i].Rule = lint.RuleSiteLoad
		}
	}
	return dl
}

// SkippedLoad is the note for a site input that does not load.
func SkippedLoad(source string) string {
	return fmt.Sprintf("%s: the site does not load: render and the lint rules did not run on it, nor the cross-field checks where a value breaks the schema (an unknown field does not stop them); fix the errors above, then run again for the rest", diag.SafeLine(source))
}

func skippedRender(s *site.Site) string {
	return fmt.Sprintf("site %s: the generators and the lint rules did not run: --strict refuses the unknown rules its suppressions name", s.Name)
}

// UnknownSuppressions are the site's suppressions of IDs that are no rule
// (lint reports them as LNT003): they suppress nothing, which render and
// vet say too, so a typo does not pass for a suppression.
func UnknownSuppressions(s *site.Site) diag.List {
	var out diag.List
	warn := func(d diag.Diagnostic, id string) {
		d.Message = fmt.Sprintf("the suppression names %s, which is no rule: it suppresses nothing", id)
		d.Hint = "use a rule ID that siteforge explain lists"
		d.Rule = lint.RuleUnknownRule
		out = append(out, d)
	}
	if s.Lint != nil {
		for i, sup := range s.Lint.Suppress {
			if lint.Lookup(sup.Rule) == nil {
				warn(s.At(site.FieldPath("lint", "suppress", i, "rule"), "", ""), sup.Rule)
			}
		}
	}
	for _, f := range s.FieldSuppressions {
		if lint.Lookup(f.Rule) == nil {
			warn(diag.Diagnostic{Pos: f.Pos, Path: f.Path}, f.Rule)
		}
	}
	return out
}
