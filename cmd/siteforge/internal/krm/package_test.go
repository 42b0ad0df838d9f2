package krm

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	sigsyaml "sigs.k8s.io/yaml"
)

// These tests follow the ResourceList contract of the KRM functions
// specification (kubernetes-sigs/kustomize
// cmd/config/docs/api-conventions/functions-spec.md) as kpt applies it:
// kpt passes every file of the package as items carrying
// internal.config.kubernetes.io/path and index (and the legacy
// config.kubernetes.io/ forms), the function config included, writes the
// output items back to the files those annotations name, and feeds them
// to the next `kpt fn render`. kpt itself cannot be installed here (the
// module proxy refuses github.com/GoogleContainerTools/kpt and
// github.com/kptdev/kpt), so these tests stand in for e2e runs.

// kptRenderConfig is the function config file of a kpt package.
const kptRenderConfig = `apiVersion: siteforge.dev/v1alpha1
kind: SiteRender
metadata:
  name: render
  annotations:
    config.kubernetes.io/local-config: "true"
spec:
  paths: [site]
`

// kptList is the ResourceList kpt passes: the function config (from its
// file, with its path annotation) and the items, as YAML.
func kptList(fcPath, fc string, items ...string) string {
	var b strings.Builder
	b.WriteString("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nfunctionConfig:\n")
	b.WriteString(indent([]byte(fc), 2) + "\nitems:\n")
	b.WriteString(asItem(fc, fcPath, 0))
	for _, it := range items {
		b.WriteString(it)
	}
	return b.String()
}

// asItem is an object as a kpt item read from path (index in the file).
func asItem(obj, path string, index int) string {
	var m map[string]any
	if err := sigsyaml.Unmarshal([]byte(obj), &m); err != nil {
		panic(err)
	}
	if path != "" {
		meta := m["metadata"].(map[string]any)
		ann, _ := meta["annotations"].(map[string]any)
		if ann == nil {
			ann = map[string]any{}
		}
		i := strconv.Itoa(index)
		ann[pathAnnotation], ann[legacyPathAnnotation] = path, path
		ann[indexAnnotation], ann[legacyIndexAnnotation] = i, i
		meta["annotations"] = ann
	}
	b, err := sigsyaml.Marshal(m)
	if err != nil {
		panic(err)
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	for i := range lines {
		if i == 0 {
			lines[i] = "- " + lines[i]
		} else {
			lines[i] = "  " + lines[i]
		}
	}
	return strings.Join(lines, "\n") + "\n"
}

// feedBack turns a function's output items into the next run's input, as
// kpt does: written to the files their annotations name, read back.
func feedBack(t *testing.T, fc string, out output) string {
	t.Helper()
	var items []string
	for _, it := range out.Items {
		b, err := sigsyaml.Marshal(it)
		if err != nil {
			t.Fatal(err)
		}
		items = append(items, asItem(string(b), "", 0))
	}
	return "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nfunctionConfig:\n" +
		indent([]byte(fc), 2) + "\nitems:\n" + strings.Join(items, "")
}

func annotations(it map[string]any) map[string]any {
	meta, _ := it["metadata"].(map[string]any)
	ann, _ := meta["annotations"].(map[string]any)
	return ann
}

func count(items []map[string]any) map[string]int {
	n := map[string]int{}
	for _, it := range items {
		meta := it["metadata"].(map[string]any)
		n[fmt.Sprintf("%v/%v/%v", it["kind"], meta["namespace"], meta["name"])]++
	}
	return n
}

// Three kpt renders leave one copy of every generated object; an object
// of the package that SiteRender did not generate stays; each generated
// object carries the mark and the file annotations kpt writes it by.
func TestSiteRenderIdempotentUnderKpt(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"Kptfile":         "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: pkg\n",
		"siterender.yaml": kptRenderConfig,
		"site/site.yaml":  string(exampleSite(t)),
	})
	own := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: mine\n  namespace: default\n"
	// An object another SiteRender generated (a different function config
	// name) is not this one's to replace.
	other := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: other\n  namespace: default\n  annotations:\n    " +
		GeneratedByAnnotation + ": SiteRender/another\n"
	rl := kptList("siterender.yaml", kptRenderConfig, asItem(own, "mine.yaml", 0), asItem(other, "other/cm.yaml", 0))
	out, stderr, code := run(t, dir, rl)
	if code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	first := count(out.Items)
	generated := 0
	for _, it := range out.Items {
		ann := annotations(it)
		if ann[GeneratedByAnnotation] != "SiteRender/render" {
			continue
		}
		generated++
		p, _ := ann[pathAnnotation].(string)
		if !strings.HasPrefix(p, "lab-disconnected/") || strings.Count(p, "/") != 1 || !strings.HasSuffix(p, ".yaml") {
			t.Errorf("%v %v: %s = %q, want lab-disconnected/<file>.yaml", it["kind"], it["metadata"], pathAnnotation, p)
		}
		if ann[legacyPathAnnotation] != p || ann[indexAnnotation] != "0" || ann[legacyIndexAnnotation] != "0" {
			t.Errorf("%v: file annotations %v, want path %q (both forms) and index 0", it["kind"], ann, p)
		}
	}
	if generated == 0 {
		t.Fatalf("no item carries %s: SiteRender/render", GeneratedByAnnotation)
	}
	paths := map[string]bool{}
	for _, it := range out.Items {
		p, _ := annotations(it)[pathAnnotation].(string)
		if paths[p] && p != "" {
			t.Errorf("two items would be written to %s", p)
		}
		paths[p] = true
	}
	for run3 := 2; run3 <= 3; run3++ {
		out, stderr, code = run(t, dir, feedBack(t, kptRenderConfig, out))
		if code != 0 {
			t.Fatalf("run %d: exit %d; stderr:\n%s", run3, code, stderr)
		}
	}
	for id, n := range count(out.Items) {
		if n != 1 {
			t.Errorf("after three renders %s is there %d times, want once", id, n)
		}
		if first[id] != 1 {
			t.Errorf("after three renders %s is there, but not after the first", id)
		}
	}
	for id := range first {
		if count(out.Items)[id] != 1 {
			t.Errorf("%s is gone after three renders", id)
		}
	}
}

// Under kpt, spec.paths are relative to the folder of the function config
// file (its path annotation), not the working directory.
func TestSiteRenderPathsRelativeToPackage(t *testing.T) {
	example := string(exampleSite(t))
	dir := writeFiles(t, map[string]string{
		"fns/siterender.yaml": kptRenderConfig,
		"fns/site/site.yaml":  example,
	})
	out, stderr, code := run(t, dir, kptList("fns/siterender.yaml", kptRenderConfig))
	if code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", code, stderr)
	}
	for _, it := range out.Items {
		ann := annotations(it)
		if ann[GeneratedByAnnotation] == nil {
			continue
		}
		if p, _ := ann[pathAnnotation].(string); !strings.HasPrefix(p, "fns/lab-disconnected/") {
			t.Errorf("%v: path %q, want under fns/lab-disconnected/ (next to the function config)", it["kind"], p)
		}
	}
	// The same package with no site next to the function config: the
	// working directory's site/ is not read.
	dir = writeFiles(t, map[string]string{
		"fns/siterender.yaml": kptRenderConfig,
		"site/site.yaml":      example,
	})
	_, stderr, code = run(t, dir, kptList("fns/siterender.yaml", kptRenderConfig))
	if code != exitFailure || !strings.Contains(stderr, "fns/site") {
		t.Errorf("exit %d, want %d with an error about fns/site; stderr:\n%s", code, exitFailure, stderr)
	}
}

// kpt run outside the package root: the function config is not where its
// path annotation says, relative to the working directory; the function
// refuses and says where to run kpt.
func TestSiteRenderKptOutsidePackageRoot(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"pkg/siterender.yaml": kptRenderConfig,
		"pkg/site/site.yaml":  string(exampleSite(t)),
		"site/site.yaml":      string(exampleSite(t)),
	})
	out, stderr, code := run(t, dir, kptList("siterender.yaml", kptRenderConfig))
	if code != exitFailure {
		t.Errorf("exit %d, want %d", code, exitFailure)
	}
	if !strings.Contains(stderr, "run `kpt fn render` in the package's root folder") {
		t.Errorf("stderr does not say where to run kpt:\n%s", stderr)
	}
	if len(out.Results) == 0 || out.Results[0].Severity != "error" {
		t.Errorf("results = %+v", out.Results)
	}
	// From the package root it renders.
	_, stderr, code = run(t, dir+"/pkg", kptList("siterender.yaml", kptRenderConfig))
	if code != 0 {
		t.Errorf("exit %d from the package root; stderr:\n%s", code, stderr)
	}
}

// One SiteRender, one cluster: several sites are refused with the reason.
func TestSiteRenderSeveralSites(t *testing.T) {
	second := strings.Replace(string(exampleSite(t)), "name: lab-disconnected", "name: lab-second", 1)
	dir := writeFiles(t, map[string]string{
		"a/site.yaml": string(exampleSite(t)),
		"b/site.yaml": second,
	})
	out, stderr, code := run(t, dir, renderConfig+"    paths: [a, b]\nitems: []\n")
	if code != exitFailure {
		t.Errorf("exit %d, want %d", code, exitFailure)
	}
	for _, want := range []string{"2 sites in one SiteRender", "is one cluster", `named "cluster"`, "its own kustomization"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if len(out.Items) != 0 {
		t.Errorf("a refused render emitted %d items", len(out.Items))
	}
	// One of them alone renders.
	if _, stderr, code = run(t, dir, renderConfig+"    paths: [b]\nitems: []\n"); code != 0 {
		t.Errorf("one site: exit %d; stderr:\n%s", code, stderr)
	}
}

// brokenInline is a function config file with an invalid inline site, and
// the line and column of the error in that file.
func brokenInline(t *testing.T) (string, int, int) {
	broken := strings.Replace(string(exampleSite(t)), "uplinkMTU: 1500", "uplinkMtu: 1500", 1)
	file := "# the site, inline\n" + strings.Replace(kptRenderConfig, "  paths: [site]\n", "  site:\n"+indent([]byte(broken), 4)+"\n", 1)
	line := 1 + strings.Count(file[:strings.Index(file, "uplinkMtu")], "\n")
	return file, line, 9 // indented by 4 in the file, at column 5 in the site
}

// An invalid inline site under kpt: the error is at the function config
// file (its path annotation) and the line in it.
func TestSiteRenderInlineErrorAtConfigFileKpt(t *testing.T) {
	file, line, col := brokenInline(t)
	dir := writeFiles(t, map[string]string{"render.yaml": file})
	out, stderr, code := run(t, dir, kptList("render.yaml", file))
	if code != exitFailure {
		t.Errorf("exit %d, want %d", code, exitFailure)
	}
	want := fmt.Sprintf("render.yaml:%d:%d: error: pools.master: field \"uplinkMtu\" is not allowed", line, col)
	if !strings.Contains(stderr, want) {
		t.Errorf("stderr lacks %q:\n%s", want, stderr)
	}
	if len(out.Results) == 0 || out.Results[0].File.Path != "render.yaml" || out.Results[0].Tags["line"] != strconv.Itoa(line) {
		t.Errorf("results = %+v, want render.yaml line %d", out.Results, line)
	}
}

// Under kustomize (no path annotation) the file is the kustomization's
// generators: entry holding this function config.
func TestSiteRenderInlineErrorAtConfigFileKustomize(t *testing.T) {
	file, line, col := brokenInline(t)
	dir := writeFiles(t, map[string]string{
		"kustomization.yaml": "generators:\n- other.yaml\n- render.yaml\n",
		"other.yaml":         strings.Replace(kptRenderConfig, "name: render", "name: other", 1),
		"render.yaml":        file,
	})
	_, stderr, code := run(t, dir, kptList("", file))
	if code != exitFailure {
		t.Errorf("exit %d, want %d", code, exitFailure)
	}
	want := fmt.Sprintf("render.yaml:%d:%d: error:", line, col)
	if !strings.Contains(stderr, want) {
		t.Errorf("stderr lacks %q:\n%s", want, stderr)
	}
	// The snippet shows the user's line.
	if !strings.Contains(stderr, strconv.Itoa(line)+" |         uplinkMtu: 1500") {
		t.Errorf("the snippet is not the file's line %d:\n%s", line, stderr)
	}
}

// SiteLint results name the file and index kpt passed for the item.
func TestSiteLintResultFileFromAnnotations(t *testing.T) {
	lintFC := "apiVersion: siteforge.dev/v1alpha1\nkind: SiteLint\nmetadata:\n  name: lint\n  annotations:\n    config.kubernetes.io/local-config: \"true\"\n"
	first := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: first\n  namespace: default\n"
	dir := writeFiles(t, map[string]string{
		"lint.yaml":          lintFC,
		"catalogs/all.yaml":  first + "---\n" + catalogSource,
		"catalogs/idms.yaml": idms,
	})
	rl := kptList("lint.yaml", lintFC,
		asItem(first, "catalogs/all.yaml", 0),
		asItem(catalogSource, "catalogs/all.yaml", 1),
		asItem(idms, "catalogs/idms.yaml", 0))
	out, stderr, code := run(t, dir, rl)
	if code != exitFindings {
		t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitFindings, stderr)
	}
	var found bool
	for _, r := range out.Results {
		if r.Tags["rule"] != "MIR001" {
			continue
		}
		found = true
		if r.File.Path != "catalogs/all.yaml" || r.File.Index != 1 {
			t.Errorf("MIR001 result file = %+v, want catalogs/all.yaml index 1", r.File)
		}
		wantLine := 1 + strings.Count(first+"---\n"+catalogSource[:strings.Index(catalogSource, "image:")], "\n")
		if r.Tags["line"] != strconv.Itoa(wantLine) {
			t.Errorf("MIR001 line = %s, want %d (the image line in catalogs/all.yaml)", r.Tags["line"], wantLine)
		}
	}
	if !found {
		t.Fatalf("no MIR001 result: %+v", out.Results)
	}
	// Without path annotations (kustomize) and no kustomization to find the
	// object in, the result names the object, as before.
	out, _, _ = run(t, t.TempDir(), kptList("", lintFC, asItem(catalogSource, "", 0), asItem(idms, "", 0)))
	for _, r := range out.Results {
		if r.Tags["rule"] == "MIR001" && !strings.Contains(r.File.Path, "(kustomize output)") {
			t.Errorf("MIR001 result file = %+v, want the object named", r.File)
		}
	}
}
