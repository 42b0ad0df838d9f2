package egressip

import (
	"fmt"
	"net"

	"github.com/siteforge/siteforge/internal/cluster/nodes"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/site"
)

// Host is a node that may host egress IPs: a listed node of an assignable
// pool, a stand-in for one of its unlisted nodes, or (for the lints) a Node
// object labelled k8s.ovn.org/egress-assignable.
type Host struct {
	// Pool is the node's pool; "" where pools are unknown.
	Pool string
	// Node is the node's name; "" for a stand-in.
	Node string
	// Subnets are the subnets whose addresses the node can host: the
	// subnet of its primary interface, and off-cloud its secondary host
	// networks (a site's pool subnets; a Node's k8s.ovn.org/host-cidrs).
	Subnets []*net.IPNet
	// Primary are the subnets of the node's primary interface: OVN-K's
	// "OVN network" for egress IPs (what OpenShift SDN's HostSubnet
	// egressCIDRs may name). Empty: unknown, and every subnet counts as
	// primary.
	Primary []*net.IPNet
	// Capacity is how many egress IPs the node may hold, as it reports it
	// (CNCC's cloud.network.openshift.io/egress-ipconfig annotation); nil:
	// not reported, the platform's table applies
	// (platform.EgressCloudCapacities).
	Capacity *platform.EgressCapacity
}

// HostSet is every node that may host egress IPs.
type HostSet struct {
	Hosts []Host
	// Unknown lists the assignable pools of unknown size: their stand-ins
	// make every count through them a lower bound, and the capacity rule is
	// skipped.
	Unknown []string
}

// BuildHosts lists the hosts of the assignable pools. primaryOnly is true on
// clouds and for OpenShift SDN, where an egress IP must be in the subnet of
// the node's primary interface; standIns is how many stand-ins a pool of
// unknown size gets (enough never to be the bottleneck).
func BuildHosts(s *site.Site, primaryOnly bool, standIns int) HostSet {
	var hs HostSet
	machine := nodes.ParseCIDRs(s.Network.MachineNetwork)
	for _, name := range AssignablePools(s) {
		p := s.Pools[name]
		candidates := nodes.ParseCIDRs(p.Subnets)
		if len(candidates) == 0 {
			candidates = machine
		}
		for _, n := range p.Nodes {
			primary := nodes.PrimarySubnets(s, name, n)
			subnets := primary
			if !primaryOnly && len(p.Subnets) > 0 {
				subnets = union(primary, candidates)
			}
			hs.Hosts = append(hs.Hosts, Host{Pool: name, Node: n.Name, Subnets: subnets, Primary: primary})
		}
		if len(p.Nodes) > 0 {
			continue
		}
		count := p.Size()
		if count < 0 {
			hs.Unknown = append(hs.Unknown, name)
			count = standIns
		}
		hs.Hosts = append(hs.Hosts, StandIns(name, candidates, count)...)
	}
	return hs
}

// StandIns are n hosts of a pool whose nodes are not listed, each able to
// host addresses of subnets.
func StandIns(pool string, subnets []*net.IPNet, n int) []Host {
	out := make([]Host, 0, n)
	for i := 0; i < n; i++ {
		out = append(out, Host{Pool: pool, Subnets: subnets, Primary: subnets})
	}
	return out
}

func union(a, b []*net.IPNet) []*net.IPNet {
	out := append([]*net.IPNet(nil), a...)
	for _, n := range b {
		dup := false
		for _, m := range out {
			if m.String() == n.String() {
				dup = true
			}
		}
		if !dup {
			out = append(out, n)
		}
	}
	return out
}

// canHost reports whether h has a network holding ip.
func (h Host) canHost(ip net.IP) bool {
	for _, n := range h.Subnets {
		if n.Contains(ip) {
			return true
		}
	}
	return false
}

// inPrimary reports whether ip is in h's primary subnet (all of its
// subnets when the primary one is unknown).
func (h Host) inPrimary(ip net.IP) bool {
	if len(h.Primary) == 0 {
		return h.canHost(ip)
	}
	for _, n := range h.Primary {
		if n.Contains(ip) {
			return true
		}
	}
	return false
}

// secondary reports whether h would host ip on a secondary host network:
// outside its primary subnet, inside another of its subnets.
func (h Host) secondary(ip net.IP) bool { return !h.inPrimary(ip) && h.canHost(ip) }

// Candidates lists the hosts OVN-K considers for ip, by index: off-cloud,
// when some assignable node has ip on a secondary host network, only those
// nodes ("if the EIP is hosted by a secondary host network, then limit the
// assignable nodes to the set of nodes that connect to this network"),
// else the nodes whose primary subnet holds it (ovn-org/ovn-kubernetes
// go-controller/pkg/clustermanager/egressip_controller.go assignEgressIPs,
// util.GetEgressIPNetwork). OVN-K keeps that narrowed list for the
// object's later addresses too; Candidates judges each address on its own,
// and the checker's narrowing judges the effect across an object.
func (hs HostSet) Candidates(ip net.IP) []int {
	var primary, secondary []int
	for j, h := range hs.Hosts {
		switch {
		case h.inPrimary(ip):
			primary = append(primary, j)
		case h.secondary(ip):
			secondary = append(secondary, j)
		}
	}
	if len(secondary) > 0 {
		return secondary
	}
	return primary
}

// label is how a host is named in messages.
func (h Host) label() string {
	if h.Node == "" {
		return fmt.Sprintf("a node of pool %s", h.Pool)
	}
	return h.Node
}

// AssignablePools lists egress.assignablePools without repeats, in order.
func AssignablePools(s *site.Site) []string {
	if s.Egress == nil {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	for _, name := range s.Egress.AssignablePools {
		if _, ok := s.Pools[name]; ok && !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	return out
}

// hostSubnets lists, per assignable pool, the subnets its nodes can host
// addresses in, for messages.
func hostSubnets(hs HostSet) []string {
	seen := map[string]bool{}
	var out []string
	for _, h := range hs.Hosts {
		for _, n := range h.Subnets {
			k := n.String()
			if h.Pool != "" {
				k = fmt.Sprintf("%s (pool %s)", n, h.Pool)
			}
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	return out
}

// NodeAddresses maps every node address of the site to its node.
func NodeAddresses(s *site.Site) map[string]string {
	out := map[string]string{}
	for _, name := range s.PoolNames() {
		for _, n := range s.Pools[name].Nodes {
			for _, a := range []string{n.IP, n.IPv6} {
				if ip := net.ParseIP(a); ip != nil {
					out[ip.String()] = fmt.Sprintf("node %s (pool %s)", n.Name, name)
				}
			}
		}
	}
	return out
}

// SiteCluster is what the rules know about a site's cluster.
func SiteCluster(s *site.Site, minor platform.OCPMinor, hs HostSet, primaryOnly bool) Cluster {
	c := Cluster{
		Platform: s.Cluster.Platform, Minor: minor,
		ServiceNetworks: s.Network.ServiceNetwork,
		NodeIPs:         NodeAddresses(s), VIPs: map[string]string{},
		HostsKnown: true, Hosts: hs, HostsName: "the assignable pools", PrimaryOnly: primaryOnly,
		// The site describes every network of its pools' nodes: an
		// address outside them is one no node can host, which the egress
		// generator refuses (EGR001, not the warning EGR002 of a cluster
		// whose secondary host networks are not known).
		SecondaryKnown: !primaryOnly,
	}
	for _, cn := range s.Network.ClusterNetwork {
		c.ClusterNetworks = append(c.ClusterNetworks, cn.CIDR)
	}
	for _, v := range s.Network.APIVIPs {
		c.VIPs[Normalize(v)] = "the API VIP"
	}
	for _, v := range s.Network.IngressVIPs {
		c.VIPs[Normalize(v)] = "the ingress VIP"
	}
	return c
}
