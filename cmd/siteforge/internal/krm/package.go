package krm

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"
	"sigs.k8s.io/kustomize/kyaml/kio/kioutil"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/siteforge/siteforge/internal/fsread"
	"github.com/siteforge/siteforge/internal/manifests"
)

// The file annotations of the KRM functions specification
// (kubernetes-sigs/kustomize cmd/config/docs/api-conventions/functions-spec.md,
// "config.kubernetes.io/path", "config.kubernetes.io/index"; kyaml
// kio/kioutil: PathAnnotation, IndexAnnotation and their Legacy forms). kpt
// reads and writes package files through them: an item with a path is
// written to that file (relative to the package), at that index in it.
// kustomize strips them from its output.
const (
	pathAnnotation        = string(kioutil.PathAnnotation)        // internal.config.kubernetes.io/path
	indexAnnotation       = string(kioutil.IndexAnnotation)       // internal.config.kubernetes.io/index
	legacyPathAnnotation  = string(kioutil.LegacyPathAnnotation)  // config.kubernetes.io/path
	legacyIndexAnnotation = string(kioutil.LegacyIndexAnnotation) // config.kubernetes.io/index
)

// GeneratedByAnnotation marks every object SiteRender emits with the
// function that generated it ("SiteRender/<metadata.name>"). kpt writes a
// generator's output back into the package and hands it to the next
// `kpt fn render` as input; SiteRender drops the items carrying its own
// mark before adding the fresh render, so repeated renders leave one copy
// of each object and objects the site no longer renders disappear.
const GeneratedByAnnotation = "siteforge.dev/generated-by"

// fileOf returns the path and index annotations of an item, as the tool
// running the function set them (the internal form first, then the legacy
// one, as kyaml kioutil.GetFileAnnotations reads them); path is empty
// when the item has none (kustomize passes none).
func fileOf(n *kyaml.RNode) (p string, index int, ok bool) {
	ann := n.GetAnnotations()
	p = ann[pathAnnotation]
	if p == "" {
		p = ann[legacyPathAnnotation]
	}
	if p == "" {
		return "", 0, false
	}
	i := ann[indexAnnotation]
	if i == "" {
		i = ann[legacyIndexAnnotation]
	}
	index, _ = strconv.Atoi(i)
	return p, index, true
}

// configFile finds the function config among the items (kpt passes every
// file of the package, the function config's own included, with its path
// annotation) and returns its path, relative to the package.
func configFile(items []*kyaml.RNode, fc *kyaml.RNode) (string, bool) {
	for _, n := range items {
		if n.GetApiVersion() != fc.GetApiVersion() || n.GetKind() != fc.GetKind() ||
			n.GetName() != fc.GetName() || n.GetNamespace() != fc.GetNamespace() {
			continue
		}
		if p, _, ok := fileOf(n); ok {
			return filepath.FromSlash(p), true
		}
	}
	return "", false
}

// packageRoot is the directory spec.paths resolve against, relative to the
// working directory: the directory of the function config file when the
// tool says where it is (kpt: its path annotation, relative to the
// package), else the working directory (kustomize runs exec functions in
// the kustomization folder: kubernetes-sigs/kustomize
// api/internal/target/kusttarget.go passes LoaderWithWorkingDir(ldr.Root())
// and kyaml fn/runtime/exec Filter.Run sets cmd.Dir to it).
//
// kpt runs exec functions in its own working directory (kptdev/kpt
// internal/fnruntime/exec.go ExecFn.Run sets no cmd.Dir) while its path
// annotations are relative to the package: the function can only find the
// package when kpt runs in the package's root folder. It checks that the
// function config file is where the annotation says, and otherwise refuses
// with a message saying where to run kpt, instead of reading the wrong
// files.
func packageRoot(r *reporter) (string, bool) {
	p, ok := configFile(r.rl.Items, r.rl.FunctionConfig)
	if !ok {
		return ".", true
	}
	var oe *fsread.OutsideError
	if _, err := fsread.Confine(".", p); errors.As(err, &oe) {
		r.failure("the function config's path annotation %q leads outside the working directory: run kpt fn render in the package's root folder", p)
		return "", false
	}
	if !holdsObject(p, r.rl.FunctionConfig) {
		r.failure("the function config is %s in its package (its %s annotation), but the working directory has no such file holding %s %s: kpt runs exec functions in its own working directory and spec.paths are relative to the package, so run `kpt fn render` in the package's root folder (cd into it, then `kpt fn render --allow-exec`)",
			p, pathAnnotation, r.rl.FunctionConfig.GetKind(), r.rl.FunctionConfig.GetName())
		return "", false
	}
	return filepath.Dir(p), true
}

// holdsObject reports whether file holds an object with n's identity.
func holdsObject(file string, n *kyaml.RNode) bool {
	objs, d := manifests.ReadFile(file)
	if len(d) > 0 {
		return false
	}
	for _, o := range objs {
		if o.APIVersion == n.GetApiVersion() && o.Kind == n.GetKind() && o.Name == n.GetName() {
			return true
		}
	}
	return false
}

// inlineSource locates the inline spec.site in the user's file: the
// function config file (kpt: its path annotation; kustomize: the local file
// of the kustomization's generators:, transformers: or validators: holding
// this function config) and returns the file name with a copy of the file
// in which every byte outside spec.site is blank, so positions in the site
// are the file's own lines and columns, and the file itself (for snippets).
// ok is false when no file holds it (a container function, a function
// config from stdin).
func inlineSource(r *reporter, root string) (name string, data, file []byte, ok bool) {
	fc := r.rl.FunctionConfig
	var candidates []string
	if p, found := configFile(r.rl.Items, fc); found {
		candidates = []string{p}
	} else {
		candidates = kustomizationConfigFiles(root)
	}
	for _, c := range candidates {
		if _, err := fsread.Confine(".", c); err != nil {
			continue
		}
		src, err := fsread.File(c, manifests.MaxFileSize)
		if err != nil {
			continue
		}
		if blanked, found := siteIn(src, fc); found {
			return filepath.ToSlash(c), blanked, src, true
		}
	}
	return "", nil, nil, false
}

// kustomizationConfigFiles lists the local files the kustomization in dir
// names under generators:, transformers: and validators:.
func kustomizationConfigFiles(dir string) []string {
	for _, name := range kustomizationNames {
		p := filepath.Join(dir, name)
		data, err := fsread.File(p, manifests.MaxFileSize)
		if err != nil {
			continue
		}
		var k struct {
			Generators   []string `yaml:"generators"`
			Transformers []string `yaml:"transformers"`
			Validators   []string `yaml:"validators"`
		}
		if yaml.Unmarshal(data, &k) != nil {
			return nil
		}
		var files []string
		for _, f := range append(append(k.Generators, k.Transformers...), k.Validators...) {
			if strings.Contains(f, "\n") || strings.Contains(f, "://") {
				continue // an inline function config, or remote
			}
			files = append(files, filepath.Join(dir, f))
		}
		return files
	}
	return nil
}

// siteIn finds the document of src that is the function config fc and
// returns src with everything outside its spec.site value blanked
// (newlines kept), or false.
func siteIn(src []byte, fc *kyaml.RNode) ([]byte, bool) {
	dec := yaml.NewDecoder(bytes.NewReader(src))
	for {
		var doc yaml.Node
		if err := dec.Decode(&doc); err != nil {
			return nil, false
		}
		if len(doc.Content) == 0 {
			continue
		}
		root := doc.Content[0]
		if str(root, "apiVersion") != fc.GetApiVersion() || str(root, "kind") != fc.GetKind() ||
			str(value(root, "metadata"), "name") != fc.GetName() {
			continue
		}
		key, site := keyValue(value(root, "spec"), "site")
		if site == nil {
			return nil, false
		}
		return blankOutside(src, site, key), true
	}
}

// blankOutside keeps the bytes of the value node v (from its first
// character to the line before the next thing at the indentation of its
// key, or the end of the document) and blanks the rest.
func blankOutside(src []byte, v, key *yaml.Node) []byte {
	lines := bytes.SplitAfter(src, []byte("\n"))
	out := make([]byte, 0, len(src))
	inside := false
	for i, l := range lines {
		ln := i + 1
		switch {
		case ln == v.Line:
			inside = true
			l = append(bytes.Repeat([]byte(" "), v.Column-1), l[min(v.Column-1, len(l)):]...)
		case inside && ln > v.Line:
			t := bytes.TrimLeft(l, " ")
			blank := len(bytes.TrimSpace(t)) == 0 || t[0] == '#'
			if bytes.HasPrefix(l, []byte("---")) || bytes.HasPrefix(l, []byte("...")) ||
				(!blank && len(l)-len(t) <= key.Column-1) {
				inside = false
			}
		}
		if !inside {
			nl := bytes.HasSuffix(l, []byte("\n"))
			l = nil
			if nl {
				l = []byte("\n")
			}
		}
		out = append(out, l...)
	}
	return out
}

func keyValue(m *yaml.Node, key string) (*yaml.Node, *yaml.Node) {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i], m.Content[i+1]
		}
	}
	return nil, nil
}

func value(m *yaml.Node, key string) *yaml.Node {
	_, v := keyValue(m, key)
	return v
}

func str(m *yaml.Node, key string) string {
	if v := value(m, key); v != nil && v.Kind == yaml.ScalarNode {
		return v.Value
	}
	return ""
}

// generatedPath is the file kpt writes a generated object to: a folder
// named after the site, next to the function config, and the object's file
// name in the render output (one object per file).
func generatedPath(root, siteName, file string) string {
	return path.Join(filepath.ToSlash(root), siteName, path.Base(file))
}

// mark sets the generated-by mark and the file annotations on an object
// SiteRender emits.
func mark(n *kyaml.RNode, by, file string) error {
	for k, v := range map[string]string{
		GeneratedByAnnotation: by,
		pathAnnotation:        file,
		legacyPathAnnotation:  file,
		indexAnnotation:       "0",
		legacyIndexAnnotation: "0",
	} {
		if err := n.PipeE(kyaml.SetAnnotation(k, v)); err != nil {
			return err
		}
	}
	return nil
}

// dropGenerated removes the items an earlier run of the same SiteRender
// generated (kpt feeds a generator's output back to it).
func dropGenerated(items []*kyaml.RNode, by string) []*kyaml.RNode {
	kept := items[:0:0]
	for _, n := range items {
		if n.GetAnnotations()[GeneratedByAnnotation] != by {
			kept = append(kept, n)
		}
	}
	return kept
}

// describeFile names an item's file for stderr: path, and the index when
// the file holds several objects.
func describeFile(p string, index int) string {
	if index == 0 {
		return p
	}
	return fmt.Sprintf("%s (object %d)", p, index)
}
