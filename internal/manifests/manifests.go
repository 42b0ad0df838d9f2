// Package manifests reads plain Kubernetes manifests (YAML or JSON streams in
// a GitOps repository) into objects that keep the position of every field, so
// findings point at the user's line.
package manifests

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v3"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/fsread"
	"github.com/siteforge/siteforge/internal/yamllimit"
)

// Limits on what is read: manifests are small; anything larger is a mistake
// or an attack.
const (
	MaxFileSize = 16 << 20 // bytes per file
	MaxDepth    = 200      // nesting of mappings and sequences
)

// Object is one document of a stream.
type Object struct {
	File  string
	Index int // 0-based document index in the file
	// Item is the 1-based index of the object in a List document; 0 when
	// the document is the object.
	Item                              int
	APIVersion, Kind, Namespace, Name string
	// Raw is the document alone, as YAML.
	Raw []byte
	// WrittenBy is, for an object of a running cluster's state, the
	// platform operator that wrote it itself ("the Machine Config
	// Operator"), "" for one its users wrote: set once when the state is
	// read (MarkPlatformWritten); always "" on objects of a repository.
	WrittenBy string

	// root holds the document's mapping node (positions of every field):
	// Root.
	root *rootNode
	// own is set on objects siteforge rendered itself (ReadRendered): the
	// JSON map they were encoded from, which Decode reads instead of
	// converting Raw from YAML to JSON again.
	own *ownJSON
	// from names the file of the nodes that are not in File: the values
	// a PolicyGenerator patch or a PolicyGenTemplate overlay merged into a
	// source CR are where the generator file says them (hub.go).
	from map[*yaml.Node]string
}

// Root is the document's mapping node (positions of every field); nil for
// an object that has none. An object ReadRendered reads parses its YAML
// for it the first time it is asked for (rendered.go); the node is the
// same on every call and may be read by concurrent goroutines, but not
// changed.
func (o *Object) Root() *yaml.Node { return o.root.node() }

// rootNode holds an object's mapping node: the node itself (eagerRoot), or
// the YAML it is parsed from, once, when first asked for (lazyRoot). A
// pointer in Object, so that a copy of an Object shares it (and go vet's
// copylocks has nothing to say about copying one).
type rootNode struct {
	once sync.Once
	n    *yaml.Node
	// lazy: n is parsed from name and data on the first call of node
	// (parse, rendered.go); set when the rootNode is made, never changed.
	lazy   bool
	name   string
	data   []byte
	parsed bool // the lazy parse is done (tests)
}

// eagerRoot holds a node that is already there.
func eagerRoot(n *yaml.Node) *rootNode { return &rootNode{n: n} }

// lazyRoot holds the node of the one object of data, parsed when first
// asked for.
func lazyRoot(name string, data []byte) *rootNode {
	return &rootNode{lazy: true, name: name, data: data}
}

func (r *rootNode) node() *yaml.Node {
	if r == nil {
		return nil
	}
	if r.lazy {
		r.once.Do(r.parse)
	}
	return r.n
}

// fileOf is the file a node of the object is written in.
func (o *Object) fileOf(n *yaml.Node) string {
	if f, ok := o.from[n]; ok {
		return f
	}
	return o.File
}

// Pos is where the object starts.
func (o *Object) Pos() diag.Position {
	n := o.Root()
	return nodePos(o.fileOf(n), n)
}

// PosOf returns the position of the value at path (mapping keys, or
// sequence indexes as decimal strings), or of its nearest existing ancestor.
func (o *Object) PosOf(path ...string) diag.Position {
	n := o.nodeAt(path...)
	return nodePos(o.fileOf(n), n)
}

// KeyPosOf returns the position of the key of the field at path (the
// `mtu:` of `mtu: 8901`), falling back to PosOf.
func (o *Object) KeyPosOf(path ...string) diag.Position {
	if len(path) == 0 {
		return o.Pos()
	}
	n := o.Root()
	for _, p := range path[:len(path)-1] {
		if n = child(n, p); n == nil {
			return o.PosOf(path...)
		}
	}
	if n != nil && n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == path[len(path)-1] {
				return nodePos(o.fileOf(n.Content[i]), n.Content[i])
			}
		}
	}
	return o.PosOf(path...)
}

func child(n *yaml.Node, key string) *yaml.Node {
	if n == nil {
		return nil
	}
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == key {
				return n.Content[i+1]
			}
		}
	case yaml.SequenceNode:
		if i, err := strconv.Atoi(key); err == nil && i >= 0 && i < len(n.Content) {
			return n.Content[i]
		}
	}
	return nil
}

func nodePos(file string, n *yaml.Node) diag.Position {
	if n == nil {
		return diag.Position{File: file, Line: 1, Col: 1}
	}
	return diag.Position{File: file, Line: max(n.Line, 1), Col: max(n.Column, 1)}
}

// ID names the object for messages: Kind/namespace/name.
func (o *Object) ID() string {
	if o.Namespace != "" {
		return fmt.Sprintf("%s %s/%s", o.Kind, o.Namespace, o.Name)
	}
	return fmt.Sprintf("%s %s", o.Kind, o.Name)
}

// Decode decodes the object strictly (unknown fields are errors) into a
// typed struct with json tags.
func (o *Object) Decode(into any) error {
	if o.own != nil {
		return o.own.decode(into, true)
	}
	return sigsyaml.UnmarshalStrict(o.Raw, into)
}

// DecodeLoose decodes the object, ignoring fields the struct lacks.
func (o *Object) DecodeLoose(into any) error {
	if o.own != nil {
		return o.own.decode(into, false)
	}
	return sigsyaml.Unmarshal(o.Raw, into)
}

// IsManifestFile reports whether a file name is read as manifests.
func IsManifestFile(name string) bool {
	return IsRegistriesConf(name) || // i14-mir: registries.conf files (registriesconf.go)
		HasManifestExtension(name)
}

// HasManifestExtension reports whether a file name ends as a file of
// objects does: .yaml, .yml or .json, in any case.
func HasManifestExtension(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return false
}

func describe(err error) string { return fsread.Describe(err) }

// ReadFile reads one manifest file: a regular file, at most MaxFileSize
// bytes read.
func ReadFile(name string) ([]*Object, diag.List) {
	data, err := fsread.File(name, MaxFileSize)
	var tl *fsread.TooLargeError
	switch {
	case errors.As(err, &tl):
		return nil, diag.List{{Pos: diag.Position{File: name, Line: 1, Col: 1},
			Message: fsread.Describe(err) + " for manifests"}}
	case err != nil:
		return nil, diag.List{{Pos: diag.Position{File: name}, Message: "cannot read: " + fsread.Describe(err)}}
	}
	return ReadBytes(name, data)
}

// ReadBytes splits a YAML (or JSON) stream into objects. Documents without
// apiVersion and kind are skipped; empty documents are skipped; a List is
// unwrapped into its items. Template files and templated objects are
// skipped without a problem (Scan reports them).
func ReadBytes(name string, data []byte) ([]*Object, diag.List) {
	objs, problems := Scan(name, data)
	var diags diag.List
	for _, p := range problems {
		if p.Kind != ProblemTemplate {
			diags = append(diags, p.Diagnostic)
		}
	}
	return objs, diags
}

// ProblemKind says why (part of) a file was not read.
type ProblemKind int

const (
	// ProblemSyntax: the file is not valid YAML or JSON, or not text.
	ProblemSyntax ProblemKind = iota + 1
	// ProblemTemplate: a template (Jinja, Helm or Go template, a shell
	// heredoc), or an object holding a template placeholder that parses
	// as YAML; what it describes is known only once it is rendered.
	ProblemTemplate
	// ProblemUnreadable: the file cannot be read (not a regular file,
	// too large, permissions).
	ProblemUnreadable
)

// Problem is a part of a file that was not read, and why.
type Problem struct {
	Kind ProblemKind
	diag.Diagnostic
}

// Scan splits a YAML (or JSON) stream into objects and says what it could
// not read. Documents without apiVersion and kind are skipped; a List
// (`oc get -o yaml`: kind List or <Kind>List with items) is unwrapped into
// its items. A file that does not parse is a ProblemSyntax, or a
// ProblemTemplate when it is a template (template markers, a template file
// extension, a shell heredoc); then none of its objects is kept. An object
// holding a template placeholder that happens to parse as YAML
// (`replicas: {{ replicas }}` is a flow mapping) is left out, with a
// ProblemTemplate at the placeholder.
func Scan(name string, data []byte) ([]*Object, []Problem) {
	return scan(name, data, true, nil)
}

// As says what the objects of a file are where they do not say it
// themselves: the Insights operator's archive writes objects as JSON
// without apiVersion and kind, their path says what they are, and the
// operator configs of its ClusterOperators carry a top-level name instead
// of metadata (insights-operator docs/gathered-data.md).
type As struct {
	APIVersion, Kind string
	// Namespace and Name are what the path says, for an object whose
	// metadata does not (Name: a top-level name first).
	Namespace, Name string
}

// ScanAs is Scan for a file whose objects are as says where they do not
// say it themselves.
func ScanAs(name string, data []byte, as As) ([]*Object, []Problem) {
	return scan(name, data, true, &as)
}

// scan is Scan; raw false leaves Object.Raw nil (ReadRendered sets it).
func scan(name string, data []byte, raw bool, as *As) ([]*Object, []Problem) {
	syntax := func(d diag.Diagnostic) []Problem {
		if t, ok := templateProblem(name, data); ok {
			return []Problem{t}
		}
		return []Problem{{Kind: ProblemSyntax, Diagnostic: d}}
	}
	if len(data) > MaxFileSize {
		return nil, []Problem{{Kind: ProblemUnreadable, Diagnostic: diag.Diagnostic{Pos: diag.Position{File: name, Line: 1, Col: 1},
			Message: fmt.Sprintf("file is %d bytes, larger than the %d-byte limit for manifests", len(data), MaxFileSize)}}}
	}
	if !utf8.Valid(data) || bytes.IndexByte(data, 0) >= 0 {
		return nil, []Problem{{Kind: ProblemSyntax, Diagnostic: diag.Diagnostic{Pos: diag.Position{File: name, Line: 1, Col: 1}, Message: "not UTF-8 text"}}}
	}
	data = diag.LoneCRToLF(data)
	if IsRegistriesConf(name) { // a registries.conf is TOML (registriesconf.go)
		objs, diags := ReadRegistriesConf(name, data)
		var problems []Problem
		for _, d := range diags {
			problems = append(problems, Problem{Kind: ProblemSyntax, Diagnostic: d})
		}
		return objs, problems
	}
	if t, ok := templateFile(name, data); ok {
		return nil, []Problem{t}
	}
	var ae *yamllimit.AliasError
	if err := yamllimit.CheckAliases(data, MaxFileSize); errors.As(err, &ae) {
		return nil, syntax(diag.Diagnostic{Pos: diag.Position{File: name, Line: ae.Line, Col: ae.Col}, Message: "syntax error: " + ae.Error()})
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var (
		objs     []*Object
		problems []Problem
	)
	for i := 0; ; i++ {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			p := syntax(yamlError(name, err))
			if p[0].Kind == ProblemTemplate {
				return nil, p
			}
			return objs, append(problems, p...)
		}
		if len(doc.Content) == 0 {
			continue
		}
		root := doc.Content[0]
		if root.Kind != yaml.MappingNode {
			continue
		}
		if d := depth(root, 0); d > MaxDepth {
			return objs, append(problems, Problem{Kind: ProblemSyntax, Diagnostic: diag.Diagnostic{Pos: nodePos(name, root), Message: fmt.Sprintf("document nests deeper than %d levels", MaxDepth)}})
		}
		if items := listItems(root); items != nil {
			for j, item := range items {
				if item.Kind != yaml.MappingNode {
					continue
				}
				o, p, derr := object(name, i, j+1, item, raw, as)
				if derr != nil {
					return objs, append(problems, Problem{Kind: ProblemSyntax, Diagnostic: *derr})
				}
				problems = append(problems, p...)
				if o != nil {
					objs = append(objs, o)
				}
			}
			continue
		}
		o, p, derr := object(name, i, 0, root, raw, as)
		if derr != nil {
			return objs, append(problems, Problem{Kind: ProblemSyntax, Diagnostic: *derr})
		}
		problems = append(problems, p...)
		if o != nil {
			objs = append(objs, o)
		}
	}
	return objs, problems
}

// object makes the Object of one mapping node (a document, or an item of a
// List), nil when it has no apiVersion and kind (nor as says them) or holds
// a template placeholder (then with the problem).
func object(name string, doc, item int, root *yaml.Node, raw bool, as *As) (*Object, []Problem, *diag.Diagnostic) {
	o := &Object{File: name, Index: doc, Item: item, root: eagerRoot(root)}
	o.APIVersion = scalar(root, "apiVersion")
	o.Kind = scalar(root, "kind")
	if as != nil && o.APIVersion == "" && o.Kind == "" {
		o.APIVersion, o.Kind = as.APIVersion, as.Kind
	}
	if o.Kind == "" && item == 0 && isInstallConfig(name, root) {
		o.Kind = KindInstallConfig
	}
	if o.APIVersion == "" || o.Kind == "" {
		return nil, nil, nil
	}
	o.Name = scalar(child(root, "metadata"), "name")
	o.Namespace = scalar(child(root, "metadata"), "namespace")
	if as != nil && item == 0 {
		if o.Name == "" {
			o.Name = cmp.Or(scalar(root, "name"), as.Name)
		}
		o.Namespace = cmp.Or(o.Namespace, as.Namespace)
	}
	if at := placeholder(root); at != nil {
		return nil, []Problem{{Kind: ProblemTemplate, Diagnostic: diag.Diagnostic{Pos: nodePos(name, at),
			Message: fmt.Sprintf("%s holds a template placeholder that parses as YAML; it is not linted", o.ID()),
			Hint:    "lint the rendered output of the template"}}}, nil
	}
	if !raw {
		return o, nil, nil
	}
	b, err := yaml.Marshal(root)
	if err != nil {
		return nil, nil, &diag.Diagnostic{Pos: nodePos(name, root), Message: "cannot re-encode document: " + err.Error()}
	}
	o.Raw = b
	return o, nil, nil
}

// listItems returns the items of a List document (apiVersion v1, kind List,
// or any <Kind>List holding an items sequence, as kubectl and oc print
// them), nil for any other document.
func listItems(root *yaml.Node) []*yaml.Node {
	kind := scalar(root, "kind")
	if kind == "" || !strings.HasSuffix(kind, "List") {
		return nil
	}
	items := child(root, "items")
	if items == nil || items.Kind != yaml.SequenceNode || scalar(root, "apiVersion") == "" {
		return nil
	}
	if items.Content == nil {
		return []*yaml.Node{}
	}
	return items.Content
}

// KindInstallConfig is the kind siteforge gives an install-config.yaml
// document (the installer's file has apiVersion v1 and no kind).
const KindInstallConfig = "InstallConfig"

// isInstallConfig recognises install-config.yaml by name or by shape.
func isInstallConfig(file string, root *yaml.Node) bool {
	if strings.EqualFold(filepath.Base(file), "install-config.yaml") || strings.EqualFold(filepath.Base(file), "install-config.yml") {
		return true
	}
	return child(root, "baseDomain") != nil && child(root, "platform") != nil &&
		(child(root, "controlPlane") != nil || child(root, "compute") != nil || child(root, "networking") != nil)
}

func depth(n *yaml.Node, d int) int {
	if d > MaxDepth {
		return d
	}
	best := d
	for _, c := range n.Content {
		if x := depth(c, d+1); x > best {
			best = x
		}
	}
	return best
}

func scalar(n *yaml.Node, key string) string {
	c := child(n, key)
	if c == nil || c.Kind != yaml.ScalarNode {
		return ""
	}
	return c.Value
}

func yamlError(name string, err error) diag.Diagnostic {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	line := 1
	if strings.HasPrefix(msg, "line ") {
		rest := strings.TrimPrefix(msg, "line ")
		if i := strings.Index(rest, ":"); i > 0 {
			if n, err := strconv.Atoi(rest[:i]); err == nil {
				line = n
				msg = strings.TrimSpace(rest[i+1:])
			}
		}
	}
	return diag.Diagnostic{Pos: diag.Position{File: name, Line: line, Col: 1}, Message: "syntax error: " + msg}
}
