package rules

import (
	"errors"
	"fmt"
	"strings"

	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/lint"
)

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

func checkMTUMigration(set lint.Set, r *lint.Reporter) {
	if set.Site != nil {
		return // the network generator refuses a migration CNO would reject, at the site's fields
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

func checkMTUWithoutMigration(set lint.Set, r *lint.Reporter) {
	if set.Site != nil {
		return // the network generator checks its phase 2 against phase 1
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

func checkMTUNoOp(set lint.Set, r *lint.Reporter) {
	if set.Site != nil {
		return // a site renders a migration only when mtu.current differs from the target
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

// ---------------------------------------------------------------- MTU013

func checkMTUMigrationDuringLiveMigration(set lint.Set, r *lint.Reporter) {
	if set.Site != nil {
		return // the network generator refuses an MTU migration next to a live migration
	}
	ns := readNetSet(set)
	var live *networkConfigDoc
	for _, c := range ns.configs {
		if c.liveMigration() {
			live = c
			break
		}
	}
	if live == nil {
		return
	}
	started := fmt.Sprint(live.obj.KeyPosOf("metadata", "annotations", platform.NetworkTypeMigrationAnnotation))
	for _, o := range ns.operators {
		mig := o.Spec.Migration
		if mig == nil || mig.MTU == nil || mig.NetworkType != "" {
			continue // no MTU migration, or CNO's own live-migration state (mode Live + networkType)
		}
		r.Object(o.obj, fmt.Sprintf("spec.migration.mtu is set while the live network type migration started by %s in %s runs: CNO writes spec.migration itself during the live migration (mode Live, networkType, its routable MTU) and removes it at the end, so this MTU migration fights it; finish the MTU migration first, then start the live migration",
			platform.NetworkTypeMigrationAnnotation, started), "spec", "migration", "mtu")
	}
}
