package platform

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

// egressCloudPlatforms host egress IPs through CNCC: an egress IP must be in
// the subnet of the node's primary interface there. Elsewhere (bare metal
// and the other on-prem platforms) OVN-K may also use a secondary interface
// whose subnet contains the IP.
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
	NodePrimaryIfAddrAnnotation = "k8s.ovn.org/node-primary-ifaddr" // OVN-K go-controller util.ParseNodePrimaryIfAddr
	// EgressCloudCapacityAnnotation holds, on clouds, the primary
	// interface's subnet and how many more egress IPs the node can take:
	// [{"interface":"...","ifaddr":{"ipv4":"10.0.128.0/17"},"capacity":{"ipv4":14,"ipv6":15}}]
	// ("ip" instead of per-family capacities on Azure, GCP and OpenStack).
	EgressCloudCapacityAnnotation = "cloud.network.openshift.io/egress-ipconfig" // CNCC pkg/controller/node; OVN-K util.ParseCloudEgressIPConfig
)
