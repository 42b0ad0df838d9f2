// Package routing is where a cluster's routers run and what they serve:
// the placement of an IngressController on the site's pools (a node
// selector the operator can build), the default router's plan, the shards'
// domains and host ports, and the exclusion of shard routes from the
// default router. The ingress generator encodes it; the ING lint rules
// judge sites and manifests with it.
package routing

import (
	"fmt"
	"net"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/siteforge/siteforge/internal/cluster/nodes"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/ruleid"
	"github.com/siteforge/siteforge/internal/site"
)

// DefaultPlan is what siteforge decides about the default controller.
type DefaultPlan struct {
	Placement Placement
	// Pinned: emit nodePlacement (ingress.default.pools, or the masters for
	// the manual remote-worker method).
	Pinned   bool
	Why      string
	Replicas *int32
	// Route and Namespace are the exclusions of the shards in excluded.
	Route, Namespace *metav1.LabelSelector
	Excluded         []string
	Origin           []diag.Position
	Minor            platform.OCPMinor
	Lifecycle        string
}

// PlanDefault places the default router: where the site says, else on the
// masters when the manual remote-worker method applies, else where the
// operator puts it. On keepalived platforms its nodes must be able to hold
// the ingress VIP.
func PlanDefault(s *site.Site, m *Model, in *site.Ingress, pinMasters bool) (DefaultPlan, diag.List) {
	plan := DefaultPlan{Minor: m.Minor, Lifecycle: s.Cluster.Lifecycle}
	var diags diag.List
	var poolPaths map[string]string
	switch {
	case in.Default != nil && len(in.Default.Pools) > 0:
		path := "ingress.default.pools"
		p, d := m.ByPools(platform.IngressDefaultControllerName, in.Default.Pools, path)
		if d != nil {
			return plan, diag.List{*d}
		}
		plan.Placement, plan.Pinned = p, true
		plan.Why = "ingress.default.pools"
		plan.Origin = append(plan.Origin, s.Positions.Of(path))
		poolPaths = map[string]string{}
		for i, name := range in.Default.Pools {
			poolPaths[name] = site.Index(path, i)
		}
	case pinMasters:
		var masters []string
		for _, name := range s.PoolNames() {
			if s.Pools[name].Role == site.RoleMaster {
				masters = append(masters, name)
			}
		}
		p, d := m.ByPools(platform.IngressDefaultControllerName, masters, "cluster.version")
		if d != nil {
			return plan, diag.List{*d}
		}
		plan.Placement, plan.Pinned = p, true
		plan.Why = fmt.Sprintf("the manual remote-worker method (OpenShift %s does not handle remote pools %s itself)",
			m.Minor, strings.Join(nodes.KeepalivedFixPools(s, m.Minor), ", "))
		plan.Origin = append(plan.Origin, s.Positions.Of("cluster.version"))
	default:
		plan.Placement = m.OperatorDefault()
	}

	if plan.Pinned && len(plan.Placement.Pools) == 0 {
		path := "ingress.default.pools"
		if poolPaths == nil {
			path = "cluster.version"
		}
		return plan, diag.List{{Pos: s.Positions.Of(path), Path: path,
			Message: fmt.Sprintf("no node can run the default router: the operator keeps routers off the remote workers it detects (%s; pools %s)",
				platform.RemoteWorkerLabel, strings.Join(plan.Placement.ExcludedRemote, ", ")),
			Hint: "run the default router on pools in the VIPs' subnet"}}
	}
	if nodes.RunsKeepalived(s) && len(s.Network.IngressVIPs) > 0 {
		for _, name := range plan.Placement.Pools {
			pool := s.Pools[name]
			path, ok := poolPaths[name]
			if !ok {
				path = site.Field("pools", name, "placement")
			}
			switch {
			case nodes.IsRemote(pool):
				diags = append(diags, diag.Diagnostic{Pos: s.Positions.Of(path), Path: path, Rule: ruleid.DefaultRouterOffVIPSubnet,
					Message: fmt.Sprintf("the default router would run on remote pool %q: the ingress VIP follows the default router's pods and can only sit on nodes in its own L2 subnet", name),
					Hint:    `run the default router on pools in the VIPs' subnet (ingress.default.pools: ["master"])`})
			case plan.Pinned && VIPSubnetProblem(s, name) != "":
				// Only where the site places the router: the operator's
				// default placement is the operator's, not the site's,
				// choice, and lint rule ING008 reports it.
				diags = append(diags, diag.Diagnostic{Pos: s.Positions.Of(path), Path: path, Rule: ruleid.DefaultRouterOffVIPSubnet,
					Message: VIPSubnetProblem(s, name),
					Hint:    "run the default router on pools in the VIPs' subnet"})
			}
		}
	}

	if in.Default != nil && in.Default.Replicas != nil {
		r := int32(*in.Default.Replicas)
		plan.Replicas = &r
		path := "ingress.default.replicas"
		plan.Origin = append(plan.Origin, s.Positions.Of(path))
		if !platform.IngressLoadBalancerPlatform(s.Cluster.Platform) && plan.Placement.Nodes >= 0 && int(r) > plan.Placement.Nodes {
			diags = append(diags, diag.Diagnostic{Pos: s.Positions.Of(path), Path: path,
				Message: fmt.Sprintf("%d HostNetwork router replicas need %d nodes, but the default router can run on %d (%s)",
					r, r, plan.Placement.Nodes, PoolsSummary(s, plan.Placement.Pools)),
				Hint: fmt.Sprintf("set replicas to %d or less", plan.Placement.Nodes), Rule: ruleid.HostNetworkReplicasExceed})
		}
	}
	return plan, diags
}

func anyContained(cidrs, ips []string) bool {
	for _, ip := range ips {
		if subnetContains(cidrs, ip) {
			return true
		}
	}
	return false
}

// HostRouter is one HostNetwork IngressController as far as host ports go.
type HostRouter struct {
	Name      string
	Ports     HostPorts
	Placement Placement
	// Path is where a port collision is reported.
	Path string
}

// ShardPlan is a shard checked and placed.
type ShardPlan struct {
	Placement Placement
	Replicas  int
	Ports     HostPorts
	PortsPath string
	Diags     diag.List
}

// PlanShard checks one shard (name, domain, placement, replicas, ports) and
// places it; problems the operator would still accept go to warn.
func PlanShard(warn func(rule string, d diag.Diagnostic), s *site.Site, m *Model, name string, sh site.Shard, path string, seenDomains map[string]string) ShardPlan {
	var out ShardPlan
	add := func(d *diag.Diagnostic) {
		if d != nil {
			out.Diags = append(out.Diags, *d)
		}
	}
	at := func(p, msg, hint string) *diag.Diagnostic {
		return &diag.Diagnostic{Pos: s.Positions.Of(p), Path: p, Message: msg, Hint: hint}
	}
	if name == platform.IngressDefaultControllerName {
		add(at(path, `a shard cannot be named "default": that is the default IngressController, which the operator owns`, "rename the shard"))
	}
	out.Diags = append(out.Diags, CheckDomain(s, name, sh.Domain, path+".domain", seenDomains)...)

	switch {
	case len(sh.Pools) > 0:
		p, d := m.ByPools(name, sh.Pools, path+".pools")
		add(d)
		out.Placement = p
	case sh.NodeSelector != nil:
		p, d, w := m.BySelector(name, sh.NodeSelector, path+".nodeSelector")
		add(d)
		if w != nil {
			warn(ruleid.RouterSelectorMatchesNoPool, *w)
		}
		out.Placement = p
	default:
		out.Placement = m.OperatorDefault()
	}
	if len(out.Diags) > 0 {
		return out
	}
	p := out.Placement
	placePath := path
	if len(sh.Pools) > 0 {
		placePath = path + ".pools"
	} else if sh.NodeSelector != nil {
		placePath = path + ".nodeSelector"
	}
	if len(p.Pools) == 0 && (len(sh.Pools) > 0 || len(p.ExcludedRemote) > 0) {
		msg := fmt.Sprintf("no node can run the routers of shard %q", name)
		if len(p.ExcludedRemote) > 0 {
			msg += fmt.Sprintf(": from %s baremetal IPI labels remote workers %s and the operator gives every router a node affinity excluding that label (pools %s)",
				platform.RemoteWorkerAutoDetectSince, platform.RemoteWorkerLabel, strings.Join(p.ExcludedRemote, ", "))
		}
		add(at(placePath, msg, "place the shard on pools in the VIPs' subnet, or run it elsewhere than on auto-detected remote workers"))
		return out
	}

	out.Replicas = OperatorDefaultReplicas(s)
	replicasPath := path
	if sh.Replicas != nil {
		out.Replicas = *sh.Replicas
		replicasPath = path + ".replicas"
	}
	if sh.EndpointPublishing == platform.PublishingHostNetwork && p.Nodes >= 0 && out.Replicas > p.Nodes {
		msg := fmt.Sprintf("%d HostNetwork router replicas need %d nodes (each binds the host ports), but shard %q can run on %d (%s)",
			out.Replicas, out.Replicas, name, p.Nodes, PoolsSummary(s, p.Pools))
		hint := fmt.Sprintf("set replicas to %d or less, or place the shard on more nodes", p.Nodes)
		if sh.Replicas == nil {
			// the operator's default: the same refusal as replicas written
			// (lint's ING006 counts the default too)
			msg += fmt.Sprintf(" (replicas defaults to %d)", platform.IngressDefaultReplicas)
		}
		d := at(replicasPath, msg, hint)
		d.Rule = ruleid.HostNetworkReplicasExceed
		add(d)
	}

	out.Ports = DefaultHostPorts
	out.PortsPath = path
	if sh.Ports != nil {
		out.Ports = HostPorts{sh.Ports.HTTP, sh.Ports.HTTPS, sh.Ports.Stats}
		out.PortsPath = path + ".ports"
		if sh.EndpointPublishing != platform.PublishingHostNetwork {
			warn(ruleid.RouterPortsIgnored, *at(out.PortsPath, fmt.Sprintf("ports apply to HostNetwork routers only; shard %q is published with %s", name, sh.EndpointPublishing), "remove ports"))
		}
		if msg := out.Ports.NotUnique(); msg != "" {
			d := at(out.PortsPath, msg, "give HTTP, HTTPS and stats three different ports")
			d.Rule = ruleid.HostNetworkPortCollision
			add(d)
		}
	}
	return out
}

// CheckDomain applies the admission rules of spec.domain and the operator's
// uniqueness rule; seen maps admitted domains to their controller.
func CheckDomain(s *site.Site, name, domain, path string, seen map[string]string) diag.List {
	var out diag.List
	at := func(p Problem) {
		out = append(out, diag.Diagnostic{Pos: s.Positions.Of(path), Path: path, Message: p.Message, Hint: p.Hint})
	}
	for _, p := range DomainProblems(name, domain) {
		at(p)
	}
	if other, dup := seen[domain]; dup {
		at(DomainConflict(domain, other))
		out[len(out)-1].Rule = ruleid.IngressDomainDuplicate
	} else {
		seen[domain] = name
	}
	return out
}

// Problem is a rule an IngressController breaks: what, and the fix.
type Problem struct{ Message, Hint string }

// DomainProblems applies the admission rules of spec.domain to the domain
// of controller name: length, DNS-1123, label length and the length of the
// router's canonical hostname.
func DomainProblems(name, domain string) []Problem {
	var out []Problem
	at := func(msg, hint string) { out = append(out, Problem{msg, hint}) }
	if len(domain) > platform.IngressMaxDomainLength {
		at(fmt.Sprintf("domain is %d characters, more than the %d an IngressController accepts", len(domain), platform.IngressMaxDomainLength), "use a shorter domain")
	}
	if errs := validation.IsDNS1123Subdomain(domain); len(errs) > 0 {
		at("domain must be a DNS-1123 subdomain: "+strings.Join(errs, "; "), "use lower-case letters, digits, '-' and '.'")
	}
	for _, label := range strings.Split(domain, ".") {
		if len(label) > platform.IngressMaxLabelLength {
			at(fmt.Sprintf("DNS label %q is %d characters, more than %d", label, len(label), platform.IngressMaxLabelLength), "shorten the label")
		}
	}
	if host := platform.IngressCanonicalHostPrefix + name + "." + domain; len(host) > platform.IngressMaxCanonicalHostLength {
		at(fmt.Sprintf("%s: %q is %d characters", platform.IngressCanonicalHostError, host, len(host)), "shorten the domain or the shard name")
	}
	return out
}

// DomainConflict is the operator's refusal of a second controller with the
// domain of controller other (Admitted=False).
func DomainConflict(domain, other string) Problem {
	return Problem{fmt.Sprintf("domain %s is already the domain of IngressController %q: the operator admits only one controller per domain", domain, other),
		"give every shard its own domain (the default controller has " + platform.IngressAppsDomainPrefix + "<cluster>.<base domain>)"}
}

// AppsDomain is the default controller's domain: the cluster's ingress
// domain apps.<cluster name>.<base domain>.
func AppsDomain(clusterName, baseDomain string) string {
	return platform.IngressAppsDomainPrefix + clusterName + "." + baseDomain
}

// HostPorts are a HostNetwork router's host ports: HTTP, HTTPS, stats.
type HostPorts [3]int

// DefaultHostPorts are the ports of a HostNetwork router that sets none.
var DefaultHostPorts = HostPorts{platform.RouterDefaultHTTPPort, platform.RouterDefaultHTTPSPort, platform.RouterDefaultStatsPort}

// NotUnique is the operator's refusal of a router binding one port twice, or
// "" when the three ports differ.
func (p HostPorts) NotUnique() string {
	h, hs, st := p[0], p[1], p[2]
	if h == hs || h == st || hs == st {
		return fmt.Sprintf(platform.CIOPortsNotUnique, hs, h, st)
	}
	return ""
}

// PortClashes lists the host ports two HostNetwork routers both bind, as
// "443 (HTTPS of "b", HTTPS of "a")": on a node running both, the second
// router's pod never starts.
func PortClashes(aName string, a HostPorts, bName string, b HostPorts) []string {
	names := [3]string{"HTTP", "HTTPS", "stats"}
	var clashes []string
	for x := 0; x < 3; x++ {
		for y := 0; y < 3; y++ {
			if a[x] == b[y] {
				clashes = append(clashes, fmt.Sprintf("%d (%s of %q, %s of %q)", b[y], names[y], bName, names[x], aName))
			}
		}
	}
	return clashes
}

// PortCollisions reports HostNetwork routers that share nodes and a host
// port: the second router's pods never start there (CIO desiredRouterDeployment; api operator/v1 IngressController).
func PortCollisions(s *site.Site, routers []HostRouter) diag.List {
	var out diag.List
	for j := 1; j < len(routers); j++ {
		for i := 0; i < j; i++ {
			a, b := routers[i], routers[j]
			shared := intersect(a.Placement.Pools, b.Placement.Pools)
			if len(shared) == 0 {
				continue
			}
			clashes := PortClashes(a.Name, a.Ports, b.Name, b.Ports)
			if len(clashes) == 0 {
				continue
			}
			out = append(out, diag.Diagnostic{Pos: s.Positions.Of(b.Path), Path: b.Path, Rule: ruleid.HostNetworkPortCollision,
				Message: fmt.Sprintf("HostNetwork routers %q and %q both run on pools %s and bind host port %s", a.Name, b.Name, strings.Join(shared, ", "), strings.Join(clashes, ", ")),
				Hint:    fmt.Sprintf("give shard %q other ports (ports: {http, https, stats}) or place it on other nodes", b.Name)})
		}
	}
	return out
}

func intersect(a, b []string) []string {
	in := map[string]bool{}
	for _, x := range a {
		in[x] = true
	}
	var out []string
	for _, x := range b {
		if in[x] {
			out = append(out, x)
		}
	}
	return out
}

// subnetContains reports whether any CIDR of cidrs contains ip.
func subnetContains(cidrs []string, ip string) bool {
	addr := net.ParseIP(ip)
	for _, c := range cidrs {
		if _, n, err := net.ParseCIDR(c); err == nil && addr != nil && n.Contains(addr) {
			return true
		}
	}
	return false
}

func PoolsSummary(s *site.Site, poolNames []string) string {
	if len(poolNames) == 0 {
		return "none"
	}
	var parts []string
	for _, name := range poolNames {
		p := s.Pools[name]
		var names []string
		for _, n := range p.Nodes {
			names = append(names, n.Name)
		}
		part := fmt.Sprintf("pool %s (%s", name, nodes.SizeString(p))
		if len(names) > 0 {
			part += ": " + strings.Join(names, ", ")
		}
		parts = append(parts, part+")")
	}
	return strings.Join(parts, "; ")
}
