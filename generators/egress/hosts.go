package egress

import (
	"fmt"
	"net"

	"github.com/siteforge/siteforge/internal/site"
)

// host is a node that may host egress IPs: a listed node of an assignable
// pool, or a stand-in for one of its unlisted nodes.
type host struct {
	pool string
	// node is the node's name; "" for a stand-in.
	node string
	// subnets are the subnets whose addresses the node can host: the
	// subnet of its primary interface, and off-cloud the pool's other
	// subnets (secondary interfaces).
	subnets []*net.IPNet
	// primary are the subnets of the node's primary interface (what
	// OpenShift SDN's HostSubnet egressCIDRs may name).
	primary []*net.IPNet
}

// hostSet is every node that may host egress IPs.
type hostSet struct {
	hosts []host
	// unknown lists the assignable pools of unknown size: their stand-ins
	// make every count through them a lower bound.
	unknown []string
}

// parseCIDRs parses CIDRs, skipping what does not parse (the schema checks
// them).
func parseCIDRs(cidrs []string) []*net.IPNet {
	var out []*net.IPNet
	for _, c := range cidrs {
		if _, n, err := net.ParseCIDR(c); err == nil {
			out = append(out, n)
		}
	}
	return out
}

// containing returns the subnets that contain any of the addresses.
func containing(subnets []*net.IPNet, addrs ...string) []*net.IPNet {
	var out []*net.IPNet
	for _, n := range subnets {
		for _, a := range addrs {
			if ip := net.ParseIP(a); ip != nil && n.Contains(ip) {
				out = append(out, n)
				break
			}
		}
	}
	return out
}

// buildHosts lists the hosts of the assignable pools. primaryOnly is true on
// clouds and for OpenShift SDN, where an egress IP must be in the subnet of
// the node's primary interface; standIns is how many stand-ins a pool of
// unknown size gets (enough never to be the bottleneck).
func buildHosts(s *site.Site, primaryOnly bool, standIns int) hostSet {
	var hs hostSet
	machine := parseCIDRs(s.Network.MachineNetwork)
	for _, name := range assignablePools(s) {
		p := s.Pools[name]
		candidates := parseCIDRs(p.Subnets)
		if len(candidates) == 0 {
			candidates = machine
		}
		for _, n := range p.Nodes {
			primary := containing(candidates, n.IP, n.IPv6)
			if len(primary) == 0 {
				// The node's address is outside the pool's subnets:
				// its primary subnet is the machine network holding it.
				primary = containing(machine, n.IP, n.IPv6)
			}
			subnets := primary
			if !primaryOnly && len(p.Subnets) > 0 {
				subnets = union(primary, candidates)
			}
			hs.hosts = append(hs.hosts, host{pool: name, node: n.Name, subnets: subnets, primary: primary})
		}
		if len(p.Nodes) > 0 {
			continue
		}
		count := p.Size()
		if count < 0 {
			hs.unknown = append(hs.unknown, name)
			count = standIns
		}
		for i := 0; i < count; i++ {
			hs.hosts = append(hs.hosts, host{pool: name, subnets: candidates, primary: candidates})
		}
	}
	return hs
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

// canHost reports whether h can host ip.
func (h host) canHost(ip net.IP) bool {
	for _, n := range h.subnets {
		if n.Contains(ip) {
			return true
		}
	}
	return false
}

// label is how a host is named in messages.
func (h host) label() string {
	if h.node == "" {
		return fmt.Sprintf("a node of pool %s", h.pool)
	}
	return h.node
}

// assignablePools lists egress.assignablePools without repeats, in order.
func assignablePools(s *site.Site) []string {
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
func hostSubnets(hs hostSet) []string {
	seen := map[string]bool{}
	var out []string
	for _, h := range hs.hosts {
		for _, n := range h.subnets {
			k := fmt.Sprintf("%s (pool %s)", n, h.pool)
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	return out
}

// nodeAddresses maps every node address of the site to its node.
func nodeAddresses(s *site.Site) map[string]string {
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
