package network

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/internal/_fidelity"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/load"
	"github.com/siteforge/siteforge/internal/platform"
)

// The phase fixtures (testdata/mtu-git-phase1, -phase2) are
// examples/aws-local-zones with mtu.target written out.
const (
	gitPhase1Site = "testdata/mtu-git-phase1/site.yaml"
	gitPhase2Site = "testdata/mtu-git-phase2/site.yaml"
)

// TestMTUGitPhaseObjects: each phase is one Resource, the partial Network
// "cluster" with the Argo CD options; phase 1 owns spec.migration.mtu only,
// phase 2 the final mtu only and no spec.migration (so server-side apply
// removes it: CNO pkg/controller/operconfig/cluster.go UpdateOperConfig never
// owns spec.migration). Both pass the fidelity harness (strict decode into
// operator/v1 Network, the Network CRD schema and CEL).
func TestMTUGitPhaseObjects(t *testing.T) {
	for _, tc := range []struct {
		site     string
		wantSpec string
	}{
		{gitPhase1Site, `{"migration": {"mtu": {"network": {"from": 8901, "to": 1200}, "machine": {"to": 9001}}}}`},
		{gitPhase2Site, `{"defaultNetwork": {"ovnKubernetesConfig": {"mtu": 1200}}}`},
	} {
		o := render(t, tc.site, true)
		if !reflect.DeepEqual(o.Resources, []string{mtuGitObject}) {
			t.Errorf("%s: resources %v, want [%s]", tc.site, o.Resources, mtuGitObject)
		}
		for _, p := range []string{mtuPhase1PatchYAML, mtuPhase2PatchYAML, mtuPhase1Kustomize, mtuPhase2Kustomize} {
			if _, ok := o.Files[p]; ok {
				t.Errorf("%s: %s rendered: a patch applied by hand would co-own spec.migration", tc.site, p)
			}
		}
		m := decode(t, o, mtuGitObject)
		var want any
		_ = yaml.Unmarshal([]byte(tc.wantSpec), &want)
		if got := m["spec"]; !reflect.DeepEqual(got, want) {
			t.Errorf("%s: spec = %v, want %v", tc.site, got, want)
		}
		ann, _ := lookup(m, "metadata", "annotations")
		a, _ := ann.(map[string]any)
		opts := strings.Split(a[platform.ArgoCDSyncOptionsAnnotation].(string), ",")
		for _, w := range []string{"ServerSideApply=true", "Prune=false", "Delete=false"} {
			if !slices.Contains(opts, w) {
				t.Errorf("%s: sync options %v lack %s", tc.site, opts, w)
			}
		}
		if a[platform.ArgoCDCompareOptionsAnnotation] != "IgnoreExtraneous" {
			t.Errorf("%s: compare options %v", tc.site, a[platform.ArgoCDCompareOptionsAnnotation])
		}
		if err := fidelity.Check(o.Files[mtuGitObject]); err != nil {
			t.Errorf("%s: %v", tc.site, err)
		}
	}
	// Phase 2 carries no spec.migration at all: not even a null, which
	// server-side apply would not treat as "no longer owned".
	m := decode(t, render(t, gitPhase2Site, true), mtuGitObject)
	if _, ok := lookup(m, "spec", "migration"); ok {
		t.Errorf("phase 2 object has spec.migration: %v", m["spec"])
	}
}

// TestMTUGitRunbook: the runbook says which phase the site is in and what
// the next commit changes, and has no oc patch step.
func TestMTUGitRunbook(t *testing.T) {
	for site, wants := range map[string][]string{
		gitPhase1Site: {"## From git: this site is in phase 1", "set `mtu.migration.phase: \"2\"` (keep `mtu.current: 8901` and `mtu.target: 1200`)"},
		gitPhase2Site: {"## From git: this site is in phase 2", "set `mtu.migration.phase: \"done\"` and `mtu.current: 1200`", "argocd-controller Apply"},
	} {
		rb := string(render(t, site, true).Files[mtuRunbook])
		for _, w := range wants {
			if !strings.Contains(rb, w) {
				t.Errorf("%s: runbook lacks %q", site, w)
			}
		}
		if strings.Contains(rb, "oc patch "+platform.OperatorNetworkResource) || strings.Contains(rb, ".patch.yaml") {
			t.Errorf("%s: the runbook of a migration from git tells to oc patch", site)
		}
	}
}

// TestMTUGitKustomizeBuild: the phase renders build with the pinned
// kustomize (KUSTOMIZE, set by make test) and what it prints passes the
// fidelity harness.
func TestMTUGitKustomizeBuild(t *testing.T) {
	kustomize := os.Getenv("KUSTOMIZE")
	if kustomize == "" {
		t.Skip("KUSTOMIZE is not set: run through `make test`, which installs the pinned kustomize")
	}
	for _, site := range []string{gitPhase1Site, gitPhase2Site} {
		o := render(t, site, true)
		dir := t.TempDir()
		for p, b := range o.Files {
			dst := filepath.Join(dir, filepath.FromSlash(p))
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(dst, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		out, err := exec.Command(kustomize, "build", dir).CombinedOutput()
		if err != nil {
			t.Fatalf("%s: kustomize build: %v\n%s", site, err, out)
		}
		if err := fidelity.CheckStream(out); err != nil {
			t.Errorf("%s: kustomize build output: %v\n%s", site, err, out)
		}
		var got map[string]any
		if err := yaml.Unmarshal(out, &got); err != nil || got["kind"] != "Network" {
			t.Errorf("%s: kustomize build printed %s", site, out)
		}
	}
}

// TestMTUGitDone: phase "done" with mtu.current at the target renders
// nothing; the object has left git.
func TestMTUGitDone(t *testing.T) {
	src := strings.Replace(mustRead(t, gitPhase2Site), `phase: "2"`, `phase: "done"`, 1)
	src = strings.Replace(src, "current: 8901", "current: 1200", 1)
	o, err := renderSource(t, src, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(o.Files) != 1 || len(o.Resources) != 0 { // the empty kustomization.yaml alone
		t.Errorf("done: files %v", o.Paths())
	}
}

func mustRead(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// loadOrRender returns the loader's diagnostics (what `siteforge vet`
// reports), else the render's (what `siteforge render` and `lint` of the
// site report).
func loadOrRender(t *testing.T, src string) diag.List {
	t.Helper()
	path := filepath.Join(t.TempDir(), "site.yaml")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	res := load.Load([]string{path})
	if len(res.Diagnostics) > 0 {
		return res.Diagnostics
	}
	_, err := generators.Render(res.Sites[0], generators.Options{})
	var dl diag.List
	if err != nil && !errors.As(err, &dl) {
		t.Fatal(err)
	}
	return dl
}

// TestMTUGitTransitions: every phase the site cannot be in is refused, at
// the field to change, with a fix: what the site states itself at load time
// (vet), what contradicts the MTU plan or CNO's verdicts at render time.
// Each refusal has a passing neighbour (the fixtures, TestMTUGitDone).
func TestMTUGitTransitions(t *testing.T) {
	phase1 := mustRead(t, gitPhase1Site)
	phase2 := mustRead(t, gitPhase2Site)
	tests := []struct {
		name string
		src  string
		want []string // "line:col: path: message prefix"
	}{
		{
			name: "phase 1 on a cluster to install",
			src:  strings.Replace(strings.Replace(phase1, "lifecycle: running", "lifecycle: install", 1), "  current: 8901\n", "", 1),
			want: []string{`47:12: mtu.migration.phase: mtu.migration.phase "1" on a cluster to install`},
		},
		{
			name: "phase 2 without phase 1 values: no mtu.current (network.from)",
			src:  strings.Replace(strings.Replace(phase2, "  current: 8901\n", "", 1), "  target: 1200\n", "", 1),
			want: []string{`46:12: mtu.migration.phase: mtu.migration.phase "2" needs mtu.current`},
		},
		{
			name: "phase 1 when the cluster is already at the target",
			src:  strings.Replace(phase1, "current: 8901", "current: 1200", 1),
			want: []string{`48:12: mtu.migration.phase: mtu.migration.phase "1" but mtu.current 1200 already is the target`},
		},
		{
			name: "phase 2 with a computed target (it can differ from phase 1's network.to)",
			src:  strings.Replace(phase2, "  target: 1200\n", "", 1),
			want: []string{`47:12: mtu.migration.phase: mtu.migration.phase "2" needs mtu.target written out`},
		},
		{
			// api operator/v1 NetworkMigration XValidation (the CRD's CEL
			// rule): an offline networkType migration cannot sit next to
			// spec.migration.mtu.
			name: "phase 1 while an offline network type migration is set",
			src:  strings.Replace(strings.Replace(phase1, "type: OVNKubernetes", "type: OpenShiftSDN", 1), "mtu:\n", "networkMigration:\n  to: OVNKubernetes\nmtu:\n", 1),
			want: []string{`43:1: networkMigration: phase 1 (network/mtu-migration.yaml) would be rejected by the API server (operator.openshift.io/v1 Network validation): networkType migration in mode other than 'Live' may not be configured at the same time as mtu migration`},
		},
		{
			name: "phase 1 while a live network type migration runs",
			src:  strings.Replace(strings.Replace(phase1, "type: OVNKubernetes", "type: OpenShiftSDN", 1), "mtu:\n", "networkMigration:\n  to: OVNKubernetes\n  mode: live\nmtu:\n", 1),
			want: []string{`45:9: networkMigration.mode: an MTU migration (8901 -> 1200) and a live network type migration cannot run together`},
		},
		{
			name: "done while mtu.current is not the target",
			src:  strings.Replace(phase2, `phase: "2"`, `phase: "done"`, 1),
			want: []string{`44:12: mtu.current: mtu.migration.phase is "done" but mtu.current 8901 is not the target 1200`},
		},
		{
			name: "phase 1 of a migration that also changes the uplink MTU",
			src:  strings.Replace(strings.Replace(phase1, "machine: 9001", "machine: 8000", 1), "target: 1200", "target: 1200", 1),
			want: []string{`48:12: mtu.migration.phase: mtu.migration.phase "1": this migration also changes the uplink MTU to 8000`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dl := loadOrRender(t, tt.src)
			if len(dl) == 0 {
				t.Fatal("want diagnostics, got none")
			}
			var got []string
			for _, d := range dl {
				if d.Hint == "" {
					t.Errorf("no fix hint: %v", d)
				}
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
