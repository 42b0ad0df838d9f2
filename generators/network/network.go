// Package network renders a site's cluster network outputs:
//
//   - the MTU plan (Plan): the largest legal cluster MTU from every link
//     overlay traffic crosses, for `siteforge mtu` and the lints;
//   - for a site to install, the operator Network manifest the installer
//     takes (install/manifests/cluster-network-03-config.yml) with that MTU;
//   - for a running site whose MTU differs from the plan, the two-phase MTU
//     migration: merge patches (YAML, JSON, kustomize), the NetworkManager
//     MTU MachineConfigs when the machine MTU changes, and a runbook;
//   - the OpenShift SDN -> OVN-Kubernetes migration (offline or live);
//   - the unsupported OVS flow idle timeout MachineConfigs.
//
// Every MTU change it writes is first judged by platform.ValidateMTUChange,
// the offline copy of CNO's verdict: a patch CNO would refuse is refused
// here, at the site field to change, with CNO's own message.
package network

import (
	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/internal/cluster/mtu"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/site"
)

// Name is the generator's stable name.
const Name = "network"

// Generate returns the site's network artifacts.
func Generate(ctx *generators.Context, s *site.Site) ([]generators.Artifact, error) {
	plan, err := mtu.Of(s)
	if err != nil {
		return nil, err
	}
	var arts []generators.Artifact
	var diags diag.List
	collect := func(a []generators.Artifact, err error) error {
		if dl, ok := err.(diag.List); ok {
			diags = append(diags, dl...)
			return nil
		}
		if err != nil {
			return err
		}
		arts = append(arts, a...)
		return nil
	}

	if dl := checkMTUPhase(s, plan); dl != nil {
		diags = append(diags, dl...)
	}
	switch s.Cluster.Lifecycle {
	case site.LifecycleInstall:
		a, err := day0Artifact(s, ctx.Minor, plan)
		if err := collect([]generators.Artifact{a}, err); err != nil {
			return nil, err
		}
	case site.LifecycleRunning:
		if plan.MigrationDue() && len(diags) == 0 {
			if err := collect(mtuMigrationArtifacts(ctx, s, plan)); err != nil {
				return nil, err
			}
		}
	}
	if s.NetworkMigration != nil {
		m, dl := planSDNMigration(ctx, s)
		if dl != nil {
			diags = append(diags, dl...)
		} else {
			arts = append(arts, m.artifacts(s)...)
		}
	}
	if s.OVS != nil && s.OVS.FlowIdleTimeoutMs != nil {
		if err := collect(ovsArtifacts(ctx, s)); err != nil {
			return nil, err
		}
	}
	if len(diags) > 0 {
		return nil, diags.Sort()
	}
	return arts, nil
}

func mtuMigrationArtifacts(ctx *generators.Context, s *site.Site, plan mtu.Plan) ([]generators.Artifact, error) {
	m, dl := planMTUMigration(s, ctx.Minor, plan)
	if dl != nil {
		return nil, dl
	}
	if phase := s.MTUPhase(); phase == site.MTUPhase1 || phase == site.MTUPhase2 {
		return m.gitPhaseArtifacts(s)
	}
	arts := m.patchArtifacts()
	nm, err := interfaceArtifacts(ctx, s, m.interfaces, m.origin)
	if err != nil {
		return nil, err
	}
	arts = append(arts, nm...)
	return append(arts, generators.Artifact{Path: mtuRunbook, Role: generators.File, Data: m.runbook(s), Origin: m.origin}), nil
}
