package network

import (
	"fmt"

	operatorv1 "github.com/openshift/api/operator/v1"

	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/internal/cluster/mtu"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/site"
)

// The MTU migration driven from git (mtu.migration.phase "1" and "2"): the
// phase is a partial operator.openshift.io/v1 Network "cluster" that Argo CD
// applies server-side. Phase 1 owns spec.migration.mtu; phase 2 owns the
// final mtu and leaves spec.migration out, so the API server removes it: no
// other manager owns it, because CNO clears spec.migration before it applies
// its defaulted spec (platform.CNOOperConfigFieldManager). Phase 2 takes the
// mtu over from CNO, which owns the defaulted one: Argo CD forces conflicts
// (platform.ArgoCDServerSideApply).

// checkMTUPhase refuses a phase the site's MTU plan contradicts, at
// mtu.migration.phase (or the field to change) with the fix. What a phase
// needs from the site itself (a running cluster, mtu.current, mtu.target) the
// loader checks (internal/load checkSemantics); phases 1 and 2 are also
// judged by CNO's verdicts in planMTUMigration.
func checkMTUPhase(s *site.Site, p mtu.Plan) diag.List {
	phase := s.MTUPhase()
	if phase == site.MTUPhaseNone {
		return nil
	}
	const at = "mtu.migration.phase"
	if s.Cluster.Lifecycle != site.LifecycleRunning {
		return nil // the loader refuses a phase on a cluster to install
	}
	if phase == site.MTUPhaseDone {
		if p.MigrationDue() {
			return diag.List{s.At("mtu.current",
				fmt.Sprintf("mtu.migration.phase is \"done\" but mtu.current %d is not the target %d: either the migration has not run, or mtu.current was not updated after phase 2", *p.Current, p.Target),
				fmt.Sprintf("when phase 2 has rolled every pool, set mtu.current: %d; if the migration has not started, set mtu.migration.phase: \"1\"", p.Target))}
		}
		return nil
	}
	if p.Current == nil || !p.TargetFromSite {
		return nil // the loader refuses phases 1 and 2 without mtu.current or mtu.target
	}
	if !p.MigrationDue() {
		return diag.List{s.At(at,
			fmt.Sprintf("mtu.migration.phase %q but mtu.current %d already is the target: there is nothing to migrate (CNO keeps the MTU)", phase, *p.Current),
			"if the migration is over, set mtu.migration.phase: \"done\"; until then keep mtu.current at the MTU the migration starts from")}
	}
	return nil
}

// gitPhaseArtifacts are the outputs of phase 1 or 2 from git: the partial
// Network as a Resource of the site's kustomization, and the runbook as the
// human view. No oc patch files: a patch applied by hand would make its
// manager co-own spec.migration, and phase 2 could not remove it.
func (m *mtuMigration) gitPhaseArtifacts(s *site.Site) ([]generators.Artifact, error) {
	phase := s.MTUPhase()
	if len(m.interfaces) > 0 {
		// The NetworkManager MachineConfigs go on between the two phases
		// (docs "Changing the cluster network MTU"): a third state git
		// cannot express with one phase field.
		return nil, diag.List{s.At("mtu.migration.phase",
			fmt.Sprintf("mtu.migration.phase %q: this migration also changes the uplink MTU to %d, and the NetworkManager MachineConfigs that keep it must be applied between phase 1 and phase 2; siteforge does not drive that step from git", phase, m.plan.Machine),
			"use mtu.migration.phase: \"none\" and the runbook, or migrate without changing the uplink MTU")}
	}
	return []generators.Artifact{
		{Path: mtuGitObject, Role: generators.Resource, Object: m.gitObject(phase), Origin: m.origin},
		{Path: mtuRunbook, Role: generators.File, Data: m.runbook(s), Origin: m.origin},
	}, nil
}

// gitObject is the partial Network "cluster" of a phase: only the fields
// siteforge owns, with the Argo CD options it needs.
func (m *mtuMigration) gitObject(phase string) obj {
	spec := m.phase1["spec"]
	if phase == site.MTUPhase2 {
		spec = obj{"defaultNetwork": obj{m.cfgKey: obj{"mtu": m.plan.Target}}}
	}
	return obj{
		"apiVersion": operatorv1.GroupVersion.String(),
		"kind":       "Network",
		"metadata": obj{
			"name": platform.ConfigSingletonName,
			"annotations": obj{
				platform.ArgoCDSyncOptionsAnnotation:    platform.ArgoCDSingletonSyncOptions(),
				platform.ArgoCDCompareOptionsAnnotation: platform.ArgoCDIgnoreExtraneous,
			},
		},
		"spec": spec,
	}
}

// gitSteps is the runbook of the migration from git: which phase the site is
// in, what to wait for, and what the next commit changes.
func (m *mtuMigration) gitSteps(s *site.Site, r *runbook, phase string) {
	from, to := *m.plan.Current, m.plan.Target
	r.h2("From git: this site is in phase %s", phase)
	r.p("`mtu.migration.phase: \"%s\"`. `%s` is a partial `%s` `Network` named `cluster`, a resource of this site's "+
		"kustomization: Argo CD applies it server-side (`%s`), so it patches only the fields it names and a field it owned "+
		"in the previous phase and leaves out now is removed. `%s` and `%s` keep Argo CD from deleting the object when it "+
		"leaves git or the Application is deleted; `%s` keeps the Application Synced once it has left git. Do not `oc patch` "+
		"`spec.migration` by hand during this migration: a second manager of that field keeps it from being removed in phase 2.",
		phase, mtuGitObject, operatorv1.GroupVersion.String(), platform.ArgoCDServerSideApply, platform.ArgoCDNoPrune, platform.ArgoCDNoDelete, platform.ArgoCDIgnoreExtraneous)
	r.table([]string{"commit", "site", "what Argo CD applies", "then"}, [][]string{
		{"phase 1", "`mtu.migration.phase: \"1\"`", fmt.Sprintf("`spec.migration.mtu`: network %d -> %d, machine.to %d", from, to, m.plan.Machine), "every pool rolls (one reboot per node)"},
		{"phase 2", "`mtu.migration.phase: \"2\"`", fmt.Sprintf("`%s.mtu: %d`, `spec.migration` removed", m.cfgKey, to), "every pool rolls again"},
		{"done", fmt.Sprintf("`mtu.migration.phase: \"done\"`, `mtu.current: %d`", to), "nothing: the object leaves git, the cluster keeps its fields", "-"},
	})
	if phase == site.MTUPhase1 {
		r.h2("Before the phase 1 commit is synced")
		r.p("Check that the cluster applies the MTU this migration starts from (else CNO refuses it with " +
			"\"invalid Migration.MTU.Network.From(...) not equal to the currently applied MTU(...)\"), that no migration is in progress, " +
			"and that every pool is up to date and not paused:")
		r.sh(m.beforeChecks(s)...)
		r.h2("Phase 1: wait for every pool")
		r.p("After the sync, CNO renders `%s` into every pool's configuration and MCO rolls every pool. Wait for the rollout "+
			"to start, then to end, and check every node:", platform.MTUMigrationRenderedScript)
		r.sh(append([]string{waitRolloutStarted, waitPools(s)}, m.phase1Checks()...)...)
		r.h2("Next commit")
		r.p("When every pool is Updated: set `mtu.migration.phase: \"2\"` (keep `mtu.current: %d` and `mtu.target: %d`), render, commit.", from, to)
		return
	}
	r.h2("Phase 2: wait for every pool")
	r.p("Phase 2 is committed only once phase 1 has rolled every pool: CNO accepts the mtu %d only while network.to %d is the "+
		"applied MTU (any other value: \"cannot change ... MTU without migration\"). After the sync, check that `spec.migration` "+
		"is gone, then wait for the second rollout:", to, to)
	r.sh(append([]string{
		"oc get network.operator cluster -o jsonpath='{.spec.migration}{\"\\n\"}'   # empty",
		fmt.Sprintf("oc get network.operator cluster --show-managed-fields -o jsonpath='{range .metadata.managedFields[*]}{.manager} {.operation}{\"\\n\"}{end}'   # %s Apply", platform.ArgoCDFieldManager),
		waitRolloutStarted, waitPools(s)}, m.phase2Checks(s)...)...)
	r.h2("Next commit")
	r.p("When every pool is Updated: set `mtu.migration.phase: \"done\"` and `mtu.current: %d`, render, commit. "+
		"`%s` leaves the kustomization; the cluster keeps the mtu.", to, mtuGitObject)
}
