package generators

import (
	"fmt"
	"reflect"
)

// CleanMap converts a typed openshift/api object to the map a Resource
// carries, keeping only what the object sets: fields equal to their zero
// value in the Go type (the non-pointer structs that marshal to
// httpErrorCodePages: {name: ""}, clientTLS: {...}, tuningOptions:
// {reloadInterval: 0s}, configuration: {}), nulls, empty objects and status
// are dropped. That matters beyond looks: a file applied as a merge patch
// would otherwise overwrite every one of those fields. Values inside maps
// the zero object lacks stay as they are (matchLabels values are "").
func CleanMap(obj any) (map[string]any, error) {
	m, err := ToMap(obj)
	if err != nil {
		return nil, fmt.Errorf("encode %T: %w", obj, err)
	}
	t := reflect.TypeOf(obj)
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	zero, err := ToMap(reflect.New(t).Interface())
	if err != nil {
		return nil, fmt.Errorf("encode zero %T: %w", obj, err)
	}
	// Status is the cluster's to write; a manifest never carries it.
	delete(m, "status")
	pruneZero(m, zero)
	dropEmpty(m)
	return m, nil
}

// MustCleanMap is CleanMap for objects built in code, which always encode.
func MustCleanMap(obj any) map[string]any {
	m, err := CleanMap(obj)
	if err != nil {
		panic("generators: " + err.Error())
	}
	return m
}

// pruneZero removes from m the fields whose value equals the zero object's.
func pruneZero(m, zero map[string]any) {
	for k, v := range m {
		z, ok := zero[k]
		if !ok {
			continue
		}
		if reflect.DeepEqual(v, z) {
			delete(m, k)
			continue
		}
		vm, vok := v.(map[string]any)
		zm, zok := z.(map[string]any)
		if vok && zok {
			pruneZero(vm, zm)
		}
	}
}

// dropEmpty removes nil values and, bottom up, empty maps and lists.
func dropEmpty(m map[string]any) {
	for k, v := range m {
		switch x := v.(type) {
		case nil:
			delete(m, k)
		case map[string]any:
			dropEmpty(x)
			if len(x) == 0 {
				delete(m, k)
			}
		case []any:
			for _, e := range x {
				if em, ok := e.(map[string]any); ok {
					dropEmpty(em)
				}
			}
			if len(x) == 0 {
				delete(m, k)
			}
		}
	}
}
