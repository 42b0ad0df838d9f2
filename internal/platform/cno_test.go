package platform

import (
	"errors"
	"testing"
)

func p(v int) *int { return &v }

// ovn is an OVN-Kubernetes cluster on 1500-byte NICs, as CNO leaves it after
// install: applied and spec mtu 1400.
func ovn() NetworkState {
	return NetworkState{NetworkType: OVNKubernetes, AppliedMTU: 1400, CurrentConfigMTU: p(1400)}
}

// sdn is the OpenShift SDN equivalent: 1450.
func sdn() NetworkState {
	return NetworkState{NetworkType: OpenShiftSDN, AppliedMTU: 1450, CurrentConfigMTU: p(1450)}
}

func with(s NetworkState, f func(*NetworkState)) NetworkState { f(&s); return s }

func mig(from, to, machineTo int) *MTUMigration {
	return &MTUMigration{NetworkFrom: p(from), NetworkTo: p(to), MachineTo: p(machineTo)}
}

// TestValidateMTUChange is the verdict table. want is "" for accept, else the
// exact upstream text; several reasons are joined by "; " in upstream order.
func TestValidateMTUChange(t *testing.T) {
	tests := []struct {
		name     string
		state    NetworkState
		mig      *MTUMigration
		want     string
		wantGate Gate
		wantKind error
	}{
		// Rule 1: required fields.
		{
			name:     "missing network.from",
			state:    ovn(),
			mig:      &MTUMigration{NetworkTo: p(1300), MachineTo: p(1500)},
			want:     "invalid Migration.MTU, at least one of the required fields is missing",
			wantGate: GateCNOChangeSafe, wantKind: ErrMTUMigrationFieldsMissing,
		},
		{
			name:     "missing network.to",
			state:    ovn(),
			mig:      &MTUMigration{NetworkFrom: p(1400), MachineTo: p(1500)},
			want:     "invalid Migration.MTU, at least one of the required fields is missing",
			wantGate: GateCNOChangeSafe, wantKind: ErrMTUMigrationFieldsMissing,
		},
		{
			name:     "missing machine.to (also hides every other rule)",
			state:    ovn(),
			mig:      &MTUMigration{NetworkFrom: p(9999), NetworkTo: p(100), MachineFrom: p(1500)},
			want:     "invalid Migration.MTU, at least one of the required fields is missing",
			wantGate: GateCNOChangeSafe, wantKind: ErrMTUMigrationFieldsMissing,
		},
		{
			name:  "machine.from is optional",
			state: ovn(),
			mig:   mig(1400, 1300, 1500),
		},
		{
			name:  "machine.from given is not checked against anything",
			state: ovn(),
			mig:   &MTUMigration{NetworkFrom: p(1400), NetworkTo: p(1300), MachineFrom: p(1234), MachineTo: p(1500)},
		},
		// Rule 2: network.from must be the applied MTU.
		{
			name:     "network.from differs from applied",
			state:    ovn(),
			mig:      mig(1450, 1300, 1500),
			want:     "invalid Migration.MTU.Network.From(1450) not equal to the currently applied MTU(1400)",
			wantGate: GateCNOChangeSafe, wantKind: ErrMTUMigrationFromNotApplied,
		},
		{
			name: "in-flight migration re-reconciled: from not re-checked (checkPrevMTU)",
			state: with(ovn(), func(s *NetworkState) {
				s.AppliedMTU = 1300 // render set the applied mtu to network.to
				s.AppliedMigration = mig(1400, 1300, 1500)
			}),
			mig: mig(1400, 1300, 1500),
		},
		{
			name: "in-flight migration edited with a new from: re-checked",
			state: with(ovn(), func(s *NetworkState) {
				s.AppliedMTU = 1300
				s.AppliedMigration = mig(1400, 1300, 1500)
			}),
			mig:      mig(1350, 1300, 1500),
			want:     "invalid Migration.MTU.Network.From(1350) not equal to the currently applied MTU(1300)",
			wantGate: GateCNOChangeSafe, wantKind: ErrMTUMigrationFromNotApplied,
		},
		// Rule 3: ranges.
		{
			name:     "network.to below IPv4 floor",
			state:    ovn(),
			mig:      mig(1400, 500, 1500),
			want:     "invalid Migration.MTU.Network.To(500), has to be in range: 576-65536",
			wantGate: GateCNOChangeSafe, wantKind: ErrMTUMigrationNetworkToRange,
		},
		{
			name:  "network.to 1200 is fine on IPv4",
			state: ovn(),
			mig:   mig(1400, 1200, 1500),
		},
		{
			name:     "network.to 1200 below the IPv6 floor",
			state:    with(ovn(), func(s *NetworkState) { s.AnyIPv6 = true }),
			mig:      mig(1400, 1200, 1500),
			want:     "invalid Migration.MTU.Network.To(1200), has to be in range: 1280-65536",
			wantGate: GateCNOChangeSafe, wantKind: ErrMTUMigrationNetworkToRange,
		},
		{
			name:     "machine.to above max",
			state:    ovn(),
			mig:      mig(1400, 9000, 70000),
			want:     "invalid Migration.MTU.Machine.To(70000), has to be in range: 576-65536",
			wantGate: GateCNOChangeSafe, wantKind: ErrMTUMigrationMachineToRange,
		},
		{
			name:  "machine.to below IPv6 floor also fails headroom: both reported",
			state: with(ovn(), func(s *NetworkState) { s.AnyIPv6 = true }),
			mig:   mig(1400, 1280, 1279),
			want: "invalid Migration.MTU.Machine.To(1279), has to be in range: 1280-65536; " +
				"invalid Migration.MTU.Machine.To(1279), has to be at least 1380",
			wantGate: GateCNOChangeSafe, wantKind: ErrMTUMigrationMachineToRange,
		},
		{
			name:  "from and network.to both wrong: both reported, CNO order",
			state: ovn(),
			mig:   mig(1500, 100, 600),
			want: "invalid Migration.MTU.Network.From(1500) not equal to the currently applied MTU(1400); " +
				"invalid Migration.MTU.Network.To(100), has to be in range: 576-65536",
			wantGate: GateCNOChangeSafe, wantKind: ErrMTUMigrationFromNotApplied,
		},
		// Rule 4: headroom.
		{
			name:     "headroom OVN-K: 1450 needs 1550",
			state:    ovn(),
			mig:      mig(1400, 1450, 1500),
			want:     "invalid Migration.MTU.Machine.To(1500), has to be at least 1550",
			wantGate: GateCNOChangeSafe, wantKind: ErrMTUMigrationMachineToHeadroom,
		},
		{
			name:  "headroom OVN-K exactly met",
			state: ovn(),
			mig:   mig(1400, 1400, 1500),
		},
		{
			name:     "headroom OVN-K with IPsec Full: 1400 needs 1546",
			state:    with(ovn(), func(s *NetworkState) { s.IPsecFull = true }),
			mig:      mig(1400, 1400, 1500),
			want:     "invalid Migration.MTU.Machine.To(1500), has to be at least 1546",
			wantGate: GateCNOChangeSafe, wantKind: ErrMTUMigrationMachineToHeadroom,
		},
		{
			name:  "headroom OVN-K with IPsec Full met",
			state: with(ovn(), func(s *NetworkState) { s.IPsecFull = true; s.AppliedMTU = 1354; s.CurrentConfigMTU = p(1354) }),
			mig:   mig(1354, 1354, 1500),
		},
		{
			name:     "headroom SDN: 1475 needs 1525",
			state:    sdn(),
			mig:      mig(1450, 1475, 1500),
			want:     "invalid Migration.MTU.Machine.To(1500), has to be at least 1525",
			wantGate: GateCNOChangeSafe, wantKind: ErrMTUMigrationMachineToHeadroom,
		},
		{
			name:  "SDN headroom ignores IPsec",
			state: with(sdn(), func(s *NetworkState) { s.IPsecFull = true }),
			mig:   mig(1450, 1450, 1500),
		},
		{
			name:  "SDN floor is always 576, even with an IPv6 flag",
			state: with(sdn(), func(s *NetworkState) { s.AnyIPv6 = true }),
			mig:   mig(1450, 1200, 1500),
		},
		// Rule 5: mtu without migration, and phase 2.
		{
			name:     "mtu changed without migration (OVN-K)",
			state:    with(ovn(), func(s *NetworkState) { s.RequestedConfigMTU = p(1300) }),
			want:     "cannot change ovn-kubernetes MTU without migration",
			wantGate: GateCNOChangeSafe, wantKind: ErrMTUChangedWithoutMigration,
		},
		{
			name:     "mtu changed without migration (SDN wording)",
			state:    with(sdn(), func(s *NetworkState) { s.RequestedConfigMTU = p(1400) }),
			want:     "cannot change openshift-sdn mtu without migration",
			wantGate: GateCNOChangeSafe, wantKind: ErrMTUChangedWithoutMigration,
		},
		{
			name: "phase 2 sets mtu = previous network.to (= applied)",
			state: with(ovn(), func(s *NetworkState) {
				s.AppliedMTU = 1300
				s.AppliedMigration = mig(1400, 1300, 1500)
				s.RequestedConfigMTU = p(1300)
			}),
		},
		{
			name: "phase 2 mtu != previous network.to",
			state: with(ovn(), func(s *NetworkState) {
				s.AppliedMTU = 1300
				s.AppliedMigration = mig(1400, 1300, 1500)
				s.RequestedConfigMTU = p(1350)
			}),
			want:     "cannot change ovn-kubernetes MTU without migration",
			wantGate: GateCNOChangeSafe, wantKind: ErrMTUChangedWithoutMigration,
		},
		{
			name: "phase 2 that only deletes the migration keeps the old spec mtu",
			state: with(ovn(), func(s *NetworkState) {
				s.AppliedMTU = 1300
				s.AppliedMigration = mig(1400, 1300, 1500)
			}),
			want:     "cannot change ovn-kubernetes MTU without migration",
			wantGate: GateCNOChangeSafe, wantKind: ErrMTUChangedWithoutMigration,
		},
		{
			name: "phase 2 SDN mismatch",
			state: with(sdn(), func(s *NetworkState) {
				s.AppliedMTU = 1400
				s.AppliedMigration = mig(1450, 1400, 1500)
				s.RequestedConfigMTU = p(1450)
			}),
			want:     "cannot change openshift-sdn mtu without migration",
			wantGate: GateCNOChangeSafe, wantKind: ErrMTUChangedWithoutMigration,
		},
		{
			name:  "no spec mtu at all is defaulted from the applied config",
			state: with(ovn(), func(s *NetworkState) { s.CurrentConfigMTU = nil }),
		},
		{
			name:  "phase 1 does not look at the spec mtu",
			state: with(ovn(), func(s *NetworkState) { s.RequestedConfigMTU = p(1350) }),
			mig:   mig(1400, 1300, 1500),
		},
		{
			name:     "spec mtu out of bounds fails CNO Validate first",
			state:    with(ovn(), func(s *NetworkState) { s.AnyIPv6 = true; s.AppliedMTU = 1200; s.RequestedConfigMTU = p(1200) }),
			want:     "invalid MTU 1200",
			wantGate: GateCNOValidate, wantKind: ErrMTUInvalid,
		},
		// Rule 6: offline networkType migration clash (CEL).
		{
			name:     "offline networkType migration with mtu migration",
			state:    with(sdn(), func(s *NetworkState) { s.NetworkTypeMigration = true }),
			mig:      mig(1450, 1400, 1500),
			want:     "networkType migration in mode other than 'Live' may not be configured at the same time as mtu migration",
			wantGate: GateAPIAdmission, wantKind: ErrNetworkTypeAndMTUMigrationClash,
		},
		{
			name:  "offline networkType migration alone is not an mtu matter",
			state: with(sdn(), func(s *NetworkState) { s.NetworkTypeMigration = true }),
		},
		// Increases, decreases, no-op.
		{
			name:  "increase 1400 -> 9000 with jumbo NICs (docs example)",
			state: ovn(),
			mig:   mig(1400, 9000, 9100),
		},
		{
			name:  "decrease 8901 -> 1200 for a Local Zone (KCS 6996487)",
			state: with(ovn(), func(s *NetworkState) { s.AppliedMTU = 8901; s.CurrentConfigMTU = p(8901) }),
			mig:   mig(8901, 1200, 9001),
		},
		{
			name:  "SDN decrease 8951 -> 1250 for a Local Zone",
			state: with(sdn(), func(s *NetworkState) { s.AppliedMTU = 8951; s.CurrentConfigMTU = p(8951) }),
			mig:   mig(8951, 1250, 9001),
		},
		{
			name:  "no-op migration is accepted (to == from)",
			state: ovn(),
			mig:   mig(1400, 1400, 1500),
		},
		{
			name:  "nothing changed",
			state: ovn(),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := ValidateMTUChange(tt.state, tt.mig)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("want accept, got %v", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("want %q, got accept", tt.want)
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("message\n got: %s\nwant: %s", got, tt.want)
			}
			var ce *MTUChangeError
			if !errors.As(err, &ce) {
				t.Fatalf("want *MTUChangeError, got %T", err)
			}
			if ce.Gate != tt.wantGate {
				t.Errorf("gate = %v, want %v", ce.Gate, tt.wantGate)
			}
			if !errors.Is(err, tt.wantKind) {
				t.Errorf("errors.Is(err, %v) = false", tt.wantKind)
			}
		})
	}
}

func TestOperatorCondition(t *testing.T) {
	err := ValidateMTUChange(with(ovn(), func(s *NetworkState) { s.AnyIPv6 = true }), mig(1400, 1280, 1279))
	var ce *MTUChangeError
	if !errors.As(err, &ce) {
		t.Fatalf("want *MTUChangeError, got %v", err)
	}
	want := "Not applying unsafe configuration change: invalid configuration: [" +
		"invalid Migration.MTU.Machine.To(1279), has to be in range: 1280-65536 " +
		"invalid Migration.MTU.Machine.To(1279), has to be at least 1380]. " +
		"Use 'oc edit network.operator.openshift.io cluster' to undo the change."
	if got := ce.OperatorCondition(); got != want {
		t.Errorf("condition\n got: %s\nwant: %s", got, want)
	}

	err = ValidateMTUChange(with(ovn(), func(s *NetworkState) { s.RequestedConfigMTU = p(70000) }), nil)
	if !errors.As(err, &ce) {
		t.Fatalf("want *MTUChangeError, got %v", err)
	}
	want = "The operator configuration is invalid (invalid configuration: [invalid MTU 70000]). " +
		"Use 'oc edit network.operator.openshift.io cluster' to fix."
	if got := ce.OperatorCondition(); got != want {
		t.Errorf("condition\n got: %s\nwant: %s", got, want)
	}
}

func TestValidateMTUChangeInputErrors(t *testing.T) {
	for name, tc := range map[string]struct {
		state NetworkState
		mig   *MTUMigration
	}{
		"unknown network type": {NetworkState{NetworkType: "Calico", AppliedMTU: 1400}, mig(1400, 1300, 1500)},
		"negative network.to":  {ovn(), mig(1400, -1, 1500)},
		"negative applied":     {NetworkState{NetworkType: OVNKubernetes, AppliedMTU: -5}, nil},
	} {
		t.Run(name, func(t *testing.T) {
			err := ValidateMTUChange(tc.state, tc.mig)
			if err == nil {
				t.Fatal("want an input error, got accept")
			}
			var ce *MTUChangeError
			if errors.As(err, &ce) {
				t.Errorf("input error must not look like a CNO verdict: %v", err)
			}
		})
	}
}

func TestOverhead(t *testing.T) {
	tests := []struct {
		networkType string
		ipsecFull   bool
		want        int
	}{
		{OVNKubernetes, false, 100},
		{OVNKubernetes, true, 146},
		{OpenShiftSDN, false, 50},
		{OpenShiftSDN, true, 50},
		{"Calico", false, 0},
	}
	for _, tt := range tests {
		if got := Overhead(tt.networkType, tt.ipsecFull); got != tt.want {
			t.Errorf("Overhead(%q, %v) = %d, want %d", tt.networkType, tt.ipsecFull, got, tt.want)
		}
	}
}

func TestMinMTU(t *testing.T) {
	if got := MinMTU(false); got != 576 {
		t.Errorf("MinMTU(false) = %d, want 576", got)
	}
	if got := MinMTU(true); got != 1280 {
		t.Errorf("MinMTU(true) = %d, want 1280", got)
	}
	if MaxMTU != 65536 {
		t.Errorf("MaxMTU = %d, want 65536", MaxMTU)
	}
}

func TestIPsecModeIsFull(t *testing.T) {
	tests := []struct {
		present bool
		mode    string
		want    bool
	}{
		{false, "", false},
		{true, "", true}, // pre-4.15 API: an ipsecConfig without mode is Full
		{true, IPsecModeFull, true},
		{true, IPsecModeExternal, false},
		{true, IPsecModeDisabled, false},
	}
	for _, tt := range tests {
		if got := IPsecModeIsFull(tt.present, tt.mode); got != tt.want {
			t.Errorf("IPsecModeIsFull(%v, %q) = %v, want %v", tt.present, tt.mode, got, tt.want)
		}
	}
}

func TestPlanClusterMTU(t *testing.T) {
	tests := []struct {
		name        string
		link        int
		networkType string
		ipsecFull   bool
		anyIPv6     bool
		want        int
		wantErr     string
	}{
		{name: "AWS in-VPC OVN-K (the running 8901 cluster)", link: AWSInVPCMTU, networkType: OVNKubernetes, want: 8901},
		{name: "AWS in-VPC SDN", link: AWSInVPCMTU, networkType: OpenShiftSDN, want: 8951},
		{name: "AWS Local Zone OVN-K (KCS 6996487)", link: AWSEdgeZoneToRegionMTU, networkType: OVNKubernetes, want: 1200},
		{name: "AWS Local Zone SDN", link: AWSEdgeZoneToRegionMTU, networkType: OpenShiftSDN, want: 1250},
		{name: "AWS Local Zone OVN-K IPsec", link: AWSEdgeZoneToRegionMTU, networkType: OVNKubernetes, ipsecFull: true, want: 1154},
		{name: "AWS Transit Gateway", link: AWSTransitGatewayMTU, networkType: OVNKubernetes, want: 8400},
		{name: "GCP default", link: GCPDefaultMTU, networkType: OVNKubernetes, want: 1360},
		{name: "Azure", link: AzureMTU, networkType: OVNKubernetes, want: 1400},
		{
			name: "AWS Local Zone with IPv6 is refused", link: AWSEdgeZoneToRegionMTU, networkType: OVNKubernetes, anyIPv6: true,
			wantErr: "plan cluster mtu: link mtu 1300 minus Geneve overhead 100 leaves 1200, below the IPv6 minimum 1280; every link needs mtu >= 1380",
		},
		{name: "IPv6 floor exactly", link: 1380, networkType: OVNKubernetes, anyIPv6: true, want: 1280},
		{name: "IPv6 + IPsec floor exactly", link: 1426, networkType: OVNKubernetes, ipsecFull: true, anyIPv6: true, want: 1280},
		{
			name: "IPv6 + IPsec one short", link: 1425, networkType: OVNKubernetes, ipsecFull: true, anyIPv6: true,
			wantErr: "plan cluster mtu: link mtu 1425 minus Geneve+IPsec overhead 146 leaves 1279, below the IPv6 minimum 1280; every link needs mtu >= 1426",
		},
		{
			name: "IPv4 floor", link: 600, networkType: OpenShiftSDN,
			wantErr: "plan cluster mtu: link mtu 600 minus VXLAN overhead 50 leaves 550, below the IPv4 minimum 576; every link needs mtu >= 626",
		},
		{name: "capped at MaxMTU", link: 70000, networkType: OVNKubernetes, want: 65536},
		{name: "non-positive link", link: 0, networkType: OVNKubernetes, wantErr: "plan cluster mtu: link mtu 0 is not positive"},
		{name: "unknown type", link: 1500, networkType: "Kuryr", wantErr: `plan cluster mtu: unknown network type "Kuryr" (want OVNKubernetes or OpenShiftSDN)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := PlanClusterMTU(tt.link, tt.networkType, tt.ipsecFull, tt.anyIPv6)
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("PlanClusterMTU = %d, %v; want %d", got, err, tt.want)
			}
		})
	}
}

// TestKCS6996487 walks the Local Zone case end to end: a running AWS cluster at
// 8901 gains Local Zone nodes, whose 1300-byte path to the Region is now the
// smallest link.
func TestKCS6996487(t *testing.T) {
	running, err := PlanClusterMTU(AWSInVPCMTU, OVNKubernetes, false, false)
	if err != nil || running != 8901 {
		t.Fatalf("running cluster mtu = %d, %v; want 8901", running, err)
	}
	target, err := PlanClusterMTU(min(AWSInVPCMTU, AWSEdgeZoneToRegionMTU), OVNKubernetes, false, false)
	if err != nil || target != 1200 {
		t.Fatalf("target = %d, %v; want 1200", target, err)
	}
	if target != EdgePoolClusterMTUOVNKubernetes {
		t.Errorf("plan %d disagrees with the installer's edge-pool MTU %d", target, EdgePoolClusterMTUOVNKubernetes)
	}
	if sdnTarget, _ := PlanClusterMTU(AWSEdgeZoneToRegionMTU, OpenShiftSDN, false, false); sdnTarget != EdgePoolClusterMTUOpenShiftSDN {
		t.Errorf("SDN plan %d disagrees with the installer's edge-pool MTU %d", sdnTarget, EdgePoolClusterMTUOpenShiftSDN)
	}

	state := NetworkState{NetworkType: OVNKubernetes, AppliedMTU: running, CurrentConfigMTU: p(running)}
	phase1 := mig(running, target, AWSInVPCMTU) // the NICs stay at 9001
	if err := ValidateMTUChange(state, phase1); err != nil {
		t.Fatalf("phase 1 rejected: %v", err)
	}
	// After phase 1 reconciles, CNO reports network.to as the applied MTU.
	state.AppliedMTU = target
	state.AppliedMigration = phase1
	state.RequestedConfigMTU = p(target)
	if err := ValidateMTUChange(state, nil); err != nil {
		t.Fatalf("phase 2 rejected: %v", err)
	}
	state.RequestedConfigMTU = p(running)
	if err := ValidateMTUChange(state, nil); err == nil || err.Error() != "cannot change ovn-kubernetes MTU without migration" {
		t.Fatalf("phase 2 back to %d: got %v", running, err)
	}
}
