package network

import (
	"fmt"
	"path"
	"sort"

	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/internal/butane"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/ruleid"
	"github.com/siteforge/siteforge/internal/site"
)

// interfaceConfig is one NetworkManager MTU MachineConfig: a keyfile per
// uplink interface of its pool that pins the new machine MTU. During an MTU
// migration machine.to is transient (mtu-migration.sh sets it on each boot
// and is gone after phase 2); these keyfiles make it permanent (docs
// "Changing the cluster network MTU"). RHCOS configures its NICs with
// NetworkManager on every platform siteforge models, so every platform gets
// them when the machine MTU changes.
type interfaceConfig struct {
	Name string // 01-control-plane-interface, 01-worker-interface, 01-<pool>-interface
	Role string // the MachineConfigPool
	// Interfaces are the uplink interfaces of the pools it covers, sorted:
	// one keyfile each (a keyfile whose interface a node lacks matches
	// nothing).
	Interfaces []string
	// Pools are the site pools whose nodes get it, sorted; Inherited are the
	// custom pools among them that get the worker config through their
	// machineConfigSelector (In [worker, <pool>]).
	Pools, Inherited []string
	MTU              int
}

// interfaceConfigs decides which MachineConfigPools need a NetworkManager MTU
// MachineConfig when the machine MTU becomes machine: a pool needs one when
// one of its site pools has an uplink MTU other than machine.
//
// Custom pools: in siteforge every custom MachineConfigPool inherits worker
// (machineConfigSelector In [worker, <pool>]), so its nodes get
// 01-worker-interface too. Its keyfiles match by interface name, so a custom
// pool whose uplink interface is among the worker pools' interfaces needs
// nothing more; one with another interface name (or whose worker pool needs
// no change) gets its own 01-<pool>-interface, role <pool>.
func interfaceConfigs(s *site.Site, machine int) []interfaceConfig {
	byRole := map[string][]string{} // master / worker -> site pools
	var custom []string
	for _, name := range s.PoolNames() {
		switch r := s.Pools[name].Role; r {
		case site.RoleMaster, site.RoleWorker:
			byRole[r] = append(byRole[r], name)
		default:
			custom = append(custom, name)
		}
	}
	changes := func(pools ...string) bool {
		for _, n := range pools {
			if s.Pools[n].UplinkMTU != machine {
				return true
			}
		}
		return false
	}
	ifaces := func(pools []string) []string {
		seen := map[string]bool{}
		var out []string
		for _, n := range pools {
			if i := s.Pools[n].UplinkInterface; !seen[i] {
				seen[i] = true
				out = append(out, i)
			}
		}
		sort.Strings(out)
		return out
	}

	var out []interfaceConfig
	if pools := byRole[site.RoleMaster]; changes(pools...) {
		out = append(out, interfaceConfig{Name: platform.ControlPlaneInterfaceMCName, Role: platform.MachineConfigRoleMaster,
			Interfaces: ifaces(pools), Pools: pools, MTU: machine})
	}
	var worker *interfaceConfig
	if pools := byRole[site.RoleWorker]; changes(pools...) {
		out = append(out, interfaceConfig{Name: platform.WorkerInterfaceMCName, Role: platform.MachineConfigRoleWorker,
			Interfaces: ifaces(pools), Pools: pools, MTU: machine})
		worker = &out[len(out)-1]
	}
	var own []interfaceConfig
	for _, name := range custom {
		iface := s.Pools[name].UplinkInterface
		if worker != nil {
			// applies to the custom pool's nodes whether it needs it or not
			worker.Pools = append(worker.Pools, name)
			worker.Inherited = append(worker.Inherited, name)
		}
		if !changes(name) || worker != nil && contains(worker.Interfaces, iface) {
			continue
		}
		own = append(own, interfaceConfig{Name: fmt.Sprintf(customPoolInterfaceMCNameFormat, name), Role: name,
			Interfaces: []string{iface}, Pools: []string{name}, MTU: machine})
	}
	if worker != nil {
		sort.Strings(worker.Pools)
	}
	return append(out, own...)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// body is the Butane body: one NetworkManager keyfile per interface.
func (c interfaceConfig) body() butane.Body {
	var b butane.Body
	for _, iface := range c.Interfaces {
		b.Files = append(b.Files, butane.File{
			Path:     platform.NMMTUKeyfilePath(iface),
			Mode:     platform.NMMTUKeyfileMode,
			Contents: platform.NMMTUKeyfile(iface, c.MTU),
		})
	}
	return b
}

// bu and yaml are where the config's files go: Files, not Resources, so that
// nothing applies them before phase 1 (see the runbook).
func (c interfaceConfig) bu() string   { return path.Join(mtuMachineConfigDir, c.Name+".bu") }
func (c interfaceConfig) yaml() string { return path.Join(mtuMachineConfigDir, c.Name+".yaml") }

// interfaceArtifacts translates the configs with Butane and returns the .bu
// and the MachineConfig of each, as Files.
func interfaceArtifacts(ctx *generators.Context, s *site.Site, cfgs []interfaceConfig, origin []diag.Position) ([]generators.Artifact, error) {
	var arts []generators.Artifact
	for _, c := range cfgs {
		res, err := butane.Build(butane.Config{
			Name: c.Name, Role: c.Role, Body: c.body().YAML(),
			Origin: butane.Origin{Pos: s.Positions.Of("mtu.machine"), Path: "mtu.machine"},
		}, s.Cluster.Version)
		if err != nil {
			return nil, err
		}
		for _, w := range res.Warnings {
			ctx.Warn(ruleid.ButaneTranslation, w)
		}
		mc, err := generators.EncodeObject(res.Object, s.SourceName())
		if err != nil {
			return nil, fmt.Errorf("encode %s: %w", c.Name, err)
		}
		note := fmt.Sprintf("# NetworkManager MTU MachineConfig %s (MachineConfigPool %s): pins the machine MTU %d on %v.\n"+
			"# Apply it only between phase 1 and phase 2 of the MTU migration, as %s says.\n", c.Name, c.Role, c.MTU, c.Interfaces, mtuRunbook)
		arts = append(arts,
			generators.Artifact{Path: c.bu(), Role: generators.File, Data: append([]byte(note), res.Butane...), Comment: "#", Origin: origin},
			generators.Artifact{Path: c.yaml(), Role: generators.File, Data: append([]byte(note), mc...), Comment: "#", Origin: origin},
		)
	}
	return arts, nil
}
