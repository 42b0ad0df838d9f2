package lint_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/lint"
	_ "github.com/siteforge/siteforge/lint/rules"
)

const idms = `apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  name: cache
spec:
  imageDigestMirrors:
  - source: registry.redhat.io
    mirrors: [quay.example.com/registry-redhat-io]
    mirrorSourcePolicy: NeverContactSource
---
# the default catalogs off, else MIR002 reports them under the same mirror
apiVersion: config.openshift.io/v1
kind: OperatorHub
metadata:
  name: cluster
spec:
  disableAllDefaultSources: true
`

func catalog(annotations string) string {
	return `apiVersion: operators.coreos.com/v1alpha1
kind: CatalogSource
metadata:
  name: redhat-operators
  namespace: openshift-marketplace
` + annotations + `spec:
  sourceType: grpc
  image: registry.redhat.io/redhat/redhat-operator-index:v4.16
`
}

func readDocs(t testing.TB, docs ...string) []*manifests.Object {
	t.Helper()
	var objs []*manifests.Object
	for i, d := range docs {
		o, diags := manifests.ReadBytes(filepath.Join("f", string(rune('a'+i))+".yaml"), []byte(d))
		if len(diags) > 0 {
			t.Fatal(diags)
		}
		objs = append(objs, o...)
	}
	return objs
}

func run(t *testing.T, opts lint.Options, docs ...string) lint.Result {
	t.Helper()
	objs := readDocs(t, docs...)
	res, err := lint.Run(&lint.Input{Objects: objs}, opts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func rules(res lint.Result) string {
	var ids []string
	for _, f := range res.Findings {
		ids = append(ids, f.Rule+"@"+f.Pos.String())
	}
	return strings.Join(ids, " ")
}

func TestSuppressions(t *testing.T) {
	// Without suppression: MIR001 on the catalog's image line.
	if got := rules(run(t, lint.Options{}, idms, catalog(""))); got != "MIR001@f/b.yaml:8:10" {
		t.Fatalf("unsuppressed: %s", got)
	}
	// With a reason: suppressed and counted.
	res := run(t, lint.Options{}, idms, catalog("  annotations:\n    siteforge.dev/ignore-MIR001: \"catalog mirrored by a proxy\"\n"))
	if len(res.Findings) != 0 || res.Suppressed != 1 {
		t.Errorf("suppressed: findings %s, suppressed %d", rules(res), res.Suppressed)
	}
	// LNT002: a suppression without a reason suppresses nothing.
	res = run(t, lint.Options{}, idms, catalog("  annotations:\n    siteforge.dev/ignore-MIR001: \"\"\n"))
	if got := rules(res); got != "LNT002@f/b.yaml:7:5 MIR001@f/b.yaml:10:10" {
		t.Errorf("reasonless: %s", got)
	}
	// LNT001: an unused suppression.
	res = run(t, lint.Options{}, catalog("  annotations:\n    siteforge.dev/ignore-MIR001: \"no longer needed\"\n"))
	if got := rules(res); got != "LNT001@f/a.yaml:7:5" {
		t.Errorf("unused: %s", got)
	}
	// LNT003: an unknown rule.
	res = run(t, lint.Options{}, catalog("  annotations:\n    siteforge.dev/ignore-MIR999: \"typo\"\n"))
	if got := rules(res); got != "LNT003@f/a.yaml:7:5" {
		t.Errorf("unknown: %s", got)
	}
	// Passing cases of the engine rules: a used suppression with a reason
	// for a known rule yields none of LNT001-003 (above: zero findings).
}

func TestEnableDisable(t *testing.T) {
	if res := run(t, lint.Options{Disable: []string{"MIR001"}}, idms, catalog("")); len(res.Findings) != 0 {
		t.Errorf("disabled rule reported: %s", rules(res))
	}
	if res := run(t, lint.Options{Enable: []string{"tag-pull-under-digest-only-mirrors"}}, idms, catalog("")); len(res.Findings) != 1 {
		t.Errorf("enable by name: %s", rules(res))
	}
	if _, err := lint.Run(&lint.Input{}, lint.Options{Enable: []string{"NOPE01"}}); err == nil {
		t.Errorf("unknown rule in --enable accepted")
	}
}

func TestRegistryIsWellFormed(t *testing.T) {
	for _, r := range lint.Rules() {
		if lint.Lookup(r.ID) != r || lint.Lookup(r.Name) != r {
			t.Errorf("lookup of %s / %s", r.ID, r.Name)
		}
		text := lint.Explain(r)
		for _, part := range []string{r.ID, r.Name, r.Summary, "Why:", "Fix:"} {
			if !strings.Contains(text, part) {
				t.Errorf("explain %s lacks %q", r.ID, part)
			}
		}
	}
}

// TestRulesDoc: docs/rules.md is generated from the registry; it fails when
// the committed file drifts (make golden rewrites it).
func TestRulesDoc(t *testing.T) {
	path := filepath.Join("..", "docs", "rules.md")
	want := lint.Markdown()
	if os.Getenv("UPDATE_GOLDEN") != "" {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run make golden)", err)
	}
	if string(got) != want {
		t.Errorf("docs/rules.md is out of date with the rule registry: run make golden and commit it")
	}
	for _, r := range lint.Rules() {
		if !strings.Contains(string(got), "## "+r.ID) {
			t.Errorf("docs/rules.md does not document %s", r.ID)
		}
	}
}

// TestFactOncePerSet: what rules derive from a set is computed once per set
// and key, shared by every copy of the set, and not by another set.
func TestFactOncePerSet(t *testing.T) {
	type key string
	objs := readDocs(t, idms)
	set := lint.ManifestSet(objs, 0, "")
	calls := 0
	compute := func() *int { calls++; v := calls; return &v }
	a := lint.Fact(set, key("n"), compute)
	copied := set
	b := lint.Fact(copied, key("n"), compute)
	if calls != 1 || a != b {
		t.Errorf("computed %d times (same value: %v)", calls, a == b)
	}
	if c := lint.Fact(set, key("other"), compute); calls != 2 || c == a {
		t.Errorf("another key did not compute its own fact")
	}
	if d := lint.Fact(lint.ManifestSet(objs, 0, ""), key("n"), compute); calls != 3 || d == a {
		t.Errorf("another set shared the first set's fact")
	}
	// Nested: a fact computed from another fact.
	outer := lint.Fact(set, key("outer"), func() int { return *lint.Fact(set, key("n"), compute) + 10 })
	if outer != 11 || calls != 3 {
		t.Errorf("nested fact = %d after %d computations", outer, calls)
	}
}

// TestCheckEqualsRun: Linter.Check per set, merged, is lint.Run.
func TestCheckEqualsRun(t *testing.T) {
	objs := readDocs(t, idms, catalog(""), catalog("  annotations:\n    siteforge.dev/ignore-MTU001: \"stale\"\n"))
	want, err := lint.Run(&lint.Input{Objects: objs}, lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	l, err := lint.New(lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := lint.Merge(l.Check(lint.ManifestSet(objs, 0, "")))
	if rules(got) != rules(want) || rules(want) == "" {
		t.Errorf("Check: %s\nRun:   %s", rules(got), rules(want))
	}
}
