package disruption

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/vincent-petithory/dataurl"

	mcfgv1 "github.com/openshift/api/machineconfiguration/v1"
	opv1 "github.com/openshift/api/operator/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/siteforge/siteforge/internal/platform"
)

// file is an Ignition file entry with inline contents, as MCO's test helper
// ctrlcommon.NewIgnFile writes them (base64 data URL).
type file struct{ path, contents string }

// mc builds a MachineConfig of role worker with files, units (name ->
// contents) and SSH keys for core.
type mcOpts struct {
	name, role string
	files      []file
	units      map[string]string
	sshKeys    []string
	kargs      []string
	extensions []string
	kernelType string
	fips       bool
	osImage    string
	raw        string // raw Ignition config, instead of the above
}

func mc(t *testing.T, o mcOpts) mcfgv1.MachineConfig {
	t.Helper()
	if o.role == "" {
		o.role = platform.MachineConfigRoleWorker
	}
	raw := []byte(o.raw)
	if o.raw == "" {
		cfg := map[string]any{"ignition": map[string]any{"version": "3.2.0"}}
		var files []any
		for _, f := range o.files {
			files = append(files, map[string]any{"path": f.path, "contents": map[string]any{"source": dataurl.EncodeBytes([]byte(f.contents))}})
		}
		if files != nil {
			cfg["storage"] = map[string]any{"files": files}
		}
		var units []any
		for n, c := range o.units {
			units = append(units, map[string]any{"name": n, "contents": c})
		}
		if units != nil {
			cfg["systemd"] = map[string]any{"units": units}
		}
		if o.sshKeys != nil {
			cfg["passwd"] = map[string]any{"users": []any{map[string]any{"name": "core", "sshAuthorizedKeys": o.sshKeys}}}
		}
		var err error
		if raw, err = json.Marshal(cfg); err != nil {
			t.Fatal(err)
		}
	}
	return mcfgv1.MachineConfig{
		ObjectMeta: metav1.ObjectMeta{Name: o.name, Labels: map[string]string{platform.MachineConfigRoleLabel: o.role}},
		Spec: mcfgv1.MachineConfigSpec{
			Config:          runtime.RawExtension{Raw: raw},
			KernelArguments: o.kargs, Extensions: o.extensions, KernelType: o.kernelType, FIPS: o.fips, OSImageURL: o.osImage,
		},
	}
}

type mcfgMC = mcfgv1.MachineConfig

func render(t *testing.T, minor platform.OCPMinor, mcs ...mcfgv1.MachineConfig) Rendered {
	t.Helper()
	r, err := Merge(mcs, minor)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func describe(cs []Change) string {
	var b strings.Builder
	for _, c := range cs {
		fmt.Fprintf(&b, "\n  %s: %s refused=%t (%s)", c.Path, c.Action, c.Refused, c.Reason)
	}
	return b.String()
}

const (
	pre  = platform.NodeDisruptionPolicySince - 1 // the last release before NodeDisruptionPolicy
	post = platform.NodeDisruptionPolicySince
)

// TestComparePostConfigChangeAction derives from MCO pkg/daemon/update_test.go
// TestCalculatePostConfigChangeAction (the legacy path, releases before
// NodeDisruptionPolicy) and checks the same diffs under the default
// NodeDisruptionPolicy (pkg/apihelpers/apihelpers.go defaultClusterPolicies).
func TestComparePostConfigChangeAction(t *testing.T) {
	f := func(path, c string) file { return file{path, c} }
	tests := []struct {
		name     string
		minor    platform.OCPMinor
		old, new mcOpts
		want     Action
		wantIn   string // a fragment of the deciding change's reason
	}{
		// upstream "test that a normal file change is reboot"
		{"chrony edit reboots", pre,
			mcOpts{files: []file{f("/etc/chrony.conf", "server a\n")}}, mcOpts{files: []file{f("/etc/chrony.conf", "server b\n")}}, Reboot, "not on MCO's list"},
		{"chrony edit reboots with policies", post,
			mcOpts{files: []file{f("/etc/chrony.conf", "server a\n")}}, mcOpts{files: []file{f("/etc/chrony.conf", "server b\n")}}, Reboot, "without a NodeDisruptionPolicy"},
		// upstream "test that a pull secret change is none"
		{"pull secret none", pre,
			mcOpts{files: []file{f(platform.KubeletAuthFilePath, "1")}}, mcOpts{files: []file{f(platform.KubeletAuthFilePath, "2")}}, None, "no action"},
		{"pull secret none with policies", post,
			mcOpts{files: []file{f(platform.KubeletAuthFilePath, "1")}}, mcOpts{files: []file{f(platform.KubeletAuthFilePath, "2")}}, None, "MCO's default"},
		// upstream "test that a SSH key change is none"
		{"ssh key none", pre, mcOpts{sshKeys: []string{"key1"}}, mcOpts{sshKeys: []string{"key2"}}, None, "SSH keys"},
		{"ssh key none with policies", post, mcOpts{sshKeys: []string{"key1"}}, mcOpts{sshKeys: []string{"key2"}}, None, "sshkey"},
		// upstream "test that a kubelet CA change is none"; the default
		// policies have no entry for it (MCO stopped writing it through a
		// MachineConfig in 4.14), so under them it reboots.
		{"kubelet CA none", pre,
			mcOpts{files: []file{f(platform.KubeletCABundlePath, "ca1")}}, mcOpts{files: []file{f(platform.KubeletCABundlePath, "ca2")}}, None, "no action"},
		{"kubelet CA reboots with policies", post,
			mcOpts{files: []file{f(platform.KubeletCABundlePath, "ca1")}}, mcOpts{files: []file{f(platform.KubeletCABundlePath, "ca2")}}, Reboot, "without a NodeDisruptionPolicy"},
		// upstream "test that updating policy.json is crio reload" and containers-gpg.pub
		{"policy.json reload", pre,
			mcOpts{files: []file{f(platform.ContainerPolicyPath, "p1")}}, mcOpts{files: []file{f(platform.ContainerPolicyPath, "p2")}}, Reload, "reloads CRI-O"},
		{"gpg reload with policies", post,
			mcOpts{files: []file{f(platform.GPGNoRebootPath, "g1")}}, mcOpts{files: []file{f(platform.GPGNoRebootPath, "g2")}}, Reload, "reload crio.service"},
		// upstream "test that updating openshift-config-user-ca-bundle.crt is crio restart
		// and that it overrides a following crio reload"
		{"user CA restart overrides reload", pre,
			mcOpts{files: []file{f(platform.UserCABundlePath, "r1")}}, mcOpts{files: []file{f(platform.UserCABundlePath, "r2"), f(platform.GPGNoRebootPath, "g1")}}, Restart, "restarts CRI-O"},
		{"user CA reboots before 4.14", platform.LegacyUserCARestartSince - 1,
			mcOpts{files: []file{f(platform.UserCABundlePath, "r1")}}, mcOpts{files: []file{f(platform.UserCABundlePath, "r2")}}, Reboot, "not on MCO's list"},
		{"user CA restart with policies", post,
			mcOpts{files: []file{f(platform.UserCABundlePath, "r1")}}, mcOpts{files: []file{f(platform.UserCABundlePath, "r2")}}, Restart, "restart coreos-update-ca-trust.service, restart crio.service"},
		// upstream "mixed test - final should be reboot due to kargs changes"
		{"kernel argument reboots", pre,
			mcOpts{files: []file{f(platform.KubeletAuthFilePath, "1")}}, mcOpts{files: []file{f(platform.KubeletAuthFilePath, "2")}, kargs: []string{"karg1"}}, Reboot, "kernel arguments"},
		{"kernel argument reboots with policies", post, mcOpts{}, mcOpts{kargs: []string{"karg1"}}, Reboot, "kernel arguments"},
		// upstream TestMachineConfigDiff: extensions and kernelType diffs
		{"extension reboots", post, mcOpts{}, mcOpts{extensions: []string{"usbguard"}}, Reboot, "extensions"},
		{"kernel type reboots", post, mcOpts{}, mcOpts{kernelType: platform.KernelTypeRealtime}, Reboot, "kernel type"},
		{"default kernel type spelled out is no change", post, mcOpts{}, mcOpts{kernelType: platform.KernelTypeDefault}, None, ""},
		// upstream "test that a osImage change (reboot) overwrites registries (reload) and SSH keys (none)"
		{"os image reboots", pre, mcOpts{sshKeys: []string{"key1"}}, mcOpts{sshKeys: []string{"key2"}, osImage: "quay.io/x/os@sha256:1"}, Reboot, "OS image"},
		// a unit change reboots before policies (calculatePostConfigChangeAction: diff.units)
		{"unit reboots", pre, mcOpts{units: map[string]string{"a.service": "[Unit]\n"}}, mcOpts{units: map[string]string{"a.service": "[Unit]\nDescription=x\n"}}, Reboot, "systemd unit"},
		{"unit reboots with policies", post, mcOpts{units: map[string]string{"a.service": "[Unit]\n"}}, mcOpts{units: map[string]string{"a.service": "[Unit]\nDescription=x\n"}}, Reboot, "without a NodeDisruptionPolicy"},
		// NMState dir: directoriesPostConfigChangeActionNone (4.16+), default policy None
		{"nmstate none", post, mcOpts{}, mcOpts{files: []file{f(platform.NMStateConfigDir+"/br-ex.yml", "x")}}, None, platform.NMStateConfigDir + "/"},
		{"nmstate reboots before 4.16", platform.LegacyDirectoryRulesSince - 1, mcOpts{}, mcOpts{files: []file{f(platform.NMStateConfigDir+"/br-ex.yml", "x")}}, Reboot, "not on MCO's list"},
		// registries.d: legacy matches files directly in the directory only
		// (filepath.Dir), the policy any file below it (IsSubdirectory).
		{"registries.d reload", pre, mcOpts{}, mcOpts{files: []file{f(platform.SigstoreRegistriesDir+"/a.yaml", "x")}}, Reload, "reloads CRI-O"},
		{"registries.d subdir reboots before policies", pre, mcOpts{}, mcOpts{files: []file{f(platform.SigstoreRegistriesDir+"/sub/a.yaml", "x")}}, Reboot, "not on MCO's list"},
		{"registries.d subdir reload with policies", post, mcOpts{}, mcOpts{files: []file{f(platform.SigstoreRegistriesDir+"/sub/a.yaml", "x")}}, Reload, "reload crio.service"},
		// /etc/crio/policies: default policy from 4.18
		{"crio policies reboot in 4.17", platform.NDPCrioPoliciesSince - 1, mcOpts{}, mcOpts{files: []file{f(platform.CrioPoliciesDir+"/p.json", "x")}}, Reboot, "without"},
		{"crio policies reload from 4.18", platform.NDPCrioPoliciesSince, mcOpts{}, mcOpts{files: []file{f(platform.CrioPoliciesDir+"/p.json", "x")}}, Reload, "reload crio.service"},
		// no change at all
		{"no change", post, mcOpts{files: []file{f("/etc/a", "1")}}, mcOpts{files: []file{f("/etc/a", "1")}}, None, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.old.name, tc.new.name = "00-test", "00-test"
			got := Compare(render(t, tc.minor, mc(t, tc.old)), render(t, tc.minor, mc(t, tc.new)), nil, tc.minor)
			if a := PoolAction(got); a != tc.want {
				t.Fatalf("action %s, want %s:%s", a, tc.want, describe(got))
			}
			if tc.wantIn == "" {
				if tc.want == None && len(got) != 0 && tc.name == "no change" {
					t.Fatalf("changes on no change:%s", describe(got))
				}
				return
			}
			found := false
			for _, c := range got {
				found = found || (c.Action == tc.want && strings.Contains(c.Reason, tc.wantIn))
			}
			if !found {
				t.Errorf("no %s change with %q:%s", tc.want, tc.wantIn, describe(got))
			}
		})
	}
}

// TestActionString pins the JSON contract of issue 16.
func TestActionString(t *testing.T) {
	want := []string{"none", "reload", "restart", "drain", "reboot"}
	for i, a := range []Action{None, Reload, Restart, Drain, Reboot} {
		if a.String() != want[i] {
			t.Errorf("%d: %q, want %q", i, a, want[i])
		}
		if b, _ := a.MarshalText(); string(b) != want[i] {
			t.Errorf("%d: MarshalText %q", i, b)
		}
	}
	if !(None < Reload && Reload < Restart && Restart < Drain && Drain < Reboot) {
		t.Error("actions out of order")
	}
}

func policyFile(path string, actions ...opv1.NodeDisruptionPolicySpecAction) opv1.NodeDisruptionPolicySpecFile {
	return opv1.NodeDisruptionPolicySpecFile{Path: path, Actions: actions}
}

// TestCompareNodeDisruptionPolicy derives from MCO pkg/daemon/update_test.go
// TestFindClosestFilePolicyPathMatch and pkg/apihelpers MergeClusterPolicies
// (a user policy replaces the default of the same path; others are added).
func TestCompareNodeDisruptionPolicy(t *testing.T) {
	restart := func(svc string) opv1.NodeDisruptionPolicySpecAction {
		return opv1.NodeDisruptionPolicySpecAction{Type: opv1.RestartSpecAction, Restart: &opv1.RestartService{ServiceName: opv1.NodeDisruptionPolicyServiceName(svc)}}
	}
	none := opv1.NodeDisruptionPolicySpecAction{Type: opv1.NoneSpecAction}
	reboot := opv1.NodeDisruptionPolicySpecAction{Type: opv1.RebootSpecAction}
	drain := opv1.NodeDisruptionPolicySpecAction{Type: opv1.DrainSpecAction}
	unitOld := mcOpts{name: "50-x", units: map[string]string{"chronyd.service": "[Unit]\n"}}
	unitNew := mcOpts{name: "50-x", units: map[string]string{"chronyd.service": "[Unit]\nDescription=x\n"}}
	chronyOld := mcOpts{name: "50-x", files: []file{{"/etc/chrony.conf", "a"}}}
	chronyNew := mcOpts{name: "50-x", files: []file{{"/etc/chrony.conf", "b"}}}
	deepOld := mcOpts{name: "50-x", files: []file{{"/etc/mco/f1/f2/example", "a"}}}
	deepNew := mcOpts{name: "50-x", files: []file{{"/etc/mco/f1/f2/example", "b"}}}
	tests := []struct {
		name     string
		minor    platform.OCPMinor
		policy   opv1.NodeDisruptionPolicyConfig
		old, new mcOpts
		want     Action
		wantIn   string
	}{
		// the docs' example: restart chronyd on a chrony.conf change
		{"file policy restart overrides reboot", post,
			opv1.NodeDisruptionPolicyConfig{Files: []opv1.NodeDisruptionPolicySpecFile{policyFile("/etc/chrony.conf", restart("chronyd.service"))}},
			chronyOld, chronyNew, Restart, "the cluster's NodeDisruptionPolicy for /etc/chrony.conf: restart chronyd.service"},
		{"unit policy restart overrides reboot", post,
			opv1.NodeDisruptionPolicyConfig{Units: []opv1.NodeDisruptionPolicySpecUnit{{Name: "chronyd.service", Actions: []opv1.NodeDisruptionPolicySpecAction{restart("chronyd.service")}}}},
			unitOld, unitNew, Restart, "unit chronyd.service: restart chronyd.service"},
		{"policy ignored below its release gate", pre,
			opv1.NodeDisruptionPolicyConfig{Files: []opv1.NodeDisruptionPolicySpecFile{policyFile("/etc/chrony.conf", restart("chronyd.service"))}},
			chronyOld, chronyNew, Reboot, "ignored before"},
		{"unit policy ignored below its release gate", pre,
			opv1.NodeDisruptionPolicyConfig{Units: []opv1.NodeDisruptionPolicySpecUnit{{Name: "chronyd.service", Actions: []opv1.NodeDisruptionPolicySpecAction{restart("chronyd.service")}}}},
			unitOld, unitNew, Reboot, "ignored before"},
		// upstream "test that a file with multiple path policies returns the correct actions(closest match)"
		{"closest directory wins", post,
			opv1.NodeDisruptionPolicyConfig{Files: []opv1.NodeDisruptionPolicySpecFile{
				policyFile("/etc/mco/f1", none), policyFile("/etc/mco/f1/f2", drain), policyFile("/etc/mco/f1/f2/f3", reboot)}},
			deepOld, deepNew, Drain, "/etc/mco/f1/f2/: drain"},
		// upstream "test that a file with a partial parent dir match, but no actual dir match does not return any action"
		{"partial name is no match", post,
			opv1.NodeDisruptionPolicyConfig{Files: []opv1.NodeDisruptionPolicySpecFile{policyFile("/etc/mco/f1/f", none)}},
			deepOld, deepNew, Reboot, "without a NodeDisruptionPolicy"},
		// MergeClusterPolicies: a user policy replaces the default of its path
		{"user policy replaces a default", post,
			opv1.NodeDisruptionPolicyConfig{Files: []opv1.NodeDisruptionPolicySpecFile{policyFile(platform.KubeletAuthFilePath, drain)}},
			mcOpts{name: "50-x", files: []file{{platform.KubeletAuthFilePath, "1"}}}, mcOpts{name: "50-x", files: []file{{platform.KubeletAuthFilePath, "2"}}}, Drain, "the cluster's"},
		// the SSH key policy replaces the default None
		{"ssh policy", post,
			opv1.NodeDisruptionPolicyConfig{SSHKey: opv1.NodeDisruptionPolicySpecSSHKey{Actions: []opv1.NodeDisruptionPolicySpecAction{drain}}},
			mcOpts{name: "50-x", sshKeys: []string{"k1"}}, mcOpts{name: "50-x", sshKeys: []string{"k2"}}, Drain, "the cluster's NodeDisruptionPolicy for sshkey: drain"},
		// calculatePostConfigChangeNodeDisruptionActionFromMCDiffs: kargs reboot whatever the policies
		{"policy does not cover kernel arguments", post,
			opv1.NodeDisruptionPolicyConfig{Files: []opv1.NodeDisruptionPolicySpecFile{policyFile("/etc/chrony.conf", none)}},
			mcOpts{name: "50-x"}, mcOpts{name: "50-x", kargs: []string{"a=b"}}, Reboot, "kernel arguments"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pol, err := ReadNodeDisruptionPolicy(&opv1.MachineConfiguration{
				ObjectMeta: metav1.ObjectMeta{Name: platform.MachineConfigurationName},
				Spec:       opv1.MachineConfigurationSpec{NodeDisruptionPolicy: tc.policy},
			})
			if err != nil {
				t.Fatal(err)
			}
			got := Compare(render(t, tc.minor, mc(t, tc.old)), render(t, tc.minor, mc(t, tc.new)), pol, tc.minor)
			if a := PoolAction(got); a != tc.want {
				t.Fatalf("action %s, want %s:%s", a, tc.want, describe(got))
			}
			found := false
			for _, c := range got {
				found = found || strings.Contains(c.Reason, tc.wantIn)
			}
			if !found {
				t.Errorf("no reason with %q:%s", tc.wantIn, describe(got))
			}
		})
	}
	if _, err := ReadNodeDisruptionPolicy(&opv1.MachineConfiguration{ObjectMeta: metav1.ObjectMeta{Name: "other"}}); err == nil {
		t.Error("a MachineConfiguration not named cluster was read")
	}
}

// TestCompareRefused derives from MCO pkg/daemon/update_test.go
// TestReconcilableDiff and pkg/controller/common/reconcile.go
// isConfigReconcilable: FIPS, non-core users, Ignition kernelArguments and
// disks are refused; core's SSH keys are not.
func TestCompareRefused(t *testing.T) {
	base := `{"ignition":{"version":"3.2.0"}}`
	tests := []struct {
		name     string
		old, new mcOpts
		refused  bool
	}{
		{"fips refused", mcOpts{raw: base}, mcOpts{raw: base, fips: true}, true},
		{"non-core user refused", mcOpts{raw: base}, mcOpts{raw: `{"ignition":{"version":"3.2.0"},"passwd":{"users":[{"name":"admin","sshAuthorizedKeys":["k"]}]}}`}, true},
		{"core user ssh key accepted", mcOpts{raw: base}, mcOpts{raw: `{"ignition":{"version":"3.2.0"},"passwd":{"users":[{"name":"core","sshAuthorizedKeys":["k"]}]}}`}, false},
		{"core user uid refused", mcOpts{raw: base}, mcOpts{raw: `{"ignition":{"version":"3.2.0"},"passwd":{"users":[{"name":"core","uid":1001,"sshAuthorizedKeys":["k"]}]}}`}, true},
		{"ignition kernelArguments refused", mcOpts{raw: base}, mcOpts{raw: `{"ignition":{"version":"3.3.0"},"kernelArguments":{"shouldExist":["a"]}}`}, true},
		{"disks refused", mcOpts{raw: base}, mcOpts{raw: `{"ignition":{"version":"3.2.0"},"storage":{"disks":[{"device":"/dev/sdb","wipeTable":true}]}}`}, true},
		{"append refused", mcOpts{raw: base}, mcOpts{raw: `{"ignition":{"version":"3.2.0"},"storage":{"files":[{"path":"/etc/a","append":[{"source":"data:,x"}]}]}}`}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.old.name, tc.new.name = "00-test", "00-test"
			got := Compare(render(t, post, mc(t, tc.old)), render(t, post, mc(t, tc.new)), nil, post)
			if Refused(got) != tc.refused {
				t.Fatalf("refused %t, want %t:%s", Refused(got), tc.refused, describe(got))
			}
			if tc.refused && PoolAction(got) != None {
				t.Errorf("a refused update has action %s", PoolAction(got))
			}
		})
	}
	// spec.irreconcilableValidationOverrides.storage accepts disks from its gate
	disksNew := mcOpts{name: "00-test", raw: `{"ignition":{"version":"3.2.0"},"storage":{"disks":[{"device":"/dev/sdb","wipeTable":true}]}}`}
	pol := &NodeDisruptionPolicy{StorageOverride: []opv1.IrreconcilableValidationOverridesStorage{opv1.IrreconcilableValidationOverridesStorageDisks}}
	for _, c := range []struct {
		minor   platform.OCPMinor
		refused bool
	}{{platform.IrreconcilableOverridesSince, false}, {platform.IrreconcilableOverridesSince - 1, true}} {
		got := Compare(render(t, c.minor, mc(t, mcOpts{name: "00-test", raw: base})), render(t, c.minor, mc(t, disksNew)), pol, c.minor)
		if Refused(got) != c.refused || len(got) != 1 {
			t.Errorf("%s: disks override: refused %t, want %t:%s", c.minor, Refused(got), c.refused, describe(got))
		}
	}
}

// TestCompareSameContentsOtherEncoding: MCO compares file entries as
// written (pkg/controller/common/helpers.go CalculateConfigFileDiffs,
// reflect.DeepEqual; upstream TestCalculateConfigFileDiffs), so the same
// bytes in another data URL encoding is a change (here a reboot).
func TestCompareSameContentsOtherEncoding(t *testing.T) {
	raw := func(src string) string {
		return `{"ignition":{"version":"3.2.0"},"storage":{"files":[{"path":"/etc/chrony.conf","contents":{"source":"` + src + `"}}]}}`
	}
	old := render(t, post, mc(t, mcOpts{name: "50-x", raw: raw("data:,server%20a%0A")}))
	same := render(t, post, mc(t, mcOpts{name: "50-x", raw: raw("data:,server%20a%0A")}))
	reenc := render(t, post, mc(t, mcOpts{name: "50-x", raw: raw("data:text/plain;charset=utf-8;base64,c2VydmVyIGEK")}))
	if got := Compare(old, same, nil, post); len(got) != 0 {
		t.Fatalf("identical entries differ:%s", describe(got))
	}
	got := Compare(old, reenc, nil, post)
	if PoolAction(got) != Reboot || !strings.Contains(got[0].Reason, "contents are the same") {
		t.Fatalf("re-encoded file:%s", describe(got))
	}
}

func restartCrioSpec() opv1.NodeDisruptionPolicySpecAction {
	return opv1.NodeDisruptionPolicySpecAction{Type: opv1.RestartSpecAction, Restart: &opv1.RestartService{ServiceName: platform.CrioService}}
}
