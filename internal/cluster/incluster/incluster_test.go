package incluster

import (
	"strings"
	"testing"
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
