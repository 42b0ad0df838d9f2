package rules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/siteforge/siteforge/internal/discover"
	"github.com/siteforge/siteforge/internal/ruleid"
	"github.com/siteforge/siteforge/lint"
)

// ruleCase is one fixture: manifests (file name -> content) linted with only
// the rule under test enabled.
type ruleCase struct {
	rule  string
	name  string
	files map[string]string
	// want: one entry per expected finding, "file:line:col" prefix or a
	// message fragment; empty for a passing case.
	want []string
}

const installConfigEdge = `apiVersion: v1
baseDomain: example.com
metadata:
  name: lz
platform:
  aws:
    region: us-east-1
compute:
- name: worker
  replicas: 3
- name: edge
  replicas: 1
  platform:
    aws:
      zones: [us-east-1-nyc-1a]
networking:
  networkType: OVNKubernetes
`

const networkManifest = `apiVersion: operator.openshift.io/v1
kind: Network
metadata:
  name: cluster
spec:
  defaultNetwork:
    type: OVNKubernetes
    ovnKubernetesConfig:
      mtu: %MTU%
`

const idmsNever = `apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  name: cache
spec:
  imageDigestMirrors:
  - source: registry.redhat.io
    mirrors:
    - quay.example.com/registry-redhat-io
    mirrorSourcePolicy: NeverContactSource
`

const itmsNever = `apiVersion: config.openshift.io/v1
kind: ImageTagMirrorSet
metadata:
  name: cache-tags
spec:
  imageTagMirrors:
  - source: registry.redhat.io
    mirrors:
    - quay.example.com/registry-redhat-io
    mirrorSourcePolicy: NeverContactSource
`

const catalogByTag = `apiVersion: operators.coreos.com/v1alpha1
kind: CatalogSource
metadata:
  name: redhat-operators
  namespace: openshift-marketplace
spec:
  sourceType: grpc
  image: registry.redhat.io/redhat/redhat-operator-index:v4.16
`

var ruleCases = []ruleCase{
	{rule: "MTU001", name: "edge pool with the install-time default MTU", files: map[string]string{
		"install-config.yaml":                     installConfigEdge,
		"manifests/cluster-network-03-config.yml": strings.Replace(networkManifest, "%MTU%", "8901", 1),
	}, want: []string{"manifests/cluster-network-03-config.yml:9:12: error: cluster MTU 8901 does not fit the 1300-byte path"}},
	{rule: "MTU001", name: "edge pool with 1200", files: map[string]string{
		"install-config.yaml":                     installConfigEdge,
		"manifests/cluster-network-03-config.yml": strings.Replace(networkManifest, "%MTU%", "1200", 1),
	}},
	{rule: "MTU001", name: "clusterNetworkMTU in install-config", files: map[string]string{
		"install-config.yaml": installConfigEdge + "  clusterNetworkMTU: 1400\n",
	}, want: []string{"install-config.yaml:18:22: error: cluster MTU 1400"}},
	{rule: "MTU001", name: "no edge pool", files: map[string]string{
		"install-config.yaml":                     strings.Replace(installConfigEdge, "name: edge", "name: more", 1),
		"manifests/cluster-network-03-config.yml": strings.Replace(networkManifest, "%MTU%", "8901", 1),
	}},
	{rule: "MIR001", name: "catalog by tag under digest-only mirrors, source blocked", files: map[string]string{
		"idms.yaml": idmsNever, "catalog.yaml": catalogByTag,
	}, want: []string{"catalog.yaml:8:10: error: registry.redhat.io/redhat/redhat-operator-index:v4.16 is pulled by tag"}},
	{rule: "MIR001", name: "matching tag mirror set", files: map[string]string{
		"idms.yaml": idmsNever, "itms.yaml": itmsNever, "catalog.yaml": catalogByTag,
	}},
	{rule: "MIR001", name: "workload by tag", files: map[string]string{
		"idms.yaml": idmsNever,
		"deploy.yaml": `apiVersion: apps/v1
kind: Deployment
metadata: {name: app, namespace: a}
spec:
  template:
    spec:
      containers:
      - name: x
        image: registry.redhat.io/ubi9/ubi:latest
`,
	}, want: []string{"deploy.yaml:9:16: error: registry.redhat.io/ubi9/ubi:latest is pulled by tag"}},
	{rule: "MIR001", name: "workload by digest", files: map[string]string{
		"idms.yaml": idmsNever,
		"deploy.yaml": `apiVersion: apps/v1
kind: Deployment
metadata: {name: app, namespace: a}
spec:
  template:
    spec:
      containers:
      - name: x
        image: registry.redhat.io/ubi9/ubi@sha256:0000000000000000000000000000000000000000000000000000000000000000
`,
	}},
}

func lintFiles(t *testing.T, files map[string]string, enable ...string) lint.Result {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	// Read as lint reads a repository (discover), all objects as one set;
	// what was not read is an input finding.
	found := discover.Paths([]string{"."}, discover.Options{})
	objs := found.Loose
	for _, c := range found.Clusters {
		objs = append(objs, c.Objects...)
	}
	l, err := lint.New(lint.Options{Enable: enable})
	if err != nil {
		t.Fatal(err)
	}
	var inputs []lint.Finding
	for _, p := range found.Problems {
		inputs = append(inputs, lint.ProblemFinding(p))
	}
	parts := []lint.Result{l.Inputs(inputs)}
	switch {
	case len(found.Clusters) == 1 && found.Clusters[0].Live() && len(found.Loose) == 0:
		parts = append(parts, l.Check(lint.LiveSet(objs, 0, ""))) // a must-gather
	case len(objs) > 0:
		parts = append(parts, l.Check(lint.ManifestSet(objs, 0, "")))
	}
	return lint.Merge(parts...)
}

func TestRuleCases(t *testing.T) {
	for _, tc := range ruleCases {
		t.Run(tc.rule+"/"+tc.name, func(t *testing.T) {
			res := lintFiles(t, tc.files, tc.rule)
			var got []string
			for _, f := range res.Findings {
				got = append(got, f.Pos.String()+": "+f.Severity.String()+": "+f.Message)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %d findings, want %d:\n  %s", len(got), len(tc.want), strings.Join(got, "\n  "))
			}
			for i, w := range tc.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("finding %d:\n  %s\nwant it to contain\n  %s", i, got[i], w)
				}
			}
		})
	}
}

// TestEveryRuleHasCases: each rule has a failing and a passing fixture (manifests, or a site).
func TestEveryRuleHasCases(t *testing.T) {
	failing, passing := map[string]bool{}, map[string]bool{}
	for _, tc := range ruleCases {
		if len(tc.want) > 0 {
			failing[tc.rule] = true
		} else {
			passing[tc.rule] = true
		}
	}
	for _, tc := range siteCases {
		if len(tc.want) > 0 {
			failing[tc.rule] = true
		} else {
			passing[tc.rule] = true
		}
	}
	for _, id := range engineRuleCases {
		failing[id], passing[id] = true, true
	}
	for _, r := range lint.Rules() {
		if !failing[r.ID] || !passing[r.ID] {
			t.Errorf("rule %s needs a failing and a passing case (failing %v, passing %v)", r.ID, failing[r.ID], passing[r.ID])
		}
	}
}

// engineRuleCases are the engine's own rules, tested in lint/engine_test.go.
// The input rules of sites (INP002 a site that does not load) and INP006 (a
// FIFO, a missing path) are tested through the CLI: cmd/siteforge/internal/cli
// TestLintInputFindings; INP007 (a rendered folder whose site is not found)
// in cmd/siteforge/internal/cli TestRenderedFolderSite. The render warnings (RND) are rendered from sites,
// which lint cannot do (it does not import the generators): each has a
// failing and a passing site in cmd/siteforge/internal/cli
// TestRenderWarningRules.
var engineRuleCases = append([]string{lint.RuleUnusedSuppression, lint.RuleReasonlessSuppression, lint.RuleUnknownRule,
	lint.RuleSiteLoad, lint.RuleUnreadableFile, lint.RuleRenderedSiteGone}, ruleid.Render...)
