package routing

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/siteforge/siteforge/internal/cluster/nodes"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/site"
)

// Excluding a shard's routes from the default router. The default router
// serves every route its selectors admit, so the shard's routes are served
// twice unless the default's routeSelector / namespaceSelector reject them
// (CIO desiredRouterDeployment; api operator/v1 IngressController). The default must keep admitting everything
// else, the platform's own routes (console, oauth, canary) first of all, and
// those carry none of the shard's labels. So the exclusion is the exact
// complement of the shard's selector, expressed with requirements that an
// unlabelled route or namespace passes:
//
//	shard admits               default gets
//	matchLabels k: v           k NotIn [v]
//	k In [a, b]                k NotIn [a, b]
//	k Exists                   k DoesNotExist
//
// A label selector ANDs its requirements, so only a shard selector with ONE
// requirement (over routeSelector and namespaceSelector together) has a
// complement a selector can express: the complement of "A and B" is "not A
// or not B". Excluding on A alone would leave routes with A but not B served
// by no router at all. Such shards are refused, as are shards whose
// complement would need In or Exists (they admit unlabelled routes, like the
// platform's).

// Exclusion is what the default controller must reject for one shard.
type Exclusion struct {
	route, namespace []metav1.LabelSelectorRequirement
}

// requirement is one requirement of a shard's selectors and where it is.
type requirement struct {
	req       metav1.LabelSelectorRequirement
	namespace bool
	path      string
}

func flatten(sel *site.LabelSelector, namespace bool, path string) []requirement {
	if sel == nil {
		return nil
	}
	var out []requirement
	for _, k := range slices.Sorted(maps.Keys(sel.MatchLabels)) {
		out = append(out, requirement{
			req:       metav1.LabelSelectorRequirement{Key: k, Operator: metav1.LabelSelectorOpIn, Values: []string{sel.MatchLabels[k]}},
			namespace: namespace,
			path:      path + ".matchLabels",
		})
	}
	for i, r := range sel.MatchExpressions {
		out = append(out, requirement{
			req:       metav1.LabelSelectorRequirement{Key: r.Key, Operator: metav1.LabelSelectorOperator(r.Operator), Values: append([]string(nil), r.Values...)},
			namespace: namespace,
			path:      fmt.Sprintf("%s.matchExpressions[%d]", path, i),
		})
	}
	return out
}

// ExcludeShard computes the default controller's exclusion of a shard.
func ExcludeShard(s *site.Site, name string, sh site.Shard, path string) (Exclusion, *diag.Diagnostic) {
	reqs := append(flatten(sh.RouteSelector, false, path+".routeSelector"), flatten(sh.NamespaceSelector, true, path+".namespaceSelector")...)
	at := func(p, msg, hint string) *diag.Diagnostic {
		return &diag.Diagnostic{Pos: s.Positions.Of(p), Path: p, Message: msg, Hint: hint}
	}
	const optOut = "or set excludeFromDefault: false to let the default router serve these routes too"
	switch len(reqs) {
	case 0:
		return Exclusion{}, at(path, fmt.Sprintf("shard %q selects every route: the default router cannot exclude its routes without excluding all of them", name),
			"add a routeSelector or a namespaceSelector")
	case 1:
	default:
		return Exclusion{}, at(path, fmt.Sprintf("shard %q selects routes with %d requirements (ANDed); the default router could only exclude them with \"not A or not B\", which a label selector cannot say, and excluding on one of them would leave routes served by no router",
			name, len(reqs)), "select the shard's routes with one label (one matchLabels entry or one expression), "+optOut)
	}
	r := reqs[0]
	var comp metav1.LabelSelectorRequirement
	switch r.req.Operator {
	case metav1.LabelSelectorOpIn:
		comp = metav1.LabelSelectorRequirement{Key: r.req.Key, Operator: metav1.LabelSelectorOpNotIn, Values: r.req.Values}
	case metav1.LabelSelectorOpExists:
		comp = metav1.LabelSelectorRequirement{Key: r.req.Key, Operator: metav1.LabelSelectorOpDoesNotExist}
	default:
		return Exclusion{}, at(r.path, fmt.Sprintf("shard %q selects with %s, which also matches routes and namespaces without the label %q: excluding them from the default router would exclude the platform's own routes (console, oauth, canary) too",
			name, r.req.Operator, r.req.Key), "select the shard's routes by a label they carry (matchLabels, In or Exists), "+optOut)
	}
	if d := platformKey(s, name, r); d != nil {
		return Exclusion{}, d
	}
	if r.namespace {
		return Exclusion{namespace: []metav1.LabelSelectorRequirement{comp}}, nil
	}
	return Exclusion{route: []metav1.LabelSelectorRequirement{comp}}, nil
}

// platformKey refuses a shard selecting on labels the platform's own
// namespaces carry: the shard would take their routes, and the default
// router would drop them.
func platformKey(s *site.Site, name string, r requirement) *diag.Diagnostic {
	bad := false
	for _, p := range platform.PlatformLabelPrefixes {
		if strings.HasPrefix(r.req.Key, p) {
			bad = true
		}
	}
	if r.namespace && r.req.Key == platform.NamespaceNameLabel {
		for _, v := range r.req.Values {
			if strings.HasPrefix(v, platform.PlatformNamespacePrefix) {
				bad = true
			}
		}
	}
	if !bad {
		return nil
	}
	return &diag.Diagnostic{Pos: s.Positions.Of(r.path), Path: r.path,
		Message: fmt.Sprintf("shard %q selects on %s, a label of the platform's own namespaces: it would take the console, oauth or canary routes from the default router", name, r.req.Key),
		Hint:    "label the application routes or namespaces with a label of your own"}
}

// Merge folds the shards' exclusions into one routeSelector and one
// namespaceSelector: NotIn on the same key unions its values, DoesNotExist
// appears once; requirements sorted by key, then operator.
func Merge(exs []Exclusion) (route, namespace *metav1.LabelSelector) {
	var rs, ns []metav1.LabelSelectorRequirement
	for _, e := range exs {
		rs = append(rs, e.route...)
		ns = append(ns, e.namespace...)
	}
	return mergeReqs(rs), mergeReqs(ns)
}

func mergeReqs(reqs []metav1.LabelSelectorRequirement) *metav1.LabelSelector {
	if len(reqs) == 0 {
		return nil
	}
	type key struct {
		k  string
		op metav1.LabelSelectorOperator
	}
	values := map[key]map[string]bool{}
	var keys []key
	for _, r := range reqs {
		k := key{r.Key, r.Operator}
		if values[k] == nil {
			values[k] = map[string]bool{}
			keys = append(keys, k)
		}
		for _, v := range r.Values {
			values[k][v] = true
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].k != keys[j].k {
			return keys[i].k < keys[j].k
		}
		return keys[i].op < keys[j].op
	})
	out := &metav1.LabelSelector{}
	for _, k := range keys {
		r := metav1.LabelSelectorRequirement{Key: k.k, Operator: k.op}
		if len(values[k]) > 0 {
			r.Values = slices.Sorted(maps.Keys(values[k]))
		}
		out.MatchExpressions = append(out.MatchExpressions, r)
	}
	return out
}

// ExcludesShard reports whether a default controller with routeSelector
// defRoute and namespaceSelector defNS serves none of a shard's routes: no
// route can match both routeSelectors, or no namespace both
// namespaceSelectors (nil selects everything). The exclusion Generate writes
// is always one (TestExclusionsExclude).
func ExcludesShard(defRoute, defNS, shardRoute, shardNS *metav1.LabelSelector) bool {
	return nodes.Disjoint(defRoute, shardRoute) || nodes.Disjoint(defNS, shardNS)
}

// PlatformRoutesDropped lists the platform's own routes (PlatformRoutes) a
// default controller with these selectors would no longer serve, as
// "namespace/name".
func PlatformRoutesDropped(route, namespace *metav1.LabelSelector) []string {
	for _, sel := range []*metav1.LabelSelector{route, namespace} {
		if _, err := metav1.LabelSelectorAsSelector(sel); err != nil {
			return nil // the API refuses it; nothing to judge
		}
	}
	var out []string
	for _, r := range platform.PlatformRoutes {
		ns := map[string]string{platform.NamespaceNameLabel: r.Namespace}
		if !manifests.SelectorMatches(route, r.Labels) || !manifests.SelectorMatches(namespace, ns) {
			out = append(out, r.Namespace+"/"+r.Name)
		}
	}
	return out
}
