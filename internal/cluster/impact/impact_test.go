package impact

import (
	"strings"
	"testing"

	"github.com/siteforge/siteforge/internal/cluster/disruption"
	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/platform"
)

func objs(t *testing.T, docs ...string) []*manifests.Object {
	t.Helper()
	var out []*manifests.Object
	for i, d := range docs {
		o, diags := manifests.ReadBytes("f"+string(rune('a'+i))+".yaml", []byte(d))
		if len(diags) > 0 {
			t.Fatal(diags)
		}
		out = append(out, o...)
	}
	return out
}

func node(name string, labels ...string) string {
	s := "apiVersion: v1\nkind: Node\nmetadata:\n  name: " + name + "\n  labels:\n"
	for _, l := range labels {
		s += "    " + l + ": \"\"\n"
	}
	return s
}

const infraPool = `apiVersion: machineconfiguration.openshift.io/v1
kind: MachineConfigPool
metadata:
  name: infra
spec:
  maxUnavailable: %MU%
  machineConfigSelector:
    matchExpressions:
    - {key: machineconfiguration.openshift.io/role, operator: In, values: [worker, infra]}
  nodeSelector:
    matchLabels:
      node-role.kubernetes.io/infra: ""
`

func mc(name, role, path, content string) string {
	return `apiVersion: machineconfiguration.openshift.io/v1
kind: MachineConfig
metadata:
  name: ` + name + `
  labels:
    machineconfiguration.openshift.io/role: ` + role + `
spec:
  config:
    ignition:
      version: 3.2.0
    storage:
      files:
      - path: ` + path + `
        mode: 420
        overwrite: true
        contents:
          source: data:,` + content + `
`
}

// TestPlainManifests: a cluster of plain manifests (an oc get export):
// nodes counted by the pools' nodeSelectors (a node of a custom pool is not
// the worker pool's), the custom pool inheriting the worker configs, waves
// from maxUnavailable, and a change only one pool takes.
func TestPlainManifests(t *testing.T) {
	nodes := []string{node("m0", platform.MasterRoleLabel), node("w0", platform.WorkerRoleLabel), node("w1", platform.WorkerRoleLabel),
		node("i0", platform.WorkerRoleLabel, platform.NodeRolePrefix+"infra"), node("i1", platform.WorkerRoleLabel, platform.NodeRolePrefix+"infra"),
		node("i2", platform.WorkerRoleLabel, platform.NodeRolePrefix+"infra")}
	before := append([]string{strings.Replace(infraPool, "%MU%", "1", 1), mc("99-worker-chrony", "worker", "/etc/chrony.conf", "a"), mc("99-infra-x", "infra", "/etc/x", "1")}, nodes...)
	after := append([]string{strings.Replace(infraPool, "%MU%", "2", 1), mc("99-worker-chrony", "worker", "/etc/chrony.conf", "b"), mc("99-infra-x", "infra", "/etc/x", "1")}, nodes...)
	rep, err := Compare([]Cluster{{Name: "c", Objects: objs(t, before...), Minor: 16}}, []Cluster{{Name: "c", Objects: objs(t, after...), Minor: 16}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, p := range rep.Pools {
		n := "?"
		if p.Nodes != nil {
			n = string(rune('0' + *p.Nodes))
		}
		got[p.Pool] = p.Action.String() + " " + n + " waves " + string(rune('0'+p.Waves))
		if p.Pool != "master" && (len(p.Changes) != 1 || p.Changes[0].Object != "MachineConfig 99-worker-chrony" || p.Changes[0].Path != "/etc/chrony.conf") {
			t.Errorf("pool %s changes %+v", p.Pool, p.Changes)
		}
	}
	want := map[string]string{"master": "none 1 waves 0", "worker": "reboot 2 waves 2", "infra": "reboot 3 waves 2"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("pool %s: %q, want %q (all %v)", k, got[k], v, got)
		}
	}
	found := false
	for _, o := range rep.Other {
		if o.Object == "MachineConfigPool infra" && o.Path == "spec.maxUnavailable" && strings.Contains(o.Reason, "1 -> 2") {
			found = true
		}
	}
	if !found {
		t.Errorf("no maxUnavailable note: %+v", rep.Other)
	}
	if rep.Max() != disruption.Reboot {
		t.Errorf("max %v", rep.Max())
	}
}

// TestNothingChanges: the same input on both sides reports no pool, and
// nodes the input does not count are null.
func TestNothingChanges(t *testing.T) {
	docs := []string{mc("99-worker-chrony", "worker", "/etc/chrony.conf", "a")}
	rep, err := Compare([]Cluster{{Name: "c", Objects: objs(t, docs...)}}, []Cluster{{Name: "c", Objects: objs(t, docs...)}})
	if err != nil || len(rep.Pools) != 0 || len(rep.Other) != 0 {
		t.Errorf("%+v %v", rep, err)
	}
	after := []string{mc("99-worker-chrony", "worker", "/etc/chrony.conf", "b")}
	rep, err = Compare([]Cluster{{Name: "c", Objects: objs(t, docs...)}}, []Cluster{{Name: "c", Objects: objs(t, after...)}})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range rep.Pools {
		if p.Nodes != nil {
			t.Errorf("pool %s: nodes %d, want null (no Node in the input)", p.Pool, *p.Nodes)
		}
	}
}

// TestRegistriesRefused: a mirror change MCO refuses to render leaves the
// nodes on the previous file: no pool action, and said.
func TestRegistriesRefused(t *testing.T) {
	idms := func(policy string) string {
		return "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata:\n  name: " + policy + "\nspec:\n  imageDigestMirrors:\n  - source: registry.redhat.io\n    mirrors: [m.example.com/rh]\n    mirrorSourcePolicy: " + policy + "\n"
	}
	before := objs(t, idms("NeverContactSource"))
	after := objs(t, idms("NeverContactSource"), idms("AllowContactingSource"))
	rep, err := Compare([]Cluster{{Name: "c", Objects: before}}, []Cluster{{Name: "c", Objects: after}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Pools) != 0 || len(rep.Other) != 1 || !strings.Contains(rep.Other[0].Reason, "refuses to render registries.conf") {
		t.Errorf("%+v", rep)
	}
}

// TestNetworkTypeMigration: Network.config spec.networkType changing
// (a live SDN -> OVN-Kubernetes migration) reboots every pool.
func TestNetworkTypeMigration(t *testing.T) {
	netcfg := func(typ string) string {
		return "apiVersion: config.openshift.io/v1\nkind: Network\nmetadata:\n  name: cluster\nspec:\n  networkType: " + typ + "\n"
	}
	rep, err := Compare([]Cluster{{Name: "c", Objects: objs(t, netcfg("OpenShiftSDN"))}}, []Cluster{{Name: "c", Objects: objs(t, netcfg("OVNKubernetes"))}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Pools) != 2 {
		t.Fatalf("%+v", rep)
	}
	for _, p := range rep.Pools {
		if p.Action != disruption.Reboot || len(p.Changes) != 1 || p.Changes[0].Path != "spec.networkType" {
			t.Errorf("pool %s: %+v", p.Pool, p)
		}
	}
	rep, _ = Compare([]Cluster{{Name: "c", Objects: objs(t, netcfg("OVNKubernetes"))}}, []Cluster{{Name: "c", Objects: objs(t, netcfg("OVNKubernetes"))}})
	if len(rep.Pools) != 0 {
		t.Errorf("no change: %+v", rep)
	}
	// CNO reads OpenshiftSDN as OpenShiftSDN (pkg/network/render.go
	// DeprecatedCanonicalize): respelling it migrates nothing.
	rep, _ = Compare([]Cluster{{Name: "c", Objects: objs(t, netcfg("OpenshiftSDN"))}}, []Cluster{{Name: "c", Objects: objs(t, netcfg("OpenShiftSDN"))}})
	if len(rep.Pools) != 0 {
		t.Errorf("respelled: %+v", rep)
	}
}

// TestGeneratedRegistriesBuiltinPoolsOnly: MCO generates registries.conf
// for its built-in pools only (container_runtime_config_controller.go
// syncImageConfig); a custom pool gets it through a selector taking the
// worker role, and one that does not take it gets none.
func TestGeneratedRegistriesBuiltinPoolsOnly(t *testing.T) {
	idms := func(mirror string) string {
		return "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata:\n  name: m\nspec:\n  imageDigestMirrors:\n  - source: registry.example.com/team\n    mirrors: [" + mirror + "]\n"
	}
	own := `apiVersion: machineconfiguration.openshift.io/v1
kind: MachineConfigPool
metadata:
  name: own
spec:
  machineConfigSelector:
    matchLabels: {machineconfiguration.openshift.io/role: own}
  nodeSelector:
    matchLabels: {node-role.kubernetes.io/own: ""}
`
	inherits := strings.Replace(strings.Replace(infraPool, "%MU%", "1", 1), "name: infra", "name: infra", 1)
	rep, err := Compare([]Cluster{{Name: "c", Objects: objs(t, own, inherits, idms("a.example.com/team")), Minor: 16}},
		[]Cluster{{Name: "c", Objects: objs(t, own, inherits, idms("b.example.com/team")), Minor: 16}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, p := range rep.Pools {
		got[p.Pool] = p.Action.String()
		if p.Pool == "infra" && (len(p.Changes) != 1 || p.Changes[0].Object != "MachineConfig 99-worker-generated-registries") {
			t.Errorf("infra changes %+v", p.Changes)
		}
	}
	if got["own"] != "none" || got["infra"] != "drain" || got["worker"] != "drain" || got["master"] != "drain" {
		t.Errorf("pools %v: want own none (no registries.conf from MCO), the others drain (a mirror replaced)", got)
	}
}

// TestRegistryDrainOverride: on 4.14 to 4.19, MCO skips the registries.conf
// drain when ConfigMap image-registry-override-drain is in its namespace
// (pkg/daemon/update.go hasImageRegistryDrainOverrideConfigMap).
func TestRegistryDrainOverride(t *testing.T) {
	idms := func(mirror string) string {
		return "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata:\n  name: m\nspec:\n  imageDigestMirrors:\n  - source: registry.example.com/team\n    mirrors: [" + mirror + "]\n"
	}
	cm := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: image-registry-override-drain\n  namespace: openshift-machine-config-operator\n"
	for _, tc := range []struct {
		minor platform.OCPMinor
		cm    bool
		want  disruption.Action
	}{{16, false, disruption.Drain}, {16, true, disruption.Reload}, {20, true, disruption.Drain}} {
		before, after := []string{idms("a.example.com/team")}, []string{idms("b.example.com/team")}
		if tc.cm {
			before, after = append(before, cm), append(after, cm)
		}
		rep, err := Compare([]Cluster{{Name: "c", Objects: objs(t, before...), Minor: tc.minor}}, []Cluster{{Name: "c", Objects: objs(t, after...), Minor: tc.minor}})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range rep.Pools {
			if p.Action != tc.want {
				t.Errorf("%s, override ConfigMap %v: pool %s %s, want %s", tc.minor, tc.cm, p.Pool, p.Action, tc.want)
			}
		}
	}
}

// TestIgnitionSpecUnsupported: a MachineConfig of an Ignition spec the
// release's MCO does not parse fails the render: no node is updated, and
// the report says why.
func TestIgnitionSpecUnsupported(t *testing.T) {
	old := mc("99-worker-x", "worker", "/etc/x", "a")
	new := strings.Replace(mc("99-worker-x", "worker", "/etc/x", "b"), "version: 3.2.0", "version: 3.5.0", 1)
	rep, err := Compare([]Cluster{{Name: "c", Objects: objs(t, old), Minor: 16}}, []Cluster{{Name: "c", Objects: objs(t, new), Minor: 16}})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, o := range rep.Other {
		if strings.Contains(o.Reason, "3.5.0") && o.Object == "MachineConfigPool worker" {
			found = true
		}
	}
	if !found || rep.Max() != disruption.None {
		t.Errorf("%+v", rep)
	}
}
