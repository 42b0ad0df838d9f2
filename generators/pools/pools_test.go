package pools

import (
	"bytes"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/internal/_fidelity"
	"github.com/siteforge/siteforge/internal/cluster/nodes"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/load"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/site"
)

// loadExample loads examples/<name> from the repository root.
func loadExample(t *testing.T, name string) *site.Site {
	t.Helper()
	res := load.Load([]string{filepath.Join("..", "..", "examples", name)})
	if len(res.Diagnostics) > 0 {
		t.Fatalf("example %s does not load:\n%v", name, res.Diagnostics)
	}
	if len(res.Sites) != 1 {
		t.Fatalf("example %s: %d sites", name, len(res.Sites))
	}
	return res.Sites[0]
}

func render(t *testing.T, s *site.Site) map[string]generators.Artifact {
	t.Helper()
	arts, err := Generate(testContext(s), s)
	if err != nil {
		t.Fatalf("generate: %v", err)
	}
	out := map[string]generators.Artifact{}
	for _, a := range arts {
		if _, dup := out[a.Path]; dup {
			t.Fatalf("two artifacts write %s", a.Path)
		}
		out[a.Path] = a
	}
	return out
}

func encode(t *testing.T, a generators.Artifact) []byte {
	t.Helper()
	b, err := generators.EncodeObject(a.Object, "test")
	if err != nil {
		t.Fatalf("%s: %v", a.Path, err)
	}
	return b
}

// checkAll runs every Resource, and every File holding a manifest, through
// the fidelity checker.
func checkAll(t *testing.T, arts map[string]generators.Artifact) {
	t.Helper()
	for _, p := range sortedPaths(arts) {
		a := arts[p]
		var doc []byte
		switch {
		case a.Role == generators.Resource:
			doc = encode(t, a)
		case strings.HasSuffix(p, ".yml") || strings.HasSuffix(p, ".yaml"):
			doc = a.Data
		default:
			continue
		}
		if err := fidelity.Check(doc); err != nil {
			t.Errorf("%s: %v\n%s", p, err, doc)
		}
	}
}

func sortedPaths(m map[string]generators.Artifact) []string {
	var ps []string
	for p := range m {
		ps = append(ps, p)
	}
	sort.Strings(ps)
	return ps
}

func TestRemoteWorkersExample(t *testing.T) {
	s := loadExample(t, "remote-workers")
	arts := render(t, s)
	want := []string{
		"pools/50-remote-worker-fix-ipi-rwn.bu",
		"pools/cluster-scheduler-02-config.yml",
		"pools/label-nodes.sh",
		"pools/machineconfig-50-remote-worker-fix-ipi-rwn.yaml",
		"pools/machineconfigpool-remote-worker.yaml",
	}
	if got := sortedPaths(arts); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("paths:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	checkAll(t, arts)

	mcp := string(encode(t, arts["pools/machineconfigpool-remote-worker.yaml"]))
	for _, w := range []string{
		"key: machineconfiguration.openshift.io/role",
		"operator: In",
		"values:\n      - worker\n      - remote-worker",
		"node-role.kubernetes.io/remote-worker: \"\"",
	} {
		if !strings.Contains(mcp, w) {
			t.Errorf("MachineConfigPool lacks %q:\n%s", w, mcp)
		}
	}

	mc := string(encode(t, arts["pools/machineconfig-50-remote-worker-fix-ipi-rwn.yaml"]))
	for _, w := range []string{
		"machineconfiguration.openshift.io/role: remote-worker",
		"path: /etc/kubernetes/manifests/keepalived.yaml",
		"source: data:,",
		"name: 50-remote-worker-fix-ipi-rwn",
	} {
		if !strings.Contains(mc, w) {
			t.Errorf("keepalived MachineConfig lacks %q:\n%s", w, mc)
		}
	}

	sched := string(arts["pools/cluster-scheduler-02-config.yml"].Data)
	if !strings.Contains(sched, "mastersSchedulable: true") || !strings.Contains(sched, "kind: Scheduler") {
		t.Errorf("scheduler file:\n%s", sched)
	}

	script := string(arts["pools/label-nodes.sh"].Data)
	for _, n := range []string{"remote-worker-0", "remote-worker-1", "remote-worker-2"} {
		if !strings.Contains(script, "oc label node "+n+" node-role.kubernetes.io/remote-worker= --overwrite") {
			t.Errorf("label script misses %s:\n%s", n, script)
		}
	}
	if !strings.Contains(script, "MachineSet") {
		t.Errorf("label script has no MachineSet note for an IPI pool:\n%s", script)
	}
}

func TestDeterministic(t *testing.T) {
	s := loadExample(t, "remote-workers")
	a, b := render(t, s), render(t, s)
	for p, x := range a {
		y := b[p]
		if x.Role == generators.Resource {
			if !bytes.Equal(encode(t, x), encode(t, y)) {
				t.Errorf("%s differs between renders", p)
			}
		} else if !bytes.Equal(x.Data, y.Data) {
			t.Errorf("%s differs between renders", p)
		}
	}
}

// remoteSite is a small site with one remote custom pool.
func remoteSite(version, platform, method string, vips bool) *site.Site {
	s := &site.Site{
		Name:    "t",
		Cluster: site.Cluster{Name: "t", BaseDomain: "example.com", Version: version, Platform: platform, InstallMethod: method, Lifecycle: "install"},
		Network: site.Network{Type: "OVNKubernetes", MachineNetwork: []string{"10.10.0.0/24", "10.20.0.0/24"}},
		Pools: map[string]site.Pool{
			"master": {Name: "master", Role: site.RoleMaster, Placement: "plain", Nodes: []site.Node{{Name: "m0", IP: "10.10.0.11"}}},
			"worker": {Name: "worker", Role: site.RoleWorker, Placement: "plain", Nodes: []site.Node{{Name: "w0", IP: "10.10.0.21"}}},
			"edge":   {Name: "edge", Role: site.RoleCustom, Placement: "remote", Subnets: []string{"10.20.0.0/24"}, Nodes: []site.Node{{Name: "e0", IP: "10.20.0.11"}}},
		},
	}
	if vips {
		s.Network.APIVIPs = []string{"10.10.0.5"}
		s.Network.IngressVIPs = []string{"10.10.0.6"}
	}
	return s
}

func TestKeepalivedFixByVersionAndPlatform(t *testing.T) {
	fix := "pools/machineconfig-50-edge-fix-ipi-rwn.yaml"
	for _, tc := range []struct {
		name                     string
		version, platform, inst  string
		vips                     bool
		wantFix, wantSchedulable bool
	}{
		{"4.12 baremetal IPI: manual method", "4.12", "baremetal", "ipi", true, true, true},
		{"4.13 baremetal IPI: detected automatically", "4.13", "baremetal", "ipi", true, false, false},
		{"4.16.3 baremetal IPI: detected automatically", "4.16.3", "baremetal", "ipi", true, false, false},
		{"4.14 baremetal agent: no automatic handling", "4.14", "baremetal", "agent", true, true, true},
		{"4.14 vsphere IPI: no automatic handling", "4.14", "vsphere", "ipi", true, true, true},
		{"no VIPs: no keepalived to stop", "4.12", "baremetal", "upi", false, false, false},
		{"platform none: no keepalived", "4.12", "none", "agent", true, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			arts := render(t, remoteSite(tc.version, tc.platform, tc.inst, tc.vips))
			if _, ok := arts[fix]; ok != tc.wantFix {
				t.Errorf("keepalived MachineConfig rendered = %v, want %v", ok, tc.wantFix)
			}
			if _, ok := arts[schedulerPath]; ok != tc.wantSchedulable {
				t.Errorf("scheduler file rendered = %v, want %v", ok, tc.wantSchedulable)
			}
			if _, ok := arts["pools/machineconfigpool-edge.yaml"]; !ok {
				t.Error("custom pool without MachineConfigPool")
			}
			checkAll(t, arts)
		})
	}
}

func TestRemoteWorkerRolePool(t *testing.T) {
	// A remote pool with role worker: the fix goes to role worker.
	s := remoteSite("4.12", "baremetal", "ipi", true)
	w := s.Pools["worker"]
	w.Placement = "remote"
	s.Pools["worker"] = w
	arts := render(t, s)
	if _, ok := arts["pools/machineconfig-50-worker-fix-ipi-rwn.yaml"]; !ok {
		t.Errorf("no fix for the remote worker pool: %v", sortedPaths(arts))
	}
}

func TestPoolDiagnostics(t *testing.T) {
	for _, tc := range []struct {
		name   string
		mutate func(s *site.Site)
		want   string
	}{
		{"node in two pools", func(s *site.Site) {
			w := s.Pools["worker"]
			w.Nodes = append(w.Nodes, site.Node{Name: "e0", IP: "10.10.0.99"})
			s.Pools["worker"] = w
		}, `node "e0" is already listed in pool "edge"`},
		{"label joins another custom pool", func(s *site.Site) {
			s.Pools["infra"] = site.Pool{Name: "infra", Role: site.RoleCustom, Placement: "plain"}
			e := s.Pools["edge"]
			e.Labels = map[string]string{"node-role.kubernetes.io/infra": ""}
			s.Pools["edge"] = e
		}, "may match only one custom pool"},
		{"remote masters", func(s *site.Site) {
			m := s.Pools["master"]
			m.Placement = "remote"
			s.Pools["master"] = m
		}, "the control plane cannot be remote"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := remoteSite("4.12", "baremetal", "ipi", true)
			tc.mutate(s)
			_, err := Generate(testContext(s), s)
			dl, ok := err.(diag.List)
			if !ok || !strings.Contains(dl.Error(), tc.want) {
				t.Fatalf("got %v, want a diagnostic containing %q", err, tc.want)
			}
		})
	}
}

func TestNodeLabels(t *testing.T) {
	s := remoteSite("4.12", "baremetal", "ipi", true)
	got, _ := yaml.Marshal(map[string]any{
		"master": nodes.NodeLabels(s, 12, "master"),
		"worker": nodes.NodeLabels(s, 12, "worker"),
		"edge":   nodes.NodeLabels(s, 12, "edge"),
	})
	want := `edge:
  kubernetes.io/os: linux
  node-role.kubernetes.io/edge: ""
  node-role.kubernetes.io/worker: ""
master:
  kubernetes.io/os: linux
  node-role.kubernetes.io/master: ""
  node-role.kubernetes.io/worker: ""
worker:
  kubernetes.io/os: linux
  node-role.kubernetes.io/worker: ""
`
	if string(got) != want {
		t.Errorf("4.12 (masters schedulable):\n%s\nwant:\n%s", got, want)
	}
	s.Cluster.Version = "4.13"
	if l := nodes.NodeLabels(s, 13, "edge"); l[platform.RemoteWorkerLabel] != "" || len(l) != 4 {
		t.Errorf("4.13 edge labels %v: want the remote-worker label", l)
	}
	if _, ok := nodes.NodeLabels(s, 13, "master")[platform.WorkerRoleLabel]; ok {
		t.Error("4.13: masters are not made schedulable")
	}
}

func TestMachineConfigPoolSelects(t *testing.T) {
	mcp := MachineConfigPool("remote-worker")
	if !nodes.InheritsWorker(mcp.Spec.MachineConfigSelector) {
		t.Error("a custom pool siteforge writes must inherit worker")
	}
	if nodes.SelectsRole(mcp.Spec.MachineConfigSelector, "master") {
		t.Error("a custom pool siteforge writes must not take the master configs")
	}
	if !nodes.SelectsRole(mcp.Spec.MachineConfigSelector, "remote-worker") {
		t.Error("a custom pool takes its own configs")
	}
	if nodes.InheritsWorker(&metav1.LabelSelector{MatchLabels: map[string]string{platform.MachineConfigRoleLabel: "infra"}}) {
		t.Error("matchLabels role: infra does not inherit worker")
	}
	if nodes.RequiresLabel(mcp.Spec.NodeSelector, platform.MasterRoleLabel) || !nodes.RequiresLabel(mcp.Spec.NodeSelector, nodes.NodeRoleLabel("remote-worker")) {
		t.Error("RequiresLabel")
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
