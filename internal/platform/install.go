package platform

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Day0Kinds are the kinds of day-2 objects a site to be installed also
// hands the installer, so the cluster comes up with them instead of
// rebooting every node for them right after the installation: the docs
// "Installing a cluster with customizations" / "Customizing nodes"
// ("Adding day-1 kernel arguments": MachineConfigs in <installation_directory>/openshift),
// "Configuring image registry repository mirroring" (mirror sets), and
// "Ingress sharding" (IngressControllers created at install). The same bytes
// are applied again on day 2 (Argo CD), which changes nothing.
//
// Checked against what the installation does with each kind:
//   - MachineConfig: MCO's bootstrap renders every pool's config from the
//     MachineConfigs among the manifests (machine-config-operator
//     pkg/controller/bootstrap bootstrap.go Run). One for a custom pool is
//     inert until that pool's MachineConfigPool and node labels exist on day
//     2 (its nodes install as workers), so it is harmless at install.
//   - The mirror sets: rendered into registries.conf by the same bootstrap
//     (container-runtime-config RunImageBootstrap), next to the installer's
//     own objects from install-config; a conflict fails the installation, so
//     the install finisher leaves out copies MCO would refuse
//     (generators/mirroring Install.Day0Refused).
//   - IngressController: the shards, created by the installation and
//     reconciled by the ingress operator. The default IngressController is
//     not a day-2 resource of siteforge (a merge patch file, whose documented
//     install-time name is cluster-ingress-default-ingresscontroller.yaml),
//     so it is never copied here.
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

// InstallerWritesSourcePolicy reports whether the installation of a site
// writes the site's mirrorSourcePolicy into the installer's own
// image-digest-mirror set (the install-config imageDigestSources[].sourcePolicy
// it is made from). The installer knows the field from
// InstallerSourcePolicySince. An assisted install (hub, ClusterInstance) never
// does, whatever the release: assisted-service builds the install-config's
// imageDigestSources from the hub's mirror registries.conf and copies only
// Source and Mirrors (openshift/assisted-service
// internal/installcfg/builder/builder.go setImageDigestMirrorSet), its
// install-config type has no sourcePolicy (internal/installcfg/installcfg.go
// ImageDigestSource), and install-config overrides are decoded into that type
// with DisallowUnknownFields (builder.go applyConfigOverrides). Without a
// policy the installer's set means AllowContactingSource, and MCO's bootstrap
// refuses it next to a NeverContactSource set for the same source
// (machine-config-operator pkg/controller/container-runtime-config/helpers.go
// "conflicting mirrorSourcePolicy is set for the same source").
func InstallerWritesSourcePolicy(assisted bool, minor OCPMinor) bool {
	return !assisted && minor >= InstallerSourcePolicySince
}

// ---------------------------------------------------------------- install checks

// Control-plane sizes the installers accept.
//
//   - Agent-based installer: 1 or 3 control-plane nodes before 4.18; 1, 3, 4
//     or 5 from 4.18 (openshift/installer docs/user/agent/control-plane-replicas.md;
//     pkg/asset/agent/installconfig.go validateControlPlaneReplicas, test case
//     "ControlPlane.Replicas can only be set to 5, 4, 3, or 1").
//   - Assisted service (hub installs by ClusterInstance): exactly 3 dedicated
//     control-plane nodes in high availability mode before 4.18, 3 to 5 from
//     4.18, 1 for a single node (openshift/assisted-service
//     internal/common/common.go MinimumVersionForNonStandardHAOCPControlPlane,
//     MaxMasterHostsNeededForInstallationInHaModeOfOCP418OrNewer;
//     internal/bminventory/inventory.go validateHighAvailabilityWithControlPlaneCount).
//   - Two control-plane nodes only as a two-node cluster with an arbiter
//     (from 4.19) or with fencing (from 4.20) (assisted-service
//     MinimumVersionForArbiterClusters, MinimumVersionForTwoNodesWithFencing;
//     installer pkg/types/validation/installconfig.go validateArbiter,
//     agent fencing credentials).
const (
	ControlPlaneFlexibleSince OCPMinor = 18 // 4 and 5 control-plane nodes
	TwoNodeArbiterSince       OCPMinor = 19 // 2 control-plane nodes + arbiter
	TwoNodeFencingSince       OCPMinor = 20 // 2 control-plane nodes with fencing
)

// CPUPartitioningInstallSince is the first release whose installers set up
// CPU workload partitioning from install-config (and a ClusterInstance)
// cpuPartitioningMode: openshift/installer pkg/types/installconfig.go
// InstallConfig CPUPartitioning, "currently in TechPreview" in 4.12 and
// generally available from 4.13 (OpenShift 4.13 release notes, "Workload
// partitioning for all cluster topologies").
const CPUPartitioningInstallSince OCPMinor = 13

// ControlPlaneSizes lists the control-plane node counts the agent installer
// and the assisted service accept on release minor for a cluster without an
// arbiter or fencing (see ControlPlaneFlexibleSince).
func ControlPlaneSizes(minor OCPMinor) []int {
	if minor >= ControlPlaneFlexibleSince {
		return []int{1, 3, 4, 5}
	}
	return []int{1, 3}
}

// PlatformNone is the platform of a cluster whose networking the user
// manages (no VIPs, no keepalived): the installer's platform "none"
// (openshift/installer pkg/types/none/platform.go: Platform has no fields,
// so apiVIPs and ingressVIPs cannot be written in it) and the assisted
// service's user-managed networking ("API VIPs cannot be set with User
// Managed Networking": internal/cluster/validations/validations.go
// ValidateVIPsWereNotSetUserManagedNetworking).
const PlatformNone = "none"

// vipsInMachineNetwork are the platforms whose API and ingress VIPs the
// installer requires inside a machine network (openshift/installer
// pkg/types/validation/installconfig.go validateVIPsForPlatform:
// reqVIPinMachineCIDR true for baremetal, openstack and ovirt, for vsphere
// only with the agent-based installer, false for nutanix). The assisted
// service requires it for every cluster with VIPs
// (internal/network/machine_network_cidr.go VerifyVipWithSingleMachineNetwork:
// "does not belong to machine-network-cidr").
var vipsInMachineNetwork = map[string]bool{"baremetal": true, "openstack": true, "ovirt": true}

// VIPsInMachineNetwork reports whether the installer requires the VIPs of
// platform inside a machine network; agent: the agent-based installer;
// hub: installed by the assisted service.
func VIPsInMachineNetwork(platform string, agent, hub bool) bool {
	return hub || vipsInMachineNetwork[platform] || agent && platform == "vsphere"
}

// PredictableNICName matches the interface names systemd gives physical NICs
// (man systemd.net-naming-scheme: en + o/s/x/v/P/b/u/c/a/i/p/d...): the
// assisted service accepts an NMState ethernet interface or bond port of
// such a name without a MAC-to-interface mapping, and refuses any other
// unmapped name ("mac-interface mapping for interface %s is missing and not
// a physical interface": openshift/assisted-service
// pkg/staticnetworkconfig/generator.go validateInterfaceNamesExistenceYAML).
const PredictableNICName = `^en[PsvxXbucaipod]`

// AgentConfigAPIVersions are the apiVersions of agent-config.yaml the
// installer reads: v1beta1, and v1alpha1 still read and converted
// (openshift/installer pkg/types/agent/agent_config_type.go
// AgentConfigVersion; pkg/types/agent/conversion ConvertAgentConfig). Its
// kind is AgentConfigKind.
var AgentConfigAPIVersions = []string{"v1beta1", "v1alpha1"}

// ImageBasedNodes is the number of nodes an image-based hub install
// installs: one control-plane node, no workers. The siteconfig operator's
// image-based templates render ImageClusterInstall as a NODE-level template
// named {{ .Spec.ClusterName }}, with the node's one hostname and one
// bareMetalHostRef (stolostron/siteconfig
// internal/templates/image-based-installer/template.go ImageClusterInstall,
// GetNodeTemplates): a second node renders a second ImageClusterInstall of
// the same name; the image-based install operator installs single-node
// OpenShift from a seed image (OpenShift docs "Image-based installation for
// single-node OpenShift").
const ImageBasedNodes = 1

// ImageBasedPlatforms are the site platforms an image-based hub install
// takes: its ClusterDeployment is written with platform none whatever the
// ClusterInstance says (template.go ClusterDeployment: "platform: none: {}"),
// and no image-based template reads apiVIPs or ingressVIPs, so a VIP is
// never configured; the host is a bare-metal host registered by its BMC
// (template.go BareMetalHost). "baremetal" says the hardware, "none" the
// installed cluster's platform; a cloud or vSphere platform cannot be
// installed this way.
var ImageBasedPlatforms = []string{"baremetal", PlatformNone}

// ImageBasedTemplatePrefix starts the names of the siteconfig operator's
// image-based install templates (ibi-cluster-templates-v1,
// ibi-node-templates-v1), as against the assisted installer's
// (ai-cluster-templates-v1, ai-node-templates-v1) (stolostron/siteconfig
// bundle/manifests/siteconfig.clusterserviceversion.yaml, config/samples).
const ImageBasedTemplatePrefix = "ibi-"

// ClusterInstance clusterType values with two control-plane nodes and an
// arbiter (stolostron/siteconfig api/v1alpha1 clusterinstance_types.go
// ClusterTypeHighlyAvailableArbiter).
const ClusterTypeHighlyAvailableArbiter = "HighlyAvailableArbiter"

// ClusterInstanceMaxVIPs is how many addresses a ClusterInstance's apiVIPs
// and ingressVIPs each hold at most: one per IP family (stolostron/siteconfig
// api/v1alpha1 clusterinstance_types.go ApiVIPs, IngressVIPs:
// +kubebuilder:validation:MaxItems=2, the CRD's maxItems: 2). The hub's API
// server refuses a ClusterInstance with more.
const ClusterInstanceMaxVIPs = 2

// ---------------------------------------------------------------- installer inputs

// Installer input files and their API versions.
const (
	InstallConfigFile       = "install-config.yaml" // installer pkg/asset/installconfig installConfigFilename
	InstallConfigAPIVersion = "v1"                  // installer pkg/types installconfig.go InstallConfigVersion
	AgentConfigFile         = "agent-config.yaml"   // installer pkg/asset/agent/agentconfig agent_config.go agentConfigFilename
	AgentConfigAPIVersion   = "v1beta1"             // installer pkg/types/agent agent_config_type.go AgentConfigVersion
	AgentConfigKind         = "AgentConfig"         // docs "Agent configuration parameters" (agent-config.yaml kind)
	// AgentCABundleAssetPath is the mirrors' CA file of the agent ISO in the
	// assets directory; the agent installer writes it from install-config
	// additionalTrustBundle itself (installer pkg/asset/agent/mirror
	// cabundle.go CaBundleFilename, Generate).
	AgentCABundleAssetPath = "mirror/ca-bundle.crt"
)

// AgentInstallerSince is the first release whose agent installer reads
// agent-config apiVersion v1beta1 (installer PR #6416 "AGENT-319: Set
// agent-config version to v1beta1": "it will now appear in the 4.12
// release"; docs "Installing an on-premise cluster with the Agent-based
// Installer", first published for 4.12). From the same release the
// install-config platforms have the apiVIPs/ingressVIPs lists (installer
// pkg/types/baremetal platform.go: apiVIP and ingressVIP are
// DeprecatedAPIVIP/DeprecatedIngressVIP; docs 4.12 "Installation
// configuration parameters": "apiVIP ... deprecated ... use apiVIPs"), so an
// agent install-config always uses the lists.
const AgentInstallerSince OCPMinor = 12

// Agent-config host roles (installer pkg/asset/agent/agentconfig
// agenthosts.go masterRole, workerRole, validateRoles: "Role must either be
// 'master' or 'worker'").
const (
	AgentHostRoleMaster = "master"
	AgentHostRoleWorker = "worker"
)

// AgentUnsupportedRootDeviceHints are the metal3 root device hints the agent
// installer refuses in agent-config hosts, with its message (installer
// pkg/asset/agent/agentconfig agenthosts.go validateHostRootDeviceHints).
var AgentUnsupportedRootDeviceHints = map[string]string{
	"wwnWithExtension":   "WWN extensions are not supported in root device hints",
	"wwnVendorExtension": "WWN vendor extensions are not supported in root device hints",
}

// InstallerDefaultArchitecture is the machine pools' architecture when
// install-config names none and the installer binary is the x86_64 one
// (installer pkg/types/defaults machinepools.go SetMachinePoolDefaults:
// version.DefaultArch()). siteforge writes it out: the site states no
// architecture, and an arm64 openshift-install would otherwise default to
// arm64.
const InstallerDefaultArchitecture = "amd64"

// Install-config machine pool names (installer pkg/types machinepools.go
// MachinePoolControlPlaneRoleName, MachinePoolComputeRoleName; the AWS edge
// pool is AWSEdgePoolName, MachinePoolEdgeRoleName).
const (
	InstallPoolControlPlane = "master"
	InstallPoolCompute      = "worker"
)

// AWS edge compute pools at install: the installer creates the Local Zone or
// Wavelength Zone subnets itself when the edge pool names zones.
const (
	// AWSEdgeLocalZonesSince: compute pool "edge" with platform.aws.zones
	// (required: installer pkg/types/aws/validation "zone is required when
	// using edge machine pools")
	// naming Local Zones (docs 4.14 "Installing a cluster on AWS with compute
	// nodes on AWS Local Zones": "setting the zone names in the edge compute
	// pool of the install-config.yaml file"; enhancement
	// installer/aws-custom-edge-machineset-local-zones.md).
	AWSEdgeLocalZonesSince OCPMinor = 14
	// AWSEdgeWavelengthSince: the same for Wavelength Zones (docs 4.15
	// "Installing a cluster on AWS with compute nodes on AWS Wavelength
	// Zones").
	AWSEdgeWavelengthSince OCPMinor = 15
)

// AdditionalTrustBundleConfigMap is the ConfigMap in openshift-config the
// installer writes install-config additionalTrustBundle to (installer
// pkg/asset/manifests additionaltrustbundleconfig.go,
// additionalTrustBundleConfigMapName). MCO puts it on every node
// (/etc/pki/ca-trust/source/anchors/openshift-config-user-ca-bundle.crt)
// whatever additionalTrustBundlePolicy says (MCO pkg/operator/sync.go reads
// user-ca-bundle; bootstrap_dependencies.go at bootstrap), so CRI-O trusts a
// mirror signed by it; the policy ("Proxyonly", the default, or "Always")
// only decides whether the cluster Proxy's trustedCA names it too
// (installer pkg/asset/manifests proxy.go).
const AdditionalTrustBundleConfigMap = "user-ca-bundle"

// CheckPullSecret checks a pull secret as the installer does before it
// accepts install-config.yaml: openshift/installer
// pkg/types/validation/installconfig.go ValidateInstallConfig calls
// pkg/validate/validate.go ImagePullSecret, which decodes the JSON into
// {"auths": map[string]map[string]interface{}}, requires at least one auths
// entry ("auths required") and, in every entry, an "auth" or a "credsStore"
// field ("%q requires either auth or credsStore"). It returns the auths keys
// in file order. Its errors never quote the secret: not a key, not a value,
// not a byte of it (the installer's own message quotes the registry key, and
// its field.Invalid error the whole secret); they say where, by byte offset
// or by entry number.
func CheckPullSecret(data []byte) (keys []string, err error) {
	var top struct {
		Auths json.RawMessage `json:"auths"`
	}
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, pullSecretJSONError(err)
	}
	auths := bytes.TrimSpace(top.Auths)
	if len(auths) == 0 || bytes.Equal(auths, []byte("null")) {
		return nil, &PullSecretError{Why: `has no "auths" object (the installer: auths required)`}
	}
	dec := json.NewDecoder(bytes.NewReader(auths))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, &PullSecretError{Why: `has an "auths" field that is not a JSON object`}
	}
	var bad []string
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, pullSecretJSONError(err)
		}
		key, _ := t.(string)
		var entry map[string]json.RawMessage
		if err := dec.Decode(&entry); err != nil {
			return nil, &PullSecretError{Why: fmt.Sprintf(`has an "auths" entry (number %d) that is not a JSON object`, len(keys)+1)}
		}
		keys = append(keys, key)
		_, auth := entry["auth"]
		_, store := entry["credsStore"]
		if !auth && !store {
			bad = append(bad, strconv.Itoa(len(keys)))
		}
	}
	if len(keys) == 0 {
		return nil, &PullSecretError{Why: `has an empty "auths" object (the installer: auths required)`}
	}
	if len(bad) > 0 {
		return nil, &PullSecretError{Why: fmt.Sprintf(`has "auths" entries (number %s of %d, in file order) with neither an "auth" nor a "credsStore" field (the installer requires one of them)`, strings.Join(bad, ", "), len(keys))}
	}
	return keys, nil
}

// PullSecretError is a pull secret the installer refuses; its text quotes
// nothing of the secret.
type PullSecretError struct{ Why string }

func (e *PullSecretError) Error() string { return "the pull secret " + e.Why }

// pullSecretJSONError describes a JSON error by offset only: the decoder's
// own text quotes the offending character.
func pullSecretJSONError(err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return &PullSecretError{Why: fmt.Sprintf("is not JSON (syntax error at byte %d)", syn.Offset)}
	case errors.As(err, &typ):
		return &PullSecretError{Why: fmt.Sprintf("is not a JSON object with an \"auths\" object (wrong type at byte %d)", typ.Offset)}
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return &PullSecretError{Why: "is not JSON (it ends too early)"}
	}
	return &PullSecretError{Why: "is not JSON"}
}

// AuthKeyRegistry is the registry host[:port] a pull secret's auths key
// gives credentials for, as the container runtime on the nodes reads it
// (containers/image pkg/docker/config/config.go normalizeAuthFileKey: an
// http:// or https:// prefix is dropped with everything after the host, and
// docker.io and registry-1.docker.io are index.docker.io; a key
// "host/namespace" is looked up for images under that namespace only,
// authKeyLookupOrder).
func AuthKeyRegistry(key string) string {
	stripped := strings.TrimPrefix(strings.TrimPrefix(key, "http://"), "https://")
	host, _, _ := strings.Cut(stripped, "/")
	return normalizeDockerHost(host)
}

// MirrorHost is the registry host[:port] of an install-config mirror
// (imageDigestSources / imageContentSources mirrors): the installer accepts
// only a canonical repository name, whose first component is the registry,
// or a bare host[:port] (openshift/installer
// pkg/types/validation/installconfig.go validateNamedRepository).
func MirrorHost(mirror string) string {
	host, _, _ := strings.Cut(mirror, "/")
	return normalizeDockerHost(host)
}

func normalizeDockerHost(h string) string {
	switch h {
	case "registry-1.docker.io", "docker.io":
		return "index.docker.io"
	}
	return h
}

// The ZTP SiteConfig v1 and its conversion to a ClusterInstance, as
// openshift-kni/cnf-features-deploy ztp/tools/siteconfig-converter does it
// (convert.go convertClusterToClusterInstance, main.go flags).
const (
	// SiteConfigAPIVersion and SiteConfigKind name the ZTP SiteConfig
	// (ztp/siteconfig-generator/siteConfig/siteConfig.go SiteConfig).
	SiteConfigAPIVersion = "ran.openshift.io/v1"
	SiteConfigKind       = "SiteConfig"
	// ConverterExtraManifestsConfigMap is the ConfigMap of the SiteConfig's
	// extra manifests that the converter adds to every ClusterInstance's
	// extraManifestsRefs (main.go extraManifestConfigMapName).
	ConverterExtraManifestsConfigMap = "extra-manifests-cm"
	// ConverterIronicInspectEnabled is the ironicInspect value the converter
	// leaves out, the ClusterInstance's default (convert.go InspectEnabled).
	ConverterIronicInspectEnabled = "enabled"
	// ClusterTypeSNO and ClusterTypeHighlyAvailable are the clusterType the
	// converter writes for one node and for more (stolostron/siteconfig
	// api/v1alpha1 clusterinstance_types.go ClusterType).
	ClusterTypeSNO             = "SNO"
	ClusterTypeHighlyAvailable = "HighlyAvailable"
)

// The enums of the ClusterInstance fields a site carries as written
// (stolostron/siteconfig api/v1alpha1 clusterinstance_types.go and its CRD:
// ClusterInstanceSpec cpuArchitecture, diskEncryption.type; NodeSpec
// automatedCleaningMode, ironicInspect). The disk encryption types are the
// CRD's ("tpmv2", "tang") and the SiteConfig's that the converter copies
// ("nbde": ztp/siteconfig-generator/siteConfig/siteConfig.go DiskEncryption);
// only custom templates read them.
var (
	ClusterInstanceCPUArchitectures       = []string{"x86_64", "aarch64", "multi"}
	ClusterInstanceDiskEncryptionTypes    = []string{"none", "nbde", "tang", "tpmv2"}
	ClusterInstanceAutomatedCleaningModes = []string{"disabled", "metadata"}
)

// IronicInspectDisabled is the NodeSpec ironicInspect that skips Ironic's
// hardware inspection; "" (the default) inspects.
const IronicInspectDisabled = "disabled"

// The JSON texts of a ClusterInstance. The siteconfig webhook requires
// each to be valid JSON (stolostron/siteconfig api/v1alpha1
// clusterinstance_types.go, "Must be valid JSON when provided");
// assisted-service merges installConfigOverrides into the install-config
// and the ignitionConfigOverride texts into the Ignition configs, so they
// are objects, and passes installerArgs to coreos-installer as a list of
// strings (openshift/assisted-service docs/hive-integration "Creating host
// installer args overrides": '["--append-karg", "..."]').
const (
	JSONObject      = '{' // installConfigOverrides, ignitionConfigOverride
	JSONStringsList = '[' // installerArgs
)

// ClusterInstanceJSONProblem says why text is not the JSON a ClusterInstance
// field of that shape (JSONObject or JSONStringsList) takes, or "": the
// rest of a sentence that starts with the field's name.
func ClusterInstanceJSONProblem(text string, shape byte) string {
	var v any
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		return "is not a valid JSON document: the siteconfig operator refuses the ClusterInstance"
	}
	switch x := v.(type) {
	case map[string]any:
		if shape == JSONObject {
			return ""
		}
	case []any:
		if shape == JSONStringsList {
			for _, e := range x {
				if _, ok := e.(string); !ok {
					return "is a JSON list with an element that is not a string: coreos-installer takes its arguments as strings"
				}
			}
			return ""
		}
	}
	if shape == JSONStringsList {
		return "is not a JSON list of strings: the bare metal agent controller passes it to coreos-installer as its arguments"
	}
	return "is not a JSON object: assisted-service merges it into the install-config or the Ignition config as one"
}
