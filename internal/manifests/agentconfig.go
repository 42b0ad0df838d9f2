package manifests

import (
	"slices"
	"strconv"

	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/upstream"
)

// AgentConfigFile is an agent-config.yaml (the agent-based installer's
// hosts) as the rules read it: the one typed AgentConfig (internal/upstream,
// json tags as openshift/installer pkg/types/agent agent_config_type.go
// Config and Host).
type AgentConfigFile struct {
	Obj *Object `json:"-"`
	upstream.AgentConfig
}

// AgentConfigs reads every agent-config among objs that decodes, in order.
func AgentConfigs(objs []*Object) []*AgentConfigFile {
	var out []*AgentConfigFile
	for _, o := range objs {
		if !IsAgentConfig(o) {
			continue
		}
		ac := &AgentConfigFile{Obj: o}
		if o.DecodeLoose(ac) != nil {
			continue
		}
		out = append(out, ac)
	}
	return out
}

// IsAgentConfig reports whether o is an agent-config the agent-based
// installer reads (its kind and one of its apiVersions).
func IsAgentConfig(o *Object) bool {
	return o.Kind == platform.AgentConfigKind && slices.Contains(platform.AgentConfigAPIVersions, o.APIVersion)
}

// NMStateAddress is a static address of an NMState config and the path of
// its ip field inside the config.
type NMStateAddress struct {
	IP   string
	Path []string
}

// NMStateAddresses lists the static addresses of an NMState config
// (interfaces[].ipv4/ipv6.address[].ip), as the agent-based installer reads a
// host's IPs (openshift/installer pkg/asset/agent GetAllHostIPs).
func NMStateAddresses(cfg any) []NMStateAddress {
	m, _ := cfg.(map[string]any)
	ifaces, _ := m["interfaces"].([]any)
	var out []NMStateAddress
	for i, raw := range ifaces {
		in, _ := raw.(map[string]any)
		for _, fam := range []string{"ipv4", "ipv6"} {
			f, _ := in[fam].(map[string]any)
			addrs, _ := f["address"].([]any)
			for j, a := range addrs {
				am, _ := a.(map[string]any)
				if ip, _ := am["ip"].(string); ip != "" {
					out = append(out, NMStateAddress{IP: ip, Path: []string{"interfaces", strconv.Itoa(i), fam, "address", strconv.Itoa(j), "ip"}})
				}
			}
		}
	}
	return out
}
