package lint

import (
	"fmt"
	"strings"
)

// Explain is the full text of a rule, as `siteforge explain ID` prints it.
func Explain(r *Rule) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s (%s)\n\n%s\n\n", r.ID, r.Name, r.Severity, r.Summary)
	fmt.Fprintf(&b, "Why:\n%s\n\nFix:\n%s\n\nSince: %s\n", wrap(r.Rationale), wrap(r.Fix), r.Since)
	return b.String()
}

// Markdown is the reference documentation of every rule (docs/rules.md).
func Markdown() string {
	var b strings.Builder
	b.WriteString("# siteforge lint rules\n\n")
	b.WriteString("Generated from the rule registry by `go test ./lint -run TestRulesDoc` with UPDATE_GOLDEN=1 (`make golden`); do not edit.\n")
	b.WriteString("`siteforge explain ID` prints the same text.\n\n")
	b.WriteString(releaseDoc)
	b.WriteString(renderDoc)
	b.WriteString("| ID | name | severity | summary |\n|---|---|---|---|\n")
	for _, r := range Rules() {
		fmt.Fprintf(&b, "| [%s](#%s) | %s | %s | %s |\n", r.ID, strings.ToLower(r.ID), r.Name, r.Severity, r.Summary)
	}
	for _, r := range Rules() {
		fmt.Fprintf(&b, "\n## %s\n\n`%s`, %s, since %s. %s\n\n**Why.** %s\n\n**Fix.** %s\n", r.ID, r.Name, r.Severity, r.Since, r.Summary, r.Rationale, r.Fix)
	}
	return b.String()
}

// releaseDoc says where the version-gated rules take the release of plain
// manifests from (lint.ManifestSet, manifests.ReadRelease).
const releaseDoc = `## The release of plain manifests

Rules gated on the OpenShift release take it, for a site, from cluster.version; for plain
manifests given together, from the first of these that says it:

1. ` + "`--ocp-version`" + `, else ` + "`ocp-version`" + ` in ` + "`.siteforge.yaml`" + ` (the KRM function's ` + "`spec.ocpVersion`" + `); a
   message names which one.
2. A ClusterVersion (config.openshift.io/v1): spec.desiredUpdate.version, else status.desired.version,
   else the version of spec.channel (stable-4.17).
3. The ClusterImageSet (hive.openshift.io/v1) a ClusterInstance (siteconfig.open-cluster-management.io/v1alpha1,
   spec.clusterImageSetNameRef) or an AgentClusterInstall (extensions.hive.openshift.io/v1beta1,
   spec.imageSetRef.name) names: its spec.releaseImage tag (ocp-release:4.17.3-x86_64), else its name.
   When the ClusterImageSet is not in the set, the name is read when it follows a known convention
   (openshift-4.17, openshift-v4.17, img4.17.3-x86-64-appsub); any other name tells nothing. A set
   without ClusterInstance or AgentClusterInstall reads its ClusterImageSets.
4. An oc-mirror ImageSetConfiguration (mirror.openshift.io/v1alpha2, v2alpha1): the OpenShift channels
   it mirrors (mirror.platform.channels[].name, minVersion, maxVersion). The operator catalogs it
   mirrors (mirror.operators[].catalog, redhat-operator-index:v4.y) tell nothing of the release: they
   are what the mirror serves, not the payload a cluster installs.

When the objects of the first source that says anything disagree (two ClusterImageSets of different
minors on a hub, an ImageSetConfiguration mirroring an upgrade from 4.16 to 4.17), the release is
unknown: version-gated rules are skipped, or judge by the latest release and say so, naming the
objects that disagree. A message that depends on the release names where it was read.

`

// renderDoc says how render warnings are reported and suppressed (the RND
// rules, lint/render.go).
const renderDoc = `## Render warnings and suppressions

What ` + "`siteforge render`" + ` warns about has a rule ID too: an RND rule, or the lint rule of the same
fact (MCF006 for ` + "`ovs.flowIdleTimeoutMs`" + `, MIR021 for the installer's mirror objects). Render prints
it as ` + "`file:line:col: warning: ... [MIR021]`" + `, ` + "`--strict`" + ` (Argo CD ` + "`SITEFORGE_STRICT=true`" + `, SiteRender
` + "`strict: true`" + `) makes it an error, lint reports it under that ID in every format, and the KRM
functions' results carry it in tag ` + "`rule`" + `. Suppress a finding or a render warning in the site, with
the reason it does not apply or the step you take:

` + "```yaml" + `
lint:
  suppress:
  - {rule: MIR021, reason: "we delete imagedigestmirrorset/image-digest-mirror after the installation"}
` + "```" + `

or, in CUE, on the field: ` + "`policy: \"NeverContactSource\" @lint(ignore=\"MIR021\", reason=\"...\")`" + `.
Render honours both: a suppressed warning is neither printed nor an error under ` + "`--strict`" + `, and
render says how many it dropped (` + "`siteforge: 1 warning suppressed`" + `). Lint of the site's rendered
folder without the site honours them too: it finds the site by the ` + "`siteforge.dev/source`" + `
annotation of the folder's objects (INP007 when it cannot). A suppression without a reason
is not honoured (LNT002); one that matches nothing is LNT001; one of an unknown or retired rule
(INP005, the one ID all render warnings had before; RND003, now MIR021) is LNT003.

`

// wrap breaks text at 80 columns, indented by two spaces.
func wrap(s string) string {
	var lines []string
	for _, para := range strings.Split(s, "\n") {
		line := " "
		for _, w := range strings.Fields(para) {
			if len(line)+1+len(w) > 80 && line != " " {
				lines = append(lines, line)
				line = " "
			}
			line += " " + w
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}
