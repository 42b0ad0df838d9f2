package installcheck

import (
	"fmt"
	"strings"
)

// agentHosts: the agent-based installer refuses a host whose role is
// neither master nor worker ("host role has incorrect value. Role must
// either be 'master' or 'worker'": openshift/installer
// pkg/asset/agent/agentconfig/agenthosts.go validateRoles; test
// "host-roles-have-incorrect-values" in agent_config_test.go), and a
// rootDeviceHints deviceName that is not a device directly in /dev or in
// /dev/disk/by-path (validateHostRootDeviceHints, through
// pkg/types/baremetal/validation/platform.go ValidateHostRootDeviceHints;
// the same rule as metal3's BareMetalHost validation, tests
// "invalidRootDeviceHintByUUID" and "invalidRootDeviceHintNoPath" in
// metal3-io/baremetal-operator).
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
		if d := h.RootDeviceName; d.V != "" && d.Key != nil {
			if why := rootDeviceProblem(d.V); why != "" {
				c.add(CheckAgentHost, d.Key, nil,
					fmt.Sprintf("rootDeviceHints.deviceName %q of host %s: the agent-based installer refuses it (%s)", d.V, h.Name, why),
					"name the disk as /dev/sda or /dev/disk/by-path/...; pick it by wwn or serialNumber otherwise")
			}
		}
	}
}

// rootDeviceProblem says why deviceName is no root device hint the installer
// takes, or "": it must be a /dev path naming a device directly in /dev or
// in /dev/disk/by-path.
func rootDeviceProblem(deviceName string) string {
	sub, ok := strings.CutPrefix(deviceName, "/dev/")
	if !ok {
		return "Device Name of root device hint must be a /dev/ path"
	}
	if strings.Contains(strings.TrimPrefix(sub, "disk/by-path/"), "/") {
		return "Device Name of root device hint must be path in /dev/ or /dev/disk/by-path/"
	}
	return ""
}
