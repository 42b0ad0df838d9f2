package fidelity

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

// updateCRDsEnv rewrites crds/openshift-api/ from the module cache instead of comparing
// (go generate ./internal/_fidelity/ sets it).
const updateCRDsEnv = "FIDELITY_UPDATE_CRDS"

// TestEmbeddedCRDsMatchModule proves the embedded CRDs are byte-for-byte the files of the
// github.com/openshift/api version go.mod pins (the version whose Go types Check decodes into),
// and that crds/openshift-api/ holds nothing else.
func TestEmbeddedCRDsMatchModule(t *testing.T) {
	update := os.Getenv(updateCRDsEnv) == "1"
	version, moduleDir := openshiftAPIModuleDir(t)

	// The test binary links openshift/api: its version must be the one whose files we compare.
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range bi.Deps {
			if dep.Path == openshiftAPIModule && dep.Version != version {
				t.Fatalf("test binary links %s %s but go list reports %s", openshiftAPIModule, dep.Version, version)
			}
		}
	}

	wantVersion := openshiftAPIModule + " " + version + "\n"
	versionFile := filepath.Join(openshiftAPIDir, "VERSION")
	if got, _ := os.ReadFile(versionFile); string(got) != wantVersion {
		if update {
			writeFile(t, versionFile, []byte(wantVersion))
		} else {
			t.Errorf("%s says %q, go.mod pins %q; run go generate ./internal/_fidelity/", versionFile, strings.TrimSpace(string(got)), strings.TrimSpace(wantVersion))
		}
	}

	want := map[string]bool{versionFile: true}
	for _, k := range openshiftKinds {
		local := k.embeddedPath()
		want[local] = true
		upstream, err := os.ReadFile(filepath.Join(moduleDir, filepath.FromSlash(k.file)))
		if err != nil {
			t.Errorf("%s: %s no longer ships %s: pick the new file in crds.go (%v)", k.gvk.Kind, openshiftAPIModule, k.file, err)
			continue
		}
		got, err := os.ReadFile(local)
		if err == nil && bytes.Equal(got, upstream) {
			continue
		}
		if update {
			writeFile(t, local, upstream)
			continue
		}
		t.Errorf("%s differs from %s@%s/%s; run go generate ./internal/_fidelity/", local, openshiftAPIModule, version, k.file)
	}

	err := filepath.WalkDir(openshiftAPIDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || want[filepath.ToSlash(p)] {
			return err
		}
		if update {
			return os.Remove(p)
		}
		t.Errorf("%s is not used by any kind in crds.go; delete it", p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// openshiftAPIModuleDir finds the pinned module in the local module cache. GOPROXY=off: the
// test never downloads anything; the build of this package already needed the module.
func openshiftAPIModuleDir(t *testing.T) (version, dir string) {
	t.Helper()
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command on PATH: %v", err)
	}
	cmd := exec.Command(gobin, "list", "-m", "-json", openshiftAPIModule)
	cmd.Env = append(os.Environ(), "GOPROXY=off")
	out, err := cmd.Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("go list -m %s: %v\n%s", openshiftAPIModule, err, stderr)
	}
	var m struct{ Version, Dir string }
	if err := json.Unmarshal(out, &m); err != nil {
		t.Fatalf("go list -m %s: %v", openshiftAPIModule, err)
	}
	if m.Dir == "" {
		t.Fatalf("%s@%s is not in the module cache: go mod download %s", openshiftAPIModule, m.Version, openshiftAPIModule)
	}
	return m.Version, m.Dir
}

func writeFile(t *testing.T, name string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("updated %s", name)
}
