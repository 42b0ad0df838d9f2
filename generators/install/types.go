package install

import (
	"github.com/siteforge/siteforge/generators/mirroring"
	"github.com/siteforge/siteforge/internal/site"
)

// The part of the installer's input types siteforge writes. The json tags are the installer's
// (openshift/installer pkg/types installconfig.go InstallConfig, Networking, machinepools.go
// MachinePool, pkg/types/aws platform.go Platform and machinepool.go MachinePool,
// pkg/types/baremetal platform.go Platform, pkg/types/none platform.go Platform,
// pkg/types/agent agent_config_type.go Config and Host, assisted-service api/v1beta1
// Interface), checked field by field against those sources. The tests decode the rendered
// files strictly into these types, so nothing is written that these types do not declare; that
// the declared tags are the installer's rests on the sources above, not on the tests.

// InstallConfig is install-config.yaml without pullSecret, which siteforge never writes.
type InstallConfig struct {
	APIVersion            string                    `json:"apiVersion"`
	Metadata              ObjectMeta                `json:"metadata"`
	AdditionalTrustBundle string                    `json:"additionalTrustBundle,omitempty"`
	SSHKey                string                    `json:"sshKey,omitempty"`
	BaseDomain            string                    `json:"baseDomain"`
	Networking            *Networking               `json:"networking,omitempty"`
	ControlPlane          *MachinePool              `json:"controlPlane,omitempty"`
	Compute               []MachinePool             `json:"compute,omitempty"`
	Platform              Platform                  `json:"platform"`
	ImageContentSources   []mirroring.InstallSource `json:"imageContentSources,omitempty"`
	ImageDigestSources    []mirroring.InstallSource `json:"imageDigestSources,omitempty"`
}

// ObjectMeta is the metadata the installer reads: the name.
type ObjectMeta struct {
	Name string `json:"name"`
}

// Networking is install-config networking.
type Networking struct {
	NetworkType       string                `json:"networkType,omitempty"`
	MachineNetwork    []MachineNetworkEntry `json:"machineNetwork,omitempty"`
	ClusterNetwork    []ClusterNetworkEntry `json:"clusterNetwork,omitempty"`
	ServiceNetwork    []string              `json:"serviceNetwork,omitempty"`
	ClusterNetworkMTU uint32                `json:"clusterNetworkMTU,omitempty"`
}

// MachineNetworkEntry is one machine network.
type MachineNetworkEntry struct {
	CIDR string `json:"cidr"`
}

// ClusterNetworkEntry is one pod network block.
type ClusterNetworkEntry struct {
	CIDR       string `json:"cidr"`
	HostPrefix int32  `json:"hostPrefix,omitempty"`
}

// MachinePool is a controlPlane or compute pool.
type MachinePool struct {
	Name         string              `json:"name"`
	Replicas     *int64              `json:"replicas,omitempty"`
	Platform     MachinePoolPlatform `json:"platform"`
	Architecture string              `json:"architecture,omitempty"`
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

// BareMetalPlatform is platform.baremetal as the agent installer takes it: the VIPs (no hosts,
// no BMC credentials: agent-config carries the hosts).
type BareMetalPlatform struct {
	APIVIPs     []string `json:"apiVIPs,omitempty"`
	IngressVIPs []string `json:"ingressVIPs,omitempty"`
}

// NonePlatform is platform.none: {}.
type NonePlatform struct{}

// AgentConfig is agent-config.yaml.
type AgentConfig struct {
	APIVersion           string      `json:"apiVersion"`
	Kind                 string      `json:"kind"`
	Metadata             ObjectMeta  `json:"metadata"`
	AdditionalNTPSources []string    `json:"additionalNTPSources,omitempty"`
	RendezvousIP         string      `json:"rendezvousIP,omitempty"`
	Hosts                []AgentHost `json:"hosts,omitempty"`
}

// AgentHost is one agent-config host.
type AgentHost struct {
	Hostname        string                `json:"hostname,omitempty"`
	Role            string                `json:"role,omitempty"`
	RootDeviceHints *site.RootDeviceHints `json:"rootDeviceHints,omitempty"`
	Interfaces      []AgentInterface      `json:"interfaces,omitempty"`
	NetworkConfig   map[string]any        `json:"networkConfig,omitempty"`
}

// AgentInterface is one NIC of a host (assisted-service api/v1beta1 Interface).
type AgentInterface struct {
	Name       string `json:"name"`
	MacAddress string `json:"macAddress"`
}
