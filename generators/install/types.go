package install

import (
	"github.com/siteforge/siteforge/internal/site"
	"github.com/siteforge/siteforge/internal/upstream"
)

// The part of the installer's input types siteforge writes. The json tags are the installer's
// (openshift/installer pkg/types installconfig.go InstallConfig, Networking, machinepools.go
// MachinePool, pkg/types/aws platform.go Platform and machinepool.go MachinePool,
// pkg/types/baremetal platform.go Platform, pkg/types/none platform.go Platform,
// pkg/types/agent agent_config_type.go Config and Host, assisted-service api/v1beta1
// Interface), checked field by field against those sources. The tests decode the rendered
// files strictly into these types, so nothing is written that these types do not declare; that
// the declared tags are the installer's rests on the sources above, not on the tests.

// AgentConfig is agent-config.yaml.
type AgentConfig struct {
	APIVersion           string              `json:"apiVersion"`
	Kind                 string              `json:"kind"`
	Metadata             upstream.ObjectMeta `json:"metadata"`
	AdditionalNTPSources []string            `json:"additionalNTPSources,omitempty"`
	RendezvousIP         string              `json:"rendezvousIP,omitempty"`
	Hosts                []AgentHost         `json:"hosts,omitempty"`
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
