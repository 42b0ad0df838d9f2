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
