package rules

import "strings"

// The install checks of a ClusterInstance apply to each cluster of a ZTP
// SiteConfig v1, read as the ClusterInstance the siteconfig-converter makes
// of it (internal/manifests SiteConfigClusters), at the SiteConfig's lines.

const insSiteConfig = `apiVersion: ran.openshift.io/v1
kind: SiteConfig
metadata:
  name: sites
  namespace: sites
spec:
  baseDomain: example.com
  pullSecretRef:
    name: ps
  clusterImageSetNameRef: openshift-4.18
  clusters:
  - clusterName: good
    nodes:
    - hostName: g0
      bmcAddress: redfish-virtualmedia://10.0.0.1/redfish/v1/Systems/1
      bmcCredentialsName:
        name: g0-bmc
      bootMACAddress: "52:54:00:00:00:01"
  - clusterName: bad
    nodes:
    - hostName: b0
      bmcAddress: redfish-virtualmedia://10.0.0.2/redfish/v1/Systems/1
      bmcCredentialsName:
        name: b0-bmc
      bootMACAddress: "52:54:00:00:00:02"
      installerArgs: '{key: value}'
`

func init() {
	ruleCases = append(ruleCases,
		ruleCase{rule: "INS022", name: "SiteConfig: a cluster's node installerArgs not JSON, at the SiteConfig's line", files: map[string]string{"siteconfig.yaml": insSiteConfig},
			want: []string{"siteconfig.yaml:26:22: error: installerArgs of node b0 is not a valid JSON document"}},
		ruleCase{rule: "INS022", name: "SiteConfig: clusters with valid JSON fields", files: map[string]string{"siteconfig.yaml": insSiteConfig[:len(insSiteConfig)-len("      installerArgs: '{key: value}'\n")]}},
		ruleCase{rule: "INS002", name: "SiteConfig: two hosts of a cluster with one boot MAC", files: map[string]string{"siteconfig.yaml": insSiteConfig[:len(insSiteConfig)-len("      installerArgs: '{key: value}'\n")] +
			"    - hostName: b1\n      role: worker\n      bmcAddress: redfish-virtualmedia://10.0.0.3/redfish/v1/Systems/1\n      bmcCredentialsName:\n        name: b1-bmc\n      bootMACAddress: \"52:54:00:00:00:02\"\n"},
			want: []string{"siteconfig.yaml:31:23:"}},
		// NET001 on a SiteConfig cluster, at the SiteConfig's line: the
		// siteconfig-converter's test-mno sample's networks
		// (cnf-features-deploy ztp/tools/siteconfig-converter
		// samples/test-mno-siteconfig.yaml): the installer refuses them
		// (pkg/types/validation/installconfig.go validateClusterNetwork
		// "cluster network must not overlap with service network")
		ruleCase{rule: "NET001", name: "SiteConfig: service network inside the cluster network, at the SiteConfig's line", files: map[string]string{"siteconfig.yaml": strings.Replace(insSiteConfig[:len(insSiteConfig)-len("      installerArgs: '{key: value}'\n")],
			"  - clusterName: bad\n", "  - clusterName: bad\n    clusterNetwork:\n    - cidr: 192.168.0.0/16\n      hostPrefix: 23\n    serviceNetwork:\n    - 192.168.1.0/24\n", 1)},
			want: []string{"siteconfig.yaml:24:7: error: serviceNetwork 192.168.1.0/24 overlaps clusterNetwork 192.168.0.0/16"}},
		// the release of a SiteConfig's clusters: their ClusterImageSet name
		ruleCase{rule: "MIR014", name: "ICSP next to a SiteConfig of 4.17", files: map[string]string{
			"icsp.yaml": mirICSP("lso", "registry.redhat.io/openshift4=mirror.example.com:8443/openshift4"), "siteconfig.yaml": strings.Replace(insSiteConfig[:len(insSiteConfig)-len("      installerArgs: '{key: value}'\n")], "openshift-4.18", "openshift-4.17", 1)},
			want: []string{`icsp.yaml:2:7: info: ImageContentSourcePolicy lso: ImageContentSourcePolicy is deprecated since OpenShift 4.13, and this is 4.17 (from SiteConfig sites/sites spec.clusterImageSetNameRef "openshift-4.17")`}},
	)
}
