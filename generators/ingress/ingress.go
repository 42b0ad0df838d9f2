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
	"slices"

	operatorv1 "github.com/openshift/api/operator/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/internal/cluster/nodes"
	"github.com/siteforge/siteforge/internal/cluster/routing"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/site"
)

// Name is the generator's stable name.
const Name = "ingress"

// Generate renders the shards, the default controller's file and the DNS
// notes. Input problems come back as one diag.List.
func Generate(ctx *generators.Context, s *site.Site) ([]generators.Artifact, error) {
	minor := ctx.Minor
	pinMasters := nodes.MastersSchedulable(s, minor)
	if s.Ingress == nil && !pinMasters {
		return nil, nil
	}
	in := s.Ingress
	if in == nil {
		in = &site.Ingress{}
	}
	m := routing.NewModel(s, minor)
	var diags diag.List
	var arts []generators.Artifact

	def, defDiags := routing.PlanDefault(s, m, in, pinMasters)
	diags = append(diags, defDiags...)
	routers := []routing.HostRouter{}
	if !platform.IngressLoadBalancerPlatform(s.Cluster.Platform) {
		routers = append(routers, routing.HostRouter{Name: platform.IngressDefaultControllerName,
			Ports: routing.DefaultHostPorts, Placement: def.Placement, Path: "ingress.default"})
	}

	seenDomains := map[string]string{routing.AppsDomain(s.Cluster.Name, s.Cluster.BaseDomain): platform.IngressDefaultControllerName}
	var exclusions []routing.Exclusion
	var excluded []string
	for _, name := range slices.Sorted(maps.Keys(in.Shards)) {
		sh := in.Shards[name]
		path := site.Field("ingress", "shards", name)
		sd := routing.PlanShard(ctx.Warn, s, m, name, sh, path, seenDomains)
		diags = append(diags, sd.Diags...)
		if len(sd.Diags) > 0 {
			continue
		}
		if sh.EndpointPublishing == platform.PublishingHostNetwork {
			routers = append(routers, routing.HostRouter{Name: name, Ports: sd.Ports, Placement: sd.Placement, Path: sd.PortsPath})
		}
		if sh.ExcludeFromDefault {
			ex, d := routing.ExcludeShard(s, name, sh, path)
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
	diags = append(diags, routing.PortCollisions(s, routers)...)
	if len(diags) > 0 {
		return nil, diags.Sort()
	}

	def.Route, def.Namespace = routing.Merge(exclusions)
	def.Excluded = excluded
	if file, err := defaultFile(def, s); err != nil {
		return nil, err
	} else if file != nil {
		arts = append(arts, generators.Artifact{Path: defaultPath, Role: generators.File, Data: file, Comment: "#", Origin: def.Origin})
	}
	return arts, nil
}

// ingressController builds a shard's object.
func ingressController(name string, sh site.Shard, p routing.Placement) *operatorv1.IngressController {
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
