// Package jsonval holds what works on values as encoding/json decodes them
// into an interface: map[string]any, []any, string, json.Number (with
// Decoder.UseNumber) or float64, bool and nil.
package jsonval

import (
	"encoding/json"
	"fmt"
)

// Copy deep-copies a decoded JSON value: maps and lists are new, the rest
// is immutable and shared. Any other type is a caller's bug: Copy panics
// rather than share what it cannot copy.
func Copy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = Copy(e)
		}
		return m
	case []any:
		l := make([]any, len(x))
		for i, e := range x {
			l[i] = Copy(e)
		}
		return l
	case string, json.Number, float64, bool, nil:
		return x
	}
	panic(fmt.Sprintf("jsonval.Copy: %T is not a value encoding/json decodes", v))
}
