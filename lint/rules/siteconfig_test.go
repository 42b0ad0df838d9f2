package rules

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
	)
}
