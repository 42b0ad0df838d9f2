// Package mtu is the MTU plan of a cluster: every link overlay traffic
// crosses, where each number comes from, the binding constraint, the
// overlay overhead and the cluster MTU it leaves, inside the bounds CNO
// enforces (internal/platform holds the numbers and CNO's verdicts).
// Generators build the MTU outputs from it, lint rules judge manifests and
// sites with it, and `siteforge mtu` prints it.
package mtu

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/ruleid"
	"github.com/siteforge/siteforge/internal/site"
)

// Plan is the cluster (overlay) MTU a site can use: the smallest MTU of
// every link overlay traffic crosses, minus the overlay overhead, inside
// CNO's bounds. The CLI prints it (`siteforge mtu`) and the migration and
// day-0 outputs are built from it.
type Plan struct {
	// NetworkType is the network type the plan is for (network.type).
	NetworkType string
	AnyIPv6     bool // some clusterNetwork CIDR is IPv6: the floor is MinMTUIPv6
	IPsecFull   bool // IPsec mode Full: the overhead includes the ESP header
	// Links are the links overlay traffic crosses (site.Links), with the
	// uplinks at the machine MTU the site wants (mtu.machine) when it sets
	// one.
	Links []Link
	// Smallest is the smallest link MTU; the links with that MTU are the
	// binding constraint (Link.Binding).
	Smallest     int
	Overhead     int
	OverheadName string // "Geneve", "Geneve+IPsec" or "VXLAN"
	// Floor and Max are the bounds CNO enforces on a cluster MTU.
	Floor, Max int
	// Largest is the largest legal cluster MTU: Smallest - Overhead, capped
	// at Max.
	Largest int
	// Target is the cluster MTU wanted: mtu.target when the site sets it,
	// else Largest.
	Target         int
	TargetFromSite bool
	// Current is mtu.current, the MTU the running cluster applies now (nil
	// when unknown or the cluster is still to be installed).
	Current *int
	// Machine is the machine (uplink) MTU: mtu.machine, or the uplink MTU all
	// pools share; 0 when the pools differ and the site sets no mtu.machine.
	Machine int
}

// Link is one link of the plan.
type Link struct {
	site.Link
	// Note is the site's note on a declared path.
	Note string
	// Where names, for a path, the placement of its pools that are not
	// plain or in the region ("edge: aws-local-zone us-east-1-nyc-1a"), so a table
	// says which link crosses to a Local Zone or a remote site.
	Where string
	// Binding marks the links whose MTU is the smallest: they decide the
	// cluster MTU.
	Binding bool
}

// MigrationDue reports whether the running cluster's MTU differs from the
// target, so an MTU migration is to be rendered.
func (p Plan) MigrationDue() bool { return p.Current != nil && *p.Current != p.Target }

// BindingLinks returns the links that decide the cluster MTU.
func (p Plan) BindingLinks() []Link {
	var out []Link
	for _, l := range p.Links {
		if l.Binding {
			out = append(out, l)
		}
	}
	return out
}

// Of computes the site's MTU plan for its network type. A problem in the
// site (no legal cluster MTU, an illegal mtu.target) is returned as
// diag.List.
func Of(s *site.Site) (Plan, error) {
	return For(s, s.Network.Type, true)
}

// For plans the cluster MTU of the site for networkType. withTarget
// applies mtu.target (the target is for the site's own network type, not for
// the type a network migration moves to).
func For(s *site.Site, networkType string, withTarget bool) (Plan, error) {
	p := Plan{
		NetworkType: networkType,
		AnyIPv6:     anyIPv6(s),
		IPsecFull:   networkType == platform.OVNKubernetes && ipsecFull(s),
		Max:         platform.MaxMTU,
	}
	if !platform.KnownNetworkType(networkType) {
		return p, diag.List{s.At("network.type", fmt.Sprintf("network type %q has no MTU rules", networkType), "use OVNKubernetes or OpenShiftSDN")}
	}
	p.Overhead = platform.Overhead(networkType, p.IPsecFull)
	p.OverheadName = overheadName(networkType, p.IPsecFull)
	p.Floor = platform.MinMTU(p.AnyIPv6)
	if s.MTU != nil {
		p.Current = s.MTU.Current
	}
	p.Machine = machineMTU(s)

	for _, l := range s.Links() {
		pl := Link{Link: l}
		if !l.IsPath() && s.MTU != nil && s.MTU.Machine != nil && *s.MTU.Machine != l.MTU {
			pl.Origin = fmt.Sprintf("site: mtu.machine (pools.%s.uplinkMTU is %d now)", l.Pools[0], l.MTU)
			pl.MTU = *s.MTU.Machine
			pl.Pos = s.Positions.Of("mtu.machine")
		}
		for i, path := range s.Paths {
			if l.Origin == fmt.Sprintf("site: paths[%d]", i) {
				pl.Note = path.Note
			}
		}
		if l.IsPath() {
			pl.Where = where(s, l.Pools)
		}
		p.Links = append(p.Links, pl)
	}
	if len(p.Links) == 0 {
		return p, diag.List{s.At("pools", "the site has no pools, so no link to plan the cluster MTU from", "add the master pool")}
	}
	p.Smallest = p.Links[0].MTU
	for _, l := range p.Links {
		p.Smallest = min(p.Smallest, l.MTU)
	}
	for i := range p.Links {
		p.Links[i].Binding = p.Links[i].MTU == p.Smallest
	}

	largest, err := platform.PlanClusterMTU(p.Smallest, networkType, p.IPsecFull, p.AnyIPv6)
	if err != nil {
		var dl diag.List
		for _, l := range p.BindingLinks() {
			dl = append(dl, diag.Diagnostic{Pos: LinkPos(s, l.Link), Path: LinkPath(s, l.Link),
				Message: fmt.Sprintf("no legal cluster MTU: %s (%s, MTU %d)", strings.TrimPrefix(err.Error(), "plan cluster mtu: "), l.Label(), l.MTU),
				Hint:    fmt.Sprintf("every link overlay traffic crosses needs MTU >= %d (%s overhead %d + minimum %d)", p.Floor+p.Overhead, p.OverheadName, p.Overhead, p.Floor),
				Rule:    floorRule(p)})
		}
		return p, dl
	}
	p.Largest = largest
	p.Target = largest

	if withTarget && s.MTU != nil && s.MTU.Target != nil {
		t := *s.MTU.Target
		p.Target, p.TargetFromSite = t, true
		switch {
		case t < p.Floor || t > p.Max:
			d := s.At("mtu.target",
				fmt.Sprintf("mtu.target %d is not a legal cluster MTU: CNO accepts %d-%d%s (CNO validateOVNKubernetes: \"invalid MTU %d\")", t, p.Floor, p.Max, ipv6Why(p), t),
				fmt.Sprintf("remove mtu.target to use the computed %d", largest))
			d.Rule = ruleid.ClusterMTUOutOfRange
			if t < p.Floor {
				d.Rule = floorRule(p)
			}
			return p, diag.List{d}
		case t > largest:
			d := s.At("mtu.target",
				fmt.Sprintf("mtu.target %d does not fit the links: the smallest link MTU is %d (%s) and %s needs %d bytes, so the cluster MTU can be at most %d",
					t, p.Smallest, LinkNames(p.BindingLinks()), p.OverheadName, p.Overhead, largest),
				fmt.Sprintf("remove mtu.target to use the computed %d, or set it lower", largest))
			d.Rule = ruleid.ClusterMTUExceedsPath
			if p.onlyIPsecShort(t) {
				d.Rule = ruleid.IPsecWithoutMTUHeadroom
			}
			return p, diag.List{d}
		}
	}
	return p, nil
}

// onlyIPsecShort: cluster MTU t fits every link but for the IPsec bytes on
// an uplink (it fits the uplinks with the plain overlay overhead, the paths
// with the whole one): lint's MTU008 (ipsec-without-mtu-headroom), not
// MTU001, states that fact.
func (p Plan) onlyIPsecShort(t int) bool {
	if !p.IPsecFull {
		return false
	}
	base := platform.Overhead(p.NetworkType, false)
	for _, l := range p.Links {
		overhead := p.Overhead
		if !l.IsPath() {
			overhead = base
		}
		if t+overhead > l.MTU {
			return false
		}
	}
	return true
}

// Label is the link's name with its placement: "path edge <-> master
// (edge: aws-local-zone us-east-1-nyc-1a)".
func (l Link) Label() string {
	if l.Where == "" {
		return l.String()
	}
	return l.String() + " (" + l.Where + ")"
}

func where(s *site.Site, pools []string) string {
	var parts []string
	for _, name := range pools {
		p := s.Pools[name]
		if p.Placement == "" || p.Placement == "plain" || p.Placement == "region" {
			continue
		}
		w := name + ": " + p.Placement
		if p.Zone != "" {
			w += " " + p.Zone
		}
		parts = append(parts, w)
	}
	return strings.Join(parts, ", ")
}

// floorRule is the rule of a cluster MTU below CNO's floor: the IPv6 floor
// (MTU002) on a cluster with IPv6, else the legal range (MTU003).
func floorRule(p Plan) string {
	if p.AnyIPv6 {
		return ruleid.ClusterMTUBelowIPv6Floor
	}
	return ruleid.ClusterMTUOutOfRange
}

func ipv6Why(p Plan) string {
	if p.AnyIPv6 {
		return " because a clusterNetwork is IPv6"
	}
	return ""
}

func overheadName(networkType string, ipsecFull bool) string {
	switch {
	case networkType == platform.OpenShiftSDN:
		return "VXLAN"
	case ipsecFull:
		return "Geneve+IPsec"
	}
	return "Geneve"
}

// machineMTU is mtu.machine, or the uplink MTU every pool shares, or 0.
func machineMTU(s *site.Site) int {
	if s.MTU != nil && s.MTU.Machine != nil {
		return *s.MTU.Machine
	}
	m := 0
	for _, name := range s.PoolNames() {
		u := s.Pools[name].UplinkMTU
		if m != 0 && u != m {
			return 0
		}
		m = u
	}
	return m
}

func anyIPv6(s *site.Site) bool {
	for _, cn := range s.Network.ClusterNetwork {
		if p, err := netip.ParsePrefix(cn.CIDR); err == nil && p.Addr().Is6() && !p.Addr().Is4In6() {
			return true
		}
	}
	return false
}

func ipsecFull(s *site.Site) bool {
	return platform.IPsecModeIsFull(s.Network.IPsec != platform.IPsecModeDisabled, s.Network.IPsec)
}

// LinkNames lists links by Label, for messages.
func LinkNames(ls []Link) string {
	names := make([]string, len(ls))
	for i, l := range ls {
		names[i] = l.Label()
	}
	return strings.Join(names, ", ")
}

// LinkPos is where the user wrote a link's MTU; for a platform default, the
// placement of the edge pool that brings it in.
func LinkPos(s *site.Site, l site.Link) diag.Position {
	if l.Pos.IsValid() {
		return l.Pos
	}
	return s.Positions.Of(LinkPath(s, l))
}

// LinkPath is the field path behind a link.
func LinkPath(s *site.Site, l site.Link) string {
	if !l.IsPath() {
		if strings.HasPrefix(l.Origin, "site: mtu.machine") {
			return "mtu.machine"
		}
		return site.FieldPath("pools", l.Pools[0], "uplinkMTU")
	}
	for i := range s.Paths {
		if l.Origin == fmt.Sprintf("site: paths[%d]", i) {
			return site.FieldPath("paths", i, "mtu")
		}
	}
	for _, name := range l.Pools {
		if pl := s.Pools[name].Placement; pl == site.PlacementAWSLocalZone || pl == site.PlacementAWSWavelength {
			return site.FieldPath("pools", name, "placement")
		}
	}
	return "paths"
}
