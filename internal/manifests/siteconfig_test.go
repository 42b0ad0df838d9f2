package manifests

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// converterSamples is the siteconfig-converter's samples folder in the
// shared upstream data; tests that read it skip loudly without it.
func converterSamples(t *testing.T) string {
	t.Helper()
	dir := filepath.Join("..", "..", "..", "shared", "upstream", "ztp", "siteconfig-converter", "samples")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("SKIPPED: %s is absent: the SiteConfig conversion is not checked against the converter's samples", dir)
	}
	return dir
}

func sampleClusters(t *testing.T, name string) []*SiteConfigCluster {
	t.Helper()
	objs, dl := ReadFile(filepath.Join(converterSamples(t), name))
	if len(dl) > 0 {
		t.Fatal(dl)
	}
	var out []*SiteConfigCluster
	for _, o := range objs {
		if IsSiteConfig(o) {
			c, err := SiteConfigClusters(o)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, c...)
		}
	}
	return out
}

// TestSiteConfigConversionAsConverter: the conversion gives what the
// converter's own tests expect of the same samples (openshift-kni/
// cnf-features-deploy ztp/tools/siteconfig-converter convert_test.go
// TestConvertSNOSiteConfig, TestIronicInspectDefaultValue,
// TestWarningsForNonConvertibleFields, with the tool's default flags).
func TestSiteConfigConversionAsConverter(t *testing.T) {
	sno := sampleClusters(t, "test-sno-siteconfig.yaml")
	if len(sno) != 1 {
		t.Fatalf("%d clusters, want 1", len(sno))
	}
	ci := sno[0].CI
	s := ci.Spec
	checks := []struct {
		what      string
		got, want any
	}{
		{"metadata.name", ci.Obj.Name, "example-sno"},
		{"metadata.namespace", ci.Obj.Namespace, "example-sno"},
		{"clusterType", s.ClusterType, "SNO"},
		{"cpuPartitioningMode", s.CPUPartitioningMode, "AllNodes"},
		{"baseDomain", s.BaseDomain, "example.com"},
		{"networkType", s.NetworkType, "OVNKubernetes"},
		{"clusterNetwork", fmt.Sprintf("%s/%d", s.ClusterNetwork[0].CIDR, s.ClusterNetwork[0].HostPrefix), "1001:1::/48/64"},
		{"serviceNetwork", s.ServiceNetwork[0].CIDR, "1001:2::/112"},
		{"machineNetwork", s.MachineNetwork[0].CIDR, "1111:2222:3333:4444::/64"},
		{"additionalNTPSources", s.AdditionalNTPSources, []string{"1111:2222:3333:4444::2"}},
		{"extraLabels.ManagedCluster", s.ExtraLabels["ManagedCluster"], map[string]string{"du-profile": "latest", "common": "true", "group-du-sno": "", "sites": "example-sno"}},
		{"nodes[0].hostName", s.Nodes[0].HostName, "example-node1.example.com"},
		{"nodes[0].role", s.Nodes[0].Role, "master"},
		{"nodes[0].bootMACAddress", s.Nodes[0].BootMACAddress, "AA:BB:CC:DD:EE:11"},
		{"nodes[0].bootMode", s.Nodes[0].BootMode, "UEFISecureBoot"},
		{"nodes[0].nodeNetwork.interfaces[0]", s.Nodes[0].NodeNetwork.Interfaces[0].Name + " " + s.Nodes[0].NodeNetwork.Interfaces[0].MacAddress, "eno1 AA:BB:CC:DD:EE:11"},
		{"nodes[0].ignitionConfigOverride has 3.2.0", strings.Contains(s.Nodes[0].IgnitionConfigOverride, `"version": "3.2.0"`), true},
		{"nodes[0].templateRefs", s.Nodes[0].TemplateRefs[0].Namespace + "/" + s.Nodes[0].TemplateRefs[0].Name, "open-cluster-management/ai-node-templates-v1"},
		{"templateRefs", s.TemplateRefs[0].Namespace + "/" + s.TemplateRefs[0].Name, "open-cluster-management/ai-cluster-templates-v1"},
		{"platformType", s.PlatformType, ""},
		{"cpuArchitecture", s.CPUArchitecture, ""},
		{"extraManifestsRefs", s.ExtraManifestsRefs[len(s.ExtraManifestsRefs)-1].Name, "extra-manifests-cm"},
	}
	for _, c := range checks {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s = %v, want %v", c.what, c.got, c.want)
		}
	}

	// ironicInspect "enabled" is the default and left out; "disabled" stays
	// (comprehensive sample: master-1 disabled)
	comp := sampleClusters(t, "comprehensive-siteconfig.yaml")[0]
	if got := comp.CI.Spec.Nodes[0].IronicInspect; got != "disabled" {
		t.Errorf("comprehensive nodes[0].ironicInspect = %q, want disabled", got)
	}
	// the converter's warnings for what has no place in a ClusterInstance
	var msgs []string
	for _, d := range comp.Dropped {
		msgs = append(msgs, d.Message)
		if d.Pos.Line < 2 {
			t.Errorf("warning without its SiteConfig position: %s", d.Message)
		}
	}
	all := strings.Join(msgs, "\n")
	for _, f := range []string{"sshPrivateKeySecretRef", "biosConfigRef", "crTemplates", "mergeDefaultMachineConfigs", "extraManifestPath", "extraManifests.searchPaths", "siteConfigMap", "diskEncryption.tpm2", "diskPartition", "userData", "cpuset"} {
		if !strings.Contains(all, f) {
			t.Errorf("no warning about %s; warnings:\n%s", f, all)
		}
	}
}

// TestSiteConfigPositions: the ClusterInstance of a SiteConfig cluster
// points at the SiteConfig: a node's field at the node's line, a shared
// field at the SiteConfig spec, a label at the cluster's clusterLabels.
func TestSiteConfigPositions(t *testing.T) {
	src := `apiVersion: ran.openshift.io/v1
kind: SiteConfig
metadata:
  name: two
  namespace: two
spec:
  baseDomain: example.com
  pullSecretRef:
    name: ps
  clusterImageSetNameRef: openshift-4.18
  clusters:
  - clusterName: a
    clusterLabels:
      common: true
    nodes:
    - hostName: a0
      bootMACAddress: "AA:BB:CC:DD:EE:01"
  - clusterName: b
    clusterImageSetNameRef: openshift-4.19
    apiVIP: 10.0.0.5
    nodes:
    - hostName: b0
    - hostName: b1
      role: worker
      bootMACAddress: "AA:BB:CC:DD:EE:02"
`
	objs, dl := ReadBytes("sc.yaml", []byte(src))
	if len(dl) > 0 {
		t.Fatal(dl)
	}
	cis := ClusterInstances(objs)
	if len(cis) != 2 {
		t.Fatalf("%d ClusterInstances, want one per cluster", len(cis))
	}
	at := func(ci *ClusterInstanceObject, p ...string) string { return ci.Obj.PosOf(p...).String() }
	for _, c := range []struct{ got, want string }{
		{at(cis[0], "spec", "nodes", "0", "bootMACAddress"), "sc.yaml:17:23"},
		{at(cis[0], "spec", "baseDomain"), "sc.yaml:7:15"},
		{at(cis[0], "spec", "clusterImageSetNameRef"), "sc.yaml:10:27"},
		{at(cis[0], "spec", "extraLabels", "ManagedCluster", "common"), "sc.yaml:14:15"},
		{at(cis[1], "spec", "clusterImageSetNameRef"), "sc.yaml:19:29"},
		{at(cis[1], "spec", "apiVIPs", "0"), "sc.yaml:20:13"},
		{at(cis[1], "spec", "nodes", "1", "bootMACAddress"), "sc.yaml:25:23"},
		{at(cis[1], "spec", "clusterType"), "sc.yaml:18:18"},
	} {
		if c.got != c.want {
			t.Errorf("position %s, want %s", c.got, c.want)
		}
	}
	if got := cis[0].Spec.ExtraLabels["ManagedCluster"]["common"]; got != "true" {
		t.Errorf("label common = %q, want \"true\" (the converter's YAML decoder reads a boolean label as its text)", got)
	}
	if cis[1].Spec.ClusterType != "HighlyAvailable" || cis[0].Spec.ClusterType != "SNO" {
		t.Errorf("clusterType %s, %s", cis[0].Spec.ClusterType, cis[1].Spec.ClusterType)
	}
}
