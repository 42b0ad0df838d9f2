package routing

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/siteforge/siteforge/internal/cluster/nodes"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/site"
)

// The site's routers as the ingress generator places them, for the lints: what a site
// leaves to the operator (the default router's placement, a shard's replica
// count) Generate accepts, and the lints judge.

// Router is one of the site's IngressControllers, placed.
type Router struct {
	Name string
	// HostNetwork: the router's pods bind host ports.
	HostNetwork bool
	// Pools are the pools whose nodes can run its pods; Nodes how many
	// nodes they hold, -1 when unknown (a pool of unknown size, or an
	// operator placement the site's pools do not describe).
	Pools []string
	Nodes int
	// Replicas is spec.replicas, or the operator's default when the site
	// sets none (ReplicasSet false).
	Replicas    int
	ReplicasSet bool
	Ports       HostPorts
	// Pinned: the site places the router (the default router: through
	// ingress.default.pools or the manual remote-worker method).
	Pinned bool
	// Path is the router's site field (ingress.default, ingress.shards.<name>).
	Path string
}

// Routers places the default router and the shards as Generate does. A site
// Generate refuses returns its diagnostics.
func Routers(s *site.Site) ([]Router, error) {
	minor, err := s.Minor()
	if err != nil {
		return nil, err
	}
	in := s.Ingress
	if in == nil {
		in = &site.Ingress{}
	}
	m := NewModel(s, minor)
	def, diags := PlanDefault(s, m, in, nodes.MastersSchedulable(s, minor))
	if len(diags) > 0 {
		return nil, diags.Sort()
	}
	d := Router{Name: platform.IngressDefaultControllerName, HostNetwork: platform.IngressDefaultPublishing(s.Cluster.Platform) == platform.PublishingHostNetwork,
		Pools: def.Placement.Pools, Nodes: def.Placement.Nodes, Replicas: OperatorDefaultReplicas(s),
		Ports: DefaultHostPorts, Pinned: def.Pinned, Path: "ingress.default"}
	if !def.Pinned && len(def.Placement.Pools) == 0 && len(def.Placement.ExcludedRemote) == 0 {
		// No pool of the site is labelled worker: a compact or single-node
		// cluster, whose masters the installer makes workers too.
		d.Nodes = -1
	}
	if in.Default != nil && in.Default.Replicas != nil {
		d.Replicas, d.ReplicasSet = *in.Default.Replicas, true
	}
	out := []Router{d}
	seen := map[string]string{AppsDomain(s.Cluster.Name, s.Cluster.BaseDomain): platform.IngressDefaultControllerName}
	for _, name := range slices.Sorted(maps.Keys(in.Shards)) {
		sh := in.Shards[name]
		path := site.Field("ingress", "shards", name)
		sd := PlanShard(func(string, diag.Diagnostic) {}, s, m, name, sh, path, seen)
		if len(sd.Diags) > 0 {
			return nil, sd.Diags.Sort()
		}
		out = append(out, Router{Name: name, HostNetwork: sh.EndpointPublishing == platform.PublishingHostNetwork,
			Pools: sd.Placement.Pools, Nodes: sd.Placement.Nodes, Replicas: sd.Replicas, ReplicasSet: sh.Replicas != nil,
			Ports: sd.Ports, Path: path})
	}
	return out, nil
}

// VIPSubnetProblem says why the ingress VIP cannot follow the default router
// onto the nodes of pool: on keepalived platforms it can sit only on a node
// whose primary subnet holds it (CIO desiredRouterDeployment; api operator/v1 IngressController). "" when it can,
// or when the site does not say where the pool's nodes are.
func VIPSubnetProblem(s *site.Site, pool string) string {
	if !nodes.RunsKeepalived(s) || len(s.Network.IngressVIPs) == 0 {
		return ""
	}
	p := s.Pools[pool]
	if len(p.Nodes) == 0 {
		if len(p.Subnets) == 0 || anyContained(p.Subnets, s.Network.IngressVIPs) {
			return ""
		}
		return fmt.Sprintf("the default router would run on pool %q, whose subnets %s do not contain the ingress VIP %s: the VIP follows the default router's pods at L2",
			pool, strings.Join(p.Subnets, ", "), strings.Join(s.Network.IngressVIPs, ", "))
	}
	var off []string
	var subnets []string
	for _, n := range p.Nodes {
		prim := nodes.PrimarySubnets(s, pool, n)
		if len(prim) == 0 {
			return "" // the site does not say where this node is
		}
		var cidrs []string
		for _, c := range prim {
			cidrs = append(cidrs, c.String())
		}
		if anyContained(cidrs, s.Network.IngressVIPs) {
			continue
		}
		off = append(off, n.Name)
		for _, c := range cidrs {
			if !contains(subnets, c) {
				subnets = append(subnets, c)
			}
		}
	}
	if len(off) == 0 {
		return ""
	}
	return fmt.Sprintf("the default router would run on pool %q, whose nodes %s sit in subnets %s, which do not contain the ingress VIP %s: the VIP follows the default router's pods at L2",
		pool, strings.Join(off, ", "), strings.Join(subnets, ", "), strings.Join(s.Network.IngressVIPs, ", "))
}

func contains(list []string, x string) bool {
	for _, y := range list {
		if y == x {
			return true
		}
	}
	return false
}

// OperatorDefaultReplicas is the replica count the operator gives a
// controller without spec.replicas: one on a single-node cluster
// (infrastructureTopology SingleReplica), else defaultReplicas.
func OperatorDefaultReplicas(s *site.Site) int {
	total := 0
	for _, name := range s.PoolNames() {
		n := s.Pools[name].Size()
		if n < 0 {
			return platform.IngressDefaultReplicas
		}
		total += n
	}
	if total == 1 {
		return 1 // api operator/v1 IngressControllerSpec.replicas doc: 1 when infrastructureTopology is SingleReplica
	}
	return platform.IngressDefaultReplicas
}
