package manifests

import (
	"fmt"
	"testing"

	"github.com/siteforge/siteforge/internal/platform"
)

func readNode(t *testing.T, annotations string) *Node {
	t.Helper()
	objs, d := ReadBytes("node.yaml", []byte("apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\n  labels: {k8s.ovn.org/egress-assignable: \"\"}\n  annotations:\n"+annotations+
		"status:\n  addresses:\n  - {type: InternalIP, address: 192.168.126.202}\n  - {type: Hostname, address: n1}\n"))
	if len(d) > 0 {
		t.Fatal(d)
	}
	nodes := Nodes(objs)
	if len(nodes) != 1 {
		t.Fatalf("%d nodes", len(nodes))
	}
	return nodes[0]
}

// TestNodeSecondaryHostNetworks: node1 of ovn-org/ovn-kubernetes
// go-controller/pkg/clustermanager/egressip_controller_test.go "should
// re-assign EgressIPs and perform proper egressIP allocation changes": its
// host-cidrs hold the primary address and two secondary host networks
// (10.10.10.0/24, 7.7.0.0/16), where its egress IPs 10.10.10.100 and
// 7.7.8.100 are assigned. The primary entry is removed
// (ParseNodeHostCIDRsExcludeOVNNetworks), a link-local one is not a host
// network (GetSecondaryHostNetworkContainingIP keeps global unicast only).
func TestNodeSecondaryHostNetworks(t *testing.T) {
	n := readNode(t, `    k8s.ovn.org/node-primary-ifaddr: '{"ipv4": "192.168.126.202/24", "ipv6": ""}'
    k8s.ovn.org/host-cidrs: '["192.168.126.202/24","10.10.10.3/24","7.7.7.7/16","169.254.0.2/17"]'
`)
	if got := fmt.Sprint(n.PrimarySubnets()); got != "[192.168.126.0/24]" {
		t.Errorf("primary subnets %s", got)
	}
	sec, ok := n.SecondaryHostNetworks()
	if got := fmt.Sprint(sec); !ok || got != "[10.10.10.0/24 7.7.0.0/16]" {
		t.Errorf("secondary host networks %s (%v)", got, ok)
	}
	if got := fmt.Sprint(n.HostAddresses()); got != "[192.168.126.202 10.10.10.3 7.7.7.7 169.254.0.2]" {
		t.Errorf("host addresses %s", got)
	}
	if n.HasCloudConfig || n.Cloud != nil {
		t.Error("no cloud config on this node")
	}
	if fmt.Sprint(n.Addresses) != "[192.168.126.202]" {
		t.Errorf("addresses %v", n.Addresses)
	}

	// Without node-primary-ifaddr OVN-K cannot tell the secondary networks
	// (ParseNodeHostCIDRsExcludeOVNNetworks fails): unknown, not none.
	n = readNode(t, `    k8s.ovn.org/host-cidrs: '["192.168.126.202/24","10.10.10.3/24"]'
`)
	if sec, ok := n.SecondaryHostNetworks(); ok || sec != nil {
		t.Errorf("without the primary address: %v %v", sec, ok)
	}
	// One bad entry: OVN-K refuses the annotation (makeCIDRs).
	n = readNode(t, `    k8s.ovn.org/node-primary-ifaddr: '{"ipv4": "192.168.126.202/24"}'
    k8s.ovn.org/host-cidrs: '["192.168.126.202/24","10.10.10.3"]'
`)
	if n.HasHostCIDRs {
		t.Error("a host-cidrs entry without a prefix reads")
	}
}

// TestNodeCloudCapacity: the capacity keys of
// cloud.network.openshift.io/egress-ipconfig as OVN-K
// util.ParseCloudEgressIPConfig reads them: an absent key is unlimited, a
// present one (0 included) is a limit; the ifaddr is the cloud subnet. The
// AWS and GCP values are the docs' examples ("Configuring an egress IP
// address", egress-ipconfig annotation on AWS and on Google Cloud).
func TestNodeCloudCapacity(t *testing.T) {
	u := platform.EgressCapacityUnlimited
	for _, tc := range []struct {
		annotation string
		subnets    string
		want       platform.EgressCapacity
	}{
		{`[{"interface":"eni-078d267045138e436","ifaddr":{"ipv4":"10.0.128.0/18"},"capacity":{"ipv4":14,"ipv6":15}}]`, "[10.0.128.0/18]", platform.EgressCapacity{IPv4: 14, IPv6: 15, IP: u}},
		{`[{"interface":"nic0","ifaddr":{"ipv4":"10.0.128.5/18"},"capacity":{"ip":14}}]`, "[10.0.128.0/18]", platform.EgressCapacity{IPv4: u, IPv6: u, IP: 14}},
		{`[{"interface":"p","ifaddr":{"ipv4":"10.0.0.0/24"},"capacity":{"ipv4":0}}]`, "[10.0.0.0/24]", platform.EgressCapacity{IPv4: 0, IPv6: u, IP: u}},
	} {
		n := readNode(t, "    cloud.network.openshift.io/egress-ipconfig: '"+tc.annotation+"'\n")
		if !n.HasCloudConfig || n.Cloud == nil {
			t.Fatalf("%s: not read", tc.annotation)
		}
		if got := fmt.Sprint(n.Cloud.Subnets); got != tc.subnets {
			t.Errorf("%s: subnets %s", tc.annotation, got)
		}
		if n.Cloud.Capacity != tc.want {
			t.Errorf("%s: capacity %+v, want %+v", tc.annotation, n.Cloud.Capacity, tc.want)
		}
	}
	n := readNode(t, "    cloud.network.openshift.io/egress-ipconfig: '[]'\n")
	if !n.HasCloudConfig || n.Cloud != nil {
		t.Errorf("empty annotation: %v %+v", n.HasCloudConfig, n.Cloud)
	}
}
