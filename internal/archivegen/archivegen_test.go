package archivegen

import (
	"encoding/base64"
	"flag"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/siteforge/siteforge/internal/discover"
)

var update = flag.Bool("update", false, "rewrite testdata/ from the scenarios")

// TestFixtures: the must-gathers under testdata/ are what the scenarios
// write (go test ./internal/archivegen -run TestFixtures -update rewrites
// them), so the fixtures the rules and commands are tested on are the typed
// objects' own marshalling, not hand-edited YAML.
func TestFixtures(t *testing.T) {
	for _, sc := range Scenarios {
		t.Run(sc.Name, func(t *testing.T) {
			dir := t.TempDir()
			if _, err := sc.Build().Write(filepath.Join(dir, DestDir)); err != nil {
				t.Fatal(err)
			}
			got, err := Files(dir)
			if err != nil {
				t.Fatal(err)
			}
			fixture := filepath.Join("testdata", sc.Name)
			if *update {
				if err := os.RemoveAll(fixture); err != nil {
					t.Fatal(err)
				}
				for rel, content := range got {
					p := filepath.Join(fixture, filepath.FromSlash(rel))
					if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				return
			}
			want, err := Files(fixture)
			if err != nil {
				t.Fatalf("%v (go test ./internal/archivegen -run TestFixtures -update writes it)", err)
			}
			for _, rel := range slices.Sorted(maps.Keys(got)) {
				if want[rel] != got[rel] {
					t.Errorf("%s/%s differs from what the scenario writes (-update rewrites it)", fixture, rel)
				}
			}
			for rel := range want {
				if _, ok := got[rel]; !ok {
					t.Errorf("%s/%s is not written by the scenario (-update removes it)", fixture, rel)
				}
			}
		})
	}
}

// TestMustGatherLayout: the paths oc adm inspect writes.
func TestMustGatherLayout(t *testing.T) {
	dir := t.TempDir()
	img, err := Scenarios[0].Build().Write(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(filepath.Base(img), "quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-") {
		t.Errorf("image folder %s", img)
	}
	for _, rel := range []string{
		"timestamp",
		"cluster-scoped-resources/config.openshift.io/networks.yaml",
		"cluster-scoped-resources/config.openshift.io/clusterversions/version.yaml",
		"cluster-scoped-resources/operator.openshift.io/networks/cluster.yaml",
		"cluster-scoped-resources/core/nodes/ip-10-0-208-20.ec2.internal.yaml",
		"cluster-scoped-resources/machineconfiguration.openshift.io/machineconfigpools/worker.yaml",
		"namespaces/openshift-config/core/secrets.yaml",
		"namespaces/openshift-ingress-operator/operator.openshift.io/ingresscontrollers/default.yaml",
	} {
		if _, err := os.Stat(filepath.Join(img, rel)); err != nil {
			t.Error(err)
		}
	}
	data, err := os.ReadFile(filepath.Join(img, "namespaces/openshift-config/core/secrets.yaml"))
	elided := base64.StdEncoding.EncodeToString([]byte("104 bytes long"))
	if err != nil || strings.Contains(string(data), FixtureSecret) || !strings.Contains(string(data), elided) {
		t.Errorf("the Secret's data is not elided as inspect elides it:\n%s", data)
	}
}

// TestWriteLarge: the bench's synthetic must-gather at a small size is one
// live cluster, read for what the rules need: its nodes and in-use pools,
// none of its bulk (pods without a catalog, events, logs) and none of the
// rendered configs no pool uses.
func TestWriteLarge(t *testing.T) {
	dir := filepath.Join(t.TempDir(), DestDir)
	st, err := WriteLarge(dir, 16<<20)
	if err != nil {
		t.Fatal(err)
	}
	if st.Bytes < 16<<20 || st.Namespaces == 0 || st.Pods != 40*st.Namespaces || st.Nodes != 248 || st.Old != 120 {
		t.Fatalf("stats %+v", st)
	}
	c, probs, ok := discover.LiveCluster(dir)
	if !ok || len(probs) > 0 {
		t.Fatalf("not a must-gather: %v %v", ok, probs)
	}
	count := map[string]int{}
	for _, o := range c.Objects {
		count[o.Kind]++
	}
	if count["Node"] != 248 || count["Pod"] != 0 || count["Event"] != 0 || count["ConfigMap"] != 0 || count["MachineConfig"] != 8 {
		t.Errorf("read %v", count)
	}
}
