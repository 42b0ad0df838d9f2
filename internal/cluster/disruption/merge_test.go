package disruption

import (
	"errors"
	"slices"
	"testing"

	"github.com/siteforge/siteforge/internal/platform"
)

// TestMerge derives from MCO pkg/controller/common/helpers_test.go
// TestMergeMachineConfigs, TestSetDefaultFileOverwrite and
// TestIgnitionMergeCompressed (MergeMachineConfigs).
func TestMerge(t *testing.T) {
	minor := platform.LatestMinor

	// "a singular base config that sets FIPS also sets other defaults"
	r := render(t, minor, mc(t, mcOpts{name: "fips", raw: "", fips: true}))
	if !r.FIPS || r.KernelType != platform.KernelTypeDefault || r.Ignition.Ignition.Version != "3.5.0" {
		t.Errorf("defaults: %+v", r)
	}

	// "duplicate file: the newest one is preserved" (by name order), and
	// kernel arguments and extensions concatenated in name order
	r = render(t, minor,
		mc(t, mcOpts{name: "99-b", files: []file{{"/etc/a", "b"}}, kargs: []string{"b=1"}, extensions: []string{"usbguard"}}),
		mc(t, mcOpts{name: "00-a", files: []file{{"/etc/a", "a"}}, kargs: []string{"a=1"}, extensions: []string{"sysstat"}}),
	)
	if len(r.Ignition.Storage.Files) != 1 || contents(t, r) != "b" {
		t.Errorf("later file should win: %+v", r.Ignition.Storage.Files)
	}
	if !slices.Equal(r.KernelArguments, []string{"a=1", "b=1"}) || !slices.Equal(r.Extensions, []string{"sysstat", "usbguard"}) {
		t.Errorf("kargs %v extensions %v", r.KernelArguments, r.Extensions)
	}
	// TestSetDefaultFileOverwrite: overwrite defaults to true
	if o := r.Ignition.Storage.Files[0].Overwrite; o == nil || !*o {
		t.Errorf("overwrite not defaulted to true")
	}

	// "custom pool configuration can overwrite base pool configuration":
	// from 4.15 the worker configs merge first whatever their names.
	custom := mc(t, mcOpts{name: "00-infra-chrony", role: "infra", files: []file{{"/etc/chrony.conf", "infra"}}})
	worker := mc(t, mcOpts{name: "50-worker-chrony", files: []file{{"/etc/chrony.conf", "worker"}}})
	for _, c := range []struct {
		minor platform.OCPMinor
		want  string
	}{{platform.CustomPoolConfigsLastSince, "infra"}, {platform.CustomPoolConfigsLastSince - 1, "worker"}} {
		r = render(t, c.minor, custom, worker)
		if got := contents(t, r); got != c.want {
			t.Errorf("%s: custom pool merge order: %s, want %s", c.minor, got, c.want)
		}
	}

	// TestIgnitionMergeCompressed: a later uncompressed file does not keep
	// an earlier gzip compression
	gz := `{"ignition":{"version":"3.2.0"},"storage":{"files":[{"path":"/etc/a","contents":{"compression":"gzip","source":"data:;base64,H4sIAAAAAAAA/0sEAEOitoUBAAAA"}}]}}`
	r = render(t, minor, mc(t, mcOpts{name: "00-a", raw: gz}), mc(t, mcOpts{name: "01-a", files: []file{{"/etc/a", "b"}}}))
	if r.Ignition.Storage.Files[0].Contents.Compression != nil {
		t.Errorf("compression kept: %q", *r.Ignition.Storage.Files[0].Contents.Compression)
	}

	// kernelType: any config's realtime wins; kernel-devel refused with it
	r = render(t, minor, mc(t, mcOpts{name: "00-a"}), mc(t, mcOpts{name: "01-rt", kernelType: platform.KernelTypeRealtime}), mc(t, mcOpts{name: "02-b", kernelType: platform.KernelTypeDefault}))
	if r.KernelType != platform.KernelTypeRealtime {
		t.Errorf("kernel type %s", r.KernelType)
	}
	if _, err := Merge(append([]mcfgMC{}, mc(t, mcOpts{name: "01-rt", kernelType: platform.KernelTypeRealtime, extensions: []string{platform.KernelDevelExtension}})), minor); err == nil {
		t.Error("kernel-devel with the realtime kernel accepted")
	}

	// osImageURL: a generated config does not override it
	gen := mc(t, mcOpts{name: "00-gen", osImage: "quay.io/gen@sha256:1"})
	gen.Annotations = map[string]string{platform.GeneratedByControllerAnnotation: "v1"}
	if r = render(t, minor, gen); r.OSImageURL != "" {
		t.Errorf("generated config set osImageURL %q", r.OSImageURL)
	}
	if r = render(t, minor, gen, mc(t, mcOpts{name: "99-user", osImage: "quay.io/user@sha256:2"})); r.OSImageURL != "quay.io/user@sha256:2" {
		t.Errorf("user osImageURL %q", r.OSImageURL)
	}

	// every MachineConfig needs its labels ("cannot find label")
	nolabel := mc(t, mcOpts{name: "x"})
	nolabel.Labels = nil
	if _, err := Merge([]mcfgMC{nolabel}, minor); err == nil {
		t.Error("a MachineConfig without labels merged")
	}
	// spec 2 configs are not converted
	if _, err := Merge([]mcfgMC{mc(t, mcOpts{name: "x", raw: `{"ignition":{"version":"2.2.0"}}`})}, minor); !errors.Is(err, ErrIgnitionSpec2) {
		t.Errorf("spec 2: %v", err)
	}
}

// contents is the decoded contents of the rendered config's first file.
func contents(t *testing.T, r Rendered) string {
	t.Helper()
	b, err := fileBytes(r.Ignition.Storage.Files[0])
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
