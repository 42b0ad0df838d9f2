package rules

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/siteforge/siteforge/internal/butane"
	"github.com/siteforge/siteforge/internal/cluster/nodes"
	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/lint"
)

// MCF rules: MachineConfigPools and MachineConfigs, in plain manifests and in
// what sites render (the pools generator's MachineConfigPools, the Butane
// MachineConfigs of machineConfigs, MTU and OVS tuning). Butane sources
// (.bu) are not read: the manifest reader reads Kubernetes YAML and JSON
// only, so a Butane spec newer than the release is judged by the Ignition
// version of the MachineConfig it was translated to.

const mcfPoolKind, mcfConfigKind = "MachineConfigPool", "MachineConfig"

func init() {
	lint.RegisterFamily("v1alpha1", mcfChecks, []*lint.Rule{
		{ID: "MCF001", Name: "custom-pool-not-inheriting-worker", Severity: lint.Error,
			Summary: "a custom MachineConfigPool's machineConfigSelector does not take the worker MachineConfigs",
			Rationale: "A custom pool must select the worker MachineConfigs as well as its own (machineConfigSelector " +
				"machineconfiguration.openshift.io/role In [worker, <pool>]): the worker role's base configs (00-worker, kubelet, CRI-O, the " +
				"OS image) reach its nodes only that way, and a node moved into a pool without them is rendered a config without the " +
				"basics (docs \"Creating a custom machine config pool\"). MCO's own pools are not custom: master, worker and, on a two-node-with-arbiter " +
				"cluster, arbiter (machine-config-operator manifests/arbiter.machineconfigpool.yaml; pkg/controller/common IsCustomPool). " +
				"Sites: the pools generator always writes it so.",
			Fix: "Set spec.machineConfigSelector to matchExpressions [{key: machineconfiguration.openshift.io/role, operator: In, values: [worker, <pool>]}]."},
		{ID: "MCF002", Name: "node-in-two-custom-pools", Severity: lint.Error,
			Summary: "two custom MachineConfigPools can select the same nodes",
			Rationale: "A node may match only one custom pool: MCO refuses to place a node matching two (it stays in its old pool, and the pool " +
				"reports the conflict) (docs \"Configuring network components to run on the control plane\"; CIO names.go RemoteWorkerLabel). Two pools conflict when one's nodeSelector is contained in the other's (identical, " +
				"or a subset of its matchLabels), or, when the set holds Node objects, when a node matches both. Sites: render refuses pools whose " +
				"labels do this.",
			Fix: "Give each custom pool a node label of its own (node-role.kubernetes.io/<pool>) and select only that."},
		{ID: "MCF003", Name: "custom-master-pool", Severity: lint.Error,
			Summary: "a custom MachineConfigPool selects control-plane nodes or the master MachineConfigs",
			Rationale: "Custom pools are for workers only: the control plane stays in the built-in master pool. A custom pool whose nodeSelector " +
				"requires node-role.kubernetes.io/master, or whose machineConfigSelector takes role master, is unsupported (docs \"Creating a " +
				"custom machine config pool\").",
			Fix: "Remove the pool; put control-plane MachineConfigs in role master."},
		{ID: "MCF004", Name: "machineconfig-path-conflict", Severity: lint.Warning,
			Summary: "two MachineConfigs of the same role write the same file or systemd unit, and only the last by name takes effect",
			Rationale: "MCO merges a pool's MachineConfigs sorted by name: for a file path or unit name written by several, the last one's " +
				"content wins and the others are silently dropped (MCO MergeMachineConfigs). Often unintended: two teams' configs, or a " +
				"hand-written config colliding with one siteforge renders.",
			Fix: "Merge the contents into one MachineConfig, or rename so the intended one sorts last and remove the other's entry."},
		{ID: "MCF005", Name: "ignition-version-newer-than-release", Severity: lint.Error,
			Summary: "a MachineConfig's Ignition version is newer than the release's MCO accepts (a Butane spec newer than the release)",
			Rationale: "Butane's openshift spec 4.N.0 emits the Ignition spec version the OpenShift 4.N MCO accepts (3.2.0 up to 4.13, 3.4.0 from " +
				"4.14, 3.5.0 from 4.19; Butane rolls a spec back when the MCO lags: coreos/butane #307, #715). A MachineConfig translated from " +
				"a newer spec carries an Ignition version that release's MCO cannot parse, and the pool degrades. The release is the site's " +
				"cluster.version, --ocp-version, or the release the set states (docs/rules.md \"The release of plain manifests\": a ClusterVersion, the ClusterImageSet of a ClusterInstance or AgentClusterInstall, an ImageSetConfiguration); unknown: skipped. Butane files (.bu) are not read: the rule " +
				"judges the translated MachineConfig.",
			Fix: "Translate the Butane config with the spec version of the cluster's release (variant: openshift, version: 4.N.0), or upgrade the cluster first."},
		{ID: "MCF006", Name: "ovs-max-idle-unsupported", Severity: lint.Warning,
			Summary: "a MachineConfig sets the OVS datapath flow idle timeout (other_config:max-idle), unsupported tuning",
			Rationale: "`ovs-vsctl set Open_vSwitch . other_config:max-idle=<ms>` (OVS default 10000 ms) is tuning OpenShift neither sets nor " +
				"supports (OVS vswitch.xml other_config:max-idle): a cluster running it may be asked to remove it before a networking problem is looked at.",
			Fix: "Remove it unless you accept running unsupported tuning; then suppress with that reason."},
		{ID: "MCF008", Name: "pool-degraded-by-flagged-config", Severity: lint.Error,
			Summary: "a running cluster's MachineConfigPool is degraded, and one of its MachineConfigs is one another rule reports an error on",
			Rationale: "MCO marks a pool Degraded when it cannot render its configuration (RenderDegraded: a MachineConfig that does not parse, an " +
				"Ignition version the release does not accept) or a node cannot apply it (NodeDegraded), and then updates none of its nodes " +
				"(api machineconfiguration/v1 MachineConfigPoolConditionType; machine-config-operator pkg/controller/node status.go " +
				"calculateStatus). Read from a running cluster's state, the pool's conditions say that it is degraded; the lint rules say " +
				"which of the MachineConfigs its machineConfigSelector takes is wrong (MCF005 an Ignition version newer than the release's " +
				"MCO, MIR012 a registries.conf MachineConfig, ...). This rule joins the two at the pool's condition, naming the " +
				"MachineConfig and the finding. A pool degraded by nothing siteforge flags is not reported.",
			Fix:           "Fix the MachineConfig the finding names (the rule it quotes says how); MCO renders the pool again and rolls it out.",
			CheckFindings: checkPoolDegradedByFlagged},
		{ID: "MCF007", Name: "ovs-max-idle-below-minimum", Severity: lint.Error,
			Summary: "a MachineConfig sets OVS other_config:max-idle below 500 ms",
			Rationale: "OVS accepts other_config:max-idle from 500 ms (vswitch.xml minInteger 500); below that the setting is not applied as " +
				"written (OVS vswitch.xml other_config:max-idle). Sites: render refuses ovs.flowIdleTimeoutMs below 500.",
			Fix: "Use 500 ms or more (OVS default 10000), or remove the setting."},
	})
}

var mcfChecks = map[string]func(lint.Set, *lint.Reporter){
	"MCF001": checkPoolInheritsWorker,
	"MCF002": checkNodeInTwoPools,
	"MCF003": checkCustomMasterPool,
	"MCF004": checkMachineConfigConflicts,
	"MCF005": checkIgnitionVersion,
	"MCF006": checkOVSMaxIdle(false),
	"MCF007": checkOVSMaxIdle(true),
}

// mcfPool is a MachineConfigPool of a set.
type mcfPool struct {
	obj  *manifests.Object
	spec struct {
		MachineConfigSelector *metav1.LabelSelector `json:"machineConfigSelector"`
		NodeSelector          *metav1.LabelSelector `json:"nodeSelector"`
	}
}

func (p mcfPool) custom() bool { return !platform.BuiltinPool(p.obj.Name) }

func mcfPools(set lint.Set) []mcfPool {
	var out []mcfPool
	for _, o := range set.Kind(manifests.GroupMachineConfigV1, mcfPoolKind) {
		var doc struct {
			Spec struct {
				MachineConfigSelector *metav1.LabelSelector `json:"machineConfigSelector"`
				NodeSelector          *metav1.LabelSelector `json:"nodeSelector"`
			} `json:"spec"`
		}
		if o.DecodeLoose(&doc) != nil {
			continue
		}
		p := mcfPool{obj: o}
		p.spec.MachineConfigSelector, p.spec.NodeSelector = doc.Spec.MachineConfigSelector, doc.Spec.NodeSelector
		out = append(out, p)
	}
	return out
}

// controlPlane reports whether a pool takes control-plane nodes or configs.
func (p mcfPool) controlPlane() (bool, []string) {
	if nodes.RequiresLabel(p.spec.NodeSelector, platform.MasterRoleLabel) {
		return true, []string{"spec", "nodeSelector"}
	}
	if nodes.SelectsRole(p.spec.MachineConfigSelector, platform.MachineConfigRoleMaster) {
		return true, []string{"spec", "machineConfigSelector"}
	}
	return false, nil
}

func checkPoolInheritsWorker(set lint.Set, r *lint.Reporter) {
	for _, p := range mcfPools(set) {
		if !p.custom() || nodes.InheritsWorker(p.spec.MachineConfigSelector) {
			continue
		}
		if cp, _ := p.controlPlane(); cp {
			continue // MCF003
		}
		sel := "none"
		if p.spec.MachineConfigSelector != nil {
			sel = metav1.FormatLabelSelector(p.spec.MachineConfigSelector)
		}
		r.Object(p.obj, fmt.Sprintf("custom MachineConfigPool %s takes MachineConfigs %s, not those of role worker: its nodes lose the worker base configs; "+
			"select %s In [worker, %s]", p.obj.Name, sel, platform.MachineConfigRoleLabel, p.obj.Name), "spec", "machineConfigSelector")
	}
}

func checkNodeInTwoPools(set lint.Set, r *lint.Reporter) {
	var custom []mcfPool
	for _, p := range mcfPools(set) {
		if p.custom() && p.spec.NodeSelector != nil {
			custom = append(custom, p)
		}
	}
	var plainNodes []plainNode
	if set.Site == nil {
		plainNodes = plainClusterOf(set).nodes
	}
	for j := 1; j < len(custom); j++ {
		for i := 0; i < j; i++ {
			a, b := custom[i], custom[j]
			if a.obj.Name == b.obj.Name {
				continue // one pool defined twice (INP004), not two pools
			}
			var why string
			switch {
			case len(plainNodes) > 0:
				var both []string
				for _, n := range plainNodes {
					if manifests.SelectorMatches(a.spec.NodeSelector, n.labels) && manifests.SelectorMatches(b.spec.NodeSelector, n.labels) {
						both = append(both, n.name)
					}
				}
				if len(both) == 0 {
					continue
				}
				why = "nodes " + strings.Join(both, ", ") + " match both"
			case nodes.Covers(a.spec.NodeSelector, b.spec.NodeSelector):
				why = "every node " + b.obj.Name + " selects matches " + a.obj.Name + "'s selector too"
			case nodes.Covers(b.spec.NodeSelector, a.spec.NodeSelector):
				why = "every node " + a.obj.Name + " selects matches " + b.obj.Name + "'s selector too"
			default:
				continue
			}
			r.Object(b.obj, fmt.Sprintf("custom MachineConfigPools %s (%s) and %s (%s) can select the same nodes (%s): a node may match only one custom pool; "+
				"select each pool's own node-role.kubernetes.io/<pool> label",
				a.obj.Name, metav1.FormatLabelSelector(a.spec.NodeSelector), b.obj.Name, metav1.FormatLabelSelector(b.spec.NodeSelector), why),
				"spec", "nodeSelector")
		}
	}
}

func checkCustomMasterPool(set lint.Set, r *lint.Reporter) {
	for _, p := range mcfPools(set) {
		if !p.custom() {
			continue
		}
		if cp, path := p.controlPlane(); cp {
			r.Object(p.obj, fmt.Sprintf("custom MachineConfigPool %s selects control-plane nodes or the master MachineConfigs (%s): custom pools for the control "+
				"plane are unsupported; keep the masters in the built-in master pool", p.obj.Name, strings.Join(path[1:], "")), path...)
		}
	}
}

// mcfConfig is a MachineConfig of a set, with what it writes.
type mcfConfig struct {
	obj      *manifests.Object
	role     string
	ignition string
	files    []mcfEntry // storage.files by path
	units    []mcfEntry // systemd.units by name
}

// mcfEntry is one file or unit: its key, field path and (decoded) content.
type mcfEntry struct {
	key      string
	path     []string
	content  string
	contents []string // where the content is (for positions)
}

// mcfConfigs lists the files and units of the set's MachineConfigs,
// computed once per set: shared by the rules, never changed.
func mcfConfigs(set lint.Set) []mcfConfig {
	return lint.Fact(set, factMCFConfigs, func() []mcfConfig { return newMCFConfigs(set) })
}

func newMCFConfigs(set lint.Set) []mcfConfig {
	var out []mcfConfig
	for _, mc := range machineConfigs(set) {
		cfg := mc.Config
		c := mcfConfig{obj: mc.Obj, role: mc.Role, ignition: cfg.Ignition.Version}
		for i, f := range cfg.Storage.Files {
			at := []string{"spec", "config", "storage", "files", strconv.Itoa(i)}
			data, _ := f.Data(manifests.MaxFileSize) // remote or undecodable: no content to compare
			c.files = append(c.files, mcfEntry{key: f.Path, path: append(at, "path"), content: string(data),
				contents: append(append([]string(nil), at...), "contents", "source")})
		}
		for i, u := range cfg.Systemd.Units {
			at := []string{"spec", "config", "systemd", "units", strconv.Itoa(i)}
			c.units = append(c.units, mcfEntry{key: u.Name, path: append(at, "name"), content: u.Contents,
				contents: append(append([]string(nil), at...), "contents")})
			for j, d := range u.Dropins {
				c.units = append(c.units, mcfEntry{key: u.Name + "/" + d.Name, path: append(append([]string(nil), at...), "dropins", strconv.Itoa(j), "name"),
					content: d.Contents, contents: append(append([]string(nil), at...), "dropins", strconv.Itoa(j), "contents")})
			}
		}
		out = append(out, c)
	}
	return out
}

func checkMachineConfigConflicts(set lint.Set, r *lint.Reporter) {
	byRole := map[string][]mcfConfig{}
	for _, c := range mcfConfigs(set) {
		if c.role != "" {
			byRole[c.role] = append(byRole[c.role], c)
		}
	}
	for _, role := range slices.Sorted(maps.Keys(byRole)) {
		cs := byRole[role]
		sort.SliceStable(cs, func(i, j int) bool { return cs[i].obj.Name < cs[j].obj.Name })
		for _, what := range []string{"file", "systemd unit"} {
			winner := map[string]mcfConfig{} // key -> last writer
			for _, c := range cs {
				for _, e := range mcfEntries(c, what) {
					winner[e.key] = c
				}
			}
			for _, c := range cs {
				for _, e := range mcfEntries(c, what) {
					w := winner[e.key]
					if w.obj == c.obj {
						continue
					}
					r.Object(c.obj, fmt.Sprintf("%s %s of MachineConfig %s is also written by MachineConfig %s (role %s), which wins: MCO merges a pool's "+
						"MachineConfigs in name order and the last one's %s replaces this one; merge them, or drop this entry",
						what, e.key, c.obj.Name, w.obj.Name, role, what), e.path...)
				}
			}
		}
	}
}

func mcfEntries(c mcfConfig, what string) []mcfEntry {
	if what == "file" {
		return c.files
	}
	return c.units
}

// ignitionByRelease caches, per OpenShift minor, the Ignition version the
// release's Butane spec emits.
var ignitionByRelease sync.Map

// releaseIgnition is the Ignition spec version a MachineConfig translated
// with the release's Butane openshift spec carries: the newest its MCO
// accepts. It asks the Butane translation siteforge renders with.
func releaseIgnition(minor platform.OCPMinor) (string, string, bool) {
	type entry struct{ spec, ignition string }
	if v, ok := ignitionByRelease.Load(minor); ok {
		e := v.(entry)
		return e.spec, e.ignition, e.ignition != ""
	}
	var e entry
	res, err := butane.Build(butane.Config{Name: "probe", Role: platform.MachineConfigRoleWorker, Body: []byte("storage:\n  files: []\n")}, minor.String())
	if err == nil {
		e.spec = res.SpecVersion
		if spec, ok := res.Object["spec"].(map[string]any); ok {
			if cfg, ok := spec["config"].(map[string]any); ok {
				if ign, ok := cfg["ignition"].(map[string]any); ok {
					e.ignition, _ = ign["version"].(string)
				}
			}
		}
	}
	ignitionByRelease.Store(minor, e)
	return e.spec, e.ignition, e.ignition != ""
}

// mcfSemver compares dotted versions numerically: -1, 0, 1; ok false when
// either does not parse.
func mcfSemver(a, b string) (int, bool) {
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < max(len(pa), len(pb)); i++ {
		var x, y int
		var err error
		if i < len(pa) {
			if x, err = strconv.Atoi(pa[i]); err != nil {
				return 0, false
			}
		}
		if i < len(pb) {
			if y, err = strconv.Atoi(pb[i]); err != nil {
				return 0, false
			}
		}
		switch {
		case x < y:
			return -1, true
		case x > y:
			return 1, true
		}
	}
	return 0, true
}

func checkIgnitionVersion(set lint.Set, r *lint.Reporter) {
	minor := set.Minor
	if minor == 0 {
		return
	}
	spec, ign, ok := releaseIgnition(minor)
	if !ok {
		return
	}
	for _, c := range mcfConfigs(set) {
		if cmp, ok := mcfSemver(c.ignition, ign); ok && cmp > 0 {
			r.Object(c.obj, fmt.Sprintf("MachineConfig %s has Ignition version %s, newer than %s, the newest the OpenShift %s MCO accepts (Butane openshift spec %s; release read from %s): "+
				"the pool degrades; translate it with variant: openshift, version: %s", c.obj.Name, c.ignition, ign, minor, spec, set.MinorFrom, spec),
				"spec", "config", "ignition", "version")
		}
	}
}

// ovsMaxIdle finds `other_config:max-idle=N` in what runs ovs-vsctl.
var ovsMaxIdle = regexp.MustCompile(`other_config:max-idle\s*=\s*["']?(-?[0-9]+)`)

func checkOVSMaxIdle(belowMinimum bool) func(lint.Set, *lint.Reporter) {
	return func(set lint.Set, r *lint.Reporter) {
		for _, c := range mcfConfigs(set) {
			for _, e := range append(append([]mcfEntry(nil), c.units...), c.files...) {
				if !strings.Contains(e.content, "ovs-vsctl") {
					continue
				}
				for _, m := range ovsMaxIdle.FindAllStringSubmatch(e.content, -1) {
					ms, err := strconv.Atoi(m[1])
					if err != nil {
						continue
					}
					switch {
					case belowMinimum && ms < platform.OVSMaxIdleMinMs:
						r.Object(c.obj, fmt.Sprintf("MachineConfig %s (%s) sets OVS other_config:max-idle=%d: below the %d ms OVS accepts; use %d or more (OVS default %d), or remove it",
							c.obj.Name, e.key, ms, platform.OVSMaxIdleMinMs, platform.OVSMaxIdleMinMs, platform.OVSMaxIdleDefaultMs), e.contents...)
					case !belowMinimum:
						r.Object(c.obj, fmt.Sprintf("MachineConfig %s (%s) sets OVS other_config:max-idle=%d: unsupported tuning (OpenShift neither sets nor supports it; "+
							"OVS default %d ms); remove it, or suppress MCF006 with the reason you run it", c.obj.Name, e.key, ms, platform.OVSMaxIdleDefaultMs), e.contents...)
					}
				}
			}
		}
	}
}
