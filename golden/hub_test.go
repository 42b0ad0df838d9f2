package golden

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/siteforge/siteforge/generators/hub"
	"github.com/siteforge/siteforge/internal/_fidelity"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/upstream"
)

// TestGoldenClusterInstances: every golden ClusterInstance strictly decodes
// into siteforge's typed struct and validates against the siteconfig CRD
// (schema and CEL; ../shared/upstream/siteconfig, skipped loudly when
// absent), and every extraManifestsRefs entry names a ConfigMap rendered
// beside it, in its namespace, whose keys are manifest files that read back
// as valid objects.
func TestGoldenClusterInstances(t *testing.T) {
	var found []string
	err := filepath.WalkDir(".", func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(p) != ".yaml" {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if kindOf(data) == platform.ClusterInstanceKind {
			found = append(found, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(found) == 0 {
		t.Fatal("no golden ClusterInstance: the fleet example is installed from a hub")
	}
	for _, p := range found {
		// The site's hub folder as a files map, paths relative to the site.
		siteDir := filepath.Dir(filepath.Dir(p))
		files := map[string][]byte{}
		entries, err := os.ReadDir(filepath.Dir(p))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			b, err := os.ReadFile(filepath.Join(filepath.Dir(p), e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			files[hub.Dir+"/"+e.Name()] = b
		}
		for _, err := range fidelity.CheckExtraManifestsRefs(files, hub.ClusterInstancePath, platform.ExtraManifestKeyExtensions) {
			t.Errorf("%s: %v", siteDir, err)
		}
	}
	if err := fidelity.RegisterClusterInstance(func() any { return &upstream.ClusterInstance{} }); err != nil {
		if errors.Is(err, fidelity.ErrNoSharedCRD) {
			t.Skipf("SKIPPING validation of %d golden ClusterInstances against the CRD: %v", len(found), err)
		}
		t.Fatal(err)
	}
	for _, p := range found {
		data, _ := os.ReadFile(p)
		if err := fidelity.Check(data); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
	t.Logf("%d golden ClusterInstances: extraManifestsRefs checked, validated against the siteconfig CRD (schema, CEL)", len(found))
}
