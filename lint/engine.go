package lint

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"cuelang.org/go/cue"

	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/site"
)

// IgnoreAnnotationPrefix suppresses a rule on a manifest:
// `siteforge.dev/ignore-MIR001: "<reason>"`.
const IgnoreAnnotationPrefix = "siteforge.dev/ignore-"

// Meta rules: the engine's own findings about suppressions.
const (
	RuleUnusedSuppression     = "LNT001"
	RuleReasonlessSuppression = "LNT002"
	RuleUnknownRule           = "LNT003"
)

// The engine's own rules: their findings come from the engine, not a check.
func init() {
	for _, r := range []*Rule{
		{ID: RuleUnusedSuppression, Name: "unused-suppression", Severity: Warning,
			Summary:   "a suppression matches no finding",
			Rationale: "A suppression that silences nothing is stale: the problem was fixed or the rule ID is wrong, and it would hide a future finding. Suppressions are reported when unused, as staticcheck's //lint:ignore is.",
			Fix:       "Remove the suppression (lint.suppress entry in the site, or the siteforge.dev/ignore-<ID> annotation)."},
		{ID: RuleReasonlessSuppression, Name: "suppression-without-reason", Severity: Error,
			Summary:   "a suppression has no reason",
			Rationale: "Every suppression must say why the finding does not apply, so reviewers can judge it; an empty reason suppresses nothing.",
			Fix:       "Write the reason: lint.suppress: [{rule: \"MIR001\", reason: \"...\"}] or siteforge.dev/ignore-MIR001: \"...\"."},
		{ID: RuleUnknownRule, Name: "unknown-rule-suppressed", Severity: Warning,
			Summary:   "a suppression names a rule that does not exist",
			Rationale: "A misspelled rule ID suppresses nothing while looking like it does.",
			Fix:       "Use an ID from `siteforge explain`."},
	} {
		r.Since = "v1alpha1"
		registry[r.ID] = r
	}
}

// Reporter collects a rule's findings.
type Reporter struct {
	rule     *Rule
	findings []Finding
	// rendered are the files of the site's rendered objects (Set.Site):
	// a finding on one of them is the site's, at its position in the site
	// input (mapToSite), so its line in the rendered file is never looked
	// up (that would parse the file: Object.Root).
	rendered map[string]bool
}

// Object reports a finding at a field of a plain or rendered object.
// path is the field path inside the object (keys, or indexes as strings).
func (r *Reporter) Object(o *manifests.Object, msg string, path ...string) {
	pos := diag.Position{File: o.File}
	if !r.rendered[o.File] {
		pos = o.PosOf(path...)
	}
	r.findings = append(r.findings, Finding{
		Message:  msg,
		Pos:      pos,
		Resource: &ResourceRef{APIVersion: o.APIVersion, Kind: o.Kind, Namespace: o.Namespace, Name: o.Name},
		Site:     "",
	})
}

// ObjectKey reports a finding at the key of a field of a plain or rendered
// object (a field that should not be there).
func (r *Reporter) ObjectKey(o *manifests.Object, msg string, path ...string) {
	r.Object(o, msg, path...)
	if !r.rendered[o.File] {
		r.findings[len(r.findings)-1].Pos = o.KeyPosOf(path...)
	}
}

// ObjectAt reports a finding about a plain or rendered object at a position
// in its file that no field path names (the second of two equal keys).
func (r *Reporter) ObjectAt(o *manifests.Object, msg string, pos diag.Position) {
	r.Object(o, msg)
	r.findings[len(r.findings)-1].Pos = pos
}

// At reports a finding at a position (a site field: s.Positions.Of(path)).
func (r *Reporter) At(site string, pos diag.Position, msg string) {
	r.findings = append(r.findings, Finding{Message: msg, Pos: pos, Site: site})
}

// Options select and tune rules.
type Options struct {
	Enable  []string // run only these rules (IDs or names); empty: all
	Disable []string
}

// Result of a lint run.
type Result struct {
	Findings   []Finding
	Suppressed int
}

// Counts returns the number of errors, warnings and infos.
func (res Result) Counts() (errors, warnings, infos int) {
	for _, f := range res.Findings {
		switch f.Severity {
		case Error:
			errors++
		case Warning:
			warnings++
		default:
			infos++
		}
	}
	return
}

// Fails reports whether any finding is at or above the threshold.
func (res Result) Fails(threshold Severity) bool {
	for _, f := range res.Findings {
		if f.Severity >= threshold {
			return true
		}
	}
	return false
}

// suppression is one way to silence a rule.
type suppression struct {
	rule   string
	reason string
	pos    diag.Position
	site   string // for site suppressions: the site it applies to
	// at is, for a field suppression (@lint attribute), the positions of
	// the field and everything under it; nil for a site-wide one.
	at     map[diag.Position]bool
	object *manifests.Object
	used   bool
	// borrowed: a suppression of the site a rendered folder was rendered
	// from (Set.RenderedFrom); the site's own lint reports what is wrong
	// with it, or that it is unused.
	borrowed bool
}

// Linter runs the selected rules over sets. One Linter may check several
// sets at once (a fleet's sites, on the render workers).
type Linter struct {
	selected []*Rule
}

// New selects the rules of opts.
func New(opts Options) (*Linter, error) {
	selected, err := selectRules(opts)
	if err != nil {
		return nil, err
	}
	return &Linter{selected: selected}, nil
}

// Run checks the input with every selected rule.
func Run(in *Input, opts Options) (Result, error) {
	l, err := New(opts)
	if err != nil {
		return Result{}, err
	}
	var parts []Result
	for _, set := range in.Sets() {
		parts = append(parts, l.Check(set))
	}
	return Merge(parts...), nil
}

// Merge joins the results of several sets: findings sorted by position,
// identical findings once (the sites of a fleet report a problem in their
// shared defaults at the same place).
func Merge(parts ...Result) Result {
	var res Result
	for _, p := range parts {
		res.Findings = append(res.Findings, p.Findings...)
		res.Suppressed += p.Suppressed
	}
	sortFindings(res.Findings)
	res.Findings = dedupFindings(res.Findings)
	return res
}

// Check lints one set: every selected rule's findings, after the site's
// severity overrides and the set's suppressions, and the engine's own
// findings about those suppressions. Merge sorts them.
func (l *Linter) Check(set Set) Result {
	sups := collectSuppressions(set)
	var (
		siteName  string
		overrides = map[string]Severity{} // rule -> severity
		off       = map[string]bool{}     // rules the site turns off
		rendered  = map[string]bool{}     // files of the site's rendered objects
	)
	var from *site.Site // the site whose settings apply
	switch {
	case set.Site != nil:
		from = set.Site.Site
	case set.RenderedFrom != nil:
		from = set.RenderedFrom.Site
	}
	if from != nil {
		siteName = from.Name
		if lc := from.Lint; lc != nil {
			for id, sev := range lc.Severity {
				if sev == "off" {
					off[id] = true
					continue
				}
				v, _ := ParseSeverity(sev)
				overrides[id] = v
			}
		}
	}
	if s := set.Site; s != nil {
		for _, o := range s.Objects {
			rendered[o.File] = true
		}
	}
	platformWritten := platformObjects(set)

	var res Result
	// The engine's own findings on the set: duplicate objects, and the
	// site's render warnings (at the site's positions already); a warning
	// of a rule with a check waits for the check (renderFindings).
	var engine, checked []Finding
	if isSelected(l.selected, RuleDuplicateObject) {
		engine = duplicateFindings(set)
	}
	if s := set.Site; s != nil {
		var warned []Finding
		warned, checked = l.renderFindings(siteName, s.Warnings)
		engine = append(engine, warned...)
	}
	reported := map[string]bool{} // rules whose check found something
	// the rules that judge the other rules' findings run after them
	ordered := slices.Clone(l.selected)
	sort.SliceStable(ordered, func(i, j int) bool { return ordered[i].CheckFindings == nil && ordered[j].CheckFindings != nil })
	passes := append(append([]*Rule{nil}, ordered...), nil)
	prior := l.unselectedFindings(set, platformWritten) // the checks' findings, for CheckFindings
	for i, rule := range passes {
		var found []Finding
		switch {
		case i == 0:
			found = engine
		case i == len(passes)-1: // the warnings no check reported
			for _, f := range checked {
				if !reported[f.Rule] {
					found = append(found, f)
				}
			}
		case rule.CheckFindings != nil:
			rep := &Reporter{rule: rule, rendered: rendered}
			rule.CheckFindings(set, prior, rep)
			found = rep.findings
		case rule.Check == nil:
			continue // an engine rule
		default:
			rep := &Reporter{rule: rule, rendered: rendered}
			rule.Check(set, rep)
			found = rep.findings
			reported[rule.ID] = len(found) > 0
		}
		for _, f := range found {
			if platformWritten.has(f) {
				continue // the platform's own object (Set.Live): not reported, and no rule judges it
			}
			if rule != nil {
				f.Rule, f.Name, f.Severity = rule.ID, rule.Name, rule.Severity
				prior = append(prior, f)
			}
			if rendered[f.Pos.File] {
				mapToSite(set.Site, &f)
			}
			var origins []diag.Position // of a rendered folder's file
			if rf := set.RenderedFrom; rf != nil {
				if org, ok := rf.Origins[f.Pos.File]; ok {
					f.Site, origins = siteName, org
				}
			}
			if f.Site == siteName && siteName != "" {
				if off[f.Rule] {
					continue
				}
				if sev, ok := overrides[f.Rule]; ok {
					f.Severity = sev
				}
			}
			if suppressed(sups, f, origins) {
				res.Suppressed++
				continue
			}
			res.Findings = append(res.Findings, f)
		}
	}
	for _, s := range sups {
		switch {
		case s.borrowed:
			// the site's own lint reports it
		case retired[s.rule] != "":
			res.Findings = append(res.Findings, meta(RuleUnknownRule, s, "suppression of "+retired[s.rule]))
		case Lookup(s.rule) == nil:
			res.Findings = append(res.Findings, meta(RuleUnknownRule, s, fmt.Sprintf("suppression of unknown rule %s", s.rule)))
		case strings.TrimSpace(s.reason) == "":
			res.Findings = append(res.Findings, meta(RuleReasonlessSuppression, s, fmt.Sprintf("suppression of %s has no reason: say why the finding does not apply", s.rule)))
		case !s.used && isSelected(l.selected, s.rule):
			res.Findings = append(res.Findings, meta(RuleUnusedSuppression, s, fmt.Sprintf("suppression of %s matches no finding: remove it", s.rule)))
		}
	}
	return res
}

// unselectedFindings are, when a selected rule judges the others'
// findings (Rule.CheckFindings), the findings of the rules with a check
// that are not selected: what it judges does not depend on --enable and
// --disable. They are not reported, and those on the platform's own
// objects are not among them. Only a running cluster's state has them:
// the one rule judging findings (MCF008) reads a running cluster's pools,
// and no other set is worth running every unselected rule for.
func (l *Linter) unselectedFindings(set Set, platformWritten objectSet) []Finding {
	if !set.Live || !slices.ContainsFunc(l.selected, func(r *Rule) bool { return r.CheckFindings != nil }) {
		return nil
	}
	var out []Finding
	for _, r := range Rules() {
		if r.Check == nil || isSelected(l.selected, r.ID) {
			continue
		}
		rep := &Reporter{rule: r}
		r.Check(set, rep)
		for _, f := range rep.findings {
			if platformWritten.has(f) {
				continue
			}
			f.Rule, f.Name, f.Severity = r.ID, r.Name, r.Severity
			out = append(out, f)
		}
	}
	return out
}

// objectKey names an object a finding is on: its file and resource.
type objectKey struct{ file, kind, namespace, name string }

// objectSet is a set of objects, by key.
type objectSet map[objectKey]bool

// has reports whether the finding is on one of the objects.
func (s objectSet) has(f Finding) bool {
	return f.Resource != nil && s[objectKey{f.Pos.File, f.Resource.Kind, f.Resource.Namespace, f.Resource.Name}]
}

// platformObjects are, in a running cluster's state, the objects a platform
// operator wrote itself (manifests.Object.WrittenBy, which the reader of
// the state sets).
func platformObjects(set Set) objectSet {
	if !set.Live {
		return nil
	}
	out := objectSet{}
	for _, o := range set.Objects {
		if o.WrittenBy != "" {
			out[objectKey{o.File, o.Kind, o.Namespace, o.Name}] = true
		}
	}
	return out
}

func meta(id string, s *suppression, msg string) Finding {
	r := registry[id]
	f := Finding{Rule: r.ID, Name: r.Name, Severity: r.Severity, Message: msg, Pos: s.pos, Site: s.site}
	if o := s.object; o != nil {
		f.Resource = &ResourceRef{APIVersion: o.APIVersion, Kind: o.Kind, Namespace: o.Namespace, Name: o.Name}
	}
	return f
}

func isSelected(rules []*Rule, id string) bool {
	for _, r := range rules {
		if r.ID == id {
			return true
		}
	}
	return false
}

func selectRules(opts Options) ([]*Rule, error) {
	all := Rules()
	pick := func(list []string) (map[string]bool, error) {
		m := map[string]bool{}
		for _, x := range list {
			for _, part := range strings.Split(x, ",") {
				part = strings.TrimSpace(part)
				if part == "" {
					continue
				}
				r := Lookup(part)
				if r == nil {
					return nil, fmt.Errorf("unknown rule %q (siteforge explain lists them)", part)
				}
				m[r.ID] = true
			}
		}
		return m, nil
	}
	enable, err := pick(opts.Enable)
	if err != nil {
		return nil, err
	}
	disable, err := pick(opts.Disable)
	if err != nil {
		return nil, err
	}
	var out []*Rule
	for _, r := range all {
		if (len(enable) == 0 || enable[r.ID]) && !disable[r.ID] {
			out = append(out, r)
		}
	}
	return out, nil
}

// mapToSite points a finding on one of the site's rendered objects back at
// the site input.
func mapToSite(s *Site, f *Finding) {
	f.Site = s.Site.Name
	if p, ok := s.Origin[f.Pos.File]; ok && p.IsValid() {
		f.Pos = p
	} else {
		f.Pos = s.Site.Positions.Of("")
	}
}

// collectSuppressions lists the set's suppressions: the site's (lint.suppress
// and @lint attributes), or the plain objects' annotations, and those of the
// site a rendered folder was rendered from.
func collectSuppressions(set Set) []*suppression {
	var out []*suppression
	if s := set.Site; s != nil {
		out = siteSuppressions(s.Site)
	}
	plain := set.Objects
	if s := set.Site; s != nil {
		plain = s.Extra // the rendered objects carry no annotations of the user's
	}
	for _, o := range plain {
		ann := annotations(o)
		for k, v := range ann {
			if strings.HasPrefix(k, IgnoreAnnotationPrefix) {
				out = append(out, &suppression{rule: strings.TrimPrefix(k, IgnoreAnnotationPrefix), reason: v, object: o,
					pos: o.KeyPosOf("metadata", "annotations", k)})
			}
		}
	}
	if rf := set.RenderedFrom; rf != nil && set.Site == nil {
		for _, s := range siteSuppressions(rf.Site) {
			s.borrowed = true
			out = append(out, s)
		}
		for _, w := range rf.Acknowledged {
			if r := registry[w.Rule]; r != nil && r.Check != nil {
				out = append(out, &suppression{rule: w.Rule, reason: "the site suppresses the render warning of the same fact at " + w.Pos.String(),
					site: rf.Site.Name, pos: w.Pos, borrowed: true})
			}
		}
	}
	return out
}

// siteSuppressions are a site's suppressions: lint.suppress and its @lint
// attributes.
func siteSuppressions(st *site.Site) []*suppression {
	var out []*suppression
	if l := st.Lint; l != nil {
		for i, sup := range l.Suppress {
			out = append(out, &suppression{rule: sup.Rule, reason: sup.Reason, site: st.Name,
				pos: st.Positions.Of(cue.MakePath(cue.Str("lint"), cue.Str("suppress"), cue.Index(i)).String())})
		}
	}
	for _, fs := range st.FieldSuppressions {
		at := map[diag.Position]bool{}
		for path, pos := range st.Positions {
			if fs.Under(path) {
				at[pos] = true
			}
		}
		out = append(out, &suppression{rule: fs.Rule, reason: fs.Reason, site: st.Name, pos: fs.Pos, at: at})
	}
	return out
}

// annotations reads an object's annotations.
func annotations(o *manifests.Object) map[string]string {
	var m struct {
		Metadata struct {
			Annotations map[string]string `json:"annotations"`
		} `json:"metadata"`
	}
	_ = o.DecodeLoose(&m)
	return m.Metadata.Annotations
}

// suppressed reports whether a suppression covers f, and marks those that
// do used. origins are, for a finding in a rendered folder's file, the site
// positions the file was rendered from: a field suppression covers the
// finding when one of them lies under the field.
func suppressed(sups []*suppression, f Finding, origins []diag.Position) bool {
	hit := false
	for _, s := range sups {
		if s.rule != f.Rule || strings.TrimSpace(s.reason) == "" {
			continue
		}
		switch {
		case s.site != "" && s.site == f.Site && (s.at == nil || s.at[f.Pos] || anyAt(s.at, origins)):
			s.used, hit = true, true
		case s.object != nil && f.Resource != nil && f.Pos.File == s.object.File &&
			f.Resource.Kind == s.object.Kind && f.Resource.Name == s.object.Name && f.Resource.Namespace == s.object.Namespace:
			s.used, hit = true, true
		}
	}
	return hit
}

func anyAt(at map[diag.Position]bool, ps []diag.Position) bool {
	for _, p := range ps {
		if at[p] {
			return true
		}
	}
	return false
}

// dedupFindings drops a finding identical to the one before it: the sites of
// a fleet report a problem in their shared defaults at the same place.
func dedupFindings(fs []Finding) []Finding {
	out := fs[:0]
	for i, f := range fs {
		if i > 0 {
			p := fs[i-1]
			if p.Rule == f.Rule && p.Pos == f.Pos && p.Message == f.Message && p.Severity == f.Severity {
				continue
			}
		}
		out = append(out, f)
	}
	return out
}

func sortFindings(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if c := a.Pos.Compare(b.Pos); c != 0 {
			return c < 0
		}
		if a.Rule != b.Rule {
			return a.Rule < b.Rule
		}
		return a.Message < b.Message
	})
}
