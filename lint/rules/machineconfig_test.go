package rules

import (
	"strings"
	"testing"

	"github.com/siteforge/siteforge/internal/platform"
)

// mcfPoolYAML is a MachineConfigPool with the given spec lines.
func mcfPoolYAML(name string, spec ...string) string {
	out := "apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfigPool\nmetadata:\n  name: " + name + "\nspec:\n"
	for _, l := range spec {
		out += "  " + l + "\n"
	}
	return out
}

// mcfInherits is a custom pool's machineConfigSelector taking worker and
// its own role, and its nodeSelector on node-role.kubernetes.io/<role>.
func mcfInherits(role string) []string {
	return []string{"machineConfigSelector:", "  matchExpressions:",
		"  - {key: machineconfiguration.openshift.io/role, operator: In, values: [worker, " + role + "]}",
		"nodeSelector:", "  matchLabels:", "    node-role.kubernetes.io/" + role + `: ""`}
}

// mcoPoolsExport is `oc get mcp -o yaml` of a two-node-with-arbiter cluster:
// MCO's master, worker and arbiter pools (machine-config-operator
// manifests/{master,worker,arbiter}.machineconfigpool.yaml), the arbiter
// one named arbiter.
func mcoPoolsExport(arbiter string) string {
	out := "apiVersion: v1\nkind: List\nmetadata:\n  resourceVersion: \"\"\nitems:\n"
	for _, role := range []string{"master", "worker", arbiter} {
		sel := strings.TrimSuffix(role, "s")
		out += "- apiVersion: machineconfiguration.openshift.io/v1\n  kind: MachineConfigPool\n  metadata:\n    name: " + role +
			"\n    labels:\n      machineconfiguration.openshift.io/mco-built-in: \"\"\n      pools.operator.machineconfiguration.openshift.io/" + sel + ": \"\"\n" +
			"  spec:\n    machineConfigSelector:\n      matchLabels:\n        machineconfiguration.openshift.io/role: " + sel +
			"\n    nodeSelector:\n      matchLabels:\n        node-role.kubernetes.io/" + sel + ": \"\"\n    paused: false\n" +
			"  status:\n    machineCount: 1\n    readyMachineCount: 1\n"
	}
	return out
}

// mcfConfigYAML is a MachineConfig of role with the given spec.config
// lines (indented under config:).
func mcfConfigYAML(name, role, ignition string, config ...string) string {
	out := "apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfig\nmetadata:\n  name: " + name +
		"\n  labels:\n    machineconfiguration.openshift.io/role: " + role + "\nspec:\n  config:\n    ignition:\n      version: " + ignition + "\n"
	for _, l := range config {
		out += "    " + l + "\n"
	}
	return out
}

// mcfFile is a storage.files entry writing text to path.
func mcfFile(path, text string) []string {
	return []string{"storage:", "  files:", "  - path: " + path, "    mode: 420", "    contents:", "      source: 'data:," + text + "'"}
}

// mcfOVSUnit is a oneshot unit setting other_config:max-idle.
func mcfOVSUnit(ms string) []string {
	return []string{"systemd:", "  units:", "  - name: ovs-max-idle.service", "    enabled: true", "    contents: |",
		"      [Service]", "      Type=oneshot",
		"      ExecStart=/usr/bin/ovs-vsctl set Open_vSwitch . other_config:max-idle=" + ms}
}

func init() {
	cv := func(minor string) string { return strings.Replace(egrClusterVersion, "%s", minor, 1) }
	ruleCases = append(ruleCases,
		ruleCase{rule: "MCF001", name: "custom pool of its own configs only", files: map[string]string{
			"mcp.yaml": mcfPoolYAML("infra", "machineConfigSelector:", "  matchLabels:", "    machineconfiguration.openshift.io/role: infra",
				"nodeSelector:", "  matchLabels:", `    node-role.kubernetes.io/infra: ""`)},
			want: []string{"mcp.yaml:7:5: error: custom MachineConfigPool infra takes MachineConfigs machineconfiguration.openshift.io/role=infra, not those of role worker"}},
		ruleCase{rule: "MCF001", name: "custom pool inheriting worker", files: map[string]string{"mcp.yaml": mcfPoolYAML("infra", mcfInherits("infra")...)}},
		// MCO ships the arbiter pool (machine-config-operator
		// manifests/arbiter.machineconfigpool.yaml) and does not count it as
		// custom (pkg/controller/common/helpers.go IsCustomPool: master,
		// worker, arbiter): `oc get mcp -o yaml` of a two-node-with-arbiter
		// cluster passes; the same selectors under another name are a
		// custom pool (MCO judges by name, not by the mco-built-in label).
		ruleCase{rule: "MCF001", name: "MCO: the arbiter pool exported with oc get mcp", files: map[string]string{"mcp.yaml": mcoPoolsExport("arbiter")}},
		ruleCase{rule: "MCF001", name: "MCO: the arbiter pool's selectors on a custom pool", files: map[string]string{"mcp.yaml": mcoPoolsExport("arbiters")},
			want: []string{"custom MachineConfigPool arbiters takes MachineConfigs machineconfiguration.openshift.io/role=arbiter, not those of role worker"}},

		ruleCase{rule: "MCF002", name: "two pools on one label", files: map[string]string{
			"a.yaml": mcfPoolYAML("infra", mcfInherits("infra")...),
			"b.yaml": mcfPoolYAML("infra-gpu", append(mcfInherits("infra-gpu")[:4], "  matchLabels:", `    node-role.kubernetes.io/infra: ""`, "    gpu: \"true\"")...)},
			want: []string{"b.yaml:10:5: error: custom MachineConfigPools infra (node-role.kubernetes.io/infra=) and infra-gpu (gpu=true,node-role.kubernetes.io/infra=) can select the same nodes (every node infra-gpu selects matches infra's selector too)"}},
		ruleCase{rule: "MCF002", name: "a Node matching two pools", files: map[string]string{
			"a.yaml":    mcfPoolYAML("infra", mcfInherits("infra")...),
			"b.yaml":    mcfPoolYAML("gpu", mcfInherits("gpu")...),
			"node.yaml": ingNodeYAML("n0", "10.10.0.40", "node-role.kubernetes.io/infra", "node-role.kubernetes.io/gpu")},
			want: []string{"(nodes n0 match both)"}},
		ruleCase{rule: "MCF002", name: "pools on their own labels", files: map[string]string{
			"a.yaml": mcfPoolYAML("infra", mcfInherits("infra")...), "b.yaml": mcfPoolYAML("gpu", mcfInherits("gpu")...)}},
		// One pool in two files, the copies differing (a real repository kept
		// router.yaml and router-mcp.yaml): one pool, not two pools that
		// overlap (the copy is INP004's).
		ruleCase{rule: "MCF002", name: "one pool defined twice", files: map[string]string{
			"a.yaml": mcfPoolYAML("infra", mcfInherits("infra")...),
			"b.yaml": mcfPoolYAML("infra", append(mcfInherits("infra")[:4], "  matchLabels:", `    node-role.kubernetes.io/infra: ""`, "    gpu: \"true\"")...)}},

		ruleCase{rule: "MCF003", name: "custom pool of masters", files: map[string]string{
			"mcp.yaml": mcfPoolYAML("master-tuned", "machineConfigSelector:", "  matchExpressions:",
				"  - {key: machineconfiguration.openshift.io/role, operator: In, values: [master, master-tuned]}",
				"nodeSelector:", "  matchLabels:", `    node-role.kubernetes.io/master: ""`)},
			want: []string{"mcp.yaml:10:5: error: custom MachineConfigPool master-tuned selects control-plane nodes or the master MachineConfigs (nodeSelector)"}},
		ruleCase{rule: "MCF003", name: "the built-in master pool", files: map[string]string{
			"mcp.yaml": mcfPoolYAML("master", "machineConfigSelector:", "  matchLabels:", "    machineconfiguration.openshift.io/role: master",
				"nodeSelector:", "  matchLabels:", `    node-role.kubernetes.io/master: ""`)}},

		ruleCase{rule: "MCF004", name: "two worker configs write one file", files: map[string]string{
			"a.yaml": mcfConfigYAML("50-worker-chrony", "worker", "3.2.0", mcfFile("/etc/chrony.conf", "server%20a")...),
			"b.yaml": mcfConfigYAML("99-worker-chrony", "worker", "3.2.0", mcfFile("/etc/chrony.conf", "server%20b")...)},
			want: []string{"a.yaml:13:15: warning: file /etc/chrony.conf of MachineConfig 50-worker-chrony is also written by MachineConfig 99-worker-chrony (role worker), which wins"}},
		ruleCase{rule: "MCF004", name: "two units of one name", files: map[string]string{
			"a.yaml": mcfConfigYAML("50-worker-ovs", "worker", "3.2.0", mcfOVSUnit("1000")...),
			"b.yaml": mcfConfigYAML("60-worker-ovs", "worker", "3.2.0", mcfOVSUnit("2000")...)},
			want: []string{"a.yaml:13:15: warning: systemd unit ovs-max-idle.service of MachineConfig 50-worker-ovs is also written by MachineConfig 60-worker-ovs (role worker), which wins"}},
		ruleCase{rule: "MCF004", name: "one file per role", files: map[string]string{
			"a.yaml": mcfConfigYAML("50-worker-chrony", "worker", "3.2.0", mcfFile("/etc/chrony.conf", "server%20a")...),
			"b.yaml": mcfConfigYAML("50-master-chrony", "master", "3.2.0", mcfFile("/etc/chrony.conf", "server%20b")...)}},

		ruleCase{rule: "MCF005", name: "Ignition 3.4.0 on 4.13", files: map[string]string{
			"cv.yaml": cv("4.13"), "mc.yaml": mcfConfigYAML("99-worker-x", "worker", "3.4.0", mcfFile("/etc/x", "x")...)},
			want: []string{"mc.yaml:10:16: error: MachineConfig 99-worker-x has Ignition version 3.4.0, newer than 3.2.0, the newest the OpenShift 4.13 MCO accepts (Butane openshift spec 4.13.0; release read from ClusterVersion version spec.channel \"stable-4.13\")"}},
		ruleCase{rule: "MCF005", name: "Ignition 3.4.0 on 4.14", files: map[string]string{
			"cv.yaml": cv("4.14"), "mc.yaml": mcfConfigYAML("99-worker-x", "worker", "3.4.0", mcfFile("/etc/x", "x")...)}},
		ruleCase{rule: "MCF005", name: "release unknown", files: map[string]string{
			"mc.yaml": mcfConfigYAML("99-worker-x", "worker", "3.5.0", mcfFile("/etc/x", "x")...)}},

		ruleCase{rule: "MCF006", name: "max-idle in a unit", files: map[string]string{
			"mc.yaml": mcfConfigYAML("99-worker-ovs", "worker", "3.2.0", mcfOVSUnit("15000")...)},
			want: []string{"mc.yaml:15:19: warning: MachineConfig 99-worker-ovs (ovs-max-idle.service) sets OVS other_config:max-idle=15000: unsupported tuning"}},
		ruleCase{rule: "MCF006", name: "max-idle in a script file", files: map[string]string{
			"mc.yaml": mcfConfigYAML("99-worker-ovs", "worker", "3.2.0",
				mcfFile("/usr/local/bin/ovs-idle.sh", "%23!/bin/sh%0Aovs-vsctl%20set%20Open_vSwitch%20.%20other_config:max-idle=20000%0A")...)},
			want: []string{"mc.yaml:16:19: warning: MachineConfig 99-worker-ovs (/usr/local/bin/ovs-idle.sh) sets OVS other_config:max-idle=20000"}},
		ruleCase{rule: "MCF006", name: "no OVS tuning", files: map[string]string{
			"mc.yaml": mcfConfigYAML("99-worker-x", "worker", "3.2.0", mcfFile("/etc/x", "x")...)}},

		ruleCase{rule: "MCF007", name: "max-idle below 500", files: map[string]string{
			"mc.yaml": mcfConfigYAML("99-worker-ovs", "worker", "3.2.0", mcfOVSUnit("100")...)},
			want: []string{"mc.yaml:15:19: error: MachineConfig 99-worker-ovs (ovs-max-idle.service) sets OVS other_config:max-idle=100: below the 500 ms OVS accepts"}},
		ruleCase{rule: "MCF007", name: "max-idle of 500", files: map[string]string{
			"mc.yaml": mcfConfigYAML("99-worker-ovs", "worker", "3.2.0", mcfOVSUnit("500")...)}},
	)
}

// TestReleaseIgnition: the Ignition versions Butane's openshift specs emit.
func TestReleaseIgnition(t *testing.T) {
	for minor, want := range map[platform.OCPMinor]string{8: "3.2.0", 13: "3.2.0", 14: "3.4.0", 18: "3.4.0", 19: "3.5.0"} {
		if _, got, ok := releaseIgnition(minor); !ok || got != want {
			t.Errorf("4.%d: %q (%v), want %s", minor, got, ok, want)
		}
	}
	if c, ok := mcfSemver("3.10.0", "3.4.0"); !ok || c != 1 {
		t.Errorf("3.10.0 vs 3.4.0: %d %v", c, ok)
	}
}

// TestMachineConfigRulesOnSite: what a site renders passes the MCF rules.
func TestMachineConfigRulesOnSite(t *testing.T) {
	got := ingLintSite(t, ingSiteYAML+`  remote:
    role: custom
    placement: remote
    subnets: [10.20.0.0/24]
    uplinkInterface: eno1
    uplinkMTU: 1500
    nodes:
    - {name: r0, ip: 10.20.0.11}
`, "MCF001", "MCF002", "MCF003", "MCF004", "MCF005", "MCF006", "MCF007")
	if len(got) > 0 {
		t.Errorf("findings on a site that renders:\n  %s", strings.Join(got, "\n  "))
	}
}
