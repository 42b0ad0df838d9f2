package installcheck

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/siteforge/siteforge/internal/platform"
)

// The network checks: CIDR host bits and the VIPs against the machine
// networks, the nodes and each other.

// cidrs: a network written with host bits set. The installer refuses it:
// "invalid network address. got 10.0.0.5/24, expecting 10.0.0.0/24"
// (openshift/installer pkg/validate/validate.go SubnetCIDR, called by
// pkg/types/validation/installconfig.go validateNetworking and
// validateClusterNetwork); the assisted service likewise ("is not a valid
// network CIDR": internal/network/cidr_validations.go verifySubnetCIDR).
func (c *checker) cidrs() {
	for _, n := range c.f.CIDRs {
		p, err := netip.ParsePrefix(strings.TrimSpace(n.V))
		if err != nil || p == p.Masked() {
			continue
		}
		c.add(CheckCIDR, n.Key, nil,
			fmt.Sprintf("%s %s has host bits set: the installer refuses it (invalid network address. got %s, expecting %s)", n.Kind, n.V, n.V, p.Masked()),
			"write the network address: "+p.Masked().String())
	}
}

func (c *checker) machineNetworks() []netip.Prefix {
	var out []netip.Prefix
	for _, n := range c.f.CIDRs {
		if n.Kind != "machineNetwork" {
			continue
		}
		if p, err := netip.ParsePrefix(strings.TrimSpace(n.V)); err == nil {
			out = append(out, p.Masked())
		}
	}
	return out
}

// vips checks the API and ingress VIPs as the installer does
// (openshift/installer pkg/types/validation/installconfig.go
// validateVIPsForPlatform and validateAPIAndIngressVIPs: inside a machine
// network where the platform requires it, "VIP for API must not be one of
// the Ingress VIPs", both skipped with a user-managed load balancer), and as
// the assisted service does (internal/network/machine_network_cidr.go
// VerifyVipWithSingleMachineNetwork: not the broadcast address, not an
// address in use by a host). The network address of an IPv4 machine network,
// and the subnet-router anycast address of an IPv6 one (RFC 4291 2.6.1, all
// interface-identifier bits zero), are no host's either.
func (c *checker) vips() {
	f := c.f
	c.hubVIPCount()
	if f.Platform == platform.PlatformNone {
		return // CheckSingleNode refuses them
	}
	machine := c.machineNetworks()
	agent, hub := f.Method == MethodAgent, f.Method == MethodAssisted || f.Method == MethodImage
	required := platform.VIPsInMachineNetwork(f.Platform, agent, hub) && !f.UserManagedLB
	nodeIP := map[netip.Addr]string{}
	for _, h := range f.Hosts {
		for _, ip := range h.IPs {
			if a, err := netip.ParseAddr(strings.TrimSpace(ip.V)); err == nil {
				if _, ok := nodeIP[a.Unmap()]; !ok {
					nodeIP[a.Unmap()] = h.Name
				}
			}
		}
	}
	ingress := map[netip.Addr]bool{}
	for _, v := range f.IngressVIPs {
		if a, err := netip.ParseAddr(strings.TrimSpace(v.V)); err == nil {
			ingress[a.Unmap()] = true
		}
	}
	check := func(what string, v Value, api bool) {
		a, err := netip.ParseAddr(strings.TrimSpace(v.V))
		if err != nil {
			return // not an IP: the schema or the installer's parser says so
		}
		a = a.Unmap()
		if api && ingress[a] && !f.UserManagedLB {
			c.add(CheckVIP, v.Key, nil,
				fmt.Sprintf("API VIP %s is also an ingress VIP: the installer refuses it (VIP for API must not be one of the Ingress VIPs)", v.V),
				"give the API and the ingress each their own free address of the machine network")
		}
		var in netip.Prefix
		for _, p := range machine {
			if p.Contains(a) {
				in = p
				break
			}
		}
		if !in.IsValid() {
			if required && len(machine) > 0 {
				c.add(CheckVIP, v.Key, nil,
					fmt.Sprintf("%s %s is not inside a machine network (%s): %s", what, v.V, joinPrefixes(machine), c.whyInMachineNetwork()),
					"use a free address of a machine network, or add the VIP's subnet to the machine networks")
			}
			return
		}
		switch {
		case a.Is4() && a == in.Addr():
			c.add(CheckVIP, v.Key, nil,
				fmt.Sprintf("%s %s is the network address of machine network %s: no host can answer on it", what, v.V, in),
				"use a free host address of "+in.String())
		case a.Is4() && a == broadcast(in):
			c.add(CheckVIP, v.Key, nil,
				fmt.Sprintf("%s %s is the broadcast address of machine network %s: the assisted service refuses it, and no host can answer on it", what, v.V, in),
				"use a free host address of "+in.String())
		case a.Is6() && a == in.Addr() && in.Bits() < 127:
			c.add(CheckVIP, v.Key, nil,
				fmt.Sprintf("%s %s is the subnet-router anycast address of machine network %s (RFC 4291 2.6.1): it belongs to the routers, not to a host", what, v.V, in),
				"use a free host address of "+in.String())
		}
		if name, ok := nodeIP[a]; ok {
			c.add(CheckVIP, v.Key, nil,
				fmt.Sprintf("%s %s is node %s's IP: keepalived moves a VIP between the nodes, and an address in use by a host is refused (assisted service: is already in use)", what, v.V, name),
				"use a free address of the machine network that no node has")
		}
	}
	for _, v := range f.APIVIPs {
		check("API VIP", v, true)
	}
	for _, v := range f.IngressVIPs {
		check("ingress VIP", v, false)
	}
}

func (c *checker) whyInMachineNetwork() string {
	switch c.f.Method {
	case MethodAssisted, MethodImage:
		return "the assisted service requires every VIP inside a machine network (does not belong to machine-network-cidr)"
	case MethodAgent:
		return fmt.Sprintf("the agent-based installer requires the VIPs of platform %s inside a machine network (IP expected to be in one of the machine networks)", c.f.Platform)
	}
	return fmt.Sprintf("the installer requires the VIPs of platform %s inside a machine network (IP expected to be in one of the machine networks)", c.f.Platform)
}

func broadcast(p netip.Prefix) netip.Addr {
	b := p.Addr().As4()
	host := 32 - p.Bits()
	for i := 3; i >= 0 && host > 0; i-- {
		n := min(host, 8)
		b[i] |= byte(1<<n - 1)
		host -= n
	}
	return netip.AddrFrom4(b)
}

func joinPrefixes(ps []netip.Prefix) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = p.String()
	}
	return strings.Join(s, ", ")
}
