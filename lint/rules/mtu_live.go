package rules

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/siteforge/siteforge/internal/cluster/mtu"
	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/lint"
)

// liveState is the set's running-cluster state (manifests.ReadState), read
// once per set; nil for a set that is not a running cluster's (Set.Live).
func liveState(set lint.Set) *manifests.State {
	if !set.Live {
		return nil
	}
	return lint.Fact(set, factState, func() *manifests.State { return manifests.ReadState(set.Objects) })
}

// maxNamed is how many nodes or pools a message names before "and N more".
const maxNamed = 4

// namedList names up to maxNamed items.
func namedList(items []string) string {
	if len(items) <= maxNamed {
		return strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(items[:maxNamed], ", "), len(items)-maxNamed)
}

// ---------------------------------------------------------------- MTU001 on a running cluster

// checkLiveMTU: the applied cluster MTU of a running cluster with AWS edge
// nodes against the 1300-byte path between them and the Region (KCS
// 6996487), with the migration the plan of its state gives. A migration
// already asked to an MTU that fits is MTU014's.
func checkLiveMTU(st *manifests.State, r *lint.Reporter) {
	edge := st.EdgeNodes()
	applied := st.AppliedMTU()
	if st.Config == nil || applied == 0 || len(edge) == 0 || !platform.KnownNetworkType(st.NetworkType()) {
		return
	}
	netType, ipsec := st.NetworkType(), st.IPsecFull()
	over := platform.Overhead(netType, ipsec)
	limit := platform.AWSEdgeZoneToRegionMTU - over
	if applied <= limit {
		return
	}
	if m := st.MTUMigration(); m != nil && m.Network != nil && m.Network.To != nil && int(*m.Network.To) <= limit {
		return // on its way (MTU014 says how far)
	}
	var names []string
	zones := map[string]bool{}
	var zoneList []string
	for _, n := range edge {
		names = append(names, n.Name)
		if z := n.Labels[platform.ZoneLabel]; z != "" && !zones[z] {
			zones[z] = true
			zoneList = append(zoneList, z)
		}
	}
	msg := edgeMessage(applied, netType, over-platform.Overhead(netType, false), limit) +
		fmt.Sprintf("; the cluster applies it (status.clusterNetworkMTU), and its edge nodes %s (%s) drop larger packets (KCS 6996487: net/http: TLS handshake timeout pulling images)",
			namedList(names), strings.Join(zoneList, ", "))
	if p, _, err := mtu.OfState(st); err == nil {
		if ph1, ph2 := p.Phases(); ph1 != nil {
			msg += fmt.Sprintf("; run the MTU migration %d -> %d: phase 1 `%s`, then, once every MachineConfigPool is updated, phase 2 `%s` (siteforge mtu prints the plan)",
				applied, p.Target, mtu.PatchCommand(ph1), mtu.PatchCommand(ph2))
		}
	}
	r.Object(st.Config, msg, "status", "clusterNetworkMTU")
}

// ---------------------------------------------------------------- MTU014

func checkMTUMigrationUnfinished(set lint.Set, r *lint.Reporter) {
	st := liveState(set)
	if st == nil || st.Operator == nil || len(st.Pools) == 0 {
		return
	}
	pr := mtu.MigrationOf(st)
	switch pr.Stage {
	case mtu.Phase1RollingOut:
		var behind []string
		for _, p := range pr.Behind() {
			behind = append(behind, p.String())
		}
		r.Object(st.Operator, fmt.Sprintf("phase 1 of the MTU migration %d -> %d has not reached every node: pool %s does not yet run %s; phase 2 must wait until every MachineConfigPool is updated (oc get machineconfigpools); a pool that stays behind is degraded or paused",
			pr.From, pr.To, namedList(behind), platform.MCOUnitMTUMigration), migrationToPath...)
	case mtu.Phase2Due:
		r.Object(st.Operator, fmt.Sprintf("phase 1 of the MTU migration %d -> %d is rolled out on every pool (their rendered configs run %s with %s=%d), but phase 2 is not applied: the cluster MTU stays %d (Network.config status.clusterNetworkMTU) and every node sets the temporary MTUs again at each boot; apply phase 2: `%s`",
			pr.From, pr.To, platform.MCOUnitMTUMigration, platform.MCOMTUMigrationNetworkEnv, pr.To, st.AppliedMTU(), pr.Phase2Command(st.NetworkType())), migrationToPath...)
	case mtu.Phase2RollingOut:
		for _, p := range pr.Behind() {
			i := p.Pool.ConditionIndex(platform.PoolConditionUpdated)
			at := []string{"status", "configuration", "name"}
			if i >= 0 && !p.AllUpdated {
				at = []string{"status", "conditions", strconv.Itoa(i), "status"}
			}
			r.Object(p.Pool.Obj, fmt.Sprintf("pool %s runs %s, which still carries %s (%s=%d), but Network.operator has no spec.migration: phase 2 of the MTU migration has reached %d of its %d nodes; until it reaches all, the nodes set the temporary MTUs at each boot, and the migration is not over",
				p.Pool.Obj.Name, p.Config, platform.MCOUnitMTUMigration, platform.MCOMTUMigrationNetworkEnv, p.To,
				p.Pool.MCP.Status.UpdatedMachineCount, p.Pool.MCP.Status.MachineCount), at...)
		}
	}
}

// migrationToPath is Network.operator spec.migration.mtu network.to.
var migrationToPath = []string{"spec", "migration", "mtu", "network", "to"}
