package mtu

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/siteforge/siteforge/internal/discover"
	"github.com/siteforge/siteforge/internal/manifests"
)

// fixtureState reads a must-gather fixture of internal/archivegen.
func fixtureState(t *testing.T, name string) *manifests.State {
	t.Helper()
	res := discover.Paths([]string{filepath.Join("..", "..", "archivegen", "testdata", name)}, discover.Options{})
	if len(res.Clusters) != 1 || !res.Clusters[0].Live() {
		t.Fatalf("%s is not one must-gather: %v", name, res.Clusters)
	}
	return manifests.ReadState(res.Clusters[0].Objects)
}

// TestOfStateKCS6996487: the plan of KCS 6996487's cluster from its
// must-gather: the Local Zone nodes' 1300-byte path to the Region binds,
// the target is 1200, and the migration from the applied 8901 is due, in
// two phases with the AWS machine MTU 9001.
func TestOfStateKCS6996487(t *testing.T) {
	p, s, err := OfState(fixtureState(t, "kcs6996487"))
	if err != nil {
		t.Fatal(err)
	}
	if p.Target != 1200 || p.Current == nil || *p.Current != 8901 || !p.MigrationDue() || p.Machine != 9001 {
		t.Fatalf("plan: target %d, current %v, machine %d", p.Target, p.Current, p.Machine)
	}
	sizes := map[string]int{}
	for name, pool := range s.Pools {
		sizes[name] = pool.Size()
	}
	if sizes["master"] != 3 || sizes["worker"] != 3 || sizes["edge"] != 2 || len(sizes) != 3 {
		t.Errorf("pools %v, want master 3, worker 3, edge 2", sizes)
	}
	for _, l := range p.BindingLinks() {
		if !l.IsPath() || l.MTU != 1300 {
			t.Errorf("binding link %s (%d), want the edge paths", l.Label(), l.MTU)
		}
	}
	if s.Pools["edge"].Zone != "us-east-1-nyc-1a" || s.Positions.Of("mtu.current").Line == 0 {
		t.Errorf("edge zone %q, mtu.current at %s", s.Pools["edge"].Zone, s.Positions.Of("mtu.current"))
	}
	ph1, ph2 := p.Phases()
	if got, want := PatchCommand(ph1), `oc patch network.operator.openshift.io cluster --type=merge -p '{"spec":{"migration":{"mtu":{"machine":{"to":9001},"network":{"from":8901,"to":1200}}}}}'`; got != want {
		t.Errorf("phase 1:\n%s\nwant\n%s", got, want)
	}
	if got, want := PatchCommand(ph2), `oc patch network.operator.openshift.io cluster --type=merge -p '{"spec":{"defaultNetwork":{"ovnKubernetesConfig":{"mtu":1200}},"migration":null}}'`; got != want {
		t.Errorf("phase 2:\n%s\nwant\n%s", got, want)
	}
}

// TestOfStateFixed: at 1200 nothing is due.
func TestOfStateFixed(t *testing.T) {
	p, _, err := OfState(fixtureState(t, "kcs6996487-fixed"))
	if err != nil || p.MigrationDue() || p.Target != 1200 {
		t.Errorf("plan %+v, %v", p, err)
	}
	if ph1, _ := p.Phases(); ph1 != nil {
		t.Errorf("phases without a migration due")
	}
}

// TestOfStateKeyfileUplink: a pool's uplink is the MTU keyfile of the
// rendered config its nodes run, where it holds one.
func TestOfStateKeyfileUplink(t *testing.T) {
	st := fixtureState(t, "kcs6996487-fixed")
	var rendered string
	for _, p := range st.Pools {
		if p.Obj.Name == "worker" {
			rendered = p.MCP.Status.Configuration.Name
		}
	}
	objs, probs := manifests.Scan("rendered.yaml", []byte(`apiVersion: machineconfiguration.openshift.io/v1
kind: MachineConfig
metadata:
  name: `+rendered+`
spec:
  config:
    ignition: {version: 3.4.0}
    storage:
      files:
      - path: /etc/NetworkManager/conf.d/99-ens5-mtu.conf
        contents: {source: "data:,%5Bconnection-ens5-mtu%5D%0Amatch-device%3Dinterface-name%3Aens5%0Aethernet.mtu%3D1500%0A"}
`))
	if len(probs) > 0 || len(objs) != 1 {
		t.Fatal(probs)
	}
	st.Rendered[rendered] = manifests.MachineConfigs(objs)[0]
	p, s, err := OfState(st)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range p.Links {
		if l.IsPath() {
			continue
		}
		want := 9001
		if l.Pools[0] != "master" {
			want = 1500 // the worker pool's nodes, Local Zone ones too
		}
		if l.MTU != want || want == 1500 && (l.Pos.File != "rendered.yaml" || !strings.Contains(l.Origin, "ens5 keyfile in "+rendered)) {
			t.Errorf("%s: %d from %s at %s, want %d", l.Label(), l.MTU, l.Origin, l.Pos, want)
		}
	}
	if p.Machine != 0 || s.Pools["edge"].UplinkMTU != 1500 {
		t.Errorf("machine %d, edge uplink %d", p.Machine, s.Pools["edge"].UplinkMTU)
	}
}
