// Package ingress renders the site's router shards (operator.openshift.io/v1
// IngressController), the changes the default controller needs (excluding
// the shards' routes, its placement), and a DNS note per shard whose records
// the operator does not manage. Every placement is one the router can build
// (placement.go), every exclusion an exact complement (exclude.go).
package ingress

import (
	"bytes"
	"fmt"
	"maps"
	"net"
	"slices"
	"strings"

	operatorv1 "github.com/openshift/api/operator/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/internal/cluster/nodes"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/site"
)

// Name is the generator's stable name.
const Name = "ingress"

func init() {
	generators.Register(generators.Generator{Name: Name, Generate: Generate})
}

// router is one HostNetwork IngressController as far as host ports go.
type router struct {
	name      string
	ports     HostPorts
	placement placement
	// path is where a port collision is reported.
	path string
}

// Generate renders the shards, the default controller's file and the DNS
// notes. Input problems come back as one diag.List.
func Generate(ctx *generators.Context, s *site.Site) ([]generators.Artifact, error) {
	minor, err := s.Minor()
	if err != nil {
		return nil, err
	}
	pinMasters := nodes.MastersSchedulable(s, minor)
	if s.Ingress == nil && !pinMasters {
		return nil, nil
	}
	in := s.Ingress
	if in == nil {
		in = &site.Ingress{}
	}
	m := newModel(s, minor)
	var diags diag.List
	var arts []generators.Artifact

	def, defDiags := planDefault(s, m, in, pinMasters)
	diags = append(diags, defDiags...)
	routers := []router{}
	if !loadBalancerPlatforms[s.Cluster.Platform] {
		routers = append(routers, router{name: defaultControllerName,
			ports: DefaultHostPorts, placement: def.placement, path: "ingress.default"})
	}

	seenDomains := map[string]string{AppsDomain(s.Cluster.Name, s.Cluster.BaseDomain): defaultControllerName}
	var exclusions []exclusion
	var excluded []string
	for _, name := range slices.Sorted(maps.Keys(in.Shards)) {
		sh := in.Shards[name]
		path := site.Field("ingress", "shards", name)
		sd := shardPlan(ctx, s, m, name, sh, path, seenDomains)
		diags = append(diags, sd.diags...)
		if len(sd.diags) > 0 {
			continue
		}
		if sh.EndpointPublishing == hostNetwork {
			routers = append(routers, router{name: name, ports: sd.ports, placement: sd.placement, path: sd.portsPath})
		}
		if sh.ExcludeFromDefault {
			ex, d := excludeShard(s, name, sh, path)
			if d != nil {
				diags = append(diags, *d)
			} else {
				exclusions = append(exclusions, ex)
				excluded = append(excluded, name)
				def.origin = append(def.origin, s.Positions.Of(path+".excludeFromDefault"))
			}
		}
		origin := []diag.Position{s.Positions.Of(path)}
		arts = append(arts, generators.Artifact{
			Path: fmt.Sprintf("%s/ingresscontroller-%s.yaml", dir, name), Role: generators.Resource,
			Object: generators.MustCleanMap(sd.object), Origin: origin,
		})
		if note := dnsNote(s, name, sh, sd.placement, sd.replicas, sd.ports); note != nil {
			arts = append(arts, generators.Artifact{
				Path: fmt.Sprintf("%s/dns-%s.md", dir, name), Role: generators.File, Data: note,
				Origin: []diag.Position{s.Positions.Of(path + ".domain")},
			})
		}
	}
	diags = append(diags, portCollisions(s, routers)...)
	if len(diags) > 0 {
		return nil, diags.Sort()
	}

	def.route, def.namespace = merge(exclusions)
	def.excluded = excluded
	if file, err := def.file(s); err != nil {
		return nil, err
	} else if file != nil {
		arts = append(arts, generators.Artifact{Path: defaultPath, Role: generators.File, Data: file, Comment: "#", Origin: def.origin})
	}
	return arts, nil
}

// shardResult is a shard checked and rendered.
type shardResult struct {
	object    *operatorv1.IngressController
	placement placement
	replicas  int
	ports     HostPorts
	portsPath string
	diags     diag.List
}

// shardPlan checks one shard (name, domain, placement, replicas, ports) and
// builds its IngressController.
func shardPlan(ctx *generators.Context, s *site.Site, m *model, name string, sh site.Shard, path string, seenDomains map[string]string) shardResult {
	var out shardResult
	add := func(d *diag.Diagnostic) {
		if d != nil {
			out.diags = append(out.diags, *d)
		}
	}
	at := func(p, msg, hint string) *diag.Diagnostic {
		return &diag.Diagnostic{Pos: s.Positions.Of(p), Path: p, Message: msg, Hint: hint}
	}
	if name == defaultControllerName {
		add(at(path, `a shard cannot be named "default": that is the default IngressController, which the operator owns`, "rename the shard"))
	}
	out.diags = append(out.diags, checkDomain(s, name, sh.Domain, path+".domain", seenDomains)...)

	switch {
	case len(sh.Pools) > 0:
		p, d := m.byPools(name, sh.Pools, path+".pools")
		add(d)
		out.placement = p
	case sh.NodeSelector != nil:
		p, d, w := m.bySelector(name, sh.NodeSelector, path+".nodeSelector")
		add(d)
		if w != nil {
			ctx.Warn(*w)
		}
		out.placement = p
	default:
		out.placement = m.operatorDefault()
	}
	if len(out.diags) > 0 {
		return out
	}
	p := out.placement
	placePath := path
	if len(sh.Pools) > 0 {
		placePath = path + ".pools"
	} else if sh.NodeSelector != nil {
		placePath = path + ".nodeSelector"
	}
	if len(p.pools) == 0 && (len(sh.Pools) > 0 || len(p.excludedRemote) > 0) {
		msg := fmt.Sprintf("no node can run the routers of shard %q", name)
		if len(p.excludedRemote) > 0 {
			msg += fmt.Sprintf(": from %s baremetal IPI labels remote workers %s and the operator gives every router a node affinity excluding that label (pools %s)",
				"4.13", platform.RemoteWorkerLabel, strings.Join(p.excludedRemote, ", "))
		}
		add(at(placePath, msg, "place the shard on pools in the VIPs' subnet, or run it elsewhere than on auto-detected remote workers"))
		return out
	}

	out.replicas = operatorDefaultReplicas(s)
	replicasPath := path
	if sh.Replicas != nil {
		out.replicas = *sh.Replicas
		replicasPath = path + ".replicas"
	}
	if sh.EndpointPublishing == hostNetwork && p.nodes >= 0 && out.replicas > p.nodes {
		msg := fmt.Sprintf("%d HostNetwork router replicas need %d nodes (each binds the host ports), but shard %q can run on %d (%s)",
			out.replicas, out.replicas, name, p.nodes, poolsSummary(s, p.pools))
		hint := fmt.Sprintf("set replicas to %d or less, or place the shard on more nodes", p.nodes)
		if sh.Replicas != nil {
			add(at(replicasPath, msg, hint))
		} else {
			ctx.Warn(*at(replicasPath, msg+fmt.Sprintf(" (replicas defaults to %d)", defaultReplicas), hint))
		}
	}

	out.ports = DefaultHostPorts
	out.portsPath = path
	if sh.Ports != nil {
		out.ports = HostPorts{sh.Ports.HTTP, sh.Ports.HTTPS, sh.Ports.Stats}
		out.portsPath = path + ".ports"
		if sh.EndpointPublishing != hostNetwork {
			ctx.Warn(*at(out.portsPath, fmt.Sprintf("ports apply to HostNetwork routers only; shard %q is published with %s", name, sh.EndpointPublishing), "remove ports"))
		}
		if msg := out.ports.NotUnique(); msg != "" {
			add(at(out.portsPath, msg, "give HTTP, HTTPS and stats three different ports"))
		}
	}
	if len(out.diags) > 0 {
		return out
	}
	out.object = ingressController(name, sh, p)
	return out
}

// ingressController builds a shard's object.
func ingressController(name string, sh site.Shard, p placement) *operatorv1.IngressController {
	ic := &operatorv1.IngressController{
		TypeMeta:   metav1.TypeMeta{APIVersion: operatorv1.GroupVersion.String(), Kind: "IngressController"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: operatorNamespace},
		Spec: operatorv1.IngressControllerSpec{
			Domain:                     sh.Domain,
			EndpointPublishingStrategy: &operatorv1.EndpointPublishingStrategy{Type: operatorv1.EndpointPublishingStrategyType(sh.EndpointPublishing)},
			RouteSelector:              nodes.LabelSelector(sh.RouteSelector),
			NamespaceSelector:          nodes.LabelSelector(sh.NamespaceSelector),
		},
	}
	if sh.Replicas != nil {
		r := int32(*sh.Replicas)
		ic.Spec.Replicas = &r
	}
	if sh.EndpointPublishing == hostNetwork && sh.Ports != nil {
		ic.Spec.EndpointPublishingStrategy.HostNetwork = &operatorv1.HostNetworkStrategy{
			HTTPPort: int32(sh.Ports.HTTP), HTTPSPort: int32(sh.Ports.HTTPS), StatsPort: int32(sh.Ports.Stats),
		}
	}
	if p.selector != nil {
		ic.Spec.NodePlacement = &operatorv1.NodePlacement{NodeSelector: p.selector, Tolerations: p.tolerations}
	}
	return ic
}

// checkDomain applies the admission rules of spec.domain and the operator's
// uniqueness rule; seen maps admitted domains to their controller.
func checkDomain(s *site.Site, name, domain, path string, seen map[string]string) diag.List {
	var out diag.List
	at := func(p Problem) {
		out = append(out, diag.Diagnostic{Pos: s.Positions.Of(path), Path: path, Message: p.Message, Hint: p.Hint})
	}
	for _, p := range DomainProblems(name, domain) {
		at(p)
	}
	if other, dup := seen[domain]; dup {
		at(DomainConflict(domain, other))
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
	if len(domain) > maxDomainLength {
		at(fmt.Sprintf("domain is %d characters, more than the %d an IngressController accepts", len(domain), maxDomainLength), "use a shorter domain")
	}
	if errs := validation.IsDNS1123Subdomain(domain); len(errs) > 0 {
		at("domain must be a DNS-1123 subdomain: "+strings.Join(errs, "; "), "use lower-case letters, digits, '-' and '.'")
	}
	for _, label := range strings.Split(domain, ".") {
		if len(label) > maxLabelLength {
			at(fmt.Sprintf("DNS label %q is %d characters, more than %d", label, len(label), maxLabelLength), "shorten the label")
		}
	}
	if host := canonicalHostPrefix + name + "." + domain; len(host) > maxCanonicalHostLength {
		at(fmt.Sprintf("%s: %q is %d characters", canonicalHostMessage, host, len(host)), "shorten the domain or the shard name")
	}
	return out
}

// DomainConflict is the operator's refusal of a second controller with the
// domain of controller other (Admitted=False).
func DomainConflict(domain, other string) Problem {
	return Problem{fmt.Sprintf("domain %s is already the domain of IngressController %q: the operator admits only one controller per domain", domain, other),
		"give every shard its own domain (the default controller has " + appsDomainPrefix + "<cluster>.<base domain>)"}
}

// AppsDomain is the default controller's domain: the cluster's ingress
// domain apps.<cluster name>.<base domain>.
func AppsDomain(clusterName, baseDomain string) string {
	return appsDomainPrefix + clusterName + "." + baseDomain
}

// HostPorts are a HostNetwork router's host ports: HTTP, HTTPS, stats.
type HostPorts [3]int

// DefaultHostPorts are the ports of a HostNetwork router that sets none.
var DefaultHostPorts = HostPorts{defaultHTTPPort, defaultHTTPSPort, defaultStatsPort}

// NotUnique is the operator's refusal of a router binding one port twice, or
// "" when the three ports differ.
func (p HostPorts) NotUnique() string {
	h, hs, st := p[0], p[1], p[2]
	if h == hs || h == st || hs == st {
		return fmt.Sprintf(cioPortsNotUnique, hs, h, st)
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

// portCollisions reports HostNetwork routers that share nodes and a host
// port: the second router's pods never start there (networking.md section 4).
func portCollisions(s *site.Site, routers []router) diag.List {
	var out diag.List
	for j := 1; j < len(routers); j++ {
		for i := 0; i < j; i++ {
			a, b := routers[i], routers[j]
			shared := intersect(a.placement.pools, b.placement.pools)
			if len(shared) == 0 {
				continue
			}
			clashes := PortClashes(a.name, a.ports, b.name, b.ports)
			if len(clashes) == 0 {
				continue
			}
			out = append(out, diag.Diagnostic{Pos: s.Positions.Of(b.path), Path: b.path,
				Message: fmt.Sprintf("HostNetwork routers %q and %q both run on pools %s and bind host port %s", a.name, b.name, strings.Join(shared, ", "), strings.Join(clashes, ", ")),
				Hint:    fmt.Sprintf("give shard %q other ports (ports: {http, https, stats}) or place it on other nodes", b.name)})
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

// writeLines writes comment lines.
func writeLines(b *bytes.Buffer, lines ...string) {
	for _, l := range lines {
		if l == "" {
			b.WriteString("#\n")
			continue
		}
		b.WriteString("# " + l + "\n")
	}
}
