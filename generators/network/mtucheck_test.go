package network

import (
	"errors"
	"strings"
	"testing"

	"github.com/siteforge/siteforge/internal/cluster/mtu"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/site"
)

func ip(v int) *int { return &v }

func ovnState(applied int) platform.NetworkState {
	return platform.NetworkState{NetworkType: platform.OVNKubernetes, AppliedMTU: applied, CurrentConfigMTU: ip(applied)}
}

func sdnState(applied int) platform.NetworkState {
	return platform.NetworkState{NetworkType: platform.OpenShiftSDN, AppliedMTU: applied, CurrentConfigMTU: ip(applied)}
}

func migration(from, to, machineTo int) *platform.MTUMigration {
	return &platform.MTUMigration{NetworkFrom: ip(from), NetworkTo: ip(to), MachineTo: ip(machineTo)}
}

// afterPhase1 is the state CNO is in once phase 1 (from -> to) is
// reconciled: the applied MTU is network.to and the migration is applied;
// the request is phase 2 setting mtu.
func afterPhase1(s platform.NetworkState, phase1 *platform.MTUMigration, mtu int) platform.NetworkState {
	s.AppliedMTU = *phase1.NetworkTo
	s.AppliedMigration = phase1
	s.RequestedConfigMTU = ip(mtu)
	return s
}

// checkSite gives every field the table's diagnostics point at a position,
// so the test can check where each rejection lands.
func checkSite() *site.Site {
	pos := func(line int) diag.Position { return diag.Position{File: "site.yaml", Line: line, Col: 3} }
	return &site.Site{Positions: site.Positions{
		"":                 pos(1),
		"mtu":              pos(10),
		"mtu.current":      pos(11),
		"mtu.target":       pos(12),
		"mtu.machine":      pos(13),
		"networkMigration": pos(20),
	}, MTU: &site.MTU{Current: ip(1400), Target: ip(1300), Machine: ip(1500)}}
}

// TestCheckMTURequestMatchesCNO sends migration requests through the
// generator's validation (checkMTURequest) and compares each verdict with
// CNO's, as platform.ValidateMTUChange reproduces it: the same accept or
// reject, every reason in CNO's order with CNO's exact text, at the site
// field to change.
func TestCheckMTURequestMatchesCNO(t *testing.T) {
	tests := []struct {
		name  string
		state platform.NetworkState
		mig   *platform.MTUMigration
		// paths are the site fields of the diagnostics, in order; nil for
		// an accepted request.
		paths []string
	}{
		// Rule 1: network.from, network.to and machine.to are required.
		{name: "missing network.from", state: ovnState(1400),
			mig: &platform.MTUMigration{NetworkTo: ip(1300), MachineTo: ip(1500)}, paths: []string{"mtu"}},
		{name: "missing network.to", state: ovnState(1400),
			mig: &platform.MTUMigration{NetworkFrom: ip(1400), MachineTo: ip(1500)}, paths: []string{"mtu"}},
		{name: "missing machine.to hides every other rule", state: ovnState(1400),
			mig: &platform.MTUMigration{NetworkFrom: ip(9999), NetworkTo: ip(100), MachineFrom: ip(1500)}, paths: []string{"mtu"}},
		{name: "machine.from is optional", state: ovnState(1400), mig: migration(1400, 1300, 1500)},
		// Rule 2: network.from is the applied MTU.
		{name: "network.from is not the applied MTU", state: ovnState(1400), mig: migration(1450, 1300, 1500), paths: []string{"mtu.current"}},
		{name: "the Local Zone fix from the running MTU 8901", state: ovnState(8901), mig: migration(8901, 1200, 9001)},
		// Rule 3: ranges, with and without IPv6.
		{name: "network.to below the IPv4 floor", state: ovnState(1400), mig: migration(1400, 500, 1500), paths: []string{"mtu.target"}},
		{name: "network.to 1200 is legal on IPv4", state: ovnState(1400), mig: migration(1400, 1200, 1500)},
		{name: "network.to 1200 is below the IPv6 floor",
			state: func() platform.NetworkState { s := ovnState(1400); s.AnyIPv6 = true; return s }(),
			mig:   migration(1400, 1200, 1500), paths: []string{"mtu.target"}},
		{name: "machine.to above the maximum", state: ovnState(1400), mig: migration(1400, 9000, 70000), paths: []string{"mtu.machine"}},
		{name: "machine.to below the IPv6 floor also lacks headroom",
			state: func() platform.NetworkState { s := ovnState(1400); s.AnyIPv6 = true; return s }(),
			mig:   migration(1400, 1280, 1279), paths: []string{"mtu.machine", "mtu.machine"}},
		{name: "from and network.to both wrong", state: ovnState(1400), mig: migration(1500, 100, 600), paths: []string{"mtu.current", "mtu.target"}},
		// Rule 4: headroom, with and without IPsec Full.
		{name: "headroom OVN-Kubernetes: 1450 needs 1550", state: ovnState(1400), mig: migration(1400, 1450, 1500), paths: []string{"mtu.machine"}},
		{name: "headroom OVN-Kubernetes exactly met", state: ovnState(1400), mig: migration(1400, 1400, 1500)},
		{name: "headroom with IPsec Full: 1400 needs 1546",
			state: func() platform.NetworkState { s := ovnState(1400); s.IPsecFull = true; return s }(),
			mig:   migration(1400, 1400, 1500), paths: []string{"mtu.machine"}},
		{name: "headroom with IPsec Full met",
			state: func() platform.NetworkState { s := ovnState(1400); s.IPsecFull = true; return s }(),
			mig:   migration(1400, 1354, 1500)},
		{name: "headroom OpenShift SDN: 1475 needs 1525", state: sdnState(1450), mig: migration(1450, 1475, 1500), paths: []string{"mtu.machine"}},
		// Rule 5: phase 2 sets exactly network.to.
		{name: "phase 2 sets mtu = network.to", state: afterPhase1(ovnState(8901), migration(8901, 1200, 9001), 1200)},
		{name: "phase 2 mtu differs from network.to", state: afterPhase1(ovnState(8901), migration(8901, 1200, 9001), 8901), paths: []string{"mtu.target"}},
		{name: "phase 2 mismatch, OpenShift SDN wording", state: afterPhase1(sdnState(1450), migration(1450, 1250, 1500), 1300), paths: []string{"mtu.target"}},
		{name: "phase 2 mtu out of range", state: afterPhase1(ovnState(1400), migration(1400, 1300, 1500), 70000), paths: []string{"mtu.target"}},
		// Rule 6: an offline network type migration cannot carry an MTU migration.
		{name: "offline network type migration clash",
			state: func() platform.NetworkState { s := sdnState(1450); s.NetworkTypeMigration = true; return s }(),
			mig:   migration(1450, 1400, 1500), paths: []string{"networkMigration"}},
		{name: "no migration, mtu unchanged", state: ovnState(1400)},
	}
	if len(tests) < 15 {
		t.Fatalf("the table needs at least 15 requests, has %d", len(tests))
	}
	s := checkSite()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cno := platform.ValidateMTUChange(tt.state, tt.mig)
			got := checkMTURequest(s, mtuRequest{what: "the patch", state: tt.state, mig: tt.mig})
			if (cno == nil) != (len(got) == 0) {
				t.Fatalf("verdicts differ: CNO %v, generator %v", cno, got)
			}
			if len(got) != len(tt.paths) {
				t.Fatalf("got %d diagnostics, want %d (%v): %v", len(got), len(tt.paths), tt.paths, got)
			}
			if cno == nil {
				return
			}
			var ce *platform.MTUChangeError
			if !errors.As(cno, &ce) {
				t.Fatalf("CNO verdict is not an MTUChangeError: %v", cno)
			}
			if len(ce.Reasons) != len(got) {
				t.Fatalf("CNO gives %d reasons, the generator %d", len(ce.Reasons), len(got))
			}
			for i, d := range got {
				if !strings.HasSuffix(d.Message, ": "+ce.Reasons[i].Message) {
					t.Errorf("diagnostic %d = %q, does not end with CNO's %q", i, d.Message, ce.Reasons[i].Message)
				}
				if d.Path != tt.paths[i] || d.Pos != s.Positions.Of(tt.paths[i]) {
					t.Errorf("diagnostic %d at %s %s, want %s", i, d.Path, d.Pos, tt.paths[i])
				}
			}
		})
	}
}

// TestMTURequestsOfTheExample checks the requests the generator builds for the
// Local Zone example, phase by phase.
func TestMTURequestsOfTheExample(t *testing.T) {
	s := checkSite()
	p := mtu.Plan{NetworkType: platform.OVNKubernetes, Current: ip(8901), Target: 1200, Machine: 9001}
	r1, r2 := mtuRequests(s, p)
	if *r1.mig.NetworkFrom != 8901 || *r1.mig.NetworkTo != 1200 || *r1.mig.MachineTo != 9001 || r1.mig.MachineFrom != nil {
		t.Errorf("phase 1 = %+v", r1.mig)
	}
	if r2.mig != nil || *r2.state.RequestedConfigMTU != 1200 || r2.state.AppliedMTU != 1200 {
		t.Errorf("phase 2 = %+v %+v", r2.state, r2.mig)
	}
	for _, r := range []mtuRequest{r1, r2} {
		if dl := checkMTURequest(s, r); dl != nil {
			t.Errorf("%s rejected: %v", r.what, dl)
		}
	}
}
