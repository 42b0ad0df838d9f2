package e2e

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// root is the repository root; binDir holds the siteforge built from it.
var root, binDir string

func TestMain(m *testing.M) {
	os.Exit(runMain(m))
}

func runMain(m *testing.M) int {
	var err error
	if root, err = filepath.Abs(".."); err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	if binDir, err = os.MkdirTemp("", "siteforge-e2e-bin-"); err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	defer os.RemoveAll(binDir)
	// render's digest cache: a folder of the run, not the user's
	cache, err := os.MkdirTemp("", "siteforge-e2e-cache-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	defer os.RemoveAll(cache)
	os.Setenv("SITEFORGE_CACHE", cache)
	build := exec.Command("go", "build", "-o", filepath.Join(binDir, "siteforge"), "./cmd/siteforge")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "e2e: go build ./cmd/siteforge: %v\n%s", err, out)
		return 1
	}
	os.Setenv("PATH", binDir+string(os.PathListSeparator)+os.Getenv("PATH"))
	return m.Run()
}

// result is a finished command.
type result struct {
	stdout, stderr string
	code           int
}

func (r result) String() string {
	return fmt.Sprintf("exit %d\n--- stdout:\n%s\n--- stderr:\n%s", r.code, r.stdout, r.stderr)
}

// run runs a command in dir; env entries are added to the test's
// environment.
func run(t *testing.T, dir string, env []string, name string, args ...string) result {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	res := result{stdout: stdout.String(), stderr: stderr.String()}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		res.code = ee.ExitCode()
	case err != nil:
		t.Fatalf("%s %s: %v", name, strings.Join(args, " "), err)
	}
	return res
}

// siteforge runs the binary under test.
func siteforge(t *testing.T, dir string, args ...string) result {
	t.Helper()
	return run(t, dir, nil, filepath.Join(binDir, "siteforge"), args...)
}

// kustomize returns the pinned kustomize `make test` installs, or skips
// loudly, naming the test that did not run.
func kustomize(t *testing.T) string {
	t.Helper()
	k := os.Getenv("KUSTOMIZE")
	if k == "" {
		t.Skipf("SKIPPED: KUSTOMIZE is not set, so %s is NOT tested with the real kustomize: run through `make test`, "+
			"which installs the pinned kustomize into ./bin and exports KUSTOMIZE (or set KUSTOMIZE=bin/kustomize-<version>)", t.Name())
	}
	return k
}

// object is one document of a YAML stream.
type object map[string]any

func (o object) kind() string { s, _ := o["kind"].(string); return s }

func (o object) meta(key string) string {
	m, _ := o["metadata"].(map[string]any)
	s, _ := m[key].(string)
	return s
}

func (o object) annotation(key string) string {
	m, _ := o["metadata"].(map[string]any)
	a, _ := m["annotations"].(map[string]any)
	s, _ := a[key].(string)
	return s
}

// withoutAnnotation is a copy of o without one annotation (and without
// metadata.annotations when it was the only one).
func (o object) withoutAnnotation(key string) object {
	c := object{}
	for k, v := range o {
		c[k] = v
	}
	m, _ := o["metadata"].(map[string]any)
	a, _ := m["annotations"].(map[string]any)
	if _, ok := a[key]; !ok {
		return c
	}
	meta := map[string]any{}
	for k, v := range m {
		meta[k] = v
	}
	ann := map[string]any{}
	for k, v := range a {
		if k != key {
			ann[k] = v
		}
	}
	delete(meta, "annotations")
	if len(ann) > 0 {
		meta["annotations"] = ann
	}
	c["metadata"] = meta
	return c
}

// id names an object in messages and maps.
func (o object) id() string {
	return fmt.Sprintf("%v %s %s/%s", o["apiVersion"], o.kind(), o.meta("namespace"), o.meta("name"))
}

// parseStream reads a `---` stream in which every document must be one
// object with apiVersion and kind (what Argo CD and kubectl accept).
func parseStream(t *testing.T, stream string) []object {
	t.Helper()
	dec := yaml.NewDecoder(strings.NewReader(stream))
	var objs []object
	for i := 0; ; i++ {
		var doc any
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("document %d does not parse: %v", i, err)
		}
		if doc == nil {
			t.Errorf("document %d is empty", i)
			continue
		}
		m, ok := doc.(map[string]any)
		if !ok {
			t.Errorf("document %d is a %T, not an object", i, doc)
			continue
		}
		o := object(m)
		if o["apiVersion"] == nil || o.kind() == "" {
			t.Errorf("document %d has no apiVersion or kind: %v", i, m)
		}
		if strings.HasSuffix(o.kind(), "List") {
			t.Errorf("document %d is a %s (Argo CD does not unpack lists)", i, o.kind())
		}
		objs = append(objs, o)
	}
	return objs
}

// byID indexes objects; a duplicate is an error.
func byID(t *testing.T, objs []object) map[string]object {
	t.Helper()
	m := map[string]object{}
	for _, o := range objs {
		if _, dup := m[o.id()]; dup {
			t.Errorf("duplicate object %s", o.id())
		}
		m[o.id()] = o
	}
	return m
}

// writeFiles writes files (slash paths) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// copyTree copies a folder, skipping what skip says.
func copyTree(t *testing.T, src, dst string, skip func(rel string, d fs.DirEntry) bool) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		if rel != "." && skip != nil && skip(filepath.ToSlash(rel), d) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case d.Type().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			return os.WriteFile(target, b, info.Mode().Perm())
		}
		return nil // symlinks and the like: not part of the source
	})
	if err != nil {
		t.Fatal(err)
	}
}

// The MIR001 case: a CatalogSource pulled by tag under a NeverContactSource
// digest-only mirror set (the ImagePullBackOff of disconnected clusters).
const (
	idmsNeverContact = `apiVersion: config.openshift.io/v1
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
	// the image is on line 8, column 10
	catalogByTag = `apiVersion: operators.coreos.com/v1alpha1
kind: CatalogSource
metadata:
  name: redhat-operators
  namespace: openshift-marketplace
spec:
  sourceType: grpc
  image: registry.redhat.io/redhat/redhat-operator-index:v4.16
`
	itmsNeverContact = `apiVersion: config.openshift.io/v1
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
)

// lineOf returns the 1-based line of the first occurrence of s in text.
func lineOf(t *testing.T, text, s string) int {
	t.Helper()
	i := strings.Index(text, s)
	if i < 0 {
		t.Fatalf("%q not found", s)
	}
	return 1 + strings.Count(text[:i], "\n")
}
