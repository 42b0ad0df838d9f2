package rules

import (
	"fmt"
	"strings"
)

// Rule cases for the release of plain manifests read from the objects
// (manifests.ReadRelease; docs/rules.md "The release of plain manifests"):
// version-gated rules fire, or stay quiet, as they do with --ocp-version.

// relClusterInstance is a siteconfig ClusterInstance naming its
// ClusterImageSet (openshift-kni/telco-reference
// telco-core/install/example-standard-clusterinstance.yaml:
// clusterImageSetNameRef "openshift-v4.22"; stolostron/siteconfig
// config/samples: "openshift-4.16").
func relClusterInstance(imageSet string) string {
	return fmt.Sprintf("apiVersion: siteconfig.open-cluster-management.io/v1alpha1\nkind: ClusterInstance\nmetadata:\n  name: core\n  namespace: core\nspec:\n  clusterName: core\n  clusterImageSetNameRef: %q\n", imageSet)
}

// relAgentClusterInstall names its ClusterImageSet (openshift/assisted-service
// docs/hive-integration/crds/agentClusterInstall.yaml imageSetRef).
func relAgentClusterInstall(imageSet string) string {
	return "apiVersion: extensions.hive.openshift.io/v1beta1\nkind: AgentClusterInstall\nmetadata:\n  name: spoke\n  namespace: spoke\nspec:\n  imageSetRef:\n    name: " + imageSet + "\n"
}

// relImageSetConfig is an oc-mirror v1 ImageSetConfiguration mirroring the
// releases of one channel and the Red Hat operator catalog of the same minor
// (openshift/oc-mirror v1/pkg/api/v1alpha2 types_config.go Platform.Channels,
// Operator.Catalog).
func relImageSetConfig(tag string) string {
	return "kind: ImageSetConfiguration\napiVersion: mirror.openshift.io/v1alpha2\nstorageConfig:\n  local:\n    path: /mirror/meta\nmirror:\n  platform:\n    channels:\n    - name: stable-" + strings.TrimPrefix(tag, "v") + "\n  operators:\n  - catalog: registry.redhat.io/redhat/redhat-operator-index:" + tag + "\n    packages:\n    - name: local-storage-operator\n"
}

// relCatalogsOnly mirrors only an operator catalog: it says nothing of the
// release the cluster installs.
func relCatalogsOnly(tag string) string {
	return "kind: ImageSetConfiguration\napiVersion: mirror.openshift.io/v1alpha2\nmirror:\n operators:\n   - catalog: registry.redhat.io/redhat/redhat-operator-index:" + tag + "\n"
}

func init() {
	icsp := mirICSP("lso", "registry.redhat.io/openshift4=mirror.example.com:8443/openshift4")
	sdn := strings.Replace(sdnOperatorConfig, "%MODE%", "NetworkPolicy", 1)
	ruleCases = append(ruleCases,
		// MIR014 with the release of an oc-mirror ImageSetConfiguration, as with --ocp-version 4.17
		ruleCase{rule: "MIR014", name: "ICSP next to an ImageSetConfiguration of 4.17", files: map[string]string{
			"icsp.yaml": icsp, "imageset-config.yaml": relImageSetConfig("v4.17")},
			want: []string{`icsp.yaml:2:7: info: ImageContentSourcePolicy lso: ImageContentSourcePolicy is deprecated since OpenShift 4.13, and this is 4.17 (from ImageSetConfiguration in imageset-config.yaml mirror.platform.channels[0].name "stable-4.17")`}},
		ruleCase{rule: "MIR014", name: "ICSP next to an ImageSetConfiguration of 4.12", files: map[string]string{
			"icsp.yaml": icsp, "imageset-config.yaml": relImageSetConfig("v4.12")}},
		ruleCase{rule: "MIR014", name: "ICSP next to ImageSetConfigurations that disagree", files: map[string]string{
			"icsp.yaml": icsp, "a.yaml": relImageSetConfig("v4.16"), "b.yaml": relImageSetConfig("v4.17")}},

		// A catalog-only ImageSetConfiguration (a real repository mirrors
		// redhat-operator-index:v4.10 next to an OpenShiftSDN
		// install-config) does not make the release 4.10: judged by the
		// latest release.
		ruleCase{rule: "NET002", name: "SDN next to a catalog-only ImageSetConfiguration", files: map[string]string{
			"network.yaml": sdn, "imageset-config.yaml": relCatalogsOnly("v4.10")},
			want: []string{`network.yaml:7:11: error: OpenShift SDN on the latest OpenShift release (no version known: pass --ocp-version)`}},
		ruleCase{rule: "NET002", name: "SDN next to an ImageSetConfiguration mirroring 4.10", files: map[string]string{
			"network.yaml": sdn, "imageset-config.yaml": relImageSetConfig("v4.10")}},

		// NET002 with a ClusterInstance's release: removed on 4.22, still there on 4.16
		ruleCase{rule: "NET002", name: "SDN next to a ClusterInstance of openshift-v4.22", files: map[string]string{
			"network.yaml": sdn, "clusterinstance.yaml": relClusterInstance("openshift-v4.22")},
			want: []string{`network.yaml:7:11: error: OpenShift SDN on OpenShift 4.22 (from ClusterInstance core/core spec.clusterImageSetNameRef "openshift-v4.22"): it was removed in 4.17`}},
		ruleCase{rule: "NET002", name: "SDN next to a ClusterInstance of openshift-4.16", files: map[string]string{
			"network.yaml": sdn, "clusterinstance.yaml": relClusterInstance("openshift-4.16")}},
		ruleCase{rule: "NET002", name: "SDN next to a ClusterInstance of an unknown naming: the latest release, said so", files: map[string]string{
			"network.yaml": sdn, "clusterinstance.yaml": relClusterInstance("my-release")},
			want: []string{`network.yaml:7:11: error: OpenShift SDN on the latest OpenShift release (no version known: pass --ocp-version)`}},

		// MIR016 with the release image of the ClusterImageSet an AgentClusterInstall names
		ruleCase{rule: "MIR016", name: "IDMS for an AgentClusterInstall of 4.12", files: map[string]string{
			"idms.yaml": mirIDMS("cache", mirRHCache), "aci.yaml": relAgentClusterInstall("img4.12.30-x86-64-appsub"),
			"cis.yaml": "apiVersion: hive.openshift.io/v1\nkind: ClusterImageSet\nmetadata:\n  name: img4.12.30-x86-64-appsub\nspec:\n  releaseImage: quay.io/openshift-release-dev/ocp-release:4.12.30-x86_64\n"},
			want: []string{`idms.yaml:2:7: error: ImageDigestMirrorSet cache needs OpenShift 4.13 or later, this is 4.12 (from ClusterImageSet img4.12.30-x86-64-appsub spec.releaseImage "quay.io/openshift-release-dev/ocp-release:4.12.30-x86_64" (named by AgentClusterInstall spoke/spoke spec.imageSetRef.name "img4.12.30-x86-64-appsub"))`}},
		ruleCase{rule: "MIR016", name: "IDMS for an AgentClusterInstall of 4.14", files: map[string]string{
			"idms.yaml": mirIDMS("cache", mirRHCache), "aci.yaml": relAgentClusterInstall("openshift-v4.14.0")}},
	)
}
