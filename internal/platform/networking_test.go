package platform

import "testing"

func TestNMMTUKeyfile(t *testing.T) {
	if got, want := NMMTUKeyfilePath("ens5"), "/etc/NetworkManager/conf.d/99-ens5-mtu.conf"; got != want {
		t.Errorf("path = %q, want %q", got, want)
	}
	want := "[connection-ens5-mtu]\nmatch-device=interface-name:ens5\nethernet.mtu=9001\n"
	if got := NMMTUKeyfile("ens5", 9001); got != want {
		t.Errorf("keyfile =\n%s\nwant\n%s", got, want)
	}
	if NMMTUKeyfileMode != 0o600 {
		t.Errorf("mode = %o, want 600", NMMTUKeyfileMode)
	}
}

func TestEdgePoolClusterMTU(t *testing.T) {
	for nt, want := range map[string]int{OVNKubernetes: 1200, OpenShiftSDN: 1250} {
		got, ok := EdgePoolClusterMTU(nt)
		if !ok || got != want {
			t.Errorf("EdgePoolClusterMTU(%s) = %d, %v; want %d", nt, got, ok, want)
		}
		// The installer's value is exactly the Local Zone path minus the overlay.
		if got != AWSEdgeZoneToRegionMTU-Overhead(nt, false) {
			t.Errorf("%s edge MTU %d != %d - overhead", nt, got, AWSEdgeZoneToRegionMTU)
		}
	}
	if _, ok := EdgePoolClusterMTU("Calico"); ok {
		t.Error("EdgePoolClusterMTU(Calico) reported a value")
	}
}

func TestParseOCPMinor(t *testing.T) {
	for in, want := range map[string]OCPMinor{"4.10": 10, "4.16.3": 16, "v4.17.0-rc.1": 17, " 4.8 ": 8} {
		got, err := ParseOCPMinor(in)
		if err != nil || got != want {
			t.Errorf("ParseOCPMinor(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "4", "3.11", "4.x", "5.0"} {
		if _, err := ParseOCPMinor(in); err == nil {
			t.Errorf("ParseOCPMinor(%q) accepted", in)
		}
	}
	if got := SDNRemovedSince.String(); got != "4.17" {
		t.Errorf("SDNRemovedSince = %s, want 4.17", got)
	}
	if !(MTUMigrationSince < SDNDeprecatedSince && SDNDeprecatedSince < SDNNotInstallableSince && SDNNotInstallableSince < SDNRemovedSince) {
		t.Error("version gates out of order")
	}
}

// TestInstallerClusterMTUError follows openshift/installer
// pkg/types/validation/installconfig_test.go, cases "networking
// clusterNetworkMTU - ..." (validInstallConfig is AWS with OVNKubernetes).
func TestInstallerClusterMTUError(t *testing.T) {
	for _, tc := range []struct {
		name, platform, networkType string
		mtu                         int
		want                        string
	}{
		{"unset", "baremetal", OpenShiftSDN, 0, ""},
		{"valid high limit ovn", "aws", OVNKubernetes, 8901, ""},
		{"valid low limit", "aws", OVNKubernetes, 1000, ""},
		{"edge value", "aws", OVNKubernetes, 1200, ""},
		{"invalid value lower", "aws", OVNKubernetes, 999, "cluster network MTU is lower than the minimum value of 1000"},
		{"invalid value ovn", "aws", OVNKubernetes, 8951, "cluster network MTU exceeds the maximum value with the network plugin OVNKubernetes of 8901"},
		{"one above ovn", "aws", OVNKubernetes, 8902, "cluster network MTU exceeds the maximum value with the network plugin OVNKubernetes of 8901"},
		{"invalid jumbo value", "aws", OVNKubernetes, 9002, "cluster network MTU exceeds the maximum value of 9001"},
		{"invalid for non-aws", "none", OVNKubernetes, 8901, "cluster network MTU is allowed only in AWS deployments"},
		{"unsupported network type", "aws", OpenShiftSDN, 8000, "cluster network MTU is not valid with network plugin OpenShiftSDN"},
		// the order of the checks: the platform first, then the VPC range,
		// then the network type
		{"non-aws and out of range", "gcp", OVNKubernetes, 99999, "cluster network MTU is allowed only in AWS deployments"},
		{"SDN and too low", "aws", OpenShiftSDN, 500, "cluster network MTU is lower than the minimum value of 1000"},
	} {
		if got := InstallerClusterMTUError(tc.platform, tc.networkType, tc.mtu); got != tc.want {
			t.Errorf("%s: InstallerClusterMTUError(%s, %s, %d) = %q, want %q", tc.name, tc.platform, tc.networkType, tc.mtu, got, tc.want)
		}
	}
}

// TestOVNDefaultMasqueradeSubnets: CNO release-4.16 defaultV4MasqueradeSubnet
// 169.254.169.0/29 (fd69::/125), release-4.17 169.254.0.0/17 (fd69::/112).
func TestOVNDefaultMasqueradeSubnets(t *testing.T) {
	for minor, want := range map[OCPMinor][2]string{
		15:          {"169.254.169.0/29", "fd69::/125"},
		16:          {"169.254.169.0/29", "fd69::/125"},
		17:          {"169.254.0.0/17", "fd69::/112"},
		LatestMinor: {"169.254.0.0/17", "fd69::/112"},
	} {
		if v4, v6 := OVNDefaultMasqueradeSubnets(minor); v4 != want[0] || v6 != want[1] {
			t.Errorf("OVNDefaultMasqueradeSubnets(%s) = %s, %s; want %s, %s", minor, v4, v6, want[0], want[1])
		}
	}
	if SDNLastMinor.String() != "4.16" {
		t.Errorf("SDNLastMinor = %s", SDNLastMinor)
	}
	for nt, want := range map[string]bool{OVNKubernetes: true, OpenShiftSDN: true, "None": false, "Calico": false, "": false} {
		if LiveMigrationTargetSupported(nt) != want {
			t.Errorf("LiveMigrationTargetSupported(%q) = %v", nt, !want)
		}
	}
}

// TestCanonicalNetworkType: the spellings the installer (pkg/types/conversion
// ConvertNetworking, strings.EqualFold) and CNO (pkg/network/render.go
// DeprecatedCanonicalize) read as OpenShiftSDN or OVNKubernetes, CNO's old
// NetworkTypeDeprecatedOpenshiftSDN among them; other types are kept.
func TestCanonicalNetworkType(t *testing.T) {
	for in, want := range map[string]string{
		DeprecatedOpenshiftSDN: OpenShiftSDN,
		"OpenShiftSDN":         OpenShiftSDN,
		"openshiftsdn":         OpenShiftSDN,
		"OVNKubernetes":        OVNKubernetes,
		"ovnkubernetes":        OVNKubernetes,
		"Calico":               "Calico",
		"OpenShift-SDN":        "OpenShift-SDN",
		"":                     "",
	} {
		if got := CanonicalNetworkType(in); got != want {
			t.Errorf("CanonicalNetworkType(%q) = %q, want %q", in, got, want)
		}
	}
}
