package manifests

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/siteforge/siteforge/internal/diag"
)

// ReadRendered reads a resource file siteforge rendered itself: data is one
// YAML document, the encoding of obj (the object's JSON map, which the
// caller no longer changes). It returns what ReadBytes(name, data) returns,
// with less work: Raw is data itself instead of a re-encoding of the parsed
// document, and Decode and DecodeLoose decode obj's JSON encoding instead of
// converting Raw from YAML to JSON (sigs.k8s.io/yaml), with the same errors'
// wording. The document is still parsed, for Node and its positions. Data
// that is not one object (never the case for a rendered resource) is read
// by ReadBytes.
func ReadRendered(name string, data []byte, obj map[string]any) ([]*Object, diag.List) {
	if obj == nil {
		return ReadBytes(name, data)
	}
	objs, problems := scan(name, data, false)
	if len(problems) > 0 || len(objs) != 1 || objs[0].Item != 0 {
		return ReadBytes(name, data)
	}
	objs[0].Raw = data
	objs[0].own = &ownJSON{obj: obj}
	return objs, nil
}

// ownJSON is the JSON encoding of a rendered object, made once, on the
// first decode.
type ownJSON struct {
	once sync.Once
	obj  map[string]any
	b    []byte
	err  error
}

// decode is sigs.k8s.io/yaml's Unmarshal (strict: UnmarshalStrict) of the
// object's YAML, from its JSON: the same decoder options and the same error
// wrapping (sigs.k8s.io/yaml v1.6.0 yaml.go unmarshal and jsonUnmarshal).
// The YAML-to-JSON step it skips changes nothing for a document that is the
// YAML encoding of this JSON.
func (j *ownJSON) decode(into any, strict bool) error {
	j.once.Do(func() { j.b, j.err = json.Marshal(j.obj) })
	if j.err != nil {
		return fmt.Errorf("error converting YAML to JSON: %w", j.err)
	}
	d := json.NewDecoder(bytes.NewReader(j.b))
	if strict {
		d.DisallowUnknownFields()
	}
	if err := d.Decode(&into); err != nil {
		return fmt.Errorf("error unmarshaling JSON: while decoding JSON: %w", err)
	}
	return nil
}
