// Package impact compares two states of the same clusters (before and after
// a change) and says, pool by pool, what the Machine Config Operator does to
// the nodes: nothing, reload or restart CRI-O, drain, or reboot, and why,
// change by change. The rules themselves are MCO's, in
// internal/cluster/disruption; this package builds what MCO compares - each
// pool's MachineConfigs (those its machineConfigSelector takes, plus the
// registries.conf MCO generates from the mirror objects and image.config) -
// and the changes outside MachineConfigs that roll nodes (an MTU migration,
// a network type migration). Pure: no I/O.
package impact

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	machineconfigv1 "github.com/openshift/api/machineconfiguration/v1"
	operatorv1 "github.com/openshift/api/operator/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/siteforge/siteforge/internal/cluster/disruption"
	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/registries"
)

// Cluster is one state of one cluster: a site's rendered objects, or a
// cluster of plain manifests.
type Cluster struct {
	// Name identifies the cluster on both sides: the site's name, or the
	// cluster root relative to the input.
	Name    string
	Objects []*manifests.Object
	// Minor is the release (0: unknown, the latest); ReleaseImage the
	// release payload when known (MCO's payload rule for registries.conf).
	Minor        platform.OCPMinor
	ReleaseImage string
	// PoolNodes are the node counts a site states, by MachineConfigPool
	// (-1: unknown); nil for plain manifests, whose Node objects are
	// counted.
	PoolNodes map[string]int
	// NotInstalled is a site still to be installed (cluster.lifecycle:
	// install): it has no node to disrupt.
	NotInstalled bool
	// Live is a running cluster's state (a must-gather, an Insights
	// archive), on either side: its MachineConfigPools are the cluster's
	// own, and so are their node counts (status.machineCount) and
	// maxUnavailable, which the other side takes where it does not define
	// the pool; the MachineConfigs MCO generated (manifests.Object.WrittenBy)
	// are MCO's, stood in for as on the other side, so two states of the
	// same cluster differ only where the user's objects do.
	Live bool
}

// Change is one difference and what MCO does about it.
type Change struct {
	Object string            `json:"object"`
	Path   string            `json:"path"`
	Action disruption.Action `json:"action"`
	Reason string            `json:"reason"`
	// Refused: MCO refuses the new configuration (not reconcilable in
	// place): the pool degrades and no node is updated.
	Refused bool `json:"refused,omitempty"`
}

// Pool is what a change does to one MachineConfigPool of one cluster.
type Pool struct {
	Site    string            `json:"site"`
	Pool    string            `json:"pool"`
	Nodes   *int              `json:"nodes"`
	Action  disruption.Action `json:"action"`
	Changes []Change          `json:"changes"`
	// MaxUnavailable is how many of the pool's nodes MCO updates at
	// once (the pool's spec.maxUnavailable; 1 by default); Waves the
	// number of rounds the update takes, node by node (0 when nothing
	// rolls out or the node count is unknown).
	MaxUnavailable string `json:"maxUnavailable"`
	Waves          int    `json:"waves"`
}

// Other is a change with no pool to charge it to, or news about the
// clusters themselves (one added, one removed, one MCO refuses).
type Other struct {
	Site   string            `json:"site"`
	Object string            `json:"object"`
	Path   string            `json:"path"`
	Action disruption.Action `json:"action"`
	Reason string            `json:"reason"`
}

// Report is the impact of a change on every cluster.
type Report struct {
	Pools []Pool  `json:"pools"`
	Other []Other `json:"other"`
}

// Max is the strongest action of the report.
func (r Report) Max() disruption.Action {
	a := disruption.None
	for _, p := range r.Pools {
		a = max(a, p.Action)
	}
	for _, o := range r.Other {
		a = max(a, o.Action)
	}
	return a
}

// Compare compares the clusters of two states, matched by name.
func Compare(before, after []Cluster) (Report, error) {
	rep := Report{Pools: []Pool{}, Other: []Other{}}
	old := map[string]Cluster{}
	for _, c := range before {
		old[c.Name] = c
	}
	seen := map[string]bool{}
	for _, n := range after {
		seen[n.Name] = true
		o, ok := old[n.Name]
		if n.NotInstalled {
			if ok && o.NotInstalled && sameObjects(o.Objects, n.Objects) {
				continue // nothing changes for it
			}
			if ok && !o.NotInstalled {
				rep.Other = append(rep.Other, Other{Site: n.Name, Path: "cluster.lifecycle", Action: disruption.None,
					Reason: "the site is marked to be installed again (cluster.lifecycle: install): siteforge renders day-0 inputs, which change nothing on a running cluster"})
			} else {
				rep.Other = append(rep.Other, Other{Site: n.Name, Path: "cluster.lifecycle", Action: disruption.None,
					Reason: "the cluster is still to be installed (cluster.lifecycle: install): no node runs yet, so none is disrupted; the nodes get this configuration at installation"})
			}
			continue
		}
		if !ok {
			rep.Other = append(rep.Other, Other{Site: n.Name, Action: disruption.None,
				Reason: "a new cluster: nothing runs yet, so no node is disrupted (its nodes get this configuration when they join)"})
			continue
		}
		if err := compareCluster(&rep, o, n); err != nil {
			return Report{}, fmt.Errorf("%s: %w", n.Name, err)
		}
	}
	for _, o := range before {
		if !seen[o.Name] && !o.NotInstalled {
			rep.Other = append(rep.Other, Other{Site: o.Name, Action: disruption.None,
				Reason: "the cluster is no longer in the input: removing its files from git changes nothing on its nodes"})
		}
	}
	sort.SliceStable(rep.Pools, func(i, j int) bool {
		a, b := rep.Pools[i], rep.Pools[j]
		if a.Site != b.Site {
			return a.Site < b.Site
		}
		return poolOrder(a.Pool) < poolOrder(b.Pool)
	})
	sort.SliceStable(rep.Other, func(i, j int) bool { return rep.Other[i].Site < rep.Other[j].Site })
	return rep, nil
}

// poolOrder sorts master, worker, then custom pools by name.
func poolOrder(p string) string {
	switch p {
	case platform.MachineConfigRoleMaster:
		return "0"
	case platform.MachineConfigRoleWorker:
		return "1"
	}
	return "2" + p
}

// pool is a MachineConfigPool as MCO reads it.
type pool struct {
	name                              string
	machineConfigSelector, nodeSelect *metav1.LabelSelector
	maxUnavailable                    *intstr.IntOrString
	obj                               *manifests.Object // nil for a built-in pool not in the input
}

// builtinPool is MCO's own pool of a role (the install manifests:
// machineConfigSelector on the role label, nodeSelector on the node role).
func builtinPool(role string) pool {
	return pool{name: role,
		machineConfigSelector: &metav1.LabelSelector{MatchLabels: map[string]string{platform.MachineConfigRoleLabel: role}},
		nodeSelect:            &metav1.LabelSelector{MatchLabels: map[string]string{platform.NodeRolePrefix + role: ""}}}
}

// pools are the cluster's MachineConfigPools: the input's, and MCO's
// master and worker when the input does not hold them.
func pools(c Cluster) map[string]pool {
	out := map[string]pool{}
	for _, p := range manifests.MachineConfigPools(c.Objects) {
		out[p.Obj.Name] = pool{name: p.Obj.Name, machineConfigSelector: p.MCP.Spec.MachineConfigSelector, nodeSelect: p.MCP.Spec.NodeSelector,
			maxUnavailable: p.MCP.Spec.MaxUnavailable, obj: p.Obj}
	}
	for _, b := range platform.BuiltinPools {
		if _, ok := out[b]; !ok {
			out[b] = builtinPool(b)
		}
	}
	return out
}

// machineConfigs are the MachineConfigs pools select from, decoded once
// per cluster: the input's, and what MCO adds for its built-in pools - its own
// configs (00-master, 00-worker, 01-*-kubelet, ...: the same on both sides,
// so one empty stand-in per role keeps their place first in the merge) and
// the registries.conf it generates (generated, as
// 99-<role>-generated-registries labelled with the role: MCO's container
// runtime config controller generates it for the built-in pools only, and a
// custom pool takes the worker one through its selector,
// pkg/controller/container-runtime-config container_runtime_config_controller.go
// syncImageConfig).
func machineConfigs(c Cluster, generated *machineconfigv1.MachineConfig) ([]machineconfigv1.MachineConfig, error) {
	var all []machineconfigv1.MachineConfig
	for _, role := range platform.BuiltinPools {
		base := machineconfigv1.MachineConfig{}
		base.Name = "00-" + role
		base.Labels = map[string]string{platform.MachineConfigRoleLabel: role}
		base.Spec.Config.Raw = []byte(`{"ignition":{"version":"3.2.0"}}`)
		all = append(all, base)
		if generated != nil {
			g := *generated.DeepCopy()
			g.Name = fmt.Sprintf(platform.RegistriesMachineConfigNameFormat, role)
			g.Labels = map[string]string{platform.MachineConfigRoleLabel: role}
			all = append(all, g)
		}
	}
	for _, o := range c.Objects {
		if o.Kind != "MachineConfig" || o.APIVersion != manifests.GroupMachineConfigV1 {
			continue
		}
		if c.Live && o.WrittenBy != "" {
			continue // MCO's own, stood in for above
		}
		var mc machineconfigv1.MachineConfig
		if err := o.DecodeLoose(&mc); err != nil {
			return nil, fmt.Errorf("%s: %w", o.ID(), err)
		}
		all = append(all, mc)
	}
	return all, nil
}

// poolConfigs are the MachineConfigs of all that a pool's
// machineConfigSelector takes.
func poolConfigs(all []machineconfigv1.MachineConfig, p pool) []machineconfigv1.MachineConfig {
	var out []machineconfigv1.MachineConfig
	for _, mc := range all {
		if p.machineConfigSelector != nil && manifests.SelectorMatches(p.machineConfigSelector, mc.Labels) {
			out = append(out, mc)
		}
	}
	return out
}

// registriesConfig is the registries.conf MCO writes for the cluster, as
// the MachineConfig it generates (nil when the input holds no mirror
// object and no image.config: MCO's base file, the same on both sides), or
// MCO's refusal.
func registriesConfig(c Cluster) (*machineconfigv1.MachineConfig, error) {
	ms := manifests.ReadMirrors(c.Objects)
	if len(ms.DigestSets) == 0 && len(ms.TagSets) == 0 && len(ms.ContentPolicies) == 0 && ms.Image == nil {
		return nil, nil
	}
	conf, err := registries.Render(ms.Input(int(c.Minor), c.ReleaseImage))
	if err != nil {
		return nil, err
	}
	data, err := conf.TOML()
	if err != nil {
		return nil, err
	}
	return fileMachineConfig(platform.RegistriesConfPath, data), nil
}

// fileMachineConfig is a MachineConfig writing one file, as MCO generates
// them (Ignition spec 3, a data URL).
func fileMachineConfig(path string, data []byte) *machineconfigv1.MachineConfig {
	cfg := map[string]any{
		"ignition": map[string]any{"version": "3.2.0"},
		"storage": map[string]any{"files": []any{map[string]any{
			"path": path, "mode": 0o644, "overwrite": true,
			"contents": map[string]any{"source": "data:text/plain;charset=utf-8;base64," + b64(data)},
		}}},
	}
	raw, _ := json.Marshal(cfg)
	mc := &machineconfigv1.MachineConfig{}
	mc.Spec.Config.Raw = raw
	return mc
}

// compareCluster adds the pools of one cluster, and its other changes.
func compareCluster(rep *Report, o, n Cluster) error {
	oldGen, oldErr := registriesConfig(o)
	newGen, newErr := registriesConfig(n)
	switch {
	case newErr != nil:
		// MCO keeps the previous registries.conf on every node and
		// reports the error: nothing rolls, and nothing changes.
		rep.Other = append(rep.Other, Other{Site: n.Name, Object: "registries.conf", Path: platform.RegistriesConfPath, Action: disruption.None,
			Reason: "the Machine Config Operator refuses to render registries.conf after the change (" + newErr.Error() + "): the nodes keep the previous file and the pools degrade; fix the mirror objects"})
		newGen = oldGen
	case oldErr != nil:
		// MCO could not render before: the nodes run what was there
		// before that, which the input does not say.
		rep.Other = append(rep.Other, Other{Site: n.Name, Object: "registries.conf", Path: platform.RegistriesConfPath, Action: disruption.None,
			Reason: "before the change the Machine Config Operator refused to render registries.conf (" + oldErr.Error() + "): what the nodes run now is not in the input, so the registries.conf change is compared with MCO's base file"})
		oldGen = nil
	}
	var policy *disruption.NodeDisruptionPolicy
	if mc := nodeDisruptionPolicy(n); mc != nil {
		p, err := disruption.ReadNodeDisruptionPolicy(mc)
		if err != nil {
			return err
		}
		policy = p
	}
	if registryDrainOverride(n) {
		if policy == nil {
			policy = &disruption.NodeDisruptionPolicy{}
		}
		policy.RegistryDrainOverride = true
	}
	oldPools, newPools := pools(o), pools(n)
	liveNodes := livePools(o, n, oldPools, newPools)
	if nl := livePools(n, o, newPools, oldPools); nl != nil {
		liveNodes = nl // the cluster as it is after the change
	}
	names := map[string]bool{}
	for p := range newPools {
		names[p] = true
	}
	for p := range oldPools {
		if _, ok := newPools[p]; !ok {
			rep.Other = append(rep.Other, Other{Site: n.Name, Object: "MachineConfigPool " + p, Action: disruption.None,
				Reason: "the pool is no longer in the input: deleting a MachineConfigPool does not move its nodes (they keep their configuration until relabelled into another pool)"})
		}
	}
	migration := migrationChanges(o, n)
	oldAll, err := machineConfigs(o, oldGen)
	if err != nil {
		return err
	}
	newAll, err := machineConfigs(n, newGen)
	if err != nil {
		return err
	}
	newNodes := manifests.Nodes(n.Objects)
	var clusterPools []Pool
	changed := false
	for _, name := range sortedNames(names) {
		np := newPools[name]
		op, existed := oldPools[name]
		if !existed {
			// a new custom pool: its nodes leave the worker pool, so they
			// go from the worker pool's configuration to the new pool's
			op = oldPools[platform.MachineConfigRoleWorker]
		}
		oldMCs, newMCs := poolConfigs(oldAll, op), poolConfigs(newAll, np)
		changes, err := poolChanges(oldMCs, newMCs, policy, n.Minor)
		var specErr *disruption.IgnitionSpecError
		if errors.As(err, &specErr) {
			// MCO cannot render the pool's config: the pool degrades and
			// no node is updated
			rep.Other = append(rep.Other, Other{Site: n.Name, Object: "MachineConfigPool " + name, Action: disruption.None, Reason: err.Error()})
			changed = true
			continue
		}
		if err != nil {
			return fmt.Errorf("pool %s: %w", name, err)
		}
		changes = append(append([]Change{}, changes...), migration...)
		if !existed {
			rep.Other = append(rep.Other, Other{Site: n.Name, Object: "MachineConfigPool " + name, Action: disruption.None,
				Reason: "a new pool: its nodes are those its nodeSelector takes from the worker pool; each moves once it carries the label, compared here with the worker pool's configuration"})
		}
		p := Pool{Site: n.Name, Pool: name, Nodes: nodeCount(n, newNodes, np, newPools), Changes: changes, Action: disruption.None}
		if c, ok := liveNodes[name]; ok {
			p.Nodes = &c // what the cluster runs
		}
		mcoChanges := make([]disruption.Change, 0, len(changes))
		for _, c := range changes {
			mcoChanges = append(mcoChanges, disruption.Change{Path: c.Path, Action: c.Action, Refused: c.Refused})
		}
		p.Action = disruption.PoolAction(mcoChanges)
		if disruption.Refused(mcoChanges) {
			rep.Other = append(rep.Other, Other{Site: n.Name, Object: "MachineConfigPool " + name, Action: disruption.None,
				Reason: "the Machine Config Operator refuses the new configuration (it cannot be applied in place): the pool degrades and no node is updated; see the refused changes"})
		}
		p.MaxUnavailable, p.Waves = waves(np, p.Nodes)
		if p.Action == disruption.None {
			p.Waves = 0 // nothing rolls out
		}
		if a, b := maxUnavailableString(op.maxUnavailable), maxUnavailableString(np.maxUnavailable); existed && a != b {
			rep.Other = append(rep.Other, Other{Site: n.Name, Object: "MachineConfigPool " + name, Path: "spec.maxUnavailable", Action: disruption.None,
				Reason: fmt.Sprintf("maxUnavailable %s -> %s: MCO updates that many of the pool's nodes at once%s", a, b, wavesText(p))})
		}
		clusterPools = append(clusterPools, p)
		changed = changed || len(changes) > 0
	}
	if changed {
		// a cluster nothing happens to is left out: the report names only
		// the clusters a change reaches
		rep.Pools = append(rep.Pools, clusterPools...)
	}
	return nil
}

// livePools are the node counts (status.machineCount) of a running
// cluster's pools, nil when c is not one. When the other side is not a
// running cluster too, each of c's pools it does not define (absent, or
// MCO's built-in stand-in) is c's there too: both sides are the same
// cluster. Two running clusters' states each have their own pools: a
// pool one of them lacks did not exist then.
func livePools(c, otherSide Cluster, own, other map[string]pool) map[string]int {
	if !c.Live {
		return nil
	}
	counts := map[string]int{}
	for _, p := range manifests.MachineConfigPools(c.Objects) {
		counts[p.Obj.Name] = int(p.MCP.Status.MachineCount)
		if op, ok := other[p.Obj.Name]; !otherSide.Live && (!ok || op.obj == nil) {
			other[p.Obj.Name] = own[p.Obj.Name]
		}
	}
	return counts
}

func wavesText(p Pool) string {
	if p.Waves == 0 {
		return ""
	}
	return fmt.Sprintf(" (%d waves for its %d nodes)", p.Waves, *p.Nodes)
}

func sortedNames(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return poolOrder(out[i]) < poolOrder(out[j]) })
	return out
}

// maxUnavailableString is a pool's maxUnavailable as written, or the
// default.
func maxUnavailableString(v *intstr.IntOrString) string {
	if v == nil {
		return fmt.Sprint(platform.PoolMaxUnavailableDefault)
	}
	return v.String()
}

// waves is how many rounds MCO needs to update the pool's nodes: nodes
// divided by maxUnavailable (a percentage of the nodes, rounded down but at
// least 1: MCO pkg/controller/node/node_controller.go maxUnavailable).
func waves(p pool, n *int) (string, int) {
	s := maxUnavailableString(p.maxUnavailable)
	if n == nil || *n <= 0 {
		return s, 0
	}
	mu := platform.PoolMaxUnavailableDefault
	if p.maxUnavailable != nil {
		v, err := intstr.GetScaledValueFromIntOrPercent(p.maxUnavailable, *n, false)
		if err == nil {
			mu = v
		}
	}
	mu = max(mu, 1)
	return s, (*n + mu - 1) / mu
}

// nodeCount is how many nodes the pool holds: the site's count, or the
// input's Node objects its nodeSelector takes (a node a custom pool takes
// is that pool's, not the worker pool's); nil when the input does not say.
func nodeCount(c Cluster, ns []*manifests.Node, p pool, all map[string]pool) *int {
	if c.PoolNodes != nil {
		n, ok := c.PoolNodes[p.name]
		if !ok {
			n = 0
		}
		if n < 0 {
			return nil
		}
		return &n
	}
	if len(ns) == 0 || p.nodeSelect == nil {
		return nil
	}
	count := 0
	for _, nd := range ns {
		if !manifests.SelectorMatches(p.nodeSelect, nd.Labels) {
			continue
		}
		if p.name == platform.MachineConfigRoleWorker && inCustomPool(nd.Labels, all) {
			continue
		}
		count++
	}
	return &count
}

func inCustomPool(labels map[string]string, all map[string]pool) bool {
	for name, p := range all {
		if !platform.BuiltinPool(name) && p.nodeSelect != nil && manifests.SelectorMatches(p.nodeSelect, labels) {
			return true
		}
	}
	return false
}

// registryDrainOverride reports whether the input holds MCO's support
// exception that skips registries.conf drains (ConfigMap
// image-registry-override-drain in openshift-machine-config-operator, read
// by release 4.14 to 4.19: disruption.NodeDisruptionPolicy.RegistryDrainOverride).
func registryDrainOverride(c Cluster) bool {
	for _, o := range c.Objects {
		if o.Kind == "ConfigMap" && o.APIVersion == "v1" && o.Name == platform.RegistryDrainOverrideConfigMap && o.Namespace == platform.MCONamespace {
			return true
		}
	}
	return false
}

// nodeDisruptionPolicy is the MachineConfiguration "cluster" of the input,
// nil when absent.
func nodeDisruptionPolicy(c Cluster) *operatorv1.MachineConfiguration {
	for _, o := range c.Objects {
		if o.Kind != "MachineConfiguration" || o.APIVersion != manifests.GroupOperatorV1 || o.Name != platform.ConfigSingletonName {
			continue
		}
		var mc operatorv1.MachineConfiguration
		if o.DecodeLoose(&mc) == nil {
			return &mc
		}
	}
	return nil
}

// sameObjects reports whether two states hold the same objects, whatever
// their files, order, comments and the input path siteforge notes on what
// it renders.
func sameObjects(a, b []*manifests.Object) bool {
	key := func(objs []*manifests.Object) []string {
		out := make([]string, 0, len(objs))
		for _, o := range objs {
			var m map[string]any
			if sigsyaml.Unmarshal(o.Raw, &m) != nil {
				out = append(out, string(o.Raw))
				continue
			}
			if md, ok := m["metadata"].(map[string]any); ok {
				if ann, ok := md["annotations"].(map[string]any); ok {
					delete(ann, manifests.SourceAnnotation)
				}
			}
			j, _ := json.Marshal(m) // map keys sorted
			out = append(out, string(j))
		}
		sort.Strings(out)
		return out
	}
	ka, kb := key(a), key(b)
	if len(ka) != len(kb) {
		return false
	}
	for i := range ka {
		if ka[i] != kb[i] {
			return false
		}
	}
	return true
}
