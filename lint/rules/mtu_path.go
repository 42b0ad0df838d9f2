package rules

import (
	"fmt"
	"sort"

	"github.com/siteforge/siteforge/internal/cluster/mtu"
	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/site"
	"github.com/siteforge/siteforge/lint"
)

// ---------------------------------------------------------------- MTU001

func checkClusterMTU(set lint.Set, r *lint.Reporter) {
	if set.Site != nil {
		checkSiteMTU(set, r)
		return
	}
	if st := liveState(set); st != nil {
		checkLiveMTU(st, r) // the cluster's applied MTU is the truth
		return
	}
	ns := readNetSet(set)
	reported := checkInstallMTU(ns, r)
	checkKeyfileMTU(ns, reported, r)
}

// checkSiteMTU: a site's wanted cluster MTU against every link of its plan
// (uplinks at mtu.machine when set, paths, platform default paths). An
// uplink short of only the IPsec bytes is MTU008's.
func checkSiteMTU(set lint.Set, r *lint.Reporter) {
	s := set.Site.Site
	if s.MTU == nil || s.MTU.Target == nil {
		return // siteforge computes the target from the links
	}
	p := sitePlan(s)
	if p.Smallest == 0 {
		return
	}
	target := *s.MTU.Target
	base := platform.Overhead(p.NetworkType, false)
	links := append([]mtu.Link(nil), p.Links...)
	sort.SliceStable(links, func(i, j int) bool { return links[i].MTU < links[j].MTU })
	for _, l := range links {
		overhead := p.Overhead
		if !l.IsPath() {
			overhead = base
		}
		if target+overhead > l.MTU {
			r.At(s.Name, s.Positions.Of("mtu.target"), fmt.Sprintf(
				"cluster MTU %d + %d overhead is larger than the %s (MTU %d, %s): at most %d fits; remove mtu.target to use the computed %d",
				target, overhead, l.Label(), l.MTU, l.Origin, l.MTU-overhead, max(p.Largest, 0)))
			return
		}
	}
}

// checkInstallMTU: an install-config with an AWS edge compute pool and the
// cluster MTUs (clusterNetworkMTU, Network manifest, migration network.to)
// that ignore the 1300-byte path. It returns the values it reported.
func checkInstallMTU(ns *netSet, r *lint.Reporter) map[*manifests.Object]bool {
	reported := map[*manifests.Object]bool{}
	edge := false
	for _, ic := range ns.installs {
		edge = edge || ic.EdgePool() >= 0
	}
	if !edge {
		return reported
	}
	for _, v := range ns.effectiveMTUs() {
		if !platform.KnownNetworkType(v.netType) {
			continue
		}
		ipsec := v.ipsec && v.netType == platform.OVNKubernetes && v.obj.Kind != manifests.KindInstallConfig
		over := platform.Overhead(v.netType, ipsec)
		if limit := platform.AWSEdgeZoneToRegionMTU - over; v.value > limit {
			r.Object(v.obj, edgeMessage(v.value, v.netType, over-platform.Overhead(v.netType, false), limit), v.path...)
			reported[v.obj] = true
		}
	}
	return reported
}

// checkKeyfileMTU: cluster MTUs against the uplink MTUs NetworkManager
// keyfiles give the nodes (mixed uplinks: the smallest decides).
func checkKeyfileMTU(ns *netSet, reported map[*manifests.Object]bool, r *lint.Reporter) {
	k, ok := ns.smallestKeyfile()
	if !ok {
		return
	}
	for _, v := range ns.effectiveMTUs() {
		if reported[v.obj] || !platform.KnownNetworkType(v.netType) {
			continue
		}
		over := platform.Overhead(v.netType, false)
		if v.value+over > k.MTU {
			r.Object(v.obj, fmt.Sprintf("cluster MTU %d + %d (%s) is larger than the uplink MTU %d that %s gives its nodes (%s): the smallest uplink decides, so at most %d fits; lower %s to %d",
				v.value, over, overheadLabel(v.netType, false), k.MTU, k, posString(k.Obj.PosOf(k.Path...)), k.MTU-over, v.what, k.MTU-over), v.path...)
		}
	}
}

func edgeMessage(mtu int, netType string, ipsecExtra, limit int) string {
	extra := ""
	if ipsecExtra > 0 {
		extra = fmt.Sprintf(" and %d for IPsec", ipsecExtra)
	}
	return fmt.Sprintf("cluster MTU %d does not fit the %d-byte path between the AWS edge pool (Local/Wavelength Zone) and the Region: "+
		"%s needs %d bytes of overhead%s, so the MTU must be at most %d",
		mtu, platform.AWSEdgeZoneToRegionMTU, netType, platform.Overhead(netType, false), extra, limit)
}

// ---------------------------------------------------------------- MTU002

func checkIPv6Floor(set lint.Set, r *lint.Reporter) {
	if set.Site != nil {
		checkSiteIPv6Floor(set.Site.Site, r)
		return
	}
	ns := readNetSet(set)
	if !ns.anyIPv6() || ns.networkType() != platform.OVNKubernetes {
		return // OpenShift SDN has no IPv6
	}
	for _, v := range ns.specMTUs() {
		if v.value < platform.MinMTUIPv4 || v.value >= platform.MinMTUIPv6 {
			continue // MTU003's, or fine
		}
		if msg := cnoInvalidMTU(v.netType, v.value, true); msg != "" {
			r.Object(v.obj, fmt.Sprintf("%s %d is below %d, the minimum when a clusterNetwork is IPv6: CNO rejects it with %q; use at least %d (nodes need MTU >= %d)",
				v.what, v.value, platform.MinMTUIPv6, msg, platform.MinMTUIPv6, platform.MinMTUIPv6+platform.Overhead(v.netType, v.ipsec)), v.path...)
		}
	}
	for _, ic := range ns.installs {
		i := ic.EdgePool()
		if i < 0 || ic.Networking.ClusterNetworkMTU != 0 {
			continue
		}
		if mtu, ok := platform.EdgePoolClusterMTU(ic.NetworkType()); ok && mtu < platform.MinMTUIPv6 {
			r.Object(ic.Obj, fmt.Sprintf("the installer sets cluster MTU %d for the AWS edge pool (the %d-byte Local/Wavelength Zone path minus %d), below the IPv6 minimum %d: an IPv6 or dual-stack cluster cannot have an edge pool; remove the pool or keep the cluster network IPv4-only",
				mtu, platform.AWSEdgeZoneToRegionMTU, platform.Overhead(ic.NetworkType(), false), platform.MinMTUIPv6), "compute", fmt.Sprint(i), "name")
		}
	}
	over := platform.Overhead(platform.OVNKubernetes, ns.ipsecFull())
	for _, k := range ns.knownKeyfiles() {
		if k.MTU-over < platform.MinMTUIPv6 {
			r.Object(k.Obj, fmt.Sprintf("%s sets MTU %d, which leaves %d after %d bytes of %s overhead, below the IPv6 minimum %d: every node needs MTU >= %d",
				k, k.MTU, k.MTU-over, over, overheadLabel(platform.OVNKubernetes, ns.ipsecFull()), platform.MinMTUIPv6, platform.MinMTUIPv6+over), k.Path...)
		}
	}
}

func checkSiteIPv6Floor(s *site.Site, r *lint.Reporter) {
	p := sitePlan(s)
	if !p.AnyIPv6 || p.Smallest == 0 || p.NetworkType != platform.OVNKubernetes {
		return
	}
	if s.MTU != nil && s.MTU.Target != nil && *s.MTU.Target < platform.MinMTUIPv6 {
		if msg := cnoInvalidMTU(p.NetworkType, *s.MTU.Target, true); msg != "" {
			r.At(s.Name, s.Positions.Of("mtu.target"), fmt.Sprintf("mtu.target %d is below %d, the minimum when a clusterNetwork is IPv6: CNO rejects it with %q; use at least %d",
				*s.MTU.Target, platform.MinMTUIPv6, msg, platform.MinMTUIPv6))
		}
	}
	if p.Smallest-p.Overhead >= platform.MinMTUIPv6 {
		return
	}
	for _, l := range p.BindingLinks() {
		r.At(s.Name, mtu.LinkPos(s, l.Link), fmt.Sprintf("the %s carries %d bytes, which leaves %d after %d bytes of %s overhead, below the IPv6 minimum %d: every link overlay traffic crosses needs MTU >= %d, or the cluster network must be IPv4-only",
			l.Label(), l.MTU, l.MTU-p.Overhead, p.Overhead, p.OverheadName, platform.MinMTUIPv6, platform.MinMTUIPv6+p.Overhead))
	}
}

// ---------------------------------------------------------------- MTU003

func checkMTURange(set lint.Set, r *lint.Reporter) {
	if set.Site != nil {
		return // the schema bounds every site MTU
	}
	ns := readNetSet(set)
	for _, v := range ns.specMTUs() {
		if !platform.KnownNetworkType(v.netType) {
			continue
		}
		if msg := cnoInvalidMTU(v.netType, v.value, false); msg != "" {
			r.Object(v.obj, fmt.Sprintf("%s %d is outside %d-%d: CNO rejects it with %q and applies nothing; use the smallest link MTU minus the %s overhead %d",
				v.what, v.value, platform.MinMTUIPv4, platform.MaxMTU, msg, overheadLabel(v.netType, v.ipsec), platform.Overhead(v.netType, v.ipsec)), v.path...)
		}
	}
}
