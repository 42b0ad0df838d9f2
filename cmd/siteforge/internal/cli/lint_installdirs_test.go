package cli

import (
	"fmt"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// installFolderConfig is an agent install's install-config.yaml: name lab
// in every folder (the same object ID), control-plane replicas, platform
// section and network type as given.
func installFolderConfig(masters int, network, machineNet, platform string) string {
	return fmt.Sprintf(`apiVersion: v1
baseDomain: example.com
metadata:
  name: lab
controlPlane:
  name: master
  replicas: %d
compute:
- name: worker
  replicas: 0
networking:
  networkType: %s
  machineNetwork:
  - cidr: %s
platform:
%s`, masters, network, machineNet, platform)
}

// installFolderAgentConfig is its agent-config.yaml: masters at
// <prefix>.10, .11, ... (rendezvousIP the first).
func installFolderAgentConfig(prefix string, masters int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "apiVersion: v1beta1\nkind: AgentConfig\nmetadata:\n  name: lab\nrendezvousIP: %s.10\nhosts:\n", prefix)
	for i := 0; i < masters; i++ {
		fmt.Fprintf(&b, `- hostname: m%d
  role: master
  interfaces:
  - name: eno1
    macAddress: 52:54:00:00:00:1%d
  networkConfig:
    interfaces:
    - name: eno1
      type: ethernet
      state: up
      ipv4:
        enabled: true
        address:
        - ip: %s.1%d
          prefix-length: 24
`, i, i, prefix, i)
	}
	return b.String()
}

// TestLintSiblingInstallationFolders: a repository of examples keeps
// several installation folders side by side, each the --dir of one run of
// the installer, which reads only its --dir (openshift/installer
// pkg/asset/store filefetcher.go FetchByName/FetchByPattern under the
// directory). Linting the repository gives, per folder, exactly the
// findings of linting that folder alone, and no INP004 between the
// siblings' install-configs and agent-configs (all named lab). Each folder
// has a real error linting it alone reports: an API VIP outside the
// machine network and an ingress VIP on a node's IP (installer
// pkg/types/validation installconfig.go validateVIPsForPlatform; assisted
// service "is already in use"), a single node on platform baremetal
// (installer pkg/asset/agent/installconfig.go validateSNOConfiguration).
// The release an AgentClusterInstall in sno/ names stays in sno/: the
// OpenShift SDN finding on vmware/ does not cite it. Before, the
// repository gave INP004 for each sibling, the VIP errors vanished (the
// merged set had three install-configs) and the release leaked.
func TestLintSiblingInstallationFolders(t *testing.T) {
	dir := t.TempDir()
	base := filepath.Join("day0", "agent-based-installer")
	files := map[string]string{
		"README.md": "# agent-based installer labs\n",
		"day0/agent-based-installer/baremetal/install-config.yaml": installFolderConfig(3, "OVNKubernetes", "192.168.10.0/24",
			"  baremetal:\n    apiVIPs: [10.0.0.5]\n    ingressVIPs: [192.168.10.6]\n"),
		"day0/agent-based-installer/baremetal/agent-config.yaml": installFolderAgentConfig("192.168.10", 3),
		"day0/agent-based-installer/vmware/install-config.yaml": installFolderConfig(3, "OpenShiftSDN", "192.168.20.0/24",
			"  vsphere:\n    apiVIPs: [192.168.20.5]\n    ingressVIPs: [192.168.20.11]\n"),
		"day0/agent-based-installer/vmware/agent-config.yaml": installFolderAgentConfig("192.168.20", 3),
		"day0/agent-based-installer/sno/install-config.yaml": installFolderConfig(1, "OVNKubernetes", "192.168.30.0/24",
			"  baremetal:\n    apiVIPs: [192.168.30.5]\n    ingressVIPs: [192.168.30.6]\n"),
		"day0/agent-based-installer/sno/agent-config.yaml": installFolderAgentConfig("192.168.30", 1),
		"day0/agent-based-installer/sno/openshift/agentclusterinstall.yaml": `apiVersion: extensions.hive.openshift.io/v1beta1
kind: AgentClusterInstall
metadata:
  name: lab
  namespace: lab
spec:
  imageSetRef:
    name: openshift-v4.16
`,
	}
	writeTree(t, dir, files)

	type finding struct{ Rule, Severity, File, Message string }
	lintJSON := func(path string) []finding {
		t.Helper()
		r := mainIn(t, dir, "lint", "--format", "json", path)
		if r.code != ExitOK && r.code != ExitFindings {
			t.Fatalf("lint %s: exit %d\n%s%s", path, r.code, r.stdout, r.stderr)
		}
		var out []finding
		for _, f := range decodeReport(t, r.stdout).Findings {
			out = append(out, finding{f.Rule, f.Severity, fmt.Sprintf("%s:%d", filepath.ToSlash(f.File), f.Line), f.Message})
		}
		sort.Slice(out, func(i, j int) bool { return fmt.Sprint(out[i]) < fmt.Sprint(out[j]) })
		return out
	}
	repo := lintJSON(".")
	for _, f := range repo {
		if f.Rule == "INP004" {
			t.Errorf("INP004 between sibling installation folders: %s %s", f.File, f.Message)
		}
	}
	wants := map[string][]string{ // rule and a part of the message each folder alone gives
		"baremetal": {"INS001", "API VIP 10.0.0.5 is not inside a machine network (192.168.10.0/24)"},
		"vmware":    {"INS001", "ingress VIP 192.168.20.11 is node m1's IP"},
		"sno":       {"INS004", "a single-node cluster (1 control-plane node, no workers) on platform baremetal"},
	}
	for _, name := range []string{"baremetal", "vmware", "sno"} {
		folder := filepath.ToSlash(filepath.Join(base, name))
		alone := lintJSON(folder)
		var inRepo []finding
		for _, f := range repo {
			if strings.HasPrefix(f.File, folder+"/") {
				inRepo = append(inRepo, f)
			}
		}
		if !reflect.DeepEqual(inRepo, alone) {
			t.Errorf("%s: linting the repository gives\n  %v\nlinting the folder alone\n  %v", name, inRepo, alone)
		}
		found := false
		for _, f := range alone {
			found = found || f.Rule == wants[name][0] && f.Severity == "error" && strings.Contains(f.Message, wants[name][1])
		}
		if !found {
			t.Errorf("%s alone: no %s error %q in %v", name, wants[name][0], wants[name][1], alone)
		}
		for _, f := range alone {
			if name != "sno" && strings.Contains(f.Message, "AgentClusterInstall") {
				t.Errorf("%s: a finding cites sno's AgentClusterInstall: %v", name, f)
			}
		}
	}
}

// TestLintOCMirrorGenerations: two runs of oc-mirror v1 leave two
// results-<unix time> folders (openshift/oc-mirror pkg/cli/mirror/mirror.go
// createResultsDir) with the same ImageContentSourcePolicy operator-0,
// differing as the mirror grew. Only the newest is read: no INP004 between
// the generations (before: "ImageContentSourcePolicy operator-0 is defined
// again").
func TestLintOCMirrorGenerations(t *testing.T) {
	dir := t.TempDir()
	icsp := func(repo string) string {
		return "apiVersion: operator.openshift.io/v1alpha1\nkind: ImageContentSourcePolicy\nmetadata:\n  name: operator-0\nspec:\n  repositoryDigestMirrors:\n  - mirrors:\n    - mirror.example.com:8443/" + repo + "\n    source: registry.redhat.io/" + repo + "\n"
	}
	writeTree(t, dir, map[string]string{
		"oc-mirror-workspace/results-1700000000/imageContentSourcePolicy.yaml": icsp("lvms4/lvms-rhel9-operator"),
		"oc-mirror-workspace/results-1710000000/imageContentSourcePolicy.yaml": icsp("lvms4/lvms-rhel9-operator") + "  - mirrors:\n    - mirror.example.com:8443/lvms4/topolvm-rhel9\n    source: registry.redhat.io/lvms4/topolvm-rhel9\n",
	})
	r := mainIn(t, dir, "lint", "--format", "json", ".")
	if r.code != ExitOK && r.code != ExitFindings {
		t.Fatalf("lint: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, f := range decodeReport(t, r.stdout).Findings {
		if f.Rule == "INP004" {
			t.Errorf("INP004 between oc-mirror generations: %s:%d %s", f.File, f.Line, f.Message)
		}
		if strings.Contains(f.File, "results-1700000000") {
			t.Errorf("a finding on the older generation: %s:%d %s %s", f.File, f.Line, f.Rule, f.Message)
		}
	}
}
