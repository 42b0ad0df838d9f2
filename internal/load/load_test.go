package load

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"

	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/fleetgen"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/site"
	"github.com/siteforge/siteforge/schema"
)

// goodYAML is a valid site; cases below break one thing each, so the
// expected line numbers refer to this text.
const goodYAML = `apiVersion: siteforge.dev/v1alpha1
kind: Site
name: lab-1
cluster:
  baseDomain: example.com
  version: "4.16"
  platform: baremetal
  installMethod: agent
  lifecycle: install
network:
  machineNetwork: ["192.168.10.0/24"]
  apiVIPs: ["192.168.10.5"]
pools:
  master:
    uplinkInterface: eno1
    uplinkMTU: 1500
    count: 3
  worker:
    uplinkInterface: eno1
    uplinkMTU: 9000
`

const goodCUE = `package site

apiVersion: "siteforge.dev/v1alpha1"
kind:       "Site"
name:       "lab-1"
cluster: {
	baseDomain:    "example.com"
	version:       "4.16"
	platform:      "baremetal"
	installMethod: "agent"
	lifecycle:     "install"
}
network: machineNetwork: ["192.168.10.0/24"]
pools: master: {
	uplinkInterface: "eno1"
	uplinkMTU:       1500
}
`

func newLoader(t testing.TB) *Loader {
	t.Helper()
	l, err := New()
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestLoadSourceValid(t *testing.T) {
	l := newLoader(t)
	for name, src := range map[string]string{"site.yaml": goodYAML, "site.cue": goodCUE} {
		res := l.LoadSource(name, []byte(src))
		if len(res.Diagnostics) > 0 {
			t.Fatalf("%s: unexpected diagnostics:\n%v", name, res.Diagnostics)
		}
		s := res.Sites[0]
		if s.Name != "lab-1" || s.Cluster.Name != "lab-1" {
			t.Errorf("%s: name %q cluster name %q, want lab-1 (cluster name defaults to the site name)", name, s.Name, s.Cluster.Name)
		}
		if s.Network.Type != "OVNKubernetes" || s.Network.ServiceNetwork[0] != "172.30.0.0/16" || s.Network.ClusterNetwork[0].HostPrefix != 23 {
			t.Errorf("%s: schema defaults not applied: %+v", name, s.Network)
		}
		if s.Pools["master"].Role != "master" || s.Pools["master"].Placement != "plain" {
			t.Errorf("%s: pool defaults: %+v", name, s.Pools["master"])
		}
		if s.Cluster.Connectivity != "connected" {
			t.Errorf("%s: connectivity default %q", name, s.Cluster.Connectivity)
		}
	}
	// Positions point into the user's file.
	res := l.LoadSource("site.yaml", []byte(goodYAML))
	s := res.Sites[0]
	if got := s.Positions.Of("pools.worker.uplinkMTU"); got.String() != "site.yaml:20:16" {
		t.Errorf("position of pools.worker.uplinkMTU = %s, want site.yaml:20:16 (the value)", got)
	}
	// A field the user did not write (a default) falls back to its nearest
	// written ancestor.
	if got := s.Positions.Of("network.type"); got.String() != "site.yaml:10:1" {
		t.Errorf("position of network.type = %s, want site.yaml:10:1", got)
	}
}

// TestLoadYAMLFloatTaggedInteger: an integer YAML reads as a float (tagged
// !!float) is the number it says, as Kubernetes' YAML reads it: CUE's YAML
// decoder wrote it `number & 1500` into one literal, refused as "illegal
// number start" (numberLiterals).
func TestLoadYAMLFloatTaggedInteger(t *testing.T) {
	l := newLoader(t)
	src := strings.Replace(goodYAML, "uplinkMTU: 1500", "uplinkMTU: !!float 1500", 1)
	res := l.LoadSource("site.yaml", []byte(src))
	if len(res.Diagnostics) > 0 || len(res.Sites) != 1 {
		t.Fatalf("diagnostics:\n%v", res.Diagnostics)
	}
	if got := res.Sites[0].Pools["master"].UplinkMTU; got != 1500 {
		t.Fatalf("uplinkMTU %d, want 1500", got)
	}
}

func TestLoadSourceErrors(t *testing.T) {
	l := newLoader(t)
	cases := []struct {
		name, file, src string
		// want: each entry must match one diagnostic's Error() text
		want []string
		// count is the exact number of diagnostics (0: len(want))
		count int
	}{
		{
			name: "misspelled field",
			file: "site.yaml",
			src:  strings.Replace(goodYAML, "    uplinkMTU: 9000", "    uplinkMtu: 9000", 1),
			want: []string{`site.yaml:20:5: error: pools.worker: field "uplinkMtu" is not allowed (did you mean "uplinkMTU"?)`},
		},
		{
			// the list's default (*[{cidr: ..., hostPrefix: 23}]) is an
			// open value: the element is checked against #ClusterNetwork
			// (the site was dropped without a word, exit 0)
			name: "unknown field in an element of a list with a default",
			file: "site.yaml",
			src:  strings.Replace(goodYAML, `  apiVIPs: ["192.168.10.5"]`, `  apiVIPs: ["192.168.10.5"]`+"\n"+`  clusterNetwork: [{cidr: "10.128.0.0/14", hostPrefix: 23, CIDR: x}]`, 1),
			want: []string{`site.yaml:13:60: error: network.clusterNetwork[0]: field "CIDR" is not allowed (did you mean "cidr"?)`},
		},
		{
			// CUE's YAML decoder wrote `number & <digits>` into one
			// literal, which the compiler refused as "illegal number
			// start"; as a number, the rendered YAML would change it
			name: "integer beyond 64 bits in networkConfig",
			file: "site.yaml",
			src: strings.Replace(goodYAML, "    count: 3", "    count: 3\n"+
				`    nodes: [{name: m0, ip: 192.168.10.11, networkConfig: {interfaces: [{name: eno1, mtu: -123456789012345678901234567890, x: [1, 18446744073709551615]}]}}]`, 1),
			want: []string{`site.yaml:18:90: error: pools.master.nodes[0].networkConfig.interfaces[0].mtu: -123456789012345678901234567890 does not fit in 64 bits`},
		},
		{
			name: "integer beyond 64 bits in networkConfig CUE",
			file: "site.cue",
			src: strings.Replace(goodCUE, "	uplinkMTU:       1500\n", "	uplinkMTU:       1500\n"+
				`	nodes: [{name: "m0", ip: "192.168.10.11", networkConfig: interfaces: [{name: "eno1", mtu: 18446744073709551616}]}]`+"\n", 1),
			want:  []string{`site.cue:17:92: error: pools.master.nodes[0].networkConfig.interfaces[0].mtu: 18446744073709551616 does not fit in 64 bits`},
			count: 2, // and goodCUE's single node on baremetal (INS004)
		},
		{
			name: "misspelled field CUE",
			file: "site.cue",
			src:  strings.Replace(goodCUE, "baseDomain:", "basedomain:", 1),
			want: []string{`site.cue:7:2: error: cluster: field "basedomain" is not allowed (did you mean "baseDomain"?)`},
		},
		{
			name: "wrong type",
			file: "site.yaml",
			src:  strings.Replace(goodYAML, "count: 3", `count: "three"`, 1),
			want: []string{`site.yaml:17:12: error: pools.master.count: "three" has the wrong type (must be a non-negative integer of at most 10000)`},
		},
		{
			name: "out of range",
			file: "site.yaml",
			src:  strings.Replace(goodYAML, "uplinkMTU: 9000", "uplinkMTU: 90000", 1),
			want: []string{`site.yaml:20:16: error: pools.worker.uplinkMTU: 90000 is out of range (must be an integer from 576 to 65536)`},
		},
		{
			name: "below range",
			file: "site.cue",
			src:  strings.Replace(goodCUE, "uplinkMTU:       1500", "uplinkMTU:       500", 1),
			want: []string{`site.cue:16:19: error: pools.master.uplinkMTU: 500 is out of range (must be an integer from 576 to 65536)`},
		},
		{
			name: "missing required field",
			file: "site.yaml",
			src:  strings.Replace(goodYAML, "  installMethod: agent\n", "", 1),
			want: []string{`site.yaml:4:1: error: cluster: missing required field "installMethod" (add installMethod: <one of "ipi", "upi", "agent", "assisted", "image-based">)`},
		},
		{
			name: "missing list",
			file: "site.cue",
			src:  strings.Replace(goodCUE, `network: machineNetwork: ["192.168.10.0/24"]`, `network: type: "OVNKubernetes"`, 1),
			want: []string{`site.cue:13:1: error: network: missing required field "machineNetwork"`},
		},
		{
			name: "enum with suggestion",
			file: "site.yaml",
			src:  strings.Replace(goodYAML, "platform: baremetal", "platform: baremetl", 1),
			want: []string{`site.yaml:7:13: error: cluster.platform: "baremetl" is not allowed (did you mean "baremetal"? must be one of "aws", "azure", "gcp", "vsphere", "baremetal", "openstack", "nutanix", "none")`},
		},
		{
			name: "pattern",
			file: "site.yaml",
			src:  strings.Replace(goodYAML, `version: "4.16"`, `version: "4.9"`, 1),
			want: []string{`site.yaml:6:12: error: cluster.version: "4.9" is not valid (must be an OpenShift version "4.N" or "4.N.z", 4.10 or later`},
		},
		{
			name: "YAML number version",
			file: "site.yaml",
			src:  strings.Replace(goodYAML, `version: "4.16"`, `version: 4.16`, 1),
			want: []string{`site.yaml:6:12: error: cluster.version: 4.16 has the wrong type (must be an OpenShift version`},
		},
		{
			name: "bad IP",
			file: "site.yaml",
			src:  strings.Replace(goodYAML, `apiVIPs: ["192.168.10.5"]`, `apiVIPs: ["192.168.10.500"]`, 1),
			want: []string{`site.yaml:12:13: error: network.apiVIPs[0]: "192.168.10.500" is not valid (must be an IP address)`},
		},
		{
			name: "bad pool name",
			file: "site.yaml",
			src:  strings.Replace(goodYAML, "  worker:", "  Worker_1:", 1),
			want: []string{`site.yaml:18:3: error: pools: key "Worker_1" is not valid here (must be a DNS-1123 label`},
		},
		{
			name: "unknown top-level field YAML",
			file: "site.yaml",
			src:  goodYAML + "extra: true\n",
			want: []string{`site.yaml:21:1: error: field "extra" is not allowed (allowed fields: apiVersion, cluster, delivery, egress,`},
		},
		{
			name: "unknown top-level field CUE",
			file: "site.cue",
			src:  goodCUE + "pool: {}\n",
			want: []string{`site.cue:18:1: error: field "pool" is not allowed (did you mean "pools"?)`},
		},
		{
			name: "all errors at once",
			file: "site.yaml",
			src: strings.NewReplacer("uplinkMTU: 9000", "uplinkMtu: 9000", "count: 3", "count: -1",
				"platform: baremetal", "platform: metal").Replace(goodYAML) + "bogus: 1\n",
			want: []string{
				`site.yaml:7:13: error: cluster.platform: "metal" is not allowed`,
				`site.yaml:17:12: error: pools.master.count: -1 is out of range`,
				`site.yaml:20:5: error: pools.worker: field "uplinkMtu" is not allowed`,
				`site.yaml:21:1: error: field "bogus" is not allowed`,
			},
		},
		{
			name:  "CUE syntax error",
			file:  "site.cue",
			src:   strings.Replace(goodCUE, `name:       "lab-1"`, `name:       "lab-1`, 1),
			want:  []string{`site.cue:5:13: error: syntax error: string literal not terminated`},
			count: -1,
		},
		{
			name:  "YAML syntax error",
			file:  "site.yaml",
			src:   strings.Replace(goodYAML, "  platform: baremetal", "  platform: [baremetal", 1),
			want:  []string{`site.yaml:`, `error: syntax error: `},
			count: -1,
		},
		{
			name:  "YAML bad indentation",
			file:  "site.yaml",
			src:   strings.Replace(goodYAML, "  version:", "   version:", 1),
			want:  []string{`site.yaml:6:`, `syntax error: mapping values are not allowed in this context`},
			count: -1,
		},
		{
			name:  "JSON syntax error",
			file:  "site.json",
			src:   `{"apiVersion": "siteforge.dev/v1alpha1",` + "\n" + `"kind": }`,
			want:  []string{`site.json:2:9: error: syntax error:`},
			count: -1,
		},
		{
			name: "empty file",
			file: "site.yaml",
			src:  "",
			want: []string{`site.yaml:1:1: error: empty site file (a site needs at least apiVersion, kind, name, cluster, network and pools`},
		},
		{
			name: "comments only",
			file: "site.cue",
			src:  "// nothing yet\n\n",
			want: []string{`site.cue:1:1: error: empty site file`},
		},
		{
			name: "binary garbage",
			file: "site.yaml",
			src:  "apiVersion: x\n\x89PNG\r\n\x1a\n\x00\x00",
			want: []string{`site.yaml:2:1: error: not UTF-8 text: invalid byte 0x89 at offset 14 (site files are UTF-8 text; is this a binary file?)`},
		},
		{
			name: "NUL byte",
			file: "site.cue",
			src:  "name: \"a\x00\"",
			want: []string{`site.cue:1:9: error: not text: NUL byte at offset 8`},
		},
		{
			name: "list instead of mapping",
			file: "site.yaml",
			src:  "- a\n- b\n",
			want: []string{`site.yaml:1:1: error: a site is a mapping of fields, not a list`},
		},
		{
			name: "two YAML documents",
			file: "site.yaml",
			src:  goodYAML + "---\n" + goodYAML,
			want: []string{`site.yaml:1:1: error: a site is a mapping of fields, not a list (several YAML documents or a top-level list)`},
		},
		{
			name: "wrong apiVersion",
			file: "site.yaml",
			src:  strings.Replace(goodYAML, "siteforge.dev/v1alpha1", "siteforge.dev/v1", 1),
			want: []string{`site.yaml:1:13: error: apiVersion: "siteforge.dev/v1" is not valid (must be "siteforge.dev/v1alpha1")`},
		},
		{
			name: "unknown pool reference",
			file: "site.yaml",
			src:  goodYAML + "egress:\n  assignablePools: [wrker]\n",
			want: []string{`site.yaml:22:21: error: egress.assignablePools[0]: pool "wrker" does not exist (did you mean "worker"? known pools: master, worker)`},
		},
		{
			name: "misspelled pool in a path",
			file: "site.yaml",
			src:  goodYAML + "paths:\n  - between: [master, wroker]\n    mtu: 1400\n",
			want: []string{`site.yaml:22:23: error: paths[0].between[1]: pool "wroker" does not exist (did you mean "worker"? known pools: master, worker)`},
		},
		{
			name: "misspelled pool of a shard",
			file: "site.yaml",
			src:  goodYAML + "ingress:\n  shards:\n    edge:\n      domain: edge.example.com\n      pools: [mastr]\n      routeSelector: {matchLabels: {type: edge}}\n",
			want: []string{`site.yaml:25:15: error: ingress.shards.edge.pools[0]: pool "mastr" does not exist (did you mean "master"? known pools: master, worker)`},
		},
		{
			name: "misspelled interface in a node's networkConfig",
			file: "site.yaml",
			src: goodYAML + `    nodes:
      - name: w0
        ip: 192.168.10.20
        interfaces: [{name: eno1, macAddress: "52:54:00:00:00:20"}]
        networkConfig:
          interfaces:
            - {name: bond0, type: bond, link-aggregation: {mode: active-backup, port: [eno1]}}
            - {name: bond0.10, type: vlan, vlan: {base-iface: bnod0, id: 10}}
`,
			want: []string{`site.yaml:28:63: error: pools.worker.nodes[0].networkConfig.interfaces[1].vlan."base-iface": VLAN base interface bnod0 in node w0's networkConfig is not one of its NICs (eno1) nor an interface the config defines, and not a physical NIC name: the host has no such interface (did you mean "bond0"? known interfaces of node w0: eno1, bond0, bond0.10; or add {name: bnod0, macAddress: ...} to the node's interfaces)`},
		},
		{
			name: "unknown pool reference, nothing near",
			file: "site.yaml",
			src:  goodYAML + "egress:\n  assignablePools: [storage]\n",
			want: []string{`site.yaml:22:21: error: egress.assignablePools[0]: pool "storage" does not exist (known pools: master, worker)`},
		},
		{
			name: "misspelled MachineConfigPool",
			file: "site.yaml",
			src:  goodYAML + "machineConfigs:\n  99-x:\n    pool: wroker\n    butane: \"variant: openshift\"\n",
			want: []string{`site.yaml:23:11: error: machineConfigs."99-x".pool: "wroker" is not a MachineConfigPool of this site (did you mean "worker"? known MachineConfigPools (master, worker and each pool with role custom): master, worker)`},
		},
		{
			name: "a node's hub section on an agent install",
			file: "site.yaml",
			src:  goodYAML + "    nodes:\n      - name: w0\n        hub: {nodeLabels: {a: b}}\n",
			want: []string{`site.yaml:23:9: error: pools.worker.nodes[0].hub: node w0 has a hub section, but installMethod "agent" is not installed from a hub: nothing reads it`},
		},
		{
			name: "cpuPartitioningMode before 4.13",
			file: "site.yaml",
			src:  strings.Replace(goodYAML, `version: "4.16"`, `version: "4.12"`, 1) + "install:\n  cpuPartitioningMode: AllNodes\n",
			want: []string{`site.yaml:22:24: error: install.cpuPartitioningMode: cpuPartitioningMode needs OpenShift 4.13 or later, this is 4.12`},
		},
		{
			name: "proxy URL with a password",
			file: "site.yaml",
			src:  goodYAML + "install:\n  proxy: {httpProxy: \"http://user:hunter2@proxy.example.com:3128\"}\n",
			want: []string{`site.yaml:22:22: error: install.proxy.httpProxy: "http://user:hunter2@proxy.example.com:3128" is not valid (must be an http:// proxy URL without user-info (no credentials)`},
		},
		{
			name: "ClusterInstance JSON texts",
			file: "site.yaml",
			src: strings.NewReplacer("installMethod: agent", "installMethod: assisted", "    count: 3\n", `    nodes:
      - name: m0
        bootMAC: "52:54:00:00:00:01"
        bmc: {address: "redfish-virtualmedia://10.0.0.1/redfish/v1/Systems/1", credentialsSecret: m0-bmc}
        hub:
          installerArgs: '["--append-karg", 1]'
          ignitionConfigOverride: '{"storage": {"files": [{"path": "/var/lib/kubelet/config.json", "contents": {"source": "data:,x"}}]}}'
`).Replace(goodYAML) + "install:\n  hub:\n    pullSecretRef: ps\n    clusterImageSet: openshift-4.16\n    installConfigOverrides: '[1]'\n",
			want: []string{
				`site.yaml:22:26: error: pools.master.nodes[0].hub.installerArgs: installerArgs is a JSON list with an element that is not a string: coreos-installer takes its arguments as strings (write it as JSON: '["--append-karg", "rd.multipath=default"]') [INS022]`,
				`site.yaml:23:35: error: pools.master.nodes[0].hub.ignitionConfigOverride: the text holds the kubelet's copy of the global pull secret (/var/lib/kubelet/config.json): a site never embeds credentials`,
				`site.yaml:31:29: error: install.hub.installConfigOverrides: installConfigOverrides is not a JSON object: assisted-service merges it into the install-config or the Ignition config as one (write it as JSON: '{"key": "value"}') [INS022]`,
			},
			count: -1,
		},
		{
			name: "no master pool",
			file: "site.yaml",
			src:  strings.Replace(goodYAML, "  master:", "  infra:", 1),
			want: []string{`site.yaml:13:1: error: pools: no pool has role master`},
		},
		{
			name: "mtu.current on a site to install",
			file: "site.yaml",
			src:  goodYAML + "mtu:\n  current: 1400\n",
			want: []string{`site.yaml:22:12: error: mtu.current: mtu.current is the MTU of a running cluster, but cluster.lifecycle is "install"`},
		},
		{
			name: "CUE conflict inside the user's files",
			file: "site.cue",
			src:  goodCUE + "pools: master: uplinkMTU: 9000\n",
			want: []string{`site.cue:16:19: error: pools.master.uplinkMTU: conflicting values 9000 and 1500 (the other value is at site.cue:18:27;`},
		},
		{
			name:  "import of a package that does not exist",
			file:  "site.cue",
			src:   strings.Replace(goodCUE, "package site\n", "package site\n\nimport \"example.com/nothere\"\n", 1),
			want:  []string{`site.cue:3:8: error:`},
			count: -1,
		},
		{
			name: "suppression without reason",
			file: "site.yaml",
			src:  goodYAML + "lint:\n  suppress:\n    - rule: MTU001\n      reason: \"\"\n",
			want: []string{`site.yaml:24:15: error: lint.suppress[0].reason: "" is not valid (must be a non-empty text)`},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := l.LoadSource(tc.file, []byte(tc.src))
			if len(res.Sites) != 0 {
				t.Fatalf("loaded a site from invalid input")
			}
			var got []string
			for _, d := range res.Diagnostics {
				got = append(got, d.Error())
				if !d.Pos.IsValid() || d.Pos.File != tc.file || d.Pos.Line < 1 || d.Pos.Col < 1 {
					t.Errorf("diagnostic without a position in the user's file: %s", d.Error())
				}
			}
			for _, w := range tc.want {
				found := false
				for _, g := range got {
					if strings.Contains(g, w) {
						found = true
					}
				}
				if !found {
					t.Errorf("no diagnostic contains\n  %s\ngot:\n  %s", w, strings.Join(got, "\n  "))
				}
			}
			want := tc.count
			if want == 0 {
				want = len(tc.want)
			}
			if want > 0 && len(got) != want {
				t.Errorf("got %d diagnostics, want %d:\n  %s", len(got), want, strings.Join(got, "\n  "))
			}
		})
	}
}

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const fleetDefaultsCUE = `package site

apiVersion: "siteforge.dev/v1alpha1"
kind:       "Site"
cluster: {
	baseDomain:    *"fleet.example.com" | string
	version:       *"4.16" | string
	// a default that differs from the schema's default wins over it
	connectivity:  *"disconnected" | "connected"
	platform:      "baremetal"
	installMethod: "agent"
	lifecycle:     "install"
}
network: machineNetwork: *["192.168.0.0/24"] | [...string]
pools: master: {
	uplinkInterface: *"eno1" | string
	uplinkMTU:       *1500 | int
}
`

func TestLoadFleet(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"defaults.cue":        fleetDefaultsCUE,
		"README.md":           "not a site file",
		"sites/a/site.cue":    "package site\nname: \"a\"\n",
		"sites/b/site.cue":    "package site\nname: \"b\"\ncluster: version: \"4.17\"\npools: master: uplinkMTU: 9000\n",
		"sites/c/site.yaml":   "name: c\nnetwork:\n  machineNetwork: [10.0.0.0/24]\ncluster:\n  connectivity: connected\n",
		"sites/.hidden/x.cue": "garbage",
		"sites/notadir.txt":   "ignored",
	})
	res := Load([]string{dir})
	if len(res.Diagnostics) > 0 {
		t.Fatalf("diagnostics: %v", res.Diagnostics)
	}
	if len(res.Sites) != 3 {
		t.Fatalf("got %d sites, want 3", len(res.Sites))
	}
	a, b, c := res.Sites[0], res.Sites[1], res.Sites[2]
	if a.Name != "a" || a.Cluster.Version != "4.16" || a.Cluster.BaseDomain != "fleet.example.com" {
		t.Errorf("site a did not get the fleet defaults: %+v", a.Cluster)
	}
	if a.Cluster.Connectivity != "disconnected" {
		t.Errorf("fleet default connectivity lost to the schema default: %q", a.Cluster.Connectivity)
	}
	if b.Cluster.Version != "4.17" || b.Pools["master"].UplinkMTU != 9000 {
		t.Errorf("site b did not override the defaults: %+v %+v", b.Cluster, b.Pools["master"])
	}
	if c.Network.MachineNetwork[0] != "10.0.0.0/24" || c.Cluster.Connectivity != "connected" {
		t.Errorf("YAML site c did not override the defaults: %+v %+v", c.Network, c.Cluster)
	}
	if got := b.Positions.Of("cluster.version"); !strings.HasSuffix(got.File, filepath.Join("sites", "b", "site.cue")) || got.Line != 3 {
		t.Errorf("position of b's version = %s, want sites/b/site.cue:3", got)
	}
	// A site file of a fleet's site folder, named alone (lint and the
	// other commands pass files): loaded with the fleet's defaults too.
	res = Load([]string{filepath.Join(dir, "sites", "c", "site.yaml")})
	if len(res.Diagnostics) > 0 || len(res.Sites) != 1 || res.Sites[0].Cluster.BaseDomain != "fleet.example.com" {
		t.Errorf("sites/c/site.yaml alone: %v %v", res.Diagnostics, res.Sites)
	}
}

func TestLoadFleetErrors(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"defaults.cue":      fleetDefaultsCUE,
		"sites/a/site.cue":  "package site\nname: \"a\"\ncluster: platform: \"aws\"\n",
		"sites/b/site.cue":  "package site\nname: \"dup\"\n",
		"sites/c/site.cue":  "package site\nname: \"dup\"\n",
		"sites/d/site.cue":  "package other\nname: \"d\"\n",
		"sites/e/notes.txt": "no site files here",
	})
	res := Load([]string{dir})
	want := []*regexp.Regexp{
		regexp.MustCompile(`sites/a/site\.cue:3:20: error: cluster\.platform: conflicting values "aws" and "baremetal" \(the other value is at .*defaults\.cue:10:17`),
		regexp.MustCompile(`sites/c/site\.cue:2:7: error: name: site name "dup" is already used by .*sites/b/site\.cue:2:7`),
		regexp.MustCompile(`sites/d/site\.cue:1:1: error: package name "other" conflicts with previous package name "site"`),
		regexp.MustCompile(`sites/e: error: no site files in fleet site directory`),
	}
	assertDiagnostics(t, res.Diagnostics, want)
}

func assertDiagnostics(t *testing.T, diags diag.List, want []*regexp.Regexp) {
	t.Helper()
	for _, w := range want {
		found := false
		for _, d := range diags {
			if w.MatchString(d.Error()) {
				found = true
			}
		}
		if !found {
			t.Errorf("no diagnostic matches %s; got:\n%v", w, diags)
		}
	}
	if len(diags) != len(want) {
		t.Errorf("got %d diagnostics, want %d:\n%v", len(diags), len(want), diags)
	}
}

func TestLoadPaths(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"one/a.cue":   goodCUE,
		"one/b.cue":   "package site\npools: worker: {uplinkInterface: \"eno2\", uplinkMTU: 9000}\n",
		"empty/x.txt": "",
		"site.toml":   "",
	})
	res := Load([]string{filepath.Join(dir, "one")})
	if len(res.Diagnostics) > 0 || len(res.Sites) != 1 || res.Sites[0].Pools["worker"].UplinkMTU != 9000 {
		t.Fatalf("a directory's CUE files are one site: %v %v", res.Diagnostics, res.Sites)
	}
	res = Load([]string{filepath.Join(dir, "nope"), filepath.Join(dir, "empty"), filepath.Join(dir, "site.toml")})
	assertDiagnostics(t, res.Diagnostics, []*regexp.Regexp{
		regexp.MustCompile(`nope: error: cannot read: no such file or directory`),
		regexp.MustCompile(`empty: error: no site files in directory`),
		regexp.MustCompile(`site\.toml: error: not a site file`),
	})
}

// TestDescribeCoversSchema: every pattern in the schema has words for its
// error message.
func TestDescribeCoversSchema(t *testing.T) {
	re := regexp.MustCompile(`=~"((?:[^"\\]|\\.)*)"`)
	for _, m := range re.FindAllStringSubmatch(string(schema.Source), -1) {
		pat := strings.ReplaceAll(m[1], `\\`, `\`)
		if _, ok := describe[pat]; !ok {
			t.Errorf("schema pattern %q has no entry in describe", pat)
		}
	}
}

func TestNearest(t *testing.T) {
	cands := []string{"uplinkMTU", "uplinkInterface", "placement", "labels"}
	for in, want := range map[string]string{"uplinkMtu": "uplinkMTU", "uplinkmtu": "uplinkMTU", "placment": "placement", "label": "labels", "xyz": ""} {
		if got := nearest(in, cands); got != want {
			t.Errorf("nearest(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestEvaluatedValuesBounded: what comprehensions generate is counted (the
// files are small; the evaluated site is not).
func TestEvaluatedValuesBounded(t *testing.T) {
	// (CUE itself takes seconds to build 100,000 values: the test lowers
	// the limit rather than waiting for it.)
	defer func(old int) { maxEvaluatedValues = old }(maxEvaluatedValues)
	maxEvaluatedValues = 1000
	l := newLoader(t)
	src := "import \"list\"\n\napiVersion: \"siteforge.dev/v1alpha1\"\nkind: \"Site\"\nname: \"lab\"\n" +
		"mirroring: insecureRegistries: [for i in list.Range(0, 1200, 1) {\"r.example.com\"}]\n"
	res := l.LoadSource("site.cue", []byte(src))
	if len(res.Diagnostics) != 1 || !strings.Contains(res.Diagnostics[0].Message, "the site evaluates to more than 1000 values") {
		t.Errorf("diagnostics: %v", res.Diagnostics)
	}
}

// TestFleetRootOtherFiles: YAML and JSON at a fleet root that do not declare
// the site API version (a repository's renovate.json, ApplicationSet,
// kustomization.yaml) are not unified into the sites, and are named; a YAML
// fleet default that declares it is.
func TestFleetRootOtherFiles(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"defaults.cue":        fleetDefaultsCUE,
		"renovate.json":       `{"extends": ["config:recommended"]}`,
		"applicationset.yaml": "apiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata:\n  name: sites\n",
		"kustomization.yaml":  "resources: [rendered]\n",
		"zz-defaults.yaml":    "apiVersion: siteforge.dev/v1alpha1\ncluster:\n  region: eu-west-1\n",
		"sites/a/site.cue":    "package site\nname: \"a\"\n",
	})
	for _, arg := range []string{dir, filepath.Join(dir, "sites"), filepath.Join(dir, "sites", "a")} {
		units, diags := Discover([]string{arg})
		if len(diags) > 0 || len(units) != 1 {
			t.Fatalf("%s: %v %v", arg, units, diags)
		}
		res := New2(t).LoadUnits(units, nil)
		if len(res.Diagnostics) > 0 {
			t.Fatalf("%s: the other files broke the site: %v", arg, res.Diagnostics)
		}
		if got := res.Sites[0].Cluster.Region; got != "eu-west-1" {
			t.Errorf("%s: the YAML fleet default declaring the API version was not unified (region %q)", arg, got)
		}
		notes := IgnoredNotes(units)
		if len(notes) != 3 || !strings.Contains(notes[0], "applicationset.yaml: not a fleet default, ignored") ||
			!strings.Contains(notes[2], "renovate.json") || !strings.Contains(notes[1], "kustomization.yaml") {
			t.Errorf("%s: notes %q", arg, notes)
		}
	}
}

func New2(t *testing.T) *Loader {
	t.Helper()
	l, err := New()
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestDefaultCatalogs: mirroring.defaultCatalogs names OperatorHub's default
// sources; each becomes a catalog at the site's release, positioned at its
// entry; a name also under catalogs is refused; the schema knows exactly the
// default sources of internal/platform.
func TestDefaultCatalogs(t *testing.T) {
	base := "apiVersion: siteforge.dev/v1alpha1\nkind: Site\nname: lab\ncluster:\n  baseDomain: example.com\n  version: \"4.17.3\"\n  platform: none\n  installMethod: agent\n  lifecycle: running\n  connectivity: disconnected\nnetwork:\n  machineNetwork: [10.0.0.0/24]\npools:\n  master:\n    uplinkInterface: eno1\n    uplinkMTU: 1500\nmirroring:\n"
	var names []string
	for _, c := range platform.DefaultCatalogs {
		names = append(names, c.Name)
	}
	dir := writeFiles(t, map[string]string{"site.yaml": base + "  defaultCatalogs: [" + strings.Join(names, ", ") + "]\n"})
	res := Load([]string{filepath.Join(dir, "site.yaml")})
	if len(res.Diagnostics) > 0 {
		t.Fatalf("every platform default catalog must be accepted: %v", res.Diagnostics)
	}
	s := res.Sites[0]
	got := s.Mirroring.Catalogs["redhat-operators"]
	if got.Image != "registry.redhat.io/redhat/redhat-operator-index:v4.17" || got.DisplayName != "Red Hat Operators" || got.Publisher != "Red Hat" || len(s.Mirroring.Catalogs) != len(names) {
		t.Errorf("catalogs %+v", s.Mirroring.Catalogs)
	}
	if pos := s.Positions.Of(`mirroring.catalogs."certified-operators".image`); pos.Line != 18 || pos.Col != 39 {
		t.Errorf("position of the expanded catalog: %s, want line 18 col 39 (the entry)", pos)
	}
	for src, want := range map[string]string{
		base + "  defaultCatalogs: [redhat-operators]\n  catalogs:\n    redhat-operators: {image: \"mirror.example.com/rh/index:v1\"}\n": `site.yaml:18:21: error: mirroring.defaultCatalogs[0]: catalog "redhat-operators" is listed in defaultCatalogs and in catalogs`,
		base + "  defaultCatalogs: [operatorhubio]\n": "site.yaml:18:21: error: mirroring.defaultCatalogs[0]: \"operatorhubio\" is not allowed",
	} {
		dir := writeFiles(t, map[string]string{"site.yaml": src})
		res := Load([]string{filepath.Join(dir, "site.yaml")})
		if len(res.Diagnostics) == 0 || !strings.Contains(res.Diagnostics.Error(), want) {
			t.Errorf("got %v, want %q", res.Diagnostics, want)
		}
	}
}

// TestFolderOfSiteFolders: a folder that is not a fleet but holds site
// folders is one site per folder (no defaults); an empty one is refused.
func TestFolderOfSiteFolders(t *testing.T) {
	site := func(name string) string {
		return "apiVersion: siteforge.dev/v1alpha1\nkind: Site\nname: " + name + "\ncluster:\n  baseDomain: example.com\n  version: \"4.16\"\n  platform: none\n  installMethod: agent\n  lifecycle: running\nnetwork:\n  machineNetwork: [10.0.0.0/24]\npools:\n  master:\n    uplinkInterface: eno1\n    uplinkMTU: 1500\n"
	}
	dir := writeFiles(t, map[string]string{
		"group/a/site.yaml": site("a"),
		"group/b/site.yaml": site("b"),
		"group/notes/x.txt": "not a site",
		"empty/docs/x.txt":  "nothing",
	})
	res := Load([]string{filepath.Join(dir, "group")})
	if len(res.Diagnostics) > 0 || len(res.Sites) != 2 || res.Sites[0].Name != "a" || res.Sites[1].Name != "b" {
		t.Errorf("group: %v %v", res.Diagnostics, res.Sites)
	}
	res = Load([]string{filepath.Join(dir, "empty")})
	if len(res.Diagnostics) != 1 || !strings.Contains(res.Diagnostics[0].Message, "no site files in directory") {
		t.Errorf("empty: %v", res.Diagnostics)
	}
}

// TestUserFields: one walk records every field's position and the @lint
// attributes, at the field, with the field's path.
func TestUserFields(t *testing.T) {
	src := strings.Replace(goodCUE, `	uplinkMTU:       1500
`, `	uplinkMTU:       1500 @lint(ignore="MTU010", reason="jumbo frames later")
`, 1)
	src = strings.Replace(src, `"example.com"`, `"example.com" @lint(ignore="NET001", reason="lab")`, 1)
	res := newLoader(t).LoadSource("site.cue", []byte(src))
	if len(res.Diagnostics) > 0 {
		t.Fatal(res.Diagnostics)
	}
	s := res.Sites[0]
	want := []site.FieldSuppression{
		{Rule: "NET001", Reason: "lab", Path: "cluster.baseDomain", Pos: diag.Position{File: "site.cue", Line: 7, Col: 17}},
		{Rule: "MTU010", Reason: "jumbo frames later", Path: "pools.master.uplinkMTU", Pos: diag.Position{File: "site.cue", Line: 16, Col: 19}},
	}
	if !reflect.DeepEqual(s.FieldSuppressions, want) {
		t.Errorf("suppressions\n got %+v\nwant %+v", s.FieldSuppressions, want)
	}
	for path, line := range map[string]int{"name": 5, "cluster": 6, "cluster.version": 8, "pools.master.uplinkMTU": 16, "cluster.baseDomain": 7, "network.machineNetwork[0]": 13} {
		if got := s.Positions.Of(path); got.File != "site.cue" || got.Line != line {
			t.Errorf("position of %s = %s, want site.cue:%d", path, got, line)
		}
	}
}

// TestFieldsGatheredInTheUnknownWalk: the positions and suppressions the
// unknown-field walk gathers are userFields' own walk's, for every bundled
// example and a synthetic fleet of every kind of site.
func TestFieldsGatheredInTheUnknownWalk(t *testing.T) {
	fleet := t.TempDir()
	if err := fleetgen.Write(fleet, 12); err != nil {
		t.Fatal(err)
	}
	var examples []string
	for _, e := range []string{"agent-sno", "aws-local-zones", "aws-local-zones-ipi", "disconnected-quay-cache", "remote-workers", "fleet"} {
		examples = append(examples, filepath.Join("..", "..", "examples", e))
	}
	units, diags := Discover(append(examples, fleet))
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	l := newLoader(t)
	checked := 0
	for _, u := range units {
		var files []*ast.File
		for _, name := range u.files {
			f, d := parseFile(name, extOf(name), map[string][]byte{}, ReadInput)
			if len(d) > 0 {
				t.Fatal(d)
			}
			files = append(files, f)
		}
		user, d := l.build(u, files)
		if len(d) > 0 {
			t.Fatal(d)
		}
		wantPos, wantSups := userFields(user)
		c := newFieldCollector()
		if unknown, tooMany := l.unknownFields(user, c.visit); len(unknown) > 0 || tooMany {
			t.Fatalf("%s: unknown fields %v", u.source, unknown)
		}
		if !reflect.DeepEqual(c.pos, wantPos) {
			for k, v := range wantPos {
				if c.pos[k] != v {
					t.Errorf("%s: %s at %s, gathered %s", u.source, k, v, c.pos[k])
				}
			}
			t.Fatalf("%s: gathered %d positions, want %d", u.source, len(c.pos), len(wantPos))
		}
		if !reflect.DeepEqual(c.sups, wantSups) {
			t.Errorf("%s: suppressions %v, want %v", u.source, c.sups, wantSups)
		}
		checked++
	}
	if checked < 15 {
		t.Errorf("checked %d sites", checked)
	}
}

// awsYAML is a valid AWS site with a Local Zone pool; the cases of
// TestPlacementChecks change one line each, so line numbers refer to it.
const awsYAML = `apiVersion: siteforge.dev/v1alpha1
kind: Site
name: aws-1
cluster:
  baseDomain: example.com
  version: "4.16"
  platform: aws
  region: us-east-1
  installMethod: ipi
  lifecycle: install
network:
  machineNetwork: ["10.0.0.0/16"]
pools:
  master:
    placement: region
    zone: us-east-1a
    uplinkInterface: ens5
    uplinkMTU: 9001
    count: 3
  edge:
    role: worker
    placement: aws-local-zone
    zone: us-east-1-nyc-1a
    subnets: ["10.0.128.0/20"]
    uplinkInterface: ens5
    uplinkMTU: 9001
    count: 1
paths:
  - between: [edge, master]
    mtu: 1300
`

// TestPlacementChecks: an AWS pool's zone belongs to cluster.region and is
// of the type its placement says; every pool subnet lies in the machine
// network.
func TestPlacementChecks(t *testing.T) {
	l := newLoader(t)
	edit := func(pairs ...string) string { return strings.NewReplacer(pairs...).Replace(awsYAML) }
	good := map[string]string{
		"as written":                           awsYAML,
		"Local Zone of us-west-2":              edit("us-east-1a", "us-west-2a", "us-east-1-nyc-1a", "us-west-2-lax-1a", "region: us-east-1", "region: us-west-2"),
		"Wavelength Zone":                      edit("aws-local-zone", "aws-wavelength", "us-east-1-nyc-1a", "us-east-1-wl1-bos-wlz-1"),
		"Local Zone of ap-northeast-1":         edit("us-east-1a", "ap-northeast-1c", "us-east-1-nyc-1a", "ap-northeast-1-tpe-1a", "region: us-east-1", "region: ap-northeast-1"),
		"Local Zone of eu-central-1":           edit("us-east-1a", "eu-central-1b", "us-east-1-nyc-1a", "eu-central-1-ham-1a", "region: us-east-1", "region: eu-central-1"),
		"GovCloud":                             edit("us-east-1a", "us-gov-west-1a", "us-east-1-nyc-1a", "us-gov-west-1-lax-1a", "region: us-east-1", "region: us-gov-west-1"),
		"subnet equal to the machine network":  edit(`["10.0.128.0/20"]`, `["10.0.0.0/16"]`),
		"subnet in the second machine network": edit(`["10.0.0.0/16"]`, `["10.0.0.0/16", "10.1.0.0/16"]`, `["10.0.128.0/20"]`, `["10.1.16.0/20"]`),
		"no region: zones not compared":        edit("  region: us-east-1\n", ""),
		"zone on another platform":             edit("platform: aws", "platform: baremetal", "installMethod: ipi", "installMethod: agent", "aws-local-zone", "remote", "us-east-1-nyc-1a", "rack-7", "  region: us-east-1\n", "", "    count: 1\n", "    count: 2\n"),
	}
	for name, src := range good {
		res := l.LoadSource("site.yaml", []byte(src))
		if len(res.Diagnostics) > 0 {
			t.Errorf("%s: unexpected diagnostics:\n%v", name, res.Diagnostics)
		}
	}
	bad := []struct{ name, src, want string }{
		{
			name: "Local Zone of another region",
			src:  edit("us-east-1a", "eu-west-1a", "us-east-1-nyc-1a", "us-west-2-lax-1a", "region: us-east-1", "region: eu-west-1"),
			want: `site.yaml:23:11: error: pools.edge.zone: zone "us-west-2-lax-1a" is in region us-west-2, not in cluster.region eu-west-1: the installer's validateMachinePool accepts only the zones EC2 lists for the region, of the pool's type ("One or more zones are unavailable") (use a zone of eu-west-1 (its name starts with "eu-west-1"), or set cluster.region: "us-west-2")`,
		},
		{
			name: "Availability Zone of another region",
			src:  edit("us-east-1a", "us-east-2a"),
			want: `site.yaml:16:11: error: pools.master.zone: zone "us-east-2a" is in region us-east-2, not in cluster.region us-east-1`,
		},
		{
			name: "region that only starts like the zone's",
			src:  edit("us-east-1a", "us-east-11a"),
			want: `site.yaml:16:11: error: pools.master.zone: zone "us-east-11a" is in region us-east-11`,
		},
		{
			name: "zone ID instead of the zone name",
			src:  edit("us-east-1a", "use1-az1"),
			want: `site.yaml:16:11: error: pools.master.zone: zone "use1-az1" is not an AWS zone name`,
		},
		{
			name: "Availability Zone in a Local Zone pool",
			src:  edit("us-east-1-nyc-1a", "us-east-1b"),
			want: `site.yaml:23:11: error: pools.edge.zone: placement "aws-local-zone" needs a Local Zone, but zone "us-east-1b" is an Availability Zone: the installer puts the pool in compute "edge", whose zones must be Local or Wavelength Zones; the installer's validateMachinePool accepts only the zones EC2 lists for the region, of the pool's type ("One or more zones are unavailable") (use a Local Zone of us-east-1, or set placement: "region")`,
		},
		{
			name: "Local Zone in a region pool",
			src:  edit("us-east-1a", "us-east-1-bos-1a"),
			want: `site.yaml:16:11: error: pools.master.zone: placement "region" needs an Availability Zone, but zone "us-east-1-bos-1a" is a Local Zone: the installer puts the pool in controlPlane or compute "worker", whose zones must be Availability Zones; the installer's validateMachinePool accepts only the zones EC2 lists for the region, of the pool's type ("One or more zones are unavailable") (set placement: "aws-local-zone", or use an Availability Zone of us-east-1)`,
		},
		{
			name: "Wavelength Zone in a Local Zone pool",
			src:  edit("us-east-1-nyc-1a", "us-east-1-wl1-bos-wlz-1"),
			want: `site.yaml:23:11: error: pools.edge.zone: placement "aws-local-zone" needs a Local Zone, but zone "us-east-1-wl1-bos-wlz-1" is a Wavelength Zone: the placement says which kind of edge zone the pool is in, and the release an install needs depends on it (the installer's edge pool takes Local Zones from 4.14, Wavelength Zones from 4.15) (set placement: "aws-wavelength", or use a Local Zone of us-east-1)`,
		},
		{
			name: "edge subnet outside the machine network",
			src:  edit(`["10.0.128.0/20"]`, `["10.1.128.0/20"]`),
			want: `site.yaml:24:15: error: pools.edge.subnets[0]: subnet 10.1.128.0/20 of pool edge is outside the machine network (10.0.0.0/16): the pool's nodes take their addresses from it, and node addresses must lie in a machineNetwork (the installer's validateSubnetCIDR: "subnet's CIDR range start ... is outside of the specified machine networks") (carve the subnet out of a network.machineNetwork CIDR (on AWS the VPC CIDR: docs "AWS Local Zone or Wavelength Zone tasks"), or add a machineNetwork CIDR that contains it)`,
		},
		{
			name: "edge subnet larger than the machine network it starts in",
			src:  edit(`["10.0.0.0/16"]`, `["10.0.0.0/17"]`, `["10.0.128.0/20"]`, `["10.0.0.0/16"]`),
			want: `site.yaml:24:15: error: pools.edge.subnets[0]: subnet 10.0.0.0/16 of pool edge is outside the machine network (10.0.0.0/17)`,
		},
		{
			name: "IPv6 subnet, IPv4 machine network",
			src:  edit(`["10.0.128.0/20"]`, `["10.0.128.0/20", "fd00::/64"]`),
			want: `site.yaml:24:32: error: pools.edge.subnets[1]: subnet fd00::/64 of pool edge is outside the machine network (10.0.0.0/16)`,
		},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			res := l.LoadSource("site.yaml", []byte(tc.src))
			if len(res.Sites) != 0 {
				t.Fatalf("loaded a site from invalid input")
			}
			var got []string
			for _, d := range res.Diagnostics {
				got = append(got, d.Error())
			}
			if len(got) != 1 || !strings.Contains(got[0], tc.want) {
				t.Errorf("want one diagnostic containing\n  %s\ngot:\n  %s", tc.want, strings.Join(got, "\n  "))
			}
		})
	}
}

// TestLoadStdin: a site on standard input is YAML, JSON or CUE, told apart
// by its syntax, and its positions name <stdin>.
func TestLoadStdin(t *testing.T) {
	l, err := New()
	if err != nil {
		t.Fatal(err)
	}
	loadStdin := func(data []byte) Result { return l.LoadUnits([]Unit{StdinUnit(data, "")}, nil) }
	yamlSite, err := os.ReadFile("../../examples/disconnected-quay-cache/site.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if res := loadStdin(yamlSite); len(res.Diagnostics) > 0 || len(res.Sites) != 1 || res.Sites[0].Source != Stdin {
		t.Fatalf("YAML on stdin: %v %+v", res.Diagnostics, res.Sites)
	}
	cueSite, err := os.ReadFile("../../examples/agent-sno/site.cue")
	if err != nil {
		t.Fatal(err)
	}
	if res := loadStdin(cueSite); len(res.Diagnostics) > 0 || len(res.Sites) != 1 || res.Sites[0].Name != "sno-edge" {
		t.Fatalf("CUE on stdin: %v %+v", res.Diagnostics, res.Sites)
	}
	bad := loadStdin([]byte("apiVersion: siteforge.dev/v1alpha1\nkind: Site\nname: x\nbogus: 1\n"))
	found := false
	for _, d := range bad.Diagnostics {
		if d.Pos.File == Stdin && d.Pos.Line == 4 && d.Pos.Col == 1 {
			found = true
		}
	}
	if !found {
		t.Errorf("an unknown field on stdin is not reported at <stdin>:4:1: %v", bad.Diagnostics)
	}
	// JSON is parsed as JSON, as in a .json file: the same positions
	jsonSite := []byte(`{"apiVersion": "siteforge.dev/v1alpha1", "kind": "Site", "name": "x", "bogus": 1}`)
	fromFile := l.LoadSource("site.json", jsonSite).Diagnostics
	fromStdin := loadStdin(jsonSite).Diagnostics
	if len(fromFile) == 0 || len(fromFile) != len(fromStdin) {
		t.Fatalf("JSON on stdin: %v, in a file: %v", fromStdin, fromFile)
	}
	for i := range fromFile {
		if a, b := fromFile[i].Pos, fromStdin[i].Pos; a.Line != b.Line || a.Col != b.Col {
			t.Errorf("JSON on stdin: %v at %v, in a file at %v", fromStdin[i].Message, b, a)
		}
	}
	big := append([]byte("apiVersion: siteforge.dev/v1alpha1\n#"), bytes.Repeat([]byte("x"), MaxFileSize)...)
	if res := loadStdin(big); len(res.Sites) != 0 || len(res.Diagnostics) != 1 || !strings.Contains(res.Diagnostics[0].Message, "larger than the") {
		t.Errorf("a site on stdin larger than a site file may be is not refused as such a file is: %v", res.Diagnostics)
	}
}

// TestClassifyStdin: what lint - reads on standard input is a site or a
// stream of manifests, told apart as a file's content is, CUE by its
// syntax.
func TestClassifyStdin(t *testing.T) {
	read := func(p string) []byte {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for name, tc := range map[string]struct {
		data []byte
		want StdinKind
	}{
		"YAML site":              {read("../../examples/disconnected-quay-cache/site.yaml"), StdinSite},
		"CUE site":               {read("../../examples/agent-sno/site.cue"), StdinSite},
		"JSON site":              {[]byte(`{"apiVersion": "siteforge.dev/v1alpha1", "kind": "Site", "name": "x"}`), StdinSite},
		"broken site":            {[]byte("apiVersion: siteforge.dev/v1alpha1\nkind: Site\nname: [x\n"), StdinSite},
		"CUE without apiVersion": {[]byte("// a site\nname: \"x\"\ncluster: {\n\tdomain: \"example.com\"\n}\n"), StdinSite},
		"manifests":              {[]byte("---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n"), StdinManifests},
		"JSON list":              {[]byte(`{"apiVersion": "v1", "kind": "List", "items": []}`), StdinManifests},
		"broken YAML":            {[]byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: [a\n"), StdinManifests},
		"empty":                  {nil, StdinManifests},
		"function config":        {[]byte("apiVersion: siteforge.dev/v1alpha1\nkind: SiteLint\nmetadata:\n  name: lint\n"), StdinNotInput},
		"schema":                 {schema.Source, StdinNotInput},
	} {
		got, syntax := ClassifyStdin(tc.data)
		if got != tc.want {
			t.Errorf("%s: ClassifyStdin = %d, want %d", name, got, tc.want)
		}
		// the syntax it found is the one a site's unit would tell
		if want := map[bool]string{true: stdinExt(tc.data)}[got == StdinSite]; syntax != want {
			t.Errorf("%s: ClassifyStdin syntax %q, want %q", name, syntax, want)
		}
	}
}

// TestStdinSyntax: a site on standard input is parsed as the syntax it is
// written in, broken ones too, so that its errors are those of the same
// content in a file of that kind.
func TestStdinSyntax(t *testing.T) {
	cueSite, err := os.ReadFile("../../examples/agent-sno/site.cue")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, data, want string
	}{
		{"JSON", `{"apiVersion": "siteforge.dev/v1alpha1", "kind": "Site"}`, ".json"},
		{"broken JSON", `{"apiVersion": "siteforge.dev/v1alpha1", "kind": "Site",,}`, ".json"},
		{"YAML", "apiVersion: siteforge.dev/v1alpha1\nkind: Site\n", ".yaml"},
		{"YAML with a tab", "apiVersion: siteforge.dev/v1alpha1\nnetwork:\n  a: [x]\n\tb: [\"y\"]\npools:\n  nodes:\n    - {name: m, ip: 192.168.50.10}\n", ".yaml"},
		{"YAML list", "- apiVersion: siteforge.dev/v1alpha1\n", ".yaml"},
		{"CUE", string(cueSite), ".cue"},
		{"broken CUE", strings.Replace(string(cueSite), "kind:", "kind: {", 1), ".cue"},
		{"broken CUE without comments", "apiVersion: \"siteforge.dev/v1alpha1\"\ncluster: {\n\tbaseDomain: \"x\" version: 4\n}\n", ".cue"},
	} {
		if got := stdinExt([]byte(tc.data)); got != tc.want {
			t.Errorf("%s: read as %s, want %s", tc.name, got, tc.want)
		}
	}
}

// TestTranslateFieldNotAllowed: a "field not allowed" error of CUE's that
// the unknown-field walk did not report is a diagnostic of its own (it
// used to be dropped: the site was refused without a word, and every
// command exited 0).
func TestTranslateFieldNotAllowed(t *testing.T) {
	l := newLoader(t)
	user := l.ctx.CompileString(`network: clusterNetwork: [{cidr: "10.128.0.0/14", hostPrefix: 23, CIDR: "x"}]`, cue.Filename("site.cue"))
	err := l.schema.Unify(user).Validate()
	if err == nil {
		t.Fatal("CUE accepted an unknown field")
	}
	got := l.translate(err, user, diag.Position{File: "site.cue", Line: 1, Col: 1})
	want := `site.cue:1:67: error: network.clusterNetwork[0]: field "CIDR" is not allowed (did you mean "cidr"?)`
	found := false
	for _, d := range got {
		if d.Error() == want {
			found = true
		}
	}
	if !found {
		t.Errorf("translate gave %v, want %s among them", got, want)
	}
}
