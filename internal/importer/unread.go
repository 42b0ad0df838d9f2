package importer

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/manifests"
)

// unread warns about every field of o that decoding into typed did not
// read (a field the typed struct does not have), at its key: the import's
// types hold what a site can say, and nothing else is dropped silently.
// Empty values (false, "", 0, null, {}, []) say nothing and are skipped, as
// are the keys in skip (top-level, handled elsewhere).
func unread(o *manifests.Object, typed any, skip ...string) diag.List {
	b, err := json.Marshal(typed)
	root := o.Root()
	if err != nil || root == nil {
		return nil
	}
	var read any
	if json.Unmarshal(b, &read) != nil {
		return nil
	}
	var out diag.List
	var walk func(n *yaml.Node, r any, path []string)
	walk = func(n *yaml.Node, r any, path []string) {
		switch n.Kind {
		case yaml.MappingNode:
			rm, _ := r.(map[string]any)
			for i := 0; i+1 < len(n.Content); i += 2 {
				k, v := n.Content[i], n.Content[i+1]
				p := append(append([]string{}, path...), k.Value)
				if len(path) == 0 && contains(skip, k.Value) {
					continue
				}
				sub, ok := rm[k.Value]
				if !ok && !empty(v) {
					out = append(out, diag.Diagnostic{Pos: diag.Position{File: o.File, Line: k.Line, Col: k.Column},
						Message: fmt.Sprintf("%s is not imported: a siteforge site has no place for it", diag.Clean(strings.Join(p, "."))),
						Hint:    "carry it over by hand (the site, your own templates, or a day-2 manifest), or leave it out"})
					continue
				}
				walk(v, sub, p)
			}
		case yaml.SequenceNode:
			rl, _ := r.([]any)
			for i, c := range n.Content {
				var sub any
				if i < len(rl) {
					sub = rl[i]
				}
				walk(c, sub, append(append([]string{}, path...), strconv.Itoa(i)))
			}
		}
	}
	walk(root, read, nil)
	return out
}

// empty reports whether a YAML value says nothing.
func empty(n *yaml.Node) bool {
	switch n.Kind {
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!null":
			return true
		case "!!bool":
			return n.Value == "false"
		case "!!int", "!!float":
			f, err := strconv.ParseFloat(n.Value, 64)
			return err == nil && f == 0
		case "!!str":
			return n.Value == ""
		}
	case yaml.MappingNode, yaml.SequenceNode:
		for i, c := range n.Content {
			if n.Kind == yaml.MappingNode && i%2 == 0 {
				continue
			}
			if !empty(c) {
				return false
			}
		}
		return true
	}
	return false
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
