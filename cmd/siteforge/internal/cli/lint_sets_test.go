package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"testing"

	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/internal/discover"
	"github.com/siteforge/siteforge/internal/fleetgen"
	"github.com/siteforge/siteforge/lint"
)

// lintAtOnce is how lint ran before sites were linted on the workers: every
// site rendered and kept, then one lint.Run over all sets. It is the
// reference the streaming lint must match finding for finding.
func lintAtOnce(t *testing.T, sites, plain []string) lint.Result {
	t.Helper()
	var stderr bytes.Buffer
	outs, ok := renderAll(env{stdout: &bytes.Buffer{}, stderr: &stderr}, sites, generators.Options{})
	if !ok {
		t.Fatalf("render: %s", stderr.String())
	}
	in := &lint.Input{}
	for _, o := range outs {
		objs, origin, err := o.Objects()
		if err != nil {
			t.Fatal(err)
		}
		in.Sites = append(in.Sites, &lint.Site{Site: o.Site, Objects: objs, Origin: origin, Warnings: o.AllWarnings()})
	}
	found := discover.Paths(plain, discover.Options{})
	if len(found.Problems) > 0 || len(found.Clusters) > 0 {
		t.Fatalf("%+v", found)
	}
	in.Objects = found.Loose
	res, err := lint.Run(in, lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestConcurrentLintMatchesOneRun: linting each site on the render workers
// (and the plain manifests as one set) gives exactly the findings, order,
// suppression count and deduplication of one run over everything, on one
// core and on many. make test runs it under -race too.
func TestConcurrentLintMatchesOneRun(t *testing.T) {
	dir := t.TempDir()
	fleet := filepath.Join(dir, "fleet")
	if err := fleetgen.Write(fleet, 24); err != nil {
		t.Fatal(err)
	}
	plain := filepath.Join(dir, "gitops")
	if err := os.MkdirAll(plain, 0o755); err != nil {
		t.Fatal(err)
	}
	// A digest-only mirror and a catalog pulled by tag (MIR001), and a
	// suppression that matches nothing (LNT001).
	for name, doc := range map[string]string{
		"idms.yaml": "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata:\n  name: cache\nspec:\n  imageDigestMirrors:\n" +
			"  - source: registry.redhat.io\n    mirrors: [quay.example.com/registry-redhat-io]\n    mirrorSourcePolicy: NeverContactSource\n",
		"catalog.yaml": "apiVersion: operators.coreos.com/v1alpha1\nkind: CatalogSource\nmetadata:\n  name: redhat-operators\n  namespace: openshift-marketplace\n" +
			"spec:\n  sourceType: grpc\n  image: registry.redhat.io/redhat/redhat-operator-index:v4.16\n",
		"unused.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  annotations:\n    siteforge.dev/ignore-MTU001: \"stale\"\n",
	} {
		if err := os.WriteFile(filepath.Join(plain, name), []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	examples := filepath.Join("..", "..", "..", "..", "examples")
	sites := []string{fleet}
	for _, ex := range []string{"disconnected-quay-cache", "remote-workers", "aws-local-zones"} {
		sites = append(sites, filepath.Join(examples, ex))
	}
	want := lintAtOnce(t, sites, []string{plain})
	if len(want.Findings) < 3 {
		t.Fatalf("the fixture yields %d findings; the comparison needs some", len(want.Findings))
	}
	linter, err := lint.New(lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, procs := range []int{1, 4} {
		prev := runtime.GOMAXPROCS(procs)
		var stderr bytes.Buffer
		got, ok := lintPaths(env{stdout: &bytes.Buffer{}, stderr: &stderr}, linter, append(append([]string(nil), sites...), plain), nil, "", "", nil)
		runtime.GOMAXPROCS(prev)
		if !ok {
			t.Fatalf("GOMAXPROCS %d: lint failed: %s", procs, stderr.String())
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("GOMAXPROCS %d: streaming lint differs from one run:\n got %d findings, %d suppressed\nwant %d findings, %d suppressed",
				procs, len(got.Findings), got.Suppressed, len(want.Findings), want.Suppressed)
			for i := 0; i < max(len(got.Findings), len(want.Findings)); i++ {
				var g, w lint.Finding
				if i < len(got.Findings) {
					g = got.Findings[i]
				}
				if i < len(want.Findings) {
					w = want.Findings[i]
				}
				if !reflect.DeepEqual(g, w) {
					t.Errorf("first difference at %d:\n got %+v\nwant %+v", i, g, w)
					break
				}
			}
		}
	}
}
