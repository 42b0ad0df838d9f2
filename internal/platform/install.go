package platform

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
