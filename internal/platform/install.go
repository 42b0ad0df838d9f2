package platform

// Day0Kinds are the kinds of day-2 objects a site to be installed also
// hands the installer, so the cluster comes up with them instead of
// rebooting every node for them right after the installation: the docs
// "Installing a cluster with customizations" / "Customizing nodes"
// ("Adding day-1 kernel arguments": MachineConfigs in <installation_directory>/openshift),
// "Configuring image registry repository mirroring" (mirror sets), and
// "Ingress sharding" (IngressControllers created at install). The same bytes
// are applied again on day 2 (Argo CD), which changes nothing.
var Day0Kinds = map[[2]string]bool{
	{"machineconfiguration.openshift.io/v1", "MachineConfig"}:      true,
	{"config.openshift.io/v1", "ImageDigestMirrorSet"}:             true,
	{"config.openshift.io/v1", "ImageTagMirrorSet"}:                true,
	{"operator.openshift.io/v1alpha1", "ImageContentSourcePolicy"}: true,
	{"operator.openshift.io/v1", "IngressController"}:              true,
}

// Day0Kind reports whether objects of apiVersion and kind are applied at
// installation as well (Day0Kinds).
func Day0Kind(apiVersion, kind string) bool { return Day0Kinds[[2]string{apiVersion, kind}] }

// ---------------------------------------------------------------- hub installs (ClusterInstance)

// HubTemplates are the cluster- and node-level installation templates a
// ClusterInstance names (spec.templateRefs, spec.nodes[].templateRefs).
type HubTemplates struct{ Cluster, Node string }

// SiteconfigBundledTemplates are the templates the siteconfig operator
// creates at start-up, by install method: stolostron/siteconfig
// internal/templates/assisted-installer/template.go and
// internal/templates/image-based-installer/template.go
// (ClusterLevelInstallTemplates, NodeLevelInstallTemplates), created by
// cmd/main.go initConfigMapTemplates.
var SiteconfigBundledTemplates = map[string]HubTemplates{
	"assisted":    {Cluster: "ai-cluster-templates-v1", Node: "ai-node-templates-v1"},
	"image-based": {Cluster: "ibi-cluster-templates-v1", Node: "ibi-node-templates-v1"},
}

// SiteconfigTemplatesNamespace is where the bundled templates live: the
// operator creates them in its own namespace (stolostron/siteconfig
// cmd/main.go getSiteConfigNamespace, POD_NAMESPACE), which is
// open-cluster-management when Red Hat Advanced Cluster Management runs it
// (RHACM docs "Enabling the SiteConfig operator", "Default set of
// installation templates"). A standalone deployment of the upstream operator
// runs in siteconfig-operator (stolostron/siteconfig
// config/default/kustomization.yaml, and its config/samples): such a hub sets
// install.hub.templates.
const SiteconfigTemplatesNamespace = "open-cluster-management"

// ExtraManifestKeyExtensions are the file name extensions of the keys of an
// extra-manifests ConfigMap siteforge writes: assisted-service
// internal/manifests/manifests.go validateUserSuppliedManifest accepts
// .yaml, .yml, .json and .patch*, and validateManifestFileNames refuses a
// name starting with ".", with a space or a directory.
var ExtraManifestKeyExtensions = []string{".yaml", ".yml"}

// ExtraManifestsConfigMapMaxBytes bounds the size of one extra-manifests
// ConfigMap as JSON (what client-side `kubectl apply` and Argo CD's default
// sync store in the kubectl.kubernetes.io/last-applied-configuration
// annotation: the whole object again). Two limits meet there: an object's
// annotations together may hold at most 256 KiB (k8s.io/apimachinery
// pkg/api/validation/objectmeta.go TotalAnnotationSizeLimitB), and a
// ConfigMap's data at most 1 MiB (kubernetes pkg/apis/core/validation
// ValidateConfigMap, corev1.MaxSecretSize; etcd's default request limit is
// 1.5 MiB, etcd docs "System limits"). The annotation is the smaller one: 192
// KiB of JSON leaves 64 KiB for the labels and annotations Argo CD and the
// operators add. Server-side apply would allow more; the bound does not
// assume it.
const ExtraManifestsConfigMapMaxBytes = 192 << 10

// ClusterInstancePlatformTypes maps a site's cluster.platform to the
// ClusterInstance spec.platformType of the assisted flow (stolostron/siteconfig
// api/v1alpha1 clusterinstance_types.go PlatformType, enum "", BareMetal,
// None, VSphere, Nutanix, External; the assisted template passes it to
// AgentClusterInstall spec.platformType). Platforms absent here cannot be
// installed from a hub.
var ClusterInstancePlatformTypes = map[string]string{
	"baremetal": "BareMetal",
	"none":      "None",
	"vsphere":   "VSphere",
	"nutanix":   "Nutanix",
}
