package mtu

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/platform"
)

// Stage is where a running cluster's MTU migration stands (docs "Changing
// the cluster network MTU": phase 1 sets Network.operator spec.migration.mtu
// and MCO rolls a config running platform.MCOUnitMTUMigration to every pool;
// phase 2 removes the migration and sets the new MTU, and MCO rolls a config
// without the unit to every pool again).
type Stage int

const (
	// NoMigration: no migration is asked and no pool runs the unit.
	NoMigration Stage = iota
	// Phase1RollingOut: spec.migration.mtu is set, and some pool's nodes
	// do not all run a rendered config with the unit yet.
	Phase1RollingOut
	// Phase2Due: phase 1 runs on every node; phase 2 is not applied.
	Phase2Due
	// Phase2RollingOut: spec.migration is gone, and some pool still runs a
	// rendered config with the unit.
	Phase2RollingOut
	// MigrationUnknown: a migration is asked, but the state does not say
	// how far it went (a pool's rendered config is not in it, or the
	// migration lacks network.from or network.to: MTU004's).
	MigrationUnknown
)

// PoolMigration is what one pool's nodes run of the migration.
type PoolMigration struct {
	Pool *manifests.Pool
	// Config is the rendered config the pool's nodes run
	// (status.configuration); Known says the state holds it.
	Config string
	Known  bool
	// Runs says the config runs platform.MCOUnitMTUMigration, To its
	// network.to (platform.MCOMTUMigrationNetworkEnv; 0: not said).
	Runs bool
	To   int
	// AllUpdated: every node of the pool runs Config (updated machines
	// equal machines, condition Updated true).
	AllUpdated bool
}

// String names the pool with how many of its nodes run its config:
// "worker (3 of 5 nodes updated, on rendered-worker-...)".
func (pm PoolMigration) String() string {
	return fmt.Sprintf("%s (%d of %d nodes updated, on %s)", pm.Pool.Obj.Name, pm.Pool.MCP.Status.UpdatedMachineCount, pm.Pool.MCP.Status.MachineCount, pm.Config)
}

// Progress is a running cluster's MTU migration: its stage, the values it
// goes between (phase 1: spec.migration.mtu network.from and network.to),
// and each pool.
type Progress struct {
	Stage    Stage
	From, To int
	Pools    []PoolMigration
}

// Behind are the pools the stage still waits for: in phase 1, those whose
// nodes do not all run the unit; in phase 2, those still running it.
func (p Progress) Behind() []PoolMigration {
	var out []PoolMigration
	for _, pm := range p.Pools {
		switch p.Stage {
		case Phase1RollingOut:
			if !pm.Runs || !pm.AllUpdated {
				out = append(out, pm)
			}
		case Phase2RollingOut:
			if pm.Runs {
				out = append(out, pm)
			}
		}
	}
	return out
}

// Phase2Command is the oc command of phase 2 for p.To on networkType.
func (p Progress) Phase2Command(networkType string) string {
	return PatchCommand(Phase2Patch(networkType, p.To))
}

// MigrationOf reads where a running cluster's MTU migration stands from
// its state: Network.operator spec.migration.mtu, and the rendered config
// each pool's nodes run (status.configuration) with its counts.
func MigrationOf(st *manifests.State) Progress {
	var out Progress
	for _, p := range st.Pools {
		cur := p.MCP.Status.Configuration.Name
		mc := st.Rendered[cur]
		runs, to := migrationUnit(mc)
		out.Pools = append(out.Pools, PoolMigration{Pool: p, Config: cur, Known: mc != nil, Runs: runs, To: to,
			AllUpdated: p.MCP.Status.UpdatedMachineCount == p.MCP.Status.MachineCount && p.True(platform.PoolConditionUpdated)})
	}
	mig := st.MTUMigration()
	switch {
	case mig != nil && mig.Network != nil && mig.Network.From != nil && mig.Network.To != nil:
		out.From, out.To = int(*mig.Network.From), int(*mig.Network.To)
		out.Stage = Phase2Due
		for _, pm := range out.Pools {
			switch {
			case !pm.Known:
				out.Stage = MigrationUnknown // what the pool runs is not in the state
				return out
			case !pm.Runs || !pm.AllUpdated:
				out.Stage = Phase1RollingOut
			}
		}
	case mig != nil:
		out.Stage = MigrationUnknown
	default:
		for _, pm := range out.Pools {
			if pm.Runs {
				out.Stage, out.To = Phase2RollingOut, pm.To
			}
		}
	}
	return out
}

// migrationUnit is what a rendered config says of the MTU migration:
// whether it runs platform.MCOUnitMTUMigration, and the network.to it
// carries (0: not said).
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
