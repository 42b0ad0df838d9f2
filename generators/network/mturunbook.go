package network

import (
	"fmt"
	"sort"
	"strings"

	"github.com/siteforge/siteforge/internal/cluster/mtu"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/site"
)

// mtuRunbook writes network/mtu-migration-runbook.md: the order, the
// commands, what to wait for, and what each phase costs in reboots.
func (m *mtuMigration) runbook(s *site.Site) []byte {
	p := m.plan
	from, to, machine := *p.Current, p.Target, p.Machine
	r := newRunbook(s, fmt.Sprintf("MTU migration of %s: cluster network MTU %d -> %d", s.Name, from, to))

	why := fmt.Sprintf("computed: the smallest link overlay traffic crosses is %s at %d bytes, minus %d bytes of %s overhead",
		mtu.LinkNames(p.BindingLinks()), p.Smallest, p.Overhead, p.OverheadName)
	if p.TargetFromSite {
		why = fmt.Sprintf("mtu.target (the largest legal value is %d: %s at %d bytes minus %d bytes of %s overhead)",
			p.Largest, mtu.LinkNames(p.BindingLinks()), p.Smallest, p.Overhead, p.OverheadName)
	}
	r.p("The cluster (overlay) MTU of this %s cluster changes from %d to %d in two phases, with the documented procedure "+
		"(OpenShift docs \"Changing the cluster network MTU\"). Every phase reboots every node once. Plan a maintenance window.",
		p.NetworkType, from, to)
	r.table([]string{"value", "", "where it comes from"}, [][]string{
		{"`network.from`", fmt.Sprint(from), "`mtu.current`: must equal `Network.config status.clusterNetworkMTU`"},
		{"`network.to`", fmt.Sprint(to), why},
		{"`machine.to`", fmt.Sprint(machine), machineWhy(s)},
	})

	r.h2("Reboots")
	r.p("Each phase makes every MachineConfigPool roll: its nodes are drained and rebooted one at a time " +
		"(`maxUnavailable` 1 by default); the pools roll in parallel.")
	withNM := map[string]bool{}
	for _, c := range m.interfaces {
		for _, pool := range c.Pools {
			withNM[pool] = true
		}
	}
	var rows [][]string
	total, known := 0, true
	for _, name := range s.PoolNames() {
		pool := s.Pools[name]
		n := pool.Size()
		per := 2
		nm := "-"
		if withNM[name] {
			per, nm = 3, "1"
		}
		count := fmt.Sprint(n)
		cost := fmt.Sprintf("%d per node", per)
		if n < 0 {
			known, count = false, "unknown"
		} else {
			total += n * per
			cost = fmt.Sprintf("%d (%d per node)", n*per, per)
		}
		rows = append(rows, []string{name, pool.MachineConfigPool(), count, "1", nm, "1", cost})
	}
	r.table([]string{"pool", "MachineConfigPool", "nodes", "phase 1", "NetworkManager MachineConfig", "phase 2", "reboots"}, rows)
	if known {
		r.p("In all: %d node reboots.", total)
	} else {
		r.p("Some pools list neither `nodes` nor `count`: count their nodes with `oc get nodes -l node-role.kubernetes.io/<role>`.")
	}
	if phase := s.MTUPhase(); phase == site.MTUPhase1 || phase == site.MTUPhase2 {
		m.gitSteps(s, r, phase)
		return r.Bytes()
	}

	r.h2("0. Before you start")
	r.p("Check that the cluster applies the MTU this migration starts from (else CNO refuses phase 1 with " +
		"\"invalid Migration.MTU.Network.From(...) not equal to the currently applied MTU(...)\"), that no migration is in progress, " +
		"and that every pool is up to date and not paused:")
	r.sh(m.beforeChecks(s)...)

	r.h2("1. Phase 1: start the migration")
	r.sh(fmt.Sprintf("oc patch %s %s --type=merge --patch-file %s", platform.OperatorNetworkResource, platform.ConfigSingletonName, mtuPhase1PatchYAML))
	r.p("(the same patch as JSON: `%s`; on one line: `%s`)", mtuPhase1PatchJSON, mtu.PatchCommand(m.phase1))
	r.p("CNO renders `%s` into every pool's configuration and MCO rolls every pool. During the migration the uplinks "+
		"are set to machine.to %d on every boot, and CNO reports network.to as the applied MTU. Wait for the rollout to start, "+
		"then to end (a pool without nodes may never show Updating: then run the second command directly):", platform.MTUMigrationRenderedScript, machine)
	r.sh(
		waitRolloutStarted,
		waitPools(s),
	)
	r.p("Check that every node runs the migration configuration:")
	r.sh(m.phase1Checks()...)

	r.h2("2. Make the machine MTU permanent")
	if len(m.interfaces) == 0 {
		r.p("Nothing to do: every uplink already has the machine MTU %d, which phase 1 only keeps (machine.to). "+
			"No NetworkManager MachineConfig is needed.", machine)
	} else {
		r.p("machine.to is transient: `%s` sets it on each boot and is removed by phase 2. These MachineConfigs write a "+
			"NetworkManager keyfile per uplink interface (`%s`, mode %04o) that keeps %d after the migration. "+
			"Applying them is a second rolling reboot of the pools they belong to.",
			platform.MTUMigrationRenderedScript, platform.NMMTUKeyfilePath("<iface>"), platform.NMMTUKeyfileMode, machine)
		var rows [][]string
		var cmds []string
		for _, c := range m.interfaces {
			pools := strings.Join(c.Pools, ", ")
			if len(c.Inherited) > 0 {
				pools += fmt.Sprintf(" (%s through worker)", strings.Join(c.Inherited, ", "))
			}
			rows = append(rows, []string{"`" + c.yaml() + "`", c.Role, "`" + strings.Join(c.Interfaces, "`, `") + "`", pools})
			cmds = append(cmds, "oc apply -f "+c.yaml())
		}
		r.table([]string{"MachineConfig", "MachineConfigPool", "interfaces", "site pools"}, rows)
		r.p("Custom pools inherit worker in siteforge (machineConfigSelector `In [worker, <pool>]`), so they get " +
			"`" + platform.WorkerInterfaceMCName + "` too; a keyfile matches its interface by name, so a custom pool needs its own " +
			"MachineConfig only when its uplink interface is not one of the worker pools' (or the worker pools need no change).")
		r.p("They are Files, not resources of this site's kustomization, on purpose: applied before phase 1 (as a GitOps "+
			"sync of the kustomization would do) they would change the uplink MTU while the cluster still runs at %d, "+
			"outside CNO's migration. Apply them now, between phase 1 and phase 2; after phase 2 they can join the "+
			"repository's managed MachineConfigs.", from)
		mcps := rollingPools(m.interfaces)
		cmds = append(cmds,
			fmt.Sprintf("oc wait %s --for=condition=Updating=True --timeout=15m", mcps),
			fmt.Sprintf("oc wait %s --for=condition=Updated=True --timeout=%s", mcps, waitTimeout(s, 1)))
		r.sh(cmds...)
	}

	r.h2("3. Phase 2: finish the migration")
	r.sh(fmt.Sprintf("oc patch %s %s --type=merge --patch-file %s", platform.OperatorNetworkResource, platform.ConfigSingletonName, mtuPhase2PatchYAML))
	r.p("(JSON: `%s`; on one line: `%s`)", mtuPhase2PatchJSON, mtu.PatchCommand(m.phase2))
	r.p("It removes spec.migration and sets the MTU to network.to. CNO accepts only an MTU equal to network.to here " +
		"(any other value: \"cannot change ... MTU without migration\"); do not remove spec.migration alone. MCO rolls every pool again:")
	r.sh(append([]string{waitRolloutStarted, waitPools(s)}, m.phase2Checks(s)...)...)

	r.h2("4. Afterwards")
	r.p("Set `mtu.current: %d` in the site and render again: the migration files disappear.", to)

	r.h2("Kustomize form")
	r.p("`%s` and `%s` carry the same two patches for a kustomization that manages the cluster's "+
		"`operator.openshift.io/v1` `Network` named `cluster` (cluster-scoped) itself. They target only that object "+
		"(`%s`) and are not listed in this site's kustomization.yaml. Use them in the same order, with the same waits, "+
		"one sync per phase.", mtuPhase1Kustomize, mtuPhase2Kustomize, platform.OperatorNetworkPatchTarget)
	return r.Bytes()
}

// beforeChecks are the commands that check the cluster is ready for phase 1.
func (m *mtuMigration) beforeChecks(s *site.Site) []string {
	return []string{
		"oc get network.config cluster -o jsonpath='{.status.clusterNetworkMTU}{\"\\n\"}'   # " + fmt.Sprint(*m.plan.Current),
		"oc get network.operator cluster -o jsonpath='{.spec.migration}{\"\\n\"}'          # empty",
		"oc get mcp",
		waitPools(s),
	}
}

// phase1Checks check that every node runs the phase 1 configuration.
func (m *mtuMigration) phase1Checks() []string {
	return []string{
		"oc describe node | egrep \"hostname|machineconfig\"   # state Done, currentConfig == desiredConfig",
		"oc get machineconfig $(oc get mcp worker -o jsonpath='{.spec.configuration.name}') -o yaml | grep ExecStart   # /usr/local/bin/" + platform.MTUMigrationRenderedScript,
		"oc get network.config cluster -o jsonpath='{.status.clusterNetworkMTU}{\"\\n\"}'   # " + fmt.Sprint(m.plan.Target),
	}
}

// phase2Checks check the result of phase 2.
func (m *mtuMigration) phase2Checks(s *site.Site) []string {
	return []string{
		"oc get network.config cluster -o jsonpath='{.status.clusterNetworkMTU}{\"\\n\"}'   # " + fmt.Sprint(m.plan.Target),
		fmt.Sprintf("oc debug node/<node> -- chroot /host ip -o link show %s   # mtu %d", firstInterface(s), m.plan.Machine),
	}
}

func machineWhy(s *site.Site) string {
	if s.MTU != nil && s.MTU.Machine != nil {
		return "`mtu.machine`"
	}
	return "the uplink MTU every pool has (`pools.*.uplinkMTU`)"
}

func firstInterface(s *site.Site) string {
	for _, name := range s.PoolNames() {
		return s.Pools[name].UplinkInterface
	}
	return "<iface>"
}

// rollingPools names the MachineConfigPools the NetworkManager MachineConfigs
// roll ("mcp/master mcp/worker"): their roles and the custom pools that
// inherit the worker one.
func rollingPools(cfgs []interfaceConfig) string {
	seen := map[string]bool{}
	var out []string
	add := func(pool string) {
		if !seen[pool] {
			seen[pool] = true
			out = append(out, "mcp/"+pool)
		}
	}
	for _, c := range cfgs {
		add(c.Role)
		for _, p := range c.Inherited {
			add(p)
		}
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}
