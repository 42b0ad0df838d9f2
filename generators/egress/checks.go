package egress

import (
	"fmt"
	"net"
	"reflect"
	"strings"

	"github.com/siteforge/siteforge/generators/pools"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/site"
)

// The rules an EgressIP must pass for OVN-Kubernetes to assign it
// (networking.md section 6). Each rejection names the OVN-K event reason it
// avoids where there is one.

// object is one EgressIP of the site, parsed.
type object struct {
	name string
	eip  site.EgressIP
	ips  []net.IP // nil where the text does not parse
	path string
}

func (o object) ipPath(i int) string { return pools.Index(o.path+".ips", i) }

// objects lists the site's EgressIPs sorted by name.
func objects(s *site.Site) []object {
	if s.Egress == nil {
		return nil
	}
	var out []object
	for _, name := range pools.SortedKeys(s.Egress.EgressIPs) {
		eip := s.Egress.EgressIPs[name]
		o := object{name: name, eip: eip, path: pools.Field("egress", "egressIPs", name)}
		for _, text := range eip.IPs {
			o.ips = append(o.ips, net.ParseIP(text))
		}
		out = append(out, o)
	}
	return out
}

// checker runs the rules over a site.
type checker struct {
	s     *site.Site
	minor platform.OCPMinor
	hosts hostSet
	diags diag.List
}

func (c *checker) at(path, msg, hint string) {
	c.diags = append(c.diags, diag.Diagnostic{Pos: c.s.Positions.Of(path), Path: path, Message: msg, Hint: hint})
}

// check runs every rule and returns the diagnostics.
func check(s *site.Site, minor platform.OCPMinor, objs []object, primaryOnly bool) diag.List {
	total := 0
	for _, o := range objs {
		total += len(o.ips)
	}
	c := &checker{s: s, minor: minor, hosts: buildHosts(s, primaryOnly, total)}
	c.assignablePools()
	c.addresses(objs)
	c.families(objs)
	if len(c.diags) > 0 {
		// Counting nodes for addresses already refused says nothing new.
		return c.diags
	}
	for _, o := range objs {
		c.enoughNodes(o)
	}
	if len(c.diags) == 0 {
		c.capacity(objs)
	}
	return c.diags
}

// assignablePools refuses pools that cannot host egress IPs.
func (c *checker) assignablePools() {
	if c.s.Cluster.Platform != awsNoControlPlaneEgress {
		return
	}
	for i, name := range c.s.Egress.AssignablePools {
		if p, ok := c.s.Pools[name]; ok && p.Role == site.RoleMaster {
			c.at(pools.Index("egress.assignablePools", i), fmt.Sprintf("pool %q is the control plane: on AWS control-plane nodes cannot host egress IPs", name),
				"list compute pools only")
		}
	}
}

// addresses checks each IP on its own and against the others.
func (c *checker) addresses(objs []object) {
	nodes := nodeAddresses(c.s)
	vips := map[string]string{}
	for _, v := range c.s.Network.APIVIPs {
		vips[normalize(v)] = "the API VIP"
	}
	for _, v := range c.s.Network.IngressVIPs {
		vips[normalize(v)] = "the ingress VIP"
	}
	type reserved struct {
		what string
		nets []*net.IPNet
	}
	var clusterNets []string
	for _, cn := range c.s.Network.ClusterNetwork {
		clusterNets = append(clusterNets, cn.CIDR)
	}
	reservedNets := []reserved{
		{"the cluster network", parseCIDRs(clusterNets)},
		{"the service network", parseCIDRs(c.s.Network.ServiceNetwork)},
	}
	seen := map[string]string{} // ip -> "EgressIP <name>"
	for _, o := range objs {
		for i, ip := range o.ips {
			path := o.ipPath(i)
			text := o.eip.IPs[i]
			if ip == nil {
				c.at(path, fmt.Sprintf("%q is not an IP address (OVN-K InvalidEgressIP)", text), "write an IPv4 or IPv6 address")
				continue
			}
			key := ip.String()
			if prev, dup := seen[key]; dup {
				c.at(path, fmt.Sprintf("%s is already an egress IP of %s: an address may be in one EgressIP only, once (OVN-K UnsupportedRequest)", key, prev),
					"remove the repeated address")
				continue
			}
			seen[key] = "EgressIP " + o.name
			if who, ok := nodes[key]; ok {
				c.at(path, fmt.Sprintf("%s is the address of %s (OVN-K EgressIPConflict)", key, who), "use a free address of the node subnet")
				continue
			}
			if what, ok := vips[key]; ok {
				c.at(path, fmt.Sprintf("%s is %s: keepalived floats it between nodes", key, what), "use a free address of the node subnet")
				continue
			}
			clash := false
			for _, r := range reservedNets {
				for _, n := range r.nets {
					if n.Contains(ip) {
						c.at(path, fmt.Sprintf("%s is inside %s %s", key, r.what, n), "egress IPs are node-network addresses")
						clash = true
					}
				}
			}
			if clash {
				continue
			}
			hostable := false
			for _, h := range c.hosts.hosts {
				if h.canHost(ip) {
					hostable = true
					break
				}
			}
			if !hostable {
				where := "no assignable node"
				if subnets := hostSubnets(c.hosts); len(subnets) > 0 {
					where = "the assignable nodes can host addresses of " + strings.Join(subnets, ", ")
				}
				scope := "the subnet of a node's interface"
				if cloudPlatforms[c.s.Cluster.Platform] {
					scope = "the subnet of a node's primary interface (on " + c.s.Cluster.Platform + " no other)"
				}
				c.at(path, fmt.Sprintf("%s is outside every subnet of the assignable pools: an egress IP must be inside %s; %s", key, scope, where),
					"use an address of an assignable pool's subnet, or list the pool holding it in egress.assignablePools")
				continue
			}
			for _, n := range c.allSubnets() {
				if n.Contains(ip) && ip.To4() != nil && (ip.Equal(n.IP) || ip.Equal(broadcast(n))) && !isHostRoute(n) {
					c.at(path, fmt.Sprintf("%s is the network or broadcast address of %s", key, n), "use a host address of the subnet")
					break
				}
			}
		}
	}
}

func (c *checker) allSubnets() []*net.IPNet {
	var out []*net.IPNet
	for _, h := range c.hosts.hosts {
		out = union(out, h.subnets)
	}
	return out
}

func broadcast(n *net.IPNet) net.IP {
	ip := n.IP.To4()
	if ip == nil {
		return nil
	}
	out := make(net.IP, 4)
	for i := range ip {
		out[i] = ip[i] | ^n.Mask[len(n.Mask)-4+i]
	}
	return out
}

// isHostRoute: a /31 or /32 has no network or broadcast address.
func isHostRoute(n *net.IPNet) bool {
	ones, bits := n.Mask.Size()
	return bits-ones <= 1
}

func normalize(ip string) string {
	if p := net.ParseIP(ip); p != nil {
		return p.String()
	}
	return ip
}

// families applies the dual-stack rules: before dualStackObjectSince an
// object holds one family only; a dual-stack pair is never split over two
// objects with the same selectors.
func (c *checker) families(objs []object) {
	fam := func(o object) (v4, v6 bool) {
		for _, ip := range o.ips {
			if ip == nil {
				continue
			}
			if ip.To4() != nil {
				v4 = true
			} else {
				v6 = true
			}
		}
		return v4, v6
	}
	for _, o := range objs {
		if v4, v6 := fam(o); v4 && v6 && c.minor < dualStackObjectSince {
			c.at(o.path+".ips", fmt.Sprintf("EgressIP %q mixes IPv4 and IPv6 addresses: one object holds both families from OpenShift %s (dual-stack EgressIP), this cluster is %s",
				o.name, dualStackObjectSince, c.minor), "keep one address family per EgressIP on this release")
		}
	}
	for i, a := range objs {
		for _, b := range objs[i+1:] {
			a4, a6 := fam(a)
			b4, b6 := fam(b)
			split := (a4 && !a6 && b6 && !b4) || (a6 && !a4 && b4 && !b6)
			if !split || !sameSelectors(a.eip, b.eip) {
				continue
			}
			hint := fmt.Sprintf("put the IPv4 and IPv6 addresses in one EgressIP (supported from %s)", dualStackObjectSince)
			if c.minor < dualStackObjectSince {
				hint = fmt.Sprintf("dual-stack egress IPs need OpenShift %s or later: keep one address family", dualStackObjectSince)
			}
			c.at(b.path, fmt.Sprintf("EgressIPs %q and %q select the same pods, one with IPv4 and one with IPv6 addresses: a dual-stack pair split over two objects is not supported",
				a.name, b.name), hint)
		}
	}
}

func sameSelectors(a, b site.EgressIP) bool {
	return reflect.DeepEqual(a.NamespaceSelector, b.NamespaceSelector) && reflect.DeepEqual(a.PodSelector, b.PodSelector)
}

// enoughNodes checks that each address of an object can go to its own
// node: OVN-K puts at most one address of an object on a node, so N
// addresses need N distinct labelled nodes that can host them (a bipartite
// matching, addresses to nodes).
func (c *checker) enoughNodes(o object) {
	edges := make([][]int, len(o.ips))
	for i, ip := range o.ips {
		for j, h := range c.hosts.hosts {
			if h.canHost(ip) {
				edges[i] = append(edges[i], j)
			}
		}
	}
	matched := maxMatching(edges, len(c.hosts.hosts))
	if matched == len(o.ips) {
		return
	}
	var per []string
	for i, ip := range o.ips {
		per = append(per, fmt.Sprintf("%s: %d node(s)", ip, len(edges[i])))
	}
	c.at(o.path+".ips", fmt.Sprintf("EgressIP %q has %d addresses but only %d can be placed: a node hosts at most one address of an object, and the assignable nodes that can host them are %s (OVN-K NoMatchingNodeFound)",
		o.name, len(o.ips), matched, strings.Join(per, ", ")),
		"label more nodes of the addresses' subnets (egress.assignablePools), or use fewer addresses")
}

// maxMatching is Kuhn's augmenting-path bipartite matching: left i may take
// any right in edges[i]; returns the size of a maximum matching.
func maxMatching(edges [][]int, right int) int {
	owner := make([]int, right)
	for i := range owner {
		owner[i] = -1
	}
	var try func(i int, seen []bool) bool
	try = func(i int, seen []bool) bool {
		for _, j := range edges[i] {
			if seen[j] {
				continue
			}
			seen[j] = true
			if owner[j] < 0 || try(owner[j], seen) {
				owner[j] = i
				return true
			}
		}
		return false
	}
	n := 0
	for i := range edges {
		if try(i, make([]bool, right)) {
			n++
		}
	}
	return n
}

// capacity checks, on clouds with a per-node limit, that all addresses fit:
// a max flow from addresses to nodes, one address of an object per node,
// at most the node's capacity in all.
func (c *checker) capacity(objs []object) {
	capc, ok := cloudCapacities[c.s.Cluster.Platform]
	if !ok || len(c.hosts.unknown) > 0 {
		return
	}
	perNode := capc.perNode - capc.usedByNode
	// Nodes: 0 source, 1 sink, then addresses, then (object, host) pairs,
	// then hosts.
	g := newFlow()
	const src, sink = 0, 1
	next := 2
	hostNode := map[int]int{}
	for j := range c.hosts.hosts {
		hostNode[j] = next
		g.add(next, sink, perNode)
		next++
	}
	total := 0
	for _, o := range objs {
		pair := map[int]int{}
		for _, ip := range o.ips {
			a := next
			next++
			g.add(src, a, 1)
			total++
			for j, h := range c.hosts.hosts {
				if !h.canHost(ip) {
					continue
				}
				p, ok := pair[j]
				if !ok {
					p = next
					next++
					pair[j] = p
					g.add(p, hostNode[j], 1)
				}
				g.add(a, p, 1)
			}
		}
	}
	if got := g.maxFlow(src, sink); got < total {
		c.at("egress.egressIPs", fmt.Sprintf("%d egress IPs do not fit on the assignable nodes: %s allows %d %s (%d per node once the node's own address is counted); %d fit",
			total, c.s.Cluster.Platform, capc.perNode, capc.unit, perNode, got),
			"label more nodes (egress.assignablePools) or use fewer egress IPs")
	}
}

// flow is a small max-flow network (Edmonds-Karp).
type flow struct {
	capacity map[[2]int]int
	adj      map[int][]int
}

func newFlow() *flow { return &flow{capacity: map[[2]int]int{}, adj: map[int][]int{}} }

func (f *flow) add(a, b, c int) {
	if _, ok := f.capacity[[2]int{a, b}]; !ok {
		f.adj[a] = append(f.adj[a], b)
		f.adj[b] = append(f.adj[b], a)
	}
	f.capacity[[2]int{a, b}] += c
}

func (f *flow) maxFlow(src, sink int) int {
	total := 0
	for {
		prev := map[int]int{src: src}
		queue := []int{src}
		for len(queue) > 0 {
			if _, found := prev[sink]; found {
				break
			}
			u := queue[0]
			queue = queue[1:]
			for _, v := range f.adj[u] {
				if _, seen := prev[v]; !seen && f.capacity[[2]int{u, v}] > 0 {
					prev[v] = u
					queue = append(queue, v)
				}
			}
		}
		if _, ok := prev[sink]; !ok {
			return total
		}
		push := -1
		for v := sink; v != src; v = prev[v] {
			if c := f.capacity[[2]int{prev[v], v}]; push < 0 || c < push {
				push = c
			}
		}
		for v := sink; v != src; v = prev[v] {
			f.capacity[[2]int{prev[v], v}] -= push
			f.capacity[[2]int{v, prev[v]}] += push
		}
		total += push
	}
}
