package installcheck

import (
	"fmt"
	"net/netip"
	"regexp"
	"strings"
)

// The host checks: addresses and MACs used twice, the rendezvous host, and
// the BMCs of hub installs.

// duplicates: a node IP or MAC written twice. The agent-based installer
// refuses a MAC used twice across hosts ("duplicate MAC address found":
// openshift/installer pkg/asset/agent/agentconfig/agenthosts.go
// validateHostInterfaces), the assisted service a host whose MACs or
// interface names repeat ("MACs and Interfaces for host %d must be unique":
// pkg/staticnetworkconfig/generator.go validateMacInterfaceName) and hosts
// whose addresses collide (internal/host/validator.go
// noIPCollisionsInNetwork).
func (c *checker) duplicates() {
	ips := map[netip.Addr]string{}
	macs := map[string]string{}
	for _, h := range c.f.Hosts {
		for _, ip := range h.IPs {
			a, err := netip.ParseAddr(strings.TrimSpace(ip.V))
			if err != nil {
				continue
			}
			if other, ok := ips[a.Unmap()]; ok {
				if other == h.Name {
					continue // the host's own address written twice
				}
				c.add(CheckDuplicate, ip.Key, nil,
					fmt.Sprintf("IP %s of node %s is also %s's: two hosts with one address break both", ip.V, h.Name, other),
					"give every node its own address")
				continue
			}
			ips[a.Unmap()] = h.Name
		}
		own := map[string]bool{}
		names := map[string]bool{}
		seen := func(mac Value, nic string) {
			m := normalMAC(mac.V)
			if m == "" {
				return
			}
			if own[m] {
				if nic != "" {
					c.add(CheckDuplicate, mac.Key, nil,
						fmt.Sprintf("MAC %s is given to two interfaces of node %s: the assisted service requires a host's MACs and interface names to be unique", mac.V, h.Name),
						"give each NIC its own MAC")
				}
				return
			}
			own[m] = true
			if other, ok := macs[m]; ok {
				c.add(CheckDuplicate, mac.Key, nil,
					fmt.Sprintf("MAC %s of node %s is also %s's: the installer identifies a host by its MACs (duplicate MAC address found)", mac.V, h.Name, other),
					"copy each host's MACs from its own NICs")
				return
			}
			macs[m] = h.Name
		}
		for _, in := range h.Interfaces {
			if n := in.Name.V; n != "" {
				if names[n] {
					c.add(CheckDuplicate, in.Name.Key, nil,
						fmt.Sprintf("interface name %s is listed twice for node %s: the assisted service requires a host's MACs and interface names to be unique", n, h.Name),
						"list each NIC once")
				}
				names[n] = true
			}
			seen(in.MAC, in.Name.V)
		}
		seen(h.BootMAC, "")
	}
}

var macPattern = regexp.MustCompile(`^[0-9a-f]{2}([:-][0-9a-f]{2}){5}$`)

// normalMAC is a MAC in lower case with colons, or "" when s is not one.
func normalMAC(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	if !macPattern.MatchString(s) {
		return ""
	}
	return strings.ReplaceAll(s, "-", ":")
}

// rendezvous: the agent-based installer's rendezvous host runs the assisted
// service the other hosts register with, and must be a control-plane host
// ("The rendezvousIP must be assigned to a control plane host":
// openshift/installer pkg/asset/agent/agentconfig/agenthosts.go
// validateRendezvousIPNotWorker; docs "Preparing to install with the
// Agent-based Installer"). The installer refuses a worker's address; an
// address no control-plane host has, when every control-plane host has a
// static address of its family, leaves the hosts waiting for a service
// nobody runs.
func (c *checker) rendezvous() {
	f := c.f
	r := f.RendezvousIP
	if f.Method != MethodAgent || r.V == "" {
		return
	}
	want, err := netip.ParseAddr(strings.TrimSpace(r.V))
	if err != nil {
		return
	}
	// A host's address of the rendezvousIP's family is known when it is
	// static (an agent-config host on DHCP for that family is not).
	var masters []string
	allKnown := true
	for _, h := range f.Hosts {
		has, static := false, ""
		for _, ip := range h.IPs {
			a, err := netip.ParseAddr(strings.TrimSpace(ip.V))
			if err != nil || a.Unmap().Is4() != want.Unmap().Is4() {
				continue
			}
			if a.Unmap() == want.Unmap() {
				has = true
			}
			if static == "" {
				static = ip.V
			}
		}
		switch {
		case has && h.Role == RoleWorker:
			c.add(CheckRendezvous, r.Key, nil,
				fmt.Sprintf("rendezvousIP %s is worker %s's IP: the rendezvous host must be a control-plane host (the installer: The rendezvousIP must be assigned to a control plane host)", r.V, h.Name),
				"set rendezvousIP to a master's IP")
			return
		case has:
			return
		case h.Role == RoleMaster && static == "":
			allKnown = false
		case h.Role == RoleMaster:
			masters = append(masters, h.Name+" "+static)
		}
	}
	if allKnown && len(masters) > 0 {
		c.add(CheckRendezvous, r.Key, nil,
			fmt.Sprintf("rendezvousIP %s is no control-plane host's IP (%s): the hosts would wait for an assisted service no host runs", r.V, strings.Join(masters, ", ")),
			"set rendezvousIP to a master's IP, for example "+strings.SplitN(masters[0], " ", 2)[1])
	}
}

// bmc: a hub install registers each host as a BareMetalHost, which needs a
// BMC with a credentials Secret and the MAC the host boots from (siteconfig
// api/v1alpha1 clusterinstance_types.go NodeSpec: bmcAddress,
// bmcCredentialsName and bootMACAddress are required).
func (c *checker) bmc() {
	if !c.f.HubHosts {
		return
	}
	for _, h := range c.f.Hosts {
		switch {
		case h.BMC == nil:
			c.add(CheckBMC, h.Key, nil,
				fmt.Sprintf("node %s has no BMC: a hub install registers each host as a BareMetalHost, whose BMC credentials Secret the ClusterInstance names (bmcCredentialsName)", h.Name),
				`add bmc: {address: "redfish-virtualmedia+https://<bmc>/redfish/v1/Systems/1", credentialsSecret: "<name>-bmc"}, and create that Secret (keys username, password) on the hub out of band`)
		case h.BMC.CredentialsName.V == "":
			c.add(CheckBMC, h.BMC.Key, nil,
				fmt.Sprintf("node %s names no BMC credentials Secret: the ClusterInstance's bmcCredentialsName.name is required", h.Name),
				"name the Secret (keys username, password) you create on the hub out of band")
		}
		if h.BootMAC.V == "" {
			key := h.BootMAC.Key
			if key == nil {
				key = h.Key
			}
			c.add(CheckBMC, key, nil,
				fmt.Sprintf("node %s has no boot MAC: the ClusterInstance's bootMACAddress is required (the BareMetalHost boots that NIC)", h.Name),
				"add bootMAC: the MAC of the NIC the host boots and installs from")
		}
	}
}
