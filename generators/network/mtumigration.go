package network

import (
	"fmt"
	"strings"

	operatorv1 "github.com/openshift/api/operator/v1"

	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/internal/cluster/mtu"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/ruleid"
	"github.com/siteforge/siteforge/internal/site"
)

// mtuMigration is the two-phase MTU migration of a running cluster
// (docs "Changing the cluster network MTU").
type mtuMigration struct {
	plan           mtu.Plan
	phase1, phase2 obj    // merge patches of Network.operator.openshift.io "cluster"
	cfgKey         string // ovnKubernetesConfig | openshiftSDNConfig
	interfaces     []interfaceConfig
	origin         []diag.Position
}

// planMTUMigration builds the migration from the plan and refuses it, with
// CNO's own words, when the cluster would reject either phase.
func planMTUMigration(s *site.Site, minor platform.OCPMinor, p mtu.Plan) (*mtuMigration, diag.List) {
	if minor < platform.MTUMigrationSince {
		return nil, diag.List{s.At("cluster.version",
			fmt.Sprintf("the cluster MTU of a running cluster can only be changed from OpenShift %s (spec.migration.mtu); cluster.version is %s", platform.MTUMigrationSince, s.Cluster.Version),
			"upgrade the cluster first")}
	}
	if p.Machine == 0 {
		return nil, diag.List{s.At("mtu",
			"the pools' uplinks have different MTUs, and an MTU migration sets one machine MTU (machine.to) on every node's uplink",
			"set mtu.machine to the uplink MTU every node should have")}
	}
	if s.NetworkMigration != nil && s.NetworkMigration.Mode == site.MigrationLive {
		// The CRD lets a Live networkType migration sit next to an MTU
		// migration, but the live migration drives spec.migration.mtu
		// itself (CNO sets the routable MTU), so the two cannot overlap.
		d := s.At("networkMigration.mode",
			fmt.Sprintf("an MTU migration (%d -> %d) and a live network type migration cannot run together: the live migration changes spec.migration.mtu itself", *p.Current, p.Target),
			"run the MTU migration first and set mtu.current to its result, then the live migration (which lowers the MTU by 50 on its own)")
		d.Rule = ruleid.MTUMigrationDuringLiveType
		return nil, diag.List{d}
	}

	r1, r2 := mtuRequests(s, p)
	if dl := append(checkMTURequest(s, r1), checkMTURequest(s, r2)...); len(dl) > 0 {
		return nil, dl
	}

	phase1, phase2 := p.Phases() // the patches of the requests checked above
	m := &mtuMigration{
		plan:       p,
		cfgKey:     mtu.ConfigKey(p.NetworkType),
		phase1:     phase1,
		phase2:     phase2,
		interfaces: interfaceConfigs(s, p.Machine),
	}
	m.origin = diag.Unique(s.Positions.Of("mtu.current"), s.Positions.Of("mtu.target"), s.Positions.Of("mtu.machine"))
	for _, l := range p.BindingLinks() {
		m.origin = append(m.origin, diag.Unique(mtu.LinkPos(s, l.Link))...)
	}
	m.origin = diag.Unique(m.origin...)
	return m, nil
}

// patchArtifacts are the two phases, each as a YAML merge patch (oc patch
// --patch-file), a JSON merge patch (oc patch -p / the API) and a kustomize
// patch (for a GitOps repository that manages the Network operator
// configuration itself).
func (m *mtuMigration) patchArtifacts() []generators.Artifact {
	from, to, machine := *m.plan.Current, m.plan.Target, m.plan.Machine
	phase := func(n int, p obj, yamlPath, jsonPath, kPath, what string) []generators.Artifact {
		apply := fmt.Sprintf("oc patch %s %s --type=merge --patch-file %s", platform.OperatorNetworkResource, platform.ConfigSingletonName, yamlPath)
		y := fmt.Sprintf("# Phase %d of the MTU migration %d -> %d (machine MTU %d): %s.\n# Apply it when %s says so:\n#   %s\n",
			n, from, to, machine, what, mtuRunbook, apply)
		k := fmt.Sprintf("# Phase %d of the MTU migration %d -> %d as a kustomize patch. It is NOT part of this\n"+
			"# site's kustomization: it is for a kustomization that itself manages the cluster's\n"+
			"# operator.openshift.io/v1 Network \"cluster\" object (cluster-scoped). Add it there, in the\n"+
			"# order %s gives, as\n"+
			"#   patches:\n#   - path: %s\n#     target: {%s}\n"+
			"# Kustomize merges it like the merge patch (a null deletes the field).\n",
			n, from, to, mtuRunbook, strings.TrimPrefix(kPath, "network/"), platform.OperatorNetworkPatchTarget)
		full := obj{"apiVersion": operatorv1.GroupVersion.String(), "kind": "Network", "metadata": obj{"name": platform.ConfigSingletonName}}
		for key, v := range p {
			full[key] = v
		}
		return []generators.Artifact{
			{Path: yamlPath, Role: generators.File, Data: append([]byte(y), patchYAML(p)...), Comment: "#", Origin: m.origin},
			{Path: jsonPath, Role: generators.File, Data: patchJSON(p), Origin: m.origin},
			{Path: kPath, Role: generators.File, Data: append([]byte(k), patchYAML(full)...), Comment: "#", Origin: m.origin},
		}
	}
	arts := phase(1, m.phase1, mtuPhase1PatchYAML, mtuPhase1PatchJSON, mtuPhase1Kustomize,
		"spec.migration.mtu starts the migration; every MachineConfigPool rolls (one reboot per node)")
	return append(arts, phase(2, m.phase2, mtuPhase2PatchYAML, mtuPhase2PatchJSON, mtuPhase2Kustomize,
		"removes spec.migration and sets the new MTU; every MachineConfigPool rolls again")...)
}
