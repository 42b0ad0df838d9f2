package rules

import (
	"fmt"
	"net/netip"
	"strconv"
	"strings"

	"cuelang.org/go/cue"

	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/site"
	"github.com/siteforge/siteforge/lint"
)

// ---------------------------------------------------------------- CIDRs

// namedCIDR is one address block and where it is written.
type namedCIDR struct {
	kind string // "clusterNetwork", "serviceNetwork", "machineNetwork", "pool subnet"
	cidr string
	pfx  netip.Prefix
	// For plain manifests: the object and field path; for sites: the site
	// field path.
	obj  *manifests.Object
	path []string
	site string
}

func (c namedCIDR) String() string { return c.kind + " " + c.cidr }

// ovnSubnet is an internal subnet of OVN-Kubernetes.
type ovnSubnet struct {
	name string
	pfx  netip.Prefix
	// custom: set in the operator config rather than the default.
	custom bool
	// where the custom subnet is set, when not in the operator config
	// ("install-config", for its networking.ovnKubernetesConfig).
	where string
}

// ovnSubnets returns OVN-Kubernetes' internal subnets for the set on release
// minor: CNO's defaults of that release (the masquerade subnet is gated, see
// platform.OVNDefaultMasqueradeSubnets), replaced by what an operator config
// of the set sets, as CNO's GetInternalSubnets, GetTransitSwitchSubnets and
// GetMasqueradeSubnet pick them (ipv4.internalJoinSubnet over the older
// v4InternalSubnet).
//
// liveMigration: reproduce GetMasqueradeSubnet as ValidateLiveMigration
// calls it (CNO release-4.15 to release-4.18 pkg/network/ovn_kubernetes.go):
// a gatewayConfig.ipv6.internalMasqueradeSubnet is assigned to the IPv4
// result, so that check compares the IPv6 value in the IPv4 slot and keeps
// the default IPv6 masquerade subnet.
func ovnSubnets(operators []*operatorNetworkDoc, minor platform.OCPMinor, liveMigration bool) []ovnSubnet {
	masq4, masq6 := platform.OVNDefaultMasqueradeSubnets(minor)
	v4 := []string{platform.OVNJoinSubnetV4, platform.OVNTransitSubnetV4, masq4}
	v6 := []string{platform.OVNJoinSubnetV6, platform.OVNTransitSubnetV6, masq6}
	custom4, custom6 := make([]bool, 3), make([]bool, 3)
	set := func(vals []string, custom []bool, i int, v string) {
		if v != "" {
			vals[i], custom[i] = v, true
		}
	}
	for _, o := range operators {
		ovn := o.Spec.DefaultNetwork.OVN
		if ovn == nil {
			continue
		}
		set(v4, custom4, 0, ovn.V4InternalSubnet)
		set(v6, custom6, 0, ovn.V6InternalSubnet)
		if ovn.IPv4 != nil {
			set(v4, custom4, 0, ovn.IPv4.InternalJoinSubnet)
			set(v4, custom4, 1, ovn.IPv4.InternalTransitSwitchSubnet)
		}
		if ovn.IPv6 != nil {
			set(v6, custom6, 0, ovn.IPv6.InternalJoinSubnet)
			set(v6, custom6, 1, ovn.IPv6.InternalTransitSwitchSubnet)
		}
		if gw := ovn.GatewayConfig; gw != nil {
			set(v4, custom4, 2, gw.IPv4.InternalMasqueradeSubnet)
			if liveMigration {
				set(v4, custom4, 2, gw.IPv6.InternalMasqueradeSubnet)
			} else {
				set(v6, custom6, 2, gw.IPv6.InternalMasqueradeSubnet)
			}
		}
	}
	var out []ovnSubnet
	for _, fam := range []struct {
		vals   []string
		custom []bool
	}{{v4, custom4}, {v6, custom6}} {
		for i, d := range platform.OVNInternalSubnets {
			if p, err := netip.ParsePrefix(fam.vals[i]); err == nil {
				out = append(out, ovnSubnet{name: d.Name, pfx: p.Masked(), custom: fam.custom[i]})
			}
		}
	}
	return out
}

func (s ovnSubnet) String() string {
	if s.where != "" {
		return fmt.Sprintf("OVN-Kubernetes' internal %s %s (set in %s)", s.name, s.pfx, s.where)
	}
	if s.custom {
		return fmt.Sprintf("OVN-Kubernetes' internal %s %s (set in the operator config)", s.name, s.pfx)
	}
	return fmt.Sprintf("OVN-Kubernetes' internal %s %s", s.name, s.pfx)
}

// objectCIDRs lists the address blocks one plain object declares.
func objectCIDRs(o *manifests.Object, cluster []manifests.CIDREntry, service []string, machine []manifests.CIDREntry, prefix ...string) []namedCIDR {
	var out []namedCIDR
	add := func(kind, cidr string, path ...string) {
		p, err := netip.ParsePrefix(cidr)
		if err != nil {
			return // not a CIDR: the API rejects it
		}
		out = append(out, namedCIDR{kind: kind, cidr: cidr, pfx: p.Masked(), obj: o, path: append(append([]string{}, prefix...), path...)})
	}
	for i, c := range cluster {
		add("clusterNetwork", c.CIDR, "clusterNetwork", strconv.Itoa(i), "cidr")
	}
	for i, c := range service {
		add("serviceNetwork", c, "serviceNetwork", strconv.Itoa(i))
	}
	for i, c := range machine {
		add("machineNetwork", c.CIDR, "machineNetwork", strconv.Itoa(i), "cidr")
	}
	return out
}

// installCIDRs lists the address blocks of an install-config as the
// installer reads them (the reader converts the deprecated clusterNetworks,
// serviceCIDR and machineCIDR), each at the field it was written in.
func installCIDRs(ic *manifests.InstallConfigFile, machine bool) []namedCIDR {
	var out []namedCIDR
	add := func(kind, cidr string, path []string) {
		if p, err := netip.ParsePrefix(cidr); err == nil {
			out = append(out, namedCIDR{kind: kind, cidr: cidr, pfx: p.Masked(), obj: ic.Obj, path: path})
		}
	}
	for i, c := range ic.Networking.ClusterNetwork {
		add("clusterNetwork", c.CIDR, ic.ClusterNetworkPath(i))
	}
	for i, c := range ic.Networking.ServiceNetwork {
		add("serviceNetwork", c, ic.ServiceNetworkPath(i))
	}
	if machine {
		for i, c := range ic.Networking.MachineNetwork {
			add("machineNetwork", c.CIDR, ic.MachineNetworkPath(i))
		}
	}
	return out
}

// clusterInstanceCIDRs lists the address blocks of a ClusterInstance (or of
// a SiteConfig cluster, positioned in the SiteConfig: manifests
// SiteConfigClusters), each at its cidr field.
func clusterInstanceCIDRs(ci *manifests.ClusterInstanceObject) []namedCIDR {
	var out []namedCIDR
	add := func(kind, cidr string, i int) {
		if p, err := netip.ParsePrefix(cidr); err == nil {
			out = append(out, namedCIDR{kind: kind, cidr: cidr, pfx: p.Masked(), obj: ci.Obj, path: []string{"spec", kind, strconv.Itoa(i), "cidr"}})
		}
	}
	for i, c := range ci.Spec.ClusterNetwork {
		add("clusterNetwork", c.CIDR, i)
	}
	for i, c := range ci.Spec.ServiceNetwork {
		add("serviceNetwork", c.CIDR, i)
	}
	for i, c := range ci.Spec.MachineNetwork {
		add("machineNetwork", c.CIDR, i)
	}
	return out
}

// siteCIDRs lists a site's address blocks with their field paths.
func siteCIDRs(s *site.Site) []namedCIDR {
	var out []namedCIDR
	add := func(kind, cidr string, sels ...cue.Selector) {
		p, err := netip.ParsePrefix(cidr)
		if err != nil {
			return // the schema checks CIDRs
		}
		out = append(out, namedCIDR{kind: kind, cidr: cidr, pfx: p.Masked(), site: cue.MakePath(sels...).String()})
	}
	for i, c := range s.Network.ClusterNetwork {
		add("clusterNetwork", c.CIDR, cue.Str("network"), cue.Str("clusterNetwork"), cue.Index(i), cue.Str("cidr"))
	}
	for i, c := range s.Network.ServiceNetwork {
		add("serviceNetwork", c, cue.Str("network"), cue.Str("serviceNetwork"), cue.Index(i))
	}
	for i, c := range s.Network.MachineNetwork {
		add("machineNetwork", c, cue.Str("network"), cue.Str("machineNetwork"), cue.Index(i))
	}
	for _, name := range s.PoolNames() {
		for i, c := range s.Pools[name].Subnets {
			add("subnet of pool "+name, c, cue.Str("pools"), cue.Str(name), cue.Str("subnets"), cue.Index(i))
		}
	}
	return out
}

// isPoolSubnet: pool subnets are carved out of the machine network, so they
// are only compared with the cluster and service networks.
func (c namedCIDR) isPoolSubnet() bool { return strings.HasPrefix(c.kind, "subnet of pool") }

// report reports a finding at the block.
func (c namedCIDR) report(r *lint.Reporter, s *site.Site, msg string) {
	if c.obj != nil {
		r.Object(c.obj, msg, c.path...)
		return
	}
	r.At(s.Name, s.Positions.Of(c.site), msg)
}

// crossOverlaps reports blocks of different kinds that overlap (cluster vs
// service vs machine; pool subnets vs cluster and service).
func crossOverlaps(cidrs []namedCIDR, r *lint.Reporter, s *site.Site) {
	for i, a := range cidrs {
		for _, b := range cidrs[i+1:] {
			if a.kind == b.kind || (a.isPoolSubnet() || a.kind == "machineNetwork") && (b.isPoolSubnet() || b.kind == "machineNetwork") {
				continue
			}
			if a.pfx.Overlaps(b.pfx) {
				b.report(r, s, fmt.Sprintf("%s overlaps %s: pod, service and node addresses must be disjoint, or traffic to the overlapping range is misrouted; renumber one of them",
					b, a))
			}
		}
	}
}

// ovnOverlaps reports blocks that overlap OVN-Kubernetes' internal subnets.
func ovnOverlaps(cidrs []namedCIDR, subnets []ovnSubnet, why string, r *lint.Reporter, s *site.Site) {
	for _, c := range cidrs {
		for _, o := range subnets {
			if c.pfx.Overlaps(o.pfx) {
				c.report(r, s, fmt.Sprintf("%s overlaps %s: %s; renumber the %s, or move the internal subnet in the operator config (ovnKubernetesConfig ipv4/ipv6, gatewayConfig)",
					c, o, why, c.kind))
			}
		}
	}
}
