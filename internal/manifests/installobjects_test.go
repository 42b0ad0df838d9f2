package manifests

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/siteforge/siteforge/internal/upstream"
)

func TestAgentConfigs(t *testing.T) {
	objs, d := ReadBytes("agent-config.yaml", []byte(`apiVersion: v1beta1
kind: AgentConfig
metadata: {name: lab}
rendezvousIP: 192.168.10.10
hosts:
- hostname: m0
  role: master
  interfaces: [{name: eno1, macAddress: "52:54:00:00:00:10"}]
  networkConfig:
    interfaces:
    - name: eno1
      type: ethernet
      ipv4: {enabled: true, address: [{ip: 192.168.10.10, prefix-length: 24}]}
      ipv6: {enabled: true, address: [{ip: "fd00::10", prefix-length: 64}]}
`))
	if len(d) > 0 {
		t.Fatal(d)
	}
	acs := AgentConfigs(objs)
	if len(acs) != 1 || acs[0].RendezvousIP != "192.168.10.10" || len(acs[0].Hosts) != 1 {
		t.Fatalf("%+v", acs)
	}
	h := acs[0].Hosts[0]
	if h.Hostname != "m0" || h.Role != "master" || !reflect.DeepEqual(h.Interfaces, []upstream.Interface{{Name: "eno1", MacAddress: "52:54:00:00:00:10"}}) {
		t.Errorf("%+v", h)
	}
	got := NMStateAddresses(h.NetworkConfig)
	want := []NMStateAddress{
		{IP: "192.168.10.10", Path: []string{"interfaces", "0", "ipv4", "address", "0", "ip"}},
		{IP: "fd00::10", Path: []string{"interfaces", "0", "ipv6", "address", "0", "ip"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("addresses %+v", got)
	}
	if p := acs[0].Obj.PosOf(append([]string{"hosts", "0", "networkConfig"}, got[0].Path...)...); p.Line != 13 {
		t.Errorf("position %v", p)
	}
	// another kind, or an apiVersion the installer does not read: not an agent-config
	other, _ := ReadBytes("x.yaml", []byte("apiVersion: v2\nkind: AgentConfig\nmetadata: {name: x}\n"))
	if len(AgentConfigs(other)) != 0 {
		t.Error("apiVersion v2 read as an agent-config")
	}
}

// TestClusterInstancesUpstreamSamples reads the siteconfig operator's own
// samples (../shared/upstream/siteconfig, when present).
func TestClusterInstancesUpstreamSamples(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "upstream", "siteconfig")
	files, _ := filepath.Glob(filepath.Join(dir, "*-example-*.yaml"))
	if len(files) == 0 {
		t.Skip("SKIPPED LOUDLY: " + dir + " (the siteconfig samples) is absent; the ClusterInstance reader is not checked against them")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		objs, d := ReadBytes(filepath.Base(f), data)
		if len(d) > 0 {
			t.Fatal(d)
		}
		cis := ClusterInstances(objs)
		if len(cis) != 1 {
			t.Fatalf("%s: %d ClusterInstances", f, len(cis))
		}
		spec := cis[0].Spec
		if spec.ClusterName == "" || len(spec.Nodes) == 0 || len(spec.TemplateRefs) == 0 {
			t.Errorf("%s: %+v", f, spec)
		}
		for _, n := range spec.Nodes {
			if n.HostName == "" || n.BmcCredentialsName == nil || n.BmcCredentialsName.Name == "" || n.BootMACAddress == "" || n.NodeNetwork == nil || len(n.NodeNetwork.Interfaces) == 0 {
				t.Errorf("%s: node %+v", f, n)
			}
			if len(NMStateAddresses(n.NodeNetwork.Config)) == 0 {
				t.Errorf("%s: node %s: no static address read", f, n.HostName)
			}
		}
	}
}
