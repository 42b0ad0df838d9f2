package rules

import (
	"testing"

	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/registries"
	"github.com/siteforge/siteforge/lint"
)

// FuzzParseRegistriesConf: the registries.conf reader (standalone files,
// ConfigMaps, MachineConfig contents) never panics, and resolving a pull
// against what it accepts never panics either. Resolution may fail: c/image
// accepts a dotless mirror location ('r') that it then cannot rewrite a
// reference to, which is what the node reports on the pull (MIR007).
func FuzzParseRegistriesConf(f *testing.F) {
	f.Add([]byte("unqualified-search-registries = ['registry.access.redhat.com']\n[[registry]]\nprefix = ''\nlocation = 'registry.redhat.io'\nblocked = true\n[[registry.mirror]]\nlocation = 'quay.example.com/r'\npull-from-mirror = 'digest-only'\n"))
	f.Add([]byte("[[registry]]\nlocation = 'a.example.com'\nmirror-by-digest-only = true\n[[registry.mirror]]\nlocation = 'b.example.com'\n"))
	f.Add([]byte("short-name-mode = 'enforcing'\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, err := registries.Parse(data); err != nil {
			return
		}
		if _, err := registries.Resolve(data, "registry.redhat.io/redhat/redhat-operator-index:v4.16"); err != nil && err.Error() == "" {
			t.Fatalf("resolution failed without saying why:\n%s", data)
		}
	})
}

// FuzzLintManifests: every rule runs on any manifest the reader accepts
// without panicking, and every finding has a position.
func FuzzLintManifests(f *testing.F) {
	f.Add([]byte(idmsNever + "---\n" + catalogByTag))
	f.Add([]byte(installConfigEdge))
	f.Add([]byte("apiVersion: operator.openshift.io/v1\nkind: IngressController\nmetadata: {name: x, namespace: openshift-ingress-operator}\nspec:\n  nodePlacement:\n    nodeSelector:\n      matchExpressions: [{key: a, operator: NotIn, values: [b]}]\n"))
	f.Add([]byte("apiVersion: k8s.ovn.org/v1\nkind: EgressIP\nmetadata: {name: e}\nspec: {egressIPs: [10.0.0.1, 'fd00::1'], namespaceSelector: {}}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		objs, diags := manifests.ReadBytes("m.yaml", data)
		if len(diags) > 0 {
			return
		}
		res, err := lint.Run(&lint.Input{Objects: objs}, lint.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, fd := range res.Findings {
			if fd.Pos.Line < 1 {
				t.Fatalf("finding without a line: %+v", fd)
			}
		}
	})
}
