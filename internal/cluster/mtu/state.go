package mtu

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/site"
)

// Phases are the two merge patches of Network.operator "cluster" that
// migrate the cluster MTU from p.Current to p.Target with the machine MTU
// p.Machine (docs "Changing the cluster network MTU"; CNO
// isOVNKubernetesChangeSafe): phase 1 sets spec.migration.mtu, and every
// pool rolls; phase 2 removes the migration and sets the new MTU, and every
// pool rolls again. nil when no migration is due or the machine MTU is
// unknown.
func (p Plan) Phases() (phase1, phase2 map[string]any) {
	if !p.MigrationDue() || p.Machine == 0 {
		return nil, nil
	}
	type obj = map[string]any
	phase1 = obj{"spec": obj{"migration": obj{"mtu": obj{
		"network": obj{"from": *p.Current, "to": p.Target},
		"machine": obj{"to": p.Machine},
	}}}}
	return phase1, Phase2Patch(p.NetworkType, p.Target)
}

// Phase2Patch is the merge patch of Network.operator "cluster" of phase 2
// of a migration to the cluster MTU to on networkType: the migration
// removed, the MTU set in the network plugin's configuration (ConfigKey).
func Phase2Patch(networkType string, to int) map[string]any {
	type obj = map[string]any
	return obj{"spec": obj{
		"migration":      nil,
		"defaultNetwork": obj{ConfigKey(networkType): obj{"mtu": to}},
	}}
}

// ConfigKey is the field of Network.operator spec.defaultNetwork (and of
// install-config networking) holding the configuration, MTU included, of
// networkType's plugin: openshiftSDNConfig for OpenShiftSDN,
// ovnKubernetesConfig otherwise (openshift/api operator/v1
// DefaultNetworkDefinition).
func ConfigKey(networkType string) string {
	if networkType == platform.OpenShiftSDN {
		return "openshiftSDNConfig"
	}
	return "ovnKubernetesConfig"
}

// PatchCommand is the oc command applying a merge patch of Network.operator
// "cluster", the patch as JSON on one line.
func PatchCommand(patch map[string]any) string {
	b, err := json.Marshal(patch) // map keys sorted
	if err != nil {
		panic("mtu: encode patch: " + err.Error()) // maps, strings, ints and nils only
	}
	return fmt.Sprintf("oc patch %s %s --type=merge -p '%s'", platform.OperatorNetworkResource, platform.ConfigSingletonName, b)
}

// OfState is the MTU plan of a running cluster, from its state: the site
// model of what runs (OfState's site: a pool per MachineConfigPool of
// nodes, and one per AWS edge zone of the edge nodes, each with the nodes
// it holds; the cluster's platform, region, network type and IPsec), the
// uplinks at the platform's default uplink MTU (platform.DefaultUplinkMTUs;
// elsewhere the applied MTU plus the overlay overhead, the uplink CNO
// derived the cluster MTU from at install), and the applied MTU
// (status.clusterNetworkMTU) as the current one. Positions point at the
// state's objects: the current MTU at the Network config's status, an edge
// pool at its first node's zone label.
func OfState(st *manifests.State) (Plan, *site.Site, error) {
	ups := uplinks(st)
	s, poolMCP := siteOfState(st, ups)
	if s.MTU.Current == nil {
		return Plan{}, s, diag.List{{Pos: s.Positions.Of(""), Message: "the state holds no Network.config status.clusterNetworkMTU: the cluster MTU it applies is unknown",
			Hint: "gather the Network config (oc adm inspect network.config.openshift.io/cluster)"}}
	}
	p, err := Of(s)
	for i, l := range p.Links {
		if !l.IsPath() {
			u := ups[poolMCP[l.Pools[0]]]
			p.Links[i].Origin, p.Links[i].Pos = u.origin, u.pos
		}
	}
	return p, s, err
}

// uplink is the uplink MTU of a MachineConfigPool's nodes, and where it
// comes from.
type uplink struct {
	mtu    int
	origin string
	pos    diag.Position
}

// uplinks are the uplink MTUs of the cluster's MachineConfigPools, by name
// ("" for the default): the smallest NetworkManager MTU keyfile of the
// rendered config a pool's nodes run (status.configuration), else the
// platform's default uplink MTU, else the applied MTU plus the overlay
// overhead (the uplink CNO derived the cluster MTU from at install).
func uplinks(st *manifests.State) map[string]uplink {
	out := map[string]uplink{}
	netType, ipsec := st.NetworkType(), st.IPsecFull()
	switch d, ok := platform.DefaultUplinkMTUs[st.Platform]; {
	case ok:
		out[""] = uplink{mtu: d.MTU, origin: "platform default: " + d.Source}
	case st.AppliedMTU() > 0:
		out[""] = uplink{mtu: st.AppliedMTU() + platform.Overhead(netType, ipsec),
			origin: fmt.Sprintf("status.clusterNetworkMTU %d + %d %s overhead: the uplink CNO derived the cluster MTU from at install",
				st.AppliedMTU(), platform.Overhead(netType, ipsec), overheadName(netType, ipsec))}
	}
	for _, p := range st.Pools {
		mc := st.Rendered[p.MCP.Status.Configuration.Name]
		if mc == nil {
			continue
		}
		for _, k := range manifests.MTUKeyfiles(mc) {
			if k.MTU > 0 && (out[p.Obj.Name].mtu == 0 || k.MTU < out[p.Obj.Name].mtu) {
				out[p.Obj.Name] = uplink{mtu: k.MTU, pos: k.Obj.PosOf(k.Path...),
					origin: fmt.Sprintf("ethernet.mtu of the %s keyfile in %s, the config the pool's nodes run", k.Iface, mc.Obj.Name)}
			}
		}
	}
	for _, p := range st.Pools {
		if _, ok := out[p.Obj.Name]; !ok {
			out[p.Obj.Name] = out[""]
		}
	}
	return out
}

// siteOfState is the site model of a running cluster's state (see
// OfState), its pools' uplinks those of ups (uplinks), with the
// MachineConfigPool of each pool.
func siteOfState(st *manifests.State, ups map[string]uplink) (*site.Site, map[string]string) {
	poolMCP := map[string]string{}
	s := &site.Site{Name: "cluster", Pools: map[string]site.Pool{}, Positions: site.Positions{}}
	if st.Infrastructure != nil {
		s.Positions[""] = st.Infrastructure.Pos()
		if st.InfrastructureName != "" {
			s.Name = st.InfrastructureName
		}
	}
	s.Cluster = site.Cluster{Name: s.Name, Platform: st.Platform, Region: st.Region, Lifecycle: site.LifecycleRunning}
	if st.Release.Minor > 0 {
		s.Cluster.Version = st.Release.Minor.String()
	}
	s.Network = site.Network{Type: st.NetworkType(), IPsec: platform.IPsecModeDisabled}
	if st.IPsecFull() {
		s.Network.IPsec = platform.IPsecModeFull
	}
	for _, cidr := range st.ClusterNetworks() {
		s.Network.ClusterNetwork = append(s.Network.ClusterNetwork, site.ClusterNetwork{CIDR: cidr})
	}
	s.MTU = &site.MTU{}
	if v := st.AppliedMTU(); v > 0 {
		s.MTU.Current = &v
		s.Positions["mtu.current"] = st.Config.PosOf("status", "clusterNetworkMTU")
		if _, ok := s.Positions[""]; !ok {
			s.Positions[""] = st.Config.Pos()
		}
	}
	zones := map[string]bool{}
	for _, n := range st.EdgeNodes() {
		zones[n.Labels[platform.ZoneLabel]] = true
	}
	for _, n := range st.Nodes {
		mcp := st.PoolOf(n)
		if mcp == "" {
			continue // in no pool: MCO does not manage it
		}
		name, p := mcp, site.Pool{Role: poolRole(mcp)}
		if typ, ok := n.AWSEdgeZone(); ok {
			zone := n.Labels[platform.ZoneLabel]
			name = "edge"
			if len(zones) > 1 {
				name = "edge-" + zone
			}
			p.Placement, p.Zone = site.PlacementAWSLocalZone, zone
			if typ == platform.AWSWavelengthZone {
				p.Placement = site.PlacementAWSWavelength
			}
			if _, ok := s.Positions[site.FieldPath("pools", name, "placement")]; !ok {
				s.Positions[site.FieldPath("pools", name, "placement")] = n.Obj.PosOf("metadata", "labels", platform.ZoneLabel)
			}
		}
		if prev, ok := s.Pools[name]; ok {
			p = prev
		}
		p.Name, p.UplinkMTU = name, ups[mcp].mtu
		poolMCP[name] = mcp
		ip := ""
		if len(n.Addresses) > 0 {
			ip = n.Addresses[0]
		}
		p.Nodes = append(p.Nodes, site.Node{Name: n.Name, IP: ip})
		s.Pools[name] = p
		if _, ok := s.Positions[site.FieldPath("pools", name)]; !ok {
			s.Positions[site.FieldPath("pools", name)] = n.Obj.Pos()
		}
	}
	for name, p := range s.Pools {
		sort.Slice(p.Nodes, func(i, j int) bool { return p.Nodes[i].Name < p.Nodes[j].Name })
		s.Pools[name] = p
	}
	return s, poolMCP
}

// poolRole is the site role of a MachineConfigPool.
func poolRole(mcp string) string {
	switch mcp {
	case platform.MachineConfigRoleMaster:
		return site.RoleMaster
	case platform.MachineConfigRoleWorker:
		return site.RoleWorker
	}
	return site.RoleCustom
}
