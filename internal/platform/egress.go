package platform

import "net"

// Egress IP facts: where OVN-Kubernetes, OpenShift SDN and
// cloud-network-config-controller (CNCC) let a node host an egress IP.

// EgressAssignableLabel marks the nodes that may host egress IPs; it must
// be on the nodes before the EgressIP objects are created.
const EgressAssignableLabel = "k8s.ovn.org/egress-assignable" // OVN-K; docs "Assigning egress IPs to a node"

// EgressDualStackObjectSince is the first release whose docs support one
// EgressIP object holding IPv4 and IPv6 addresses together ("Configuring
// dual-stack networking for an EgressIP object", OCPBUGS-59964, backported to
// the 4.16 docs by openshift-docs PR #100341). Before it, an object mixes no
// families; from it, a dual-stack pair split over two objects is
// unsupported. An earlier docs proposal to forbid mixing (openshift-docs PR
// #78423, OCPBUGS-36497, 4.12+) was closed unmerged.
const EgressDualStackObjectSince OCPMinor = 16

// EgressCloudCapacity is the egress IP capacity per node on a cloud
// (cloud-network-config-controller pkg/cloudprovider), and how many of a
// node's own addresses count against it. AWS depends on the instance type
// and is not modelled.
type EgressCloudCapacity struct {
	PerNode int // the cloud's limit
	// UsedByNode is what the node itself takes from it: CNCC subtracts
	// the NIC's current IP configurations on Azure (the primary one
	// included), current alias IPs on GCP and allowed address pairs on
	// OpenStack (none before egress IPs).
	UsedByNode int
	Unit       string
}

// EgressCloudCapacities by platform (schema spelling).
var EgressCloudCapacities = map[string]EgressCloudCapacity{
	"azure":     {PerNode: 256, UsedByNode: 1, Unit: "private IP addresses per NIC"},          // CNCC azure.go defaultAzurePrivateIPCapacity = 256; getCapacity subtracts the NIC's IP configurations
	"gcp":       {PerNode: 100, UsedByNode: 0, Unit: "alias IP ranges per NIC"},               // CNCC gcp.go defaultGCPPrivateIPCapacity = 100 (older CNCC: 10)
	"openstack": {PerNode: 10, UsedByNode: 0, Unit: "allowed address pairs per Neutron port"}, // CNCC openstack.go openstackMaxCapacity = 10 (Neutron max_allowed_address_pairs default)
}

// Capacity is the table's limit as OVN-K applies it: one total for both
// families (CNCC reports {"ip": n} on Azure, GCP and OpenStack).
func (c EgressCloudCapacity) Capacity() EgressCapacity {
	return EgressCapacity{IPv4: EgressCapacityUnlimited, IPv6: EgressCapacityUnlimited, IP: c.PerNode - c.UsedByNode}
}

// egressCloudPlatforms host egress IPs through CNCC: an egress IP must be in
// the subnet of the node's primary interface there (the egress-ipconfig
// annotation's ifaddr), and OVN-K looks at no secondary host network
// (ovn-org/ovn-kubernetes go-controller/pkg/util/ovn.go
// PlatformTypeIsEgressIPCloudProvider: AWS, GCP, Azure, OpenStack;
// node_annotations.go GetEgressIPNetwork). Elsewhere (bare metal and the
// other on-prem platforms) OVN-K may also use a secondary host network of
// the node's host-cidrs annotation.
var egressCloudPlatforms = map[string]bool{ // CNCC cloud providers (pkg/cloudprovider: aws, azure, gcp, openstack)
	"aws": true, "azure": true, "gcp": true, "openstack": true,
}

// EgressCloudPlatform reports whether egress IPs go through
// cloud-network-config-controller on platform.
func EgressCloudPlatform(platform string) bool { return egressCloudPlatforms[platform] }

// EgressPrimaryOnly reports whether an egress IP must be inside the subnet
// of a node's primary interface: on clouds (CNCC assigns it to the primary
// NIC) and with OpenShift SDN. Elsewhere OVN-Kubernetes also uses a
// secondary interface whose subnet holds it.
func EgressPrimaryOnly(platform, networkType string) bool {
	return egressCloudPlatforms[platform] || networkType == OpenShiftSDN
}

// EgressNoControlPlanePlatform is where control-plane nodes cannot host
// egress IPs.
const EgressNoControlPlanePlatform = "aws" // docs "Configuring an egress IP address" (BZ#2039656)

// Node annotations that say where a node can host egress IPs (read from
// Node objects, as a cluster reports them).
const (
	// NodePrimaryIfAddrAnnotation holds the address of the node's primary
	// interface (br-ex) with its prefix: {"ipv4":"10.0.0.5/24","ipv6":"..."}.
	// Off-cloud its subnet is the node's OVN network for egress IPs
	// (ovn-org/ovn-kubernetes go-controller/pkg/util/node_annotations.go
	// ParseNodePrimaryIfAddr, read by GetNodeEIPConfig).
	NodePrimaryIfAddrAnnotation = "k8s.ovn.org/node-primary-ifaddr"
	// NodeHostCIDRsAnnotation lists every address of the node's host
	// interfaces with its prefix: ["10.0.0.5/24","192.168.50.7/24"]
	// (ovn-org/ovn-kubernetes go-controller/pkg/util/node_annotations.go
	// OVNNodeHostCIDRs). OVN-K reads it twice for egress IPs: an egress IP
	// equal to any of its addresses, on any node, is refused
	// (clustermanager/egressip_controller.go isEgressIPAddrConflict, via
	// ParseNodeHostCIDRsDropNetMask: event EgressIPConflict); and off-cloud
	// its entries other than the primary address are the node's secondary
	// host networks (GetSecondaryHostNetworkContainingIP, via
	// ParseNodeHostCIDRsExcludeOVNNetworks).
	NodeHostCIDRsAnnotation = "k8s.ovn.org/host-cidrs"
	// EgressCloudCapacityAnnotation is what cloud-network-config-controller
	// writes on each node on a cloud: the subnet of the primary NIC and how
	// many egress IPs the node can hold:
	// [{"interface":"...","ifaddr":{"ipv4":"10.0.128.0/17"},"capacity":{"ipv4":14,"ipv6":15}}]
	// (AWS reports per-family limits; Azure, GCP and OpenStack one "ip"
	// total). On a cloud OVN-K reads the node's egress IP network and
	// capacity from it, the first entry only, and nothing else
	// (ovn-org/ovn-kubernetes go-controller/pkg/util/node_annotations.go
	// ParseCloudEgressIPConfig, GetNodeEIPConfig); the capacities are
	// EgressCapacity.
	EgressCloudCapacityAnnotation = "cloud.network.openshift.io/egress-ipconfig"
)

// EgressCapacityUnlimited is a capacity the node does not report: OVN-K
// starts the three limits at math.MaxInt32 and lets the annotation
// overwrite only the keys it has (ovn-org/ovn-kubernetes
// go-controller/pkg/util/node_annotations.go UnlimitedNodeCapacity,
// ParseCloudEgressIPConfig), and off-cloud every limit is unlimited
// (ParseNodePrimaryIfAddr).
const EgressCapacityUnlimited = -1

// EgressCapacity is how many egress IPs one node may hold, in the three
// independent limits OVN-K checks before it assigns an address to a node
// (ovn-org/ovn-kubernetes go-controller/pkg/clustermanager/
// egressip_controller.go assignEgressIPs): IP bounds all the node's egress
// IPs together, of every EgressIP object and both families; IPv4 bounds
// its IPv4 egress IPs, IPv6 its IPv6 ones (getIPFamilyAllocationCount).
// A node whose annotation says {"ipv4":14,"ipv6":15} holds at most 14 IPv4
// and 15 IPv6 addresses; one that says {"ip":14} at most 14 of any family.
// EgressCapacityUnlimited where a key is absent.
type EgressCapacity struct{ IPv4, IPv6, IP int }

// EgressCapacityOf is the capacity of the cloud-network-config annotation's
// "capacity" object, given its keys (nil: the key is absent).
func EgressCapacityOf(ipv4, ipv6, ip *int) EgressCapacity {
	c := EgressCapacity{EgressCapacityUnlimited, EgressCapacityUnlimited, EgressCapacityUnlimited}
	for _, k := range []struct {
		v   *int
		dst *int
	}{{ipv4, &c.IPv4}, {ipv6, &c.IPv6}, {ip, &c.IP}} {
		if k.v != nil {
			*k.dst = max(*k.v, 0)
		}
	}
	return c
}

// Family is the limit of one address family (ipv6: IPv6).
func (c EgressCapacity) Family(ipv6 bool) int {
	if ipv6 {
		return c.IPv6
	}
	return c.IPv4
}

// EgressCloudNodes reports whether OVN-K treats the cluster as a cloud for
// egress IPs: the platform is one of CNCC's clouds (OVN-K
// util.PlatformTypeIsEgressIPCloudProvider, from the platform type), or,
// where the platform is not known, a node carries the
// EgressCloudCapacityAnnotation, which only cloud-network-config-controller
// writes, and only on those clouds.
func EgressCloudNodes(platform string, nodeHasCloudConfig bool) bool {
	if platform != "" {
		return egressCloudPlatforms[platform]
	}
	return nodeHasCloudConfig
}

// EgressSecondaryHostNetwork reports whether a host-cidrs entry with
// address ip can be a secondary host network for egress IPs: OVN-K drops
// the prefixes whose address is not global unicast (link-local, loopback,
// multicast) and those of the other family than the egress IP
// (ovn-org/ovn-kubernetes go-controller/pkg/util/node_annotations.go
// GetSecondaryHostNetworkContainingIP, filterIPVersion).
func EgressSecondaryHostNetwork(ip net.IP) bool { return ip.IsGlobalUnicast() }
