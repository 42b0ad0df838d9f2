package hub_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"

	"github.com/siteforge/siteforge/generators"
	_ "github.com/siteforge/siteforge/generators/all"
	"github.com/siteforge/siteforge/generators/hub"
	"github.com/siteforge/siteforge/internal/_fidelity"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/load"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/upstream"
)

// haSite is a hub-installed site: 3 masters, a worker, a custom pool, one
// node with NMState. extra is appended at the top level.
func haSite(method, extra string) string {
	return `apiVersion: siteforge.dev/v1alpha1
kind: Site
name: lab
cluster:
  baseDomain: example.com
  version: "4.16"
  platform: baremetal
  installMethod: ` + method + `
  lifecycle: install
network:
  machineNetwork: [10.0.0.0/24]
  apiVIPs: [10.0.0.5]
  ingressVIPs: [10.0.0.6]
pools:
  master:
    uplinkInterface: eno1
    uplinkMTU: 1500
    nodes:
      - {name: m0, ip: 10.0.0.11, bootMAC: "aa:bb:cc:00:00:11", bmc: {address: "redfish-virtualmedia+https://10.9.0.11/redfish/v1/Systems/1", credentialsSecret: m0-bmc}, rootDeviceHints: {deviceName: /dev/sda, minSizeGigabytes: 100}, bootMode: UEFISecureBoot}
      - {name: m1, ip: 10.0.0.12, bootMAC: "aa:bb:cc:00:00:12", bmc: {address: "redfish-virtualmedia+https://10.9.0.12/redfish/v1/Systems/1", credentialsSecret: m1-bmc}}
      - name: m2
        ip: 10.0.0.13
        bootMAC: "aa:bb:cc:00:00:13"
        bmc: {address: "redfish-virtualmedia+https://10.9.0.13/redfish/v1/Systems/1", credentialsSecret: m2-bmc}
        interfaces: [{name: eno1, macAddress: "aa:bb:cc:00:00:13"}, {name: eno2, macAddress: "aa:bb:cc:00:01:13"}]
        networkConfig:
          interfaces:
            - {name: eno1, type: ethernet, state: up, ipv4: {enabled: true, dhcp: false, address: [{ip: 10.0.0.13, prefix-length: 24}]}}
  worker:
    uplinkInterface: eno1
    uplinkMTU: 1500
    nodes:
      - {name: w0, ip: 10.0.0.21, bootMAC: "aa:bb:cc:00:00:21", bmc: {address: "ipmi://10.9.0.21", credentialsSecret: w0-bmc}}
  infra:
    uplinkInterface: eno1
    uplinkMTU: 1500
    nodes:
      - {name: i0, ip: 10.0.0.31, bootMAC: "aa:bb:cc:00:00:31", bmc: {address: "ipmi://10.9.0.31", credentialsSecret: i0-bmc}}
install:
  sshKey: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHubTestKeyOnlyPublic lab"
  ntpSources: [ntp.example.com]
  hub:
    pullSecretRef: lab-pull-secret
    clusterImageSet: openshift-4.16
    clusterLabels: {env: lab}
` + extra
}

// snoSite is a single-node site.
func snoSite(method, platformName, extra string) string {
	return `apiVersion: siteforge.dev/v1alpha1
kind: Site
name: sno
cluster:
  baseDomain: example.com
  version: "4.16"
  platform: ` + platformName + `
  installMethod: ` + method + `
  lifecycle: install
network:
  machineNetwork: [10.0.1.0/24]
pools:
  master:
    uplinkInterface: eno1
    uplinkMTU: 1500
    nodes:
      - {name: sno0, ip: 10.0.1.11, bootMAC: "aa:bb:cc:00:01:11", bmc: {address: "redfish-virtualmedia+https://10.9.1.11/redfish/v1/Systems/1", credentialsSecret: sno0-bmc}}
install:
  hub:
    pullSecretRef: sno-pull-secret
    clusterImageSet: openshift-4.16
` + extra
}

func render(t *testing.T, src string) (*generators.Output, error) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "site.yaml")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return renderFile(t, p)
}

func renderFile(t *testing.T, p string) (*generators.Output, error) {
	t.Helper()
	res := load.Load([]string{p})
	if len(res.Diagnostics) > 0 {
		t.Fatalf("the site does not load:\n%v\nin %s", res.Diagnostics, p)
	}
	return generators.Render(res.Sites[0], generators.Options{})
}

func mustRender(t *testing.T, src string) *generators.Output {
	t.Helper()
	out, err := render(t, src)
	if err != nil {
		t.Fatalf("render: %v", err)
	}
	return out
}

// decodeCI strictly decodes the rendered ClusterInstance into the typed
// struct (unknown fields fail).
func decodeCI(t *testing.T, out *generators.Output) *upstream.ClusterInstance {
	t.Helper()
	data, ok := out.Files[hub.ClusterInstancePath]
	if !ok {
		t.Fatalf("no %s in %v", hub.ClusterInstancePath, out.Paths())
	}
	j, err := yaml.YAMLToJSON(data)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(j))
	dec.DisallowUnknownFields()
	ci := &upstream.ClusterInstance{}
	if err := dec.Decode(ci); err != nil {
		t.Fatalf("%s does not decode strictly: %v", hub.ClusterInstancePath, err)
	}
	return ci
}

// webhookProblems are the siteconfig admission webhook's checks
// (stolostron/siteconfig api/v1alpha1 clusterinstance_validation.go
// ValidateClusterInstance: templateRefs at both levels, control-plane
// count against clusterType).
func webhookProblems(ci *upstream.ClusterInstance) []string {
	var ps []string
	if len(ci.Spec.TemplateRefs) == 0 {
		ps = append(ps, "missing cluster-level template reference")
	}
	masters := 0
	for _, n := range ci.Spec.Nodes {
		if len(n.TemplateRefs) == 0 {
			ps = append(ps, "missing node-level template reference for node "+n.HostName)
		}
		if n.Role == "master" || n.Role == "" {
			masters++
		}
	}
	if masters < 1 {
		ps = append(ps, "at least 1 control-plane agent is required")
	}
	if ci.Spec.ClusterType == "SNO" && masters != 1 {
		ps = append(ps, "single node OpenShift cluster-type must have exactly 1 control-plane agent")
	}
	return ps
}

// checkCRD validates every rendered ClusterInstance against the upstream
// CRD (schema and CEL, fidelity.Check) when ../shared has it.
func checkCRD(t *testing.T, out *generators.Output) {
	t.Helper()
	if err := fidelity.RegisterClusterInstance(func() any { return &upstream.ClusterInstance{} }); err != nil {
		if errors.Is(err, fidelity.ErrNoSharedCRD) {
			t.Skipf("SKIPPING ClusterInstance CRD validation: %v", err)
		}
		t.Fatal(err)
	}
	if err := fidelity.Check(out.Files[hub.ClusterInstancePath]); err != nil {
		t.Errorf("%s against the CRD: %v", hub.ClusterInstancePath, err)
	}
}

func checkHubFiles(t *testing.T, out *generators.Output) {
	t.Helper()
	ci := decodeCI(t, out)
	for _, p := range webhookProblems(ci) {
		t.Errorf("siteconfig webhook: %s", p)
	}
	for _, err := range fidelity.CheckExtraManifestsRefs(out.Files, hub.ClusterInstancePath, platform.ExtraManifestKeyExtensions) {
		t.Error(err)
	}
	if err := fidelity.Check(out.Files[hub.NamespacePath]); err != nil {
		t.Error(err)
	}
	// hub/ is not the spoke's: no hub file in the site's kustomization.
	for _, r := range out.Resources {
		if strings.HasPrefix(r, hub.Dir+"/") {
			t.Errorf("hub file %s listed as a spoke resource", r)
		}
	}
	// hub/kustomization.yaml lists exactly the hub's objects.
	var k struct{ Resources []string }
	if err := yaml.Unmarshal(out.Files[hub.KustomizationPath], &k); err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, p := range out.Paths() {
		if strings.HasPrefix(p, hub.Dir+"/") && p != hub.KustomizationPath {
			want = append(want, strings.TrimPrefix(p, hub.Dir+"/"))
		}
	}
	if len(k.Resources) != len(want) {
		t.Errorf("hub kustomization lists %v, the hub files are %v", k.Resources, want)
	}
	checkCRD(t, out)
}

func TestHAClusterInstance(t *testing.T) {
	out := mustRender(t, haSite("assisted", ""))
	ci := decodeCI(t, out)
	s := ci.Spec
	if ci.Namespace != "lab" || ci.Name != "lab" || s.ClusterName != "lab" || s.BaseDomain != "example.com" {
		t.Errorf("identity: %s/%s %+v", ci.Namespace, ci.Name, s)
	}
	if s.PullSecretRef.Name != "lab-pull-secret" || s.ClusterImageSetNameRef != "openshift-4.16" || s.PlatformType != "BareMetal" || s.ClusterType != "HighlyAvailable" {
		t.Errorf("refs/platform: %+v", s)
	}
	if strings.Join(s.ApiVIPs, ",") != "10.0.0.5" || strings.Join(s.IngressVIPs, ",") != "10.0.0.6" {
		t.Errorf("VIPs %v %v", s.ApiVIPs, s.IngressVIPs)
	}
	if len(s.MachineNetwork) != 1 || s.MachineNetwork[0].CIDR != "10.0.0.0/24" || len(s.ClusterNetwork) != 1 || s.ClusterNetwork[0].HostPrefix != 23 || s.ServiceNetwork[0].CIDR != "172.30.0.0/16" || s.NetworkType != "OVNKubernetes" {
		t.Errorf("networks %+v %+v %+v", s.MachineNetwork, s.ClusterNetwork, s.ServiceNetwork)
	}
	if s.ExtraLabels["ManagedCluster"]["env"] != "lab" || strings.Join(s.AdditionalNTPSources, ",") != "ntp.example.com" || !strings.HasPrefix(s.SSHPublicKey, "ssh-ed25519 ") {
		t.Errorf("labels/ntp/ssh %+v", s)
	}
	bundled := platform.SiteconfigBundledTemplates["assisted"]
	if len(s.TemplateRefs) != 1 || s.TemplateRefs[0] != (upstream.TemplateRef{Name: bundled.Cluster, Namespace: platform.SiteconfigTemplatesNamespace}) {
		t.Errorf("templateRefs %v", s.TemplateRefs)
	}
	// Masters first, then the other pools in name order.
	var order []string
	for _, n := range s.Nodes {
		order = append(order, n.HostName+":"+n.Role)
		if len(n.TemplateRefs) != 1 || n.TemplateRefs[0].Name != bundled.Node {
			t.Errorf("node %s templateRefs %v", n.HostName, n.TemplateRefs)
		}
	}
	if got := strings.Join(order, ","); got != "m0:master,m1:master,m2:master,i0:worker,w0:worker" {
		t.Errorf("nodes %s", got)
	}
	m0, m2, i0 := s.Nodes[0], s.Nodes[2], s.Nodes[3]
	if m0.BmcCredentialsName.Name != "m0-bmc" || m0.BootMACAddress != "aa:bb:cc:00:00:11" || m0.BootMode != "UEFISecureBoot" ||
		m0.RootDeviceHints == nil || m0.RootDeviceHints.DeviceName != "/dev/sda" || m0.RootDeviceHints.MinSizeGigabytes != 100 || m0.NodeNetwork != nil {
		t.Errorf("m0 %+v", m0)
	}
	if m2.NodeNetwork == nil || len(m2.NodeNetwork.Interfaces) != 2 || m2.NodeNetwork.Interfaces[1].Name != "eno2" || !hasKey(m2.NodeNetwork.Config, "interfaces") {
		t.Errorf("m2 nodeNetwork %+v", m2.NodeNetwork)
	}
	if i0.NodeLabels["node-role.kubernetes.io/infra"] != "" || len(i0.NodeLabels) != 1 {
		t.Errorf("custom pool node labels %v", i0.NodeLabels)
	}
	// Day-0 manifests (the network config at least) in extra-manifests.
	if len(s.ExtraManifestsRefs) != 1 || s.ExtraManifestsRefs[0].Name != hub.ExtraManifestsName {
		t.Errorf("extraManifestsRefs %v", s.ExtraManifestsRefs)
	}
	if !bytes.Contains(out.Files["hub/extra-manifests.yaml"], []byte("cluster-network-03-config.yml: |")) {
		t.Errorf("extra-manifests lacks the network config:\n%s", out.Files["hub/extra-manifests.yaml"])
	}
	// Secrets named, never present.
	for p, b := range out.Files {
		if bytes.Contains(b, []byte("kind: Secret")) {
			t.Errorf("%s contains a Secret", p)
		}
	}
	checkHubFiles(t, out)
}

// TestSNOClusterInstance: one master is clusterType SNO, platform none
// becomes platformType None, no VIPs; image-based gets the ibi templates
// and no platformType (assisted flow only).
func TestSNOClusterInstance(t *testing.T) {
	for _, method := range []string{"assisted", "image-based"} {
		t.Run(method, func(t *testing.T) {
			out := mustRender(t, snoSite(method, "none", ""))
			ci := decodeCI(t, out)
			if ci.Spec.ClusterType != "SNO" || len(ci.Spec.ApiVIPs)+len(ci.Spec.IngressVIPs) != 0 {
				t.Errorf("SNO: %+v", ci.Spec)
			}
			wantPT := "None"
			if method == "image-based" {
				wantPT = ""
			}
			if ci.Spec.PlatformType != wantPT {
				t.Errorf("platformType %q, want %q", ci.Spec.PlatformType, wantPT)
			}
			if got, want := ci.Spec.TemplateRefs[0].Name, platform.SiteconfigBundledTemplates[method].Cluster; got != want {
				t.Errorf("template %s, want %s", got, want)
			}
			checkHubFiles(t, out)
		})
	}
}

// TestCustomTemplates: install.hub.templates and a namespace other than the
// cluster name are taken as given.
func TestCustomTemplates(t *testing.T) {
	out := mustRender(t, snoSite("assisted", "none", "    namespace: custom-ns\n    templates:\n      cluster: {name: my-cluster-tpl, namespace: tpl-ns}\n      node: {name: my-node-tpl, namespace: tpl-ns}\n"))
	ci := decodeCI(t, out)
	if ci.Namespace != "custom-ns" || ci.Spec.TemplateRefs[0] != (upstream.TemplateRef{Name: "my-cluster-tpl", Namespace: "tpl-ns"}) || ci.Spec.Nodes[0].TemplateRefs[0].Name != "my-node-tpl" {
		t.Errorf("custom templates: %s %+v", ci.Namespace, ci.Spec.TemplateRefs)
	}
	checkHubFiles(t, out)
}

// TestOtherSitesGetNoHubFiles: agent installs and running sites have no hub/.
func TestOtherSitesGetNoHubFiles(t *testing.T) {
	for _, src := range []string{
		strings.Replace(snoSite("agent", "none", ""), "  hub:\n    pullSecretRef: sno-pull-secret\n    clusterImageSet: openshift-4.16\n", "  ntpSources: [ntp.example.com]\n", 1),
		strings.Replace(snoSite("assisted", "none", ""), "lifecycle: install", "lifecycle: running", 1),
	} {
		out := mustRender(t, src)
		for _, p := range out.Paths() {
			if strings.HasPrefix(p, hub.Dir+"/") {
				t.Errorf("%s rendered for a site not installed from a hub", p)
			}
		}
	}
}

// TestExtraManifestsSplit: day-0 manifests larger together than one
// ConfigMap may be are split, deterministically, into extra-manifests and
// extra-manifests-2; every ConfigMap stays under the bound; every key is in
// exactly one of them.
func TestExtraManifestsSplit(t *testing.T) {
	// Three MachineConfigs of ~120 KiB each as JSON (Butane inline files): together
	// over the 192 KiB bound, each under it.
	var b strings.Builder
	b.WriteString("machineConfigs:\n")
	for i := 0; i < 3; i++ {
		fmt.Fprintf(&b, "  99-master-big-%d:\n    pool: master\n    butane: |\n      storage:\n        files:\n          - path: /etc/big-%d.txt\n            mode: 0644\n            contents:\n              inline: |\n", i, i)
		// Incompressible text (Butane gzips compressible contents).
		rnd := rand.New(rand.NewPCG(uint64(i), 1))
		raw := make([]byte, 72)
		for j := 0; j < 900; j++ {
			for k := range raw {
				raw[k] = byte(rnd.Uint32())
			}
			fmt.Fprintf(&b, "                %s\n", base64.StdEncoding.EncodeToString(raw))
		}
	}
	file := filepath.Join(t.TempDir(), "site.yaml")
	if err := os.WriteFile(file, []byte(haSite("assisted", b.String())), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := renderFile(t, file)
	if err != nil {
		t.Fatal(err)
	}
	ci := decodeCI(t, out)
	var refs []string
	for _, r := range ci.Spec.ExtraManifestsRefs {
		refs = append(refs, r.Name)
	}
	if len(refs) < 2 || refs[0] != "extra-manifests" || refs[1] != "extra-manifests-2" {
		t.Fatalf("extraManifestsRefs %v, want a split into extra-manifests, extra-manifests-2, ...", refs)
	}
	keys := map[string]int{}
	for _, r := range refs {
		data := out.Files[hub.Dir+"/"+r+".yaml"]
		j, err := yaml.YAMLToJSON(data)
		if err != nil {
			t.Fatal(err)
		}
		if len(j) > platform.ExtraManifestsConfigMapMaxBytes {
			t.Errorf("ConfigMap %s is %d bytes as JSON, over %d", r, len(j), platform.ExtraManifestsConfigMapMaxBytes)
		}
		var cm struct{ Data map[string]string }
		if err := yaml.Unmarshal(data, &cm); err != nil {
			t.Fatal(err)
		}
		for k := range cm.Data {
			keys[k]++
		}
	}
	for _, name := range out.Day0Names() {
		if keys[name] != 1 {
			t.Errorf("day-0 manifest %s is in %d ConfigMaps", name, keys[name])
		}
	}
	if len(keys) != len(out.Day0) {
		t.Errorf("%d keys for %d day-0 manifests", len(keys), len(out.Day0))
	}
	again, err := renderFile(t, file)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range out.Paths() {
		if !bytes.Equal(out.Files[p], again.Files[p]) {
			t.Errorf("%s differs between two renders", p)
		}
	}
	checkHubFiles(t, out)
}

// TestRefusals: a hub install the ClusterInstance cannot be written for is
// a positioned error (file:line:col of the user's field) with a hint.
func TestRefusals(t *testing.T) {
	noHub := strings.Replace(snoSite("assisted", "none", ""), "install:\n  hub:\n    pullSecretRef: sno-pull-secret\n    clusterImageSet: openshift-4.16\n", "install:\n  ntpSources: [ntp.example.com]\n", 1)
	noInstall := strings.Replace(snoSite("assisted", "none", ""), "install:\n  hub:\n    pullSecretRef: sno-pull-secret\n    clusterImageSet: openshift-4.16\n", "", 1)
	noBMC := strings.Replace(haSite("assisted", ""), `, bmc: {address: "ipmi://10.9.0.21", credentialsSecret: w0-bmc}`, "", 1)
	noMAC := strings.Replace(haSite("assisted", ""), `bootMAC: "aa:bb:cc:00:00:31", `, "", 1)
	countOnly := strings.Replace(haSite("assisted", ""), "    nodes:\n      - {name: w0, ip: 10.0.0.21, bootMAC: \"aa:bb:cc:00:00:21\", bmc: {address: \"ipmi://10.9.0.21\", credentialsSecret: w0-bmc}}\n", "    count: 2\n", 1)
	tests := []struct {
		name, src string
		want      string // "line:col: path: message prefix"
	}{
		{"install.hub missing", noHub, "18:1: install: installMethod \"assisted\" installs the cluster from a hub with a ClusterInstance: install.hub is required"},
		{"install missing", noInstall, "8:18: cluster.installMethod: installMethod \"assisted\" installs the cluster from a hub"},
		// refused when the site loads (internal/cluster/installcheck)
		{"node without bmc", noBMC, `33:9: pools.worker.nodes[0]: node w0 has no BMC:`},
		{"node without bootMAC", noMAC, `38:9: pools.infra.nodes[0]: node i0 has no boot MAC:`},
		{"pool with a count only", countOnly, `32:12: pools.worker.count: pool worker lists no nodes`},
		{"namespace other than the cluster name with bundled templates", snoSite("assisted", "none", "    namespace: other\n"), `22:16: install.hub.namespace: namespace "other" differs from the cluster name "sno"`},
		{"cloud platform", strings.Replace(haSite("assisted", ""), "platform: baremetal", "platform: aws\n  region: us-east-1", 1), `7:13: cluster.platform: platform "aws" cannot be installed from a hub`},
		{"single node on baremetal, assisted", snoSite("assisted", "baremetal", ""), `7:13: cluster.platform: a single-node cluster (1 control-plane node, no workers) on platform baremetal`},
		// stolostron/siteconfig api/v1alpha1 clusterinstance_types.go ApiVIPs:
		// +kubebuilder:validation:MaxItems=2 (TestCRDValidationBites "maxItems")
		{"three API VIPs", strings.Replace(haSite("assisted", ""), "apiVIPs: [10.0.0.5]", "apiVIPs: [10.0.0.5, 10.0.0.7, 10.0.0.8]", 1), `12:33: network.apiVIPs[2]: 3 API VIPs: a ClusterInstance takes at most 2 (siteconfig CRD maxItems), so the hub refuses it`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "site.yaml")
			if err := os.WriteFile(p, []byte(tc.src), 0o644); err != nil {
				t.Fatal(err)
			}
			var err error = diag.List(nil)
			if res := load.Load([]string{p}); len(res.Diagnostics) > 0 {
				err = res.Diagnostics
			} else {
				_, err = generators.Render(res.Sites[0], generators.Options{})
			}
			dl, ok := err.(diag.List)
			if !ok {
				t.Fatalf("got %v (%T), want a diag.List", err, err)
			}
			var got []string
			found := false
			for _, d := range dl {
				line := fmt.Sprintf("%d:%d: %s: %s", d.Pos.Line, d.Pos.Col, d.Path, d.Message)
				got = append(got, line)
				if strings.HasPrefix(line, tc.want) {
					found = true
					if d.Hint == "" || filepath.Base(d.Pos.File) != "site.yaml" {
						t.Errorf("%s: no hint or not at site.yaml: %+v", line, d)
					}
				}
			}
			if !found {
				t.Errorf("got\n  %s\nwant a diagnostic starting\n  %s", strings.Join(got, "\n  "), tc.want)
			}
		})
	}
}

// TestCRDValidationBites: the CRD check is not a no-op: a bad MAC (schema
// pattern), a bad clusterType (enum) and a field the typed struct lacks
// (strict decode) are refused.
func TestCRDValidationBites(t *testing.T) {
	out := mustRender(t, snoSite("assisted", "none", ""))
	checkCRD(t, out)
	good := string(out.Files[hub.ClusterInstancePath])
	for name, bad := range map[string]string{
		"pattern":       strings.Replace(good, "bootMACAddress: aa:bb:cc:00:01:11", "bootMACAddress: not-a-mac", 1),
		"enum":          strings.Replace(good, "clusterType: SNO", "clusterType: Single", 1),
		"unknown field": strings.Replace(good, "clusterType: SNO", "clusterType: SNO\n  holdInstallations: true", 1),
	} {
		if bad == good {
			t.Fatalf("%s: the replacement did not apply", name)
		}
		if err := fidelity.Check([]byte(bad)); err == nil {
			t.Errorf("%s: accepted:\n%s", name, bad)
		}
	}
	// maxItems 2 on apiVIPs (stolostron/siteconfig clusterinstance_types.go
	// ApiVIPs), the limit the install checks refuse a site's third VIP by
	// (TestRefusals "three API VIPs")
	ha := string(mustRender(t, haSite("assisted", "")).Files[hub.ClusterInstancePath])
	if err := fidelity.Check([]byte(ha)); err != nil {
		t.Fatalf("HA: %v", err)
	}
	three := strings.Replace(ha, "apiVIPs:\n  - 10.0.0.5\n", "apiVIPs:\n  - 10.0.0.5\n  - 10.0.0.7\n  - fd00::7\n", 1)
	if three == ha {
		t.Fatalf("maxItems: the replacement did not apply:\n%s", ha)
	}
	if err := fidelity.Check([]byte(three)); err == nil || !strings.Contains(err.Error(), "apiVIPs") {
		t.Errorf("maxItems: three API VIPs: %v", err)
	}
}

// mirrorBlock is a site's mirroring through one Quay cache with policy.
func mirrorBlock(policy string) string {
	return `mirroring:
  quayCache:
    host: quay.hub.example.com:8443
    policy: ` + policy + `
    orgs:
      ocp4-mirror: quay.io/openshift-release-dev
      registry-redhat-io: registry.redhat.io
`
}

// extraManifestKeys are the keys of every extra-manifests ConfigMap, and
// their headers.
func extraManifestKeys(t *testing.T, out *generators.Output) (keys []string, headers string) {
	t.Helper()
	for _, p := range out.Paths() {
		if !strings.HasPrefix(p, hub.Dir+"/"+hub.ExtraManifestsName) {
			continue
		}
		var cm corev1.ConfigMap
		if err := yaml.UnmarshalStrict(out.Files[p], &cm); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		for k := range cm.Data {
			keys = append(keys, k)
		}
		headers += string(out.Files[p])
	}
	sort.Strings(keys)
	return keys, headers
}

// TestMirrorSetsLeftOutOfAssistedExtraManifests: assisted-service writes the
// hub's mirrors into the install-config without a source policy
// (openshift/assisted-service internal/installcfg/builder/builder.go
// setImageDigestMirrorSet), whatever the release; a NeverContactSource
// mirror set for the same sources among the extra manifests makes MCO's
// bootstrap fail ("conflicting mirrorSourcePolicy"), so the day-0 copies stay
// out and the ClusterInstance header says so. AllowContactingSource copies,
// and an image-based install's mirror sets (stolostron/siteconfig
// docs/image_mirroring.md: the mirrors ARE the extra manifests), stay in.
func TestMirrorSetsLeftOutOfAssistedExtraManifests(t *testing.T) {
	const idms, itms = "imagedigestmirrorset-siteforge-digest-mirrors.yaml", "imagetagmirrorset-siteforge-tag-mirrors.yaml"
	tests := []struct {
		name, src string
		leftOut   bool
	}{
		{"assisted 4.16 NeverContactSource", haSite("assisted", mirrorBlock("NeverContactSource")), true},
		{"assisted 4.21 NeverContactSource", strings.ReplaceAll(haSite("assisted", mirrorBlock("NeverContactSource")), `"4.16"`, `"4.21"`), true},
		{"assisted 4.16 AllowContactingSource", haSite("assisted", mirrorBlock("AllowContactingSource")), false},
		{"image-based NeverContactSource", snoSite("image-based", "none", mirrorBlock("NeverContactSource")), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := mustRender(t, tt.src)
			checkHubFiles(t, out)
			keys, cmHeaders := extraManifestKeys(t, out)
			has := slices.Contains(keys, idms) && slices.Contains(keys, itms)
			none := !slices.Contains(keys, idms) && !slices.Contains(keys, itms)
			header := string(out.Files[hub.ClusterInstancePath])
			header = header[:strings.Index(header, "\napiVersion:")]
			flat := strings.Join(strings.Fields(strings.ReplaceAll(header, "#", "")), " ")
			if tt.leftOut {
				if !none {
					t.Errorf("extra manifests %v carry a NeverContactSource mirror set MCO's bootstrap refuses next to assisted-service's policy-less image-digest-mirror", keys)
				}
				for _, want := range []string{
					"Left out of the extra manifests: the day-0 copies of mirroring/" + idms + ", mirroring/" + itms + ".",
					"conflicting mirrorSourcePolicy",
					"After the installation, delete ImageDigestMirrorSet image-digest-mirror",
				} {
					if !strings.Contains(flat, want) {
						t.Errorf("ClusterInstance header lacks %q:\n%s", want, header)
					}
				}
				if !strings.Contains(strings.Join(strings.Fields(strings.ReplaceAll(cmHeaders, "#", "")), " "), "Left out on purpose: the day-0 copies of mirroring/"+idms) {
					t.Errorf("extra-manifests header does not say what is left out:\n%s", cmHeaders)
				}
			} else {
				if !has {
					t.Errorf("extra manifests %v lack the day-0 mirror sets", keys)
				}
				if strings.Contains(flat, "Left out") {
					t.Errorf("ClusterInstance header says something is left out:\n%s", header)
				}
			}
			if strings.Contains(flat, "must cover the sources") {
				t.Errorf("ClusterInstance header still asks the hub's registries.conf to cover the sources:\n%s", header)
			}
		})
	}
}

// hasKey reports whether cfg, a decoded NMState config, is a mapping with key.
func hasKey(cfg any, key string) bool {
	m, ok := cfg.(map[string]any)
	return ok && m[key] != nil
}

// TestClusterInstanceCarriesSiteFields: the ClusterInstance fields a site
// carries as written (install.hub, a node's hub section) and the ones it
// shares with install-config (install.cpuPartitioningMode, install.proxy)
// are rendered, a node's nodeLabels merged with its custom pool's role
// label, and the ClusterInstance still passes the CRD and the webhook.
func TestClusterInstanceCarriesSiteFields(t *testing.T) {
	src := strings.Replace(haSite("assisted", `    cpuArchitecture: x86_64
    holdInstallation: true
    installConfigOverrides: '{"capabilities": {"baselineCapabilitySet": "None"}}'
    ignitionConfigOverride: '{"ignition": {"version": "3.2.0"}}'
    extraAnnotations: {ManagedCluster: {"example.com/owner": "lab"}}
    suppressedManifests: [KlusterletAddonConfig]
    diskEncryption: {type: nbde, tang: [{url: "http://tang.example.com:7500", thumbprint: abc}]}
  cpuPartitioningMode: AllNodes
  proxy: {httpProxy: "http://proxy.example.com:3128", noProxy: ".example.com"}
`), `credentialsSecret: i0-bmc}}`, `credentialsSecret: i0-bmc}, hub: {nodeLabels: {"example.com/rack": "r1"}, installerArgs: '["--append-karg", "nosmt"]', ignitionConfigOverride: '{"ignition": {"version": "3.2.0"}}', automatedCleaningMode: metadata, ironicInspect: disabled, extraAnnotations: {BareMetalHost: {"example.com/a": "b"}}, suppressedManifests: [NMStateConfig]}}`, 1)
	out := mustRender(t, src)
	s := decodeCI(t, out).Spec
	want := upstream.ClusterInstanceSpec{
		CPUPartitioningMode: "AllNodes", Proxy: &upstream.Proxy{HTTPProxy: "http://proxy.example.com:3128", NoProxy: ".example.com"},
		CPUArchitecture: "x86_64", HoldInstallation: true,
		InstallConfigOverrides: `{"capabilities": {"baselineCapabilitySet": "None"}}`, IgnitionConfigOverride: `{"ignition": {"version": "3.2.0"}}`,
		ExtraAnnotations:    map[string]map[string]string{"ManagedCluster": {"example.com/owner": "lab"}},
		SuppressedManifests: []string{"KlusterletAddonConfig"},
		DiskEncryption:      &upstream.DiskEncryptionSpec{Type: "nbde", Tang: []upstream.TangServer{{URL: "http://tang.example.com:7500", Thumbprint: "abc"}}},
	}
	got := upstream.ClusterInstanceSpec{CPUPartitioningMode: s.CPUPartitioningMode, Proxy: s.Proxy, CPUArchitecture: s.CPUArchitecture,
		HoldInstallation: s.HoldInstallation, InstallConfigOverrides: s.InstallConfigOverrides, IgnitionConfigOverride: s.IgnitionConfigOverride,
		ExtraAnnotations: s.ExtraAnnotations, SuppressedManifests: s.SuppressedManifests, DiskEncryption: s.DiskEncryption}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("spec fields\n got %+v\nwant %+v", got, want)
	}
	i0 := s.Nodes[3]
	wantNode := upstream.NodeSpec{
		NodeLabels:    map[string]string{"node-role.kubernetes.io/infra": "", "example.com/rack": "r1"},
		InstallerArgs: `["--append-karg", "nosmt"]`, IgnitionConfigOverride: `{"ignition": {"version": "3.2.0"}}`,
		AutomatedCleaningMode: "metadata", IronicInspect: "disabled",
		ExtraAnnotations: map[string]map[string]string{"BareMetalHost": {"example.com/a": "b"}}, SuppressedManifests: []string{"NMStateConfig"},
	}
	gotNode := upstream.NodeSpec{NodeLabels: i0.NodeLabels, InstallerArgs: i0.InstallerArgs, IgnitionConfigOverride: i0.IgnitionConfigOverride,
		AutomatedCleaningMode: i0.AutomatedCleaningMode, IronicInspect: i0.IronicInspect, ExtraAnnotations: i0.ExtraAnnotations, SuppressedManifests: i0.SuppressedManifests}
	if i0.HostName != "i0" || !reflect.DeepEqual(gotNode, wantNode) {
		t.Errorf("node %s\n got %+v\nwant %+v", i0.HostName, gotNode, wantNode)
	}
	checkHubFiles(t, out)
}
