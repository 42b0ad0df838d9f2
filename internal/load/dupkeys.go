package load

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	yamlv3 "go.yaml.in/yaml/v3"

	"github.com/siteforge/siteforge/internal/diag"
)

// duplicateKeys reports the keys a YAML or JSON site file sets twice in one
// mapping. YAML requires the keys of a mapping to be unique (YAML 1.2.2
// section 3.2.1.1, "The content of a mapping node is an unordered set of
// key/value node pairs, with the restriction that each of the keys is
// unique"); the decoder siteforge reads sites with turns the two into two
// CUE fields and unifies them, merging two mappings silently, so the site
// would not say what either copy shows. Equal values are refused too: one
// of the two is stale.
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
		walkDuplicates(name, &doc, &out, 0)
	}
}

func walkDuplicates(name string, n *yamlv3.Node, out *diag.List, depth int) {
	if n == nil || depth > 200 {
		return
	}
	if n.Kind == yamlv3.MappingNode {
		seen := map[string]*yamlv3.Node{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind == yamlv3.ScalarNode {
				if first, dup := seen[k.Value]; dup {
					width := len(k.Value)
					if k.Style&(yamlv3.DoubleQuotedStyle|yamlv3.SingleQuotedStyle) != 0 {
						width += 2
					}
					*out = append(*out, diag.Diagnostic{Pos: diag.Position{File: name, Line: k.Line, Col: k.Column}, Len: width,
						Message: fmt.Sprintf("key %q is already set at line %d: a mapping's keys must be unique (YAML 1.2.2 section 3.2.1.1)", k.Value, first.Line),
						Hint:    "keep one of the two (siteforge would otherwise merge them)"})
				} else {
					seen[k.Value] = k
				}
			}
		}
	}
	for _, c := range n.Content {
		walkDuplicates(name, c, out, depth+1)
	}
}
