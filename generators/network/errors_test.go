package network

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/load"
	"github.com/siteforge/siteforge/internal/site"
)

// siteYAML is a site with one master pool; extra is appended (more top-level
// fields), and replace rewrites parts of it.
func siteYAML(version, lifecycle, networkType, extra string) string {
	return `apiVersion: siteforge.dev/v1alpha1
kind: Site
name: lab
cluster:
  baseDomain: example.com
  version: "` + version + `"
  platform: aws
  region: us-east-1
  installMethod: ipi
  lifecycle: ` + lifecycle + `
network:
  type: ` + networkType + `
  machineNetwork: [10.0.0.0/16]
pools:
  master:
    uplinkInterface: ens5
    uplinkMTU: 1500
    count: 3
` + extra
}

// renderSource writes src as site.yaml in a temporary folder and renders it.
func renderSource(t *testing.T, src string, strict bool) (*generators.Output, error) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "site.yaml")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	res := load.Load([]string{path})
	if len(res.Diagnostics) > 0 {
		t.Fatalf("the site does not load:\n%v\n%s", res.Diagnostics, src)
	}
	return generators.Render(res.Sites[0], generators.Options{Strict: strict})
}

// TestRefusals: input problems come back as diag.List at the user's line,
// with the message that says why.
func TestRefusals(t *testing.T) {
	tests := []struct {
		name   string
		src    string
		strict bool
		want   []string // "line:col: path: message prefix"
	}{
		{
			name: "mtu.target larger than the links allow",
			src:  siteYAML("4.16", "running", "OVNKubernetes", "mtu:\n  current: 1400\n  target: 1450\n"),
			want: []string{"21:11: mtu.target: mtu.target 1450 does not fit the links: the smallest link MTU is 1500 (uplink of pool master) and Geneve needs 100 bytes, so the cluster MTU can be at most 1400"},
		},
		{
			name: "mtu.target below the IPv6 floor",
			src: strings.Replace(siteYAML("4.16", "install", "OVNKubernetes", "mtu:\n  target: 1200\n"),
				"  machineNetwork:", "  clusterNetwork: [{cidr: \"fd01::/48\", hostPrefix: 64}]\n  serviceNetwork: [\"fd02::/112\"]\n  machineNetwork:", 1),
			want: []string{`22:11: mtu.target: mtu.target 1200 is not a legal cluster MTU: CNO accepts 1280-65536 because a clusterNetwork is IPv6 (CNO validateOVNKubernetes: "invalid MTU 1200")`},
		},
		{
			name: "an IPv6 cluster cannot reach a Local Zone (platform default path)",
			src: strings.Replace(siteYAML("4.16", "install", "OVNKubernetes",
				"  edge:\n    role: worker\n    placement: aws-local-zone\n    uplinkInterface: ens5\n    uplinkMTU: 9001\n    count: 1\n"),
				"  machineNetwork:", "  clusterNetwork: [{cidr: \"fd01::/48\", hostPrefix: 64}]\n  serviceNetwork: [\"fd02::/112\"]\n  machineNetwork:", 1),
			want: []string{"23:16: pools.edge.placement: no legal cluster MTU: link mtu 1300 minus Geneve overhead 100 leaves 1200, below the IPv6 minimum 1280; every link needs mtu >= 1380 (path edge <-> master (edge: aws-local-zone), MTU 1300)"},
		},
		{
			name: "an offline SDN migration while an MTU migration is due",
			src:  siteYAML("4.14", "running", "OpenShiftSDN", "mtu:\n  current: 1400\nnetworkMigration:\n  to: OVNKubernetes\n"),
			want: []string{"21:1: networkMigration: phase 1 patch network/mtu-migration-phase1.patch.yaml would be rejected by the API server (operator.openshift.io/v1 Network validation): networkType migration in mode other than 'Live' may not be configured at the same time as mtu migration"},
		},
		{
			name: "a live SDN migration while an MTU migration is due",
			src:  siteYAML("4.16", "running", "OpenShiftSDN", "mtu:\n  current: 1400\nnetworkMigration:\n  to: OVNKubernetes\n  mode: live\n"),
			want: []string{"23:9: networkMigration.mode: an MTU migration (1400 -> 1450) and a live network type migration cannot run together"},
		},
		{
			name: "live migration before 4.15",
			src:  siteYAML("4.14", "running", "OpenShiftSDN", "mtu:\n  current: 1450\nnetworkMigration:\n  to: OVNKubernetes\n  mode: live\n"),
			want: []string{"23:9: networkMigration.mode: the live migration needs OpenShift 4.15 or later (documented from 4.16); cluster.version is 4.14"},
		},
		{
			name:   "live migration on 4.15 is a warning, an error under --strict",
			src:    siteYAML("4.15", "running", "OpenShiftSDN", "mtu:\n  current: 1450\nnetworkMigration:\n  to: OVNKubernetes\n  mode: live\n"),
			strict: true,
			want:   []string{"23:9: networkMigration.mode: the live migration is in CNO from 4.15 but documented only from 4.16"},
		},
		{
			name: "SDN on 4.17",
			src:  siteYAML("4.17", "running", "OpenShiftSDN", "mtu:\n  current: 1450\nnetworkMigration:\n  to: OVNKubernetes\n"),
			want: []string{"6:12: cluster.version: OpenShift SDN was removed in 4.17 (CNO rejects the network type), so a 4.17 cluster cannot be running it: migrate on 4.16 or earlier"},
		},
		{
			name: "cluster network overlapping the OVN join subnet",
			src: strings.Replace(siteYAML("4.16", "running", "OpenShiftSDN", "networkMigration:\n  to: OVNKubernetes\n  mode: live\n"),
				"  machineNetwork:", "  clusterNetwork: [{cidr: 100.64.0.0/14, hostPrefix: 23}]\n  machineNetwork:", 1),
			want: []string{"13:27: network.clusterNetwork[0].cidr: 100.64.0.0/14 overlaps OVN-Kubernetes' internal join subnet 100.64.0.0/16: the live migration to OVN-Kubernetes cannot run on it"},
		},
		// CNO's default masquerade subnet on 4.15/4.16 is 169.254.169.0/29
		// (release-4.16 pkg/network/ovn_kubernetes.go
		// defaultV4MasqueradeSubnet); 169.254.0.0/17 only from 4.17.
		{
			name: "service network overlapping the 4.16 masquerade subnet",
			src: strings.Replace(siteYAML("4.16", "running", "OpenShiftSDN", "networkMigration:\n  to: OVNKubernetes\n"),
				"  machineNetwork:", "  serviceNetwork: [169.254.168.0/22]\n  machineNetwork:", 1),
			want: []string{"13:20: network.serviceNetwork[0]: 169.254.168.0/22 overlaps OVN-Kubernetes' internal masquerade subnet 169.254.169.0/29: the offline migration to OVN-Kubernetes cannot run on it"},
		},

		{
			name: "pools with different uplink MTUs and no mtu.machine",
			src:  siteYAML("4.16", "running", "OVNKubernetes", "  worker:\n    uplinkInterface: ens5\n    uplinkMTU: 9001\nmtu:\n  current: 8901\n"),
			want: []string{"22:1: mtu: the pools' uplinks have different MTUs, and an MTU migration sets one machine MTU (machine.to) on every node's uplink"},
		},
		{
			name: "OpenShift SDN to install on 4.15",
			src:  siteYAML("4.15", "install", "OpenShiftSDN", ""),
			want: []string{"12:9: network.type: OpenShift SDN cannot be installed from OpenShift 4.15; cluster.version is 4.15"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := renderSource(t, tt.src, tt.strict)
			var dl diag.List
			if !errors.As(err, &dl) {
				t.Fatalf("want diagnostics, got %v", err)
			}
			var got []string
			for _, d := range dl {
				got = append(got, strings.TrimPrefix(d.Error(), d.Pos.File+":"))
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %d diagnostics, want %d:\n%s", len(got), len(tt.want), strings.Join(got, "\n"))
			}
			for i, w := range tt.want {
				line, rest, _ := strings.Cut(w, ": ")
				if !strings.HasPrefix(got[i], line+": error: "+rest) {
					t.Errorf("diagnostic %d =\n  %s\nwant prefix\n  %s: error: %s", i, got[i], line, rest)
				}
			}
		})
	}
}

// TestOVSBelowMinimum: the schema already refuses values below 500; the
// generator refuses them too, at the field.
func TestOVSBelowMinimum(t *testing.T) {
	s := &site.Site{
		Cluster:   site.Cluster{Version: "4.16"},
		OVS:       &site.OVS{FlowIdleTimeoutMs: ip(499)},
		Positions: site.Positions{"ovs.flowIdleTimeoutMs": {File: "site.yaml", Line: 3, Col: 22}},
	}
	_, err := ovsArtifacts(testContext(s), s)
	var dl diag.List
	if !errors.As(err, &dl) || len(dl) != 1 || dl[0].Path != "ovs.flowIdleTimeoutMs" || !strings.Contains(dl[0].Message, "below the minimum OVS accepts for other_config:max-idle (500)") {
		t.Fatalf("got %v", err)
	}
}

// TestNoMigrationWhenCurrentMatches: a running site at its planned MTU gets
// nothing; one without mtu.current cannot be migrated and gets nothing
// either.
func TestNoMigrationWhenCurrentMatches(t *testing.T) {
	for _, extra := range []string{"mtu:\n  current: 1400\n", ""} {
		o, err := renderSource(t, siteYAML("4.16", "running", "OVNKubernetes", extra), true)
		if err != nil {
			t.Fatal(err)
		}
		if len(o.Files) != 1 || len(o.Resources) != 0 { // the empty kustomization.yaml alone
			t.Errorf("%q: files %v", extra, o.Paths())
		}
	}
}

// testContext is the render context of s (its cluster.version parsed).
func testContext(s *site.Site) *generators.Context {
	ctx, err := generators.NewContext(s, generators.Options{})
	if err != nil {
		panic(err)
	}
	return ctx
}

// TestMasqueradeSubnetOfTheRelease: on 4.16 OVN-Kubernetes reserves
// 169.254.169.0/29, so a service network elsewhere in 169.254.0.0/17 (the
// 4.17 default) migrates (CNO release-4.16 defaultV4MasqueradeSubnet;
// before, siteforge refused it with the 4.17 subnet).
func TestMasqueradeSubnetOfTheRelease(t *testing.T) {
	src := strings.Replace(siteYAML("4.16", "running", "OpenShiftSDN", "networkMigration:\n  to: OVNKubernetes\n"),
		"  machineNetwork:", "  serviceNetwork: [169.254.64.0/18]\n  machineNetwork:", 1)
	if _, err := renderSource(t, src, false); err != nil {
		t.Errorf("169.254.64.0/18 on 4.16: %v", err)
	}
}
