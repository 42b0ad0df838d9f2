package ingress

import (
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/siteforge/siteforge/internal/cluster/nodes"
	"github.com/siteforge/siteforge/internal/cluster/routing"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/site"
)

// TestExclusionsExclude: the exclusion Generate writes for a shard is one
// ExcludesShard recognises, and it keeps the platform's own routes.
func TestExclusionsExclude(t *testing.T) {
	s := baseSite()
	for _, sh := range []site.Shard{
		shard(nil),
		shard(func(sh *site.Shard) { sh.RouteSelector = sel(nil, req("type", "In", "x", "y")) }),
		shard(func(sh *site.Shard) { sh.RouteSelector = sel(nil, req("sharded", "Exists")) }),
		shard(func(sh *site.Shard) {
			sh.RouteSelector, sh.NamespaceSelector = nil, sel(map[string]string{"team": "a"})
		}),
	} {
		ex, d := routing.ExcludeShard(s, "x", sh, "ingress.shards.x")
		if d != nil {
			t.Fatalf("excludeShard: %v", d)
		}
		route, ns := routing.Merge([]routing.Exclusion{ex})
		if !routing.ExcludesShard(route, ns, nodes.LabelSelector(sh.RouteSelector), nodes.LabelSelector(sh.NamespaceSelector)) {
			t.Errorf("exclusion %v / %v does not exclude shard %v / %v", route, ns, sh.RouteSelector, sh.NamespaceSelector)
		}
		if dropped := routing.PlatformRoutesDropped(route, ns); len(dropped) > 0 {
			t.Errorf("exclusion %v / %v drops %v", route, ns, dropped)
		}
	}
	if routing.ExcludesShard(nil, nil, nodes.LabelSelector(sel(map[string]string{"type": "x"})), nil) {
		t.Error("a default without selectors excludes nothing")
	}
	if got := routing.PlatformRoutesDropped(&metav1.LabelSelector{MatchLabels: map[string]string{"type": "public"}}, nil); len(got) != len(platform.PlatformRoutes) {
		t.Errorf("matchLabels on the default drops %v, want every platform route", got)
	}
	if got := routing.PlatformRoutesDropped(nil, &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{
		{Key: platform.NamespaceNameLabel, Operator: metav1.LabelSelectorOpNotIn, Values: []string{"openshift-console"}}}}); strings.Join(got, ",") != "openshift-console/console" {
		t.Errorf("excluding openshift-console drops %v", got)
	}
}

func TestNodeSelectorError(t *testing.T) {
	ok := &metav1.LabelSelector{MatchLabels: map[string]string{"a": "b"}, MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "c", Operator: metav1.LabelSelectorOpIn, Values: []string{"d"}}}}
	if err := routing.NodeSelectorError("x", ok); err != nil {
		t.Errorf("matchLabels and In with one value: %v", err)
	}
	notIn := &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "c", Operator: metav1.LabelSelectorOpNotIn, Values: []string{"d"}}}}
	want := `failed to build router deployment: ingresscontroller "x" has invalid spec.nodePlacement.nodeSelector: operator "NotIn" cannot be converted into the old label selector format`
	if err := routing.NodeSelectorError("x", notIn); err == nil || err.Error() != want {
		t.Errorf("NotIn: %v, want %s", err, want)
	}
}

func TestRouters(t *testing.T) {
	s := baseSite()
	s.Ingress.Shards["x"] = shard(func(sh *site.Shard) { sh.Ports = nil })
	routers, err := routing.Routers(s)
	if err != nil {
		t.Fatal(err)
	}
	if len(routers) != 2 {
		t.Fatalf("%d routers", len(routers))
	}
	def, x := routers[0], routers[1]
	// Operator default: the worker-labelled pools (custom pools inherit
	// the worker role).
	if def.Name != "default" || def.Pinned || !def.HostNetwork || strings.Join(def.Pools, ",") != "edge,infra,worker" || def.Nodes != 8 || def.Replicas != 2 || def.ReplicasSet {
		t.Errorf("default router %+v", def)
	}
	if x.Name != "x" || strings.Join(x.Pools, ",") != "edge" || x.Nodes != 3 || x.Ports != routing.DefaultHostPorts {
		t.Errorf("shard %+v", x)
	}
	// The default router may land on edge, whose nodes sit outside the
	// VIP's subnet: Generate leaves the operator's choice alone, the
	// lints report it.
	if msg := routing.VIPSubnetProblem(s, "edge"); !strings.Contains(msg, "do not contain the ingress VIP 10.10.0.6") {
		t.Errorf("VIPSubnetProblem(edge) = %q", msg)
	}
	if msg := routing.VIPSubnetProblem(s, "worker"); msg != "" {
		t.Errorf("VIPSubnetProblem(worker) = %q", msg)
	}
}

func TestDomainAndPorts(t *testing.T) {
	if p := routing.DomainProblems("x", "apps.example.com"); len(p) != 0 {
		t.Errorf("valid domain: %v", p)
	}
	if p := routing.DomainProblems("x", "Apps_Example.com"); len(p) != 1 || !strings.Contains(p[0].Message, "DNS-1123") {
		t.Errorf("invalid domain: %v", p)
	}
	if msg := (routing.HostPorts{80, 80, 1936}).NotUnique(); msg == "" {
		t.Error("80 twice is not unique")
	}
	if c := routing.PortClashes("a", routing.DefaultHostPorts, "b", routing.HostPorts{8080, 443, 1937}); len(c) != 1 || !strings.HasPrefix(c[0], "443 (HTTPS of \"b\", HTTPS of \"a\")") {
		t.Errorf("clashes %v", c)
	}
}
