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

// migrationUnit is what a rendered config says of the MTU migration: whether
// it runs platform.MCOUnitMTUMigration, and the network.to it carries (0:
// not said).
func migrationUnit(mc *manifests.MachineConfig) (runs bool, networkTo int) {
	if mc == nil {
		return false, 0
	}
	for _, u := range mc.Config.Systemd.Units {
		if u.Name != platform.MCOUnitMTUMigration {
			continue
		}
		for _, line := range strings.Split(u.Contents, "\n") {
			if v, ok := strings.CutPrefix(strings.TrimSpace(line), "Environment="+platform.MCOMTUMigrationNetworkEnv+"="); ok {
				networkTo, _ = strconv.Atoi(strings.TrimSpace(v))
			}
		}
		return true, networkTo
	}
	return false, 0
}

func checkMTUMigrationUnfinished(set lint.Set, r *lint.Reporter) {
	st := liveState(set)
	if st == nil || st.Operator == nil || len(st.Pools) == 0 {
		return
	}
	type poolRun struct {
		pool     *manifests.Pool
		current  string // the rendered config its nodes run (status.configuration)
		runs     bool   // ... with the migration unit
		to       int
		all      bool // every node updated to it
		rendered bool // the rendered config is in the state
	}
	var pools []poolRun
	for _, p := range st.Pools {
		cur := p.MCP.Status.Configuration.Name
		mc := st.Rendered[cur]
		runs, to := migrationUnit(mc)
		pools = append(pools, poolRun{pool: p, current: cur, runs: runs, to: to, rendered: mc != nil,
			all: p.MCP.Status.UpdatedMachineCount == p.MCP.Status.MachineCount && p.True(platform.PoolConditionUpdated)})
	}
	mig := st.MTUMigration()
	if mig != nil && mig.Network != nil && mig.Network.From != nil && mig.Network.To != nil {
		from, to := int(*mig.Network.From), int(*mig.Network.To)
		var behind []string
		for _, p := range pools {
			if !p.rendered {
				return // what the pool runs is not in the state
			}
			if !p.runs || !p.all {
				behind = append(behind, fmt.Sprintf("%s (%d of %d nodes updated, on %s)", p.pool.Obj.Name,
					p.pool.MCP.Status.UpdatedMachineCount, p.pool.MCP.Status.MachineCount, p.current))
			}
		}
		at := []string{"spec", "migration", "mtu", "network", "to"}
		if len(behind) > 0 {
			r.Object(st.Operator, fmt.Sprintf("phase 1 of the MTU migration %d -> %d has not reached every node: pool %s does not yet run %s; phase 2 must wait until every MachineConfigPool is updated (oc get machineconfigpools); a pool that stays behind is degraded or paused",
				from, to, namedList(behind), platform.MCOUnitMTUMigration), at...)
			return
		}
		var ph2 string
		cfgKey := "ovnKubernetesConfig"
		if st.NetworkType() == platform.OpenShiftSDN {
			cfgKey = "openshiftSDNConfig"
		}
		ph2 = mtu.PatchCommand(map[string]any{"spec": map[string]any{"migration": nil, "defaultNetwork": map[string]any{cfgKey: map[string]any{"mtu": to}}}})
		r.Object(st.Operator, fmt.Sprintf("phase 1 of the MTU migration %d -> %d is rolled out on every pool (their rendered configs run %s with %s=%d), but phase 2 is not applied: the cluster MTU stays %d (Network.config status.clusterNetworkMTU) and every node sets the temporary MTUs again at each boot; apply phase 2: `%s`",
			from, to, platform.MCOUnitMTUMigration, platform.MCOMTUMigrationNetworkEnv, to, st.AppliedMTU(), ph2), at...)
		return
	}
	if mig != nil {
		return // an incomplete migration: MTU004's
	}
	for _, p := range pools {
		if !p.runs {
			continue
		}
		i := p.pool.ConditionIndex(platform.PoolConditionUpdated)
		at := []string{"status", "configuration", "name"}
		if i >= 0 && !p.all {
			at = []string{"status", "conditions", strconv.Itoa(i), "status"}
		}
		r.Object(p.pool.Obj, fmt.Sprintf("pool %s runs %s, which still carries %s (%s=%d), but Network.operator has no spec.migration: phase 2 of the MTU migration has reached %d of its %d nodes; until it reaches all, the nodes set the temporary MTUs at each boot, and the migration is not over",
			p.pool.Obj.Name, p.current, platform.MCOUnitMTUMigration, platform.MCOMTUMigrationNetworkEnv, p.to,
			p.pool.MCP.Status.UpdatedMachineCount, p.pool.MCP.Status.MachineCount), at...)
	}
}
