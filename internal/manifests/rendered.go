package manifests

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"sync"

	sigsyaml "sigs.k8s.io/yaml"

	"github.com/siteforge/siteforge/internal/diag"
)

// ReadRendered reads a resource file siteforge rendered itself: data is one
// YAML document, the encoding of obj (the object's JSON map, which the
// caller no longer changes). It returns what ReadBytes(name, data) returns,
// with less work: Raw is data itself instead of a re-encoding of the parsed
// document, and Decode and DecodeLoose decode obj's JSON encoding instead of
// converting Raw from YAML to JSON (sigs.k8s.io/yaml). The document is still
// parsed, for Node and its positions. Data that is not one object (never the
// case for a rendered resource), or an obj whose JSON could differ from the
// JSON sigs.k8s.io/yaml makes of data (see jsonAsYAML), is read by
// ReadBytes.
func ReadRendered(name string, data []byte, obj map[string]any) ([]*Object, diag.List) {
	if obj == nil || !jsonAsYAML(obj) {
		return ReadBytes(name, data)
	}
	objs, problems := scan(name, data, false, nil)
	if len(problems) > 0 || len(objs) != 1 || objs[0].Item != 0 {
		return ReadBytes(name, data)
	}
	objs[0].Raw = data
	objs[0].own = &ownJSON{obj: obj, raw: data}
	return objs, nil
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
