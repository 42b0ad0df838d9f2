package rules

import (
	"strings"
	"testing"

	"github.com/siteforge/siteforge/lint"
)

// egrEgressIP is an EgressIP object selecting namespaces labelled
// egress: <ns>.
func egrEgressIP(name, ns string, ips ...string) string {
	return "apiVersion: k8s.ovn.org/v1\nkind: EgressIP\nmetadata:\n  name: " + name +
		"\nspec:\n  egressIPs: [" + strings.Join(ips, ", ") + "]\n  namespaceSelector:\n    matchLabels:\n      egress: " + ns + "\n"
}

// egrInstallConfig is an install-config on platform with machine network
// 10.10.0.0/24 (and the VIPs on bare metal).
func egrInstallConfig(platform string) string {
	vips := ""
	if platform == "baremetal" {
		vips = "\n    apiVIPs: [10.10.0.5]\n    ingressVIPs: [10.10.0.6]"
	}
	return `apiVersion: v1
baseDomain: example.com
metadata:
  name: c
platform:
  ` + platform + `:` + vips + `
networking:
  machineNetwork:
  - cidr: 10.10.0.0/24
  clusterNetwork:
  - cidr: 10.128.0.0/14
    hostPrefix: 23
  serviceNetwork: [172.30.0.0/16]
`
}

// egrNode is a Node with an address, optionally egress-assignable, with
// extra annotation lines.
func egrNode(name, ip, providerID string, assignable bool, annotations ...string) string {
	out := "apiVersion: v1\nkind: Node\nmetadata:\n  name: " + name + "\n  labels:\n    kubernetes.io/os: linux\n"
	if assignable {
		out += `    k8s.ovn.org/egress-assignable: ""` + "\n"
	}
	if len(annotations) > 0 {
		out += "  annotations:\n"
		for _, a := range annotations {
			out += "    " + a + "\n"
		}
	}
	if providerID != "" {
		out += "spec:\n  providerID: " + providerID + "\n"
	}
	return out + "status:\n  addresses:\n  - type: InternalIP\n    address: " + ip + "\n"
}

const egrClusterVersion = `apiVersion: config.openshift.io/v1
kind: ClusterVersion
metadata:
  name: version
spec:
  channel: stable-%s
`

func init() {
	primary := func(cidr string) string { return `k8s.ovn.org/node-primary-ifaddr: '{"ipv4":"` + cidr + `"}'` }
	hostCIDRs := func(cidrs ...string) string {
		return `k8s.ovn.org/host-cidrs: '["` + strings.Join(cidrs, `","`) + `"]'`
	}
	// The bare-metal nodes of ovn-org/ovn-kubernetes go-controller/pkg/
	// clustermanager/egressip_controller_test.go "should re-assign EgressIPs
	// and perform proper egressIP allocation changes": node1 (labelled) has
	// the secondary host networks 10.10.10.0/24 and 7.7.0.0/16, node2 (not
	// labelled) also 5.5.0.0/16.
	secondaryNodes := egrNode("node1", "192.168.126.202", "", true, primary("192.168.126.202/24"),
		hostCIDRs("192.168.126.202/24", "10.10.10.3/24", "7.7.7.7/16")) + "---\n" +
		egrNode("node2", "192.168.126.51", "", false, primary("192.168.126.51/24"),
			hostCIDRs("192.168.126.51/24", "10.10.10.4/24", "7.7.7.8/16", "5.5.5.5/16"))
	cloudConfig := func(ifaddr, capacity string) string {
		return `cloud.network.openshift.io/egress-ipconfig: '[{"interface":"eni-1","ifaddr":` + ifaddr + `,"capacity":` + capacity + `}]'`
	}
	ruleCases = append(ruleCases,
		ruleCase{rule: "EGR001", name: "AWS address outside the machine network", files: map[string]string{
			"install-config.yaml": egrInstallConfig("aws"), "eip.yaml": egrEgressIP("a", "a", "192.168.1.10")},
			want: []string{"eip.yaml:6:15: error: 192.168.1.10 is outside every subnet of the machine networks (install-config networking.machineNetwork): an egress IP must be inside the subnet of a node's primary interface (on aws no other); the assignable nodes can host addresses of 10.10.0.0/24"}},
		ruleCase{rule: "EGR001", name: "AWS address in the machine network", files: map[string]string{
			"install-config.yaml": egrInstallConfig("aws"), "eip.yaml": egrEgressIP("a", "a", "10.10.0.200")}},
		ruleCase{rule: "EGR001", name: "no install-config: the subnets are unknown", files: map[string]string{"eip.yaml": egrEgressIP("a", "a", "192.168.1.10")}},
		// Upstream: 5.5.5.5/16 is a host network of node2 only, which is not
		// labelled: OVN-K assigns 5.5.5.100 to no node (assignEgressIPs,
		// event NoMatchingNodeFound).
		ruleCase{rule: "EGR001", name: "bare metal: a network of an unlabelled node only", files: map[string]string{
			"eip.yaml": egrEgressIP("a", "a", "5.5.5.100"), "nodes.yaml": secondaryNodes},
			want: []string{"eip.yaml:6:15: error: 5.5.5.100 is outside every subnet of the assignable nodes (Node objects labelled k8s.ovn.org/egress-assignable): " +
				"an egress IP must be inside the subnet of a node's primary interface or of one of its secondary host networks (k8s.ovn.org/host-cidrs); " +
				"the assignable nodes can host addresses of 192.168.126.0/24, 10.10.10.0/24, 7.7.0.0/16. OVN-K assigns it to no node (event NoMatchingNodeFound"}},
		// Upstream entries "Secondary host network" 10.10.10.100 and
		// 7.7.8.100: assigned to node1 on its secondary host networks.
		ruleCase{rule: "EGR001", name: "bare metal: secondary host networks of the labelled node", files: map[string]string{
			"a.yaml": egrEgressIP("a", "a", "10.10.10.100"), "b.yaml": egrEgressIP("b", "b", "7.7.8.100"), "nodes.yaml": secondaryNodes}},
		// On a cloud OVN-K looks at the egress-ipconfig subnet only, never at
		// host-cidrs (util.GetEgressIPNetwork); the annotation alone says
		// cloud here (no install-config, no providerID).
		ruleCase{rule: "EGR001", name: "cloud: a secondary host network does not count", files: map[string]string{
			"eip.yaml": egrEgressIP("a", "a", "10.10.10.100"),
			"node.yaml": egrNode("w0", "10.0.128.7", "", true, primary("10.0.128.7/18"), hostCIDRs("10.0.128.7/18", "10.10.10.3/24"),
				cloudConfig(`{"ipv4":"10.0.128.0/18"}`, `{"ipv4":14,"ipv6":15}`))},
			want: []string{"eip.yaml:6:15: error: 10.10.10.100 is outside every subnet of the assignable nodes (Node objects labelled k8s.ovn.org/egress-assignable): " +
				"an egress IP must be inside the subnet of a node's primary interface; the assignable nodes can host addresses of 10.0.128.0/18"}},
		ruleCase{rule: "EGR001", name: "cloud: the egress-ipconfig subnet", files: map[string]string{
			"eip.yaml": egrEgressIP("a", "a", "10.0.150.10"),
			"node.yaml": egrNode("w0", "10.0.128.7", "", true, primary("10.0.128.7/18"), hostCIDRs("10.0.128.7/18", "10.10.10.3/24"),
				cloudConfig(`{"ipv4":"10.0.128.0/18"}`, `{"ipv4":14,"ipv6":15}`))}},

		ruleCase{rule: "EGR002", name: "bare-metal address outside the machine network", files: map[string]string{
			"install-config.yaml": egrInstallConfig("baremetal"), "eip.yaml": egrEgressIP("a", "a", "10.30.0.5")},
			want: []string{"eip.yaml:6:15: warning: 10.30.0.5 is outside every subnet of the machine networks (install-config networking.machineNetwork): an egress IP must be inside the subnet of a node's interface"}},
		// A Node without k8s.ovn.org/host-cidrs: its secondary networks are
		// unknown, so an address outside its primary subnet is a warning.
		ruleCase{rule: "EGR002", name: "bare-metal Node without host-cidrs", files: map[string]string{
			"eip.yaml": egrEgressIP("a", "a", "10.10.10.100"), "node.yaml": egrNode("w0", "10.10.0.21", "", true, primary("10.10.0.21/24"))},
			want: []string{"eip.yaml:6:15: warning: 10.10.10.100 is outside every subnet of the assignable nodes"}},
		ruleCase{rule: "EGR002", name: "bare-metal Nodes with host-cidrs: EGR001 decides", files: map[string]string{
			"eip.yaml": egrEgressIP("a", "a", "5.5.5.100"), "nodes.yaml": secondaryNodes}},
		ruleCase{rule: "EGR002", name: "bare-metal address in the machine network", files: map[string]string{
			"install-config.yaml": egrInstallConfig("baremetal"), "eip.yaml": egrEgressIP("a", "a", "10.10.0.200")}},

		ruleCase{rule: "EGR003", name: "the ingress VIP, a node address and a service address", files: map[string]string{
			"install-config.yaml": egrInstallConfig("baremetal"), "eip.yaml": egrEgressIP("a", "a", "10.10.0.6", "10.10.0.21", "172.30.0.10"),
			"node.yaml": egrNode("w0", "10.10.0.21", "", true, primary("10.10.0.21/24"))},
			want: []string{
				"eip.yaml:6:15: error: 10.10.0.6 is the ingress VIP: keepalived floats it between nodes",
				"eip.yaml:6:26: error: 10.10.0.21 is the address of node w0 (OVN-K EgressIPConflict)",
				"eip.yaml:6:38: error: 172.30.0.10 is inside the service network 172.30.0.0/16",
			}},
		// Upstream "should not be able to allocate EgressIP equal to an
		// address in host-cidrs annotation": node1's second host-cidrs
		// address is the egress IP (isEgressIPAddrConflict).
		ruleCase{rule: "EGR003", name: "a secondary address of a node's host-cidrs", files: map[string]string{
			"eip.yaml": egrEgressIP("a", "a", "0:0:0:0:0:feff:c0a8:8e0a"),
			"nodes.yaml": egrNode("node1", "0:0:0:0:0:fedf:c0a8:8e0b", "", true, `k8s.ovn.org/node-primary-ifaddr: '{"ipv4":"","ipv6":"0:0:0:0:0:fedf:c0a8:8e0b/64"}'`,
				hostCIDRs("0:0:0:0:0:fedf:c0a8:8e0b/64", "0:0:0:0:0:feff:c0a8:8e0a/64")) + "---\n" +
				egrNode("node2", "0:0:0:0:0:fedf:c0a8:8e0c", "", true, `k8s.ovn.org/node-primary-ifaddr: '{"ipv4":"","ipv6":"0:0:0:0:0:fedf:c0a8:8e0c/64"}'`,
					hostCIDRs("0:0:0:0:0:fedf:c0a8:8e0c/64"))},
			want: []string{"eip.yaml:6:15: error: ::feff:c0a8:8e0a is the address of node node1 (k8s.ovn.org/host-cidrs) (OVN-K EgressIPConflict)"}},
		ruleCase{rule: "EGR003", name: "a free address next to the nodes' host-cidrs", files: map[string]string{
			"eip.yaml": egrEgressIP("a", "a", "0:0:0:0:0:feff:c0a8:8e0d"),
			"nodes.yaml": egrNode("node1", "0:0:0:0:0:fedf:c0a8:8e0b", "", true, `k8s.ovn.org/node-primary-ifaddr: '{"ipv4":"","ipv6":"0:0:0:0:0:fedf:c0a8:8e0b/64"}'`,
				hostCIDRs("0:0:0:0:0:fedf:c0a8:8e0b/64", "0:0:0:0:0:feff:c0a8:8e0a/64"))}},
		ruleCase{rule: "EGR003", name: "not an address", files: map[string]string{"eip.yaml": egrEgressIP("a", "a", "10.10.0.300")},
			want: []string{`eip.yaml:6:15: error: "10.10.0.300" is not an IP address (OVN-K InvalidEgressIP)`}},
		ruleCase{rule: "EGR003", name: "free addresses", files: map[string]string{
			"install-config.yaml": egrInstallConfig("baremetal"), "eip.yaml": egrEgressIP("a", "a", "10.10.0.200", "10.10.0.201")}},

		ruleCase{rule: "EGR004", name: "one address in two objects", files: map[string]string{
			"a.yaml": egrEgressIP("a", "a", "10.10.0.200"), "b.yaml": egrEgressIP("b", "b", "10.10.0.200")},
			want: []string{"b.yaml:6:15: error: 10.10.0.200 is already an egress IP of EgressIP a: an address may be in one EgressIP only (OVN-K UnsupportedRequest)"}},
		ruleCase{rule: "EGR004", name: "distinct addresses", files: map[string]string{
			"a.yaml": egrEgressIP("a", "a", "10.10.0.200"), "b.yaml": egrEgressIP("b", "b", "10.10.0.201")}},

		ruleCase{rule: "EGR005", name: "IPv4 and IPv6 in one object on 4.14", files: map[string]string{
			"cv.yaml": strings.Replace(egrClusterVersion, "%s", "4.14", 1), "eip.yaml": egrEgressIP("a", "a", "10.10.0.200", "fd00::200")},
			want: []string{`eip.yaml:6:14: error: EgressIP "a" mixes IPv4 and IPv6 addresses: one object holds both families from OpenShift 4.16 (dual-stack EgressIP), this cluster is 4.14 (from ClusterVersion version spec.channel "stable-4.14")`}},
		ruleCase{rule: "EGR005", name: "dual-stack pair split over two objects", files: map[string]string{
			"a.yaml": egrEgressIP("a", "x", "10.10.0.200"), "b.yaml": egrEgressIP("b", "x", "fd00::200")},
			want: []string{`b.yaml:6:14: error: EgressIPs "a" and "b" select the same pods, one with IPv4 and one with IPv6 addresses`}},
		ruleCase{rule: "EGR005", name: "IPv4 and IPv6 in one object on 4.16", files: map[string]string{
			"cv.yaml": strings.Replace(egrClusterVersion, "%s", "4.16", 1), "eip.yaml": egrEgressIP("a", "a", "10.10.0.200", "fd00::200")}},

		ruleCase{rule: "EGR006", name: "no node labelled assignable", files: map[string]string{
			"eip.yaml": egrEgressIP("a", "a", "10.10.0.200"), "node.yaml": egrNode("w0", "10.10.0.21", "", false, primary("10.10.0.21/24"))},
			want: []string{"eip.yaml:6:15: error: 10.10.0.200 cannot be assigned: no node may host egress IPs (none is labelled k8s.ovn.org/egress-assignable; OVN-K NoMatchingNodeFound)"}},
		ruleCase{rule: "EGR006", name: "two addresses, one assignable node", files: map[string]string{
			"eip.yaml": egrEgressIP("a", "a", "10.10.0.200", "10.10.0.201"),
			"node.yaml": egrNode("w0", "10.10.0.21", "", true, primary("10.10.0.21/24")) + "---\n" +
				egrNode("w1", "10.10.0.22", "", false, primary("10.10.0.22/24"))},
			want: []string{`eip.yaml:6:14: error: EgressIP "a" has 2 addresses but only 1 can be placed`}},
		ruleCase{rule: "EGR006", name: "two addresses, two assignable nodes", files: map[string]string{
			"eip.yaml": egrEgressIP("a", "a", "10.10.0.200", "10.10.0.201"),
			"node.yaml": egrNode("w0", "10.10.0.21", "", true, primary("10.10.0.21/24")) + "---\n" +
				egrNode("w1", "10.10.0.22", "", true, primary("10.10.0.22/24"))}},

		ruleCase{rule: "EGR007", name: "OpenStack node out of address pairs", files: map[string]string{
			"a.yaml": egrEgressIP("a", "a", "10.10.0.200"), "b.yaml": egrEgressIP("b", "b", "10.10.0.201"),
			"node.yaml": egrNode("w0", "10.10.0.21", "openstack:///0b1c", true,
				`cloud.network.openshift.io/egress-ipconfig: '[{"interface":"p","ifaddr":{"ipv4":"10.10.0.0/24"},"capacity":{"ip":1}}]'`)},
			want: []string{"a.yaml:6:14: error: 2 egress IPs do not fit on the assignable nodes: their capacities (cloud.network.openshift.io/egress-ipconfig) are w0 (ip 1)"}},
		ruleCase{rule: "EGR007", name: "OpenStack node with room", files: map[string]string{
			"a.yaml": egrEgressIP("a", "a", "10.10.0.200"), "b.yaml": egrEgressIP("b", "b", "10.10.0.201"),
			"node.yaml": egrNode("w0", "10.10.0.21", "openstack:///0b1c", true,
				`cloud.network.openshift.io/egress-ipconfig: '[{"interface":"p","ifaddr":{"ipv4":"10.10.0.0/24"},"capacity":{"ip":8}}]'`)}},
		// OVN-K checks the ipv4 and ipv6 capacities each on its own
		// (assignEgressIPs, getIPFamilyAllocationCount): room for 1 IPv4
		// address is not made 16 by room for 15 IPv6 ones.
		ruleCase{rule: "EGR007", name: "AWS node with room for one IPv4 address", files: map[string]string{
			"a.yaml": egrEgressIP("a", "a", "10.10.0.200"), "b.yaml": egrEgressIP("b", "b", "10.10.0.201"),
			"node.yaml": egrNode("w0", "10.10.0.21", "aws:///us-east-1a/i-0abc", true,
				cloudConfig(`{"ipv4":"10.10.0.0/24","ipv6":"fd00::/64"}`, `{"ipv4":1,"ipv6":15}`))},
			want: []string{"a.yaml:6:14: error: 2 egress IPs do not fit on the assignable nodes: their capacities (cloud.network.openshift.io/egress-ipconfig) are w0 (ipv4 1, ipv6 15); " +
				"each limit holds on its own, ipv4 and ipv6 per family and ip for both together (OVN-K assignEgressIPs); 1 fit"}},
		ruleCase{rule: "EGR007", name: "AWS node with room for one address of each family", files: map[string]string{
			"a.yaml": egrEgressIP("a", "a", "10.10.0.200"), "b.yaml": egrEgressIP("b", "b", "fd00::200"),
			"node.yaml": egrNode("w0", "10.10.0.21", "aws:///us-east-1a/i-0abc", true,
				cloudConfig(`{"ipv4":"10.10.0.0/24","ipv6":"fd00::/64"}`, `{"ipv4":1,"ipv6":15}`))}},
	)
}

// TestEgressRulesSkipSites: a site's EgressIPs are the generator's to
// refuse; a rendered site gives the EGR rules nothing to say.
func TestEgressRulesSkipSites(t *testing.T) {
	got := ingLintSite(t, ingSiteYAML+`egress:
  assignablePools: [worker]
  egressIPs:
    a:
      ips: [10.10.0.200]
      namespaceSelector: {matchLabels: {egress: a}}
`, "EGR001", "EGR002", "EGR003", "EGR004", "EGR005", "EGR006", "EGR007")
	if len(got) > 0 {
		t.Errorf("findings on a site that renders:\n  %s", strings.Join(got, "\n  "))
	}
	if lint.Lookup("EGR001") == nil {
		t.Fatal("EGR001 is not registered")
	}
}
