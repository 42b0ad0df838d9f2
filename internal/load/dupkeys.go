package load

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	yamlv3 "go.yaml.in/yaml/v3"

	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/yamlkeys"
)

// duplicateKeys reports the keys a YAML or JSON site file sets twice in one
// mapping (internal/yamlkeys). The decoder siteforge reads sites with turns
// the two into two CUE fields and unifies them, merging two mappings
// silently, so the site would not say what either copy shows. Equal values
// are refused too: one of the two is stale.
// Syntax errors are left to the decoder.
func duplicateKeys(name string, data []byte) diag.List {
	dec := yamlv3.NewDecoder(bytes.NewReader(data))
	var out diag.List
	for {
		var doc yamlv3.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) || err != nil {
			return out
		}
		for _, d := range yamlkeys.Find(&doc) {
			k := d.Key
			out = append(out, diag.Diagnostic{Pos: diag.Position{File: name, Line: k.Line, Col: k.Column}, Len: d.Width(),
				Message: fmt.Sprintf("key %q is already set at line %d: a mapping's keys must be unique (YAML 1.2.2 section 3.2.1.1)", k.Value, d.First.Line),
				Hint:    "keep one of the two (siteforge would otherwise merge them)"})
		}
	}
}
