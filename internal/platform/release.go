package platform

import (
	"regexp"
	"strings"
)

// Release facts: where the objects of a GitOps repository state the
// OpenShift release of the cluster they configure, and the conventions the
// release is read from.

// API versions and kinds that name a release (besides config/v1
// ClusterVersion).
const (
	// ClusterInstance spec.clusterImageSetNameRef names the ClusterImageSet
	// the cluster is installed from.
	ClusterInstanceAPIVersion = "siteconfig.open-cluster-management.io/v1alpha1" // stolostron/siteconfig api/v1alpha1 clusterinstance_types.go ClusterInstanceSpec.ClusterImageSetNameRef
	ClusterInstanceKind       = "ClusterInstance"
	// AgentClusterInstall spec.imageSetRef.name names the ClusterImageSet.
	AgentClusterInstallAPIVersion = "extensions.hive.openshift.io/v1beta1" // openshift/assisted-service api/hiveextension/v1beta1 agentclusterinstall_types.go AgentClusterInstallSpec.ImageSetRef
	AgentClusterInstallKind       = "AgentClusterInstall"
	// ClusterImageSet spec.releaseImage is the release image pull spec.
	ClusterImageSetAPIVersion = "hive.openshift.io/v1" // openshift/hive apis/hive/v1 clusterimageset_types.go ClusterImageSetSpec.ReleaseImage
	ClusterImageSetKind       = "ClusterImageSet"
	// ImageSetConfiguration: what oc-mirror mirrors (release channels,
	// operator catalogs).
	ImageSetConfigurationKind = "ImageSetConfiguration" // openshift/oc-mirror v1/pkg/api/v1alpha2 types_config.go, internal/pkg/api/v2alpha1 type_config.go
	// OCMirrorPlatformOCP is the release channel type of OpenShift (the
	// default when unset); "okd" channels are not OpenShift releases.
	OCMirrorPlatformOCP = "ocp" // openshift/oc-mirror ReleaseChannel.Type "OCP is the default"
)

// ImageSetConfigurationAPIVersions are the oc-mirror API versions siteforge
// reads: v1alpha2 (oc-mirror v1) and v2alpha1 (oc-mirror v2). Both have
// mirror.platform.channels[].name/type/minVersion/maxVersion and
// mirror.operators[].catalog.
var ImageSetConfigurationAPIVersions = []string{
	"mirror.openshift.io/v1alpha2", // openshift/oc-mirror v1/pkg/api/v1alpha2 register.go
	"mirror.openshift.io/v2alpha1", // openshift/oc-mirror internal/pkg/api/v2alpha1 register.go
}

// clusterImageSetName matches the names ClusterImageSets are given by
// convention, the release version right after a fixed prefix:
//   - "openshift-4.16" and "openshift-v4.22" (optionally with the z-stream
//     and a suffix: "openshift-v4.12.23-disconnected"): the ZTP / siteconfig
//     samples (stolostron/siteconfig config/samples/*/example-*.yaml
//     clusterImageSetNameRef "openshift-4.16"; openshift-kni/telco-reference
//     telco-core/install/example-standard-clusterinstance.yaml "openshift-v4.22");
//   - "img4.17.3-x86-64-appsub": the sets ACM publishes
//     (stolostron/acm-hive-openshift-releases clusterImageSets/<channel>/4.N/img4.N.z-*.yaml);
//   - "ocp-4.3.0": the first sets of that repository.
//
// The name is only a name: the release is the set's spec.releaseImage, so a
// name is read only when the ClusterImageSet itself is not in the set, and
// only in these unambiguous forms (a version 4.y right after the prefix,
// ended by the end of the name, a '.' or a '-').
var clusterImageSetName = regexp.MustCompile(`^(?:openshift-v?|ocp-|img)(4\.[0-9]+)(?:[.-].*)?$`)

// ClusterImageSetNameMinor reads the minor from a ClusterImageSet name of a
// known convention (see clusterImageSetName); false when the name follows
// none.
func ClusterImageSetNameMinor(name string) (OCPMinor, bool) {
	m := clusterImageSetName.FindStringSubmatch(strings.ToLower(name))
	if m == nil {
		return 0, false
	}
	minor, err := ParseOCPMinor(m[1])
	return minor, err == nil
}

// ReleaseImageTagMinor reads the minor from the tag of a release image
// (quay.io/openshift-release-dev/ocp-release:4.17.3-x86_64, the form `oc adm
// release info` and ClusterImageSets use); false for a digest reference or a
// tag that is not a 4.y.z version.
func ReleaseImageTagMinor(image string) (OCPMinor, bool) {
	if strings.Contains(image, "@") {
		return 0, false
	}
	i := strings.LastIndexByte(image, ':')
	if i < 0 || strings.Contains(image[i+1:], "/") {
		return 0, false
	}
	tag := image[i+1:]
	if !strings.HasPrefix(tag, "4.") {
		return 0, false
	}
	minor, err := ParseOCPMinor(tag)
	return minor, err == nil
}

// ChannelMinor reads the minor of an update channel name (stable-4.17,
// eus-4.16, fast-4.18, candidate-4.19: the version after the last '-'; api
// config/v1 ClusterVersionSpec.Channel, oc-mirror ReleaseChannel.Name).
func ChannelMinor(channel string) (OCPMinor, bool) {
	i := strings.LastIndexByte(channel, '-')
	if i < 0 {
		return 0, false
	}
	minor, err := ParseOCPMinor(channel[i+1:])
	return minor, err == nil
}

// DefaultCatalogTag is the tag the default catalogs of a release pull
// ("v4.17"): the index is published per minor (docs "About Red Hat-provided
// Operator catalogs": registry.redhat.io/redhat/redhat-operator-index:v4.N).
func DefaultCatalogTag(minor OCPMinor) string { return "v" + minor.String() }

// DefaultCatalogTagUnknown stands for the tag when the release is unknown.
const DefaultCatalogTagUnknown = "v4.N"

// What oc-mirror v1 writes for the cluster: each run a folder
// <workspace>/results-<unix time> (openshift/oc-mirror pkg/cli/mirror/mirror.go
// createResultsDir: "results-%v" of time.Now().Unix()), holding
// imageContentSourcePolicy.yaml and a catalogSource-<name>.yaml per catalog
// (pkg/cli/mirror/manifests.go WriteICSPs, WriteCatalogSource). Each run
// writes the whole mirror's resources again, under the same names.
const (
	OCMirrorV1ResultsPrefix       = "results-"
	OCMirrorV1ICSPFile            = "imageContentSourcePolicy.yaml"
	OCMirrorV1CatalogSourcePrefix = "catalogSource-"
)

// ImportDefaultMinor is the release `siteforge import` gives a cluster whose
// input does not name one (an installation folder: the release is the
// installer binary's; a ClusterImageSet name of no known convention), with a
// warning. It is siteforge's choice, not an upstream fact: the release of
// the bundled agent example (examples/agent-sno).
const ImportDefaultMinor OCPMinor = 18
