package network

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/siteforge/siteforge/generators"
)

// obj is a JSON object literal; patches are built from it so that a null
// (delete this field in a merge patch) stays a null.
type obj = map[string]any

// patchYAML encodes a merge patch as YAML with sorted keys.
func patchYAML(p obj) []byte {
	b, err := generators.MarshalYAML(p)
	if err != nil {
		// Only maps, strings, ints and nils: encoding cannot fail.
		panic("network: encode patch: " + err.Error())
	}
	return b
}

// patchJSON encodes a merge patch as indented JSON with sorted keys and a
// final newline.
func patchJSON(p obj) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(p); err != nil {
		panic("network: encode patch: " + err.Error())
	}
	return buf.Bytes()
}

// compactJSON is the patch on one line, for `oc patch -p '...'` in a runbook.
func compactJSON(p obj) string {
	b, err := json.Marshal(p)
	if err != nil {
		panic("network: encode patch: " + err.Error())
	}
	return string(b)
}

// encodeObject encodes a typed object like a Resource (sorted keys, source
// annotation), without status and without the nulls and empty structs typed
// structs carry (unsupportedConfigOverrides: null, egressIPConfig: {}).
func encodeObject(o any, source string) ([]byte, error) {
	m, err := generators.ToMap(o)
	if err != nil {
		return nil, err
	}
	delete(m, "status")
	dropEmpty(m)
	return generators.EncodeObject(m, source)
}

// keepEmpty are the fields whose empty value means something: an empty
// ipsecConfig is IPsec mode Full before 4.15 (platform.IPsecModeIsFull).
var keepEmpty = map[string]bool{"ipsecConfig": true}

func dropEmpty(m map[string]any) {
	for k, v := range m {
		switch v := v.(type) {
		case nil:
			delete(m, k)
		case map[string]any:
			dropEmpty(v)
			if len(v) == 0 && !keepEmpty[k] {
				delete(m, k)
			}
		}
	}
}

// nodes renders a pool size for a runbook: "3 nodes", or "unknown" when the
// site lists neither nodes nor count.
func nodes(n int) string {
	switch {
	case n < 0:
		return "? nodes (not in the site)"
	case n == 1:
		return "1 node"
	}
	return fmt.Sprintf("%d nodes", n)
}
