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

	"github.com/siteforge/siteforge/internal/platform"
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
	// HostPrefix of a cluster network (V "" when 0 or not written); the
	// hostPrefix checks skip a CIDR whose HostPrefix.Key is nil (the
	// caller does not describe it).
	HostPrefix Value
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
	// Role is RoleMaster, RoleWorker, RoleArbiter or "" (unknown); an
	// agent-config host's role as written, at RoleKey (nil when the role
	// is not written but derived, as a site pool's).
	Role    string
	RoleKey Key
	Key     Key
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
	// RootDeviceName is the host's rootDeviceHints.deviceName (V "" when
	// not written).
	RootDeviceName Value
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
	// NetworkType is the cluster network plugin (OVNKubernetes,
	// OpenShiftSDN; "" when not known).
	NetworkType string
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
	// InstallHosts are install-config platform.baremetal.hosts (at
	// InstallHostsKey): the hosts the installer provisions on bare metal.
	// An agent install takes them as its Hosts when agent-config lists
	// none; the caller says so by listing them in Hosts too.
	InstallHosts    []Host
	InstallHostsKey Key
	// MachineAPI: the cluster keeps the MachineAPI capability (the
	// installer checks platform.baremetal.hosts only then).
	MachineAPI bool
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
	CheckAgentHost    Check = "agent-host"    // agent hosts: role, root device hints
)

// Checks lists every check, in the order of their rule IDs.
var Checks = []Check{CheckVIP, CheckDuplicate, CheckCIDR, CheckSingleNode, CheckRendezvous, CheckControlPlane, CheckBMC, CheckNMState, CheckImageBased, CheckAgentHost}

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
	c.serviceNetworks()
	c.ownOverlaps()
	c.hostPrefixes()
	c.vips()
	c.vipFamilies()
	c.vipPrimaryFamily()
	c.duplicates()
	c.macs()
	c.singleNode()
	c.controlPlane()
	c.hubControlPlane()
	c.installHostsCount()
	c.rendezvous()
	c.bmc()
	c.imageBased()
	c.agentHosts()
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
