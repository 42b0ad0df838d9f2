package routing

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/siteforge/siteforge/internal/cluster/nodes"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/site"
)

// Router placement. CIO turns spec.nodePlacement.nodeSelector into the
// router pods' nodeSelector with apimachinery LabelSelectorAsMap, which
// accepts only matchLabels and `In` with exactly one value; anything else is
// admitted but the router Deployment is never built (CIO
// desiredRouterDeployment). So every selector siteforge emits is plain matchLabels, and a richer
// intent is translated into labels the site's pools carry, at pool
// granularity: the pools the intent selects must be exactly the pools some
// label set selects.

// Placement is where a router's pods may run.
type Placement struct {
	// Selector is the nodePlacement.nodeSelector to emit (matchLabels
	// only); nil leaves the operator's default.
	Selector    *metav1.LabelSelector
	Tolerations []corev1.Toleration
	// Pools are the Pools whose nodes can run the router pods: selected,
	// tolerated, and not excluded by CIO's remote-worker affinity.
	Pools []string
	// ExcludedRemote are selected pools CIO's affinity keeps the router off.
	ExcludedRemote []string
	// Nodes is the number of Nodes in pools, -1 when a pool's size is
	// unknown.
	Nodes int
}

// Model is the site's nodes as the router sees them.
type Model struct {
	s     *site.Site
	Minor platform.OCPMinor
	// labels are each pool's node labels (pools.NodeLabels).
	labels map[string]labels.Set
}

func NewModel(s *site.Site, minor platform.OCPMinor) *Model {
	m := &Model{s: s, Minor: minor, labels: map[string]labels.Set{}}
	for _, name := range s.PoolNames() {
		m.labels[name] = labels.Set(nodes.NodeLabels(s, minor, name))
	}
	return m
}

// matching lists the pools whose nodes sel matches, sorted.
func (m *Model) matching(sel labels.Selector) []string {
	var out []string
	for _, name := range m.s.PoolNames() {
		if sel.Matches(m.labels[name]) {
			out = append(out, name)
		}
	}
	return out
}

// exactLabels returns the smallest label set (tried: one label, two, then
// every common label) that the nodes of all target pools carry and the nodes
// of no other pool carry all of: a matchLabels selecting exactly those pools.
// Role labels are preferred, then the pools' own labels, then the rest.
func (m *Model) exactLabels(target []string) (map[string]string, bool) {
	if len(target) == 0 {
		return nil, false
	}
	common := map[string]string{}
	for k, v := range m.labels[target[0]] {
		common[k] = v
	}
	for _, p := range target[1:] {
		for k, v := range common {
			if w, ok := m.labels[p][k]; !ok || w != v {
				delete(common, k)
			}
		}
	}
	keys := slices.Sorted(maps.Keys(common))
	sort.SliceStable(keys, func(i, j int) bool { return labelRank(keys[i]) < labelRank(keys[j]) })
	want := strings.Join(target, ",")
	try := func(ks ...string) (map[string]string, bool) {
		set := map[string]string{}
		for _, k := range ks {
			set[k] = common[k]
		}
		return set, strings.Join(m.matching(labels.SelectorFromSet(set)), ",") == want
	}
	for _, k := range keys {
		if set, ok := try(k); ok {
			return set, true
		}
	}
	for i := range keys {
		for j := i + 1; j < len(keys); j++ {
			if set, ok := try(keys[i], keys[j]); ok {
				return set, true
			}
		}
	}
	if set, ok := try(keys...); ok && len(keys) > 0 {
		return set, true
	}
	return nil, false
}

// labelRank orders candidate labels: role labels, then user labels, then the
// labels every node has anyway.
func labelRank(key string) int {
	switch {
	case strings.HasPrefix(key, platform.NodeRolePrefix):
		return 0
	case key == platform.OSLabel || key == platform.ZoneLabel || key == platform.RemoteWorkerLabel:
		return 2
	}
	return 1
}

// finish fills in tolerations, the remote-worker exclusion and the node count
// for the pools a selector matches.
func (m *Model) finish(p Placement, matched []string) Placement {
	for _, name := range matched {
		if m.s.Pools[name].Role == site.RoleMaster && p.Tolerations == nil {
			p.Tolerations = masterTolerations()
		}
	}
	// A router placed on tainted nodes tolerates their NoSchedule and
	// NoExecute taints, or its pods stay Pending (PreferNoSchedule only
	// steers the scheduler).
	for _, name := range matched {
		for _, t := range nodes.Taints(m.s, name) {
			if t.Effect == string(corev1.TaintEffectPreferNoSchedule) {
				continue
			}
			tol := corev1.Toleration{Key: t.Key, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffect(t.Effect)}
			if t.Value != "" {
				tol = corev1.Toleration{Key: t.Key, Operator: corev1.TolerationOpEqual, Value: t.Value, Effect: corev1.TaintEffect(t.Effect)}
			}
			if !slices.Contains(p.Tolerations, tol) {
				p.Tolerations = append(p.Tolerations, tol)
			}
		}
	}
	sort.SliceStable(p.Tolerations, func(i, j int) bool {
		a, b := p.Tolerations[i], p.Tolerations[j]
		if a.Key != b.Key {
			return a.Key < b.Key
		}
		if a.Effect != b.Effect {
			return a.Effect < b.Effect
		}
		return a.Value < b.Value
	})
	p.Nodes = 0
	for _, name := range matched {
		// From 4.13 CIO gives every router a required node affinity
		// node.openshift.io/remote-worker NotIn [""] (placement Workers).
		if _, remote := m.labels[name][platform.RemoteWorkerLabel]; remote {
			p.ExcludedRemote = append(p.ExcludedRemote, name)
			continue
		}
		p.Pools = append(p.Pools, name)
		if n := m.s.Pools[name].Size(); n < 0 || p.Nodes < 0 {
			p.Nodes = -1
		} else {
			p.Nodes += n
		}
	}
	return p
}

// masterTolerations let router pods onto masters that still carry the
// NoSchedule taint (the taint goes once the Scheduler config makes masters
// schedulable; the toleration keeps the placement valid either way).
func masterTolerations() []corev1.Toleration {
	return []corev1.Toleration{{Key: platform.MasterTaintKey, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule}}
}

// ByPools places a router on the nodes of the named pools.
func (m *Model) ByPools(name string, poolNames []string, path string) (Placement, *diag.Diagnostic) {
	target := append([]string(nil), poolNames...)
	sort.Strings(target)
	target = uniq(target)
	set, ok := m.exactLabels(target)
	if !ok {
		return Placement{}, &diag.Diagnostic{Pos: m.s.Positions.Of(path), Path: path,
			Message: fmt.Sprintf("no label is carried by the nodes of pools %s and by no other pool, so the router of %q cannot be placed on exactly these pools (a router node selector is matchLabels only)", strings.Join(target, ", "), name),
			Hint:    fmt.Sprintf("give pools %s a label no other pool has (pools.<pool>.labels), or list other pools", strings.Join(target, ", "))}
	}
	return m.finish(Placement{Selector: &metav1.LabelSelector{MatchLabels: set}}, target), nil
}

// BySelector places a router with the user's node selector: kept when the
// router can build it, else translated to an equivalent matchLabels over the
// site's pools, else refused with the operator's own message.
func (m *Model) BySelector(name string, sel *site.LabelSelector, path string) (Placement, *diag.Diagnostic, *diag.Diagnostic) {
	ms := nodes.LabelSelector(sel)
	at := func(msg, hint string) *diag.Diagnostic {
		return &diag.Diagnostic{Pos: m.s.Positions.Of(path), Path: path, Message: msg, Hint: hint}
	}
	full, err := metav1.LabelSelectorAsSelector(ms)
	if err != nil {
		return Placement{}, at("invalid node selector: "+err.Error(), "In and NotIn need values, Exists and DoesNotExist none"), nil
	}
	matched := m.matching(full)
	if refusal := NodeSelectorError(name, ms); refusal == nil {
		set, _ := metav1.LabelSelectorAsMap(ms)
		p := m.finish(Placement{Selector: &metav1.LabelSelector{MatchLabels: set}}, matched)
		var warn *diag.Diagnostic
		if len(matched) == 0 {
			p.Nodes = -1 // nodes the site does not describe: their number is unknown
			warn = at("the node selector matches no pool of the site: the router runs only on nodes carrying labels the site does not describe",
				"place the shard with pools: [...] or add the labels to the pools that should run it")
		}
		return p, nil, warn
	} else {
		refused := refusal.Error()
		if len(matched) == 0 {
			return Placement{}, at(refused+"; it matches no pool of the site, so there is nothing to translate it to",
				"select the nodes with matchLabels, or place the shard with pools: [...]"), nil
		}
		set, ok := m.exactLabels(matched)
		if !ok {
			return Placement{}, at(fmt.Sprintf("%s; it selects the nodes of pools %s, and no label is carried by exactly those pools to translate it to", refused, strings.Join(matched, ", ")),
				fmt.Sprintf("give pools %s a common label no other pool has (pools.<pool>.labels), or use matchLabels", strings.Join(matched, ", "))), nil
		}
		return m.finish(Placement{Selector: &metav1.LabelSelector{MatchLabels: set}}, matched), nil, nil
	}
}

// OperatorDefault is where a controller without nodePlacement runs: nodes
// labelled worker (CIO's default for placement Workers).
func (m *Model) OperatorDefault() Placement {
	sel := labels.SelectorFromSet(labels.Set(DefaultNodeSelector()))
	p := m.finish(Placement{}, m.matching(sel))
	p.Tolerations = nil
	return p
}

// NodeSelectorError is the operator's refusal of a router node selector it
// cannot turn into the router pods' nodeSelector (apimachinery
// LabelSelectorAsMap: matchLabels, or In with exactly one value), quoted as
// CIO reports it; nil when the router can be built.
func NodeSelectorError(name string, sel *metav1.LabelSelector) error {
	if _, err := metav1.LabelSelectorAsMap(sel); err != nil {
		return fmt.Errorf(platform.CIOInvalidNodeSelector, name, err)
	}
	return nil
}

// DefaultNodeSelector is the router pods' nodeSelector of a controller
// without nodePlacement: the Linux nodes labelled worker.
func DefaultNodeSelector() map[string]string {
	return map[string]string{platform.OSLabel: platform.OSLabelValue, platform.WorkerRoleLabel: ""} // CIO deployment.go desiredRouterDeployment (placement Workers)
}

func uniq(sorted []string) []string {
	out := sorted[:0]
	for i, s := range sorted {
		if i == 0 || s != sorted[i-1] {
			out = append(out, s)
		}
	}
	return out
}
