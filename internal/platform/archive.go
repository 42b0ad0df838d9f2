package platform

import "strings"

// What a running cluster's state looks like on disk: the folder `oc adm
// must-gather` (and `oc adm inspect`) writes, and the Insights operator's
// archive. siteforge reads the objects its rules about a running cluster
// need, and nothing else: no Secret, no event, no log is ever opened.

// The must-gather layout. `oc adm must-gather` runs the must-gather image,
// whose gather script runs `oc adm inspect`, and copies what it wrote into
// DestDir/<image folder> (the image ID with every non-alphanumeric run
// replaced by "-"; openshift/oc pkg/cli/admin/mustgather/mustgather.go
// copyFilesFromPod), beside a timestamp file (logTimestamp). `oc adm
// inspect` writes each object it gathers as YAML (openshift/oc
// pkg/cli/admin/inspect/util.go dirPathForInfo, filenameForInfo):
//
//	cluster-scoped-resources/<group>/<resource>/<name>.yaml   one object
//	cluster-scoped-resources/<group>/<resource>.yaml          a List (config.openshift.io: resource.go gatherConfigResourceData)
//	namespaces/<ns>/<group>/<resource>/<name>.yaml            one object
//	namespaces/<ns>/<group>/<resource>.yaml                   a List (the namespace's "all", configmaps, events, secrets: namespace.go)
//	namespaces/<ns>/pods/<pod>/<pod>.yaml                     each pod again, beside its containers' logs (pod.go gatherPodData)
//
// with "core" for the legacy API group.
const (
	MustGatherClusterScopedDir = "cluster-scoped-resources" // oc inspect resource.go clusterScopedResourcesDirname
	MustGatherNamespacesDir    = "namespaces"               // oc inspect resource.go namespaceResourcesDirname
	MustGatherCoreGroup        = "core"                     // oc inspect util.go dirPathForInfo: groupName "core"
	MustGatherPodsDir          = "pods"                     // oc inspect namespace.go gatherNamespaceData: pods/<pod>/
	MustGatherTimestampFile    = "timestamp"                // oc inspect inspect.go and mustgather.go logTimestamp
)

// The Insights operator's archive layout (openshift/insights-operator
// docs/gathered-data.md, "Location in archive" of each gatherer): objects
// are written as JSON without apiVersion and kind, and their path says what
// they are. InsightsConfigDir holds the cluster's objects.
const (
	InsightsConfigDir = "config"
	// InsightsClusterOperatorDir holds the operator.openshift.io objects of
	// the ClusterOperators, config/clusteroperator/{group}/{kind}/[{namespace}/]{name}.json
	// since 4.6.16, each with apiVersion, kind, name and spec only
	// (gathered-data.md "ClusterOperators").
	InsightsClusterOperatorDir = "config/clusteroperator"
)

// ArchiveResource is a kind siteforge reads of a running cluster's state:
// the group folder and resource name a must-gather writes it under, its
// apiVersion and kind.
type ArchiveResource struct {
	Group, Resource, APIVersion, Kind string
}

// The API groups of what siteforge reads of a running cluster.
const (
	groupConfig   = "config.openshift.io"
	groupOperator = "operator.openshift.io"
	groupMCO      = "machineconfiguration.openshift.io"
)

// ArchiveResources are the resources siteforge reads of a must-gather: the
// cluster's network, platform, release, nodes, pools and their configs,
// mirror configuration, catalogs (and their pods), EgressIPs and ingress
// controllers, which the lint rules, `mtu`, `mirrors` and `impact` read.
// Pods are read only when a catalog source owns them (CatalogPodLabel).
var ArchiveResources = []ArchiveResource{
	{groupConfig, "networks", groupConfig + "/v1", "Network"},
	{groupConfig, "infrastructures", groupConfig + "/v1", "Infrastructure"},
	{groupConfig, "clusterversions", groupConfig + "/v1", "ClusterVersion"},
	{groupConfig, "proxies", groupConfig + "/v1", "Proxy"},
	{groupConfig, "images", groupConfig + "/v1", "Image"},
	{groupConfig, "ingresses", groupConfig + "/v1", "Ingress"},
	{groupConfig, "imagedigestmirrorsets", groupConfig + "/v1", "ImageDigestMirrorSet"},
	{groupConfig, "imagetagmirrorsets", groupConfig + "/v1", "ImageTagMirrorSet"},
	{groupConfig, "operatorhubs", groupConfig + "/v1", "OperatorHub"},
	{groupOperator, "networks", groupOperator + "/v1", "Network"},
	{groupOperator, "ingresscontrollers", groupOperator + "/v1", "IngressController"},
	{groupOperator, "imagecontentsourcepolicies", groupOperator + "/v1alpha1", "ImageContentSourcePolicy"},
	{groupOperator, "machineconfigurations", groupOperator + "/v1", "MachineConfiguration"},
	{groupMCO, "machineconfigpools", groupMCO + "/v1", "MachineConfigPool"},
	{groupMCO, "machineconfigs", groupMCO + "/v1", "MachineConfig"},
	{groupMCO, "kubeletconfigs", groupMCO + "/v1", "KubeletConfig"},
	{groupMCO, "containerruntimeconfigs", groupMCO + "/v1", "ContainerRuntimeConfig"},
	{MustGatherCoreGroup, "nodes", "v1", "Node"},
	{MustGatherCoreGroup, "pods", "v1", "Pod"},
	{"operators.coreos.com", "catalogsources", "operators.coreos.com/v1alpha1", "CatalogSource"},
	{"k8s.ovn.org", "egressips", "k8s.ovn.org/v1", "EgressIP"},
}

// ArchiveResourceOf is the resource a must-gather keeps under
// <group>/<resource>, ok false for one siteforge does not read.
func ArchiveResourceOf(group, resource string) (ArchiveResource, bool) {
	for _, r := range ArchiveResources {
		if r.Group == group && r.Resource == resource {
			return r, true
		}
	}
	return ArchiveResource{}, false
}

// ArchiveKindRead reports whether siteforge reads objects of apiVersion
// and kind from a running cluster's state.
func ArchiveKindRead(apiVersion, kind string) bool {
	for _, r := range ArchiveResources {
		if r.APIVersion == apiVersion && r.Kind == kind {
			return true
		}
	}
	return false
}

// InsightsFile is a file (or, with a trailing "/", each file of a folder)
// of the Insights archive and the kind of the object it holds.
type InsightsFile struct {
	Path             string
	APIVersion, Kind string
}

// InsightsFiles are the files siteforge reads of an Insights archive, each
// with its location in gathered-data.md (the gatherer named): the same
// kinds as ArchiveResources where the archive holds them.
var InsightsFiles = []InsightsFile{
	{"config/network.json", groupConfig + "/v1", "Network"},               // ClusterNetwork
	{"config/infrastructure.json", groupConfig + "/v1", "Infrastructure"}, // ClusterInfrastructure
	{"config/version.json", groupConfig + "/v1", "ClusterVersion"},        // ClusterVersion
	{"config/proxy.json", groupConfig + "/v1", "Proxy"},                   // ClusterProxy
	{"config/image.json", groupConfig + "/v1", "Image"},                   // ClusterImage
	{"config/ingress.json", groupConfig + "/v1", "Ingress"},               // ClusterIngress
	{"config/node/", "v1", "Node"},                                        // Nodes: config/node/{node}.json
	{"config/machineconfigpools/", groupMCO + "/v1", "MachineConfigPool"}, // MachineConfigPool
	{"config/machineconfigs/", groupMCO + "/v1", "MachineConfig"},         // MachineConfigs: config/machineconfigs/{resource}.json
	{"config/kubeletconfigs/", groupMCO + "/v1", "KubeletConfig"},         // KubeletConfig
	{"config/containerruntimeconfigs/", groupMCO + "/v1", "ContainerRuntimeConfig"},
	{"config/pod/", "v1", "Pod"}, // ClusterOperatorPodsAndEvents: config/pod/{namespace}/{pod}.json
	// ConfigMaps: config/configmaps/{namespace}/{name}/{key} since 4.7;
	// the installer's install-config (kube-system cluster-config-v1)
	{"config/configmaps/kube-system/cluster-config-v1/install-config", "", ""},
}

// CatalogPodLabel is the label OLM gives the pod serving a CatalogSource's
// index: the CatalogSource's name, in its namespace (operator-framework
// operator-lifecycle-manager pkg/controller/registry/reconciler
// reconciler.go CatalogSourceLabelKey).
const CatalogPodLabel = "olm.catalogSource"

// The objects the platform's operators write themselves. A running
// cluster's state holds them beside what the users wrote; they are the
// platform's: the cluster accepted them from the operator that wrote them.
const (
	// MCOGeneratedAnnotation marks every MachineConfig the Machine Config
	// Operator's controllers generate: the rendered-<pool>-<hash> configs,
	// the 00-/01- base configs of each role, and the 97-/98-/99-generated
	// ones of KubeletConfigs, ContainerRuntimeConfigs and image.config
	// (machine-config-operator pkg/controller/common/constants.go
	// GeneratedByControllerVersionAnnotationKey).
	MCOGeneratedAnnotation = "machineconfiguration.openshift.io/generated-by-controller-version"
	// RenderedMachineConfigPrefix starts the names of the configs MCO
	// renders per pool (pkg/controller/render render_controller.go
	// getMachineConfigHashedName: "rendered-<pool>-<hash>").
	RenderedMachineConfigPrefix = "rendered-"
)

// The annotations MCO's daemon and node controller keep on every node: the
// rendered config the node runs and the one it is to run (MCO
// pkg/daemon/constants constants.go CurrentMachineConfigAnnotationKey,
// DesiredMachineConfigAnnotationKey, MachineConfigDaemonStateAnnotationKey).
const (
	MCOCurrentConfigAnnotation = "machineconfiguration.openshift.io/currentConfig"
	MCODesiredConfigAnnotation = "machineconfiguration.openshift.io/desiredConfig"
	MCOStateAnnotation         = "machineconfiguration.openshift.io/state"
)

// MCOUnitMTUMigration is the systemd unit MCO renders into every pool's
// config while Network.operator spec.migration.mtu is set, with the
// migration's values as its environment (CNI_TARGET_MTU is network.to,
// TARGET_MTU machine.to), and drops once the migration is removed
// (machine-config-operator templates/common/_base/units/mtu-migration.service.yaml,
// rendered when the ControllerConfig's network.mtuMigration is set).
const (
	MCOUnitMTUMigration       = "mtu-migration.service"
	MCOMTUMigrationNetworkEnv = "CNI_TARGET_MTU"
	MCOMTUMigrationMachineEnv = "TARGET_MTU"
)

// MachineConfigPool conditions MCO sets (api machineconfiguration/v1
// MachineConfigPoolConditionType): Degraded is true while either of the
// others is (pkg/controller/node status.go calculateStatus).
const (
	PoolConditionDegraded       = "Degraded"
	PoolConditionNodeDegraded   = "NodeDegraded"
	PoolConditionRenderDegraded = "RenderDegraded"
	PoolConditionUpdated        = "Updated"
)

// Container waiting reasons of a failed image pull (kubelet
// pkg/kubelet/images types.go ErrImagePull, ErrImagePullBackOff's reason
// "ImagePullBackOff").
var ImagePullFailureReasons = []string{"ErrImagePull", "ImagePullBackOff"}

// InfrastructurePlatform is the platform an Infrastructure's type names,
// spelled as install-config and the site schema spell it: the type in lower
// case (api config/v1 PlatformType "AWS", "BareMetal", "VSphere", "None"
// are install-config's aws, baremetal, vsphere, none).
func InfrastructurePlatform(t string) string { return strings.ToLower(t) }
