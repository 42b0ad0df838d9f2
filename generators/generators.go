// Package generators is siteforge's render framework: a registry of
// generators, each turning a Site into Artifacts (files with their origin in
// the user's input). Render is pure: it reads and writes nothing.
//
// Generator packages (generators/mirroring, generators/machineconfigs, ...)
// register themselves in init; generators/all imports every one of them.
package generators

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/jsonval"
	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/site"
)

// SourceAnnotation marks every rendered object with the input it came from,
// so pipelines can check that render really ran.
const SourceAnnotation = manifests.SourceAnnotation

// Role says where an artifact goes.
type Role int

const (
	// Resource is a Kubernetes object the cluster should have: listed in
	// kustomization.yaml and written to the --stdout stream.
	Resource Role = iota
	// File is anything else: Butane sources, registries.conf previews,
	// patches to apply by hand, runbooks, install-time configuration.
	File
	// Day0 is a manifest only the installation applies (the operator
	// Network config with the planned MTU): Path is its file name alone,
	// Object (encoded as a Resource) or Data (with Comment, as a File) its
	// content. Render keeps it in Output.Day0, next to the copies of the
	// day-2 resources the installation applies as well
	// (platform.Day0Kinds); a finisher places them where the site's
	// installer reads them. Never in kustomization.yaml.
	Day0
)

// Artifact is one output file of a site.
type Artifact struct {
	// Path is slash-separated, relative to the site's output folder,
	// grouped by kind: "mirroring/imagedigestmirrorset-cache.yaml".
	Path string
	Role Role
	// Object is the Kubernetes object of a Resource (an openshift/api typed
	// struct, or map[string]any); Render encodes it.
	Object any
	// Data is the content of a File. Render adds the header comment where
	// the format has comments (see Comment).
	Data []byte
	// Comment is the line-comment prefix of a File's format ("#", "//"), or
	// "" for formats without comments (JSON).
	Comment string
	// Origin is where in the user's input the artifact comes from.
	Origin []diag.Position
	// Generator is filled in by Render.
	Generator string
}

// Generator turns a site into artifacts.
type Generator struct {
	// Name is stable: it appears in every file header.
	Name string
	// Generate returns the site's artifacts. Problems in the user's input
	// are returned as diag.List (with positions); warnings go to
	// ctx.Warn.
	Generate func(ctx *Context, s *site.Site) ([]Artifact, error)
}

var registry = map[string]Generator{}

// Finisher runs after every generator on the rendered output: it turns the
// day-0 manifests (Output.Day0) and the day-2 resources into the inputs of
// the site's installer (install-config.yaml, a hub's ClusterInstance). It
// adds artifacts; it never changes what generators wrote.
type Finisher struct {
	Name   string
	Finish func(ctx *Context, s *site.Site, out *Output) ([]Artifact, error)
}

var finishers = map[string]Finisher{}

// RegisterFinisher adds a finisher; names are unique among generators and
// finishers (they name the files they write in headers).
func RegisterFinisher(f Finisher) {
	if _, dup := finishers[f.Name]; dup {
		panic("generators: duplicate finisher " + f.Name)
	}
	if _, dup := registry[f.Name]; dup {
		panic("generators: finisher named as a generator: " + f.Name)
	}
	finishers[f.Name] = f
}

// Register adds a generator; names are unique.
func Register(g Generator) {
	if _, dup := registry[g.Name]; dup {
		panic("generators: duplicate generator " + g.Name)
	}
	registry[g.Name] = g
}

// Names lists the registered generators in order.
func Names() []string {
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Get returns a registered generator by name.
func Get(name string) (Generator, bool) {
	g, ok := registry[name]
	return g, ok
}

// Options tune a render.
type Options struct {
	// Strict turns warnings into errors.
	Strict bool
}

// Context is what a generator may use besides the site.
type Context struct {
	Options Options
	// Minor is the site's OpenShift minor (cluster.version), parsed once
	// per render.
	Minor    platform.OCPMinor
	warnings diag.List
}

// NewContext is the context of a render of s: its minor parsed once (a
// positioned diagnostic when cluster.version does not parse).
func NewContext(s *site.Site, opts Options) (*Context, error) {
	minor, err := s.Minor()
	if err != nil {
		return nil, err
	}
	return &Context{Options: opts, Minor: minor}, nil
}

// Warn records a warning under its rule ID (internal/ruleid; lint registers
// the rule's text): shown with the ID, an error under --strict, and dropped
// by a suppression of the ID in the site. A warning without an ID panics:
// it could be neither explained nor suppressed.
func (c *Context) Warn(rule string, d diag.Diagnostic) {
	if rule == "" {
		panic("generators: a warning without a rule ID: " + d.Message)
	}
	d.Rule = rule
	c.warnings = append(c.warnings, d)
}

// Output is a rendered site.
type Output struct {
	Site *site.Site
	// Files maps a path to its final bytes, header included.
	Files map[string][]byte
	// Resources lists the Resource paths, sorted (kustomization order).
	Resources []string
	// Origins maps a path to the user positions it comes from.
	Origins map[string][]diag.Position
	// Warnings are the render warnings the site does not suppress, each
	// with its rule ID (diag.Diagnostic.Rule).
	Warnings diag.List
	// Suppressed are the render warnings a suppression in the site drops
	// (lint: suppress, or a field's @lint(ignore=...) with a reason): not
	// shown and not errors under --strict. Lint takes them with Warnings
	// (AllWarnings) and applies the same suppressions, so it counts them
	// and an unused suppression is still reported.
	Suppressed diag.List
	// Day0 are the manifests the installation applies, by file name: the
	// Day0 artifacts and a copy of every day-2 resource of a kind in
	// platform.Day0Kinds (the same bytes, so an object applied at install
	// and again on day 2 is one object). Empty unless cluster.lifecycle is
	// "install". Finishers place them; they are not in Files.
	Day0 map[string]Day0Manifest
	// day0Resources are the Resources of a day-0 kind.
	day0Resources []string
	// encoded keeps, per Resource path, the JSON map its file encodes, for
	// Objects (lint) to decode without reading the YAML back as JSON.
	encoded map[string]encoded
}

// encoded is a Resource's file as add made it and the map it encodes.
type encoded struct {
	data []byte
	obj  map[string]any
	// oneLine: data is a header of one comment line (commentLine) and
	// the encoding of obj, as manifests.ReadRendered takes it.
	oneLine bool
}

// Day0Manifest is one manifest the installation applies.
type Day0Manifest struct {
	// Data is the file, header included.
	Data   []byte
	Origin []diag.Position
	// Resource is the day-2 resource path it copies, "" for a Day0 artifact.
	Resource string
}

// Day0Names lists the day-0 manifest names, sorted.
func (o *Output) Day0Names() []string {
	names := make([]string, 0, len(o.Day0))
	for n := range o.Day0 {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Render runs every generator on a site. A problem in the input is returned
// as a diag.List error.
func Render(s *site.Site, opts Options) (*Output, error) {
	ctx, err := NewContext(s, opts)
	if err != nil {
		return nil, err
	}
	out := &Output{Site: s, Files: map[string][]byte{}, Origins: map[string][]diag.Position{}}
	var diags diag.List
	for _, name := range Names() {
		arts, err := registry[name].Generate(ctx, s)
		if err != nil {
			if dl, ok := err.(diag.List); ok {
				diags = append(diags, dl...)
				continue
			}
			return nil, fmt.Errorf("generator %s: %w", name, err)
		}
		for _, a := range arts {
			a.Generator = name
			if err := out.add(a); err != nil {
				return nil, fmt.Errorf("generator %s: %w", name, err)
			}
		}
	}
	if len(diags) == 0 {
		if err := out.collectDay0(); err != nil {
			return nil, err
		}
		for _, name := range finisherNames() {
			arts, err := finishers[name].Finish(ctx, s, out)
			if err != nil {
				if dl, ok := err.(diag.List); ok {
					diags = append(diags, dl...)
					continue
				}
				return nil, fmt.Errorf("finisher %s: %w", name, err)
			}
			for _, a := range arts {
				a.Generator = name
				if a.Role == Day0 {
					return nil, fmt.Errorf("finisher %s: day-0 artifact %s: finishers place day-0 manifests, they do not add them", name, a.Path)
				}
				if err := out.add(a); err != nil {
					return nil, fmt.Errorf("finisher %s: %w", name, err)
				}
			}
		}
	}
	out.Warnings, out.Suppressed = suppress(s, ctx.warnings.Sort())
	if opts.Strict && len(out.Warnings) > 0 {
		diags = append(diags, out.Warnings...)
	}
	if len(diags) > 0 {
		return nil, diags.Sort()
	}
	sort.Strings(out.Resources)
	// Every site folder is a buildable unit, also one whose outputs are
	// only patches, runbooks or installer inputs: `kustomize build` of it
	// works (and builds nothing), and Argo CD, which takes a folder with a
	// kustomization.yaml as a Kustomize application (docs "Tool
	// Detection"), applies the listed resources only, never a patch file.
	out.Files[KustomizationFile] = Kustomization(out.Resources)
	return out, nil
}

// AllWarnings are the render warnings, suppressed or not, sorted: what lint
// reports (it applies the site's suppressions itself).
func (o *Output) AllWarnings() diag.List {
	return append(append(diag.List(nil), o.Warnings...), o.Suppressed...).Sort()
}

// suppress splits warnings into those the site keeps and those a
// suppression with a reason drops: lint.suppress names the rule for the
// whole site; a field's @lint(ignore=...) for the warnings at that field or
// under it (its path, or a position of a field under it), as lint matches
// findings.
func suppress(s *site.Site, warnings diag.List) (kept, dropped diag.List) {
	var whole []string
	if s.Lint != nil {
		for _, sup := range s.Lint.Suppress {
			if strings.TrimSpace(sup.Reason) != "" {
				whole = append(whole, sup.Rule)
			}
		}
	}
	at := map[int]map[diag.Position]bool{}
	for _, w := range warnings {
		hit := slices.Contains(whole, w.Rule)
		for i, fs := range s.FieldSuppressions {
			if hit || fs.Rule != w.Rule || strings.TrimSpace(fs.Reason) == "" {
				continue
			}
			if at[i] == nil {
				at[i] = map[diag.Position]bool{}
				for path, pos := range s.Positions {
					if fs.Under(path) {
						at[i][pos] = true
					}
				}
			}
			hit = w.Path != "" && fs.Under(w.Path) || at[i][w.Pos]
		}
		if hit {
			dropped = append(dropped, w)
		} else {
			kept = append(kept, w)
		}
	}
	return kept, dropped
}

// KustomizationFile lists a site's resources, so `kustomize build DIR/<site>`
// works.
const KustomizationFile = "kustomization.yaml"

func finisherNames() []string {
	names := make([]string, 0, len(finishers))
	for n := range finishers {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// collectDay0 adds to the Day0 artifacts a copy of every day-2 resource of
// a day-0 kind, for a site still to be installed.
func (o *Output) collectDay0() error {
	if o.Site.Cluster.Lifecycle != site.LifecycleInstall {
		if len(o.Day0) > 0 {
			return fmt.Errorf("day-0 manifests %v for a site with lifecycle %q", o.Day0Names(), o.Site.Cluster.Lifecycle)
		}
		return nil
	}
	for _, p := range o.day0Resources {
		name := path.Base(p)
		if prev, dup := o.Day0[name]; dup {
			return fmt.Errorf("two day-0 manifests named %s (%s and %s)", name, prev.Resource, p)
		}
		if o.Day0 == nil {
			o.Day0 = map[string]Day0Manifest{}
		}
		o.Day0[name] = Day0Manifest{Data: o.Files[p], Origin: o.Origins[p], Resource: p}
	}
	return nil
}

func (o *Output) add(a Artifact) error {
	if a.Role == Day0 {
		return o.addDay0(a)
	}
	p := path.Clean(a.Path)
	if p != a.Path || p == "." || strings.HasPrefix(p, "../") || strings.HasPrefix(p, "/") || p == KustomizationFile {
		return fmt.Errorf("invalid artifact path %q", a.Path)
	}
	if _, dup := o.Files[p]; dup {
		return fmt.Errorf("two artifacts write %s", p)
	}
	var data []byte
	switch a.Role {
	case Resource:
		b, gvk, m, err := encodeObject(a.Object, o.Site.SourceName())
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		h := header("#", a.Generator, o.Site.SourceName())
		data = append(h, b...)
		if o.encoded == nil {
			o.encoded = map[string]encoded{}
		}
		o.encoded[p] = encoded{data: data, obj: m, oneLine: commentLine(h)}
		o.Resources = append(o.Resources, p)
		if platform.Day0Kind(gvk[0], gvk[1]) {
			o.day0Resources = append(o.day0Resources, p)
		}
	case File:
		data = a.Data
		if a.Comment != "" {
			data = append(header(a.Comment, a.Generator, o.Site.SourceName()), data...)
		}
	}
	o.Files[p] = data
	o.Origins[p] = a.Origin
	return nil
}

func (o *Output) addDay0(a Artifact) error {
	if a.Path == "" || strings.ContainsAny(a.Path, "/\\") || a.Path == "." || a.Path == ".." {
		return fmt.Errorf("invalid day-0 manifest name %q (a file name alone)", a.Path)
	}
	if _, dup := o.Day0[a.Path]; dup {
		return fmt.Errorf("two day-0 manifests named %s", a.Path)
	}
	var data []byte
	if a.Object != nil {
		b, err := EncodeObject(a.Object, o.Site.SourceName())
		if err != nil {
			return fmt.Errorf("%s: %w", a.Path, err)
		}
		data = append(header("#", a.Generator, o.Site.SourceName()), b...)
	} else {
		data = a.Data
		if a.Comment != "" {
			data = append(header(a.Comment, a.Generator, o.Site.SourceName()), data...)
		}
	}
	if o.Day0 == nil {
		o.Day0 = map[string]Day0Manifest{}
	}
	o.Day0[a.Path] = Day0Manifest{Data: data, Origin: a.Origin}
	return nil
}

// CommentLineWidth is where CommentBlock wraps.
const CommentLineWidth = 100

// CommentBlock wraps text into "# " comment lines of at most
// CommentLineWidth characters (a longer word stays whole), for the headers
// generators write above YAML and TOML files.
func CommentBlock(text string) string {
	var b strings.Builder
	b.Grow(len(text) + len(text)/CommentLineWidth*3 + 4)
	b.WriteByte('#')
	line := 1 // the current line's length
	for _, word := range strings.Fields(text) {
		if line+1+len(word) > CommentLineWidth && line > 1 {
			b.WriteString("\n#")
			line = 1
		}
		b.WriteByte(' ')
		b.WriteString(word)
		line += 1 + len(word)
	}
	b.WriteByte('\n')
	return b.String()
}

func header(comment, generator, source string) []byte {
	return []byte(fmt.Sprintf("%s Generated by siteforge (generator %s) from %s. Do not edit: change the site and render again.\n", comment, generator, source))
}

// commentLine reports whether h (a header) is one YAML comment line: text
// that breaks no line (no CR or LF before its final LF, nor the NEL, LS and
// PS that go.yaml.in/yaml/v3 also reads as line breaks) and holds no
// character YAML refuses (controls but tab, a BOM, U+FFFE, U+FFFF). A
// source name could break the line: then what follows reads as YAML.
func commentLine(h []byte) bool {
	s, ok := strings.CutSuffix(string(h), "\n")
	if !ok || !strings.HasPrefix(s, "#") || !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if r < 0x20 && r != '\t' || r >= 0x7f && r < 0xa0 || r == '\u2028' || r == '\u2029' || r == '\ufeff' || r == 0xfffe || r == 0xffff {
			return false
		}
	}
	return true
}

// EncodeObject encodes a Kubernetes object as YAML with sorted keys, without
// the empty fields typed structs carry (creationTimestamp: null, status: {}),
// and with the source annotation.
func EncodeObject(obj any, source string) ([]byte, error) {
	b, _, _, err := encodeObject(obj, source)
	return b, err
}

// encodeObject is EncodeObject, also returning the object's apiVersion and
// kind, and the JSON map it encoded (its own: nothing else holds it).
func encodeObject(obj any, source string) ([]byte, [2]string, map[string]any, error) {
	m, err := ToMap(obj)
	if err != nil {
		return nil, [2]string{}, nil, err
	}
	gvk := [2]string{fmt.Sprint(m["apiVersion"]), fmt.Sprint(m["kind"])}
	meta, _ := m["metadata"].(map[string]any)
	if meta == nil {
		return nil, gvk, nil, fmt.Errorf("object has no metadata")
	}
	delete(meta, "creationTimestamp")
	ann, _ := meta["annotations"].(map[string]any)
	if ann == nil {
		ann = map[string]any{}
	}
	ann[SourceAnnotation] = source
	meta["annotations"] = ann
	if st, ok := m["status"].(map[string]any); ok && len(st) == 0 {
		delete(m, "status")
	}
	b, err := marshalYAML(m)
	return b, gvk, m, err
}

// ToMap converts an object (typed or a map) to a fresh JSON map.
func ToMap(obj any) (map[string]any, error) {
	if m, ok := obj.(map[string]any); ok && m != nil && copyable(m) {
		// already what the round trip would give: copy it
		return jsonval.Copy(m).(map[string]any), nil
	}
	b, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	return m, nil
}

// Kustomization returns a kustomization.yaml listing resources.
func Kustomization(resources []string) []byte {
	var b bytes.Buffer
	b.WriteString("# Generated by siteforge. Do not edit: change the site and render again.\n")
	b.WriteString("apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n")
	if len(resources) == 0 {
		b.WriteString("# This site renders no day-2 resources: see the other files of this folder.\nresources: []\n")
		return b.Bytes()
	}
	b.WriteString("resources:\n")
	for _, r := range resources {
		fmt.Fprintf(&b, "- %s\n", r)
	}
	return b.Bytes()
}

// Stream returns the site's resources as one YAML stream ("---" separated,
// never a List), in kustomization order.
func (o *Output) Stream() []byte {
	var b bytes.Buffer
	for _, p := range o.Resources {
		b.WriteString("---\n")
		b.Write(o.Files[p])
	}
	return b.Bytes()
}

// Paths lists every file of the output, sorted.
func (o *Output) Paths() []string {
	paths := make([]string, 0, len(o.Files))
	for p := range o.Files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	return paths
}

// RenderedPrefix starts the file name rendered objects are read back under
// ("rendered:<site>/<path>"): not a path on disk.
const RenderedPrefix = "rendered:"

// Objects reads the rendered resources back as manifests, in order, each
// under the name RenderedPrefix + site + "/" + path, with the site position
// each file comes from (keyed by that name). The one way rendered output
// becomes objects (lint, the KRM function, mirrors).
func (o *Output) Objects() ([]*manifests.Object, map[string]diag.Position, error) {
	var objs []*manifests.Object
	origin := map[string]diag.Position{}
	for _, p := range o.Resources {
		file := RenderedPrefix + o.Site.Name + "/" + p
		var obj map[string]any
		if e, ok := o.encoded[p]; ok && e.oneLine && sameBytes(e.data, o.Files[p]) {
			obj = e.obj // the file is still what add encoded from it
		}
		got, d := manifests.ReadRendered(file, o.Files[p], obj)
		if len(d) > 0 {
			return nil, nil, fmt.Errorf("internal error: rendered %s does not read back: %v", file, d)
		}
		objs = append(objs, got...)
		if org := o.Origins[p]; len(org) > 0 {
			origin[file] = org[0]
		}
	}
	return objs, origin, nil
}

// ObjectMap returns a fresh copy of the JSON map a Resource's file encodes,
// false when the path is not a Resource encoded by Render (or its file was
// replaced since): reading the object without parsing its YAML back.
func (o *Output) ObjectMap(path string) (map[string]any, bool) {
	e, ok := o.encoded[path]
	if !ok || !sameBytes(e.data, o.Files[path]) {
		return nil, false
	}
	m, err := ToMap(e.obj)
	return m, err == nil
}

// sameBytes reports whether a and b are the same slice: a file replaced
// after add (another slice) is read from its bytes.
func sameBytes(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}
