// Package egressip holds the rules an EgressIP must pass for the cluster to
// assign it, over plain data: the generator applies them to a site, the
// lint rules to manifests, with the same messages. It also holds the
// EgressIP type (k8s.ovn.org/v1) and the hosts model (which nodes may host
// which addresses).
package egressip

import (
	"fmt"
	"net"
	"reflect"
	"sort"
	"strconv"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/siteforge/siteforge/internal/cluster/nodes"
	"github.com/siteforge/siteforge/internal/platform"
)

// The rules an EgressIP must pass for OVN-Kubernetes to assign it
// (docs "Configuring an egress IP address"; OVN-K egressip controller). Each rejection names the OVN-K event reason it
// avoids where there is one. Check runs them over plain data, so the
// generator (over a site) and the lints (over plain manifests) apply the
// same rules with the same messages.

// Object is one EgressIP, as the rules see it.
type Object struct {
	Name              string
	IPs               []string
	NamespaceSelector *metav1.LabelSelector
	PodSelector       *metav1.LabelSelector
}

// Cluster is what the rules know about the cluster the EgressIPs go to.
// Zero fields are unknown, and the rules needing them are skipped.
type Cluster struct {
	// Platform is the platform as the site schema and install-config spell
	// it: aws, azure, gcp, openstack, baremetal, vsphere, nutanix, none.
	Platform string
	// Minor is the OpenShift release; 0: unknown (the one-object
	// address-family rule is skipped).
	Minor platform.OCPMinor
	// MinorFrom says where Minor was read, for messages ("" for a site,
	// whose release is its cluster.version).
	MinorFrom                        string
	ClusterNetworks, ServiceNetworks []string
	// NodeIPs and VIPs map an address (normalized) to what it is: "node m1
	// (pool master)", "the API VIP".
	NodeIPs, VIPs map[string]string
	// HostsKnown says Hosts lists every node that may host egress IPs (or
	// stand-ins for them); false skips the rules that need them: the
	// subnets, the node counts and the cloud capacity.
	HostsKnown bool
	Hosts      HostSet
	// HostsName says in messages where the hosts come from ("the
	// assignable pools").
	HostsName string
	// PrimaryOnly: an egress IP must be inside the subnet of a node's
	// primary interface (clouds, OpenShift SDN); Hosts' subnets are then
	// primary subnets only.
	PrimaryOnly bool
	// SecondaryKnown: off-cloud, Hosts' subnets hold every secondary host
	// network of every host (read from their k8s.ovn.org/host-cidrs), so
	// an address outside them is one no assignable node can host. False
	// where only primary subnets are known (install-config machine
	// networks, Nodes without the annotation): a secondary interface might
	// still hold it.
	SecondaryKnown bool
}

// ProblemKind says which rule a Problem breaks, so a lint can give each its
// own rule ID.
type ProblemKind int

// The kinds of problems, in the order the rules run.
const (
	InvalidIP        ProblemKind = iota // not an IP address (OVN-K InvalidEgressIP)
	DuplicateIP                         // an address in two objects, or twice (OVN-K UnsupportedRequest)
	NodeIP                              // a node's address (OVN-K EgressIPConflict)
	VIPAddress                          // the API or ingress VIP
	ReservedNetwork                     // inside the cluster or service network
	NoAssignableNode                    // no node may host egress IPs (OVN-K NoMatchingNodeFound)
	NotHostable                         // outside every subnet the assignable nodes can host (OVN-K NoMatchingNodeFound / UnassignedRequest)
	NetworkAddress                      // a subnet's network or broadcast address
	MixedFamilies                       // IPv4 and IPv6 in one object before platform.EgressDualStackObjectSince
	SplitDualStack                      // a dual-stack pair split over two objects
	TooFewNodes                         // more addresses than nodes able to host them (OVN-K NoMatchingNodeFound)
	OverCapacity                        // more addresses than the cloud lets the nodes hold
)

// Problem is one rule broken.
type Problem struct {
	Kind ProblemKind
	// Object is the index of the object in Check's input, -1 for the whole
	// set; IP the index of the address in it, -1 for the object's list of
	// addresses.
	Object, IP int
	Message    string
	// Hint is the fix, as the generator words it for a site.
	Hint string
}

// RuleOf is the lint rule of a problem on cluster c (lint/rules egress.go
// registers them): the site's refusals and lint's findings name one fact by
// one ID. An address outside every known subnet is EGR001 where the
// subnets the nodes may host are all known, else the warning EGR002.
func RuleOf(p Problem, c Cluster) string {
	switch p.Kind {
	case NotHostable:
		if c.PrimaryOnly || c.SecondaryKnown {
			return "EGR001"
		}
		return "EGR002"
	case InvalidIP, NodeIP, VIPAddress, ReservedNetwork, NetworkAddress:
		return "EGR003"
	case DuplicateIP:
		return "EGR004"
	case MixedFamilies, SplitDualStack:
		return "EGR005"
	case NoAssignableNode, TooFewNodes:
		return "EGR006"
	case OverCapacity:
		return "EGR007"
	}
	return ""
}

// parsed is one Object with its addresses parsed.
type parsed struct {
	Object
	ips []net.IP // nil where the text does not parse
}

// checker runs the rules.
type checker struct {
	c        Cluster
	problems []Problem
	// ops counts the steps of the rules that look at objects or hosts
	// together (pairs of objects, hosts examined for an address, matching
	// and flow steps): the tests hold it near-linear in the number of
	// EgressIPs.
	ops int
	// subnets caches allSubnets.
	subnets []*net.IPNet
}

func (c *checker) add(kind ProblemKind, obj, ip int, msg, hint string) {
	c.problems = append(c.problems, Problem{Kind: kind, Object: obj, IP: ip, Message: msg, Hint: hint})
}

// Check runs every rule and returns the problems, in input order. Counting
// nodes for addresses already refused says nothing new, so the node count
// and capacity rules run only when the others pass.
func Check(cl Cluster, objs []Object) []Problem {
	return check(cl, objs).problems
}

func check(cl Cluster, objs []Object) *checker {
	c := &checker{c: cl}
	ps := make([]parsed, len(objs))
	for i, o := range objs {
		ps[i] = parsed{Object: o}
		for _, text := range o.IPs {
			ps[i].ips = append(ps[i].ips, net.ParseIP(text))
		}
	}
	c.addresses(ps)
	c.families(ps)
	if len(c.problems) > 0 || !cl.HostsKnown {
		return c
	}
	for i, o := range ps {
		c.enoughNodes(i, o)
	}
	if len(c.problems) == 0 {
		c.capacity(ps)
	}
	return c
}

// addresses checks each IP on its own and against the others.
func (c *checker) addresses(objs []parsed) {
	type reserved struct {
		what string
		nets []*net.IPNet
	}
	reservedNets := []reserved{
		{"the cluster network", nodes.ParseCIDRs(c.c.ClusterNetworks)},
		{"the service network", nodes.ParseCIDRs(c.c.ServiceNetworks)},
	}
	seen := map[string]string{} // ip -> "EgressIP <name>"
	for oi, o := range objs {
		// OVN-K reads an object's addresses as a set
		// (clustermanager/egressip_controller.go validateEgressIPSpec):
		// a repeat inside one object is dropped, not refused.
		own := map[string]bool{}
		for i, ip := range o.ips {
			text := o.IPs[i]
			if ip == nil {
				c.add(InvalidIP, oi, i, fmt.Sprintf("%q is not an IP address (OVN-K InvalidEgressIP)", text), "write an IPv4 or IPv6 address")
				continue
			}
			key := ip.String()
			if own[key] {
				continue
			}
			own[key] = true
			if prev, dup := seen[key]; dup {
				c.add(DuplicateIP, oi, i, fmt.Sprintf("%s is already an egress IP of %s: an address may be in one EgressIP only (OVN-K UnsupportedRequest)", key, prev),
					"remove the repeated address")
				continue
			}
			seen[key] = "EgressIP " + o.Name
			if who, ok := c.c.NodeIPs[key]; ok {
				c.add(NodeIP, oi, i, fmt.Sprintf("%s is the address of %s (OVN-K EgressIPConflict)", key, who), "use a free address of the node subnet")
				continue
			}
			if what, ok := c.c.VIPs[key]; ok {
				c.add(VIPAddress, oi, i, fmt.Sprintf("%s is %s: keepalived floats it between nodes", key, what), "use a free address of the node subnet")
				continue
			}
			clash := false
			for _, r := range reservedNets {
				for _, n := range r.nets {
					if n.Contains(ip) {
						c.add(ReservedNetwork, oi, i, fmt.Sprintf("%s is inside %s %s", key, r.what, n), "egress IPs are node-network addresses")
						clash = true
					}
				}
			}
			if clash || !c.c.HostsKnown {
				continue
			}
			if len(c.c.Hosts.Hosts) == 0 {
				c.add(NoAssignableNode, oi, i, fmt.Sprintf("%s cannot be assigned: no node may host egress IPs (none is labelled %s; OVN-K NoMatchingNodeFound)", key, platform.EgressAssignableLabel),
					"list the pools whose nodes may host egress IPs in egress.assignablePools")
				continue
			}
			if len(c.candidates(ip)) == 0 {
				where := "no assignable node"
				if subnets := hostSubnets(c.c.Hosts); len(subnets) > 0 {
					where = "the assignable nodes can host addresses of " + strings.Join(subnets, ", ")
				}
				scope := "the subnet of a node's interface"
				switch {
				case platform.EgressCloudPlatform(c.c.Platform):
					scope = "the subnet of a node's primary interface (on " + c.c.Platform + " no other)"
				case c.c.PrimaryOnly:
					scope = "the subnet of a node's primary interface"
				case c.c.SecondaryKnown:
					scope = "the subnet of a node's primary interface or of one of its secondary host networks (" + platform.NodeHostCIDRsAnnotation + ")"
				}
				c.add(NotHostable, oi, i, fmt.Sprintf("%s is outside every subnet of %s: an egress IP must be inside %s; %s. OVN-K assigns it to no node "+
					"(event NoMatchingNodeFound, or UnassignedRequest when other addresses of the object are assigned) and leaves it out of the EgressIP's status",
					key, c.c.HostsName, scope, where),
					"use an address of an assignable pool's subnet, or list the pool holding it in egress.assignablePools")
				continue
			}
			for _, n := range c.allSubnets() {
				if n.Contains(ip) && ip.To4() != nil && (ip.Equal(n.IP) || ip.Equal(broadcast(n))) && !isHostRoute(n) {
					c.add(NetworkAddress, oi, i, fmt.Sprintf("%s is the network or broadcast address of %s", key, n), "use a host address of the subnet")
					break
				}
			}
		}
	}
}

// candidates is HostSet.Candidates, counted.
func (c *checker) candidates(ip net.IP) []int {
	c.ops += len(c.c.Hosts.Hosts)
	return c.c.Hosts.Candidates(ip)
}

// allSubnets are the subnets of every host, each once, worked out once.
func (c *checker) allSubnets() []*net.IPNet {
	if c.subnets == nil {
		c.ops += len(c.c.Hosts.Hosts)
		c.subnets = []*net.IPNet{}
		for _, h := range c.c.Hosts.Hosts {
			c.subnets = union(c.subnets, h.Subnets)
		}
	}
	return c.subnets
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

// Normalize is an address as the rules compare it (net.IP.String), or the
// text unchanged when it is not an address: the key of Cluster.NodeIPs and
// Cluster.VIPs.
func Normalize(ip string) string {
	if p := net.ParseIP(ip); p != nil {
		return p.String()
	}
	return ip
}

// families applies the dual-stack rules: before platform.EgressDualStackObjectSince an
// object holds one family only; a dual-stack pair is never split over two
// objects with the same selectors.
func (c *checker) families(objs []parsed) {
	fam := func(o parsed) (v4, v6 bool) {
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
	minor := c.c.Minor
	release := minor.String()
	if c.c.MinorFrom != "" {
		release += " (from " + c.c.MinorFrom + ")"
	}
	for oi, o := range objs {
		if v4, v6 := fam(o); v4 && v6 && minor > 0 && minor < platform.EgressDualStackObjectSince {
			c.add(MixedFamilies, oi, -1, fmt.Sprintf("EgressIP %q mixes IPv4 and IPv6 addresses: one object holds both families from OpenShift %s (dual-stack EgressIP), this cluster is %s",
				o.Name, platform.EgressDualStackObjectSince, release), "keep one address family per EgressIP on this release")
		}
	}
	// A pair is split when one object holds IPv4 only, the other IPv6
	// only, and both select the same pods. The objects of one family are
	// grouped by what they select, so each object meets only the objects
	// it is split from (no comparison of every pair), and the problems come
	// in the order of the pairs (i, j), i < j.
	type group struct{ v4, v6 []int } // indices, ascending
	groups := map[string]*group{}
	keys := make([]string, len(objs))
	for i, o := range objs {
		v4, v6 := fam(o)
		if v4 == v6 {
			continue // both families, or no address: never half of a split pair
		}
		keys[i] = selectorsKey(o.Object)
		g := groups[keys[i]]
		if g == nil {
			g = &group{}
			groups[keys[i]] = g
		}
		if v4 {
			g.v4 = append(g.v4, i)
		} else {
			g.v6 = append(g.v6, i)
		}
		c.ops++
	}
	for i, a := range objs {
		g := groups[keys[i]]
		if g == nil {
			continue
		}
		others := g.v6
		if a4, _ := fam(a); !a4 {
			others = g.v4
		}
		for _, j := range others[sort.SearchInts(others, i+1):] {
			c.ops++
			b := objs[j]
			hint := fmt.Sprintf("put the IPv4 and IPv6 addresses in one EgressIP (supported from %s)", platform.EgressDualStackObjectSince)
			if minor > 0 && minor < platform.EgressDualStackObjectSince {
				hint = fmt.Sprintf("dual-stack egress IPs need OpenShift %s or later: keep one address family", platform.EgressDualStackObjectSince)
			}
			c.add(SplitDualStack, j, -2, fmt.Sprintf("EgressIPs %q and %q select the same pods, one with IPv4 and one with IPv6 addresses: a dual-stack pair split over two objects is not supported",
				a.Name, b.Name), hint)
		}
	}
}

// selectorsKey is what an object selects, as a string: two objects have
// the same key exactly when sameSelectors holds (canonical selectors
// compared as reflect.DeepEqual compares them, so a nil list and an empty
// one differ as they do there).
func selectorsKey(o Object) string {
	var b strings.Builder
	for _, sel := range []*metav1.LabelSelector{canonical(o.NamespaceSelector), canonical(o.PodSelector)} {
		if sel == nil {
			b.WriteString("-;")
			continue
		}
		labels := make([]string, 0, len(sel.MatchLabels))
		for k, v := range sel.MatchLabels {
			labels = append(labels, strconv.Quote(k)+"="+strconv.Quote(v))
		}
		sort.Strings(labels)
		fmt.Fprintf(&b, "{%d:%s", len(labels), strings.Join(labels, ","))
		writeList := func(xs []string) {
			if xs == nil {
				b.WriteString("nil")
				return
			}
			fmt.Fprintf(&b, "[%d", len(xs))
			for _, x := range xs {
				b.WriteString(" " + strconv.Quote(x))
			}
			b.WriteString("]")
		}
		if sel.MatchExpressions == nil {
			b.WriteString("|nil")
		} else {
			fmt.Fprintf(&b, "|[%d", len(sel.MatchExpressions))
			for _, e := range sel.MatchExpressions {
				b.WriteString(" " + strconv.Quote(e.Key) + " " + strconv.Quote(string(e.Operator)) + " ")
				writeList(e.Values)
			}
			b.WriteString("]")
		}
		b.WriteString("};")
	}
	return b.String()
}

// sameSelectors compares selectors by meaning: an empty selector and a
// missing one select the same.
func sameSelectors(a, b Object) bool {
	return reflect.DeepEqual(canonical(a.NamespaceSelector), canonical(b.NamespaceSelector)) &&
		reflect.DeepEqual(canonical(a.PodSelector), canonical(b.PodSelector))
}

func canonical(sel *metav1.LabelSelector) *metav1.LabelSelector {
	if sel == nil || len(sel.MatchLabels) == 0 && len(sel.MatchExpressions) == 0 {
		return nil
	}
	out := &metav1.LabelSelector{MatchExpressions: sel.MatchExpressions}
	if len(sel.MatchLabels) > 0 {
		out.MatchLabels = sel.MatchLabels
	}
	return out
}

// enoughNodes checks that each address of an object can go to its own
// node: OVN-K puts at most one address of an object on a node, so N
// addresses need N distinct labelled nodes that can host them (a bipartite
// matching, addresses to the nodes OVN-K considers for each:
// HostSet.Candidates).
func (c *checker) enoughNodes(oi int, o parsed) {
	hosts := c.c.Hosts.Hosts
	edges := make([][]int, len(o.ips))
	for i, ip := range o.ips {
		edges[i] = c.candidates(ip)
	}
	matched := maxMatching(edges, len(hosts), &c.ops)
	if matched == len(o.ips) {
		c.narrowing(oi, o, edges)
		return
	}
	var per []string
	for i, ip := range o.ips {
		per = append(per, fmt.Sprintf("%s: %d node(s)", ip, len(edges[i])))
	}
	c.add(TooFewNodes, oi, -1, fmt.Sprintf("EgressIP %q has %d addresses but only %d can be placed: a node hosts at most one address of an object, and the assignable nodes that can host them are %s (OVN-K NoMatchingNodeFound)",
		o.Name, len(o.ips), matched, strings.Join(per, ", ")),
		"label more nodes of the addresses' subnets (egress.assignablePools), or use fewer addresses")
}

// narrowing checks what OVN-K's narrowing does to the object's other
// addresses: once assignEgressIPs meets an address some assignable node has
// on a secondary host network, it keeps only those nodes for the rest of
// the object's addresses ("assignableNodes = assignableNodesWithSecondaryNet",
// never reset; ovn-org/ovn-kubernetes go-controller/pkg/clustermanager/
// egressip_controller.go assignEgressIPs). It reads the addresses in no
// fixed order (a set), so when, with that address first, the others no
// longer fit on distinct nodes of that network, some are left unassigned
// on some runs (event UnassignedRequest).
func (c *checker) narrowing(oi int, o parsed, edges [][]int) {
	if len(o.ips) < 2 {
		return
	}
	hosts := c.c.Hosts.Hosts
	for i, ip := range o.ips {
		onSecondary := false
		for _, j := range edges[i] {
			if hosts[j].secondary(ip) {
				onSecondary = true
			}
		}
		if !onSecondary {
			continue
		}
		keep := map[int]bool{}
		for _, j := range edges[i] {
			keep[j] = true
		}
		narrowed := make([][]int, len(edges))
		for k := range edges {
			for _, j := range edges[k] {
				if keep[j] {
					narrowed[k] = append(narrowed[k], j)
				}
			}
		}
		if m := maxMatching(narrowed, len(hosts), &c.ops); m < len(o.ips) {
			var names []string
			for _, j := range edges[i] {
				names = append(names, hosts[j].label())
			}
			c.add(TooFewNodes, oi, i, fmt.Sprintf("EgressIP %q: %s is on a secondary host network of %s; when OVN-K places it first, it considers only those nodes for the object's other addresses, and then only %d of %d addresses can be placed; OVN-K reads them in no fixed order, so some stay unassigned on some runs (OVN-K assignEgressIPs, UnassignedRequest)",
				o.Name, ip, strings.Join(names, ", "), m, len(o.ips)),
				"put the object's addresses in one network, or split the secondary-network address into an EgressIP of its own")
			return
		}
	}
}

// maxMatching is Kuhn's augmenting-path bipartite matching: left i may take
// any right in edges[i]; returns the size of a maximum matching.
func maxMatching(edges [][]int, right int, ops *int) int {
	owner := make([]int, right)
	for i := range owner {
		owner[i] = -1
	}
	var try func(i int, seen []bool) bool
	try = func(i int, seen []bool) bool {
		for _, j := range edges[i] {
			*ops++
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
		*ops += right
		if try(i, make([]bool, right)) {
			n++
		}
	}
	return n
}

// capacity checks, on clouds, that all addresses fit in the nodes'
// capacities: a max flow from addresses to nodes, at most one address of an
// object per node and family, then the node's limit for the address's
// family, then its limit for all its egress IPs (platform.EgressCapacity:
// OVN-K assignEgressIPs checks the three independently). A node's own
// report (Host.Capacity) wins over the platform's table; a host with
// neither makes the capacity unknown, and the rule is skipped. An object
// with addresses of both families may take two places on a node here where
// OVN-K allows one: the flow can only err towards "fits", so what it
// refuses cannot be placed (enoughNodes judges the one-per-node rule).
func (c *checker) capacity(objs []parsed) {
	capc, table := platform.EgressCloudCapacities[c.c.Platform]
	hosts := c.c.Hosts.Hosts
	if len(c.c.Hosts.Unknown) > 0 || len(hosts) == 0 {
		return
	}
	caps := make([]platform.EgressCapacity, len(hosts))
	reported := 0
	for j, h := range hosts {
		switch {
		case h.Capacity != nil:
			caps[j] = *h.Capacity
			reported++
		case table:
			caps[j] = capc.Capacity()
		default:
			return
		}
	}
	total := 0
	for _, o := range objs {
		total += len(o.ips)
	}
	limit := func(n int) int {
		if n == platform.EgressCapacityUnlimited || n > total {
			return total
		}
		return n
	}
	// Nodes: 0 source, 1 sink, then per host its total and its two
	// families, then addresses and (object, host, family) places.
	g := newFlow()
	const src, sink = 0, 1
	next := 2
	famNode := make([][2]int, len(hosts))
	for j := range hosts {
		all := next
		g.add(all, sink, limit(caps[j].IP))
		for f, v6 := range []bool{false, true} {
			famNode[j][f] = next + 1 + f
			g.add(famNode[j][f], all, limit(caps[j].Family(v6)))
		}
		next += 3
	}
	for _, o := range objs {
		place := map[[2]int]int{} // (host, family) -> node
		for _, ip := range o.ips {
			a := next
			next++
			g.add(src, a, 1)
			f := 0
			if ip.To4() == nil {
				f = 1
			}
			for _, j := range c.candidates(ip) {
				p, ok := place[[2]int{j, f}]
				if !ok {
					p = next
					next++
					place[[2]int{j, f}] = p
					g.add(p, famNode[j][f], 1)
				}
				g.add(a, p, 1)
			}
		}
	}
	got := g.maxFlow(src, sink, &c.ops)
	if got >= total {
		return
	}
	if reported == 0 {
		perNode := capc.PerNode - capc.UsedByNode
		c.add(OverCapacity, -1, -1, fmt.Sprintf("%d egress IPs do not fit on the assignable nodes: %s allows %d %s (%d per node once the node's own address is counted); %d fit",
			total, c.c.Platform, capc.PerNode, capc.Unit, perNode, got), "label more nodes (egress.assignablePools) or use fewer egress IPs")
		return
	}
	var per []string
	for j, h := range hosts {
		from := ""
		if h.Capacity == nil {
			from = ", " + c.c.Platform + "'s limit"
		}
		per = append(per, fmt.Sprintf("%s (%s%s)", h.label(), describeCapacity(caps[j]), from))
	}
	c.add(OverCapacity, -1, -1, fmt.Sprintf("%d egress IPs do not fit on the assignable nodes: their capacities (%s) are %s; each limit holds on its own, "+
		"ipv4 and ipv6 per family and ip for both together (OVN-K assignEgressIPs); %d fit",
		total, platform.EgressCloudCapacityAnnotation, strings.Join(per, ", "), got), "label more nodes (egress.assignablePools) or use fewer egress IPs")
}

// describeCapacity words a node's limits: "ipv4 14, ipv6 15", "ip 14".
func describeCapacity(c platform.EgressCapacity) string {
	var parts []string
	for _, l := range []struct {
		key string
		n   int
	}{{"ipv4", c.IPv4}, {"ipv6", c.IPv6}, {"ip", c.IP}} {
		if l.n != platform.EgressCapacityUnlimited {
			parts = append(parts, fmt.Sprintf("%s %d", l.key, l.n))
		}
	}
	if len(parts) == 0 {
		return "unlimited"
	}
	return strings.Join(parts, ", ")
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

func (f *flow) maxFlow(src, sink int, ops *int) int {
	// A first flow along the paths that are free, each found by following
	// edges with capacity left, depth first, without coming back: most
	// sets fit on the first try. Breadth-first augmenting paths then make
	// it maximum (one search a unit of flow it adds: one search in all
	// when everything fit). The maximum's value does not depend on where
	// the search starts.
	total := 0
	var free func(u int, seen map[int]bool) bool
	free = func(u int, seen map[int]bool) bool {
		if u == sink {
			return true
		}
		seen[u] = true
		for _, v := range f.adj[u] {
			*ops++
			if !seen[v] && f.capacity[[2]int{u, v}] > 0 && free(v, seen) {
				f.capacity[[2]int{u, v}]--
				f.capacity[[2]int{v, u}]++
				return true
			}
		}
		return false
	}
	for _, a := range f.adj[src] {
		for f.capacity[[2]int{src, a}] > 0 && free(a, map[int]bool{src: true}) {
			f.capacity[[2]int{src, a}]--
			f.capacity[[2]int{a, src}]++
			total++
		}
	}
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
				*ops++
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
