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
		siteCase{rule: "MIR025", name: "an in-cluster cache and no CA for it", site: inClusterSite("", ""),
			want: []string{"site.yaml:16:11: warning: the in-cluster cache quay-quay-registry.apps.s.example.com is reached over HTTPS, and no CA the nodes trust is given for it"}},
		siteCase{rule: "MIR025", name: "an in-cluster cache at a port, no CA for it", site: strings.Replace(inClusterSite("", ""), "quay-quay-registry.apps.s.example.com", `"quay-quay-registry.apps.s.example.com:8443"`, 1),
			want: []string{`so the check script's probe fails verification, the drop-in never appears, and the nodes never use the cache; put the CA that signed its certificate (for a Route served with the default ingress certificate: key ca-bundle.crt of ConfigMap default-ingress-cert in openshift-config-managed) into mirroring.additionalTrustedCA.certificates (with a configMap name) under "quay-quay-registry.apps.s.example.com:8443"`}},
		siteCase{rule: "MIR025", name: "certificates for another host, and a mirror under the apps domain", site: inClusterSite("", "  sources:\n    quay.io:\n      mirrors: [\"registry.apps.s.example.com:8443/quay\"]\n  additionalTrustedCA:\n    configMap: registry-cas\n    certificates:\n      registry.apps.s.example.com: |\n"+mirTestCA),
			want: []string{
				"site.yaml:16:11: warning: the in-cluster cache quay-quay-registry.apps.s.example.com is reached over HTTPS, and no CA the nodes trust is given for it",
				`site.yaml:20:7: warning: mirror "registry.apps.s.example.com:8443/quay" of quay.io is under apps.s.example.com (the site's cluster name and baseDomain), the cluster's own ingress domain`,
			}},
		siteCase{rule: "MIR025", name: "the cache's CA in the site", site: inClusterSite("", "  additionalTrustedCA:\n    configMap: registry-cas\n    certificates:\n      quay-quay-registry.apps.s.example.com: |\n"+mirTestCA)},
		siteCase{rule: "MIR025", name: "a ConfigMap kept outside the site", site: inClusterSite("", "  additionalTrustedCA:\n    configMap: registry-cas\n")},
		siteCase{rule: "MIR025", name: "a trust bundle for the nodes", site: inClusterSite("", "install:\n  additionalTrustBundle: |\n"+strings.ReplaceAll(mirTestCA, "        ", "    "))},
	)
}

// mirTestCA is text in PEM form, indented eight spaces (the lint rules read no certificate).
const mirTestCA = `        -----BEGIN CERTIFICATE-----
        MIIBeDCCAR+gAwIBAgIUXh1yQ2lpVvA0n1tM2OaQk7b0aGkwCgYIKoZIzj0EAwIw
        EjEQMA4GA1UEAwwHdGVzdCBDQTAeFw0yNjAxMDEwMDAwMDBaFw0zNjAxMDEwMDAw
        MDBaMBIxEDAOBgNVBAMMB3Rlc3QgQ0EwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNC
        AAQ=
        -----END CERTIFICATE-----
`

// edgeTrustFiles are a mirror under the Ingress config's domain, at port 8443, and the
// additionalTrustedCA ConfigMap image.config names, with one key.
func edgeTrustFiles(key string) map[string]string {
	return map[string]string{
		"idms.yaml":    mirIDMS("cache", "quay.io=cache.apps.edge.example.com:8443/quay-io"),
		"ingress.yaml": "apiVersion: config.openshift.io/v1\nkind: Ingress\nmetadata:\n  name: cluster\nspec:\n  domain: apps.edge.example.com\n",
		"image.yaml":   "apiVersion: config.openshift.io/v1\nkind: Image\nmetadata:\n  name: cluster\nspec:\n  additionalTrustedCA:\n    name: registry-cas\n",
		"cas.yaml":     "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: registry-cas\n  namespace: openshift-config\ndata:\n  " + key + ": x\n",
	}
}

func init() {
	ruleCases = append(ruleCases,
		ruleCase{rule: "MIR025", name: "a mirror under the install-config's apps domain, no CA", files: map[string]string{
			"idms.yaml":           mirIDMS("cache", "registry.redhat.io=quay-quay-registry.apps.c.example.com/rh"),
			"install-config.yaml": "apiVersion: v1\nbaseDomain: example.com\nmetadata: {name: c}\nplatform: {none: {}}\n",
		}, want: []string{
			`idms.yaml:9:7: warning: ImageDigestMirrorSet cache spec.imageDigestMirrors[0].mirrors[0] "quay-quay-registry.apps.c.example.com/rh" is under apps.c.example.com (install-config metadata.name and baseDomain), the cluster's own ingress domain: a Route host, served by a workload of this cluster through its routers, reached over HTTPS, and no CA the nodes trust is given for it`,
		}},
		ruleCase{rule: "MIR025", name: "the additionalTrustedCA ConfigMap lacks the key with the port", files: edgeTrustFiles("cache.apps.edge.example.com"),
			want: []string{`idms.yaml:9:7: warning: ImageDigestMirrorSet cache spec.imageDigestMirrors[0].mirrors[0] "cache.apps.edge.example.com:8443/quay-io" is under apps.edge.example.com (Ingress cluster spec.domain), the cluster's own ingress domain: a Route host, served by a workload of this cluster through its routers, reached over HTTPS, and no CA the nodes trust is given for it: ` + whyUntrusted + `, so CRI-O fails every pull from it and falls back to the next mirror or the source; put the CA that signed its certificate (for a Route served with the default ingress certificate: key ca-bundle.crt of ConfigMap default-ingress-cert in openshift-config-managed) into the ConfigMap image.config spec.additionalTrustedCA names (in openshift-config) under "cache.apps.edge.example.com..8443"`}},
		ruleCase{rule: "MIR025", name: "the additionalTrustedCA ConfigMap has the mirror's key", files: edgeTrustFiles("cache.apps.edge.example.com..8443")},
		ruleCase{rule: "MIR025", name: "a mirror outside the cluster", files: map[string]string{
			"idms.yaml":           mirIDMS("cache", "registry.redhat.io=quay.example.com/rh"),
			"install-config.yaml": "apiVersion: v1\nbaseDomain: example.com\nmetadata: {name: c}\nplatform: {none: {}}\n",
		}},
	)
}
