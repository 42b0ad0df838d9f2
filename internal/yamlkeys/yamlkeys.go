// Package yamlkeys finds the keys a YAML mapping sets twice. YAML requires
// the keys of a mapping to be unique (YAML 1.2.2 section 3.2.1.1, "The
// content of a mapping node is an unordered set of key/value node pairs,
// with the restriction that each of the keys is unique"); decoders differ in
// what they do with a second one (merge it, keep either, refuse the
// document), so the site loader and the readers of the installer's inputs
// find them here and say what their decoder does.
package yamlkeys

import (
	"strconv"

	yaml "go.yaml.in/yaml/v3"
)

// maxDepth bounds the walk: deeper nodes are not looked at.
const maxDepth = 200

// Duplicate is a scalar key set a second time in one mapping.
type Duplicate struct {
	// Key is the second key; First the key it repeats.
	Key, First *yaml.Node
	// Path is the mapping's path from the walked node: keys, and sequence
	// indexes as decimal strings.
	Path []string
}

// Width is the key's width in the text: its value, with the quotes of a
// quoted key.
func (d Duplicate) Width() int {
	w := len(d.Key.Value)
	if d.Key.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
		w += 2
	}
	return w
}

// Find returns the scalar keys set twice in a mapping under n, in document
// order (a mapping's before those of its values). Keys are compared by their
// text, so `a` and `"a"` are the same key. Aliases are not followed.
func Find(n *yaml.Node) []Duplicate {
	var out []Duplicate
	walk(n, nil, &out, 0)
	return out
}

func walk(n *yaml.Node, path []string, out *[]Duplicate, depth int) {
	if n == nil || depth > maxDepth {
		return
	}
	if n.Kind == yaml.MappingNode {
		seen := map[string]*yaml.Node{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode {
				continue
			}
			if first, dup := seen[k.Value]; dup {
				*out = append(*out, Duplicate{Key: k, First: first, Path: append([]string(nil), path...)})
			} else {
				seen[k.Value] = k
			}
		}
	}
	for i, c := range n.Content {
		var p []string
		switch n.Kind {
		case yaml.MappingNode:
			if i%2 == 0 {
				p = path // a key: its own content is not a field
			} else {
				p = append(path[:len(path):len(path)], n.Content[i-1].Value)
			}
		case yaml.SequenceNode:
			p = append(path[:len(path):len(path)], strconv.Itoa(i))
		default:
			p = path
		}
		walk(c, p, out, depth+1)
	}
}
