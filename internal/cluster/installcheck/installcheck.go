// Package installcheck checks the install-time facts of a cluster the way the
// installers do: VIPs against the machine networks and the nodes, unique node
// addresses and MACs, CIDRs without host bits, single-node and control-plane
// sizes, the rendezvous host of the agent-based installer, BMC credentials of
// hub installs, a ClusterInstance's VIP counts and arbiter (hub.go), and the
// NIC names of NMState network configs.
//
// It works on plain Facts: a site (internal/load) and plain manifests
// (install-config, agent-config, ClusterInstance in lint/rules) both describe
// their cluster with them. Every value carries an opaque Key the caller gives
// it; a Finding names the Key of the offending value, so each caller maps it
// back to its own positions.
package installcheck

import (
	"fmt"
	"net/netip"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/suggest"
)

// Key is the caller's name for where a value is written (a site field path,
// a manifest object and path); installcheck never looks inside it.
type Key any

// Value is one written value and where.
type Value struct {
	V   string
	Key Key
}

// CIDR is an address block and what it is ("machineNetwork",
// "clusterNetwork", "serviceNetwork", "subnet of pool edge").
type CIDR struct {
	Kind string
	Value
}

// Install methods, as far as the checks tell them apart.
const (
	MethodAgent    = "agent"       // openshift-install agent
	MethodAssisted = "assisted"    // a hub's assisted service (ClusterInstance)
	MethodImage    = "image-based" // a hub's image-based install (ClusterInstance)
	MethodOther    = ""            // IPI, UPI, or not known
)

// Host roles.
const (
	RoleMaster = "master"
	RoleWorker = "worker"
	// RoleArbiter is a ClusterInstance node's arbiter role (stolostron/siteconfig
	// api/v1alpha1 clusterinstance_types.go NodeSpec.Role: enum master,
	// worker, arbiter).
	RoleArbiter = "arbiter"
)

// Interface is one NIC of a host: its name and MAC.
type Interface struct {
	Name Value
	MAC  Value
}

// Host is a node known before the install.
type Host struct {
	Name string
	// Role is RoleMaster, RoleWorker, RoleArbiter or "" (unknown).
	Role string
	Key  Key
	// IPs are the host's addresses (a site's node ip and ipv6; the static
	// addresses of an agent-config host's NMState config).
	IPs []Value
	// Interfaces are the NICs the host maps names to MACs with; BootMAC the
	// MAC it boots from (V "" when not written).
	Interfaces []Interface
	BootMAC    Value
	// NICNames are the interface names the host is known to have, beyond
	// Interfaces (a site node without interfaces: its pool's uplink).
	NICNames []string
	// BootNIC, when set, is the name of the NIC the boot MAC is taken to
	// be (a site node without interfaces: its pool's uplinkInterface). The
	// installer maps that name to the boot MAC, so the name must be a
	// NIC's, never a bond, VLAN or bridge the networkConfig builds.
	BootNIC Value
	// BMC is nil when the host has none; CredentialsName is the Secret
	// name (V "" when not written).
	BMC *BMC
	// NetworkConfig is the host's NMState config as decoded YAML/JSON
	// (map[string]any), at NetworkConfigKey; nil when there is none.
	NetworkConfig    any
	NetworkConfigKey Key
}

// BMC is a host's baseboard management controller.
type BMC struct {
	Key             Key
	CredentialsName Value
}

// Facts describe one cluster to install.
type Facts struct {
	// Platform in the site schema's spelling (lower case: baremetal, none,
	// aws, ...), at PlatformKey.
	Platform    string
	PlatformKey Key
	Method      string
	// Minor is the release (0: not known; the latest release's rules apply).
	Minor platform.OCPMinor
	// UserManagedLB: the platform's loadBalancer.type is UserManaged, so
	// the installer accepts VIPs outside the machine networks and equal API
	// and ingress VIPs.
	UserManagedLB bool
	CIDRs         []CIDR
	APIVIPs       []Value
	IngressVIPs   []Value
	// ControlPlane and Workers are the node counts (-1: not known), at
	// their keys.
	ControlPlane, Workers       int
	ControlPlaneKey, WorkersKey Key
	// TwoNode: the cluster declares an arbiter or fencing, the two
	// topologies with two control-plane nodes.
	TwoNode bool
	Hosts   []Host
	// RendezvousIP of the agent-based installer (V "" when not written).
	RendezvousIP Value
	// Installed from a hub (ClusterInstance): every host needs a BMC with
	// a credentials Secret and a boot MAC.
	HubHosts bool
	// ClusterType is a ClusterInstance's spec.clusterType (V "" when not
	// written, and for sites, whose hub install writes SNO or
	// HighlyAvailable and has no arbiter).
	ClusterType Value
}

// Check names what a finding is about; lint has one rule per Check.
type Check string

// The checks.
const (
	CheckVIP          Check = "vip"           // VIPs against machine networks, nodes, each other
	CheckDuplicate    Check = "duplicate"     // node IPs, MACs, NIC names
	CheckCIDR         Check = "cidr"          // host bits
	CheckSingleNode   Check = "single-node"   // platform none, VIPs
	CheckRendezvous   Check = "rendezvous"    // agent rendezvousIP
	CheckControlPlane Check = "control-plane" // control-plane sizes
	CheckBMC          Check = "bmc"           // hub hosts: BMC credentials, boot MAC
	CheckNMState      Check = "nmstate"       // NMState structure and NIC names
	CheckImageBased   Check = "image-based"   // image-based hub installs: one node, no VIPs, bare metal
)

// Checks lists every check, in the order of their rule IDs.
var Checks = []Check{CheckVIP, CheckDuplicate, CheckCIDR, CheckSingleNode, CheckRendezvous, CheckControlPlane, CheckBMC, CheckNMState, CheckImageBased}

// Rule is the ID of the lint rule that reports the check (lint/rules
// install.go registers it): a site's install problems at vet and render and
// the same problem on an install-config in lint carry one ID.
func (c Check) Rule() string {
	for i, k := range Checks {
		if k == c {
			return fmt.Sprintf("INS%03d", i+1)
		}
	}
	return ""
}

// Finding is one problem: what is wrong, how to fix it, and the key of the
// offending value (Sub: the path inside it, for NMState configs).
type Finding struct {
	Check   Check
	Key     Key
	Sub     []string
	Message string
	Hint    string
}

// Run runs every check on f.
func Run(f *Facts) []Finding {
	c := &checker{f: f}
	c.cidrs()
	c.vips()
	c.vipFamilies()
	c.duplicates()
	c.singleNode()
	c.controlPlane()
	c.hubControlPlane()
	c.rendezvous()
	c.bmc()
	c.imageBased()
	for i := range f.Hosts {
		c.nmstate(&f.Hosts[i])
	}
	return c.out
}

type checker struct {
	f   *Facts
	out []Finding
}

func (c *checker) add(check Check, key Key, sub []string, msg, hint string) {
	c.out = append(c.out, Finding{Check: check, Key: key, Sub: sub, Message: msg, Hint: hint})
}

// ---------------------------------------------------------------- CIDRs

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

// ---------------------------------------------------------------- VIPs

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

// ---------------------------------------------------------------- duplicates

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

// ---------------------------------------------------------------- single node

// singleNode: platform none takes no VIPs (its install-config section has no
// VIP fields: openshift/installer pkg/types/none/platform.go; "API VIPs
// cannot be set with User Managed Networking": assisted-service
// ValidateVIPsWereNotSetUserManagedNetworking), and one control-plane node
// without workers needs platform none or external, with the agent-based
// installer ("Only platform none and external supports 1 ControlPlane and 0
// Compute nodes": pkg/asset/agent/installconfig.go validateSNOConfiguration)
// and the assisted service ("Single node cluster is not supported alongside
// %s platform": internal/cluster/validations/validations.go
// ValidateControlPlaneCountWithPlatform).
func (c *checker) singleNode() {
	f := c.f
	if f.Platform == platform.PlatformNone {
		for _, vs := range [][]Value{f.APIVIPs, f.IngressVIPs} {
			for _, v := range vs {
				c.add(CheckSingleNode, v.Key, nil,
					fmt.Sprintf("platform none takes no VIPs, but %s is one: the user's own load balancer and DNS carry the API and ingress (the installer's none platform has no VIP fields; the assisted service: VIPs cannot be set with User Managed Networking)", v.V),
					"remove apiVIPs and ingressVIPs, or use platform baremetal (VIPs on keepalived) with three or more control-plane nodes")
			}
		}
	}
	if f.Method != MethodAgent && f.Method != MethodAssisted {
		return
	}
	if f.ControlPlane == 1 && f.Workers > 0 {
		// openshift/installer pkg/asset/agent/installconfig.go
		// validateSNOConfiguration: "Total number of compute replicas must
		// be 0 when controlPlane.replicas is 1 for platform none or
		// external. Found N" (and, before platforms were named, the same
		// rule for every platform); openshift/assisted-service
		// internal/cluster/validator.go: "Single-node clusters must have a
		// single control plane node and no workers."
		msg := fmt.Sprintf("a single control-plane node with %d workers: the agent-based installer installs a single node only without workers (the compute replicas must be 0 when controlPlane.replicas is 1)", f.Workers)
		if f.Method == MethodAssisted {
			msg = fmt.Sprintf("a single control-plane node with %d workers: the assisted service installs a single-node cluster only without workers (\"Single-node clusters must have a single control plane node and no workers\")", f.Workers)
		}
		c.add(CheckSingleNode, f.WorkersKey, nil, msg,
			"install the single node without workers and add them after the installation, or install three control-plane nodes")
	}
	if f.ControlPlane == 1 && f.Workers == 0 && f.Platform != platform.PlatformNone && f.Platform != "external" && f.Platform != "" {
		tool := "the agent-based installer"
		if f.Method == MethodAssisted {
			tool = "the assisted service"
		}
		c.add(CheckSingleNode, f.PlatformKey, nil,
			fmt.Sprintf("a single-node cluster (1 control-plane node, no workers) on platform %s: %s installs one only on platform none or external", f.Platform, tool),
			"set the platform to none (and remove the VIPs: a single node answers on its own IP), or add control-plane nodes")
	}
}

// ---------------------------------------------------------------- image-based

// imageBased: what the siteconfig operator's image-based templates can
// install (stolostron/siteconfig internal/templates/image-based-installer/template.go):
// one node (ImageClusterInstall is a node-level template named after the
// cluster, with one hostname and one bareMetalHostRef), no VIPs (no template
// reads them), and a bare-metal host on platform baremetal or none (the
// ClusterDeployment is platform none). platform.ImageBasedNodes,
// platform.ImageBasedPlatforms.
func (c *checker) imageBased() {
	f := c.f
	if f.Method != MethodImage {
		return
	}
	const why = "the siteconfig operator's image-based templates render one ImageClusterInstall per node, named after the cluster, with that node's hostname and bareMetalHostRef (stolostron/siteconfig internal/templates/image-based-installer/template.go ImageClusterInstall)"
	if f.ControlPlane >= 0 && f.ControlPlane != platform.ImageBasedNodes {
		c.add(CheckImageBased, f.ControlPlaneKey, nil,
			fmt.Sprintf("an image-based install installs exactly %d control-plane node, not %d: %s", platform.ImageBasedNodes, f.ControlPlane, why),
			`install one control-plane node (single-node OpenShift), or use installMethod "assisted" for a multi-node cluster`)
	}
	if f.Workers > 0 {
		c.add(CheckImageBased, f.WorkersKey, nil,
			fmt.Sprintf("an image-based install installs a single node without workers, not with %d: %s", f.Workers, why),
			"install the single node without workers and add workers after the installation, or use installMethod \"assisted\"")
	}
	if f.Platform != "" && !slices.Contains(platform.ImageBasedPlatforms, f.Platform) {
		c.add(CheckImageBased, f.PlatformKey, nil,
			fmt.Sprintf("platform %q cannot be installed by an image-based install: it installs a bare-metal host registered by its BMC, and its ClusterDeployment has platform none (stolostron/siteconfig internal/templates/image-based-installer/template.go ClusterDeployment, BareMetalHost)", f.Platform),
			fmt.Sprintf("use platform %s, or installMethod \"ipi\" for a cloud", strings.Join(quoted(platform.ImageBasedPlatforms), " or ")))
	}
	if f.Platform == platform.PlatformNone {
		return // singleNode reports the VIPs of platform none
	}
	for _, vs := range [][]Value{f.APIVIPs, f.IngressVIPs} {
		for _, v := range vs {
			c.add(CheckImageBased, v.Key, nil,
				fmt.Sprintf("an image-based install configures no VIPs, but %s is one: no image-based template reads apiVIPs or ingressVIPs, and the single node answers on its own IP (stolostron/siteconfig internal/templates/image-based-installer/template.go)", v.V),
				"remove apiVIPs and ingressVIPs, and point the api and *.apps DNS records at the node's IP")
		}
	}
}

func quoted(vs []string) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = strconv.Quote(v)
	}
	return out
}

// ---------------------------------------------------------------- control plane

// controlPlane: the control-plane sizes the agent-based installer and the
// assisted service accept (platform.ControlPlaneSizes).
func (c *checker) controlPlane() {
	f := c.f
	if f.Method != MethodAgent && f.Method != MethodAssisted || f.ControlPlane < 0 {
		return
	}
	minor, release := f.Minor, "the latest release"
	if minor == 0 {
		minor = platform.LatestMinor
	} else {
		release = minor.String()
	}
	n := f.ControlPlane
	sizes := platform.ControlPlaneSizes(minor)
	if slices.Contains(sizes, n) {
		return
	}
	if n == 2 && f.TwoNode && minor >= platform.TwoNodeArbiterSince {
		return
	}
	tool := "the agent-based installer"
	if f.Method == MethodAssisted {
		tool = "the assisted service"
	}
	msg := fmt.Sprintf("%d control-plane nodes: %s accepts %s on %s", n, tool, orList(sizes), release)
	hint := "use " + orList(sizes) + " control-plane nodes"
	switch {
	case n == 2:
		msg += fmt.Sprintf(" (two control-plane nodes only as a two-node cluster with an arbiter, from %s, or with fencing, from %s)", platform.TwoNodeArbiterSince, platform.TwoNodeFencingSince)
		if f.Minor != 0 && minor < platform.TwoNodeArbiterSince {
			hint += fmt.Sprintf("; a two-node cluster needs %s or later", platform.TwoNodeArbiterSince)
		}
	case (n == 4 || n == 5) && minor < platform.ControlPlaneFlexibleSince:
		msg += fmt.Sprintf(" (4 and 5 from %s)", platform.ControlPlaneFlexibleSince)
		hint += fmt.Sprintf(", or install %s or later", platform.ControlPlaneFlexibleSince)
	}
	c.add(CheckControlPlane, f.ControlPlaneKey, nil, msg, hint)
}

func orList(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	if len(s) == 1 {
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

// ---------------------------------------------------------------- rendezvous

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

// ---------------------------------------------------------------- BMC

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

// ---------------------------------------------------------------- NMState

var predictable = regexp.MustCompile(platform.PredictableNICName)

// nmstate checks a host's NMState config: a mapping whose interfaces are a
// list of mappings with a name, and whose ethernet interfaces,
// bond and bridge ports, VLAN base interfaces and route next-hop interfaces
// are NICs of the host (its MAC-to-name mapping), interfaces the config
// defines, or physical names the assisted service accepts unmapped
// (openshift/assisted-service pkg/staticnetworkconfig/generator.go
// validateInterfaceNamesExistenceYAML: "interface name not found in networks
// configuration", "mac-interface mapping for interface %s is missing and not
// a physical interface"; platform.PredictableNICName).
func (c *checker) nmstate(h *Host) {
	if h.NetworkConfig == nil {
		return
	}
	key := h.NetworkConfigKey
	cfg, ok := h.NetworkConfig.(map[string]any)
	if !ok {
		c.add(CheckNMState, key, nil,
			fmt.Sprintf("networkConfig of node %s is not a mapping: it is an NMState document (interfaces, dns-resolver, routes)", h.Name),
			"write networkConfig as NMState: {interfaces: [{name: ..., type: ethernet, state: up, ...}], ...}")
		return
	}
	nics := map[string]bool{}
	for _, in := range h.Interfaces {
		if in.Name.V != "" {
			nics[in.Name.V] = true
		}
	}
	for _, n := range h.NICNames {
		nics[n] = true
	}
	nicList := slices.Sorted(func(yield func(string) bool) {
		for n := range nics {
			if !yield(n) {
				return
			}
		}
	})
	nicText := "none listed"
	if len(nicList) > 0 {
		nicText = strings.Join(nicList, ", ")
	}
	rawIfaces, has := cfg["interfaces"]
	var ifaces []any
	if has && rawIfaces != nil {
		if ifaces, ok = rawIfaces.([]any); !ok {
			c.add(CheckNMState, key, []string{"interfaces"},
				fmt.Sprintf("networkConfig.interfaces of node %s is not a list", h.Name),
				"write interfaces as a list: [{name: eno1, type: ethernet, ...}]")
			return
		}
	}
	defined := map[string]bool{}
	macIdentified := map[string]bool{}
	type entry struct {
		i    int
		m    map[string]any
		name string
	}
	var entries []entry
	for i, raw := range ifaces {
		sub := []string{"interfaces", strconv.Itoa(i)}
		m, ok := raw.(map[string]any)
		if !ok {
			c.add(CheckNMState, key, sub,
				fmt.Sprintf("networkConfig.interfaces[%d] of node %s is not a mapping", i, h.Name),
				"write each interface as a mapping: {name: eno1, type: ethernet, state: up}")
			continue
		}
		name, _ := m["name"].(string)
		if name == "" {
			c.add(CheckNMState, key, sub,
				fmt.Sprintf("networkConfig.interfaces[%d] of node %s has no name: the assisted service refuses it (interface name not found in networks configuration)", i, h.Name),
				"name the interface: name: eno1")
			continue
		}
		defined[name] = true
		if id, _ := m["identifier"].(string); id == "mac-address" {
			macIdentified[name] = true
		}
		entries = append(entries, entry{i, m, name})
	}
	// A name the host has: a mapped NIC, an interface the config defines,
	// or (for a physical NIC) a predictable name the assisted service
	// accepts without mapping.
	known := func(n string) bool { return nics[n] || defined[n] || predictable.MatchString(n) }
	// refused: the assisted service's own refusal, for the ethernet
	// interfaces and bond "port" entries it checks
	// (validateInterfaceNamesExistenceYAML); the other references (bond
	// "ports"/"slaves", VLAN base interfaces, bridge ports, route next hops)
	// name an interface the host does not have, which NetworkManager cannot
	// bring up.
	missingWhy := func(what, n string, refused bool) string {
		why := "the host has no such interface"
		if refused {
			why = fmt.Sprintf("the assisted service refuses it (mac-interface mapping for interface %s is missing and not a physical interface)", n)
		}
		return fmt.Sprintf("%s %s in node %s's networkConfig is not one of its NICs (%s) nor an interface the config defines, and not a physical NIC name: %s", what, n, h.Name, nicText, why)
	}
	// names: what a reference may name, for the hint's "did you mean"
	names := slices.Clone(nicList)
	for _, e := range entries {
		if !nics[e.name] && !slices.Contains(names, e.name) {
			names = append(names, e.name)
		}
	}
	missingAs := func(sub []string, what, n string, refused bool) {
		c.add(CheckNMState, key, sub, missingWhy(what, n, refused),
			fmt.Sprintf("%s; or add {name: %s, macAddress: ...} to the node's interfaces",
				suggest.Hint(n, slices.DeleteFunc(slices.Clone(names), func(x string) bool { return x == n }), "interfaces of node "+h.Name), n))
	}
	missing := func(sub []string, what, n string) { missingAs(sub, what, n, false) }
	for _, e := range entries {
		sub := []string{"interfaces", strconv.Itoa(e.i)}
		if t, _ := e.m["type"].(string); h.BootNIC.V != "" && e.name == h.BootNIC.V && t != "" && t != "ethernet" && t != "802-3-ethernet" {
			// assisted-service pkg/staticnetworkconfig/generator.go
			// injectNMPolicyCaptures finds the NIC by the mapped MAC and
			// renames the interface to the NIC's name: a bond or VLAN
			// mapped to its own port's MAC breaks static networking.
			c.add(CheckNMState, h.BootNIC.Key, nil,
				fmt.Sprintf("node %s lists no interfaces, so its boot MAC is mapped to %s, but its networkConfig makes %s a %s, not a NIC: the installer would rename the %s after the NIC that has the MAC, and static networking breaks", h.Name, e.name, e.name, t, t),
				fmt.Sprintf("list the node's NICs with their MACs: interfaces: [{name: <NIC, e.g. a port of %s>, macAddress: ...}, ...]", e.name))
		}
		switch t, _ := e.m["type"].(string); t {
		case "ethernet", "802-3-ethernet":
			if !nics[e.name] && !macIdentified[e.name] && !predictable.MatchString(e.name) {
				missingAs(append(sub, "name"), "ethernet interface", e.name, true)
			}
		case "bond":
			la, _ := e.m["link-aggregation"].(map[string]any)
			for _, field := range []string{"port", "ports", "slaves"} {
				ports, _ := la[field].([]any)
				for j, p := range ports {
					if n, _ := p.(string); n != "" && !nics[n] && !macIdentified[n] && !predictable.MatchString(n) {
						missingAs(append(sub, "link-aggregation", field, strconv.Itoa(j)), "bond port", n, field == "port")
					}
				}
			}
		case "vlan":
			v, _ := e.m["vlan"].(map[string]any)
			if n, _ := v["base-iface"].(string); n != "" && !known(n) {
				missing(append(sub, "vlan", "base-iface"), "VLAN base interface", n)
			}
		case "linux-bridge":
			br, _ := e.m["bridge"].(map[string]any)
			ports, _ := br["port"].([]any)
			for j, p := range ports {
				pm, _ := p.(map[string]any)
				if n, _ := pm["name"].(string); n != "" && !known(n) {
					missing(append(sub, "bridge", "port", strconv.Itoa(j), "name"), "bridge port", n)
				}
			}
		}
	}
	routes, _ := cfg["routes"].(map[string]any)
	rc, _ := routes["config"].([]any)
	for k, r := range rc {
		rm, _ := r.(map[string]any)
		if st, _ := rm["state"].(string); st == "absent" {
			continue
		}
		if n, _ := rm["next-hop-interface"].(string); n != "" && !known(n) {
			missing([]string{"routes", "config", strconv.Itoa(k), "next-hop-interface"}, "route next-hop interface", n)
		}
	}
}
