package krm

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	sigsyaml "sigs.k8s.io/yaml"

	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/site"
)

// testGenerator makes every site render at least one resource, whatever
// generators are registered, so SiteRender's output can be checked.
const testGenerator = "krm-test"

func init() {
	generators.Register(generators.Generator{Name: testGenerator, Generate: func(_ *generators.Context, s *site.Site) ([]generators.Artifact, error) {
		return []generators.Artifact{{
			Path: "krm-test/configmap-" + s.Name + ".yaml",
			Role: generators.Resource,
			Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
				"metadata": map[string]any{"name": s.Name + "-krm-test", "namespace": "default"},
				"data":     map[string]any{"site": s.Name}},
			Origin: []diag.Position{s.Positions.Of("name")},
		}}, nil
	}})
}

// exampleSite is a valid YAML site.
func exampleSite(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile("../../../../examples/disconnected-quay-cache/site.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

type output struct {
	Items          []map[string]any `json:"items"`
	FunctionConfig map[string]any   `json:"functionConfig"`
	Results        []struct {
		Message     string            `json:"message"`
		Severity    string            `json:"severity"`
		ResourceRef map[string]string `json:"resourceRef"`
		File        struct {
			Path  string `json:"path"`
			Index int    `json:"index"`
		} `json:"file"`
		Tags map[string]string `json:"tags"`
	} `json:"results"`
}

// run runs the function on a ResourceList in dir (the kustomization root).
func run(t *testing.T, dir, rl string) (output, string, int) {
	t.Helper()
	t.Chdir(dir)
	var stdout, stderr bytes.Buffer
	code := Run(strings.NewReader(rl), &stdout, &stderr)
	var out output
	if err := sigsyaml.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("stdout is not a ResourceList: %v\n%s", err, stdout.String())
	}
	return out, stderr.String(), code
}

func indent(b []byte, n int) string {
	pad := strings.Repeat(" ", n)
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = pad + l
		}
	}
	return strings.Join(lines, "\n")
}

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const renderConfig = `apiVersion: config.kubernetes.io/v1
kind: ResourceList
functionConfig:
  apiVersion: siteforge.dev/v1alpha1
  kind: SiteRender
  metadata:
    name: render
    annotations:
      config.kubernetes.io/local-config: "true"
  spec:
`

func TestSiteRenderPaths(t *testing.T) {
	dir := writeFiles(t, map[string]string{"sites/lab/site.yaml": string(exampleSite(t))})
	out, stderr, code := run(t, dir, renderConfig+"    paths: [sites/lab]\nitems: []\n")
	if code != 0 {
		t.Fatalf("exit %d, want 0; stderr:\n%s", code, stderr)
	}
	var found bool
	for _, it := range out.Items {
		meta := it["metadata"].(map[string]any)
		ann, _ := meta["annotations"].(map[string]any)
		if ann[generators.SourceAnnotation] != "sites/lab" {
			t.Errorf("%v %v: %s = %v, want sites/lab", it["kind"], meta["name"], generators.SourceAnnotation, ann[generators.SourceAnnotation])
		}
		if meta["name"] == "lab-disconnected-krm-test" {
			found = true
		}
	}
	if !found {
		t.Errorf("the rendered ConfigMap is missing from the items: %v", out.Items)
	}
	for _, r := range out.Results {
		if r.Severity == "error" {
			t.Errorf("error result on a clean render: %+v", r)
		}
	}
}

func TestSiteRenderInline(t *testing.T) {
	rl := renderConfig + "    site:\n" + indent(exampleSite(t), 6) + "\nitems: []\n"
	out, stderr, code := run(t, t.TempDir(), rl)
	if code != 0 {
		t.Fatalf("exit %d, want 0; stderr:\n%s", code, stderr)
	}
	if len(out.Items) == 0 {
		t.Fatalf("no items rendered from the inline site")
	}
}

func TestSiteRenderInvalidSite(t *testing.T) {
	broken := strings.Replace(string(exampleSite(t)), "uplinkMTU: 1500", "uplinkMtu: 1500", 1)
	line := 1 + strings.Count(broken[:strings.Index(broken, "uplinkMtu")], "\n")
	dir := writeFiles(t, map[string]string{"site.yaml": broken})
	out, stderr, code := run(t, dir, renderConfig+"    paths: [site.yaml]\nitems: []\n")
	if code != exitFailure {
		t.Errorf("exit %d, want %d", code, exitFailure)
	}
	want := "site.yaml:" + strconv.Itoa(line) + ":5: error: pools.master: field \"uplinkMtu\" is not allowed"
	if !strings.Contains(stderr, want) {
		t.Errorf("stderr lacks %q:\n%s", want, stderr)
	}
	if len(out.Items) != 0 {
		t.Errorf("a failed render emitted items: %v", out.Items)
	}
	if len(out.Results) == 0 || out.Results[0].File.Path != "site.yaml" || out.Results[0].Tags["line"] != strconv.Itoa(line) || out.Results[0].Tags["column"] != "5" {
		t.Errorf("results = %+v, want the error at site.yaml:%d:5", out.Results, line)
	}
}

func TestSiteRenderInlineInvalid(t *testing.T) {
	broken := strings.Replace(string(exampleSite(t)), "uplinkMTU: 1500", "uplinkMtu: 1500", 1)
	out, stderr, code := run(t, t.TempDir(), renderConfig+"    site:\n"+indent([]byte(broken), 6)+"\n")
	if code != exitFailure {
		t.Errorf("exit %d, want %d", code, exitFailure)
	}
	// No file holds this function config: positions are within spec.site,
	// under a label that names the function config and is no file name.
	if !strings.Contains(stderr, "SiteRender render spec.site:") || !strings.Contains(stderr, `"uplinkMtu" is not allowed`) {
		t.Errorf("stderr does not point into the inline site:\n%s", stderr)
	}
	if strings.Contains(stderr, ".spec.site.yaml") {
		t.Errorf("stderr names a file that does not exist:\n%s", stderr)
	}
	if len(out.Results) == 0 || out.Results[0].Severity != "error" {
		t.Errorf("results = %+v", out.Results)
	}
}

const catalogSource = `apiVersion: operators.coreos.com/v1alpha1
kind: CatalogSource
metadata:
  name: redhat-operators
  namespace: openshift-marketplace
spec:
  sourceType: grpc
  image: registry.redhat.io/redhat/redhat-operator-index:v4.16
`

const idms = `apiVersion: config.openshift.io/v1
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

// lintList is a ResourceList as kustomize passes it to a validator: the
// items carry kustomize's bookkeeping annotations, renamed by namePrefix.
func lintList(spec string) string {
	return `apiVersion: config.kubernetes.io/v1
kind: ResourceList
functionConfig:
  apiVersion: siteforge.dev/v1alpha1
  kind: SiteLint
  metadata:
    name: lint
` + spec + `items:
- apiVersion: operators.coreos.com/v1alpha1
  kind: CatalogSource
  metadata:
    name: p-redhat-operators
    namespace: openshift-marketplace
    annotations:
      internal.config.kubernetes.io/prefixes: p-
      internal.config.kubernetes.io/previousKinds: CatalogSource
      internal.config.kubernetes.io/previousNames: redhat-operators
      internal.config.kubernetes.io/previousNamespaces: openshift-marketplace
      config.kubernetes.io/index: '0'
      config.k8s.io/id: '1'
  spec:
    image: registry.redhat.io/redhat/redhat-operator-index:v4.16
    sourceType: grpc
- apiVersion: config.openshift.io/v1
  kind: ImageDigestMirrorSet
  metadata:
    name: p-cache
    annotations:
      internal.config.kubernetes.io/previousNames: cache
      config.k8s.io/id: '2'
  spec:
    imageDigestMirrors:
    - source: registry.redhat.io
      mirrors:
      - quay.example.com/registry-redhat-io
      mirrorSourcePolicy: NeverContactSource
`
}

func TestSiteLintFindingAtUserLine(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"kustomization.yaml":      "namePrefix: p-\nresources:\n- base\n",
		"base/kustomization.yaml": "resources:\n- catalog.yaml\n- idms.yaml\n",
		"base/catalog.yaml":       catalogSource,
		"base/idms.yaml":          idms,
	})
	// MIR002 (the default catalogs under the same mirror) is checked in lint/rules.
	rl := lintList("  spec:\n    disable: [MIR002]\n")
	out, stderr, code := run(t, dir, rl)
	if code != exitFindings {
		t.Errorf("exit %d, want %d; stderr:\n%s", code, exitFindings, stderr)
	}
	want := "base/catalog.yaml:8:10: error: registry.redhat.io/redhat/redhat-operator-index:v4.16 is pulled by tag"
	if !strings.Contains(stderr, want) || !strings.Contains(stderr, "[MIR001]") {
		t.Errorf("stderr lacks %q ... [MIR001]:\n%s", want, stderr)
	}
	if len(out.Results) != 1 {
		t.Fatalf("results = %+v, want one", out.Results)
	}
	r := out.Results[0]
	if r.Severity != "error" || r.Tags["rule"] != "MIR001" || r.Tags["line"] != "8" || r.Tags["column"] != "10" || r.File.Path != "base/catalog.yaml" {
		t.Errorf("result = %+v", r)
	}
	if r.ResourceRef["kind"] != "CatalogSource" || r.ResourceRef["name"] != "p-redhat-operators" {
		t.Errorf("resourceRef = %v", r.ResourceRef)
	}
	// A validator must hand back exactly the items it got.
	var in output
	if err := sigsyaml.Unmarshal([]byte(rl), &in); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(in.Items, out.Items) {
		t.Errorf("items changed:\n got %v\nwant %v", out.Items, in.Items)
	}
}

func TestSiteLintWithoutKustomization(t *testing.T) {
	_, stderr, code := run(t, t.TempDir(), lintList(""))
	if code != exitFindings {
		t.Errorf("exit %d, want %d", code, exitFindings)
	}
	if !strings.Contains(stderr, "CatalogSource openshift-marketplace/p-redhat-operators (kustomize output): error:") {
		t.Errorf("stderr does not name the object:\n%s", stderr)
	}
}

// TestSiteLintRenderedWithoutPaths: objects SiteRender rendered
// (siteforge.dev/source) that a SiteLint without spec.paths lints as plain
// objects are named as docs/integrations.md says, `Kind namespace/name
// (kustomize output)`, on stderr and in the results, not at the site's
// path (a folder, relative to another root).
func TestSiteLintRenderedWithoutPaths(t *testing.T) {
	rl := strings.Replace(lintList(""), "      internal.config.kubernetes.io/prefixes: p-\n",
		"      internal.config.kubernetes.io/prefixes: p-\n      siteforge.dev/source: sites/lab\n", 1)
	if rl == lintList("") {
		t.Fatal("lintList changed: update the test")
	}
	out, stderr, code := run(t, t.TempDir(), rl)
	const named = "CatalogSource openshift-marketplace/p-redhat-operators (kustomize output)"
	if code != exitFindings || !strings.Contains(stderr, "\n"+named+": error: ") && !strings.HasPrefix(stderr, named+": error: ") {
		t.Errorf("exit %d, want %d and the object named %q:\n%s", code, exitFindings, named, stderr)
	}
	if strings.Contains(stderr, "sites/lab") {
		t.Errorf("stderr names the site's path as a file:\n%s", stderr)
	}
	found := false
	for _, r := range out.Results {
		if r.Tags["rule"] != "MIR001" {
			continue
		}
		found = true
		if r.File.Path != named {
			t.Errorf("MIR001 result file %+v, want %q", r.File, named)
		}
	}
	if !found {
		t.Errorf("no MIR001 result: %+v", out.Results)
	}
}

func TestSiteLintClean(t *testing.T) {
	rl := lintList("  spec:\n    disable: [MIR001, MIR002]\n")
	out, stderr, code := run(t, t.TempDir(), rl)
	if code != 0 || len(out.Results) != 0 || stderr != "" {
		t.Errorf("exit %d, results %v, stderr %q; want a silent 0", code, out.Results, stderr)
	}
	if len(out.Items) != 2 {
		t.Errorf("items = %v", out.Items)
	}
}

func TestSiteLintFailOn(t *testing.T) {
	// An unused suppression is a warning (LNT001).
	list := strings.Replace(lintList("  spec:\n    disable: [MIR001, MIR002]\n    failOn: %s\n"), "      config.k8s.io/id: '2'\n",
		"      config.k8s.io/id: '2'\n      siteforge.dev/ignore-MTU001: not a network\n", 1)
	for failOn, want := range map[string]int{"error": 0, "warning": 1} {
		out, stderr, code := run(t, t.TempDir(), strings.Replace(list, "%s", failOn, 1))
		if code != want {
			t.Errorf("failOn %s: exit %d, want %d; stderr:\n%s", failOn, code, want, stderr)
		}
		if len(out.Results) != 1 || out.Results[0].Severity != "warning" || out.Results[0].Tags["rule"] != "LNT001" {
			t.Errorf("failOn %s: results = %+v", failOn, out.Results)
		}
	}
}

// TestSiteLintOCPVersion: spec.ocpVersion is the release of the items, and
// a finding that depends on it names it as where the version comes from.
func TestSiteLintOCPVersion(t *testing.T) {
	out, stderr, code := run(t, t.TempDir(), lintList("  spec:\n    disable: [MIR001, MIR002]\n    ocpVersion: \"4.12\"\n"))
	found := false
	for _, r := range out.Results {
		if r.Tags["rule"] == "MIR016" {
			found = true
			if !strings.Contains(r.Message, "this is 4.12 (from spec.ocpVersion)") {
				t.Errorf("MIR016 does not say the version comes from spec.ocpVersion: %s", r.Message)
			}
		}
	}
	if code != 1 || !found {
		t.Errorf("an ImageDigestMirrorSet on 4.12: exit %d, results %+v, stderr:\n%s", code, out.Results, stderr)
	}
}

func TestSiteLintSite(t *testing.T) {
	dir := writeFiles(t, map[string]string{"site.yaml": string(exampleSite(t))})
	// The site's own rendered objects come back as items (a SiteRender
	// generator before the validator); they are checked with the site.
	rl := renderConfig + "    paths: [site.yaml]\nitems: []\n"
	rendered, stderr, code := run(t, dir, rl)
	if code != 0 {
		t.Fatalf("render: exit %d\n%s", code, stderr)
	}
	items, err := sigsyaml.Marshal(map[string]any{"items": rendered.Items})
	if err != nil {
		t.Fatal(err)
	}
	lint := "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nfunctionConfig:\n  apiVersion: siteforge.dev/v1alpha1\n  kind: SiteLint\n  metadata: {name: lint}\n  spec:\n    paths: [site.yaml]\n" + string(items)
	out, stderr, code := run(t, dir, lint)
	if code != 0 {
		t.Errorf("exit %d, want 0; stderr:\n%s", code, stderr)
	}
	if len(out.Items) != len(rendered.Items) {
		t.Errorf("items: got %d, want %d", len(out.Items), len(rendered.Items))
	}
}

// TestSiteLintSiteAndOtherObjects: the site and the build's other objects
// are one cluster (docs/integrations.md: "linted as one cluster"): an
// ImageDigestMirrorSet of the build giving registry.redhat.io another
// policy than the site's mirrors conflicts with them (MCO refuses the
// pair: MIR004). Before, the items were linted apart from the site and
// nothing was found.
func TestSiteLintSiteAndOtherObjects(t *testing.T) {
	dir := writeFiles(t, map[string]string{"site.yaml": string(exampleSite(t))})
	other := `- apiVersion: config.openshift.io/v1
  kind: ImageDigestMirrorSet
  metadata:
    name: extra
    annotations:
      config.kubernetes.io/path: extra.yaml
      config.kubernetes.io/index: '0'
  spec:
    imageDigestMirrors:
    - source: registry.redhat.io
      mirrors: [other.example.com/rh]
      mirrorSourcePolicy: AllowContactingSource
`
	lint := "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nfunctionConfig:\n  apiVersion: siteforge.dev/v1alpha1\n  kind: SiteLint\n  metadata: {name: lint}\n  spec:\n    paths: [site.yaml]\n    disable: [MIR001, MIR018]\nitems:\n" + other
	out, stderr, code := run(t, dir, lint)
	if code != exitFindings {
		t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitFindings, stderr)
	}
	found := false
	for _, r := range out.Results {
		if r.Tags["rule"] == "MIR004" && strings.Contains(r.Message, "ImageDigestMirrorSet extra") {
			found = true
		}
	}
	if !found {
		t.Errorf("no MIR004 naming the build's ImageDigestMirrorSet extra; results %+v\n%s", out.Results, stderr)
	}
	// without the conflicting object: no MIR004
	out, stderr, _ = run(t, dir, strings.Replace(lint, other, "", 1)+"  []\n")
	for _, r := range out.Results {
		if r.Tags["rule"] == "MIR004" {
			t.Errorf("MIR004 without the other object: %+v\n%s", r, stderr)
		}
	}
}

func TestBadFunctionConfig(t *testing.T) {
	for name, tc := range map[string]struct{ rl, want string }{
		"no config":     {"apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\n", "no functionConfig"},
		"unknown kind":  {strings.Replace(renderConfig, "kind: SiteRender", "kind: SiteBuild", 1) + "    paths: [x]\n", "want apiVersion siteforge.dev/v1alpha1 and kind SiteRender"},
		"unknown field": {renderConfig + "    path: [x]\n", `unknown field "path"`},
		"no site":       {renderConfig + "    strict: true\n", "spec.paths or spec.site is required"},
		"bad failOn":    {lintList("  spec:\n    failOn: fatal\n"), `spec.failOn: unknown severity "fatal"`},
		"bad rule":      {lintList("  spec:\n    disable: [NOPE001]\n"), `unknown rule "NOPE001"`},
		"missing site":  {renderConfig + "    paths: [nosuch]\n", "nosuch"},
	} {
		t.Run(name, func(t *testing.T) {
			out, stderr, code := run(t, t.TempDir(), tc.rl)
			if code != exitFailure {
				t.Errorf("exit %d, want %d", code, exitFailure)
			}
			if !strings.Contains(stderr, tc.want) {
				t.Errorf("stderr lacks %q:\n%s", tc.want, stderr)
			}
			if len(out.Results) == 0 || out.Results[len(out.Results)-1].Severity != "error" {
				t.Errorf("results = %+v, want an error", out.Results)
			}
		})
	}
}

func TestPathAt(t *testing.T) {
	objs := mustRead(t, idms)
	o := objs[0]
	for _, path := range [][]string{{"spec", "imageDigestMirrors", "0", "mirrors", "0"}, {"metadata", "name"}, {"spec", "imageDigestMirrors", "0", "mirrorSourcePolicy"}} {
		p := o.PosOf(path...)
		got, isKey, ok := pathAt(o.Root(), p.Line, p.Col)
		if !ok || isKey || !reflect.DeepEqual(got, path) {
			t.Errorf("pathAt(PosOf(%v)) = %v, %v, %v", path, got, isKey, ok)
		}
		k := o.KeyPosOf(path...)
		if got, isKey, ok := pathAt(o.Root(), k.Line, k.Col); path[len(path)-1] != "0" && (!ok || !isKey || !reflect.DeepEqual(got, path)) {
			t.Errorf("pathAt(KeyPosOf(%v)) = %v, %v, %v", path, got, isKey, ok)
		}
	}
}

func mustRead(t *testing.T, src string) []*manifests.Object {
	t.Helper()
	objs, d := manifests.ReadBytes("x.yaml", []byte(src))
	if len(d) > 0 || len(objs) == 0 {
		t.Fatalf("read: %v", d)
	}
	return objs
}

// TestPathsConfinedToRoot: spec.paths are read only inside the
// kustomization root, after resolving symbolic links, and a refused path is
// named without its content (before: an absolute or escaping path was read,
// and the error snippets printed its registry auth line).
func TestPathsConfinedToRoot(t *testing.T) {
	outside := t.TempDir()
	secret := `{"auths": {"quay.example.com": {"auth": "c2VjcmV0LXZhbHVl"}}}`
	if err := os.WriteFile(filepath.Join(outside, "config.json"), []byte(secret), 0o600); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(outside, "site"), 0o755)
	os.WriteFile(filepath.Join(outside, "site", "site.yaml"), exampleSite(t), 0o644)
	dir := writeFiles(t, map[string]string{"kustomization.yaml": "generators:\n- render.yaml\n"})
	if err := os.Symlink(outside, filepath.Join(dir, "elsewhere")); err != nil {
		t.Fatal(err)
	}
	// a site folder inside the root whose file links outside it
	os.MkdirAll(filepath.Join(dir, "linked"), 0o755)
	if err := os.Symlink(filepath.Join(outside, "config.json"), filepath.Join(dir, "linked", "site.json")); err != nil {
		t.Fatal(err)
	}
	inner := filepath.Join(dir, "inner")
	os.MkdirAll(inner, 0o755)
	rel, _ := filepath.Rel(inner, filepath.Join(outside, "config.json"))
	for _, tc := range []struct{ path, want string }{
		{filepath.Join(outside, "config.json"), "is an absolute path"},
		{"../" + filepath.Base(outside) + "/config.json", "leaves the kustomization root"},
		{rel, "leaves the kustomization root"},
		{"elsewhere/config.json", "resolves (through a symbolic link) outside the kustomization root"},
		{"elsewhere/site", "resolves (through a symbolic link) outside the kustomization root"},
		{"missing", "missing: no such file or directory"},
		{"linked", "linked/site.json resolves (through a symbolic link) outside the kustomization root"},
	} {
		for _, kind := range []string{"SiteRender", "SiteLint"} {
			rl := strings.Replace(renderConfig, "SiteRender", kind, 1) + "    paths: [" + strconv.Quote(tc.path) + "]\nitems: []\n"
			_, stderr, code := run(t, dir, rl)
			if code != exitFailure || !strings.Contains(stderr, tc.want) {
				t.Errorf("%s %s: exit %d, want 2 and %q:\n%s", kind, tc.path, code, tc.want, stderr)
			}
			if strings.Contains(stderr, "c2VjcmV0") || strings.Contains(stderr, "auths") {
				t.Errorf("%s %s: stderr shows the file's content:\n%s", kind, tc.path, stderr)
			}
		}
	}
}

// TestOriginOutsideRootNotRead: an origin annotation pointing outside the
// root (../../../../dev/zero) is not followed (before: read until memory ran
// out); the finding is named by its object.
func TestOriginOutsideRootNotRead(t *testing.T) {
	rl := strings.Replace(lintList(""), "      config.k8s.io/id: '1'\n",
		"      config.k8s.io/id: '1'\n      config.kubernetes.io/origin: |\n        path: ../../../../dev/zero\n", 1)
	_, stderr, code := run(t, t.TempDir(), rl)
	if code != exitFindings || !strings.Contains(stderr, "CatalogSource openshift-marketplace/p-redhat-operators (kustomize output): error:") {
		t.Errorf("exit %d:\n%s", code, stderr)
	}
	rl = strings.Replace(lintList(""), "      config.k8s.io/id: '1'\n",
		"      config.k8s.io/id: '1'\n      config.kubernetes.io/origin: |\n        path: /etc/passwd\n", 1)
	if _, stderr, code := run(t, t.TempDir(), rl); code != exitFindings || strings.Contains(stderr, "root:") {
		t.Errorf("exit %d:\n%s", code, stderr)
	}
}

// TestResourceListCap: a ResourceList over the limit is refused before it
// is parsed (before: 200 MB was read whole, 1.7 GB of memory).
func TestResourceListCap(t *testing.T) {
	big := renderConfig + "    paths: [x]\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: a}\n  data: {k: \"" + strings.Repeat("v", MaxResourceList) + "\"}\n"
	var stdout, stderr bytes.Buffer
	code := Run(strings.NewReader(big), &stdout, &stderr)
	if code != exitFailure || !strings.Contains(stderr.String(), "larger than the "+strconv.Itoa(MaxResourceList)+"-byte limit") || stdout.Len() != 0 {
		t.Errorf("exit %d, stdout %d bytes:\n%s", code, stdout.Len(), stderr.String())
	}
}

// TestSiteRenderWarningRule: a render warning's result carries its rule ID
// and name (tags rule and name, as SiteLint's findings), also as an error
// under strict; the site's suppression drops it, and an info result counts
// it.
func TestSiteRenderWarningRule(t *testing.T) {
	shipped := string(exampleSite(t))
	unsuppressed, _, found := strings.Cut(shipped, "\nlint:\n  suppress:\n  - rule: MIR021\n")
	if !found {
		t.Fatal("examples/disconnected-quay-cache/site.yaml no longer suppresses MIR021: update the test")
	}
	for _, tc := range []struct {
		name, site, strict string
		severity           string // of the MIR021 result; "" for none
		code               int
	}{
		{"warning", unsuppressed, "false", "warning", 0},
		{"strict", unsuppressed, "true", "error", exitFailure},
		{"suppressed", shipped, "true", "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeFiles(t, map[string]string{"site.yaml": tc.site})
			out, stderr, code := run(t, dir, renderConfig+"    strict: "+tc.strict+"\n    paths: [site.yaml]\nitems: []\n")
			if code != tc.code {
				t.Errorf("exit %d, want %d\n%s", code, tc.code, stderr)
			}
			var got, counted bool
			for _, r := range out.Results {
				if r.Tags["rule"] == "MIR021" {
					got = true
					if r.Severity != tc.severity || r.Tags["name"] != "installer-mirrors-conflict-after-install" || r.File.Path != "site.yaml" {
						t.Errorf("result %+v, want a %s with the rule's name at site.yaml", r, tc.severity)
					}
				}
				if r.Severity == "info" && strings.Contains(r.Message, "1 warning suppressed") {
					counted = true
				}
			}
			if got != (tc.severity != "") || counted != (tc.severity == "") {
				t.Errorf("MIR021 result %v, suppressed count %v; results %+v", got, counted, out.Results)
			}
		})
	}
}

// TestPathsInsideRepository: in a git work tree, a kustomization in
// clusters/<name>/ names its site in sites/<name>/ (the common GitOps
// layout); what resolves outside the work tree (an absolute path, "..", a
// symbolic link) is still refused, and without git the kustomization
// folder is the boundary, as before.
func TestPathsInsideRepository(t *testing.T) {
	// git's discovery from the folder alone (a hook's GIT_DIR would name
	// another work tree)
	t.Setenv("GIT_DIR", "")
	t.Setenv("GIT_WORK_TREE", "")
	site := string(exampleSite(t))
	outside := writeFiles(t, map[string]string{"site/site.yaml": site})
	repo := writeFiles(t, map[string]string{
		"sites/lab/site.yaml":                site,
		"clusters/lab/kustomization.yaml":    "generators:\n- render.yaml\n",
		"clusters/lab/manifests/object.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x, namespace: default}\n",
	})
	if err := os.Symlink(outside, filepath.Join(repo, "sites", "elsewhere")); err != nil {
		t.Fatal(err)
	}
	kdir := filepath.Join(repo, "clusters", "lab")
	rel, _ := filepath.Rel(kdir, filepath.Join(outside, "site"))
	refused := []struct{ path, want string }{
		{filepath.Join(outside, "site"), "is an absolute path"},
		{rel, "leaves the git work tree holding the kustomization"},
		{"../../sites/elsewhere/site", "resolves (through a symbolic link) outside the git work tree"},
	}
	config := func(kind, path string) string {
		return strings.Replace(renderConfig, "SiteRender", kind, 1) + "    paths: [" + strconv.Quote(path) + "]\nitems: []\n"
	}

	// Without git: the kustomization folder is the boundary.
	for _, kind := range []string{"SiteRender", "SiteLint"} {
		if _, stderr, code := run(t, kdir, config(kind, "../../sites/lab")); code != exitFailure || !strings.Contains(stderr, "leaves the kustomization root") {
			t.Errorf("%s outside a git work tree: exit %d, want 2 and \"leaves the kustomization root\":\n%s", kind, code, stderr)
		}
	}

	if err := os.Mkdir(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := run(t, kdir, config("SiteRender", "../../sites/lab"))
	if code != exitOK {
		t.Fatalf("SiteRender ../../sites/lab in a git work tree: exit %d:\n%s", code, stderr)
	}
	var found bool
	for _, it := range out.Items {
		meta := it["metadata"].(map[string]any)
		ann, _ := meta["annotations"].(map[string]any)
		if src := ann[generators.SourceAnnotation]; src != "sites/lab" {
			t.Errorf("%v %v: %s = %v, want sites/lab (from the repository root)", it["kind"], meta["name"], generators.SourceAnnotation, src)
		}
		found = found || meta["name"] == "lab-disconnected-krm-test"
	}
	if !found {
		t.Errorf("the rendered ConfigMap is missing from the items: %v", out.Items)
	}
	if _, stderr, code := run(t, kdir, config("SiteLint", "../../sites/lab")); code != exitOK {
		t.Errorf("SiteLint ../../sites/lab in a git work tree: exit %d:\n%s", code, stderr)
	}
	for _, tc := range refused {
		for _, kind := range []string{"SiteRender", "SiteLint"} {
			_, stderr, code := run(t, kdir, config(kind, tc.path))
			if code != exitFailure || !strings.Contains(stderr, tc.want) {
				t.Errorf("%s %s: exit %d, want 2 and %q:\n%s", kind, tc.path, code, tc.want, stderr)
			}
		}
	}
}

// TestSiteLintBaseInsideRepository: a base outside the kustomization folder
// but inside its git work tree (clusters/<name> using ../../base) is read
// for positions; without git it is not, and the finding names the object.
func TestSiteLintBaseInsideRepository(t *testing.T) {
	t.Setenv("GIT_DIR", "")
	t.Setenv("GIT_WORK_TREE", "")
	repo := writeFiles(t, map[string]string{
		"clusters/lab/kustomization.yaml": "namePrefix: p-\nresources:\n- ../../base\n",
		"base/kustomization.yaml":         "resources:\n- catalog.yaml\n- idms.yaml\n",
		"base/catalog.yaml":               catalogSource,
		"base/idms.yaml":                  idms,
	})
	kdir := filepath.Join(repo, "clusters", "lab")
	rl := lintList("  spec:\n    disable: [MIR002]\n")
	if _, stderr, code := run(t, kdir, rl); code != exitFindings || !strings.Contains(stderr, "CatalogSource openshift-marketplace/p-redhat-operators (kustomize output): error:") {
		t.Errorf("outside a git work tree: exit %d, want 1 and the finding named by its object:\n%s", code, stderr)
	}
	if err := os.Mkdir(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := run(t, kdir, rl)
	if want := "../../base/catalog.yaml:8:10: error: "; code != exitFindings || !strings.Contains(stderr, want) {
		t.Errorf("in a git work tree: exit %d, want 1 and %q:\n%s", code, want, stderr)
	}
}
