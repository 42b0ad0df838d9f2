package installcheck

import (
	"fmt"
	"net"
)

// macs: the agent-based installer refuses a host interface whose MAC is not
// a unicast EUI-48 address (openshift/installer
// pkg/asset/agent/agentconfig/agenthosts.go validateHostInterfaces, through
// pkg/validate/validate.go MAC: net.ParseMAC, six octets, the multicast bit
// clear: "expected unicast mac address, found multicast"). Install-config
// platform.baremetal.hosts become agent hosts with their bootMACAddress as
// their one interface when agent-config lists no hosts
// (getInstallConfigDefaults), so their boot MACs are checked alike.
func (c *checker) macs() {
	if c.f.Method != MethodAgent {
		return
	}
	for _, h := range c.f.Hosts {
		vals := []Value{h.BootMAC}
		for _, in := range h.Interfaces {
			vals = append(vals, in.MAC)
		}
		for _, v := range vals {
			if v.V == "" || v.Key == nil {
				continue
			}
			if why := macProblem(v.V); why != "" {
				c.add(CheckDuplicate, v.Key, nil,
					fmt.Sprintf("MAC %q of node %s is not a unicast EUI-48 address (%s): the agent-based installer refuses it", v.V, h.Name, why),
					"copy the MAC of the host's NIC: six octets such as 52:54:00:12:34:56, the first one even")
			}
		}
	}
}

// macProblem says why s is no MAC the installer takes, or "".
func macProblem(s string) string {
	hw, err := net.ParseMAC(s)
	switch {
	case err != nil:
		return err.Error()
	case len(hw) != 6:
		return "invalid MAC address"
	case hw[0]&1 == 1:
		return "expected unicast mac address, found multicast"
	}
	return ""
}
