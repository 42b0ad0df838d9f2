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

// HostRouter is one HostNetwork IngressController as far as host ports go.
type HostRouter struct {
	Name      string
	Ports     HostPorts
	Placement Placement
	// Path is where a port collision is reported.
	Path string
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
	m := NewModel(s, minor)
	var diags diag.List
	var arts []generators.Artifact

	def, defDiags := PlanDefault(s, m, in, pinMasters)
	diags = append(diags, defDiags...)
	routers := []HostRouter{}
	if !platform.IngressLoadBalancerPlatform(s.Cluster.Platform) {
		routers = append(routers, HostRouter{Name: platform.IngressDefaultControllerName,
			Ports: DefaultHostPorts, Placement: def.Placement, Path: "ingress.default"})
	}

	seenDomains := map[string]string{AppsDomain(s.Cluster.Name, s.Cluster.BaseDomain): platform.IngressDefaultControllerName}
	var exclusions []Exclusion
	var excluded []string
	for _, name := range slices.Sorted(maps.Keys(in.Shards)) {
		sh := in.Shards[name]
		path := site.Field("ingress", "shards", name)
		sd := PlanShard(ctx.Warn, s, m, name, sh, path, seenDomains)
		diags = append(diags, sd.Diags...)
		if len(sd.Diags) > 0 {
			continue
		}
		if sh.EndpointPublishing == platform.PublishingHostNetwork {
			routers = append(routers, HostRouter{Name: name, Ports: sd.Ports, Placement: sd.Placement, Path: sd.PortsPath})
		}
		if sh.ExcludeFromDefault {
			ex, d := ExcludeShard(s, name, sh, path)
			if d != nil {
				diags = append(diags, *d)
			} else {
				exclusions = append(exclusions, ex)
				excluded = append(excluded, name)
				def.Origin = append(def.Origin, s.Positions.Of(path+".excludeFromDefault"))
			}
		}
		origin := []diag.Position{s.Positions.Of(path)}
		arts = append(arts, generators.Artifact{
			Path: fmt.Sprintf("%s/ingresscontroller-%s.yaml", dir, name), Role: generators.Resource,
			Object: generators.MustCleanMap(ingressController(name, sh, sd.Placement)), Origin: origin,
		})
		if note := dnsNote(s, name, sh, sd.Placement, sd.Replicas, sd.Ports); note != nil {
			arts = append(arts, generators.Artifact{
				Path: fmt.Sprintf("%s/dns-%s.md", dir, name), Role: generators.File, Data: note,
				Origin: []diag.Position{s.Positions.Of(path + ".domain")},
			})
		}
	}
	diags = append(diags, PortCollisions(s, routers)...)
	if len(diags) > 0 {
		return nil, diags.Sort()
	}

	def.Route, def.Namespace = Merge(exclusions)
	def.Excluded = excluded
	if file, err := def.file(s); err != nil {
		return nil, err
	} else if file != nil {
		arts = append(arts, generators.Artifact{Path: defaultPath, Role: generators.File, Data: file, Comment: "#", Origin: def.Origin})
	}
	return arts, nil
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
func PlanShard(warn func(diag.Diagnostic), s *site.Site, m *Model, name string, sh site.Shard, path string, seenDomains map[string]string) ShardPlan {
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
			warn(*w)
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
				"4.13", platform.RemoteWorkerLabel, strings.Join(p.ExcludedRemote, ", "))
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
		if sh.Replicas != nil {
			add(at(replicasPath, msg, hint))
		} else {
			warn(*at(replicasPath, msg+fmt.Sprintf(" (replicas defaults to %d)", platform.IngressDefaultReplicas), hint))
		}
	}

	out.Ports = DefaultHostPorts
	out.PortsPath = path
	if sh.Ports != nil {
		out.Ports = HostPorts{sh.Ports.HTTP, sh.Ports.HTTPS, sh.Ports.Stats}
		out.PortsPath = path + ".ports"
		if sh.EndpointPublishing != platform.PublishingHostNetwork {
			warn(*at(out.PortsPath, fmt.Sprintf("ports apply to HostNetwork routers only; shard %q is published with %s", name, sh.EndpointPublishing), "remove ports"))
		}
		if msg := out.Ports.NotUnique(); msg != "" {
			add(at(out.PortsPath, msg, "give HTTP, HTTPS and stats three different ports"))
		}
	}
	return out
}

// ingressController builds a shard's object.
func ingressController(name string, sh site.Shard, p Placement) *operatorv1.IngressController {
	ic := &operatorv1.IngressController{
		TypeMeta:   metav1.TypeMeta{APIVersion: operatorv1.GroupVersion.String(), Kind: "IngressController"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: platform.IngressOperatorNamespace},
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
	if sh.EndpointPublishing == platform.PublishingHostNetwork && sh.Ports != nil {
		ic.Spec.EndpointPublishingStrategy.HostNetwork = &operatorv1.HostNetworkStrategy{
			HTTPPort: int32(sh.Ports.HTTP), HTTPSPort: int32(sh.Ports.HTTPS), StatsPort: int32(sh.Ports.Stats),
		}
	}
	if p.Selector != nil {
		ic.Spec.NodePlacement = &operatorv1.NodePlacement{NodeSelector: p.Selector, Tolerations: p.Tolerations}
	}
	return ic
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
// port: the second router's pods never start there (networking.md section 4).
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
			out = append(out, diag.Diagnostic{Pos: s.Positions.Of(b.Path), Path: b.Path,
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
