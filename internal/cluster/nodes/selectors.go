// Package nodes is the node model of a cluster: which labels a pool's nodes
// carry, which pools are remote, whether the site needs the manual
// remote-worker method, and label selector reasoning over plain selectors
// (what matches what, what covers what). Generators and lint rules both
// reason with it, so a router's node selector, a MachineConfigPool and a
// lint finding agree on what a node looks like.
package nodes

import (
	"maps"
	"net"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/site"
)

// Label selector reasoning over plain selectors: whether two selectors can
// match the same object (a router's exclusion of a shard's routes), whether
// one covers the other (two MachineConfigPools claiming the same nodes), and
// what a MachineConfigPool selects.

// Disjoint reports whether no label set matches both a and b: for some key,
// the requirements of both selectors together cannot be met (k In [x] and
// k NotIn [x]; k Exists and k DoesNotExist; ...). A nil selector matches
// everything. A selector that does not parse is never disjoint from anything
// (nothing can be concluded from it).
func Disjoint(a, b *metav1.LabelSelector) bool {
	reqs, ok := requirements(a)
	more, ok2 := requirements(b)
	if !ok || !ok2 {
		return false
	}
	byKey := map[string][]metav1.LabelSelectorRequirement{}
	for _, r := range append(reqs, more...) {
		byKey[r.Key] = append(byKey[r.Key], r)
	}
	for _, rs := range byKey {
		if !satisfiable(rs) {
			return true
		}
	}
	return false
}

// requirements flattens a selector: matchLabels k: v is k In [v].
func requirements(sel *metav1.LabelSelector) ([]metav1.LabelSelectorRequirement, bool) {
	if sel == nil {
		return nil, true
	}
	var out []metav1.LabelSelectorRequirement
	for _, k := range slices.Sorted(maps.Keys(sel.MatchLabels)) {
		out = append(out, metav1.LabelSelectorRequirement{Key: k, Operator: metav1.LabelSelectorOpIn, Values: []string{sel.MatchLabels[k]}})
	}
	for _, r := range sel.MatchExpressions {
		switch r.Operator {
		case metav1.LabelSelectorOpIn, metav1.LabelSelectorOpNotIn, metav1.LabelSelectorOpExists, metav1.LabelSelectorOpDoesNotExist:
		default:
			return nil, false
		}
		out = append(out, r)
	}
	return out, true
}

// satisfiable reports whether one label (absent, or present with some value)
// meets every requirement on its key.
func satisfiable(rs []metav1.LabelSelectorRequirement) bool {
	mayBeAbsent, mustBeAbsent := true, false
	var allowed []string // nil: any value
	excluded := map[string]bool{}
	for _, r := range rs {
		switch r.Operator {
		case metav1.LabelSelectorOpIn:
			mayBeAbsent = false
			if allowed == nil {
				allowed = append([]string{}, r.Values...)
			} else {
				allowed = slices.DeleteFunc(allowed, func(v string) bool { return !slices.Contains(r.Values, v) })
			}
		case metav1.LabelSelectorOpExists:
			mayBeAbsent = false
		case metav1.LabelSelectorOpDoesNotExist:
			mustBeAbsent = true
		case metav1.LabelSelectorOpNotIn:
			for _, v := range r.Values {
				excluded[v] = true
			}
		}
	}
	if mayBeAbsent {
		return true
	}
	if mustBeAbsent {
		return false
	}
	if allowed == nil {
		return true // Exists / NotIn only: some other value is left
	}
	for _, v := range allowed {
		if !excluded[v] {
			return true
		}
	}
	return false
}

// Covers reports whether every object b matches is matched by a as well,
// judged by the selectors' text: each requirement of a is also a requirement
// of b (matchLabels k: v and k In [v] count as the same). Identical
// selectors cover each other. It answers "certainly" or "cannot tell",
// never "certainly not".
func Covers(a, b *metav1.LabelSelector) bool {
	ra, ok := requirements(a)
	rb, ok2 := requirements(b)
	if !ok || !ok2 {
		return false
	}
	for _, x := range ra {
		found := false
		for _, y := range rb {
			if x.Key == y.Key && x.Operator == y.Operator && sameValues(x.Values, y.Values) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func sameValues(a, b []string) bool {
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(slices.Compact(x), slices.Compact(y))
}

// SelectsRole reports whether a MachineConfigPool's machineConfigSelector
// takes the MachineConfigs of role (machineconfiguration.openshift.io/role).
// A nil selector takes none (MCO: a pool without a selector renders nothing).
func SelectsRole(machineConfigSelector *metav1.LabelSelector, role string) bool {
	if machineConfigSelector == nil {
		return false
	}
	return manifests.SelectorMatches(machineConfigSelector, map[string]string{platform.MachineConfigRoleLabel: role})
}

// InheritsWorker reports whether a custom pool's machineConfigSelector takes
// the worker MachineConfigs, as every custom pool must: the worker pool's
// base configs (kubelet, CRI-O, the OS) reach its nodes only that way (docs
// "Creating a custom machine config pool").
func InheritsWorker(machineConfigSelector *metav1.LabelSelector) bool {
	return SelectsRole(machineConfigSelector, platform.MachineConfigRoleWorker)
}

// RequiresLabel reports whether every object sel matches carries key
// (matchLabels, or an In or Exists expression on it).
func RequiresLabel(sel *metav1.LabelSelector, key string) bool {
	reqs, ok := requirements(sel)
	if !ok {
		return false
	}
	for _, r := range reqs {
		if r.Key == key && (r.Operator == metav1.LabelSelectorOpIn || r.Operator == metav1.LabelSelectorOpExists) {
			return true
		}
	}
	return false
}

// PrimarySubnets returns the subnets of a node's primary interface, as far as
// the site says: the pool's subnets holding the node's addresses, else the
// machine networks holding them. A pool's subnets may list secondary
// networks too; the address tells which one is the node's own.
func PrimarySubnets(s *site.Site, pool string, n site.Node) []*net.IPNet {
	candidates := ParseCIDRs(s.Pools[pool].Subnets)
	if len(candidates) == 0 {
		candidates = ParseCIDRs(s.Network.MachineNetwork)
	}
	if primary := Containing(candidates, n.IP, n.IPv6); len(primary) > 0 {
		return primary
	}
	return Containing(ParseCIDRs(s.Network.MachineNetwork), n.IP, n.IPv6)
}

// ParseCIDRs parses CIDRs, skipping what does not parse (the schema checks
// them).
func ParseCIDRs(cidrs []string) []*net.IPNet {
	var out []*net.IPNet
	for _, c := range cidrs {
		if _, n, err := net.ParseCIDR(c); err == nil {
			out = append(out, n)
		}
	}
	return out
}

// Containing returns the subnets that contain any of the addresses.
func Containing(subnets []*net.IPNet, addrs ...string) []*net.IPNet {
	var out []*net.IPNet
	for _, n := range subnets {
		for _, a := range addrs {
			if ip := net.ParseIP(a); ip != nil && n.Contains(ip) {
				out = append(out, n)
				break
			}
		}
	}
	return out
}

// LabelSelector converts a site label selector to the Kubernetes type (a
// copy); nil stays nil.
func LabelSelector(sel *site.LabelSelector) *metav1.LabelSelector {
	if sel == nil {
		return nil
	}
	out := &metav1.LabelSelector{}
	if len(sel.MatchLabels) > 0 {
		out.MatchLabels = map[string]string{}
		for k, v := range sel.MatchLabels {
			out.MatchLabels[k] = v
		}
	}
	for _, r := range sel.MatchExpressions {
		out.MatchExpressions = append(out.MatchExpressions, metav1.LabelSelectorRequirement{
			Key: r.Key, Operator: metav1.LabelSelectorOperator(r.Operator), Values: append([]string(nil), r.Values...),
		})
	}
	return out
}
