package rules

import "strings"

// Site fixtures of the in-cluster cache rules (mirroring.inClusterCache).

// inClusterSite is a connected site with an in-cluster cache; cache is the inClusterCache block's
// fields (indented four spaces), rest what follows the mirroring block.
func inClusterSite(cache, rest string) string {
	return siteYAML("4.18", "baremetal", "running", `network:
  machineNetwork: [10.0.0.0/24]
pools:
  master: {uplinkInterface: eno1, uplinkMTU: 1500, count: 3}
mirroring:
  inClusterCache:
    host: quay-quay-registry.apps.s.example.com
    orgs: {rh: registry.redhat.io}
`+cache+rest)
}

func init() {
	siteCases = append(siteCases,
		siteCase{rule: "MIR023", name: "a cache deployed otherwise, no bootstrapImages", site: inClusterSite("    deployedBy: other\n", ""),
			want: []string{`site.yaml:18:17: error: the in-cluster cache quay-quay-registry.apps.s.example.com is deployed by "other", so siteforge does not know its own images, and bootstrapImages lists none`}},
		siteCase{rule: "MIR023", name: "a cache deployed otherwise, its images listed", site: inClusterSite("    deployedBy: other\n    bootstrapImages: [registry.example.com/cache]\n", "")},
		siteCase{rule: "MIR023", name: "a cache the Quay operator runs", site: inClusterSite("", "")},
		siteCase{rule: "MIR024", name: "a ClusterIP outside the service network", site: strings.NewReplacer("quay-quay-registry.apps.s.example.com", "172.30.12.7:443", "  machineNetwork: [10.0.0.0/24]\n", "  machineNetwork: [10.0.0.0/24]\n  serviceNetwork: [172.31.0.0/16]\n").Replace(inClusterSite("", "")),
			want: []string{"site.yaml:17:11: error: the in-cluster cache's host 172.30.12.7:443 is an IP address outside the service network 172.31.0.0/16 (the site's network.serviceNetwork), so it is not the ClusterIP of the cache's Service"}},
		siteCase{rule: "MIR024", name: "a Service name", site: strings.Replace(inClusterSite("", ""), "quay-quay-registry.apps.s.example.com", "quay-quay-app.quay.svc", 1),
			want: []string{`site.yaml:16:11: error: the in-cluster cache's host "quay-quay-app.quay.svc" is a cluster DNS name`}},
		siteCase{rule: "MIR024", name: "a ClusterIP in the default service network", site: strings.Replace(inClusterSite("", ""), "quay-quay-registry.apps.s.example.com", "172.30.12.7", 1)},
		siteCase{rule: "MIR024", name: "a Route host name", site: inClusterSite("", "")},
	)
}
