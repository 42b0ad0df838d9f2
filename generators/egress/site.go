package egress

import (
	"fmt"
	"maps"
	"net"
	"slices"

	"github.com/siteforge/siteforge/internal/cluster/egressip"
	"github.com/siteforge/siteforge/internal/cluster/nodes"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/site"
)

// The rules (checks.go) applied to a site: its EgressIPs, its network and its
// assignable pools, reported at the site's fields.

// object is one EgressIP of the site, parsed.
type object struct {
	name string
	eip  site.EgressIP
	ips  []net.IP // nil where the text does not parse
	path string
}

func (o object) ipPath(i int) string { return site.Index(o.path+".ips", i) }

// objects lists the site's EgressIPs sorted by name.
func objects(s *site.Site) []object {
	if s.Egress == nil {
		return nil
	}
	var out []object
	for _, name := range slices.Sorted(maps.Keys(s.Egress.EgressIPs)) {
		eip := s.Egress.EgressIPs[name]
		o := object{name: name, eip: eip, path: site.Field("egress", "egressIPs", name)}
		for _, text := range eip.IPs {
			o.ips = append(o.ips, net.ParseIP(text))
		}
		out = append(out, o)
	}
	return out
}

// check runs every rule over the site and returns the diagnostics.
func check(s *site.Site, minor platform.OCPMinor, objs []object, primaryOnly bool) diag.List {
	total := 0
	in := make([]egressip.Object, len(objs))
	for i, o := range objs {
		total += len(o.ips)
		in[i] = egressip.Object{Name: o.name, IPs: o.eip.IPs, NamespaceSelector: nodes.LabelSelector(&o.eip.NamespaceSelector), PodSelector: nodes.LabelSelector(o.eip.PodSelector)}
	}
	diags := controlPlaneAssignable(s)
	c := egressip.SiteCluster(s, minor, egressip.BuildHosts(s, primaryOnly, total), primaryOnly)
	for _, p := range egressip.Check(c, in) {
		if len(diags) > 0 && (p.Kind == egressip.TooFewNodes || p.Kind == egressip.OverCapacity) {
			continue // nodes the cloud refuses make every count wrong
		}
		path := "egress.egressIPs"
		switch {
		case p.Object >= 0 && p.IP >= 0:
			path = objs[p.Object].ipPath(p.IP)
		case p.Object >= 0 && p.IP == -1:
			path = objs[p.Object].path + ".ips"
		case p.Object >= 0:
			path = objs[p.Object].path
		}
		diags = append(diags, diag.Diagnostic{Pos: s.Positions.Of(path), Path: path, Message: p.Message, Hint: p.Hint, Rule: egressip.RuleOf(p, c)})
	}
	return diags
}

// controlPlaneAssignable refuses pools that cannot host egress IPs.
func controlPlaneAssignable(s *site.Site) diag.List {
	if s.Cluster.Platform != platform.EgressNoControlPlanePlatform {
		return nil
	}
	var out diag.List
	for i, name := range s.Egress.AssignablePools {
		if p, ok := s.Pools[name]; ok && p.Role == site.RoleMaster {
			path := site.Index("egress.assignablePools", i)
			out = append(out, diag.Diagnostic{Pos: s.Positions.Of(path), Path: path,
				Message: fmt.Sprintf("pool %q is the control plane: on AWS control-plane nodes cannot host egress IPs", name),
				Hint:    "list compute pools only"})
		}
	}
	return out
}
