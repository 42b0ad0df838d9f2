package mtu

import (
	"strings"
	"testing"

	"github.com/siteforge/siteforge/internal/platform"
)

// TestMigrationOf: where the fixtures' migrations stand, and what each
// stage still waits for.
func TestMigrationOf(t *testing.T) {
	for _, c := range []struct {
		fixture  string
		stage    Stage
		from, to int
		behind   string
	}{
		{"kcs6996487", NoMigration, 0, 0, ""},
		{"kcs6996487-fixed", NoMigration, 0, 0, ""},
		{"mtu-migration-phase1", Phase2Due, 8901, 1200, ""},
		{"mtu-migration-phase2-rolling", Phase2RollingOut, 0, 1200, "worker (2 of 5 nodes updated, on rendered-worker-"},
	} {
		pr := MigrationOf(fixtureState(t, c.fixture))
		var behind []string
		for _, p := range pr.Behind() {
			behind = append(behind, p.String())
		}
		if pr.Stage != c.stage || pr.From != c.from || pr.To != c.to || !strings.HasPrefix(strings.Join(behind, ", "), c.behind) || (c.behind == "") != (len(behind) == 0) {
			t.Errorf("%s: stage %d %d -> %d, behind %v; want stage %d %d -> %d, behind %q", c.fixture, pr.Stage, pr.From, pr.To, behind, c.stage, c.from, c.to, c.behind)
		}
	}
	// phase 1 with a pool not yet updated: phase 1's fixture with two of
	// the worker pool's nodes updated
	st := fixtureState(t, "mtu-migration-phase1")
	for _, p := range st.Pools {
		if p.Obj.Name == "worker" {
			p.MCP.Status.UpdatedMachineCount = 2
		}
	}
	pr := MigrationOf(st)
	if got := pr.Behind(); pr.Stage != Phase1RollingOut || len(got) != 1 || !strings.HasPrefix(got[0].String(), "worker (2 of 5 nodes updated, on rendered-worker-") {
		t.Errorf("phase 1 behind on worker: stage %d, behind %v", pr.Stage, got)
	}
	// a pool whose rendered config the state does not hold
	delete(st.Rendered, st.Pools[0].MCP.Status.Configuration.Name)
	if pr := MigrationOf(st); pr.Stage != MigrationUnknown {
		t.Errorf("a pool's config not in the state: stage %d, want MigrationUnknown", pr.Stage)
	}
	if got := (Progress{To: 1200}).Phase2Command("OVNKubernetes"); got != `oc patch network.operator.openshift.io cluster --type=merge -p '{"spec":{"defaultNetwork":{"ovnKubernetesConfig":{"mtu":1200}},"migration":null}}'` {
		t.Errorf("phase 2: %s", got)
	}
}

// TestPhase2Command: the phase 2 command of a migration under way is the
// phase 2 patch of the plan that asked for it, in the network plugin's
// configuration of each network type.
func TestPhase2Command(t *testing.T) {
	for nt, want := range map[string]string{
		platform.OVNKubernetes: `oc patch network.operator.openshift.io cluster --type=merge -p '{"spec":{"defaultNetwork":{"ovnKubernetesConfig":{"mtu":1200}},"migration":null}}'`,
		platform.OpenShiftSDN:  `oc patch network.operator.openshift.io cluster --type=merge -p '{"spec":{"defaultNetwork":{"openshiftSDNConfig":{"mtu":1200}},"migration":null}}'`,
	} {
		current := 8901
		_, phase2 := Plan{NetworkType: nt, Current: &current, Target: 1200, Machine: 9001}.Phases()
		if got := (Progress{Stage: Phase2Due, From: 8901, To: 1200}).Phase2Command(nt); got != want || PatchCommand(phase2) != want {
			t.Errorf("%s: Phase2Command %s, plan's phase 2 %s, want %s", nt, got, PatchCommand(phase2), want)
		}
	}
}
