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
	cfgKey := "ovnKubernetesConfig"
	if p.NetworkType == platform.OpenShiftSDN {
		cfgKey = "openshiftSDNConfig"
	}
	type obj = map[string]any
	phase1 = obj{"spec": obj{"migration": obj{"mtu": obj{
		"network": obj{"from": *p.Current, "to": p.Target},
		"machine": obj{"to": p.Machine},
	}}}}
	phase2 = obj{"spec": obj{
		"migration":      nil,
		"defaultNetwork": obj{cfgKey: obj{"mtu": p.Target}},
	}}
	return phase1, phase2
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
	s := SiteOfState(st)
	if s.MTU.Current == nil {
		return Plan{}, s, diag.List{{Pos: s.Positions.Of(""), Message: "the state holds no Network.config status.clusterNetworkMTU: the cluster MTU it applies is unknown",
			Hint: "gather the Network config (oc adm inspect network.config.openshift.io/cluster)"}}
	}
	p, err := Of(s)
	for i, l := range p.Links {
		if !l.IsPath() {
			p.Links[i].Origin, p.Links[i].Pos = uplinkOrigin(st, s), diag.Position{} // no object says it
		}
	}
	return p, s, err
}

func uplinkOrigin(st *manifests.State, s *site.Site) string {
	if d, ok := platform.DefaultUplinkMTUs[st.Platform]; ok {
		return "platform default: " + d.Source
	}
	return fmt.Sprintf("status.clusterNetworkMTU %d + %d %s overhead: the uplink CNO derived the cluster MTU from at install", *s.MTU.Current,
		platform.Overhead(s.Network.Type, st.IPsecFull()), overheadName(s.Network.Type, st.IPsecFull()))
}

// SiteOfState is the site model of a running cluster's state (see OfState).
func SiteOfState(st *manifests.State) *site.Site {
	s := &site.Site{Name: "cluster", Pools: map[string]site.Pool{}, Positions: site.Positions{}}
	if st.Infrastructure != nil {
		s.Positions[""] = st.Infrastructure.Pos()
		var infra struct {
			Status struct {
				InfrastructureName string `json:"infrastructureName"`
			} `json:"status"`
		}
		if st.Infrastructure.DecodeLoose(&infra) == nil && infra.Status.InfrastructureName != "" {
			s.Name = infra.Status.InfrastructureName
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
	uplink := 0
	if d, ok := platform.DefaultUplinkMTUs[st.Platform]; ok {
		uplink = d.MTU
	} else if s.MTU.Current != nil {
		uplink = *s.MTU.Current + platform.Overhead(s.Network.Type, st.IPsecFull())
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
		p.Name, p.UplinkMTU = name, uplink
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
	return s
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
