package load

import (
	"strings"
	"testing"
)

// TestDuplicateKeys: a site file setting a key twice in one mapping is
// refused at the second key, equal values included (YAML 1.2.2 3.2.1.1);
// the same key in two mappings is fine.
func TestDuplicateKeys(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"site.yaml", "name: a\ncluster:\n  version: \"4.16\"\n  version: \"4.17\"\n", `site.yaml:4:3: error: key "version" is already set at line 3`},
		{"site.yaml", "name: a\nname: a\n", `site.yaml:2:1: error: key "name" is already set at line 1`},
		{"site.json", `{"name": "a", "pools": {"master": {}, "master": {}}}`, `site.json:1:39: error: key "master" is already set at line 1`},
		{"site.yaml", "pools:\n  master: {uplinkMTU: 1500}\n  worker: {uplinkMTU: 1500}\n", ""},
	} {
		d := duplicateKeys(tc.name, []byte(tc.src))
		switch {
		case tc.want == "" && len(d) > 0:
			t.Errorf("%q: %v", tc.src, d)
		case tc.want != "" && (len(d) != 1 || !strings.HasPrefix(d[0].Error(), tc.want)):
			t.Errorf("%q: %v, want %s", tc.src, d, tc.want)
		}
	}
}
