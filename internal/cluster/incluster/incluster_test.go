package incluster

import (
	"slices"
	"strings"
	"testing"

	"github.com/siteforge/siteforge/internal/site"
)

func TestWhy(t *testing.T) {
	var c Cluster
	c.AddServiceNetworks([]string{"172.30.0.0/16", "not a cidr"}, "the default service network")
	c.AddIngressDomain("Apps.C.Example.com.", "the site's cluster name and baseDomain")
	c.AddIngressDomain("", "nothing")
	c.Routes = map[string]string{"registry.example.net": "Route quay/quay"}
	for _, tc := range []struct{ location, want string }{
		{"quay.quay.svc:5000/rh", "a cluster DNS name"},
		{"image-registry.openshift-image-registry.svc:5000/x", "the internal image registry's Service name"},
		{"172.30.4.20:443/quay", "a Service ClusterIP (in 172.30.0.0/16, the default service network)"},
		{"quay-quay-registry.apps.c.example.com/quay-io", "under apps.c.example.com (the site's cluster name and baseDomain), the cluster's own ingress domain"},
		{"registry.example.net/mirror", "the host of Route quay/quay"},
		// the ingress domain itself is no Route host, and neither is a look-alike
		{"apps.c.example.com/x", ""},
		{"quay.apps.c.example.com.evil.net/x", ""},
		{"10.0.0.5:5000/rh", ""},
		{"mirror.example.com/rh", ""},
	} {
		got := c.Why(tc.location)
		if tc.want == "" && got != "" || tc.want != "" && !strings.HasPrefix(got, tc.want) {
			t.Errorf("Why(%q) = %q, want prefix %q", tc.location, got, tc.want)
		}
	}
	if len(c.IngressDomains) != 1 || len(c.ServiceNetworks) != 1 {
		t.Errorf("empty domain or bad CIDR kept: %+v", c)
	}
	if got := Host("[fd00::1]:5000/x"); got != "fd00::1" {
		t.Errorf("Host of an IPv6 literal: %q", got)
	}
}

// TestSplit: a source's mirrors the cluster serves itself, and the others;
// the source listed as its own mirror is neither, so a blocked source with
// it and an in-cluster mirror is a deadlock, as with the in-cluster mirror
// alone.
func TestSplit(t *testing.T) {
	s := &site.Site{Cluster: site.Cluster{Name: "c", BaseDomain: "example.com"}, Network: site.Network{ServiceNetwork: []string{"172.30.0.0/16"}},
		Ingress:   &site.Ingress{Shards: map[string]site.Shard{"edge-1": {Domain: "edge.example.com"}}},
		Mirroring: &site.Mirroring{InClusterCache: &site.InClusterCache{Host: "cache.example.net:8443"}}}
	for _, tc := range []struct {
		prefix, source string
		mirrors        []string
		inside         []string
		why            string
		outside        []string
		verdict        string
	}{
		{"", "quay.io", []string{"172.30.9.9/quay-io", "quay.io"}, []string{"172.30.9.9/quay-io"}, "a Service ClusterIP (in 172.30.0.0/16, network.serviceNetwork)", nil, Deadlock},
		{"", "quay.io", []string{"172.30.9.9/quay-io", "mirror.example.com/quay-io", "quay.io"}, []string{"172.30.9.9/quay-io"}, "a Service ClusterIP", []string{"mirror.example.com/quay-io"}, `no deadlock, as "mirror.example.com/quay-io" outside`},
		{"the site's ", "docker.io", []string{"mirror.example.com/hub", "cache.example.net:8443/hub", "q.edge.example.com/hub"}, []string{"cache.example.net:8443/hub", "q.edge.example.com/hub"},
			"the in-cluster cache (the site's mirroring.inClusterCache.host), a workload of this cluster", []string{"mirror.example.com/hub"}, "no deadlock"},
		{"", "docker.io", []string{"q.edge.example.com/hub"}, []string{"q.edge.example.com/hub"}, `under edge.example.com (ingress.shards."edge-1".domain)`, nil, Deadlock},
		{"", "docker.io", []string{"cache.example.net/hub"}, nil, "", []string{"cache.example.net/hub"}, ""},
	} {
		inside, why, outside := OfSite(s, tc.prefix).Split(tc.source, tc.mirrors)
		if !slices.Equal(inside, tc.inside) || !strings.HasPrefix(why, tc.why) || !slices.Equal(outside, tc.outside) {
			t.Errorf("Split(%s, %q) = %q, %q, %q; want %q, %q..., %q", tc.source, tc.mirrors, inside, why, outside, tc.inside, tc.why, tc.outside)
		}
		if len(inside) > 0 && !strings.HasPrefix(Blocked(outside), tc.verdict) {
			t.Errorf("Split(%s, %q): Blocked = %q, want %q...", tc.source, tc.mirrors, Blocked(outside), tc.verdict)
		}
	}
}
