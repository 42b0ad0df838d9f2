package manifests

import (
	"reflect"
	"strings"
	"testing"
)

func TestInstallConfigs(t *testing.T) {
	objs, d := ReadBytes("install-config.yaml", []byte(`apiVersion: v1
baseDomain: example.com
metadata: {name: lab}
platform:
  BareMetal:
    apiVIP: 192.168.0.5
    ingressVIPs: [192.168.0.6]
networking:
  serviceNetwork: [172.30.0.0/16]
compute: [{name: worker, replicas: 2}]
`))
	if len(d) > 0 {
		t.Fatal(d)
	}
	ics := InstallConfigs(objs)
	if len(ics) != 1 {
		t.Fatalf("%d install-configs", len(ics))
	}
	ic := ics[0]
	if ic.Platform != "baremetal" || !reflect.DeepEqual(ic.APIVIPs, []string{"192.168.0.5"}) || !reflect.DeepEqual(ic.IngressVIPs, []string{"192.168.0.6"}) ||
		ic.NetworkType() != "OVNKubernetes" || ic.Pool("worker") == nil || *ic.Pool("worker").Replicas != 2 || ic.Metadata.Name != "lab" {
		t.Errorf("%+v", ic)
	}
	// two platform sections: no platform (the installer refuses it), not
	// whichever a map iteration yields last
	two, _ := ReadBytes("install-config.yaml", []byte("apiVersion: v1\nbaseDomain: x\nplatform: {aws: {}, gcp: {}}\n"))
	for i := 0; i < 20; i++ {
		if p := InstallConfigs(two)[0].Platform; p != "" {
			t.Fatalf("platform %q from two sections", p)
		}
	}
}

// TestInstallConfigDeprecatedNetworking follows openshift/installer
// pkg/types/conversion/installconfig_test.go TestConvertInstallConfig: "old
// networking" (only the deprecated fields: they become the new ones) and
// "new networking" (the new fields are kept), plus the rule of
// convertNetworking that a deprecated field is used only when its
// replacement is empty.
func TestInstallConfigDeprecatedNetworking(t *testing.T) {
	read := func(t *testing.T, networking string) *InstallConfigFile {
		t.Helper()
		objs, d := ReadBytes("install-config.yaml", []byte("apiVersion: v1\nbaseDomain: x\nplatform: {none: {}}\nnetworking:\n"+networking))
		if len(d) > 0 {
			t.Fatal(d)
		}
		ics := InstallConfigs(objs)
		if len(ics) != 1 {
			t.Fatalf("%d install-configs", len(ics))
		}
		return ics[0]
	}
	type view struct {
		NetworkType                      string
		Cluster, Service, Machine        []string
		TypePath, C0Path, S0Path, M0Path string
	}
	viewOf := func(ic *InstallConfigFile) view {
		v := view{NetworkType: ic.Networking.NetworkType, Service: ic.Networking.ServiceNetwork,
			TypePath: strings.Join(ic.NetworkTypePath(), "."), C0Path: strings.Join(ic.ClusterNetworkPath(0), "."),
			S0Path: strings.Join(ic.ServiceNetworkPath(0), "."), M0Path: strings.Join(ic.MachineNetworkPath(0), ".")}
		for _, c := range ic.Networking.ClusterNetwork {
			v.Cluster = append(v.Cluster, c.CIDR)
		}
		for _, c := range ic.Networking.MachineNetwork {
			v.Machine = append(v.Machine, c.CIDR)
		}
		return v
	}

	old := viewOf(read(t, `  machineCIDR: 1.1.1.1/24
  type: foo
  serviceCIDR: 1.2.3.4/32
  clusterNetworks:
  - cidr: 1.2.3.5/32
    hostSubnetLength: 8
`))
	if want := (view{NetworkType: "foo", Cluster: []string{"1.2.3.5/32"}, Service: []string{"1.2.3.4/32"}, Machine: []string{"1.1.1.1/24"},
		TypePath: "networking.type", C0Path: "networking.clusterNetworks.0.cidr", S0Path: "networking.serviceCIDR", M0Path: "networking.machineCIDR"}); !reflect.DeepEqual(old, want) {
		t.Errorf("old networking:\n got %+v\nwant %+v", old, want)
	}

	cur := viewOf(read(t, `  machineNetwork: [{cidr: 1.1.1.1/24}]
  networkType: foo
  serviceNetwork: [1.2.3.4/32]
  clusterNetwork: [{cidr: 1.2.3.5/32, hostPrefix: 24}]
`))
	if want := (view{NetworkType: "foo", Cluster: []string{"1.2.3.5/32"}, Service: []string{"1.2.3.4/32"}, Machine: []string{"1.1.1.1/24"},
		TypePath: "networking.networkType", C0Path: "networking.clusterNetwork.0.cidr", S0Path: "networking.serviceNetwork.0", M0Path: "networking.machineNetwork.0.cidr"}); !reflect.DeepEqual(cur, want) {
		t.Errorf("new networking:\n got %+v\nwant %+v", cur, want)
	}

	// both written: the new field wins, field by field
	both := viewOf(read(t, `  networkType: OVNKubernetes
  type: OpenShiftSDN
  clusterNetwork: [{cidr: 10.128.0.0/14}]
  clusterNetworks: [{cidr: 10.0.0.0/14}]
  serviceCIDR: 172.31.0.0/16
  machineNetwork: [{cidr: 192.168.0.0/24}]
  machineCIDR: 192.168.1.0/24
`))
	if want := (view{NetworkType: "OVNKubernetes", Cluster: []string{"10.128.0.0/14"}, Service: []string{"172.31.0.0/16"}, Machine: []string{"192.168.0.0/24"},
		TypePath: "networking.networkType", C0Path: "networking.clusterNetwork.0.cidr", S0Path: "networking.serviceCIDR", M0Path: "networking.machineNetwork.0.cidr"}); !reflect.DeepEqual(both, want) {
		t.Errorf("both:\n got %+v\nwant %+v", both, want)
	}

	// the plugin name regardless of case (convertNetworking strings.EqualFold)
	for in, want := range map[string]string{"openshiftsdn": "OpenShiftSDN", "OVNKUBERNETES": "OVNKubernetes", "Calico": "Calico"} {
		if got := read(t, "  type: "+in+"\n").Networking.NetworkType; got != want {
			t.Errorf("type %s read as %q, want %q", in, got, want)
		}
	}
}
