package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// jsonSchemaDir holds the documented schema of every --format json output
// (absolute: the tests change folders).
var jsonSchemaDir, _ = filepath.Abs("../../../../docs/json")

// TestJSONOutputsMatchSchemas runs every command that writes JSON, on
// inputs that pass and inputs with problems, and validates what it prints
// against the JSON Schema documented for it (docs/json/<command>.schema.json,
// additional properties refused, so an undocumented field fails too). Every
// documented schema is exercised.
func TestJSONOutputsMatchSchemas(t *testing.T) {
	examples, err := filepath.Abs("../../../../examples")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write(t, dir, map[string]string{
		"old/mc.yaml": machineConfig("/etc/x", "a"),
		"new/mc.yaml": machineConfig("/etc/x", "b"),
		"bad/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n  bad: [\n",
		"typo/s.yaml": "apiVersion: siteforge.dev/v1alpha1\nkind: Site\nname: x\nbogus: 1\n",
		"idms/m.yaml": "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata:\n  name: m\nspec:\n  imageDigestMirrors:\n  - source: registry.example.com/team\n    mirrors: [mirror.example.com/team]\n    mirrorSourcePolicy: NeverContactSource\n",
	})
	quay := filepath.Join(examples, "disconnected-quay-cache")
	cases := []struct {
		schema string
		args   []string
		code   int
	}{
		{"vet", []string{"vet", "--format", "json", quay}, ExitOK},
		{"vet", []string{"vet", "--format", "json", "typo"}, ExitFailure},
		{"mtu", []string{"mtu", "--format", "json", filepath.Join(examples, "aws-local-zones"), quay}, ExitOK},
		{"mirrors-preview", []string{"mirrors", "preview", "--format", "json", quay}, ExitOK},
		{"mirrors-preview", []string{"mirrors", "preview", "--format", "json", "idms"}, ExitOK},
		{"mirrors-resolve", []string{"mirrors", "resolve", "--format", "json", quay, "--image", "registry.redhat.io/ubi9/ubi:latest", "--image", "quay.io/x/y@sha256:" + strings.Repeat("a", 64)}, ExitFindings},
		{"mirrors-resolve", []string{"mirrors", "resolve", "--format", "json", "idms", "--image", "registry.example.com/team/app@sha256:" + strings.Repeat("b", 64)}, ExitOK},
		{"mirrors-resolve", []string{"mirrors", "resolve", "--format", "json", filepath.Join(examples, "remote-quay-in-cluster"), "--image", "registry.redhat.io/ubi9/ubi:9.4"}, ExitOK},
		// a running cluster's state: each pool's file, with its pools and rendered configs
		{"mirrors-preview", []string{"mirrors", "preview", "--format", "json", mustGather(t, "mirrors-pool-paused")}, ExitOK},
		{"mirrors-resolve", []string{"mirrors", "resolve", "--format", "json", mustGather(t, "mirrors-pool-paused"), "--image", "registry.redhat.io/redhat/redhat-operator-index:v4.16"}, ExitOK},
		{"explain", []string{"explain", "--format", "json"}, ExitOK},
		{"explain", []string{"explain", "--format", "json", "MTU001"}, ExitOK},
		{"explain", []string{"explain", "--format", "json", "config"}, ExitOK},
		{"version", []string{"version", "--format", "json"}, ExitOK},
		{"lint", []string{"lint", "--format", "json", quay, "bad"}, ExitFindings},
		{"impact", []string{"impact", "--format", "json", "old", "new"}, ExitOK},
	}
	schemas := map[string]*jsonschema.Schema{}
	used := map[string]bool{}
	for _, c := range cases {
		sch, ok := schemas[c.schema]
		if !ok {
			sch = compileSchema(t, c.schema)
			schemas[c.schema] = sch
		}
		used[c.schema+".schema.json"] = true
		r := mainIn(t, dir, c.args...)
		if r.code != c.code {
			t.Errorf("%v: exit %d, want %d\n%s%s", c.args, r.code, c.code, r.stdout, r.stderr)
			continue
		}
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(r.stdout))
		if err != nil {
			t.Errorf("%v: not JSON: %v\n%s", c.args, err, r.stdout)
			continue
		}
		if err := sch.Validate(doc); err != nil {
			t.Errorf("%v: the output does not match docs/json/%s.schema.json: %v\n%.3000s", c.args, c.schema, err, r.stdout)
		}
	}
	files, err := filepath.Glob(filepath.Join(jsonSchemaDir, "*.schema.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no schemas in %s: %v", jsonSchemaDir, err)
	}
	for _, f := range files {
		if !used[filepath.Base(f)] {
			t.Errorf("%s is exercised by no case", f)
		}
	}
}

// TestJSONSchemasRefuseDrift: a field the schema does not document, or a
// missing one, fails validation (the schemas are strict, so the test above
// can fail).
func TestJSONSchemasRefuseDrift(t *testing.T) {
	sch := compileSchema(t, "version")
	var out bytes.Buffer
	writeVersion(env{stdout: &out}, "json", ReadBuild())
	var m map[string]any
	if err := json.Unmarshal(out.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(m); err != nil {
		t.Fatalf("version: %v", err)
	}
	m["extra"] = true
	if sch.Validate(m) == nil {
		t.Errorf("an undocumented field passes")
	}
	delete(m, "extra")
	delete(m, "version")
	if sch.Validate(m) == nil {
		t.Errorf("a missing field passes")
	}
}

func compileSchema(t *testing.T, name string) *jsonschema.Schema {
	t.Helper()
	path := filepath.Join(jsonSchemaDir, name+".schema.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	url := "https://siteforge.dev/schema/json/" + name + ".schema.json"
	if err := c.AddResource(url, doc); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	sch, err := c.Compile(url)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return sch
}

// TestMirrorsResolveJSONInClusterCache: for a site with an in-cluster cache,
// the JSON gives both resolutions, as the text does: before the cache
// answers (the source only) and once it does (the cache first).
func TestMirrorsResolveJSONInClusterCache(t *testing.T) {
	var stdout, stderr bytes.Buffer
	code := Main([]string{"mirrors", "resolve", "--format", "json", "../../../../examples/remote-quay-in-cluster", "--image", "registry.redhat.io/ubi9/ubi:9.4"}, nil, &stdout, &stderr)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var out mirrorsResolveJSON
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatal(err)
	}
	if len(out.Clusters) != 1 || out.Clusters[0].InClusterCache == "" || len(out.Clusters[0].Images) != 1 {
		t.Fatalf("%s", stdout.String())
	}
	img := out.Clusters[0].Images[0]
	if img.OnceCacheAnswers == nil {
		t.Fatalf("no onceCacheAnswers: %s", stdout.String())
	}
	before, after := img.Endpoints, img.OnceCacheAnswers.Endpoints
	if len(before) == 0 || before[0].Kind != "source" {
		t.Errorf("before the cache answers: %+v, want the source first", before)
	}
	if len(after) < 2 || !strings.HasPrefix(after[0].Location, out.Clusters[0].InClusterCache) || after[len(after)-1].Kind != "source" {
		t.Errorf("once the cache answers: %+v, want the cache first and the source last", after)
	}
}
