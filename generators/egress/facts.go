package egress

import "github.com/siteforge/siteforge/internal/platform"

// AssignableLabel marks the nodes that may host egress IPs; it must be on
// the nodes before the EgressIP objects are created.
const AssignableLabel = "k8s.ovn.org/egress-assignable" // OVN-K; docs "Assigning egress IPs to a node"; networking.md section 6

// dualStackObjectSince is the first release whose docs support one EgressIP
// object holding IPv4 and IPv6 addresses together ("Configuring dual-stack
// networking for an EgressIP object", OCPBUGS-59964, backported to the 4.16
// docs by openshift-docs PR #100341). Before it, an object mixes no
// families; from it, a dual-stack pair split over two objects is
// unsupported. An earlier docs proposal to forbid mixing (openshift-docs PR
// #78423, OCPBUGS-36497, 4.12+) was closed unmerged.
const dualStackObjectSince platform.OCPMinor = 16

// Egress IP capacity per node on clouds (cloud-network-config-controller
// pkg/cloudprovider), and how many of a node's own addresses count against
// it. AWS depends on the instance type and is not modelled.
type cloudCapacity struct {
	perNode int // the cloud's limit
	// usedByNode is what the node itself takes from it: CNCC subtracts
	// the NIC's current IP configurations on Azure (the primary one
	// included), current alias IPs on GCP and allowed address pairs on
	// OpenStack (none before egress IPs).
	usedByNode int
	unit       string
}

var cloudCapacities = map[string]cloudCapacity{
	"azure":     {perNode: 256, usedByNode: 1, unit: "private IP addresses per NIC"},          // CNCC azure.go defaultAzurePrivateIPCapacity = 256; getCapacity subtracts the NIC's IP configurations
	"gcp":       {perNode: 100, usedByNode: 0, unit: "alias IP ranges per NIC"},               // CNCC gcp.go defaultGCPPrivateIPCapacity = 100 (older CNCC: 10)
	"openstack": {perNode: 10, usedByNode: 0, unit: "allowed address pairs per Neutron port"}, // CNCC openstack.go openstackMaxCapacity = 10 (Neutron max_allowed_address_pairs default)
}

// cloudPlatforms host egress IPs through cloud-network-config-controller: an
// egress IP must be in the subnet of the node's primary interface there.
// Elsewhere (bare metal and the other on-prem platforms) OVN-K may also use
// a secondary interface whose subnet contains the IP.
var cloudPlatforms = map[string]bool{ // networking.md section 6; CNCC cloud providers
	"aws": true, "azure": true, "gcp": true, "openstack": true,
}

// awsNoControlPlaneEgress: AWS control-plane nodes cannot host egress IPs.
const awsNoControlPlaneEgress = "aws" // docs "Configuring an egress IP address" (BZ#2039656); networking.md section 6

// OpenShift SDN equivalents (network.openshift.io/v1).
const (
	openShiftSDN = platform.OpenShiftSDN
	// namespaceNameLabel is the label every namespace carries with its own
	// name: SDN assigns egress IPs per NetNamespace, by name.
	namespaceNameLabel = "kubernetes.io/metadata.name" // kube-apiserver NamespaceDefaultLabelName
)

// Output paths.
const (
	dir              = "egress"
	labelScriptPath  = dir + "/label-egress-assignable-nodes.sh"
	sdnScriptPath    = dir + "/sdn-egress-ips.sh"
	objectPathFormat = dir + "/egressip-%s.yaml"
)

// Node annotations that say where a node can host egress IPs (read by the
// lints from Node objects, as a cluster reports them).
const (
	// PrimaryIfAddrAnnotation holds the address of the node's primary
	// interface (br-ex) with its prefix: {"ipv4":"10.0.0.5/24","ipv6":"..."}.
	PrimaryIfAddrAnnotation = "k8s.ovn.org/node-primary-ifaddr" // OVN-K go-controller util.ParseNodePrimaryIfAddr
	// CloudCapacityAnnotation holds, on clouds, the primary interface's
	// subnet and how many more egress IPs the node can take:
	// [{"interface":"...","ifaddr":{"ipv4":"10.0.128.0/17"},"capacity":{"ipv4":14,"ipv6":15}}]
	// ("ip" instead of per-family capacities on Azure, GCP and OpenStack).
	CloudCapacityAnnotation = "cloud.network.openshift.io/egress-ipconfig" // CNCC pkg/controller/node; OVN-K util.ParseCloudEgressIPConfig
)

// PrimaryOnly reports whether an egress IP must be inside the subnet of a
// node's primary interface: on clouds (cloud-network-config-controller
// assigns it to the primary NIC) and with OpenShift SDN. Elsewhere
// OVN-Kubernetes also uses a secondary interface whose subnet holds it.
func PrimaryOnly(platform, networkType string) bool {
	return cloudPlatforms[platform] || networkType == openShiftSDN
}

// CloudPlatform reports whether egress IPs go through
// cloud-network-config-controller on platform.
func CloudPlatform(platform string) bool { return cloudPlatforms[platform] }
