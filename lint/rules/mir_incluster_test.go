package rules

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
	)
}
