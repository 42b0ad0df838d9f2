package egressip

import (
	"net"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/siteforge/siteforge/internal/cluster/nodes"
	"github.com/siteforge/siteforge/internal/platform"
)

// TestCheckPlainData: the rules over plain data, as the lints call them.
func TestCheckPlainData(t *testing.T) {
	sel := &metav1.LabelSelector{MatchLabels: map[string]string{"egress": "x"}}
	obj := func(name string, ips ...string) Object { return Object{Name: name, IPs: ips, NamespaceSelector: sel} }
	machine := nodes.ParseCIDRs([]string{"10.10.0.0/24"})
	u := platform.EgressCapacityUnlimited
	kinds := func(ps []Problem) []ProblemKind {
		var out []ProblemKind
		for _, p := range ps {
			out = append(out, p.Kind)
		}
		return out
	}
	for _, tc := range []struct {
		name string
		c    Cluster
		objs []Object
		want []ProblemKind
	}{
		{"nothing known: only the addresses themselves", Cluster{}, []Object{obj("a", "10.10.0.300", "10.10.0.7"), obj("b", "10.10.0.7")}, []ProblemKind{InvalidIP, DuplicateIP}},
		// OVN-K reads an object's addresses as a set (validateEgressIPSpec):
		// a repeat inside one object is dropped, not refused
		{"a repeat inside one object", Cluster{}, []Object{obj("a", "10.10.0.7", "10.10.0.7")}, nil},
		{"unknown release: one object may mix families", Cluster{}, []Object{obj("a", "10.10.0.7", "fd00::7")}, nil},
		{"4.14: one object may not", Cluster{Minor: 14}, []Object{obj("a", "10.10.0.7", "fd00::7")}, []ProblemKind{MixedFamilies}},
		{"split pair, any release", Cluster{}, []Object{obj("a", "10.10.0.7"), obj("b", "fd00::7")}, []ProblemKind{SplitDualStack}},
		{"no assignable node", Cluster{HostsKnown: true}, []Object{obj("a", "10.10.0.7")}, []ProblemKind{NoAssignableNode}},
		{"stand-ins: subnets only", Cluster{HostsKnown: true, PrimaryOnly: true, Hosts: HostSet{Hosts: StandIns("", machine, 3), Unknown: []string{"m"}}},
			[]Object{obj("a", "10.10.0.7", "10.10.0.8", "192.168.0.1")}, []ProblemKind{NotHostable}},
		{"reported capacity", Cluster{HostsKnown: true, Platform: "aws", Hosts: HostSet{Hosts: []Host{{Node: "n", Subnets: machine, Capacity: &platform.EgressCapacity{IPv4: u, IPv6: u, IP: 1}}}}},
			[]Object{obj("a", "10.10.0.7"), obj("b", "10.10.0.8")}, []ProblemKind{OverCapacity}},
		{"AWS without a report: no table, no judgement", Cluster{HostsKnown: true, Platform: "aws", Hosts: HostSet{Hosts: []Host{{Node: "n", Subnets: machine}}}},
			[]Object{obj("a", "10.10.0.7"), obj("b", "10.10.0.8")}, nil},
		{"one node, two addresses of an object", Cluster{HostsKnown: true, Hosts: HostSet{Hosts: []Host{{Node: "n", Subnets: []*net.IPNet{machine[0]}}}}},
			[]Object{obj("a", "10.10.0.7", "10.10.0.8")}, []ProblemKind{TooFewNodes}},
	} {
		got := kinds(Check(tc.c, tc.objs))
		if len(got) != len(tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
			}
		}
	}
}

func kindsOf(ps []Problem) []ProblemKind {
	var out []ProblemKind
	for _, p := range ps {
		out = append(out, p.Kind)
	}
	return out
}

func sameKinds(a, b []ProblemKind) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// offCloudHost is a bare-metal node as its Node object reports it: the
// primary subnet (k8s.ovn.org/node-primary-ifaddr) and the secondary host
// networks (k8s.ovn.org/host-cidrs).
func offCloudHost(name, primary string, secondary ...string) Host {
	p := nodes.ParseCIDRs([]string{primary})
	return Host{Node: name, Primary: p, Subnets: append(append([]*net.IPNet(nil), p...), nodes.ParseCIDRs(secondary)...)}
}

// TestSecondaryHostNetworks: off-cloud, a node hosts egress IPs on its
// primary subnet and on the secondary host networks of its host-cidrs
// annotation (ovn-org/ovn-kubernetes go-controller/pkg/util/
// node_annotations.go GetEgressIPNetwork, GetSecondaryHostNetworkContainingIP).
// The nodes are those of clustermanager/egressip_controller_test.go "should
// re-assign EgressIPs and perform proper egressIP allocation changes"
// (node1 assignable, node2 not: the lint and the generator pass only the
// assignable ones) and "should be able to allocate several EgressIPs for
// OVN and Secondary host networks and avoid the same node" (two nodes, five
// addresses: two assigned, one per node).
func TestSecondaryHostNetworks(t *testing.T) {
	sel := &metav1.LabelSelector{MatchLabels: map[string]string{"egress": "x"}}
	obj := func(name string, ips ...string) Object { return Object{Name: name, IPs: ips, NamespaceSelector: sel} }
	node1 := offCloudHost("node1", "192.168.126.0/24", "10.10.10.0/24", "7.7.0.0/16")
	c := Cluster{HostsKnown: true, SecondaryKnown: true, Platform: "baremetal", HostsName: "the assignable nodes", Hosts: HostSet{Hosts: []Host{node1}}}
	for _, tc := range []struct {
		name string
		ip   string
		want []ProblemKind
	}{
		{"OVN network", "192.168.126.101", nil},
		{"secondary host network", "10.10.10.100", nil},
		{"secondary host network, wider prefix", "7.7.8.100", nil},
		// 5.5.5.5/16 is on node2 only, which is not assignable.
		{"a network of an unlabelled node only", "5.5.5.100", []ProblemKind{NotHostable}},
	} {
		if got := kindsOf(Check(c, []Object{obj("egressip", tc.ip)})); !sameKinds(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
	ps := Check(c, []Object{obj("egressip", "5.5.5.100")})
	if len(ps) != 1 || !strings.Contains(ps[0].Message, "NoMatchingNodeFound") || !strings.Contains(ps[0].Message, "secondary host networks") {
		t.Errorf("message: %+v", ps)
	}

	// Two nodes with an OVN and a secondary network each, five addresses
	// of one object: one per node, so two are placed.
	n1 := offCloudHost("node1", "::/64", "0:0:1::/64")
	n2 := offCloudHost("node2", "::/64", "0:0:1::/64")
	c2 := Cluster{HostsKnown: true, SecondaryKnown: true, Hosts: HostSet{Hosts: []Host{n1, n2}}}
	five := obj("egressip", "0:0:1:0:0:feff:c0a8:8e0d", "0:0:1:0:0:feff:c0a8:8e0e", "0:0:1:0:0:feff:c0a8:8e0f", "0:0:0:0:0:feff:c0a8:8e1a", "0:0:0:0:0:feff:c0a8:8e1b")
	ps = Check(c2, []Object{five})
	if got := kindsOf(ps); !sameKinds(got, []ProblemKind{TooFewNodes}) || !strings.Contains(ps[0].Message, "has 5 addresses but only 2 can be placed") {
		t.Errorf("five addresses on two nodes: %+v", ps)
	}
	if got := kindsOf(Check(c2, []Object{obj("egressip", "0:0:1:0:0:feff:c0a8:8e0d", "0:0:0:0:0:feff:c0a8:8e1a")})); got != nil {
		t.Errorf("two addresses on two nodes: %v", got)
	}
}

// TestSecondaryNetworkNarrowsNodes: when some assignable node has an
// address on a secondary host network, OVN-K considers only those nodes
// for it, not the nodes whose primary subnet holds it
// (clustermanager/egressip_controller.go assignEgressIPs: "limit the
// assignable nodes to the set of nodes that connect to this network").
func TestSecondaryNetworkNarrowsNodes(t *testing.T) {
	sel := &metav1.LabelSelector{MatchLabels: map[string]string{"egress": "x"}}
	a := offCloudHost("a", "10.0.0.0/24", "10.50.0.0/24") // 10.50.0.0/24 is a secondary network of a
	b := offCloudHost("b", "10.50.0.0/24")                // and b's primary subnet
	c := Cluster{HostsKnown: true, SecondaryKnown: true, Hosts: HostSet{Hosts: []Host{a, b}}}
	if got := c.Hosts.Candidates(net.ParseIP("10.50.0.9")); len(got) != 1 || got[0] != 0 {
		t.Errorf("candidates for 10.50.0.9: %v, want [0] (node a only)", got)
	}
	two := Object{Name: "e", IPs: []string{"10.50.0.9", "10.50.0.10"}, NamespaceSelector: sel}
	if got := kindsOf(Check(c, []Object{two})); !sameKinds(got, []ProblemKind{TooFewNodes}) {
		t.Errorf("two addresses of the secondary network: %v, want TooFewNodes (node b is not considered)", got)
	}
	// Without the secondary network on a, both nodes' primary subnets
	// count: b takes one, a cannot host the other.
	c.Hosts.Hosts[0] = offCloudHost("a", "10.50.0.0/24")
	if got := kindsOf(Check(c, []Object{two})); got != nil {
		t.Errorf("both primary: %v", got)
	}
}

// TestCloudCapacityPerFamily: OVN-K checks the node's ipv4, ipv6 and ip
// capacities each on its own (clustermanager/egressip_controller.go
// assignEgressIPs: "exhausts it's IPv4 capacity", "... IPv6 capacity",
// "... IP capacity"; getIPFamilyAllocationCount), not their sum. The
// {"ipv4":14,"ipv6":15} shape is the docs' AWS example ("Configuring an
// egress IP address").
func TestCloudCapacityPerFamily(t *testing.T) {
	u := platform.EgressCapacityUnlimited
	subnets := nodes.ParseCIDRs([]string{"10.0.128.0/18", "fd00::/64"})
	host := func(c platform.EgressCapacity) Cluster {
		return Cluster{HostsKnown: true, PrimaryOnly: true, Platform: "aws", Minor: 16,
			Hosts: HostSet{Hosts: []Host{{Node: "n", Subnets: subnets, Primary: subnets, Capacity: &c}}}}
	}
	objs := func(ips ...string) []Object {
		var out []Object
		for i, ip := range ips {
			out = append(out, Object{Name: string(rune('a' + i)), IPs: []string{ip}, NamespaceSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"egress": string(rune('a' + i))}}})
		}
		return out
	}
	for _, tc := range []struct {
		name string
		c    platform.EgressCapacity
		ips  []string
		want []ProblemKind
	}{
		{"ipv4 1, ipv6 15: two IPv4 do not fit (a sum of 16 would)", platform.EgressCapacity{IPv4: 1, IPv6: 15, IP: u}, []string{"10.0.128.10", "10.0.128.11"}, []ProblemKind{OverCapacity}},
		{"ipv4 1, ipv6 15: one of each fits", platform.EgressCapacity{IPv4: 1, IPv6: 15, IP: u}, []string{"10.0.128.10", "fd00::10"}, nil},
		{"ip 1: one of each does not fit", platform.EgressCapacity{IPv4: u, IPv6: u, IP: 1}, []string{"10.0.128.10", "fd00::10"}, []ProblemKind{OverCapacity}},
		{"ipv4 0 reported: full", platform.EgressCapacity{IPv4: 0, IPv6: u, IP: u}, []string{"10.0.128.10"}, []ProblemKind{OverCapacity}},
		{"nothing reported: unlimited", platform.EgressCapacity{IPv4: u, IPv6: u, IP: u}, []string{"10.0.128.10", "10.0.128.11", "fd00::10"}, nil},
	} {
		ps := Check(host(tc.c), objs(tc.ips...))
		if got := kindsOf(ps); !sameKinds(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
	ps := Check(host(platform.EgressCapacity{IPv4: 1, IPv6: 15, IP: u}), objs("10.0.128.10", "10.0.128.11"))
	if len(ps) != 1 || !strings.Contains(ps[0].Message, "their capacities (cloud.network.openshift.io/egress-ipconfig) are n (ipv4 1, ipv6 15)") || !strings.Contains(ps[0].Message, "; 1 fit") {
		t.Errorf("message: %+v", ps)
	}

	// A node that reports nothing takes the platform's table (Azure: 256
	// per NIC, the node's own address included); one that reports ip 0 is
	// full.
	full := platform.EgressCapacity{IPv4: u, IPv6: u, IP: 0}
	az := Cluster{HostsKnown: true, PrimaryOnly: true, Platform: "azure", Hosts: HostSet{Hosts: []Host{
		{Node: "full", Subnets: subnets, Primary: subnets, Capacity: &full},
		{Node: "table", Subnets: subnets, Primary: subnets},
	}}}
	if got := kindsOf(Check(az, objs("10.0.128.10", "10.0.128.11"))); got != nil {
		t.Errorf("azure, one full node and one by the table: %v", got)
	}
	az.Hosts.Hosts = az.Hosts.Hosts[:1]
	ps = Check(az, objs("10.0.128.10"))
	if len(ps) != 1 || !strings.Contains(ps[0].Message, "are full (ip 0)") {
		t.Errorf("azure, one full node: %+v", ps)
	}
}

// TestNarrowingAcrossAddresses: OVN-K keeps the nodes of a secondary host
// network for an object's later addresses once it has placed one there
// (assignEgressIPs: assignableNodes = assignableNodesWithSecondaryNet, never
// reset), in no fixed order: an address of the primary subnet then fits
// only if those nodes can host it too.
func TestNarrowingAcrossAddresses(t *testing.T) {
	sel := &metav1.LabelSelector{MatchLabels: map[string]string{"egress": "x"}}
	n1 := offCloudHost("n1", "10.0.0.0/24", "10.50.0.0/24") // 10.50.0.0/24: a secondary network of n1 only
	n2 := offCloudHost("n2", "10.0.0.0/24")
	n3 := offCloudHost("n3", "10.0.0.0/24")
	c := Cluster{HostsKnown: true, SecondaryKnown: true, Hosts: HostSet{Hosts: []Host{n1, n2, n3}}}
	mixed := Object{Name: "e", IPs: []string{"10.50.0.9", "10.0.0.200"}, NamespaceSelector: sel}
	ps := Check(c, []Object{mixed})
	if got := kindsOf(ps); !sameKinds(got, []ProblemKind{TooFewNodes}) || !strings.Contains(ps[0].Message, "only 1 of 2 addresses can be placed") {
		t.Errorf("secondary address of n1 only with a primary one: %v %v", got, ps)
	}
	// the secondary network on two nodes: both addresses fit there
	c.Hosts.Hosts[1] = offCloudHost("n2", "10.0.0.0/24", "10.50.0.0/24")
	if got := kindsOf(Check(c, []Object{mixed})); got != nil {
		t.Errorf("secondary network on n1 and n2: %v", got)
	}
	// addresses of the primary subnet only: no narrowing
	if got := kindsOf(Check(c, []Object{{Name: "p", IPs: []string{"10.0.0.200", "10.0.0.201"}, NamespaceSelector: sel}})); got != nil {
		t.Errorf("primary only: %v", got)
	}
}
