package manifests

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"strings"
	"sync"
	"unicode/utf8"

	sigsyaml "sigs.k8s.io/yaml"

	"github.com/siteforge/siteforge/internal/diag"
)

// ReadRendered reads a resource file siteforge rendered itself: data is the
// encoding of obj (the object's JSON map, which the caller no longer
// changes) by sigs.k8s.io/yaml's Marshal (generators.MarshalYAML's bytes),
// possibly after comment lines, each one line (no CR, NEL, LS or PS in it).
// It returns what ReadBytes(name, data) returns, with less work: Raw is
// data itself instead of a re-encoding of the parsed document, and Decode
// and DecodeLoose decode obj's JSON encoding instead of converting Raw from
// YAML to JSON (sigs.k8s.io/yaml). The object's identity (apiVersion, kind,
// namespace, name) is read from obj, and the document is parsed only when
// Root (positions) is first asked for: most rendered objects have no
// finding and never are (see renderedIdentity). An obj whose JSON could
// differ from the JSON sigs.k8s.io/yaml makes of data (see jsonAsYAML) is
// read by ReadBytes; an obj whose identity or shape the map alone cannot
// settle is read by parsing data now, and data that is not one object
// (never the case for a rendered resource) is read by ReadBytes.
func ReadRendered(name string, data []byte, obj map[string]any) ([]*Object, diag.List) {
	if obj == nil || !jsonAsYAML(obj) {
		return ReadBytes(name, data)
	}
	if o, ok := renderedIdentity(name, data, obj); ok {
		o.Raw = data
		o.root = lazyRoot(name, data)
		o.own = &ownJSON{obj: obj, raw: data}
		return []*Object{o}, nil
	}
	objs, problems := scan(name, data, false, nil)
	if len(problems) > 0 || len(objs) != 1 || objs[0].Item != 0 {
		return ReadBytes(name, data)
	}
	objs[0].Raw = data
	objs[0].own = &ownJSON{obj: obj, raw: data}
	return objs, nil
}

// renderedIdentity is the object scan(name, data, false, nil) reads from
// data, the encoding of obj (see ReadRendered), without its Root, when the
// map and a look at data's bytes settle that scan reads exactly one object,
// the document itself (Index 0, Item 0), without a problem, and what its
// identity is; false when they do not (the caller parses).
//
// What scan checks before parsing is checked here the same way (the size,
// UTF-8 text without NUL, a registries.conf or template file name). A lone
// CR (which scan turns into a line break) or a line starting with a
// document marker or a directive (---, ..., %) is left to the parse. Of
// what scan checks on the parsed document: the encoding of a map is a
// mapping whose keys are scalars (no template placeholder), whose nodes
// nest as the map does (MaxDepth), without anchors or aliases; a kind
// ending in List (a List document) is left to the parse; apiVersion and
// kind must be non-empty strings, and metadata a map whose name and
// namespace, when there, are strings. Strings are printable ASCII, which
// the YAML encoding gives back unchanged as scalar values. Nothing more
// can make the parse differ, short of data not being the encoding of obj,
// which Decode relies on too (generators.Output.Objects passes obj only for
// a file that is its encoding after one comment line).
func renderedIdentity(name string, data []byte, obj map[string]any) (*Object, bool) {
	if len(data) > MaxFileSize || !utf8.Valid(data) || bytes.IndexByte(data, 0) >= 0 || bytes.IndexByte(data, '\r') >= 0 ||
		IsRegistriesConf(name) || IsTemplateFile(name) || !oneBareDocument(data) {
		return nil, false
	}
	apiVersion, ok1 := identityString(obj, "apiVersion")
	kind, ok2 := identityString(obj, "kind")
	if !ok1 || !ok2 || apiVersion == "" || kind == "" || strings.HasSuffix(kind, "List") {
		return nil, false
	}
	var namespace, objName string
	if m, ok := obj["metadata"]; ok {
		meta, ok := m.(map[string]any)
		if !ok {
			return nil, false
		}
		var ok1, ok2 bool
		objName, ok1 = identityString(meta, "name")
		namespace, ok2 = identityString(meta, "namespace")
		if !ok1 || !ok2 {
			return nil, false
		}
	}
	if nesting(obj, 0) > MaxDepth {
		return nil, false
	}
	return &Object{File: name, APIVersion: apiVersion, Kind: kind, Namespace: namespace, Name: objName}, true
}

// identityString is m[key] when it is a string of printable ASCII, "" when
// m has no key; false for any other value.
func identityString(m map[string]any, key string) (string, bool) {
	v, ok := m[key]
	if !ok {
		return "", true
	}
	s, ok := v.(string)
	if !ok {
		return "", false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= 0x7f {
			return "", false
		}
	}
	return s, true
}

// oneBareDocument reports whether no line of data starts with a document
// marker (--- or ...) or a directive (%): a stream without them is one
// document at most (YAML 1.2, 9.2 Streams).
func oneBareDocument(data []byte) bool {
	for line := range bytes.Lines(data) {
		if bytes.HasPrefix(line, []byte("---")) || bytes.HasPrefix(line, []byte("...")) || bytes.HasPrefix(line, []byte("%")) {
			return false
		}
	}
	return true
}

// nesting is how deep the YAML encoding of v nests below depth d, counted
// as scan's depth counts nodes: a mapping's keys and values and a
// sequence's items are one level below it. It stops counting past
// MaxDepth.
func nesting(v any, d int) int {
	if d > MaxDepth {
		return d
	}
	best := d
	switch x := v.(type) {
	case map[string]any:
		if len(x) > 0 {
			best = d + 1 // the keys
		}
		for _, e := range x {
			best = max(best, nesting(e, d+1))
		}
	case []any:
		for _, e := range x {
			best = max(best, nesting(e, d+1))
		}
	}
	return best
}

// parse is the lazy parse of a rendered object's document (ReadRendered):
// scan's node of its one object. renderedIdentity made sure scan reads
// that one object; were it not so (data not the encoding of obj), the node
// is that of the first object scan reads, as ReadBytes would read it, or
// nil (positions at the start of the file).
func (r *rootNode) parse() {
	objs, _ := scan(r.name, r.data, false, nil)
	if len(objs) > 0 {
		r.n = objs[0].Root()
	}
	r.parsed = true
}

// jsonAsYAML reports whether json.Marshal of v gives the JSON that
// sigs.k8s.io/yaml's YAML-to-JSON step makes of v's YAML encoding (before
// that step's conversions for a target type, which decode leaves to
// sigs.k8s.io/yaml): values as generators.MarshalYAML types them (string,
// bool, nil, int, int64, uint64, float64), no json.Number (its text is
// written as is, "1.0" where the YAML path writes 1), and no negative zero
// (JSON -0, where YAML's -0 reads back as the integer 0).
func jsonAsYAML(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			if !jsonAsYAML(e) {
				return false
			}
		}
	case []any:
		for _, e := range x {
			if !jsonAsYAML(e) {
				return false
			}
		}
	case float64:
		return x != 0 || !math.Signbit(x)
	case string, bool, nil, int, int64, uint64:
	default:
		return false
	}
	return true
}

// ownJSON is the JSON encoding of a rendered object, made once, on the
// first decode.
type ownJSON struct {
	once sync.Once
	obj  map[string]any
	raw  []byte // the rendered YAML
	b    []byte
	err  error
}

// decode is sigs.k8s.io/yaml's Unmarshal (strict: UnmarshalStrict) of the
// object's YAML. It decodes the object's JSON with the same decoder options
// (sigs.k8s.io/yaml v1.6.0 yaml.go, unmarshal and jsonUnmarshal), which
// gives sigs.k8s.io/yaml's result whenever it succeeds: sigs.k8s.io/yaml
// converts a scalar only for a target the JSON cannot decode into (a YAML
// number or bool into a string field becomes a string, yaml.go
// convertToJSONableObject). When it fails, for whatever reason, the target
// is reset and decoded by sigs.k8s.io/yaml from the YAML, so the error and
// whatever the target holds after it are sigs.k8s.io/yaml's too.
func (j *ownJSON) decode(into any, strict bool) error {
	j.once.Do(func() { j.b, j.err = json.Marshal(j.obj) })
	if j.err == nil {
		d := json.NewDecoder(bytes.NewReader(j.b))
		if strict {
			d.DisallowUnknownFields()
		}
		if d.Decode(&into) == nil {
			return nil
		}
		if v := reflect.ValueOf(into); v.Kind() == reflect.Pointer && !v.IsNil() {
			v.Elem().Set(reflect.Zero(v.Elem().Type()))
		}
	}
	if strict {
		return sigsyaml.UnmarshalStrict(j.raw, into)
	}
	return sigsyaml.Unmarshal(j.raw, into)
}
