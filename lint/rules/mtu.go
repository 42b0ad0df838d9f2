package rules

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/siteforge/siteforge/internal/cluster/mtu"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/site"
	"github.com/siteforge/siteforge/lint"
)

func init() {
	for _, r := range []*lint.Rule{
		{
			ID:       "MTU001",
			Name:     "cluster-mtu-exceeds-path",
			Severity: lint.Error,
			Summary:  "the cluster MTU plus the overlay overhead is larger than the smallest link overlay traffic crosses",
			Rationale: "The cluster (overlay) MTU must be at most the smallest MTU of any link overlay traffic crosses, over ALL pools, minus the overlay overhead " +
				"(OVN-Kubernetes 100, +46 with IPsec Full; OpenShift SDN 50; CNO getOVNEncapOverhead). AWS carries only 1300 bytes between a Local Zone or " +
				"Wavelength Zone instance and the Region, so a cluster with an edge compute pool needs 1200 (OVN-K) / 1250 (SDN), which the installer " +
				"writes itself only when no MTU is given (openshift/installer pkg/asset/manifests/network.go). Larger packets are dropped: KCS 6996487 " +
				"shows `net/http: TLS handshake timeout` pulling from the internal registry on Local Zone nodes. The same holds for a WAN path to " +
				"remote workers (site paths) and for pools whose uplinks differ (NetworkManager MTU keyfiles of MachineConfigs): the smallest decides. " +
				"When only the 46 IPsec bytes are missing on an uplink, MTU008 reports it.",
			Fix: "Set the cluster MTU to the smallest link MTU minus the overhead (1200 for OVN-Kubernetes with an AWS edge pool). On a running " +
				"cluster this is an MTU migration: `siteforge render` writes both phases and the runbook.",
			Check: checkClusterMTU,
		},
		{
			ID:       "MTU002",
			Name:     "cluster-mtu-below-ipv6-floor",
			Severity: lint.Error,
			Summary:  "a cluster MTU, or a node MTU minus the overlay overhead, below 1280 on a cluster with an IPv6 cluster network",
			Rationale: "IPv6 needs links of at least 1280 bytes (RFC 8200), so CNO raises the cluster MTU floor from 576 to 1280 as soon as any clusterNetwork " +
				"CIDR is IPv6, single- or dual-stack (CNO validateOVNKubernetes and isOVNKubernetesChangeSafe, message `invalid MTU %d`). Every node " +
				"then needs an uplink of at least 1380 bytes (1426 with IPsec Full). The installer's AWS edge pool MTU 1200 is illegal there, so an " +
				"IPv6 or dual-stack OVN-Kubernetes cluster cannot have a Local Zone pool (networking.md section 1).",
			Fix: "Raise the cluster MTU to at least 1280 and the node MTUs to at least 1380 (1426 with IPsec), or keep the cluster network IPv4-only. " +
				"Links that carry less (an AWS Local Zone path) cannot be part of an IPv6 cluster.",
			Check: checkIPv6Floor,
		},
		{
			ID:       "MTU003",
			Name:     "cluster-mtu-out-of-range",
			Severity: lint.Error,
			Summary:  "a cluster MTU outside 576..65536, which CNO rejects as invalid",
			Rationale: "CNO accepts a cluster MTU (ovnKubernetesConfig.mtu, openshiftSDNConfig.mtu, and install-config networking.clusterNetworkMTU " +
				"that the installer copies there) only between 576 (RFC 791) and 65536 (CNO pkg/network/mtu.go; validateOVNKubernetes / " +
				"validateOpenShiftSDN, message `invalid MTU %d`). The operator goes Degraded with InvalidOperatorConfig and applies nothing.",
			Fix:   "Use a value inside the range: the smallest link MTU minus the overlay overhead (`siteforge mtu` prints it for a site).",
			Check: checkMTURange,
		},
		{
			ID:       "MTU004",
			Name:     "mtu-migration-rejected",
			Severity: lint.Error,
			Summary:  "an MTU migration (spec.migration.mtu) that CNO rejects",
			Rationale: "CNO checks spec.migration.mtu of Network.operator.openshift.io `cluster` (isOVNKubernetesChangeSafe / isOpenShiftSDNChangeSafe): " +
				"network.from, network.to and machine.to are required; network.from must equal the applied MTU (Network.config " +
				"status.clusterNetworkMTU); network.to and machine.to must lie in 576-65536 (1280-65536 with an IPv6 cluster network); machine.to " +
				"must be at least network.to plus the overlay overhead (100 Geneve, 146 with IPsec Full, 50 VXLAN). A rejected migration leaves " +
				"the operator Degraded (\"Not applying unsafe configuration change\") and nothing rolls (networking.md section 2). The messages " +
				"are CNO's own, from siteforge's offline copy of its verdict.",
			Fix: "Correct the field the message names. network.from is `oc get network.config cluster -o jsonpath='{.status.clusterNetworkMTU}'`; " +
				"`siteforge render` of a site with mtu.current writes a migration CNO accepts.",
			Check: checkMTUMigration,
		},
		{
			ID:       "MTU005",
			Name:     "mtu-change-without-migration",
			Severity: lint.Error,
			Summary:  "the cluster MTU changes outside a migration, or phase 2 does not set network.to",
			Rationale: "Outside spec.migration CNO refuses any change of the cluster MTU: `cannot change ovn-kubernetes MTU without migration` " +
				"(`cannot change openshift-sdn mtu without migration`; CNO isOVNKubernetesChangeSafe / isOpenShiftSDNChangeSafe). Once phase 1 " +
				"is reconciled the applied MTU is network.to, so phase 2 (`migration: null`) must set the mtu to exactly network.to: any other " +
				"value, or no value (the spec keeps the old MTU), is that same rejection (networking.md section 2).",
			Fix:   "Change the MTU with the two-phase migration; in phase 2 set ovnKubernetesConfig.mtu (openshiftSDNConfig.mtu) to phase 1's network.to.",
			Check: checkMTUWithoutMigration,
		},
		{
			ID:       "MTU006",
			Name:     "mtu-migration-no-op",
			Severity: lint.Warning,
			Summary:  "an MTU migration whose network.from equals network.to",
			Rationale: "CNO has no `to != from` check: a migration to the same MTU is accepted, and both phases still roll every MachineConfigPool, " +
				"a reboot of every node per phase, for nothing (networking.md section 2).",
			Fix:   "Remove the migration, or set network.to to the MTU you want.",
			Check: checkMTUNoOp,
		},
		{
			ID:       "MTU007",
			Name:     "machine-mtu-not-persisted",
			Severity: lint.Warning,
			Summary:  "an MTU migration changes the machine MTU and nothing persists it",
			Rationale: "machine.to is transient: mtu-migration.sh sets it on each boot during the migration and is gone after phase 2. To keep a new " +
				"hardware MTU on NetworkManager platforms, the docs (\"Changing the cluster network MTU\") apply two MachineConfigs between the " +
				"phases, 01-control-plane-interface (role master) and 01-worker-interface (role worker), each writing " +
				"/etc/NetworkManager/conf.d/99-<iface>-mtu.conf with ethernet.mtu=<machine.to> (alternatives: DHCP option 26, kernel " +
				"arguments). Without them the nodes return to the old MTU at the next reboot while the cluster MTU expects the new one.",
			Fix: "Add the two NetworkManager keyfile MachineConfigs (`siteforge render` writes them with the migration), or make DHCP or the kernel " +
				"command line carry the new MTU. Custom pools that do not inherit worker need their own.",
			Check: checkMachineMTUPersisted,
		},
		{
			ID:       "MTU008",
			Name:     "ipsec-without-mtu-headroom",
			Severity: lint.Error,
			Summary:  "IPsec Full is enabled with a cluster MTU that leaves fewer than 146 bytes to the uplink",
			Rationale: "IPsec mode Full (an ipsecConfig with an empty mode counts as Full) adds the 46-byte ESP header to the 100-byte Geneve overhead " +
				"(CNO getOVNEncapOverhead). A cluster sized for Geneve alone (uplink - 100) drops full-size packets once IPsec is on; CNO does NOT " +
				"check it when IPsec is enabled on day 2, only the docs do (networking.md section 1). The uplink is known from NetworkManager MTU " +
				"keyfiles, the site's pools, or the platform default (AWS 9001 inside a VPC, Azure 1500).",
			Fix:   "Lower the cluster MTU to the uplink MTU minus 146 (an MTU migration on a running cluster) before enabling IPsec, or raise the uplinks.",
			Check: checkIPsecHeadroom,
		},
		{
			ID:       "MTU009",
			Name:     "machine-mtu-above-platform-max",
			Severity: lint.Error,
			Summary:  "a node (machine) MTU above what the cloud platform carries",
			Rationale: "Cloud networks have a hard maximum frame size: AWS 9001 inside a VPC (AWS EC2 docs \"Network maximum transmission unit\"), " +
				"Google Cloud 8896 (VPC docs \"Maximum transmission unit\"), Azure 9000 with MANA NICs (1500 by default; networking.md section 1). " +
				"A larger machine MTU makes the NIC send frames the network drops, and a cluster MTU planned from it does not fit either.",
			Fix:   "Use at most the platform's maximum for the uplink (uplinkMTU, mtu.machine, machine.to or the keyfile's ethernet.mtu).",
			Check: checkPlatformMaxMTU,
		},
		{
			ID:       "MTU010",
			Name:     "mixed-uplinks-without-cluster-mtu",
			Severity: lint.Warning,
			Summary:  "node uplinks have different MTUs and the install sets no cluster MTU",
			Rationale: "At install time CNO probes the default-route link of ONE node and sets the cluster MTU from it; it never changes later. With " +
				"uplinks of different MTUs it can pick a value that only the larger ones carry (networking.md section 1). The cluster MTU must then " +
				"be set explicitly, in the operator Network manifest the installer takes (manifests/cluster-network-03-config.yml).",
			Fix: "Set the cluster MTU explicitly: the smallest uplink MTU minus the overlay overhead. For a site, set mtu.target or copy the " +
				"rendered install/manifests/cluster-network-03-config.yml into the installer's manifests.",
			Check: checkMixedUplinks,
		},
		{
			ID:       "MTU011",
			Name:     "network-type-and-mtu-migration",
			Severity: lint.Error,
			Summary:  "an offline network type migration and an MTU migration in the same spec.migration",
			Rationale: "The Network.operator CRD rejects spec.migration with both mtu and a networkType in a mode other than Live: `networkType migration " +
				"in mode other than 'Live' may not be configured at the same time as mtu migration` (openshift/api operator/v1 NetworkMigration " +
				"XValidation; networking.md section 2). The patch never reaches CNO.",
			Fix:   "Run the MTU migration to its end first, then the network type migration (the offline migration to OVN-Kubernetes sets the MTU itself).",
			Check: checkTypeAndMTUMigration,
		},
	} {
		r.Since = "v1alpha1"
		lint.Register(r)
	}
}

// ---------------------------------------------------------------- cluster MTUs of a plain set

// mtuValue is a cluster MTU a plain set writes, and where.
type mtuValue struct {
	value   int
	obj     *manifests.Object
	path    []string
	what    string // the field, for messages
	netType string
	ipsec   bool // IPsec Full applies to it
	phase1  bool // network.to of an MTU migration
}

func (v mtuValue) pos() diag.Position { return v.obj.PosOf(v.path...) }

// specMTUs are the cluster MTUs the set writes into specs: install-config
// networking.clusterNetworkMTU and every operator config's mtu (phase 2
// included). CNO validates each of them.
func (ns *netSet) specMTUs() []mtuValue {
	return ns.clusterMTUs(false)
}

// effectiveMTUs are the cluster MTUs the cluster ends up with: phase 1's
// network.to, and the spec MTUs no migration of the set replaces (a value
// that is some migration's network.from is on its way out; phase 2 repeats
// network.to).
func (ns *netSet) effectiveMTUs() []mtuValue {
	return ns.clusterMTUs(true)
}

func (ns *netSet) clusterMTUs(effective bool) []mtuValue {
	from := map[int]bool{}
	for _, o := range ns.operators {
		if m := o.mtuMigration(); m != nil && m.NetworkFrom != nil && m.NetworkTo != nil {
			from[*m.NetworkFrom] = true
		}
	}
	setType := ns.networkType()
	var out []mtuValue
	for _, ic := range ns.installs {
		if v := ic.Networking.ClusterNetworkMTU; v != 0 && !(effective && from[v]) {
			out = append(out, mtuValue{value: v, obj: ic.Obj, path: []string{"networking", "clusterNetworkMTU"},
				what: "install-config networking.clusterNetworkMTU", netType: ic.NetworkType()})
		}
	}
	for _, o := range ns.operators {
		t := o.networkType()
		if t == "" {
			t = setType
		}
		if v, path := o.mtu(); v != nil && !(effective && (o.finalizesMigration() || from[*v])) {
			out = append(out, mtuValue{value: *v, obj: o.obj, path: path, what: path[len(path)-2] + ".mtu", netType: t, ipsec: o.ipsecFull()})
		}
		if m := o.mtuMigration(); effective && m != nil && m.NetworkTo != nil {
			out = append(out, mtuValue{value: *m.NetworkTo, obj: o.obj, path: []string{"spec", "migration", "mtu", "network", "to"},
				what: "MTU migration network.to", netType: setType, ipsec: ns.ipsecFull(), phase1: true})
		}
	}
	return out
}

// cnoInvalidMTU is CNO's message when it rejects mtu as a spec mtu ("invalid
// MTU %d"), or "" when it accepts it.
func cnoInvalidMTU(netType string, mtu int, anyIPv6 bool) string {
	err := platform.ValidateMTUChange(platform.NetworkState{NetworkType: netType, AppliedMTU: mtu, AnyIPv6: anyIPv6, CurrentConfigMTU: &mtu}, nil)
	var ce *platform.MTUChangeError
	if errors.As(err, &ce) && errors.Is(ce, platform.ErrMTUInvalid) {
		return ce.Error()
	}
	return ""
}

// posString is a position as file:line, for messages.
func posString(p diag.Position) string {
	if p.Line > 0 {
		return fmt.Sprintf("%s:%d", p.File, p.Line)
	}
	return p.File
}

func overheadLabel(netType string, ipsec bool) string {
	switch {
	case netType == platform.OpenShiftSDN:
		return "VXLAN"
	case ipsec:
		return "Geneve+IPsec"
	}
	return "Geneve"
}

// ---------------------------------------------------------------- sites

// sitePlan is the site's MTU plan (internal/cluster/mtu owns the math). A
// plan that stops early leaves Smallest 0.
func sitePlan(s *site.Site) mtu.Plan {
	p, _ := mtu.Of(s) // the render reports the plan's own errors
	return p
}

// ---------------------------------------------------------------- MTU001

func checkClusterMTU(in *lint.Input, r *lint.Reporter) {
	for _, set := range in.Sets() {
		if set.Site != nil {
			checkSiteMTU(set, r)
			continue
		}
		ns := readNetSet(set)
		reported := checkInstallMTU(ns, r)
		checkKeyfileMTU(ns, reported, r)
	}
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
		if v.value+over > k.mtu {
			r.Object(v.obj, fmt.Sprintf("cluster MTU %d + %d (%s) is larger than the uplink MTU %d that %s gives its nodes (%s): the smallest uplink decides, so at most %d fits; lower %s to %d",
				v.value, over, overheadLabel(v.netType, false), k.mtu, k, posString(k.obj.PosOf(k.path...)), k.mtu-over, v.what, k.mtu-over), v.path...)
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

func checkIPv6Floor(in *lint.Input, r *lint.Reporter) {
	for _, set := range in.Sets() {
		if set.Site != nil {
			checkSiteIPv6Floor(set.Site.Site, r)
			continue
		}
		ns := readNetSet(set)
		if !ns.anyIPv6() || ns.networkType() != platform.OVNKubernetes {
			continue // OpenShift SDN has no IPv6
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
			if k.mtu-over < platform.MinMTUIPv6 {
				r.Object(k.obj, fmt.Sprintf("%s sets MTU %d, which leaves %d after %d bytes of %s overhead, below the IPv6 minimum %d: every node needs MTU >= %d",
					k, k.mtu, k.mtu-over, over, overheadLabel(platform.OVNKubernetes, ns.ipsecFull()), platform.MinMTUIPv6, platform.MinMTUIPv6+over), k.path...)
			}
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

func checkMTURange(in *lint.Input, r *lint.Reporter) {
	for _, set := range in.Sets() {
		if set.Site != nil {
			continue // the schema bounds every site MTU
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
}

// ---------------------------------------------------------------- MTU004

// appliedFor is the MTU the cluster applies before a migration to `to`:
// Network.config status.clusterNetworkMTU, else the one spec MTU of the set
// that is not part of a migration and not `to` (a manifest already at `to`
// is the finished state).
func (ns *netSet) appliedFor(to *int) (int, string, bool) {
	if v, c, ok := ns.appliedMTU(); ok {
		return v, "Network.config status.clusterNetworkMTU in " + posString(c.obj.PosOf("status", "clusterNetworkMTU")), true
	}
	vals := map[int]string{}
	for _, ic := range ns.installs {
		if v := ic.Networking.ClusterNetworkMTU; v > 0 && (to == nil || v != *to) {
			vals[v] = "install-config networking.clusterNetworkMTU in " + posString(ic.Obj.PosOf("networking", "clusterNetworkMTU"))
		}
	}
	for _, o := range ns.operators {
		if v, path := o.mtu(); v != nil && !o.migrationKey && (to == nil || *v != *to) {
			vals[*v] = path[len(path)-2] + ".mtu in " + posString(o.obj.PosOf(path...))
		}
	}
	if len(vals) != 1 {
		return 0, "", false
	}
	for v, where := range vals {
		return v, where, true
	}
	return 0, "", false
}

func checkMTUMigration(in *lint.Input, r *lint.Reporter) {
	for _, set := range in.Sets() {
		if set.Site != nil {
			continue // the network generator refuses a migration CNO would reject, at the site's fields
		}
		ns := readNetSet(set)
		for _, o := range ns.operators {
			mig := o.mtuMigration()
			if mig == nil {
				continue
			}
			t := o.networkType()
			if t == "" {
				t = ns.networkType()
			}
			if !platform.KnownNetworkType(t) {
				continue
			}
			state := platform.NetworkState{NetworkType: t, AnyIPv6: ns.anyIPv6(), IPsecFull: t == platform.OVNKubernetes && ns.ipsecFull()}
			applied, appliedWhere, known := ns.appliedFor(mig.NetworkTo)
			switch {
			case known:
				state.AppliedMTU = applied
			case mig.NetworkFrom != nil:
				state.AppliedMTU = *mig.NetworkFrom // unknown: assume network.from is right
			}
			var ce *platform.MTUChangeError
			if !errors.As(platform.ValidateMTUChange(state, mig), &ce) || ce.Gate != platform.GateCNOChangeSafe {
				continue // negative values (the API's), or the CEL clash (MTU011)
			}
			for _, reason := range ce.Reasons {
				path, fix := migrationFix(reason.Kind, state, mig, applied, appliedWhere)
				r.Object(o.obj, fmt.Sprintf("CNO rejects this MTU migration: %q; %s", reason.Message, fix), path...)
			}
		}
	}
}

// migrationFix is the field behind a rejection of spec.migration.mtu and
// how to fix it.
func migrationFix(kind error, state platform.NetworkState, mig *platform.MTUMigration, applied int, appliedWhere string) ([]string, string) {
	base := []string{"spec", "migration", "mtu"}
	at := func(p ...string) []string { return append(append([]string{}, base...), p...) }
	overhead := platform.Overhead(state.NetworkType, state.IPsecFull)
	switch {
	case errors.Is(kind, platform.ErrMTUMigrationFieldsMissing):
		var missing []string
		if mig.NetworkFrom == nil {
			missing = append(missing, "network.from (the applied MTU)")
		}
		if mig.NetworkTo == nil {
			missing = append(missing, "network.to (the new cluster MTU)")
		}
		if mig.MachineTo == nil {
			missing = append(missing, "machine.to (the uplink MTU, even when it does not change)")
		}
		return base, "add " + strings.Join(missing, ", ")
	case errors.Is(kind, platform.ErrMTUMigrationFromNotApplied):
		return at("network", "from"), fmt.Sprintf("set network.from to %d, the applied MTU (%s)", applied, appliedWhere)
	case errors.Is(kind, platform.ErrMTUMigrationNetworkToRange):
		return at("network", "to"), fmt.Sprintf("choose a network.to inside the range%s", ipv6Note(state.AnyIPv6))
	case errors.Is(kind, platform.ErrMTUMigrationMachineToRange):
		return at("machine", "to"), fmt.Sprintf("choose a machine.to inside the range%s: the uplink MTU every node gets", ipv6Note(state.AnyIPv6))
	case errors.Is(kind, platform.ErrMTUMigrationMachineToHeadroom):
		return at("machine", "to"), fmt.Sprintf("machine.to must carry network.to %d plus %d bytes of %s overhead: raise machine.to to %d if the links carry it, or lower network.to to %d",
			*mig.NetworkTo, overhead, overheadLabel(state.NetworkType, state.IPsecFull), *mig.NetworkTo+overhead, *mig.MachineTo-overhead)
	}
	return base, "correct the migration"
}

func ipv6Note(anyIPv6 bool) string {
	if anyIPv6 {
		return fmt.Sprintf(" (the floor is %d because a clusterNetwork is IPv6)", platform.MinMTUIPv6)
	}
	return ""
}

// ---------------------------------------------------------------- MTU005

func checkMTUWithoutMigration(in *lint.Input, r *lint.Reporter) {
	for _, set := range in.Sets() {
		if set.Site != nil {
			continue // the network generator checks its phase 2 against phase 1
		}
		ns := readNetSet(set)
		var phase1 []*operatorNetworkDoc
		for _, o := range ns.operators {
			if m := o.mtuMigration(); m != nil && m.NetworkFrom != nil && m.NetworkTo != nil && m.MachineTo != nil {
				phase1 = append(phase1, o)
			}
		}
		applied, appliedConfig, appliedKnown := ns.appliedMTU()
		for _, o := range ns.operators {
			t := o.networkType()
			if t == "" {
				t = ns.networkType()
			}
			if !platform.KnownNetworkType(t) {
				continue
			}
			mtu, path := o.mtu()
			switch {
			case o.finalizesMigration() && len(phase1) > 0:
				if mtu == nil && ns.typeMigration() {
					continue // the cleanup of a network type migration
				}
				checkPhase2(ns, o, t, mtu, path, phase1, r)
			case o.finalizesMigration() || !o.migrationKey:
				if mtu == nil || !appliedKnown || *mtu == applied || ns.typeMigration() || migratesTo(phase1, *mtu) {
					continue
				}
				err := platform.ValidateMTUChange(platform.NetworkState{NetworkType: t, AppliedMTU: applied, AnyIPv6: ns.anyIPv6(), CurrentConfigMTU: mtu}, nil)
				if errors.Is(err, platform.ErrMTUChangedWithoutMigration) {
					r.Object(o.obj, fmt.Sprintf("%s %d differs from the applied MTU %d (Network.config status.clusterNetworkMTU in %s): CNO rejects it with %q; change the MTU with a migration (spec.migration.mtu, then phase 2) or set it back to %d",
						path[len(path)-2]+".mtu", *mtu, applied, posString(appliedConfig.obj.PosOf("status", "clusterNetworkMTU")), err.Error(), applied), path...)
				}
			}
		}
	}
}

func migratesTo(phase1 []*operatorNetworkDoc, mtu int) bool {
	for _, p := range phase1 {
		if *p.mtuMigration().NetworkTo == mtu {
			return true
		}
	}
	return false
}

// checkPhase2 judges a phase 2 object against the phase 1 objects of the
// set, as CNO does once phase 1 is reconciled: the applied MTU is network.to
// and the spec still holds network.from unless phase 2 sets the mtu.
func checkPhase2(ns *netSet, o *operatorNetworkDoc, t string, mtu *int, path []string, phase1 []*operatorNetworkDoc, r *lint.Reporter) {
	var first error
	var firstP1 *operatorNetworkDoc
	for _, p := range phase1 {
		mig := p.mtuMigration()
		err := platform.ValidateMTUChange(platform.NetworkState{
			NetworkType: t, AppliedMTU: *mig.NetworkTo, AnyIPv6: ns.anyIPv6(), IPsecFull: ns.ipsecFull(),
			CurrentConfigMTU: mig.NetworkFrom, RequestedConfigMTU: mtu, AppliedMigration: mig,
		}, nil)
		if err == nil || !errors.Is(err, platform.ErrMTUChangedWithoutMigration) {
			return // accepted, or rejected for a reason MTU003 reports
		}
		if first == nil {
			first, firstP1 = err, p
		}
	}
	mig := firstP1.mtuMigration()
	field := "ovnKubernetesConfig.mtu"
	if t == platform.OpenShiftSDN {
		field = "openshiftSDNConfig.mtu"
	}
	p1 := posString(firstP1.obj.PosOf("spec", "migration", "mtu", "network", "to"))
	if mtu == nil {
		r.Object(o.obj, fmt.Sprintf("phase 2 removes the migration without setting %s: the spec keeps the old MTU %d while the applied MTU is phase 1's network.to %d (%s), and CNO rejects it with %q; set %s: %d",
			field, *mig.NetworkFrom, *mig.NetworkTo, p1, first.Error(), field, *mig.NetworkTo), "spec", "migration")
		return
	}
	r.Object(o.obj, fmt.Sprintf("phase 2 sets %s %d, but phase 1 migrates to network.to %d (%s): CNO rejects it with %q; set %s: %d",
		field, *mtu, *mig.NetworkTo, p1, first.Error(), field, *mig.NetworkTo), path...)
}

// ---------------------------------------------------------------- MTU006

func checkMTUNoOp(in *lint.Input, r *lint.Reporter) {
	for _, set := range in.Sets() {
		if set.Site != nil {
			continue // a site renders a migration only when mtu.current differs from the target
		}
		for _, o := range readNetSet(set).operators {
			m := o.mtuMigration()
			if m == nil || m.NetworkFrom == nil || m.NetworkTo == nil || *m.NetworkFrom != *m.NetworkTo {
				continue
			}
			if m.MachineFrom != nil && m.MachineTo != nil && *m.MachineFrom != *m.MachineTo {
				continue // it changes the machine MTU
			}
			msg := fmt.Sprintf("this MTU migration moves the cluster MTU from %d to %d, which changes nothing: both phases still roll every MachineConfigPool (a reboot per node each); remove the migration or set network.to to the MTU you want", *m.NetworkFrom, *m.NetworkTo)
			if m.MachineFrom == nil && m.MachineTo != nil {
				msg += fmt.Sprintf(" (if it is meant to change only the uplinks to machine.to %d, write machine.from)", *m.MachineTo)
			}
			r.Object(o.obj, msg, "spec", "migration", "mtu", "network", "to")
		}
	}
}

// ---------------------------------------------------------------- MTU007

func checkMachineMTUPersisted(in *lint.Input, r *lint.Reporter) {
	for _, set := range in.Sets() {
		if set.Site != nil {
			continue // the network generator writes the keyfile MachineConfigs with the migration
		}
		ns := readNetSet(set)
		for _, o := range ns.operators {
			m := o.mtuMigration()
			if m == nil || m.MachineTo == nil {
				continue
			}
			to := *m.MachineTo
			var uplink int
			var uplinkWhat string
			stale, hasStale := mtuKeyfile{}, false
			for _, k := range ns.knownKeyfiles() {
				if k.mtu != to && !hasStale {
					stale, hasStale = k, true
				}
			}
			switch d, ok := platform.DefaultUplinkMTUs[ns.platform]; {
			case m.MachineFrom != nil:
				uplink, uplinkWhat = *m.MachineFrom, "machine.from"
			case hasStale:
				uplink, uplinkWhat = stale.mtu, "set by "+stale.String()
			case ok:
				uplink, uplinkWhat = d.MTU, d.Source
			default:
				continue // the uplink is unknown: machine.to may be what it already is
			}
			if uplink == to {
				continue
			}
			persisted := map[string]bool{}
			for _, k := range ns.keyfiles {
				if k.mtu == to || k.mtu == 0 {
					persisted[k.role] = true
				}
			}
			var missing []string
			for _, want := range []struct{ role, name string }{
				{platform.MachineConfigRoleMaster, platform.ControlPlaneInterfaceMCName},
				{platform.MachineConfigRoleWorker, platform.WorkerInterfaceMCName},
			} {
				if !persisted[want.role] {
					missing = append(missing, fmt.Sprintf("%s (role %s)", want.name, want.role))
				}
			}
			if len(missing) == 0 {
				continue
			}
			r.Object(o.obj, fmt.Sprintf("machine.to %d changes the uplink MTU from %d (%s), but machine.to is transient and no MachineConfig of this set persists it for %s: after phase 2 the nodes return to %d at the next reboot; add %s writing %s with ethernet.mtu=%d",
				to, uplink, uplinkWhat, rolesOf(missing), uplink, strings.Join(missing, " and "), fmt.Sprintf(platform.NMMTUKeyfilePathFormat, "<iface>"), to),
				"spec", "migration", "mtu", "machine", "to")
		}
	}
}

func rolesOf(missing []string) string {
	if len(missing) == 1 {
		return "one role"
	}
	return "the master and worker roles"
}

// ---------------------------------------------------------------- MTU008

func checkIPsecHeadroom(in *lint.Input, r *lint.Reporter) {
	base := platform.Overhead(platform.OVNKubernetes, false)
	full := platform.Overhead(platform.OVNKubernetes, true)
	short := func(mtu, uplink int) bool { return mtu+base <= uplink && mtu+full > uplink }
	for _, set := range in.Sets() {
		if set.Site != nil {
			s := set.Site.Site
			p := sitePlan(s)
			if !p.IPsecFull || p.Smallest == 0 || s.MTU == nil || s.MTU.Target == nil {
				continue // a computed target always has the headroom
			}
			for _, l := range p.Links {
				if !l.IsPath() && short(*s.MTU.Target, l.MTU) {
					r.At(s.Name, s.Positions.Of("mtu.target"), fmt.Sprintf("cluster MTU %d leaves %d bytes to the %s (MTU %d), but IPsec Full needs %d (Geneve %d + ESP %d): set mtu.target to at most %d, or remove it",
						*s.MTU.Target, l.MTU-*s.MTU.Target, l.Label(), l.MTU, full, base, full-base, l.MTU-full))
					break
				}
			}
			continue
		}
		ns := readNetSet(set)
		uplink, uplinkWhat := 0, ""
		if k, ok := ns.smallestKeyfile(); ok {
			uplink, uplinkWhat = k.mtu, fmt.Sprintf("set by %s", k)
		} else if d, ok := platform.DefaultUplinkMTUs[ns.platform]; ok {
			uplink, uplinkWhat = d.MTU, d.Source
		} else {
			continue
		}
		for _, o := range ns.operators {
			if !o.ipsecFull() {
				continue
			}
			ipsecPath := []string{"spec", "defaultNetwork", "ovnKubernetesConfig", "ipsecConfig"}
			var vals []mtuValue
			if v, path := o.mtu(); v != nil {
				vals = []mtuValue{{value: *v, obj: o.obj, path: path, what: "ovnKubernetesConfig.mtu"}}
			} else {
				for _, v := range ns.effectiveMTUs() {
					if v.obj != o.obj && v.netType == platform.OVNKubernetes {
						vals = append(vals, v)
					}
				}
				if len(vals) == 0 {
					if applied, c, ok := ns.appliedMTU(); ok {
						vals = []mtuValue{{value: applied, obj: c.obj, path: []string{"status", "clusterNetworkMTU"}, what: "the applied MTU"}}
					}
				}
			}
			for _, v := range vals {
				if !short(v.value, uplink) {
					continue
				}
				path, where := v.path, ""
				if v.obj != o.obj {
					path, where = ipsecPath, fmt.Sprintf(" (%s)", posString(v.pos()))
				}
				r.Object(o.obj, fmt.Sprintf("IPsec Full needs %d bytes of overhead (Geneve %d + ESP %d), but %s %d%s leaves only %d to the uplink MTU %d (%s): lower the cluster MTU to %d with an MTU migration before enabling IPsec",
					full, base, full-base, v.what, v.value, where, uplink-v.value, uplink, uplinkWhat, uplink-full), path...)
			}
		}
	}
}

// ---------------------------------------------------------------- MTU009

func checkPlatformMaxMTU(in *lint.Input, r *lint.Reporter) {
	msg := func(what string, mtu int, plat string, c platform.PlatformMTU) string {
		return fmt.Sprintf("%s %d is above %d, the largest MTU %s carries (%s): frames above it are dropped; use at most %d",
			what, mtu, c.MTU, plat, c.Source, c.MTU)
	}
	for _, set := range in.Sets() {
		if set.Site != nil {
			s := set.Site.Site
			c, ok := platform.MachineMTUCeilings[s.Cluster.Platform]
			if !ok {
				continue
			}
			for _, name := range s.PoolNames() {
				if u := s.Pools[name].UplinkMTU; u > c.MTU {
					r.At(s.Name, s.Positions.Of(site.Field("pools", name, "uplinkMTU")), msg("pools."+name+".uplinkMTU", u, s.Cluster.Platform, c))
				}
			}
			if s.MTU != nil && s.MTU.Machine != nil && *s.MTU.Machine > c.MTU {
				r.At(s.Name, s.Positions.Of("mtu.machine"), msg("mtu.machine", *s.MTU.Machine, s.Cluster.Platform, c))
			}
			continue
		}
		ns := readNetSet(set)
		c, ok := platform.MachineMTUCeilings[ns.platform]
		if !ok {
			continue
		}
		for _, k := range ns.knownKeyfiles() {
			if k.mtu > c.MTU {
				r.Object(k.obj, msg("the ethernet.mtu of "+k.String(), k.mtu, ns.platform, c), k.path...)
			}
		}
		for _, o := range ns.operators {
			if m := o.mtuMigration(); m != nil && m.MachineTo != nil && *m.MachineTo > c.MTU {
				r.Object(o.obj, msg("machine.to", *m.MachineTo, ns.platform, c), "spec", "migration", "mtu", "machine", "to")
			}
		}
	}
}

// ---------------------------------------------------------------- MTU010

func checkMixedUplinks(in *lint.Input, r *lint.Reporter) {
	for _, set := range in.Sets() {
		if set.Site != nil {
			checkSiteMixedUplinks(set.Site.Site, r)
			continue
		}
		ns := readNetSet(set)
		if len(ns.installs) == 0 || len(ns.specMTUs()) > 0 {
			continue // not an install, or the cluster MTU is explicit
		}
		ic := ns.installs[0]
		if ic.EdgePool() >= 0 {
			continue // the installer sets the edge pool's MTU itself
		}
		keyfiles := ns.knownKeyfiles()
		var mtus []int
		var parts []string
		for _, k := range keyfiles {
			mtus = append(mtus, k.mtu)
			parts = append(parts, fmt.Sprintf("%s: %d", k, k.mtu))
		}
		if len(sortedInts(mtus)) < 2 {
			continue
		}
		t := ns.networkType()
		if !platform.KnownNetworkType(t) {
			continue
		}
		smallest := sortedInts(mtus)[0]
		over := platform.Overhead(t, ns.ipsecFull())
		r.Object(ic.Obj, fmt.Sprintf("the MachineConfigs give the nodes different uplink MTUs (%s) and no cluster MTU is set: install-time detection probes one node's default-route link and may pick a cluster MTU only the larger uplinks carry; set %s.mtu to %d (smallest uplink %d - %d) in manifests/cluster-network-03-config.yml",
			strings.Join(parts, ", "), cfgKey(t), smallest-over, smallest, over), "networking")
	}
}

func cfgKey(netType string) string {
	if netType == platform.OpenShiftSDN {
		return "openshiftSDNConfig"
	}
	return "ovnKubernetesConfig"
}

func checkSiteMixedUplinks(s *site.Site, r *lint.Reporter) {
	if s.Cluster.Lifecycle != "install" || s.MTU != nil && s.MTU.Target != nil {
		return
	}
	var mtus []int
	smallest := ""
	for _, name := range s.PoolNames() {
		u := s.Pools[name].UplinkMTU
		mtus = append(mtus, u)
		if smallest == "" || u < s.Pools[smallest].UplinkMTU {
			smallest = name
		}
	}
	distinct := sortedInts(mtus)
	if len(distinct) < 2 {
		return
	}
	p, err := mtu.Of(s)
	if err != nil {
		return // the render reports it
	}
	var parts []string
	for _, name := range s.PoolNames() {
		parts = append(parts, fmt.Sprintf("%s %d", name, s.Pools[name].UplinkMTU))
	}
	r.At(s.Name, s.Positions.Of(site.Field("pools", smallest, "uplinkMTU")), fmt.Sprintf(
		"the pools' uplinks have different MTUs (%s) and mtu.target is not set: install-time detection probes one node's default-route link, and from a %d uplink would pick %d; siteforge computes %d and writes it to install/manifests/cluster-network-03-config.yml, which must be copied into the installer's manifests, or set mtu.target: %d",
		strings.Join(parts, ", "), distinct[len(distinct)-1], distinct[len(distinct)-1]-p.Overhead, p.Target, p.Target))
}

// ---------------------------------------------------------------- MTU011

func checkTypeAndMTUMigration(in *lint.Input, r *lint.Reporter) {
	for _, set := range in.Sets() {
		if set.Site != nil {
			continue // the network generator refuses both migrations together
		}
		ns := readNetSet(set)
		for _, o := range ns.operators {
			mig := o.mtuMigration()
			if mig == nil || !o.offlineTypeMigration() {
				continue
			}
			state := platform.NetworkState{NetworkType: ns.networkType(), NetworkTypeMigration: true}
			if !platform.KnownNetworkType(state.NetworkType) {
				state.NetworkType = platform.OpenShiftSDN // the CEL rule does not depend on it
			}
			var ce *platform.MTUChangeError
			if !errors.As(platform.ValidateMTUChange(state, mig), &ce) || ce.Gate != platform.GateAPIAdmission {
				continue
			}
			mode := o.Spec.Migration.Mode
			if mode == "" {
				mode = "Offline (the default)"
			}
			r.Object(o.obj, fmt.Sprintf("spec.migration sets networkType %s in mode %s together with mtu: the API server rejects it with %q; run the MTU migration to its end first, then the network type migration (which sets the OVN-Kubernetes MTU itself)",
				o.Spec.Migration.NetworkType, mode, ce.Error()), "spec", "migration", "networkType")
		}
	}
}
