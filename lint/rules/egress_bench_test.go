package rules

import (
	"fmt"
	"strings"
	"testing"

	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/lint"
)

// egrMany is a cluster export of n EgressIPs and three assignable Nodes
// (primary subnet 10.0.0.0/16 and fd00::/64, a secondary host network
// each): one EgressIP in seven has a second address, one in a hundred and
// one is IPv6 (a dual-stack pair split with its neighbour, which selects
// the same pods); with bad, some addresses are repeated, a node's, outside
// every network, or a subnet's network address.
func egrMany(tb testing.TB, n int, bad bool) []*manifests.Object {
	tb.Helper()
	var b strings.Builder
	for i := range 3 {
		fmt.Fprintf(&b, `apiVersion: v1
kind: Node
metadata:
  name: w%d
  labels:
    k8s.ovn.org/egress-assignable: ""
  annotations:
    k8s.ovn.org/node-primary-ifaddr: '{"ipv4":"10.0.0.%d/16","ipv6":"fd00::%d/64"}'
    k8s.ovn.org/host-cidrs: '["10.0.0.%d/16","fd00::%d/64","192.168.%d.5/24"]'
status:
  addresses:
  - type: InternalIP
    address: 10.0.0.%d
---
`, i, 10+i, 10+i, 10+i, 10+i, i, 10+i)
	}
	for i := range n {
		a := 100 + i
		ips := []string{fmt.Sprintf("10.0.%d.%d", a/250, a%250+1)}
		if i%7 == 0 {
			ips = append(ips, fmt.Sprintf("10.0.%d.%d", 200+a/250, a%250+1))
		}
		if i%101 == 0 {
			ips = []string{fmt.Sprintf("fd00::%x", i)}
		}
		if bad {
			if i%997 == 0 {
				ips = append(ips, ips[0])
			}
			if i%1999 == 0 {
				ips = append(ips, "10.0.0.10")
			}
			if i%1499 == 0 {
				ips = append(ips, "10.9.0.1")
			}
			if i%1777 == 0 {
				ips = append(ips, "10.0.0.100")
			}
		}
		fmt.Fprintf(&b, "apiVersion: k8s.ovn.org/v1\nkind: EgressIP\nmetadata:\n  name: e%d\nspec:\n  egressIPs: [%q]\n  namespaceSelector:\n    matchLabels:\n      team: team%d\n---\n",
			i, strings.Join(ips, `", "`), i/2)
	}
	objs, probs := manifests.Scan("egress.yaml", []byte(b.String()))
	if len(probs) > 0 {
		tb.Fatalf("the generated manifests do not scan: %v", probs[0].Message)
	}
	return objs
}

// BenchmarkEgressIPLint: the EGR rules over a cluster export of many
// EgressIPs (issue 25: 16k took 12 s, growing quadratically).
func BenchmarkEgressIPLint(b *testing.B) {
	l, err := lint.New(lint.Options{Enable: []string{"EGR001", "EGR002", "EGR003", "EGR004", "EGR005", "EGR006", "EGR007"}})
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{1000, 4000, 16000} {
		objs := egrMany(b, n, true)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				l.Check(lint.ManifestSet(objs, 0, ""))
			}
		})
	}
}
