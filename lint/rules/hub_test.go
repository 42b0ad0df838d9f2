package rules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/siteforge/siteforge/internal/discover"
	"github.com/siteforge/siteforge/lint"
)

// lintRepo lints folders as the CLI does: each cluster discover draws (a
// kustomization root, a managed cluster, a policy) is a set of its own,
// the rest one set; what was not read is an input finding. It returns the
// findings as "file:line:col: severity: message [RULE]".
func lintRepo(t *testing.T, paths []string, enable ...string) []string {
	t.Helper()
	found := discover.Paths(paths, discover.Options{})
	l, err := lint.New(lint.Options{Enable: enable})
	if err != nil {
		t.Fatal(err)
	}
	var inputs []lint.Finding
	for _, p := range found.Problems {
		inputs = append(inputs, lint.ProblemFinding(p))
	}
	parts := []lint.Result{l.Inputs(inputs)}
	if len(found.Loose) > 0 {
		parts = append(parts, l.Check(lint.ManifestSet(found.Loose, 0, "")))
	}
	for _, c := range found.Clusters {
		if len(c.Objects) > 0 {
			parts = append(parts, l.Check(lint.ManifestSet(c.Objects, 0, "")))
		}
	}
	var got []string
	for _, f := range lint.Merge(parts...).Findings {
		got = append(got, f.Pos.String()+": "+f.Severity.String()+": "+f.Message+" ["+f.Rule+"]")
	}
	return got
}

func wantFindings(t *testing.T, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d findings, want %d:\n  %s", len(got), len(want), strings.Join(got, "\n  "))
	}
	for i, w := range want {
		if !strings.Contains(got[i], w) {
			t.Errorf("finding %d:\n  %s\nwant it to contain\n  %s", i, got[i], w)
		}
	}
}

// TestHubPolicyObjects: the digest-only pitfall planted inside a Policy's
// object-templates (an ImageDigestMirrorSet with NeverContactSource, a
// CatalogSource pulled by tag) is reported at the object's line in the
// Policy file. The other policy's CatalogSource by tag (in
// object-templates-raw) is not: its clusters are not the first policy's,
// nor the hub's, whose own ImageDigestMirrorSet is beside the policies.
func TestHubPolicyObjects(t *testing.T) {
	got := lintRepo(t, []string{filepath.Join("testdata", "hub", "policy")}, "MIR001")
	wantFindings(t, got, []string{
		"testdata/hub/policy/policies.yaml:43:22: error: registry.redhat.io/redhat/redhat-operator-index:v4.16 is pulled by tag, but registry.redhat.io has only digest-only mirrors",
	})
	// object-templates-raw is read at its lines: its ImageTagMirrorSet
	got = lintRepo(t, []string{filepath.Join("testdata", "hub", "policy")}, "MIR018")
	wantFindings(t, got, []string{"testdata/hub/policy/policies.yaml:82:17: info: ImageTagMirrorSet cache-tags mirrors tag pulls"})
}

// TestHubPolicyGenerator: the same pitfall in a PolicyGenerator's source
// manifests is reported at the CatalogSource's line in its source file;
// made by a patch, at the patch's line in the generator file.
func TestHubPolicyGenerator(t *testing.T) {
	got := lintRepo(t, []string{filepath.Join("testdata", "hub", "policygenerator")}, "MIR001")
	wantFindings(t, got, []string{
		"testdata/hub/policygenerator/policygenerator.yaml:27:16: error: registry.redhat.io/redhat/redhat-operator-index:v4.16 is pulled by tag",
		"testdata/hub/policygenerator/source-crs/DefaultCatsrc.yaml:9:10: error: registry.redhat.io/redhat/redhat-operator-index:v4.16 is pulled by tag",
	})
}

// TestHubPolicyGenTemplate: a PolicyGenTemplate's source CRs with their
// overlays merged (the $ placeholders replaced): the tag the overlay sets
// is reported at its line; a source CR not in the repository is INP008.
func TestHubPolicyGenTemplate(t *testing.T) {
	got := lintRepo(t, []string{filepath.Join("testdata", "hub", "pgt")}, "MIR001", "INP008")
	wantFindings(t, got, []string{
		"testdata/hub/pgt/common-ranGen.yaml:20:14: error: registry.redhat.io/redhat/redhat-operator-index:v4.16 is pulled by tag",
		"testdata/hub/pgt/common-ranGen.yaml:21:15: info: PolicyGenTemplate ztp-common/common: the source CR ClusterLogForwarder.yaml is not in the repository; its objects are not linted",
	})
}

// TestHubManagedClusters: the ZTP layout. A common policy (placed by the
// label common: "true") and a site policy per cluster (by the label
// sites) are the objects of the clusters a SiteConfig labels: site-a has
// both (the common digest-only mirrors and its catalog by tag: the
// pitfall), site-b only its own catalog (fine).
func TestHubManagedClusters(t *testing.T) {
	got := lintRepo(t, []string{filepath.Join("testdata", "hub", "ztp")}, "MIR001")
	wantFindings(t, got, []string{
		"testdata/hub/ztp/site-a.yaml:26:22: error: registry.redhat.io/redhat/redhat-operator-index:v4.16 is pulled by tag",
	})
}

// TestZTPExample lints the ZTP reference layout (../shared/upstream/ztp/
// example: SiteConfigs, PolicyGenerators, PolicyGenTemplates, without the
// source CRs): every finding is positioned, and the source CRs it names
// are said to be missing.
func TestZTPExample(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "upstream", "ztp", "example")
	if _, err := os.Stat(dir); err != nil {
		t.Skip("SKIPPED LOUDLY: " + dir + " (the ZTP example tree) is absent; lint of the hub's language is not checked against it")
	}
	got := lintRepo(t, []string{dir})
	missing := 0
	for _, f := range got {
		if strings.HasSuffix(f, "[INP008]") {
			missing++
		}
		if !strings.HasPrefix(f, dir) || strings.HasPrefix(f[len(dir):], ":") || strings.Contains(f, ":0:") {
			t.Errorf("finding not positioned in a file: %s", f)
		}
	}
	if missing == 0 {
		t.Errorf("no INP008: the generators' source CRs were not looked for:\n  %s", strings.Join(got, "\n  "))
	}
}

const pgtOneSource = `apiVersion: ran.openshift.io/v1
kind: PolicyGenTemplate
metadata:
  name: common
  namespace: ztp-common
spec:
  bindingRules:
    common: "true"
  sourceFiles:
  - fileName: ReduceMonitoringFootprint.yaml
    policyName: config-policy
`

const policyOf = `apiVersion: policy.open-cluster-management.io/v1
kind: Policy
metadata:
  name: p
  namespace: ztp-site
spec:
  disabled: false
  policy-templates:
  - objectDefinition:
      apiVersion: policy.open-cluster-management.io/v1
      kind: ConfigurationPolicy
      metadata:
        name: p
      spec:
        object-templates:
%s`

// objectTemplate is an object-templates entry holding obj.
func objectTemplate(compliance, obj string) string {
	return indent("- complianceType: "+compliance+"\n  objectDefinition:\n"+indent(obj, 4), 8)
}

func init() {
	ruleCases = append(ruleCases,
		ruleCase{rule: "INP008", name: "source CR not in the repository", files: map[string]string{
			"common-ranGen.yaml": pgtOneSource},
			want: []string{"common-ranGen.yaml:10:15: info: PolicyGenTemplate ztp-common/common: the source CR ReduceMonitoringFootprint.yaml is not in the repository"}},
		ruleCase{rule: "INP008", name: "source CR in source-crs", files: map[string]string{
			"common-ranGen.yaml":                        pgtOneSource,
			"source-crs/ReduceMonitoringFootprint.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cluster-monitoring-config\n  namespace: openshift-monitoring\ndata:\n  config.yaml: |\n    alertmanagerMain:\n      enabled: false\n"}},
		ruleCase{rule: "INP003", name: "hub template inside a policy", files: map[string]string{
			"policy.yaml": strings.Replace(policyOf, "%s", objectTemplate("musthave", strings.Replace(catalogByTag,
				"registry.redhat.io/redhat/redhat-operator-index:v4.16", `'{{hub fromConfigMap "" "site-data" "catalog" hub}}'`, 1)), 1)},
			want: []string{"policy.yaml:25:22: info: CatalogSource openshift-marketplace/redhat-operators in Policy ztp-site/p holds a policy template"}},
		ruleCase{rule: "MIR001", name: "catalog by tag that must not exist", files: map[string]string{
			"policy.yaml": strings.Replace(policyOf, "%s", objectTemplate("musthave", idmsNever)+objectTemplate("mustnothave", catalogByTag), 1)}},
		ruleCase{rule: "MIR001", name: "catalog by tag in a policy", files: map[string]string{
			"policy.yaml": strings.Replace(policyOf, "%s", objectTemplate("musthave", idmsNever)+objectTemplate("musthave", catalogByTag), 1)},
			want: []string{"policy.yaml:37:22: error: registry.redhat.io/redhat/redhat-operator-index:v4.16 is pulled by tag"}},
	)
}
