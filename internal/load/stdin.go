package load

import (
	"bytes"

	yamlv3 "go.yaml.in/yaml/v3"
)

// isYAMLMapping reports whether data is YAML (or JSON) whose first document
// is a mapping. Decoding into a node does not expand aliases.
func isYAMLMapping(data []byte) bool {
	var doc yamlv3.Node
	if err := yamlv3.NewDecoder(bytes.NewReader(data)).Decode(&doc); err != nil {
		return false
	}
	return doc.Kind == yamlv3.DocumentNode && len(doc.Content) == 1 && doc.Content[0].Kind == yamlv3.MappingNode
}
