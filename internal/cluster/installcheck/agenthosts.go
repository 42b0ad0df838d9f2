package installcheck

import "fmt"

// agentHosts: the agent-based installer refuses a host whose role is
// neither master nor worker ("host role has incorrect value. Role must
// either be 'master' or 'worker'": openshift/installer
// pkg/asset/agent/agentconfig/agenthosts.go validateRoles; test
// "host-roles-have-incorrect-values" in agent_config_test.go).
func (c *checker) agentHosts() {
	if c.f.Method != MethodAgent {
		return
	}
	for _, h := range c.f.Hosts {
		if h.RoleKey != nil && h.Role != "" && h.Role != RoleMaster && h.Role != RoleWorker {
			c.add(CheckAgentHost, h.RoleKey, nil,
				fmt.Sprintf("role %q of host %s is neither master nor worker: the agent-based installer refuses it (host role has incorrect value. Role must either be 'master' or 'worker')", h.Role, h.Name),
				"write role: master or role: worker, or leave the role out for the installer to assign")
		}
	}
}
