package egressip

import (
	"net"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/siteforge/siteforge/internal/cluster/nodes"
)

// TestCheckPlainData: the rules over plain data, as the lints call them.
func TestCheckPlainData(t *testing.T) {
	sel := &metav1.LabelSelector{MatchLabels: map[string]string{"egress": "x"}}
	obj := func(name string, ips ...string) Object { return Object{Name: name, IPs: ips, NamespaceSelector: sel} }
	machine := nodes.ParseCIDRs([]string{"10.10.0.0/24"})
	kinds := func(ps []Problem) []ProblemKind {
		var out []ProblemKind
		for _, p := range ps {
			out = append(out, p.Kind)
		}
		return out
	}
	for _, tc := range []struct {
		name string
		c    Cluster
		objs []Object
		want []ProblemKind
	}{
		{"nothing known: only the addresses themselves", Cluster{}, []Object{obj("a", "10.10.0.300", "10.10.0.7", "10.10.0.7")}, []ProblemKind{InvalidIP, DuplicateIP}},
		{"unknown release: one object may mix families", Cluster{}, []Object{obj("a", "10.10.0.7", "fd00::7")}, nil},
		{"4.14: one object may not", Cluster{Minor: 14}, []Object{obj("a", "10.10.0.7", "fd00::7")}, []ProblemKind{MixedFamilies}},
		{"split pair, any release", Cluster{}, []Object{obj("a", "10.10.0.7"), obj("b", "fd00::7")}, []ProblemKind{SplitDualStack}},
		{"no assignable node", Cluster{HostsKnown: true}, []Object{obj("a", "10.10.0.7")}, []ProblemKind{NoAssignableNode}},
		{"stand-ins: subnets only", Cluster{HostsKnown: true, PrimaryOnly: true, Hosts: HostSet{Hosts: StandIns("", machine, 3), Unknown: []string{"m"}}},
			[]Object{obj("a", "10.10.0.7", "10.10.0.8", "192.168.0.1")}, []ProblemKind{NotHostable}},
		{"reported capacity", Cluster{HostsKnown: true, Platform: "aws", Hosts: HostSet{Hosts: []Host{{Node: "n", Subnets: machine, Capacity: 1}}}},
			[]Object{obj("a", "10.10.0.7"), obj("b", "10.10.0.8")}, []ProblemKind{OverCapacity}},
		{"AWS without a report: no table, no judgement", Cluster{HostsKnown: true, Platform: "aws", Hosts: HostSet{Hosts: []Host{{Node: "n", Subnets: machine}}}},
			[]Object{obj("a", "10.10.0.7"), obj("b", "10.10.0.8")}, nil},
		{"one node, two addresses of an object", Cluster{HostsKnown: true, Hosts: HostSet{Hosts: []Host{{Node: "n", Subnets: []*net.IPNet{machine[0]}}}}},
			[]Object{obj("a", "10.10.0.7", "10.10.0.8")}, []ProblemKind{TooFewNodes}},
	} {
		got := kinds(Check(tc.c, tc.objs))
		if len(got) != len(tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
			}
		}
	}
}
