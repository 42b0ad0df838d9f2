package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestKptRender runs the kpt package of docs/integrations.md with the real
// kpt: `kpt fn render --allow-exec` three times leaves one copy of each
// object SiteRender generates, each in its own file under <site>/, and the
// site folder (in .krmignore) is not read as resources.
func TestKptRender(t *testing.T) {
	kpt := os.Getenv("KPT")
	if kpt == "" {
		var err error
		if kpt, err = exec.LookPath("kpt"); err != nil {
			t.Skip("SKIPPED: kpt is not installed, so SiteRender is NOT tested with the real kpt (the ResourceList contract is tested in cmd/siteforge/internal/krm); put kpt on PATH or set KPT")
		}
	}
	pkg := t.TempDir()
	writeFiles(t, pkg, map[string]string{
		"site/site.yaml":  readFile(t, filepath.Join(root, "examples", "kustomize", "site", "site.yaml")),
		"Kptfile":         "apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: lab\npipeline:\n  mutators:\n  - exec: \"siteforge fn\"\n    configPath: siterender.yaml\n",
		"siterender.yaml": "apiVersion: siteforge.dev/v1alpha1\nkind: SiteRender\nmetadata:\n  name: lab-kustomize\n  annotations:\n    config.kubernetes.io/local-config: \"true\"\nspec:\n  paths: [site]\n",
		".krmignore":      "site/\n",
	})
	want := siteforge(t, filepath.Join(root, "examples", "kustomize"), "render", "--stdout", "site")
	objects := len(parseStream(t, want.stdout))
	for i := 1; i <= 3; i++ {
		res := run(t, pkg, nil, kpt, "fn", "render", "--allow-exec")
		if res.code != 0 {
			t.Fatalf("kpt fn render (run %d): %v", i, res)
		}
		files, _ := filepath.Glob(filepath.Join(pkg, "lab-kustomize", "*.yaml"))
		var got int
		for _, f := range files {
			got += len(parseStream(t, readFile(t, f)))
		}
		if got != objects || len(files) != objects {
			t.Fatalf("after run %d: %d objects in %d files under lab-kustomize/, want %d, one per file", i, got, len(files), objects)
		}
	}
	if site := readFile(t, filepath.Join(pkg, "site", "site.yaml")); !strings.Contains(site, "kind: Site") {
		t.Errorf("kpt changed the site file")
	}
}
