package disruption

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/siteforge/siteforge/internal/platform"
)

// The release gates of MergeMachineConfigs and the daemon, each checked on
// both sides of its gate (the release branches of
// openshift/machine-config-operator named in internal/platform/disruption.go).

// TestMergeKernelArgsByRelease derives from MCO release-4.12 and
// release-4.13 pkg/controller/common/helpers.go MergeMachineConfigs (an
// argument already present is skipped, InSlice) and release-4.14 (commit
// d5cdfe4e9, OCPBUGS-19708: concatenated).
func TestMergeKernelArgsByRelease(t *testing.T) {
	for _, tc := range []struct {
		minor platform.OCPMinor
		want  []string
	}{
		{platform.KernelArgsConcatenatedSince - 1, []string{"a=1", "b=2"}},
		{platform.KernelArgsConcatenatedSince, []string{"a=1", "b=2", "a=1"}},
	} {
		r := render(t, tc.minor, mc(t, mcOpts{name: "00-a", kargs: []string{"a=1", "b=2"}}), mc(t, mcOpts{name: "01-b", kargs: []string{"a=1"}}))
		if !slices.Equal(r.KernelArguments, tc.want) {
			t.Errorf("%s: kernel arguments %v, want %v", tc.minor, r.KernelArguments, tc.want)
		}
	}
}

// TestKernelType64kByRelease derives from MCO release-4.14
// MergeMachineConfigs and pkg/daemon/update.go canonicalizeKernelType
// (realtime or default) and release-4.15 (64k-pages; commit ca0f40781).
func TestKernelType64kByRelease(t *testing.T) {
	k64 := mcOpts{name: "00-a", kernelType: platform.KernelType64kPages, extensions: []string{platform.KernelDevelExtension}}
	before := platform.KernelType64kPagesSince - 1
	r := render(t, before, mc(t, k64))
	if r.KernelType != platform.KernelTypeDefault {
		t.Errorf("%s: kernel type %s, want default", before, r.KernelType)
	}
	if got := Compare(Rendered{KernelType: platform.KernelTypeDefault}, Rendered{KernelType: platform.KernelType64kPages}, nil, before); len(got) != 0 {
		t.Errorf("%s: 64k-pages is the default kernel:%s", before, describe(got))
	}
	if _, err := Merge([]mcfgMC{mc(t, k64)}, platform.KernelType64kPagesSince); err == nil || !strings.Contains(err.Error(), "kernel-devel") {
		t.Errorf("%s: kernel-devel with 64k-pages: %v", platform.KernelType64kPagesSince, err)
	}
	k64.extensions = nil
	if r := render(t, platform.KernelType64kPagesSince, mc(t, k64)); r.KernelType != platform.KernelType64kPages {
		t.Errorf("%s: kernel type %s", platform.KernelType64kPagesSince, r.KernelType)
	}
	got := Compare(Rendered{KernelType: platform.KernelTypeDefault}, Rendered{KernelType: platform.KernelType64kPages}, nil, platform.KernelType64kPagesSince)
	if PoolAction(got) != Reboot {
		t.Errorf("%s: switching to 64k-pages:%s", platform.KernelType64kPagesSince, describe(got))
	}
}

// TestMergeCompressionByRelease derives from MCO release-4.20
// helpers_test.go TestIgnitionMergeCompressed (commit ca4fcd9e2,
// OCPBUGS-55327): from 4.20 a later file without compression drops an
// earlier gzip; before, ign3.Merge keeps it.
func TestMergeCompressionByRelease(t *testing.T) {
	gz := `{"ignition":{"version":"3.2.0"},"storage":{"files":[{"path":"/etc/a","contents":{"compression":"gzip","source":"data:;base64,H4sIAAAAAAAA/0sEAEOitoUBAAAA"}}]}}`
	for _, tc := range []struct {
		minor platform.OCPMinor
		kept  bool
	}{{platform.MergeCompressionResetSince - 1, true}, {platform.MergeCompressionResetSince, false}} {
		r := render(t, tc.minor, mc(t, mcOpts{name: "00-a", raw: gz}), mc(t, mcOpts{name: "01-a", files: []file{{"/etc/a", "b"}}}))
		c := r.Ignition.Storage.Files[0].Contents.Compression
		if kept := c != nil && *c == "gzip"; kept != tc.kept {
			t.Errorf("%s: gzip kept %t, want %t", tc.minor, kept, tc.kept)
		}
	}
}

// TestMergeOSImageURLByRelease derives from MCO release-4.21
// MergeMachineConfigs (generated configs skipped; commit 3a5e33899, main
// 9d52d684f MCO-1961) and release-4.20 (the last non-empty wins).
func TestMergeOSImageURLByRelease(t *testing.T) {
	gen := mc(t, mcOpts{name: "00-gen", osImage: "quay.io/gen@sha256:1"})
	gen.Annotations = map[string]string{platform.GeneratedByControllerAnnotation: "v1"}
	for _, tc := range []struct {
		minor platform.OCPMinor
		want  string
	}{{platform.OSImageURLSkipsGeneratedSince - 1, "quay.io/gen@sha256:1"}, {platform.OSImageURLSkipsGeneratedSince, ""}} {
		if r := render(t, tc.minor, gen); r.OSImageURL != tc.want {
			t.Errorf("%s: osImageURL %q, want %q", tc.minor, r.OSImageURL, tc.want)
		}
	}
}

// TestMergeIgnitionSpecByRelease derives from MCO IgnParseWrapper on
// release-4.12 (2.2, 3.0-3.2), release-4.13 to release-4.18 (up to 3.4;
// helpers_test.go TestParseAndConvert "Make a bad Ign3 cfg") and
// release-4.19 (3.5).
func TestMergeIgnitionSpecByRelease(t *testing.T) {
	cfg := func(v string) mcfgMC { return mc(t, mcOpts{name: "50-x", raw: `{"ignition":{"version":"` + v + `"}}`}) }
	for _, tc := range []struct {
		spec  string
		minor platform.OCPMinor
		ok    bool
	}{
		{"3.2.0", platform.IgnitionSpec34Since - 1, true},
		{"3.3.0", platform.IgnitionSpec34Since - 1, false},
		{"3.4.0", platform.IgnitionSpec34Since, true},
		{"3.5.0", platform.IgnitionSpec35Since - 1, false},
		{"3.5.0", platform.IgnitionSpec35Since, true},
		{"3.6.0-experimental", platform.LatestMinor, false},
		{"2.3.0", platform.LatestMinor, false},
	} {
		_, err := Merge([]mcfgMC{cfg(tc.spec)}, tc.minor)
		if tc.ok {
			if err != nil {
				t.Errorf("%s on %s: %v", tc.spec, tc.minor, err)
			}
			continue
		}
		var se *IgnitionSpecError
		if !errors.Is(err, ErrIgnitionSpecUnsupported) || !errors.As(err, &se) || se.MachineConfig != "50-x" || se.Spec != tc.spec || se.Release != tc.minor {
			t.Errorf("%s on %s: %v, want ErrIgnitionSpecUnsupported", tc.spec, tc.minor, err)
		}
	}
	// spec 2.2: MCO converts it, siteforge says so
	if _, err := Merge([]mcfgMC{cfg("2.2.0")}, platform.LatestMinor); !errors.Is(err, ErrIgnitionSpec2) || errors.Is(err, ErrIgnitionSpecUnsupported) {
		t.Errorf("2.2.0: %v", err)
	}
}

// TestIgnitionKargsByRelease derives from MCO release-4.13
// MergeMachineConfigs and ExtractIgnitionKargsFor4_13 (shouldExist moved to
// the MachineConfig's kernel arguments, shouldNotExist refused, the section
// stripped by IgnParseWrapper; helpers_test.go TestParseAndConvert "this
// should strip out the kernel args") and release-4.14 pkg/daemon/update.go
// reconcilable ("ignition kargs section contains changes").
func TestIgnitionKargsByRelease(t *testing.T) {
	base := mcOpts{name: "50-x", raw: `{"ignition":{"version":"3.4.0"}}`}
	kargs := mcOpts{name: "50-x", kargs: []string{"a=1"}, raw: `{"ignition":{"version":"3.4.0"},"kernelArguments":{"shouldExist":["a=1","b=2"]}}`}
	in413 := platform.IgnitionKargsMovedRelease
	r := render(t, in413, mc(t, kargs))
	if !slices.Equal(r.KernelArguments, []string{"a=1", "b=2"}) || len(r.Ignition.KernelArguments.ShouldExist) != 0 {
		t.Errorf("%s: kernel arguments %v, Ignition %v", in413, r.KernelArguments, r.Ignition.KernelArguments)
	}
	got := Compare(render(t, in413, mc(t, base)), r, nil, in413)
	if Refused(got) || PoolAction(got) != Reboot {
		t.Errorf("%s: Ignition kernelArguments:%s", in413, describe(got))
	}
	if _, err := Merge([]mcfgMC{mc(t, mcOpts{name: "50-x", raw: `{"ignition":{"version":"3.4.0"},"kernelArguments":{"shouldNotExist":["c"]}}`})}, in413); err == nil || !strings.Contains(err.Error(), "ShouldNotExist") {
		t.Errorf("%s: shouldNotExist: %v", in413, err)
	}
	after := in413 + 1
	got = Compare(render(t, after, mc(t, base)), render(t, after, mc(t, kargs)), nil, after)
	if !Refused(got) {
		t.Errorf("%s: Ignition kernelArguments not refused:%s", after, describe(got))
	}
}

// TestCoreUserByRelease derives from MCO pkg/daemon/update.go reconcilable
// and verifyUserFields: release-4.12 refuses a core password hash
// (TestReconcilableSSH; accepted from release-4.13, commit de59bd288,
// TestReconcilableDiff "PasswordHash changes recognized"), release-4.12 and
// release-4.13 refuse removing every user ("user core may not be deleted";
// accepted from release-4.14, commit c3f5e62d7).
func TestCoreUserByRelease(t *testing.T) {
	keys := mcOpts{name: "50-x", raw: `{"ignition":{"version":"3.2.0"},"passwd":{"users":[{"name":"core","sshAuthorizedKeys":["k"]}]}}`}
	hash := mcOpts{name: "50-x", raw: `{"ignition":{"version":"3.2.0"},"passwd":{"users":[{"name":"core","sshAuthorizedKeys":["k"],"passwordHash":"$6$x"}]}}`}
	none := mcOpts{name: "50-x", raw: `{"ignition":{"version":"3.2.0"}}`}
	for _, tc := range []struct {
		name     string
		minor    platform.OCPMinor
		old, new mcOpts
		refused  bool
	}{
		{"password hash refused", platform.CorePasswordHashSince - 1, keys, hash, true},
		{"password hash accepted", platform.CorePasswordHashSince, keys, hash, false},
		{"ssh key removal refused", platform.CoreUserRemovableSince - 1, keys, none, true},
		{"ssh key removal accepted", platform.CoreUserRemovableSince, keys, none, false},
	} {
		got := Compare(render(t, tc.minor, mc(t, tc.old)), render(t, tc.minor, mc(t, tc.new)), nil, tc.minor)
		if Refused(got) != tc.refused {
			t.Errorf("%s (%s): refused %t:%s", tc.name, tc.minor, Refused(got), describe(got))
		}
	}
}

// TestRegistryDrainOverrideByRelease derives from MCO pkg/daemon/drain_test.go
// TestIsDrainRequired and drain.go isDrainRequired (release-4.14 to
// release-4.16) and isDrainRequiredForNodeDisruptionActions (release-4.17
// to release-4.19): with the ConfigMap image-registry-override-drain an
// unsafe registries.conf change does not drain; release-4.13 and
// release-4.20 (commit 32f976778) do not read it.
func TestRegistryDrainOverrideByRelease(t *testing.T) {
	conf := func(mirror string) mcOpts {
		return mcOpts{name: "99-registries", files: []file{{platform.RegistriesConfPath, "[[registry]]\nprefix = \"\"\nlocation = \"quay.io/a\"\n[[registry.mirror]]\nlocation = \"" + mirror + "\"\n"}}}
	}
	// a removed mirror is never safe
	old, new := conf("m1.example.com/a"), mcOpts{name: "99-registries", files: []file{{platform.RegistriesConfPath, "[[registry]]\nprefix = \"\"\nlocation = \"quay.io/a\"\n"}}}
	override := &NodeDisruptionPolicy{RegistryDrainOverride: true}
	for _, tc := range []struct {
		minor platform.OCPMinor
		want  Action
	}{
		{platform.RegistryDrainOverrideSince - 1, Drain},
		{platform.RegistryDrainOverrideSince, Reload},
		{platform.NodeDisruptionPolicySince, Reload},
		{platform.RegistryDrainOverrideUntil - 1, Reload},
		{platform.RegistryDrainOverrideUntil, Drain},
	} {
		got := Compare(render(t, tc.minor, mc(t, old)), render(t, tc.minor, mc(t, new)), override, tc.minor)
		if PoolAction(got) != tc.want {
			t.Errorf("%s with the override: %s, want %s:%s", tc.minor, PoolAction(got), tc.want, describe(got))
		}
		if tc.want == Reload && !strings.Contains(got[0].Reason, platform.RegistryDrainOverrideConfigMap) {
			t.Errorf("%s: the reason does not name the ConfigMap:%s", tc.minor, describe(got))
		}
		if tc.want == Drain && strings.Contains(got[0].Reason, "ignored before") {
			t.Errorf("%s: an override-only policy is not a NodeDisruptionPolicy:%s", tc.minor, describe(got))
		}
		// without the ConfigMap (a MachineConfiguration without it) the same change drains
		if got := Compare(render(t, tc.minor, mc(t, old)), render(t, tc.minor, mc(t, new)), &NodeDisruptionPolicy{}, tc.minor); PoolAction(got) != Drain {
			t.Errorf("%s without the override: %s:%s", tc.minor, PoolAction(got), describe(got))
		}
	}
}

// TestCrioRestartOrderByRelease derives from MCO release-4.14 and
// release-4.15 pkg/daemon/update.go
// calculatePostConfigChangeActionFromFileDiffs (the action of the last file
// in CalculateConfigFileDiffs' order: removed files, then the others, each
// in map order) and release-4.16 (commit 84ec414dd "Don't override a
// restart CRIO action"; update_test.go TestCalculatePostConfigChangeAction
// "test that updating openshift-config-user-ca-bundle.crt is crio restart
// and that it overrides a following crio reload").
func TestCrioRestartOrderByRelease(t *testing.T) {
	ca := func(c string) file { return file{platform.UserCABundlePath, c} }
	gpg := func(c string) file { return file{platform.GPGNoRebootPath, c} }
	legacy := platform.LegacyCrioActionOrderedSince - 1
	for _, tc := range []struct {
		name     string
		minor    platform.OCPMinor
		old, new []file
		want     Action
		wantIn   string
	}{
		// both changed: Go map order decides; siteforge keeps the restart
		{"both changed, map order", legacy, []file{ca("1"), gpg("1")}, []file{ca("2"), gpg("2")}, Restart, "may only reload CRI-O"},
		// the CA bundle removed, the GPG key changed: the reload comes last
		{"removed restart file, reload last", legacy, []file{ca("1"), gpg("1")}, []file{gpg("2")}, Reload, "only reloads CRI-O"},
		// only the restart file: no ambiguity
		{"restart alone", legacy, []file{ca("1")}, []file{ca("2")}, Restart, "restarts CRI-O"},
		// from 4.16 a reload never overrides the restart
		{"ordered from 4.16", platform.LegacyCrioActionOrderedSince, []file{ca("1"), gpg("1")}, []file{gpg("2")}, Restart, "restarts CRI-O"},
	} {
		got := Compare(render(t, tc.minor, mc(t, mcOpts{name: "50-x", files: tc.old})), render(t, tc.minor, mc(t, mcOpts{name: "50-x", files: tc.new})), nil, tc.minor)
		if PoolAction(got) != tc.want {
			t.Errorf("%s: %s, want %s:%s", tc.name, PoolAction(got), tc.want, describe(got))
			continue
		}
		found := false
		for _, c := range got {
			found = found || (c.Path == platform.UserCABundlePath && strings.Contains(c.Reason, tc.wantIn))
		}
		if !found {
			t.Errorf("%s: no CA change with %q:%s", tc.name, tc.wantIn, describe(got))
		}
		if tc.minor == platform.LegacyCrioActionOrderedSince && strings.Contains(describe(got), "Go map order") {
			t.Errorf("%s: map order note on a fixed release:%s", tc.name, describe(got))
		}
	}
}
