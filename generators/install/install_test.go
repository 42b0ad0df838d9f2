package install_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/siteforge/siteforge/generators"
	_ "github.com/siteforge/siteforge/generators/all"
	"github.com/siteforge/siteforge/generators/install"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/load"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/registries"
	"github.com/siteforge/siteforge/internal/site"
	"github.com/siteforge/siteforge/internal/upstream"
)

// renderExample renders examples/<name> (one site).
func renderExample(t *testing.T, name string) (*site.Site, *generators.Output) {
	t.Helper()
	res := load.Load([]string{filepath.Join("..", "..", "examples", name)})
	if len(res.Diagnostics) > 0 || len(res.Sites) != 1 {
		t.Fatalf("load %s: %v", name, res.Diagnostics)
	}
	out, err := generators.Render(res.Sites[0], generators.Options{})
	if err != nil {
		t.Fatalf("render %s: %v", name, err)
	}
	return res.Sites[0], out
}

// decodeStrict decodes a rendered YAML file (header comments included) into
// v, refusing unknown fields: every field siteforge writes is one of the
// installer's (json tags as in openshift/installer pkg/types).
func decodeStrict(t *testing.T, out *generators.Output, path string, v any) {
	t.Helper()
	data, ok := out.Files[path]
	if !ok {
		t.Fatalf("no %s", path)
	}
	j, err := yaml.YAMLToJSON(data)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	dec := json.NewDecoder(bytes.NewReader(j))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%s does not decode strictly: %v", path, err)
	}
}

// TestAgentExamples: the agent examples' install-config.yaml and
// agent-config.yaml decode strictly into the installer's types and say what
// the site says: networks, VIPs or platform none, replicas, hosts and their
// MACs, disks and NMState, rendezvousIP, NTP, SSH key, trust bundle, mirrors
// (and mirror/registries.conf); no pull secret.
func TestAgentExamples(t *testing.T) {
	for _, ex := range []string{"agent-sno", "disconnected-quay-cache"} {
		t.Run(ex, func(t *testing.T) {
			s, out := renderExample(t, ex)
			var ic upstream.InstallConfig
			decodeStrict(t, out, install.InstallConfigPath, &ic)
			if strings.Contains(string(out.Files[install.InstallConfigPath]), "\npullSecret:") {
				t.Errorf("install-config.yaml carries a pullSecret")
			}
			if ic.APIVersion != "v1" || ic.Metadata.Name != s.Cluster.Name || ic.BaseDomain != s.Cluster.BaseDomain {
				t.Errorf("identity %s %s %s", ic.APIVersion, ic.Metadata.Name, ic.BaseDomain)
			}
			n := ic.Networking
			var machine, cluster []string
			for _, m := range n.MachineNetwork {
				machine = append(machine, m.CIDR)
			}
			for _, c := range n.ClusterNetwork {
				cluster = append(cluster, fmt.Sprintf("%s/%d", c.CIDR, c.HostPrefix))
			}
			var wantCluster []string
			for _, c := range s.Network.ClusterNetwork {
				wantCluster = append(wantCluster, fmt.Sprintf("%s/%d", c.CIDR, c.HostPrefix))
			}
			if n.NetworkType != s.Network.Type || !reflect.DeepEqual(machine, s.Network.MachineNetwork) ||
				!reflect.DeepEqual(cluster, wantCluster) || !reflect.DeepEqual(n.ServiceNetwork, s.Network.ServiceNetwork) || n.ClusterNetworkMTU != 0 {
				t.Errorf("networking %+v", n)
			}
			switch s.Cluster.Platform {
			case site.PlatformNone:
				if ic.Platform.None == nil || ic.Platform.BareMetal != nil {
					t.Errorf("platform %+v, want none", ic.Platform)
				}
			case site.PlatformBareMetal:
				if ic.Platform.BareMetal == nil || !reflect.DeepEqual(ic.Platform.BareMetal.APIVIPs, s.Network.APIVIPs) || !reflect.DeepEqual(ic.Platform.BareMetal.IngressVIPs, s.Network.IngressVIPs) {
					t.Errorf("platform %+v, want baremetal with the site's VIPs", ic.Platform)
				}
			}
			masters, workers := 0, 0
			for _, name := range s.PoolNames() {
				if s.Pools[name].Role == site.RoleMaster {
					masters += s.Pools[name].Size()
				} else {
					workers += s.Pools[name].Size()
				}
			}
			if ic.ControlPlane == nil || ic.ControlPlane.Name != "master" || *ic.ControlPlane.Replicas != int64(masters) ||
				len(ic.Compute) != 1 || ic.Compute[0].Name != "worker" || *ic.Compute[0].Replicas != int64(workers) {
				t.Errorf("pools %+v %+v, want %d masters, %d workers", ic.ControlPlane, ic.Compute, masters, workers)
			}
			if ic.SSHKey == "" || ic.SSHKey != s.Install.SSHKey || ic.AdditionalTrustBundle != s.Install.AdditionalTrustBundle {
				t.Errorf("sshKey %q / additionalTrustBundle %q do not match the site", ic.SSHKey, ic.AdditionalTrustBundle)
			}

			// Mirrors: one entry per Quay organization, the upstream mirrored by the org.
			var got []string
			for _, src := range ic.ImageDigestSources {
				got = append(got, src.Source+" -> "+strings.Join(src.Mirrors, ","))
			}
			var want []string
			for org, upstream := range s.Mirroring.QuayCache.Orgs {
				want = append(want, upstream+" -> "+s.Mirroring.QuayCache.Host+"/"+org)
				// and the release repository itself, which the installer
				// matches exactly (GetMirrorFromRelease)
				if upstream == "quay.io/openshift-release-dev" {
					want = append(want, platform.OfficialReleaseRepository+" -> "+s.Mirroring.QuayCache.Host+"/"+org+"/ocp-release")
				}
			}
			slices.Sort(got)
			slices.Sort(want)
			if !reflect.DeepEqual(got, want) || len(ic.ImageContentSources) > 0 {
				t.Errorf("imageDigestSources %v, want %v", got, want)
			}
			conf, ok := out.Files[install.AgentRegistriesConfPath]
			if !ok {
				t.Fatalf("no %s", install.AgentRegistriesConfPath)
			}
			if err := registries.Load(conf); err != nil {
				t.Fatal(err)
			}
			for _, src := range ic.ImageDigestSources {
				ref := src.Source + "/x@sha256:" + strings.Repeat("a", 64)
				res, err := registries.Resolve(conf, ref)
				if err != nil {
					t.Fatal(err)
				}
				if a := res.Attempts(); len(a) == 0 || a[0].Location != src.Mirrors[0] {
					t.Errorf("%s resolves to %+v, want %s first", ref, a, src.Mirrors[0])
				}
			}

			var ac upstream.AgentConfig
			decodeStrict(t, out, install.AgentConfigPath, &ac)
			if ac.APIVersion != platform.AgentConfigAPIVersion || ac.Kind != "AgentConfig" || ac.Metadata.Name != s.Cluster.Name {
				t.Errorf("agent-config identity %s %s %s", ac.APIVersion, ac.Kind, ac.Metadata.Name)
			}
			if ac.RendezvousIP != s.Masters()[0].IP {
				t.Errorf("rendezvousIP %s, want the first master's %s", ac.RendezvousIP, s.Masters()[0].IP)
			}
			if !reflect.DeepEqual(ac.AdditionalNTPSources, s.Install.NTPSources) {
				t.Errorf("additionalNTPSources %v, want %v", ac.AdditionalNTPSources, s.Install.NTPSources)
			}
			hosts := map[string]upstream.AgentHost{}
			for _, h := range ac.Hosts {
				hosts[h.Hostname] = h
			}
			nodes := 0
			for _, name := range s.PoolNames() {
				p := s.Pools[name]
				for _, node := range p.Nodes {
					nodes++
					h, ok := hosts[node.Name]
					if !ok {
						t.Errorf("no host %s", node.Name)
						continue
					}
					role := "worker"
					if p.Role == site.RoleMaster {
						role = "master"
					}
					var macs []string
					for _, in := range h.Interfaces {
						macs = append(macs, in.MacAddress)
					}
					wantMACs := []string{node.BootMAC}
					if len(node.Interfaces) > 0 {
						wantMACs = nil
						for _, in := range node.Interfaces {
							wantMACs = append(wantMACs, in.MACAddress)
						}
					}
					if h.Role != role || !reflect.DeepEqual(macs, wantMACs) || !reflect.DeepEqual(h.RootDeviceHints, node.RootDeviceHints) || !sameJSON(t, h.NetworkConfig, node.NetworkConfig) {
						t.Errorf("host %s = %+v, want role %s, MACs %v and the node's disk and NMState", node.Name, h, role, wantMACs)
					}
					// A static address in NMState is the node's ip.
					if node.NetworkConfig != nil && !strings.Contains(fmt.Sprint(h.NetworkConfig), "ip:"+node.IP+" ") {
						t.Errorf("host %s networkConfig %v does not give it %s", node.Name, h.NetworkConfig, node.IP)
					}
				}
			}
			if len(ac.Hosts) != nodes {
				t.Errorf("%d hosts, want %d", len(ac.Hosts), nodes)
			}

			// Before 4.21 the installer's IDMS has no policy: the NeverContactSource day-0 copies
			// stay out of install/openshift, the day-0 network manifest goes in.
			for p := range out.Files {
				if strings.HasPrefix(p, "install/openshift/image") {
					t.Errorf("%s: a day-0 mirror set MCO's bootstrap would refuse", p)
				}
			}
			if _, ok := out.Files["install/openshift/"+platform.InstallerNetworkManifestName]; !ok {
				t.Errorf("no day-0 network manifest")
			}
		})
	}
}

// sameJSON compares two values by their JSON encoding (decoded NMState has
// float64 numbers where the site has ints).
func sameJSON(t *testing.T, a, b any) bool {
	t.Helper()
	ja, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	jb, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Equal(ja, jb)
}

// TestNoSecretsInOutput: no rendered file of the install examples carries a
// private key or a pull secret.
func TestNoSecretsInOutput(t *testing.T) {
	for _, ex := range []string{"agent-sno", "disconnected-quay-cache", "aws-local-zones-ipi"} {
		_, out := renderExample(t, ex)
		for p, data := range out.Files {
			for _, bad := range []string{"PRIVATE KEY", "\npullSecret:", `"auths"`} {
				if bytes.Contains(data, []byte(bad)) {
					t.Errorf("%s/%s contains %q", ex, p, bad)
				}
			}
		}
	}
}

// TestAWSIPIExample: install-config.yaml of the Local Zone site: the edge
// pool in its zone with its instance type, and no network manifest or
// clusterNetworkMTU of siteforge's (the installer writes 1200 itself, which
// is the site's plan).
func TestAWSIPIExample(t *testing.T) {
	s, out := renderExample(t, "aws-local-zones-ipi")
	var ic upstream.InstallConfig
	decodeStrict(t, out, install.InstallConfigPath, &ic)
	if ic.Platform.AWS == nil || ic.Platform.AWS.Region != s.Cluster.Region {
		t.Fatalf("platform %+v", ic.Platform)
	}
	pools := map[string]upstream.MachinePool{}
	for _, p := range ic.Compute {
		pools[p.Name] = p
	}
	edge, worker := pools["edge"], pools["worker"]
	if len(pools) != 2 || edge.Platform.AWS == nil || !reflect.DeepEqual(edge.Platform.AWS.Zones, []string{s.Pools["edge"].Zone}) ||
		edge.Platform.AWS.InstanceType != s.Pools["edge"].InstanceType || *edge.Replicas != int64(s.Pools["edge"].Size()) {
		t.Errorf("edge pool %+v", edge)
	}
	if worker.Platform.AWS == nil || worker.Platform.AWS.InstanceType != s.Pools["worker"].InstanceType || *worker.Replicas != 3 || len(worker.Platform.AWS.Zones) != 0 {
		t.Errorf("worker pool %+v", worker)
	}
	if cp := ic.ControlPlane; cp == nil || cp.Platform.AWS == nil || cp.Platform.AWS.InstanceType != s.Pools["master"].InstanceType || *cp.Replicas != 3 {
		t.Errorf("controlPlane %+v", ic.ControlPlane)
	}
	if ic.Networking.ClusterNetworkMTU != 0 {
		t.Errorf("clusterNetworkMTU %d: the installer's edge default is the plan", ic.Networking.ClusterNetworkMTU)
	}
	if _, ok := out.Files["install/manifests/"+platform.InstallerNetworkManifestName]; ok {
		t.Errorf("siteforge ships its own %s next to the installer's", platform.InstallerNetworkManifestName)
	}
}

// loadSite loads a site from source text.
func loadSite(t *testing.T, name, src string) *site.Site {
	t.Helper()
	l, err := load.New()
	if err != nil {
		t.Fatal(err)
	}
	res := l.LoadSource(name, []byte(src))
	if len(res.Diagnostics) > 0 {
		t.Fatalf("load: %v\n%s", res.Diagnostics, src)
	}
	return res.Sites[0]
}

const awsEdgeSite = `apiVersion: siteforge.dev/v1alpha1
kind: Site
name: lz
cluster: {baseDomain: example.com, version: "%s", platform: aws, region: us-east-1, installMethod: ipi, lifecycle: install}
network: {machineNetwork: ["10.0.0.0/16"], ipsec: %s}
pools:
  master: {uplinkInterface: ens5, uplinkMTU: 9001, count: 3}
  worker: {uplinkInterface: ens5, uplinkMTU: 9001, count: 3}
  edge: {role: worker, placement: %s, %s uplinkInterface: ens5, uplinkMTU: 9001, count: 1}
paths:
  - {between: [edge, master], mtu: 1300}
  - {between: [edge, worker], mtu: 1300}
`

// TestAWSEdgeMTU: with IPsec the site's cluster MTU (1300 - 146) is not the
// installer's edge default: install-config says it (clusterNetworkMTU, which
// the installer writes into its network manifest) and siteforge's manifest,
// which carries the IPsec configuration, says the same.
func TestAWSEdgeMTU(t *testing.T) {
	s := loadSite(t, "site.yaml", fmt.Sprintf(awsEdgeSite, "4.16", "Full", "aws-local-zone", "zone: us-east-1-nyc-1a,"))
	out, err := generators.Render(s, generators.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var ic upstream.InstallConfig
	decodeStrict(t, out, install.InstallConfigPath, &ic)
	if ic.Networking.ClusterNetworkMTU != 1154 {
		t.Errorf("clusterNetworkMTU %d, want 1300 - 146 = 1154", ic.Networking.ClusterNetworkMTU)
	}
	net, ok := out.Files["install/manifests/"+platform.InstallerNetworkManifestName]
	if !ok || !bytes.Contains(net, []byte("mtu: 1154")) || !bytes.Contains(net, []byte("ipsecConfig")) {
		t.Errorf("day-0 network manifest:\n%s", net)
	}
}

// TestPositionedErrors: what siteforge cannot turn into installer input is
// a diagnostic at the user's field, with a hint, and nothing is rendered.
func TestPositionedErrors(t *testing.T) {
	agent := func(version, workerNodes, master string) string {
		// three control-plane nodes: the agent installer installs a single
		// node only without workers
		others := "      - {name: m1, ip: 192.168.1.11}\n      - {name: m2, ip: 192.168.1.12}"
		if strings.Contains(master, "bootMAC") {
			others = "      - {name: m1, ip: 192.168.1.11, bootMAC: \"52:54:00:00:00:11\"}\n      - {name: m2, ip: 192.168.1.12, bootMAC: \"52:54:00:00:00:12\"}"
		}
		master += "\n" + others
		return fmt.Sprintf(`apiVersion: siteforge.dev/v1alpha1
kind: Site
name: lab
cluster: {baseDomain: example.com, version: "%s", platform: none, installMethod: agent, lifecycle: install}
network: {machineNetwork: ["192.168.1.0/24"]}
pools:
  master:
    uplinkInterface: eno1
    uplinkMTU: 1500
    nodes:
      - %s
  worker:
    uplinkInterface: eno1
    uplinkMTU: 1500
    nodes:
%s`, version, master, workerNodes)
	}
	const okMaster = `{name: m0, ip: 192.168.1.10, bootMAC: "52:54:00:00:00:10"}`
	tests := []struct {
		name, src       string
		path, msg, hint string
		line            int
	}{
		{"node without a MAC among nodes with MACs",
			agent("4.16", "      - {name: w0, ip: 192.168.1.20, bootMAC: \"52:54:00:00:00:20\"}\n      - {name: w1, ip: 192.168.1.21}\n", okMaster),
			"pools.worker.nodes[1]", "node w1 has no MAC address", "add bootMAC", 19},
		{"WWN extension hint",
			agent("4.16", "      - {name: w0, ip: 192.168.1.20, bootMAC: \"52:54:00:00:00:20\"}\n", `{name: m0, ip: 192.168.1.10, bootMAC: "52:54:00:00:00:10", rootDeviceHints: {wwnWithExtension: "0x5000c500a0b1c2d3"}}`),
			"pools.master.nodes[0].rootDeviceHints.wwnWithExtension", "WWN extensions are not supported", "use wwn", 11},
		{"agent before 4.12",
			agent("4.11", "      - {name: w0, ip: 192.168.1.20}\n", okMaster),
			"cluster.installMethod", "reads from OpenShift 4.12", "install OpenShift 4.12", 4},
		{"edge pool without a zone",
			fmt.Sprintf(awsEdgeSite, "4.16", "Disabled", "aws-local-zone", ""),
			"pools.edge", "names no zone", "set zone", 9},
		{"Local Zone edge pool before 4.14",
			fmt.Sprintf(awsEdgeSite, "4.13", "Disabled", "aws-local-zone", "zone: us-east-1-nyc-1a,"),
			"pools.edge.placement", "from OpenShift 4.14", "install OpenShift 4.14", 9},
		{"two instance types in the worker pool",
			`apiVersion: siteforge.dev/v1alpha1
kind: Site
name: two
cluster: {baseDomain: example.com, version: "4.16", platform: aws, region: us-east-1, installMethod: ipi, lifecycle: install}
network: {machineNetwork: ["10.0.0.0/16"]}
pools:
  master: {uplinkInterface: ens5, uplinkMTU: 9001, count: 3}
  worker: {uplinkInterface: ens5, uplinkMTU: 9001, count: 3, instanceType: m6i.xlarge}
  infra: {uplinkInterface: ens5, uplinkMTU: 9001, count: 3, instanceType: r6i.xlarge}
`,
			"pools.worker.instanceType", "one instance type: infra has r6i.xlarge, worker has m6i.xlarge", "give the pools the same instanceType", 8},
		{"Wavelength edge pool before 4.15",
			fmt.Sprintf(awsEdgeSite, "4.14", "Disabled", "aws-wavelength", "zone: us-east-1-wl1-bos-wlz-1,"),
			"pools.edge.placement", "from OpenShift 4.15", "install OpenShift 4.15", 9},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := loadSite(t, "site.yaml", tt.src)
			out, err := generators.Render(s, generators.Options{})
			dl, ok := err.(diag.List)
			if !ok || out != nil {
				t.Fatalf("Render = %v, %v; want a diag.List and no output", out, err)
			}
			var found *diag.Diagnostic
			for i := range dl {
				if dl[i].Path == tt.path {
					found = &dl[i]
				}
			}
			if found == nil {
				t.Fatalf("no diagnostic at %s: %v", tt.path, dl)
			}
			if !strings.Contains(found.Message, tt.msg) || !strings.Contains(found.Hint, tt.hint) || found.Pos.Line != tt.line || found.Pos.File != "site.yaml" {
				t.Errorf("diagnostic %s:%d: %s (hint %s), want line %d, %q, hint %q", found.Pos.File, found.Pos.Line, found.Message, found.Hint, tt.line, tt.msg, tt.hint)
			}
		})
	}
	// The passing counterparts: every node with a MAC, or none at all (no hosts).
	for _, src := range []string{
		agent("4.16", "      - {name: w0, ip: 192.168.1.20, bootMAC: \"52:54:00:00:00:20\"}\n", okMaster),
		agent("4.16", "      - {name: w0, ip: 192.168.1.20}\n", `{name: m0, ip: 192.168.1.10}`),
		fmt.Sprintf(awsEdgeSite, "4.15", "Disabled", "aws-wavelength", "zone: us-east-1-wl1-bos-wlz-1,"),
	} {
		if _, err := generators.Render(loadSite(t, "site.yaml", src), generators.Options{}); err != nil {
			t.Errorf("render: %v\n%s", err, src)
		}
	}
}

// TestIncompleteSiteWarns: an agent site whose masters are counted, not
// listed, and which names no rendezvous host cannot have an agent-config:
// a warning at the field, no installer files, everything else rendered.
func TestIncompleteSiteWarns(t *testing.T) {
	s := loadSite(t, "site.yaml", `apiVersion: siteforge.dev/v1alpha1
kind: Site
name: lab
cluster: {baseDomain: example.com, version: "4.16", platform: none, installMethod: agent, lifecycle: install}
network: {machineNetwork: ["192.168.1.0/24"]}
pools:
  master: {uplinkInterface: eno1, uplinkMTU: 1500, count: 1}
`)
	out, err := generators.Render(s, generators.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := out.Files[install.InstallConfigPath]; ok {
		t.Errorf("install-config.yaml written for a site without a rendezvous host")
	}
	if _, ok := out.Files["install/openshift/"+platform.InstallerNetworkManifestName]; !ok {
		t.Errorf("the day-0 manifests are not placed")
	}
	found := false
	for _, w := range out.Warnings {
		if w.Path == "pools" && strings.Contains(w.Message, "rendezvous IP") && strings.Contains(w.Message, "are not written") && w.Pos.Line == 6 {
			found = true
		}
	}
	if !found {
		t.Errorf("warnings %v, want the missing rendezvous IP at pools (line 6)", out.Warnings)
	}
	if _, err := generators.Render(s, generators.Options{Strict: true}); err == nil {
		t.Errorf("--strict renders an incomplete install")
	}
}

// TestSharedInstallFields: install.cpuPartitioningMode and install.proxy
// reach install-config.yaml (installer pkg/types/installconfig.go
// InstallConfig CPUPartitioning, Proxy), which still decodes strictly; a
// site without them writes neither.
func TestSharedInstallFields(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "examples", "agent-sno", "site.cue"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	add := "\ninstall: cpuPartitioningMode: \"AllNodes\"\ninstall: proxy: {httpProxy: \"http://proxy.example.com:3128\", noProxy: \".example.com\"}\n"
	if err := os.WriteFile(filepath.Join(dir, "site.cue"), append(src, add...), 0o644); err != nil {
		t.Fatal(err)
	}
	res := load.Load([]string{dir})
	if len(res.Diagnostics) > 0 {
		t.Fatal(res.Diagnostics)
	}
	out, err := generators.Render(res.Sites[0], generators.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var ic upstream.InstallConfig
	decodeStrict(t, out, install.InstallConfigPath, &ic)
	if ic.CPUPartitioning != "AllNodes" || ic.Proxy == nil || *ic.Proxy != (upstream.Proxy{HTTPProxy: "http://proxy.example.com:3128", NoProxy: ".example.com"}) {
		t.Errorf("cpuPartitioningMode %q, proxy %+v", ic.CPUPartitioning, ic.Proxy)
	}
	_, plain := renderExample(t, "agent-sno")
	var without upstream.InstallConfig
	decodeStrict(t, plain, install.InstallConfigPath, &without)
	if without.CPUPartitioning != "" || without.Proxy != nil {
		t.Errorf("a site without them writes cpuPartitioningMode %q, proxy %+v", without.CPUPartitioning, without.Proxy)
	}
}
