package lint

import (
	"fmt"

	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/manifests"
)

// The input rules: what the linter could not read, or read twice. Their
// findings come from reading the inputs (the CLI, the KRM function) and
// from the engine (duplicates), not from a check, so a
// repository with one broken file is still linted and every output format
// carries the problem.
const (
	RuleUnparsableFile = "INP001"
	RuleSiteLoad       = "INP002"
	RuleTemplate       = "INP003"
	// INP005 (render-warning) is retired: see retired in render.go.
	RuleDuplicateObject  = "INP004"
	RuleUnreadableFile   = "INP006"
	RuleRenderedSiteGone = "INP007"
	RuleSourceNotFound   = "INP008"
)

func init() {
	for _, r := range []*Rule{
		{ID: RuleUnparsableFile, Name: "unparsable-file", Severity: Error,
			Summary:   "a YAML or JSON file does not parse",
			Rationale: "A file that is not valid YAML or JSON is refused by every client that applies it (kubectl, kustomize, Argo CD: \"error converting YAML to JSON\"), and nothing in it can be checked. It is reported at the parser's position; the other files are still linted.",
			Fix:       "Fix the syntax at the position given. If the file is a template, give it a template extension (.j2, .tmpl) or keep it out of the linted paths (.siteforgeignore, --exclude)."},
		{ID: RuleSiteLoad, Name: "site-does-not-load", Severity: Error,
			Summary:   "a site description does not load (syntax, schema or a semantic check)",
			Rationale: "A site that does not unify with the siteforge schema cannot be rendered: `siteforge vet` and `render` refuse it with the same message. lint reports it as a finding and goes on with the other sites and files.",
			Fix:       "Fix the site at the position given; `siteforge vet SITE` shows the same problem with a snippet."},
		{ID: RuleTemplate, Name: "template-not-linted", Severity: Info,
			Summary:   "a template (Jinja, Helm, Go template, shell heredoc) is not linted",
			Rationale: "What a template describes is known only once it is rendered (helm template, ansible, kcli, kube-compare). Linting its text would report the placeholders, not the cluster: the file (or the object holding a placeholder that parses as YAML, such as `replicas: {{ replicas }}`) is skipped, and said so, instead of being dropped silently or failing the run.",
			Fix:       "Lint the rendered output (`helm template CHART > out.yaml`, then `siteforge lint out.yaml`), or keep the templates out of the linted paths (.siteforgeignore, --exclude) to silence this."},
		{ID: RuleDuplicateObject, Name: "duplicate-object", Severity: Warning,
			Summary:   "the same object (API group, kind, namespace, name) is defined twice with different content",
			Rationale: "The API server holds one object per group, kind, namespace and name: applying two definitions keeps whichever is applied last, kustomize refuses the build (\"may not add resource with an already registered id\") and Argo CD reports RepeatedResourceWarning. Identical copies are read once; copies that differ leave the cluster's state to the order of application, and every rule sees both. A day-0 install manifest (in the manifests/ or openshift/ folder the installer reads next to install-config.yaml) and the day-2 object that later changes it are not reported. Installation folders side by side are clusters of their own (the installer reads only its --dir), and of oc-mirror v1's results-<unix time> folders only the newest is read (each run writes the whole mirror's resources again), so neither is reported.",
			Fix:       "Keep one definition of the object and delete (or rename) the other copy."},
		{ID: RuleUnreadableFile, Name: "unreadable-file", Severity: Error,
			Summary:   "a file or path cannot be read",
			Rationale: "siteforge reads only regular files, each up to a size limit (docs/limits.md); a FIFO, device, socket, a file too large or without permission is not read. A path that does not exist is reported too, so a typo in a pre-commit or CI configuration does not pass silently.",
			Fix:       "Fix the path, or keep the file out of the linted paths (.siteforgeignore, --exclude)."},
		{ID: RuleRenderedSiteGone, Name: "rendered-site-not-found", Severity: Info,
			Summary:   "a rendered site folder is linted without its site, and the site it was rendered from cannot be found or does not load",
			Rationale: "A rendered site folder's findings are the site's: the site's suppressions (lint: suppress, a field's @lint(ignore=...)) and severity settings apply to them, as they do when the site is linted. Linted without its site, the folder names the site in the siteforge.dev/source annotation of its objects (a path relative to the root of the repository that held the site); lint looks for it from the repository holding the folder and from the working directory. When it is not there or does not load, the site's suppressions cannot be applied and findings the site suppresses are reported.",
			Fix:       "Lint the folder from the repository that holds the site, or with the site (`siteforge lint SITE`, which lints its rendered objects), or fix the site so that it loads (`siteforge vet SITE`)."},
		{ID: RuleSourceNotFound, Name: "policy-source-not-found", Severity: Info,
			Summary:   "a source file a PolicyGenerator or PolicyGenTemplate names is not in the repository",
			Rationale: "lint reads the objects a hub delivers to its managed clusters: those inside Policies, and the source files a PolicyGenerator (manifests[].path, relative to the generator's folder: policy-generator-plugin internal/utils.go getManifests) or a ZTP PolicyGenTemplate (spec.sourceFiles[].fileName, in the source-crs folder beside it, else the one built into the ztp-site-generate container: cnf-features-deploy ztp/policygenerator/utils/filesHandler.go ReadSourceCRFile) names, patched or overlaid as the generator does. A source file that is not in the repository, as ZTP's built-in source CRs are not, cannot be read: what it delivers is not linted, and said so.",
			Fix:       "Copy the source CRs the policies use into the source-crs folder beside the generators (extract them from the ztp-site-generate container), or fix the path."},
	} {
		r.Since = "v1alpha1"
		registry[r.ID] = r
	}
}

// InputFinding is a finding of an input rule at a diagnostic (its hint
// joined to the message).
func InputFinding(rule, site string, d diag.Diagnostic) Finding {
	r := registry[rule]
	msg := d.Message
	if d.Path != "" {
		msg = d.Path + ": " + msg
	}
	if d.Hint != "" {
		msg += " (" + d.Hint + ")"
	}
	pos := d.Pos
	if pos.Line == 0 {
		pos.Line, pos.Col = 1, 1
	}
	return Finding{Rule: r.ID, Name: r.Name, Severity: r.Severity, Message: msg, Pos: pos, Site: site}
}

// ProblemFinding is the finding of a manifest that was not read.
func ProblemFinding(p manifests.Problem) Finding {
	rule := RuleUnparsableFile
	switch p.Kind {
	case manifests.ProblemTemplate:
		rule = RuleTemplate
	case manifests.ProblemUnreadable:
		rule = RuleUnreadableFile
	case manifests.ProblemSourceMissing:
		rule = RuleSourceNotFound
	}
	return InputFinding(rule, "", p.Diagnostic)
}

// Inputs keeps the input findings of the selected rules (--enable,
// --disable), as a Result to Merge with the sets'.
func (l *Linter) Inputs(fs []Finding) Result {
	var res Result
	for _, f := range fs {
		if isSelected(l.selected, f.Rule) {
			res.Findings = append(res.Findings, f)
		}
	}
	return res
}

// duplicateFindings are the set's INP004 findings: a copy that differs
// from the first definition.
func duplicateFindings(set Set) []Finding {
	r := registry[RuleDuplicateObject]
	var out []Finding
	for _, d := range set.Duplicates {
		if d.Identical || manifests.IsInstallManifest(d.Obj, set.Objects) || manifests.IsInstallManifest(d.First, set.Objects) {
			continue // a day-0 manifest and the day-2 object that changes it
		}
		first := d.First.Pos()
		if s := set.Site; s != nil {
			if p, ok := s.Origin[d.First.File]; ok && p.IsValid() {
				first = p // rendered by the site: where the site says it
			}
		}
		out = append(out, Finding{Rule: r.ID, Name: r.Name, Severity: r.Severity,
			Message:  fmt.Sprintf("%s is defined again here, differently from %s (the API server keeps one: whichever is applied last)", d.Obj.ID(), first),
			Pos:      d.Obj.Pos(),
			Resource: &ResourceRef{APIVersion: d.Obj.APIVersion, Kind: d.Obj.Kind, Namespace: d.Obj.Namespace, Name: d.Obj.Name}})
	}
	return out
}
