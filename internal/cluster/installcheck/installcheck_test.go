package installcheck

import (
	"strings"
	"testing"
)

func v(s, key string) Value { return Value{V: s, Key: key} }

func base() *Facts {
	return &Facts{
		Platform: "baremetal", PlatformKey: "platform", Method: MethodAgent, Minor: 16,
		CIDRs:        []CIDR{{Kind: "machineNetwork", Value: v("192.168.10.0/24", "machine")}},
		APIVIPs:      []Value{v("192.168.10.5", "api")},
		IngressVIPs:  []Value{v("192.168.10.6", "ingress")},
		ControlPlane: 3, Workers: 0, ControlPlaneKey: "cp", WorkersKey: "workers",
		Hosts: []Host{
			{Name: "m0", Role: RoleMaster, Key: "h0", IPs: []Value{v("192.168.10.10", "h0.ip")}, BootMAC: v("52:54:00:00:00:10", "h0.mac")},
			{Name: "m1", Role: RoleMaster, Key: "h1", IPs: []Value{v("192.168.10.11", "h1.ip")}, BootMAC: v("52:54:00:00:00:11", "h1.mac")},
			{Name: "m2", Role: RoleMaster, Key: "h2", IPs: []Value{v("192.168.10.12", "h2.ip")}, BootMAC: v("52:54:00:00:00:12", "h2.mac")},
		},
		RendezvousIP: v("192.168.10.10", "rv"),
	}
}

func TestRun(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(f *Facts)
		want   []string // "key: message fragment"
	}{
		{"clean", func(*Facts) {}, nil},
		{"IPv6 subnet-router anycast", func(f *Facts) {
			f.CIDRs = []CIDR{{Kind: "machineNetwork", Value: v("fd00:10::/64", "machine")}}
			f.APIVIPs = []Value{v("fd00:10::", "api")}
			f.IngressVIPs = []Value{v("fd00:10::6", "ingress")}
			f.Hosts = nil
			f.RendezvousIP = Value{}
		}, []string{"api: API VIP fd00:10:: is the subnet-router anycast address of machine network fd00:10::/64"}},
		{"IPv6 addresses are not broadcast", func(f *Facts) {
			f.CIDRs = []CIDR{{Kind: "machineNetwork", Value: v("fd00:10::/64", "machine")}}
			f.APIVIPs = []Value{v("fd00:10::ffff:ffff:ffff:ffff", "api")}
			f.IngressVIPs = []Value{v("fd00:10::6", "ingress")}
			f.Hosts, f.RendezvousIP = nil, Value{}
		}, nil},
		{"user-managed load balancer", func(f *Facts) {
			f.UserManagedLB = true
			f.APIVIPs = []Value{v("10.0.0.5", "api")}
			f.IngressVIPs = []Value{v("10.0.0.5", "ingress")}
		}, nil},
		{"nutanix does not require VIPs in the machine network", func(f *Facts) {
			f.Platform, f.Method = "nutanix", MethodOther
			f.APIVIPs = []Value{v("10.0.0.5", "api")}
		}, nil},
		{"vsphere requires them with the agent installer", func(f *Facts) {
			f.Platform = "vsphere"
			f.APIVIPs = []Value{v("10.0.0.5", "api")}
		}, []string{"api: API VIP 10.0.0.5 is not inside a machine network"}},
		{"vsphere IPI does not", func(f *Facts) {
			f.Platform, f.Method = "vsphere", MethodOther
			f.APIVIPs = []Value{v("10.0.0.5", "api")}
		}, nil},
		{"MAC written in another case and with dashes", func(f *Facts) {
			f.Hosts[1].BootMAC = v("52-54-00-00-00-10", "h1.mac")
		}, []string{"h1.mac: MAC 52-54-00-00-00-10 of node m1 is also m0's"}},
		{"boot MAC that is also an interface MAC of the host", func(f *Facts) {
			f.Hosts[0].Interfaces = []Interface{{Name: v("eno1", "i.name"), MAC: v("52:54:00:00:00:10", "i.mac")}}
		}, nil},
		{"two interfaces of a host with one MAC", func(f *Facts) {
			f.Hosts[0].Interfaces = []Interface{{Name: v("eno1", "i0.name"), MAC: v("52:54:00:00:00:10", "i0.mac")}, {Name: v("eno2", "i1.name"), MAC: v("52:54:00:00:00:10", "i1.mac")}}
		}, []string{"i1.mac: MAC 52:54:00:00:00:10 is given to two interfaces of node m0"}},
		{"rendezvous on DHCP for IPv4: not judged", func(f *Facts) {
			for i := range f.Hosts {
				f.Hosts[i].IPs = []Value{v("fd01::2"+string(rune('0'+i)), "ip6")}
			}
			f.RendezvousIP = v("192.168.125.20", "rv")
		}, nil},
		{"two control-plane nodes with an arbiter from 4.19", func(f *Facts) {
			f.ControlPlane, f.TwoNode, f.Minor = 2, true, 19
		}, nil},
		{"two control-plane nodes with an arbiter on 4.18", func(f *Facts) {
			f.ControlPlane, f.TwoNode, f.Minor = 2, true, 18
		}, []string{"cp: 2 control-plane nodes: the agent-based installer accepts 1, 3, 4 or 5 on 4.18"}},
		{"five control-plane nodes, release unknown", func(f *Facts) {
			f.ControlPlane, f.Minor = 5, 0
		}, nil},
		{"control-plane size of an IPI install is the installer's own business", func(f *Facts) {
			f.ControlPlane, f.Method = 2, MethodOther
		}, nil},
		{"single node, hub, platform not written (the assisted service picks none)", func(f *Facts) {
			f.Method, f.Platform, f.ControlPlane, f.APIVIPs, f.IngressVIPs, f.RendezvousIP = MethodAssisted, "", 1, nil, nil, Value{}
			f.Hosts = f.Hosts[:1]
			f.Hosts[0].BMC = &BMC{Key: "bmc", CredentialsName: v("m0-bmc", "bmc.name")}
			f.HubHosts = true
		}, nil},
		// image-based hub installs: stolostron/siteconfig
		// internal/templates/image-based-installer/template.go
		{"image-based single node on baremetal", func(f *Facts) {
			imageBased(f, 1)
		}, nil},
		{"image-based single node on platform none", func(f *Facts) {
			imageBased(f, 1)
			f.Platform = "none"
		}, nil},
		{"image-based three control-plane nodes with VIPs", func(f *Facts) {
			imageBased(f, 3)
			f.APIVIPs = []Value{v("192.168.10.5", "api")}
			f.IngressVIPs = []Value{v("192.168.10.6", "ingress")}
		}, []string{
			"cp: an image-based install installs exactly 1 control-plane node, not 3",
			"api: an image-based install configures no VIPs, but 192.168.10.5 is one",
			"ingress: an image-based install configures no VIPs, but 192.168.10.6 is one",
		}},
		{"image-based single node with workers", func(f *Facts) {
			imageBased(f, 1)
			f.Workers = 2
		}, []string{"workers: an image-based install installs a single node without workers, not with 2"}},
		{"image-based on vsphere", func(f *Facts) {
			imageBased(f, 1)
			f.Platform = "vsphere"
		}, []string{`platform: platform "vsphere" cannot be installed by an image-based install`}},
		{"image-based, platform not written (a ClusterInstance without platformType)", func(f *Facts) {
			imageBased(f, 1)
			f.Platform = ""
		}, nil},
		{"NMState: bond ports and predictable names", func(f *Facts) {
			f.Hosts[0].Interfaces = []Interface{{Name: v("eno1", "n"), MAC: v("52:54:00:00:00:10", "m")}}
			f.Hosts[0].NetworkConfig = map[string]any{
				"interfaces": []any{
					map[string]any{"name": "bond0", "type": "bond", "link-aggregation": map[string]any{"mode": "active-backup", "port": []any{"eno1", "ens2f0", "eth5"}}},
					map[string]any{"name": "bond0.10", "type": "vlan", "vlan": map[string]any{"base-iface": "bond0", "id": 10}},
					map[string]any{"name": "macid", "type": "ethernet", "identifier": "mac-address", "mac-address": "52:54:00:00:00:99"},
				},
				"routes": map[string]any{"config": []any{
					map[string]any{"destination": "0.0.0.0/0", "next-hop-interface": "bond0.10"},
					map[string]any{"destination": "10.0.0.0/8", "next-hop-interface": "gone", "state": "absent"},
					map[string]any{"destination": "10.1.0.0/16", "next-hop-interface": "br9"},
				}},
			}
			f.Hosts[0].NetworkConfigKey = "nc"
		}, []string{
			"nc: bond port eth5 in node m0's networkConfig",
			"nc: route next-hop interface br9 in node m0's networkConfig",
		}},
		{"NMState that is not a mapping", func(f *Facts) {
			f.Hosts[0].NetworkConfig, f.Hosts[0].NetworkConfigKey = []any{"eno1"}, "nc"
		}, []string{"nc: networkConfig of node m0 is not a mapping"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := base()
			tc.change(f)
			var got []string
			for _, x := range Run(f) {
				got = append(got, x.Key.(string)+": "+x.Message)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %d findings, want %d:\n  %s", len(got), len(tc.want), strings.Join(got, "\n  "))
			}
			for i, w := range tc.want {
				if !strings.HasPrefix(got[i], w) {
					t.Errorf("finding %d:\n  %s\nwant prefix\n  %s", i, got[i], w)
				}
			}
		})
	}
}

// imageBased makes f an image-based hub install of n control-plane hosts
// with BMCs and no VIPs.
func imageBased(f *Facts, n int) {
	f.Method, f.HubHosts, f.ControlPlane, f.RendezvousIP = MethodImage, true, n, Value{}
	f.APIVIPs, f.IngressVIPs = nil, nil
	f.Hosts = f.Hosts[:n]
	for i := range f.Hosts {
		f.Hosts[i].BMC = &BMC{Key: "bmc", CredentialsName: v("bmc-secret", "bmc.name")}
	}
}
