package upstream

import (
	"encoding/json"

	configv1 "github.com/openshift/api/config/v1"
)

// The install-config: the fields siteforge writes (generators/install) or
// reads (internal/manifests InstallConfigs) of openshift/installer
// pkg/types installconfig.go (InstallConfig, Networking, MachineNetworkEntry,
// ClusterNetworkEntry, ImageContentSource, ImageDigestSource, Platform,
// Capabilities), machinepools.go (MachinePool, MachinePoolPlatform),
// pkg/types/aws platform.go Platform and machinepool.go MachinePool,
// pkg/types/baremetal platform.go Platform and pkg/types/none platform.go
// Platform, json tags exactly as there. The installer's module is not a
// dependency (it pulls in every cloud SDK). pullSecret is left out: siteforge
// never writes or reads it.

// InstallConfig is install-config.yaml (installer InstallConfig).
type InstallConfig struct {
	// APIVersion is metav1.TypeMeta apiVersion (kind is not written).
	APIVersion            string       `json:"apiVersion"`
	Metadata              ObjectMeta   `json:"metadata"`
	AdditionalTrustBundle string       `json:"additionalTrustBundle,omitempty"`
	SSHKey                string       `json:"sshKey,omitempty"`
	BaseDomain            string       `json:"baseDomain"`
	Networking            *Networking  `json:"networking,omitempty"`
	ControlPlane          *MachinePool `json:"controlPlane,omitempty"`
	// Arbiter is the arbiter pool of a two-node cluster with an arbiter.
	Arbiter             *MachinePool        `json:"arbiter,omitempty"`
	Compute             []MachinePool       `json:"compute,omitempty"`
	Platform            Platform            `json:"platform"`
	ImageContentSources []ImageDigestSource `json:"imageContentSources,omitempty"`
	ImageDigestSources  []ImageDigestSource `json:"imageDigestSources,omitempty"`
	// Capabilities is installer Capabilities, the same fields as
	// ClusterVersion spec.capabilities.
	Capabilities *configv1.ClusterVersionCapabilitiesSpec `json:"capabilities,omitempty"`
	// Proxy is the cluster-wide proxy (installer Proxy); also the
	// ClusterInstance's (siteconfig ClusterInstanceSpec proxy, assisted-service
	// api/v1beta1 Proxy: the same three fields).
	Proxy *Proxy `json:"proxy,omitempty"`
	// CPUPartitioning is installer InstallConfig CPUPartitioning: "None"
	// or "AllNodes" (CPUPartitioningMode; TechPreview in 4.12, GA in 4.13).
	CPUPartitioning string `json:"cpuPartitioningMode,omitempty"`
}

// Proxy is install-config proxy (installer pkg/types/installconfig.go
// Proxy): the proxy URLs and the comma-separated noProxy list.
type Proxy struct {
	HTTPProxy  string `json:"httpProxy,omitempty"`
	HTTPSProxy string `json:"httpsProxy,omitempty"`
	NoProxy    string `json:"noProxy,omitempty"`
}

// ObjectMeta is the metadata the installer reads: the name (also
// agent-config's).
type ObjectMeta struct {
	Name string `json:"name"`
}

// Networking is install-config networking, with the deprecated spellings the
// installer still converts (pkg/types/conversion/installconfig.go
// convertNetworking).
type Networking struct {
	NetworkType    string                `json:"networkType,omitempty"`
	MachineNetwork []MachineNetworkEntry `json:"machineNetwork,omitempty"`
	ClusterNetwork []ClusterNetworkEntry `json:"clusterNetwork,omitempty"`
	ServiceNetwork []string              `json:"serviceNetwork,omitempty"`
	// ClusterNetworkMTU is a uint32 upstream; an int here so a reader sees
	// a negative value (which the installer's validation reports) instead
	// of failing to decode the file.
	ClusterNetworkMTU int `json:"clusterNetworkMTU,omitempty"`
	// OVNKubernetesConfig is installer OVNKubernetesConfig: only
	// ipv4.internalJoinSubnet (the installer passes it to the operator
	// Network config, pkg/asset/manifests/network.go).
	OVNKubernetesConfig *OVNKubernetesConfig `json:"ovnKubernetesConfig,omitempty"`

	DeprecatedMachineCIDR     string                `json:"machineCIDR,omitempty"`
	DeprecatedType            string                `json:"type,omitempty"`
	DeprecatedServiceCIDR     string                `json:"serviceCIDR,omitempty"`
	DeprecatedClusterNetworks []ClusterNetworkEntry `json:"clusterNetworks,omitempty"`
}

// OVNKubernetesConfig is install-config networking.ovnKubernetesConfig
// (installer OVNKubernetesConfig and IPv4OVNKubernetesConfig; the
// internalJoinSubnet is an ipnet.IPNet upstream, a string here so a reader
// sees a malformed value instead of failing to decode the file).
type OVNKubernetesConfig struct {
	IPv4 *struct {
		InternalJoinSubnet string `json:"internalJoinSubnet,omitempty"`
	} `json:"ipv4,omitempty"`
}

// MachinePool is a controlPlane, arbiter or compute pool.
type MachinePool struct {
	Name         string              `json:"name"`
	Replicas     *int64              `json:"replicas,omitempty"`
	Platform     MachinePoolPlatform `json:"platform"`
	Architecture string              `json:"architecture,omitempty"`
	// Fencing is the control plane's fencing section of a two-node
	// cluster with fencing: only its presence is read, never its
	// credentials, so it stays raw.
	Fencing json.RawMessage `json:"fencing,omitempty"`
}

// MachinePoolPlatform is a pool's platform section.
type MachinePoolPlatform struct {
	AWS *AWSMachinePool `json:"aws,omitempty"`
}

// AWSMachinePool is a pool's AWS section.
type AWSMachinePool struct {
	Zones        []string `json:"zones,omitempty"`
	InstanceType string   `json:"type,omitempty"`
}

// Platform is install-config platform: exactly one section.
type Platform struct {
	AWS       *AWSPlatform       `json:"aws,omitempty"`
	BareMetal *BareMetalPlatform `json:"baremetal,omitempty"`
	None      *NonePlatform      `json:"none,omitempty"`
}

// AWSPlatform is platform.aws.
type AWSPlatform struct {
	Region string `json:"region"`
}

// BareMetalPlatform is platform.baremetal: the VIPs siteforge writes, and
// the hosts it reads (siteforge writes no hosts: agent-config carries them).
type BareMetalPlatform struct {
	APIVIPs     []string `json:"apiVIPs,omitempty"`
	IngressVIPs []string `json:"ingressVIPs,omitempty"`
	// Hosts is `json:"hosts"` upstream; omitempty here so that the
	// install-configs siteforge writes stay without it.
	Hosts []BareMetalHost `json:"hosts,omitempty"`
}

// BareMetalHost is one platform.baremetal.hosts entry (installer
// pkg/types/baremetal/platform.go Host): the fields the install checks
// read; the BMC and its credentials are never read.
type BareMetalHost struct {
	Name           string `json:"name,omitempty"`
	Role           string `json:"role"`
	BootMACAddress string `json:"bootMACAddress"`
}

// NonePlatform is platform.none: {}.
type NonePlatform struct{}

// ImageDigestSource is one imageDigestSources entry; the imageContentSources
// entries (ImageContentSource) are the same less sourcePolicy.
type ImageDigestSource struct {
	Source       string   `json:"source"`
	Mirrors      []string `json:"mirrors,omitempty"`
	SourcePolicy string   `json:"sourcePolicy,omitempty"`
}
