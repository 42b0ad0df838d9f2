package rules

import (
	"errors"
	"fmt"
	"strings"

	"github.com/siteforge/siteforge/internal/cluster/mtu"
	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/site"
	"github.com/siteforge/siteforge/lint"
)

// ---------------------------------------------------------------- MTU007

func checkMachineMTUPersisted(set lint.Set, r *lint.Reporter) {
	if set.Site != nil {
		return // the network generator writes the keyfile MachineConfigs with the migration
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
		var stale manifests.MTUKeyfile
		hasStale := false
		for _, k := range ns.knownKeyfiles() {
			if k.MTU != to && !hasStale {
				stale, hasStale = k, true
			}
		}
		switch d, ok := platform.DefaultUplinkMTUs[ns.platform]; {
		case m.MachineFrom != nil:
			uplink, uplinkWhat = *m.MachineFrom, "machine.from"
		case hasStale:
			uplink, uplinkWhat = stale.MTU, "set by "+stale.String()
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
			if k.MTU == to || k.MTU == 0 {
				persisted[k.Role] = true
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

func rolesOf(missing []string) string {
	if len(missing) == 1 {
		return "one role"
	}
	return "the master and worker roles"
}

// ---------------------------------------------------------------- MTU008

func checkIPsecHeadroom(set lint.Set, r *lint.Reporter) {
	base := platform.Overhead(platform.OVNKubernetes, false)
	full := platform.Overhead(platform.OVNKubernetes, true)
	short := func(mtu, uplink int) bool { return mtu+base <= uplink && mtu+full > uplink }
	if set.Site != nil {
		s := set.Site.Site
		p := sitePlan(s)
		if !p.IPsecFull || p.Smallest == 0 || s.MTU == nil || s.MTU.Target == nil {
			return // a computed target always has the headroom
		}
		for _, l := range p.Links {
			if !l.IsPath() && short(*s.MTU.Target, l.MTU) {
				r.At(s.Name, s.Positions.Of("mtu.target"), fmt.Sprintf("cluster MTU %d leaves %d bytes to the %s (MTU %d), but IPsec Full needs %d (Geneve %d + ESP %d): set mtu.target to at most %d, or remove it",
					*s.MTU.Target, l.MTU-*s.MTU.Target, l.Label(), l.MTU, full, base, full-base, l.MTU-full))
				break
			}
		}
		return
	}
	ns := readNetSet(set)
	uplink, uplinkWhat := 0, ""
	if k, ok := ns.smallestKeyfile(); ok {
		uplink, uplinkWhat = k.MTU, fmt.Sprintf("set by %s", k)
	} else if d, ok := platform.DefaultUplinkMTUs[ns.platform]; ok {
		uplink, uplinkWhat = d.MTU, d.Source
	} else {
		return
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

// ---------------------------------------------------------------- MTU009

func checkPlatformMaxMTU(set lint.Set, r *lint.Reporter) {
	msg := func(what string, mtu int, plat string, c platform.PlatformMTU) string {
		return fmt.Sprintf("%s %d is above %d, the largest MTU %s carries (%s): frames above it are dropped; use at most %d",
			what, mtu, c.MTU, plat, c.Source, c.MTU)
	}
	if set.Site != nil {
		s := set.Site.Site
		c, ok := platform.MachineMTUCeilings[s.Cluster.Platform]
		if !ok {
			return
		}
		for _, name := range s.PoolNames() {
			if u := s.Pools[name].UplinkMTU; u > c.MTU {
				r.At(s.Name, s.Positions.Of(site.Field("pools", name, "uplinkMTU")), msg("pools."+name+".uplinkMTU", u, s.Cluster.Platform, c))
			}
		}
		if s.MTU != nil && s.MTU.Machine != nil && *s.MTU.Machine > c.MTU {
			r.At(s.Name, s.Positions.Of("mtu.machine"), msg("mtu.machine", *s.MTU.Machine, s.Cluster.Platform, c))
		}
		return
	}
	ns := readNetSet(set)
	c, ok := platform.MachineMTUCeilings[ns.platform]
	if !ok {
		return
	}
	for _, k := range ns.knownKeyfiles() {
		if k.MTU > c.MTU {
			r.Object(k.Obj, msg("the ethernet.mtu of "+k.String(), k.MTU, ns.platform, c), k.Path...)
		}
	}
	for _, o := range ns.operators {
		if m := o.mtuMigration(); m != nil && m.MachineTo != nil && *m.MachineTo > c.MTU {
			r.Object(o.obj, msg("machine.to", *m.MachineTo, ns.platform, c), "spec", "migration", "mtu", "machine", "to")
		}
	}
}

// ---------------------------------------------------------------- MTU010

func checkMixedUplinks(set lint.Set, r *lint.Reporter) {
	if set.Site != nil {
		checkSiteMixedUplinks(set.Site.Site, r)
		return
	}
	ns := readNetSet(set)
	if len(ns.installs) == 0 || len(ns.specMTUs()) > 0 {
		return // not an install, or the cluster MTU is explicit
	}
	ic := ns.installs[0]
	if ic.EdgePool() >= 0 {
		return // the installer sets the edge pool's MTU itself
	}
	keyfiles := ns.knownKeyfiles()
	var mtus []int
	var parts []string
	for _, k := range keyfiles {
		mtus = append(mtus, k.MTU)
		parts = append(parts, fmt.Sprintf("%s: %d", k, k.MTU))
	}
	if len(sortedInts(mtus)) < 2 {
		return
	}
	t := ns.networkType()
	if !platform.KnownNetworkType(t) {
		return
	}
	smallest := sortedInts(mtus)[0]
	over := platform.Overhead(t, ns.ipsecFull())
	r.Object(ic.Obj, fmt.Sprintf("the MachineConfigs give the nodes different uplink MTUs (%s) and no cluster MTU is set: install-time detection probes one node's default-route link and may pick a cluster MTU only the larger uplinks carry; set %s.mtu to %d (smallest uplink %d - %d) in manifests/cluster-network-03-config.yml",
		strings.Join(parts, ", "), mtu.ConfigKey(t), smallest-over, smallest, over), "networking")
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

func checkTypeAndMTUMigration(set lint.Set, r *lint.Reporter) {
	if set.Site != nil {
		return // the network generator refuses both migrations together
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
