package generators

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	yaml2 "go.yaml.in/yaml/v2"
	"sigs.k8s.io/yaml"
)

// MarshalYAML is sigs.k8s.io/yaml.Marshal(v), byte for byte (the YAML of
// v's JSON encoding, keys sorted), without its YAML parse of that JSON: the
// JSON is decoded and encoded as marshalYAML does.
func MarshalYAML(v any) ([]byte, error) {
	j, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("error marshaling into JSON: %w", err)
	}
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(j))
	dec.UseNumber()
	if j[0] != '{' || dec.Decode(&m) != nil {
		// not an object: the round trip, as before
		return yaml.Marshal(v)
	}
	return marshalYAML(m)
}

// marshalYAML encodes m, a map decoded from JSON with json.Number numbers
// (ToMap's), to exactly the bytes of sigs.k8s.io/yaml.Marshal(m), without
// its round trip: Marshal writes m as JSON, parses that JSON with
// go.yaml.in/yaml/v2 (which types each number as int, int64, uint64 or
// float64) and encodes the result with the same library. Here the numbers are
// typed as that parse types them (numberValue) and the map is encoded
// directly. Strings take the round trip unchanged when every byte is
// printable ASCII or a control character (JSON escapes those, YAML reads the
// escapes back); a map with any other string byte, or a "<<" key (YAML's
// merge key), goes the long way, so the bytes never differ.
func marshalYAML(m map[string]any) ([]byte, error) {
	if !plainJSON(m) {
		return yaml.Marshal(m)
	}
	typed := typeNumbers(m).(map[string]any)
	if b, ok := blockYAML(typed); ok {
		return b, nil
	}
	return yaml2.Marshal(typed)
}

// plainJSON reports whether v holds only JSON values whose strings survive
// the JSON-YAML round trip byte for byte (see marshalYAML).
func plainJSON(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if k == "<<" || !plainString(k) || !plainJSON(e) {
				return false
			}
		}
	case []any:
		for _, e := range x {
			if !plainJSON(e) {
				return false
			}
		}
	case string:
		return plainString(x)
	case json.Number, bool, nil:
	default:
		return false
	}
	return true
}

// plainString: bytes below 0x7f only (no DEL, which yaml.v2 refuses to
// read, and no UTF-8, which encoding/json may rewrite).
func plainString(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x7f {
			return false
		}
	}
	return true
}

// typeNumbers replaces, in place, every json.Number of v by the value
// go.yaml.in/yaml/v2 resolves its JSON text to (resolve in resolve.go: a
// decimal integer is an int, or an int64, or a uint64; then a float64; text
// no Go number holds stays a string).
func typeNumbers(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = typeNumbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = typeNumbers(e)
		}
	case json.Number:
		return numberValue(string(x))
	}
	return v
}

func numberValue(s string) any {
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		if i == int64(int(i)) {
			return int(i)
		}
		return i
	}
	if u, err := strconv.ParseUint(s, 10, 64); err == nil {
		return u
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return f
	}
	return s
}

// copyable reports whether v is a value JSON decoding gives (non-nil maps
// and lists, strings, valid json.Numbers, booleans, null) whose strings
// the JSON round trip leaves as they are (plainString): the JSON round trip
// of such a value is a deep copy.
func copyable(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		if x == nil {
			return false // JSON null
		}
		for k, e := range x {
			if !plainString(k) || !copyable(e) {
				return false
			}
		}
	case []any:
		if x == nil {
			return false // JSON null
		}
		for _, e := range x {
			if !copyable(e) {
				return false
			}
		}
	case string:
		return plainString(x)
	case json.Number:
		return validNumber(string(x))
	case bool, nil:
	default:
		return false
	}
	return true
}

// validNumber reports whether s is a number in JSON's grammar (RFC 8259,
// section 6): -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?, what
// encoding/json accepts in a json.Number.
func validNumber(s string) bool {
	i := 0
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case digits() == 0:
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}
