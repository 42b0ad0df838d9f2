package jsonval

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestCopy(t *testing.T) {
	v := map[string]any{"a": []any{map[string]any{"b": json.Number("1")}, "s", true, nil, 1.5}, "m": map[string]any{}}
	c := Copy(v).(map[string]any)
	if !reflect.DeepEqual(c, v) {
		t.Fatalf("copy %v, want %v", c, v)
	}
	c["a"].([]any)[0].(map[string]any)["b"] = "changed"
	c["m"].(map[string]any)["new"] = 1
	if v["a"].([]any)[0].(map[string]any)["b"] != json.Number("1") || len(v["m"].(map[string]any)) != 0 {
		t.Errorf("changing the copy changed the original: %v", v)
	}
}

func TestCopyRefusesOtherTypes(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Copy of an int did not panic")
		}
	}()
	Copy(map[string]any{"n": 1})
}
