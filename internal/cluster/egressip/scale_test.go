package egressip

import (
	"fmt"
	"net"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/siteforge/siteforge/internal/cluster/nodes"
	"github.com/siteforge/siteforge/internal/platform"
)

// manyObjects are n EgressIPs of one or two addresses of 10.0.0.0/16, one
// in a hundred and one IPv6 (of fd00::/64), two by two selecting the same
// pods (the IPv6 ones split from their neighbour: findings linear in n).
func manyObjects(n int) []Object {
	out := make([]Object, n)
	for i := range out {
		a := 100 + i
		ips := []string{fmt.Sprintf("10.0.%d.%d", a/250, a%250+1)}
		if i%7 == 0 {
			ips = append(ips, fmt.Sprintf("10.0.%d.%d", 200+a/250, a%250+1))
		}
		if i%101 == 0 {
			ips = []string{fmt.Sprintf("fd00::%x", i)}
		}
		out[i] = Object{Name: fmt.Sprint("e", i), IPs: ips,
			NamespaceSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"team": fmt.Sprint(i / 2)}}}
	}
	return out
}

// scaleClusters are the clusters the lints build: Node objects off-cloud
// (every check runs when no address is refused), Node objects on a cloud
// (the capacity flow runs).
func scaleClusters(objs []Object) map[string]Cluster {
	total := 0
	for _, o := range objs {
		total += len(o.IPs)
	}
	sub := nodes.ParseCIDRs([]string{"10.0.0.0/16", "fd00::/64"})
	var offCloud, cloud HostSet
	for i := range 3 {
		capc := platform.EgressCapacity{IPv4: total, IPv6: total, IP: platform.EgressCapacityUnlimited}
		second := nodes.ParseCIDRs([]string{fmt.Sprintf("192.168.%d.0/24", i)})
		offCloud.Hosts = append(offCloud.Hosts, Host{Node: fmt.Sprint("w", i), Primary: sub, Subnets: append(append([]*net.IPNet(nil), sub...), second...)})
		cloud.Hosts = append(cloud.Hosts, Host{Node: fmt.Sprint("w", i), Primary: sub, Subnets: sub, Capacity: &capc})
	}
	return map[string]Cluster{
		"off-cloud Nodes": {Platform: "baremetal", HostsKnown: true, SecondaryKnown: true, Hosts: offCloud, NodeIPs: map[string]string{}, VIPs: map[string]string{}},
		"cloud Nodes":     {Platform: "aws", HostsKnown: true, PrimaryOnly: true, Hosts: cloud, NodeIPs: map[string]string{}, VIPs: map[string]string{}},
	}
}

// TestCheckNearLinear: the rules' work (checker.ops: pairs of objects,
// hosts examined, matching and flow steps; not time) grows near-linearly
// with the number of EgressIPs: 4 times the objects, less than 6 times the
// work (issue 25: 16k EgressIPs took 12 s, comparing every pair). The
// problems are those of the same objects checked one by one.
func TestCheckNearLinear(t *testing.T) {
	small, large := manyObjects(2000), manyObjects(8000)
	cs, cl := scaleClusters(small), scaleClusters(large)
	for name := range cs {
		t.Run(name, func(t *testing.T) {
			a, b := check(cs[name], small), check(cl[name], large)
			if len(a.problems) == 0 || len(b.problems) == 0 {
				t.Fatalf("no problems (%d, %d): the split pairs should be reported", len(a.problems), len(b.problems))
			}
			if ratio := float64(b.ops) / float64(a.ops); ratio >= 6 {
				t.Errorf("work for 8000 EgressIPs is %.1f times that for 2000 (%d, %d ops): not near-linear", ratio, b.ops, a.ops)
			}
		})
		t.Run(name+", all pass", func(t *testing.T) {
			var sa, sb []Object
			for _, o := range small {
				if len(o.IPs) == 1 && net.ParseIP(o.IPs[0]).To4() == nil {
					continue
				}
				sa = append(sa, o)
			}
			for _, o := range large {
				if len(o.IPs) == 1 && net.ParseIP(o.IPs[0]).To4() == nil {
					continue
				}
				sb = append(sb, o)
			}
			ca, cb := scaleClusters(sa), scaleClusters(sb)
			a, b := check(ca[name], sa), check(cb[name], sb)
			if len(a.problems)+len(b.problems) > 0 {
				t.Fatalf("problems: %v", append(a.problems, b.problems...)[0].Message)
			}
			if ratio := float64(b.ops) / float64(a.ops); ratio >= 6 {
				t.Errorf("work for %d EgressIPs is %.1f times that for %d (%d, %d ops): not near-linear", len(sb), ratio, len(sa), b.ops, a.ops)
			}
		})
	}
}

// TestSelectorsKey: the key families groups objects by is sameSelectors,
// over selectors that differ only in nil against empty, in order, or in
// labels.
func TestSelectorsKey(t *testing.T) {
	in := metav1.LabelSelectorOpIn
	sels := []*metav1.LabelSelector{
		nil, {}, {MatchLabels: map[string]string{}}, {MatchExpressions: []metav1.LabelSelectorRequirement{}},
		{MatchLabels: map[string]string{"a": "1"}},
		{MatchLabels: map[string]string{"a": "1", "b": "2"}},
		{MatchLabels: map[string]string{"a": "1"}, MatchExpressions: []metav1.LabelSelectorRequirement{}},
		{MatchLabels: map[string]string{"a=1": ""}},
		{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "a", Operator: in, Values: []string{"1"}}}},
		{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "a", Operator: in, Values: []string{}}}},
		{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "a", Operator: in}}},
		{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "a", Operator: in, Values: []string{"1", "2"}}}},
		{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "a", Operator: in, Values: []string{"2", "1"}}}},
	}
	for i, a := range sels {
		for j, b := range sels {
			for _, pod := range []bool{false, true} {
				oa, ob := Object{NamespaceSelector: a}, Object{NamespaceSelector: b}
				if pod {
					oa, ob = Object{NamespaceSelector: sels[4], PodSelector: a}, Object{NamespaceSelector: sels[4], PodSelector: b}
				}
				if got, want := selectorsKey(oa) == selectorsKey(ob), sameSelectors(oa, ob); got != want {
					t.Errorf("selectors %d and %d (pod %v): same key %v, sameSelectors %v", i, j, pod, got, want)
				}
			}
		}
	}
}
