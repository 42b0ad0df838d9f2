package upstream

// The agent-config: the fields siteforge writes (generators/install) or reads
// (internal/manifests AgentConfigs) of openshift/installer
// pkg/types/agent/agent_config_type.go (Config, Host), json tags exactly as
// there; a host's interfaces are assisted-service Interface and its
// rootDeviceHints metal3 RootDeviceHints (siteconfig.go).

// AgentConfig is agent-config.yaml (installer agent.Config).
type AgentConfig struct {
	// APIVersion and Kind are metav1.TypeMeta's.
	APIVersion           string      `json:"apiVersion"`
	Kind                 string      `json:"kind"`
	Metadata             ObjectMeta  `json:"metadata"`
	AdditionalNTPSources []string    `json:"additionalNTPSources,omitempty"`
	RendezvousIP         string      `json:"rendezvousIP,omitempty"`
	Hosts                []AgentHost `json:"hosts,omitempty"`
}

// AgentHost is one agent-config host (installer agent.Host).
type AgentHost struct {
	Hostname        string           `json:"hostname,omitempty"`
	Role            string           `json:"role,omitempty"`
	RootDeviceHints *RootDeviceHints `json:"rootDeviceHints,omitempty"`
	Interfaces      []Interface      `json:"interfaces,omitempty"`
	// NetworkConfig is the host's NMState config as written: upstream
	// NetConfig keeps the raw YAML, whatever its shape (a mapping when
	// well formed).
	NetworkConfig any `json:"networkConfig,omitempty"`
}
