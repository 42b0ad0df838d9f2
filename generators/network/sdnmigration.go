package network

import (
	"fmt"
	"net/netip"
	"path"

	operatorv1 "github.com/openshift/api/operator/v1"

	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/internal/cluster/mtu"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/ruleid"
	"github.com/siteforge/siteforge/internal/site"
)

// sdnMigration is the move of a running cluster from OpenShift SDN to
// OVN-Kubernetes (docs "Migrating from the OpenShift SDN network plugin"; CNO), offline or live.
type sdnMigration struct {
	mode  string
	minor platform.OCPMinor
	// ovn is the plan of the cluster MTU after the migration.
	ovn mtu.Plan
	// ovnMTU is the cluster MTU after the migration: offline, the largest
	// that fits the links (set explicitly: it must be <= smallest node MTU -
	// 100, an SDN cluster sits at node MTU - 50); live, what CNO leaves, the
	// current MTU minus the difference of the overheads (0 when unknown).
	ovnMTU  int
	current *int
	steps   []sdnStep
	origin  []diag.Position
}

// sdnStep is one patch of the procedure.
type sdnStep struct {
	file     string // without extension, under network/sdn-migration/
	resource string // what `oc patch` patches
	patch    obj
	what     string
}

func (st sdnStep) yamlPath() string { return path.Join(sdnMigrationDir, st.file+".patch.yaml") }
func (st sdnStep) jsonPath() string { return path.Join(sdnMigrationDir, st.file+".json") }
func (st sdnStep) command() string {
	return fmt.Sprintf("oc patch %s %s --type=merge --patch-file %s", st.resource, platform.ConfigSingletonName, st.yamlPath())
}

// liveMTUDrop is how much the live migration lowers the cluster MTU: it keeps
// the overlay MTU both plugins share while they run side by side
// (CNO live migration, routable MTU), the difference of their overheads.
const liveMTUDrop = platform.GeneveOverhead - platform.VXLANOverhead

func planSDNMigration(ctx *generators.Context, s *site.Site) (*sdnMigration, diag.List) {
	nm := s.NetworkMigration
	if s.Network.Type != platform.OpenShiftSDN || nm.To != platform.OVNKubernetes {
		return nil, diag.List{s.At("networkMigration", fmt.Sprintf("only a migration from %s to %s is supported (network.type is %q)", platform.OpenShiftSDN, platform.OVNKubernetes, s.Network.Type),
			`set network.type: "OpenShiftSDN", the type the cluster runs now`)}
	}
	minor := ctx.Minor
	m := &sdnMigration{mode: nm.Mode, minor: minor}
	if s.MTU != nil {
		m.current = s.MTU.Current
	}

	var dl diag.List
	switch {
	case minor >= platform.SDNRemovedSince:
		d := s.At("cluster.version",
			fmt.Sprintf("OpenShift SDN was removed in %s (CNO rejects the network type), so a %s cluster cannot be running it: migrate on %s or earlier",
				platform.SDNRemovedSince, s.Cluster.Version, platform.SDNRemovedSince-1),
			"cluster.version is the version the cluster runs now")
		d.Rule = ruleid.SDNUnsupportedVersion
		dl = append(dl, d)
	case nm.Mode == site.MigrationLive && minor < platform.SDNLiveMigrationCodeSince:
		d := s.At("networkMigration.mode",
			fmt.Sprintf("the live migration needs OpenShift %s or later (documented from %s); cluster.version is %s", platform.SDNLiveMigrationCodeSince, platform.SDNLiveMigrationDocumentedSince, s.Cluster.Version),
			fmt.Sprintf(`use mode: "offline" (supported since %s), or upgrade first`, platform.SDNOfflineMigrationSince))
		d.Rule = ruleid.LiveMigrationBlocked
		dl = append(dl, d)
	case nm.Mode == site.MigrationLive && minor < platform.SDNLiveMigrationDocumentedSince:
		ctx.Warn(ruleid.SDNLiveMigrationUndocumented, s.At("networkMigration.mode",
			fmt.Sprintf("the live migration is in CNO from %s but documented only from %s; cluster.version is %s", platform.SDNLiveMigrationCodeSince, platform.SDNLiveMigrationDocumentedSince, s.Cluster.Version),
			fmt.Sprintf("upgrade to %s first, or use the offline migration", platform.SDNLiveMigrationDocumentedSince)))
	case nm.Mode != site.MigrationLive && minor < platform.SDNOfflineMigrationSince:
		dl = append(dl, s.At("networkMigration.mode",
			fmt.Sprintf("the offline migration needs OpenShift %s or later; cluster.version is %s", platform.SDNOfflineMigrationSince, s.Cluster.Version), "upgrade first"))
	}
	dl = append(dl, ovnSubnetOverlaps(s, nm.Mode)...)

	ovn, err := mtu.For(s, platform.OVNKubernetes, false)
	if err != nil {
		for _, d := range err.(diag.List) {
			d.Message = "after the migration to OVN-Kubernetes: " + d.Message
			dl = append(dl, d)
		}
		return nil, dl
	}
	m.ovn = ovn
	switch {
	case nm.Mode != site.MigrationLive:
		m.ovnMTU = ovn.Largest
		// The OVN MTU must be <= smallest node MTU - 100 (docs "Migrating from the OpenShift SDN network plugin").
		if m.ovnMTU+platform.Overhead(platform.OVNKubernetes, false) > ovn.Smallest {
			dl = append(dl, s.At("networkMigration", fmt.Sprintf("internal error: OVN-Kubernetes MTU %d does not fit the smallest link %d", m.ovnMTU, ovn.Smallest), ""))
		}
	case m.current != nil:
		m.ovnMTU = *m.current - liveMTUDrop
		if m.ovnMTU < ovn.Floor {
			dl = append(dl, s.At("mtu.current",
				fmt.Sprintf("the live migration lowers the cluster MTU by %d, from %d to %d, below the minimum %d", liveMTUDrop, *m.current, m.ovnMTU, ovn.Floor),
				"use the offline migration, which sets the OVN-Kubernetes MTU from the links"))
		}
	}
	if len(dl) > 0 {
		return nil, dl
	}

	m.origin = diag.Unique(s.Positions.Of("networkMigration"), s.Positions.Of("network.type"), s.Positions.Of("mtu.current"))
	for _, l := range ovn.BindingLinks() {
		m.origin = append(m.origin, mtu.LinkPos(s, l.Link))
	}
	m.origin = diag.Unique(m.origin...)
	m.steps = m.patches(s)
	return m, nil
}

// patches is the documented patch sequence of the mode
// (docs "Migrating from the OpenShift SDN network plugin").
func (m *sdnMigration) patches(s *site.Site) []sdnStep {
	if m.mode == site.MigrationLive {
		return []sdnStep{{
			file:     "live-1-start",
			resource: platform.ConfigNetworkResource,
			patch: obj{
				"metadata": obj{"annotations": obj{platform.NetworkTypeMigrationAnnotation: ""}},
				"spec":     obj{"networkType": string(operatorv1.NetworkTypeOVNKubernetes)},
			},
			what: "starts the live migration: CNO drives everything else",
		}}
	}
	migration := obj{"networkType": string(operatorv1.NetworkTypeOVNKubernetes)}
	if f := s.NetworkMigration.Features; f != nil {
		features := obj{}
		for key, v := range map[string]*bool{"egressIP": f.EgressIP, "egressFirewall": f.EgressFirewall, "multicast": f.Multicast} {
			if v != nil {
				features[key] = *v
			}
		}
		if len(features) > 0 {
			migration["features"] = features
		}
	}
	return []sdnStep{
		{file: "offline-1-start", resource: platform.OperatorNetworkResource,
			patch: obj{"spec": obj{"migration": migration}},
			what:  "prepares the migration: MCO rolls every pool"},
		{file: "offline-2-ovn-mtu", resource: platform.OperatorNetworkResource,
			patch: obj{"spec": obj{"defaultNetwork": obj{"ovnKubernetesConfig": obj{"mtu": m.ovnMTU}}}},
			what:  fmt.Sprintf("sets the OVN-Kubernetes MTU explicitly: %d = smallest link %d - %d", m.ovnMTU, m.ovn.Smallest, m.ovn.Overhead)},
		{file: "offline-3-network-type", resource: platform.ConfigNetworkResource,
			patch: obj{"spec": obj{"networkType": string(operatorv1.NetworkTypeOVNKubernetes)}},
			what:  "switches the network type; then every node is rebooted by hand"},
		{file: "offline-4-cleanup", resource: platform.OperatorNetworkResource,
			patch: obj{"spec": obj{"migration": nil, "defaultNetwork": obj{"openshiftSDNConfig": nil}}},
			what:  "removes the migration and the OpenShift SDN configuration"},
	}
}

func (m *sdnMigration) artifacts(s *site.Site) []generators.Artifact {
	var arts []generators.Artifact
	for i, st := range m.steps {
		note := fmt.Sprintf("# Step %d of the %s migration from OpenShift SDN to OVN-Kubernetes: %s.\n# Apply it when %s says so:\n#   %s\n",
			i+1, m.mode, st.what, sdnMigrationRunbook, st.command())
		arts = append(arts,
			generators.Artifact{Path: st.yamlPath(), Role: generators.File, Data: append([]byte(note), patchYAML(st.patch)...), Comment: "#", Origin: m.origin},
			generators.Artifact{Path: st.jsonPath(), Role: generators.File, Data: patchJSON(st.patch), Origin: m.origin},
		)
	}
	return append(arts, generators.Artifact{Path: sdnMigrationRunbook, Role: generators.File, Data: m.runbook(s), Origin: m.origin})
}

// migrationMinor is the release the migration runs on: the site's, or
// the last that runs OpenShift SDN when unknown (as CNO's live-migration
// checks do).
func migrationMinor(s *site.Site) platform.OCPMinor {
	if m, err := s.Minor(); err == nil {
		return m
	}
	return platform.SDNLastMinor
}

// ovnInternalSubnets are the subnets OVN-Kubernetes reserves by default on
// release minor, IPv4 first.
func ovnInternalSubnets(minor platform.OCPMinor) []struct{ name, cidr string } {
	var out []struct{ name, cidr string }
	for _, v6 := range []bool{false, true} {
		for _, sn := range platform.OVNInternalSubnetsAt(minor) {
			cidr := sn.V4
			if v6 {
				cidr = sn.V6
			}
			out = append(out, struct{ name, cidr string }{sn.Name, cidr})
		}
	}
	return out
}

// ovnSubnetOverlaps reports the site's networks that overlap OVN-Kubernetes'
// internal subnets. The live migration refuses to start on them (cluster and
// service networks); after an offline migration the overlapping traffic is
// misrouted. The site cannot choose other internal subnets, so both modes
// refuse.
func ovnSubnetOverlaps(s *site.Site, mode string) diag.List {
	// rule: the overlaps CNO validates before a live migration (cluster and
	// service networks) are lint's NET003 (live-migration-blocked), as lint
	// reports them on the rendered Network.config; the others are NET001
	// (network-cidr-overlap): the traffic is misrouted.
	type network struct{ path, cidr, rule string }
	validated := ruleid.NetworkCIDROverlap
	if mode == site.MigrationLive {
		validated = ruleid.LiveMigrationBlocked
	}
	var nets []network
	for i, cn := range s.Network.ClusterNetwork {
		nets = append(nets, network{site.FieldPath("network", "clusterNetwork", i, "cidr"), cn.CIDR, validated})
	}
	for i, c := range s.Network.ServiceNetwork {
		nets = append(nets, network{site.FieldPath("network", "serviceNetwork", i), c, validated})
	}
	for i, c := range s.Network.MachineNetwork {
		nets = append(nets, network{site.FieldPath("network", "machineNetwork", i), c, ruleid.NetworkCIDROverlap})
	}
	for _, name := range s.PoolNames() {
		for i, c := range s.Pools[name].Subnets {
			nets = append(nets, network{site.FieldPath("pools", name, "subnets", i), c, ruleid.NetworkCIDROverlap})
		}
	}
	var dl diag.List
	for _, n := range nets {
		p, err := netip.ParsePrefix(n.cidr)
		if err != nil {
			continue // the schema checks CIDRs
		}
		for _, o := range ovnInternalSubnets(migrationMinor(s)) {
			if q := netip.MustParsePrefix(o.cidr); p.Overlaps(q) {
				d := s.At(n.path,
					fmt.Sprintf("%s overlaps OVN-Kubernetes' internal %s %s: the %s migration to OVN-Kubernetes cannot run on it", n.cidr, o.name, o.cidr, mode),
					"renumber this network, or migrate by hand and move OVN-Kubernetes' internal subnets first (ovnKubernetesConfig.ipv4/ipv6, gatewayConfig)")
				d.Rule = n.rule
				dl = append(dl, d)
			}
		}
	}
	return dl
}
