package load

import (
	"fmt"
	"maps"
	"math/big"
	"slices"

	"cuelang.org/go/cue"

	"github.com/siteforge/siteforge/internal/credential"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/ruleid"
	"github.com/siteforge/siteforge/internal/site"
	"github.com/siteforge/siteforge/internal/suggest"
)

// checkSemantics checks what the schema cannot say field by field: references
// between parts of the site and fields that only make sense together.
func checkSemantics(s *site.Site) diag.List {
	var out diag.List
	at := func(path string, msg, hint string) {
		out = append(out, diag.Diagnostic{Pos: s.Positions.Of(path), Path: path, Message: msg, Hint: hint})
	}
	p := func(sels ...cue.Selector) string { return cue.MakePath(sels...).String() }

	masters := 0
	mcps := map[string]bool{site.RoleMaster: true, site.RoleWorker: true}
	mcpNames := []string{site.RoleMaster, site.RoleWorker}
	for _, name := range s.PoolNames() {
		pool := s.Pools[name]
		if pool.Role == site.RoleMaster {
			masters++
		}
		if pool.Role == site.RoleCustom {
			mcps[name] = true
			mcpNames = append(mcpNames, name)
		}
	}
	if masters == 0 {
		at("pools", "no pool has role master", `add the control plane: pools: master: {uplinkInterface: ..., uplinkMTU: ...}`)
	}
	for _, name := range s.PoolNames() {
		pool := s.Pools[name]
		if (pool.Placement == site.PlacementAWSLocalZone || pool.Placement == site.PlacementAWSWavelength) && s.Cluster.Platform != "aws" {
			at(p(cue.Str("pools"), cue.Str(name), cue.Str("placement")),
				fmt.Sprintf("placement %q needs cluster.platform \"aws\", not %q", pool.Placement, s.Cluster.Platform),
				`use placement "region", "remote" or "plain"`)
		}
	}
	// A node's ip may be left out only where nothing needs it: a hub or
	// agent install, whose ClusterInstance or agent-config names no node
	// address (the node takes it by DHCP or from its networkConfig; the
	// agent installer's rendezvous IP is then install.rendezvousIP).
	if !s.HubInstalled() && s.Cluster.InstallMethod != site.InstallAgent {
		for _, name := range s.PoolNames() {
			for i, n := range s.Pools[name].Nodes {
				if n.IP == "" {
					at(p(cue.Str("pools"), cue.Str(name), cue.Str("nodes"), cue.Index(i)),
						fmt.Sprintf("node %s has no ip: only the nodes of a hub or agent install (installMethod \"assisted\", \"image-based\" or \"agent\") may leave it out", n.Name),
						"add ip: <the node's address>")
				}
			}
		}
	}
	poolRef := func(path, name string) {
		if _, ok := s.Pools[name]; !ok {
			at(path, fmt.Sprintf("pool %q does not exist", name), suggest.Hint(name, s.PoolNames(), "pools"))
		}
	}

	for i, path := range s.Paths {
		for j, name := range path.Between {
			poolRef(p(cue.Str("paths"), cue.Index(i), cue.Str("between"), cue.Index(j)), name)
		}
		if path.Between[0] == path.Between[1] {
			at(p(cue.Str("paths"), cue.Index(i), cue.Str("between")), "a path joins two different pools",
				"the MTU inside one pool is its uplinkMTU")
		}
	}

	running := s.Cluster.Lifecycle == "running"
	if s.MTU != nil && s.MTU.Current != nil && !running {
		at("mtu.current", "mtu.current is the MTU of a running cluster, but cluster.lifecycle is \"install\"",
			"remove mtu.current, or set cluster.lifecycle: \"running\"")
	}
	if running && s.MTU != nil && s.MTU.Target != nil && s.MTU.Current == nil {
		at("mtu.target", "an MTU target for a running cluster needs mtu.current, the MTU applied now",
			"read it with: oc get network.config cluster -o jsonpath='{.status.clusterNetworkMTU}'")
	}
	// The MTU migration from git (#MTUMigration): what a phase needs that the
	// site states itself. The network generator judges the rest against the
	// MTU plan and CNO's verdicts.
	switch phase := s.MTUPhase(); {
	case phase == site.MTUPhaseNone:
	case !running:
		at("mtu.migration.phase", fmt.Sprintf("mtu.migration.phase %q on a cluster to install: an MTU migration changes a running cluster, and a cluster to install gets its MTU from the day-0 network manifest", phase),
			"remove mtu.migration, or set cluster.lifecycle: running once the cluster runs")
	case phase == site.MTUPhaseDone:
	case s.MTU.Current == nil:
		at("mtu.migration.phase", fmt.Sprintf("mtu.migration.phase %q needs mtu.current: phase 1's network.from is the MTU the cluster applies now", phase),
			"set mtu.current to: oc get network.config cluster -o jsonpath='{.status.clusterNetworkMTU}'")
	case s.MTU.Target == nil:
		at("mtu.migration.phase", fmt.Sprintf("mtu.migration.phase %q needs mtu.target written out: CNO accepts phase 2 only with the mtu phase 1 migrated to (network.to), and a computed target moves with any pool or path edit between the two commits", phase),
			"set mtu.target to the target `siteforge mtu` computes, in the commit of phase 1, and keep it until \"done\"")
	}
	if m := s.NetworkMigration; m != nil {
		if s.Network.Type != "OpenShiftSDN" {
			at("networkMigration", "a network type migration needs network.type \"OpenShiftSDN\" (the type it migrates from)",
				"remove networkMigration, or set network.type to the type the cluster runs now")
		}
		if !running {
			at("networkMigration", "a network type migration needs a running cluster, but cluster.lifecycle is \"install\"",
				"install with network.type: \"OVNKubernetes\" instead")
		}
	}
	if s.Network.Type == "OpenShiftSDN" && s.Network.IPsec != "Disabled" {
		at("network.ipsec", "IPsec is an OVN-Kubernetes feature", `set network.ipsec: "Disabled" for OpenShift SDN`)
	}

	if m := s.Mirroring; m != nil && len(m.AllowedRegistries) > 0 && len(m.BlockedRegistries) > 0 {
		// image.config.openshift.io: "Only one of BlockedRegistries or
		// AllowedRegistries may be set" (openshift/api config/v1 types_image.go)
		at("mirroring.allowedRegistries", "allowedRegistries and blockedRegistries cannot both be set (image.config.openshift.io allows one of them)",
			"keep allowedRegistries (everything else is blocked) or blockedRegistries (everything else is allowed)")
		out[len(out)-1].Rule = ruleid.RegistrySourcesRefused // lint's MIR010 on image.config
	}
	if in := s.Ingress; in != nil {
		if in.Default != nil {
			for i, name := range in.Default.Pools {
				poolRef(p(cue.Str("ingress"), cue.Str("default"), cue.Str("pools"), cue.Index(i)), name)
			}
		}
		for _, shard := range slices.Sorted(maps.Keys(in.Shards)) {
			sh := in.Shards[shard]
			for i, name := range sh.Pools {
				poolRef(p(cue.Str("ingress"), cue.Str("shards"), cue.Str(shard), cue.Str("pools"), cue.Index(i)), name)
			}
			if len(sh.Pools) > 0 && sh.NodeSelector != nil {
				at(p(cue.Str("ingress"), cue.Str("shards"), cue.Str(shard), cue.Str("nodeSelector")),
					"a shard is placed either by pools or by nodeSelector, not both", "keep one of them")
			}
			if sh.RouteSelector == nil && sh.NamespaceSelector == nil {
				at(p(cue.Str("ingress"), cue.Str("shards"), cue.Str(shard)),
					"a shard needs a routeSelector or a namespaceSelector (else it competes with the default router for every route)",
					"add routeSelector: matchLabels: {type: "+shard+"}")
			}
		}
	}
	if eg := s.Egress; eg != nil {
		for i, name := range eg.AssignablePools {
			poolRef(p(cue.Str("egress"), cue.Str("assignablePools"), cue.Index(i)), name)
		}
		if len(eg.EgressIPs) > 0 && len(eg.AssignablePools) == 0 {
			at("egress.egressIPs", "EgressIPs need egress-assignable nodes, but egress.assignablePools is empty",
				"list the pools whose nodes may host egress IPs in egress.assignablePools")
		}
	}
	// A BMC address with user-info (redfish://user:password@host) would put
	// the BMC password into the rendered ClusterInstance: the credentials
	// belong in the Secret bmc.credentialsSecret names.
	for _, pname := range s.PoolNames() {
		for i, n := range s.Pools[pname].Nodes {
			if n.BMC == nil {
				continue
			}
			if credential.URLUserInfo(n.BMC.Address) {
				at(site.FieldPath("pools", pname, "nodes", i, "bmc", "address"),
					"the BMC address carries credentials (user-info before '@'): siteforge would write them into the rendered output, and it never writes a BMC password",
					"remove the user-info from the address and put username and password into the Secret named by bmc.credentialsSecret, created out of band")
			}
		}
	}
	for _, pname := range s.PoolNames() {
		for i, n := range s.Pools[pname].Nodes {
			inexactNumbers(n.NetworkConfig, []any{"pools", pname, "nodes", i, "networkConfig"}, func(path []any, num string) {
				at(site.FieldPath(path...),
					fmt.Sprintf("%s does not fit in 64 bits: the rendered YAML (the Kubernetes JSON to YAML conversion, sigs.k8s.io/yaml) would hold a different number", diag.Clean(num)),
					"NMState's numbers (an mtu, a VLAN id, a route metric) all fit in 64 bits: write the value you mean")
			})
		}
	}
	for _, name := range slices.Sorted(maps.Keys(s.MachineConfigs)) {
		mc := s.MachineConfigs[name]
		if !mcps[mc.Pool] {
			at(p(cue.Str("machineConfigs"), cue.Str(name), cue.Str("pool")),
				fmt.Sprintf("%q is not a MachineConfigPool of this site", mc.Pool),
				suggest.Hint(mc.Pool, mcpNames, "MachineConfigPools (master, worker and each pool with role custom)"))
		}
	}
	out = append(out, checkPlacement(s)...)
	out = append(out, checkInstallFields(s)...)
	return append(out, checkInstall(s)...)
}

// inexactNumbers calls f, in order, for each number of a free-form value
// (a decoded NMState document: maps, lists and what cue.Value.Decode gives
// a number, int64, float64, *big.Int or *big.Float) that the rendered
// output could not carry exactly: an integer outside int64 and uint64 (the
// JSON to YAML conversion reads it as a float64), or a float outside
// float64 (encoded as a string).
func inexactNumbers(v any, path []any, f func(path []any, num string)) {
	switch x := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			inexactNumbers(x[k], append(path[:len(path):len(path)], k), f)
		}
	case []any:
		for i, e := range x {
			inexactNumbers(e, append(path[:len(path):len(path)], i), f)
		}
	case *big.Int:
		if !x.IsInt64() && !x.IsUint64() {
			f(path, x.String())
		}
	case *big.Float:
		f(path, x.Text('g', 20))
	}
}
