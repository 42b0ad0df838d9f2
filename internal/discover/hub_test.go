package discover

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// policyHolding is a Policy in namespace ns whose ConfigurationPolicy
// holds the ConfigMaps named.
func policyHolding(ns, name string, cms ...string) string {
	s := fmt.Sprintf("apiVersion: policy.open-cluster-management.io/v1\nkind: Policy\nmetadata:\n  name: %s\n  namespace: %s\nspec:\n  policy-templates:\n  - objectDefinition:\n      apiVersion: policy.open-cluster-management.io/v1\n      kind: ConfigurationPolicy\n      metadata:\n        name: %s\n      spec:\n        object-templates:\n", name, ns, name)
	for _, c := range cms {
		s += "        - complianceType: musthave\n          objectDefinition:\n"
		for _, l := range strings.Split(strings.TrimSuffix(cmNamed(c), "\n"), "\n") {
			s += "            " + l + "\n"
		}
	}
	return s
}

// bound is a Placement selecting label=value and its PlacementBinding of
// the Policy.
func bound(ns, policy, label, value string) string {
	return fmt.Sprintf(`apiVersion: cluster.open-cluster-management.io/v1beta1
kind: Placement
metadata:
  name: %[2]s
  namespace: %[1]s
spec:
  predicates:
  - requiredClusterSelector:
      labelSelector:
        matchLabels:
          %[3]s: %[4]q
---
apiVersion: policy.open-cluster-management.io/v1
kind: PlacementBinding
metadata:
  name: %[2]s
  namespace: %[1]s
placementRef:
  kind: Placement
  name: %[2]s
subjects:
- kind: Policy
  name: %[2]s
`, ns, policy, label, value)
}

// TestHubClusters: the objects a hub delivers are the objects of the
// managed clusters their placement selects (ZTP: common, group and site
// policies by the labels a SiteConfig, ClusterInstance or ManagedCluster
// gives), or of a set of their own when the repository does not say;
// never of the hub's cluster (the kustomization holding the policies),
// whose own objects stay its own.
func TestHubClusters(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{
		"hub/kustomization.yaml": "resources: []\n",
		"hub/hub-cm.yaml":        cmNamed("hub-own"),
		"hub/common.yaml":        policyHolding("ztp-common", "common", "common-cm") + "---\n" + bound("ztp-common", "common", "common", "true"),
		"hub/site-a.yaml":        policyHolding("ztp-site", "site-a", "a-cm") + "---\n" + bound("ztp-site", "site-a", "sites", "a"),
		"hub/unplaced.yaml":      policyHolding("ztp-site", "elsewhere", "elsewhere-cm"),
		"hub/set.yaml": policyHolding("ztp-site", "in-set", "set-cm") + "---\n" +
			"apiVersion: policy.open-cluster-management.io/v1beta1\nkind: PolicySet\nmetadata:\n  name: site-set\n  namespace: ztp-site\nspec:\n  policies: [in-set]\n---\n" +
			strings.Replace(bound("ztp-site", "site-set", "sites", "a"), "- kind: Policy\n", "- kind: PolicySet\n", 1),
		"hub/mustnothave.yaml":     strings.Replace(policyHolding("ztp-site", "gone", "gone-cm"), "musthave", "mustnothave", 1),
		"clusters/siteconfig.yaml": "apiVersion: ran.openshift.io/v1\nkind: SiteConfig\nmetadata:\n  name: s\n  namespace: s\nspec:\n  clusters:\n  - clusterName: a\n    clusterLabels:\n      common: true\n      sites: a\n",
		"clusters/ci.yaml":         "apiVersion: siteconfig.open-cluster-management.io/v1alpha1\nkind: ClusterInstance\nmetadata:\n  name: c\n  namespace: c\nspec:\n  clusterName: c\n  extraLabels:\n    ManagedCluster:\n      common: \"true\"\n",
		"clusters/mc.yaml":         "apiVersion: cluster.open-cluster-management.io/v1\nkind: ManagedCluster\nmetadata:\n  name: b\n  labels:\n    common: \"true\"\n",
	})
	res := Paths([]string{dir}, Options{})
	if len(res.Problems) > 0 {
		t.Fatalf("problems: %v", res.Problems)
	}
	got := map[string][]string{}
	for _, c := range res.Clusters {
		key := c.What + " " + c.Managed
		if c.Managed == "" {
			key = c.What + " " + filepath.Base(c.Root)
		}
		for _, o := range c.Objects {
			got[key] = append(got[key], o.Kind+" "+o.Name)
		}
	}
	want := map[string][]string{
		"kustomization hub": {"Policy common", "Placement common", "PlacementBinding common", "ConfigMap hub-own",
			"Policy gone", "Policy in-set", "PolicySet site-set", "Placement site-set", "PlacementBinding site-set",
			"Policy site-a", "Placement site-a", "PlacementBinding site-a", "Policy elsewhere"},
		"managed cluster a":         {"ConfigMap common-cm", "ConfigMap set-cm", "ConfigMap a-cm"},
		"managed cluster c":         {"ConfigMap common-cm"},
		"managed cluster b":         {"ConfigMap common-cm"},
		"policy ztp-site/elsewhere": {"ConfigMap elsewhere-cm"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("clusters:\n got %v\nwant %v", got, want)
	}
	// the delivered objects are at their lines in the policy file
	for _, c := range res.Clusters {
		if c.Managed == "a" {
			if p := c.Objects[2].Pos(); filepath.Base(p.File) != "site-a.yaml" || p.Line != 17 {
				t.Errorf("a-cm at %s, want site-a.yaml:17", p)
			}
		}
	}
}
