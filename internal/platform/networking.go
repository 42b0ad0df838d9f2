// Package platform holds the OpenShift platform facts that siteforge's
// generators and lints share: numbers, names and version gates copied from
// the upstream component that owns them, each with a one-line source comment,
// plus an offline reproduction of the Cluster Network Operator's MTU-change
// verdict (cno.go).
//
// Sources are cited by upstream function or file:
//
//	CNO       openshift/cluster-network-operator
//	api       github.com/openshift/api (the module pinned in go.mod)
//	installer openshift/installer
//	OVS       openvswitch/ovs vswitchd/vswitch.xml
//	docs      OpenShift Container Platform documentation (title given)
//
// The package is standard library only on purpose: lints, generators and the
// CLI all import it.
package platform

import (
	"fmt"
	"net/netip"
	"strconv"
	"strings"
)

// Default network types (Network.config spec.networkType).
const (
	OVNKubernetes = "OVNKubernetes" // api operator/v1 NetworkTypeOVNKubernetes
	OpenShiftSDN  = "OpenShiftSDN"  // api operator/v1 NetworkTypeOpenShiftSDN
)

// DeprecatedOpenshiftSDN is the old spelling of OpenShiftSDN, kept "for
// compatibility" in CNO's first API (openshift/cluster-network-operator
// pkg/apis/networkoperator/v1 NetworkTypeDeprecatedOpenshiftSDN, until
// 6276a9490 moved the type to openshift/api operator/v1, which names only
// NetworkTypeOpenShiftSDN). Repositories still write it; CanonicalNetworkType
// reads it as OpenShiftSDN.
const DeprecatedOpenshiftSDN = "OpenshiftSDN"

// CanonicalNetworkType is the network type networkType names as the
// installer and CNO read it: OVNKubernetes or OpenShiftSDN in any
// capitalisation (DeprecatedOpenshiftSDN included) is that type; anything
// else is returned unchanged (a third-party plugin, or ""). Sources: the
// installer's conversion of install-config networking
// (openshift/installer pkg/types/conversion/installconfig.go
// ConvertNetworking, strings.EqualFold with operv1.NetworkTypeOpenShiftSDN
// and NetworkTypeOVNKubernetes) and CNO's canonicalisation of
// Network.operator spec.defaultNetwork.type, into which the operator copies
// Network.config spec.networkType (CNO pkg/controller/operconfig
// operconfig_controller.go Reconcile: MergeClusterConfig, then
// pkg/network/render.go DeprecatedCanonicalize, which matched OpenShiftSDN
// case-insensitively until openshift-sdn left CNO in 8873f59db, and
// OVNKubernetes still does).
func CanonicalNetworkType(networkType string) string {
	for _, t := range []string{OVNKubernetes, OpenShiftSDN} {
		if strings.EqualFold(networkType, t) {
			return t
		}
	}
	return networkType
}

// KnownNetworkType reports whether networkType is one whose MTU rules this
// package models.
func KnownNetworkType(networkType string) bool {
	return networkType == OVNKubernetes || networkType == OpenShiftSDN
}

// Overlay encapsulation overheads, subtracted from the smallest link MTU.
const (
	GeneveOverhead   = 100 // CNO getOVNEncapOverhead geneveOverhead
	IPsecESPOverhead = 46  // CNO getOVNEncapOverhead ipsecOverhead (ESP transport mode, AES-GCM); added only for IPsec mode Full
	VXLANOverhead    = 50  // CNO isOpenShiftSDNChangeSafe sdnOverhead / fillOpenShiftSDNDefaults "50 byte VXLAN header"
)

// Overhead is the encapsulation overhead CNO reserves for networkType.
// ipsecFull means OVN-Kubernetes IPsec in mode Full (see IPsecModeIsFull);
// it is ignored for OpenShiftSDN, which has no IPsec option. Unknown network
// types return 0: check KnownNetworkType first where that matters.
func Overhead(networkType string, ipsecFull bool) int {
	switch networkType {
	case OVNKubernetes:
		if ipsecFull {
			return GeneveOverhead + IPsecESPOverhead
		}
		return GeneveOverhead
	case OpenShiftSDN:
		return VXLANOverhead
	}
	return 0
}

// IPsec modes of ovnKubernetesConfig.ipsecConfig.mode.
const (
	IPsecModeFull     = "Full"     // api operator/v1 IPsecModeFull
	IPsecModeExternal = "External" // api operator/v1 IPsecModeExternal
	IPsecModeDisabled = "Disabled" // api operator/v1 IPsecModeDisabled
)

// IPsecModeIsFull reports whether CNO counts an ipsecConfig as mode Full, and
// so reserves IPsecESPOverhead: a present ipsecConfig with an empty mode is
// the pre-4.15 API and means Full (CNO GetIPsecMode).
func IPsecModeIsFull(ipsecConfigPresent bool, mode string) bool {
	if !ipsecConfigPresent {
		return false
	}
	return mode == "" || mode == IPsecModeFull
}

// Cluster network MTU bounds.
const (
	MinMTUIPv4 = 576   // CNO pkg/network/mtu.go MinMTUIPv4 (RFC 791)
	MinMTUIPv6 = 1280  // CNO pkg/network/mtu.go MinMTUIPv6 (RFC 8200)
	MaxMTU     = 65536 // CNO pkg/network/mtu.go MaxMTU
)

// MinMTU is the smallest cluster MTU OVN-Kubernetes accepts: the IPv6 floor
// applies as soon as any clusterNetwork CIDR is IPv6, single- or dual-stack
// (CNO validateOVNKubernetes, isOVNKubernetesChangeSafe). OpenShiftSDN
// always uses MinMTUIPv4 (CNO validateOpenShiftSDN); see minMTUFor in cno.go.
func MinMTU(anyIPv6 bool) int {
	if anyIPv6 {
		return MinMTUIPv6
	}
	return MinMTUIPv4
}

// Default geneve / VXLAN ports.
const (
	GenevePortDefault = 6081 // CNO fillOVNKubernetesDefaults; api operator/v1 OVNKubernetesConfig.genevePort
	VXLANPortDefault  = 4789 // CNO fillOpenShiftSDNDefaults; api operator/v1 OpenShiftSDNConfig.vxlanPort
)

// Path MTUs by platform: defaults for planning, always overridable.
const (
	AWSInVPCMTU            = 9001 // AWS EC2 docs "Network maximum transmission unit": jumbo frames inside a VPC
	AWSInternetGatewayMTU  = 1500 // AWS EC2 docs "Network maximum transmission unit": through an internet gateway or VPN
	AWSTransitGatewayMTU   = 8500 // AWS EC2 docs "Network maximum transmission unit": Transit Gateway / inter-Region peering
	AWSEdgeZoneToRegionMTU = 1300 // AWS Local Zones "How Local Zones work" (also Wavelength): Local Zone instance <-> Region instance
	GCPDefaultMTU          = 1460 // Google Cloud VPC docs "Maximum transmission unit": VPC default
	GCPMinMTU              = 1300 // Google Cloud VPC docs "Maximum transmission unit": configurable range floor
	GCPMaxMTU              = 8896 // Google Cloud VPC docs "Maximum transmission unit": configurable range ceiling
	AzureMTU               = 1500 // Azure docs "Virtual network TCP/IP performance tuning": default VM NIC MTU
	EthernetMTU            = 1500 // IEEE 802.3: the standard Ethernet frame payload (bare metal, none)
)

// DefaultUplinkMTU is the MTU of a node's uplink on a platform when nothing
// says otherwise: the platform's path MTU above, else Ethernet's.
func DefaultUplinkMTU(platform string) int {
	switch platform {
	case "aws":
		return AWSInVPCMTU
	case "gcp":
		return GCPDefaultMTU
	case "azure":
		return AzureMTU
	}
	return EthernetMTU
}

// Cluster MTU the installer writes for clusters with an AWS edge (Local /
// Wavelength Zone) compute pool and no explicit networking.clusterNetworkMTU.
const (
	EdgePoolClusterMTUOVNKubernetes = 1200 // installer pkg/asset/manifests/network.go (test "mtu unset OVNKubernetes edge defaults"); = AWSEdgeZoneToRegionMTU - GeneveOverhead
	EdgePoolClusterMTUOpenShiftSDN  = 1250 // installer pkg/asset/manifests/network.go, pre-4.17 SDN branch (not in the stored source; = AWSEdgeZoneToRegionMTU - VXLANOverhead)
)

// EdgePoolClusterMTU returns the installer's edge-pool cluster MTU for
// networkType, or false for a type the installer does not special-case.
func EdgePoolClusterMTU(networkType string) (int, bool) {
	switch networkType {
	case OVNKubernetes:
		return EdgePoolClusterMTUOVNKubernetes, true
	case OpenShiftSDN:
		return EdgePoolClusterMTUOpenShiftSDN, true
	}
	return 0, false
}

// Persisting a new hardware MTU on NetworkManager platforms (machine.to is
// transient): one keyfile per interface, delivered by two MachineConfigs.
const (
	NMMTUKeyfilePathFormat       = "/etc/NetworkManager/conf.d/99-%s-mtu.conf" // docs "Changing the cluster network MTU" (NetworkManager keyfile step)
	NMMTUKeyfileMode             = 0o600                                       // docs "Changing the cluster network MTU" (Butane storage.files mode)
	ControlPlaneInterfaceMCName  = "01-control-plane-interface"                // docs "Changing the cluster network MTU" (role master)
	WorkerInterfaceMCName        = "01-worker-interface"                       // docs "Changing the cluster network MTU" (role worker)
	MTUMigrationRenderedScript   = "mtu-migration.sh"                          // docs "Changing the cluster network MTU": present in rendered MachineConfig during phase 1
	MachineConfigRoleLabel       = "machineconfiguration.openshift.io/role"    // MCO MachineConfig role label
	MachineConfigRoleMaster      = "master"                                    // MCO pool role for control-plane MachineConfigs
	MachineConfigRoleWorker      = "worker"                                    // MCO pool role for worker MachineConfigs
	nmMTUKeyfileConnectionFormat = "[connection-%s-mtu]\nmatch-device=interface-name:%s\nethernet.mtu=%d\n"
)

// NMMTUKeyfilePath is the keyfile path that persists iface's MTU.
func NMMTUKeyfilePath(iface string) string {
	return fmt.Sprintf(NMMTUKeyfilePathFormat, iface)
}

// NMMTUKeyfile is the keyfile content that sets iface's MTU to mtu
// (docs "Changing the cluster network MTU").
func NMMTUKeyfile(iface string, mtu int) string {
	return fmt.Sprintf(nmMTUKeyfileConnectionFormat, iface, iface, mtu)
}

// OVN-Kubernetes internal subnets (defaults; cluster and service networks
// must not overlap them, and live SDN migration refuses to start if they do).
const (
	OVNJoinSubnetV4       = "100.64.0.0/16"  // api operator/v1 IPv4OVNKubernetesConfig.internalJoinSubnet / v4InternalSubnet default
	OVNJoinSubnetV6       = "fd98::/64"      // api operator/v1 IPv6OVNKubernetesConfig.internalJoinSubnet default
	OVNTransitSubnetV4    = "100.88.0.0/16"  // api operator/v1 IPv4OVNKubernetesConfig.internalTransitSwitchSubnet default
	OVNTransitSubnetV6    = "fd97::/64"      // api operator/v1 IPv6OVNKubernetesConfig.internalTransitSwitchSubnet default
	OVNMasqueradeSubnetV4 = "169.254.0.0/17" // CNO defaultV4MasqueradeSubnet (new installs; upgraded clusters keep their annotated value)
	OVNMasqueradeSubnetV6 = "fd69::/112"     // CNO defaultV6MasqueradeSubnet (new installs; upgraded clusters keep their annotated value)
)

// OVS datapath flow idle timeout (other_config:max-idle, milliseconds).
// OpenShift neither sets nor supports it.
const (
	OVSMaxIdleDefaultMs = 10000 // OVS vswitch.xml Open_vSwitch other_config:max-idle "The default is 10000"
	OVSMaxIdleMinMs     = 500   // OVS vswitch.xml Open_vSwitch other_config:max-idle minInteger 500
)

// OCPMinor is an OpenShift 4.y release, identified by its minor number y.
// Every gate below is a 4.y release, so a typed integer keeps them constant
// and comparable.
type OCPMinor int

// String renders the release as "4.y".
func (m OCPMinor) String() string { return "4." + strconv.Itoa(int(m)) }

// ParseOCPMinor parses "4.y" or "4.y.z" (an optional leading "v" is allowed).
func ParseOCPMinor(version string) (OCPMinor, error) {
	s := strings.TrimPrefix(strings.TrimSpace(version), "v")
	parts := strings.SplitN(s, ".", 3)
	if len(parts) < 2 || parts[0] != "4" {
		return 0, fmt.Errorf("parse OpenShift version %q: want 4.y or 4.y.z", version)
	}
	minor, err := strconv.Atoi(parts[1])
	if err != nil || minor < 0 {
		return 0, fmt.Errorf("parse OpenShift version %q: bad minor %q", version, parts[1])
	}
	return OCPMinor(minor), nil
}

// Version gates.
const (
	MTUMigrationSince               OCPMinor = 10 // docs "Changing the cluster network MTU" (first in 4.10); api operator/v1 NetworkMigration.mtu
	SDNOfflineMigrationSince        OCPMinor = 8  // docs "Migrating from the OpenShift SDN network plugin" (offline procedure, 4.8+)
	IDMSITMSSince                   OCPMinor = 13 // api config/v1 ImageDigestMirrorSet / ImageTagMirrorSet (4.13 release notes)
	RemoteWorkerAutoDetectSince     OCPMinor = 13 // docs baremetal IPI "remote worker nodes" auto-detection (4.13)
	SDNDeprecatedSince              OCPMinor = 14 // 4.14 release notes: OpenShift SDN deprecated
	SDNNotInstallableSince          OCPMinor = 15 // 4.15 release notes: new installs cannot choose OpenShift SDN
	SDNLiveMigrationCodeSince       OCPMinor = 15 // CNO 4.15: network-type-migration annotation handled (NetworkLiveMigration)
	SDNLiveMigrationDocumentedSince OCPMinor = 16 // docs 4.16 "Limited live migration to OVN-Kubernetes"
	SDNUpgradeBlockedSince          OCPMinor = 16 // 4.16 CNO sets Upgradeable=False while OpenShift SDN is in use
	SDNRemovedSince                 OCPMinor = 17 // 4.17 release notes: OpenShift SDN removed; CNO rejects the network type
)

// RemoteWorkerAutoDetectPlatform is the only platform where remote workers are
// detected automatically from RemoteWorkerAutoDetectSince.
const RemoteWorkerAutoDetectPlatform = "BareMetal" // docs baremetal IPI remote worker nodes (4.13)

// IPsecModeSince is the first release whose ipsecConfig has a mode; before
// it, an empty ipsecConfig means Full and External does not exist.
const IPsecModeSince OCPMinor = 15 // api operator/v1 IPsecConfig.mode (4.15 "IPsec modes Disabled, External, Full")

// Live SDN -> OVN-Kubernetes migration trigger on Network.config.
const (
	NetworkTypeMigrationAnnotation = "network.openshift.io/network-type-migration" // CNO names.NetworkTypeMigrationAnnotation; docs 4.16 "Initiating the limited live migration process"
	NetworkTypeMigrationCondition  = "NetworkTypeMigrationInProgress"              // CNO names.NetworkTypeMigrationInProgress (Network.config status condition)
)

// InstallManifestDirs are the folders the installer reads day-0 manifests
// from, next to install-config.yaml: `openshift-install create manifests`
// writes <dir>/manifests and <dir>/openshift, and the installer applies
// what they hold at installation (openshift/installer
// pkg/asset/manifests/openshift.go and operators.go; docs "Installing a
// cluster with customizations": "Modify the manifests in the
// <installation_directory>/manifests directory").
var InstallManifestDirs = []string{"manifests", "openshift"}

// InstallerNetworkManifestName is the file name the installer docs give the
// operator Network manifest (docs "Installing a cluster with network
// customizations": <installation_directory>/manifests/cluster-network-03-config.yml;
// the installer writes the same name for AWS edge pools).
const InstallerNetworkManifestName = "cluster-network-03-config.yml"

// AWSEdgePoolName is the install-config compute pool name of AWS Local Zone
// and Wavelength Zone nodes.
const AWSEdgePoolName = "edge" // installer pkg/types/aws EdgeComputePool (compute pool "edge")

// AzureMaxMTU is the largest NIC MTU on Azure: Microsoft Azure Network
// Adapter (MANA) NICs, cluster MTU up to 8900.
const AzureMaxMTU = 9000 // Azure docs "Microsoft Azure Network Adapter (MANA) overview"

// PlatformMTU is a platform's MTU fact and its source, for messages.
type PlatformMTU struct {
	MTU    int
	Source string
}

// MachineMTUCeilings are the largest machine MTUs the clouds carry, by
// platform name (install-config platform key, site cluster.platform,
// Infrastructure type in lower case).
var MachineMTUCeilings = map[string]PlatformMTU{
	"aws":   {AWSInVPCMTU, "AWS EC2 docs \"Network maximum transmission unit\": jumbo frames inside a VPC"},
	"gcp":   {GCPMaxMTU, "Google Cloud VPC docs \"Maximum transmission unit\": configurable range ceiling"},
	"azure": {AzureMaxMTU, "Azure docs \"Microsoft Azure Network Adapter (MANA) overview\""},
}

// DefaultUplinkMTUs are the uplink MTUs of cloud nodes when nothing says
// otherwise. Google Cloud's VPC MTU is configurable, so it has no dependable
// default.
var DefaultUplinkMTUs = map[string]PlatformMTU{
	"aws":   {AWSInVPCMTU, "the AWS in-VPC MTU"},
	"azure": {AzureMTU, "the Azure NIC default MTU"},
}

// OVNSubnet is one of OVN-Kubernetes' internal subnets, by family.
type OVNSubnet struct{ Name, V4, V6 string }

// OVNInternalSubnets are the subnets OVN-Kubernetes reserves when the
// operator config does not move them, on the latest release (the
// masquerade subnet depends on the release: OVNInternalSubnetsAt).
var OVNInternalSubnets = []OVNSubnet{
	{"join subnet", OVNJoinSubnetV4, OVNJoinSubnetV6},
	{"transit switch subnet", OVNTransitSubnetV4, OVNTransitSubnetV6},
	{"masquerade subnet", OVNMasqueradeSubnetV4, OVNMasqueradeSubnetV6},
}

// OVNInternalSubnetsAt are OVNInternalSubnets with the masquerade subnet CNO
// defaults to on release minor (OVNDefaultMasqueradeSubnets): what a
// cluster migrated to, or installed with, OVN-Kubernetes on that release
// reserves (an upgrade keeps the value; CNO release-4.17
// pkg/network/ovn_kubernetes.go GetMasqueradeSubnet).
func OVNInternalSubnetsAt(minor OCPMinor) []OVNSubnet {
	out := append([]OVNSubnet{}, OVNInternalSubnets...)
	for i := range out {
		if out[i].V4 == OVNMasqueradeSubnetV4 {
			out[i].V4, out[i].V6 = OVNDefaultMasqueradeSubnets(minor)
		}
	}
	return out
}

// NodeProviderPlatforms map a Node's spec.providerID scheme to the platform.
var NodeProviderPlatforms = map[string]string{ // cloud providers' ProviderID formats (aws://, azure://, gce://, openstack://)
	"aws": "aws", "azure": "azure", "gce": "gcp", "openstack": "openstack",
}

// LatestMinor stands for "the latest release" where a version is unknown:
// newer than every gate.
const LatestMinor OCPMinor = 1 << 20

// Resource names `oc` takes for the Network objects, and the kustomize
// patch target of the operator one.
const (
	OperatorNetworkResource    = "network.operator.openshift.io" // api operator/v1 Network (cluster-scoped)
	ConfigNetworkResource      = "network.config.openshift.io"   // api config/v1 Network (cluster-scoped)
	OperatorNetworkPatchTarget = "group: operator.openshift.io, version: v1, kind: Network, name: cluster"
	OVSVswitchdUnit            = "ovs-vswitchd.service" // openvswitch's daemon unit on RHCOS
	OVSVsctl                   = "/usr/bin/ovs-vsctl"   // openvswitch's CLI on RHCOS
)

// InstallerDefaultNetworkType is the network type of an install-config
// that names none.
const InstallerDefaultNetworkType = OVNKubernetes // installer pkg/types/defaults (OVNKubernetes since 4.12)

// ---------------------------------------------------------------- live SDN -> OVN-Kubernetes migration (CNO ValidateLiveMigration)

// EgressRouterAnnotation marks an OpenShift SDN egress router pod (a macvlan
// interface on the node's network). CNO refuses a live migration while any
// pod of the cluster carries the key, whatever its value (CNO
// pkg/network/cluster_config.go ValidateLiveMigration, via
// pkg/client/list_pager.go ListAllPodsWithAnnotationKey).
const EgressRouterAnnotation = "pod.network.openshift.io/assign-macvlan" // api network/v1 AssignMacvlanAnnotation

// LiveMigrationTargetSupported reports whether CNO accepts networkType as the
// target (Network.config spec.networkType) of a live migration: only
// OVNKubernetes and OpenShiftSDN ("network type live migration is only
// supported for OVNKubernetes and OpenShiftSDN CNI"; CNO
// pkg/network/cluster_config.go ValidateLiveMigration, release-4.15 to
// release-4.18, test TestValidClusterConfigLiveMigration "error when trying
// to migrate to an unsupported cni").
func LiveMigrationTargetSupported(networkType string) bool {
	return networkType == OVNKubernetes || networkType == OpenShiftSDN
}

// OVN-Kubernetes' default masquerade subnets before MasqueradeSubnetWidenedSince.
const (
	OVNMasqueradeSubnetV4Before417 = "169.254.169.0/29" // CNO release-4.15/release-4.16 pkg/network/ovn_kubernetes.go defaultV4MasqueradeSubnet
	OVNMasqueradeSubnetV6Before417 = "fd69::/125"       // CNO release-4.15/release-4.16 pkg/network/ovn_kubernetes.go defaultV6MasqueradeSubnet
)

// MasqueradeSubnetWidenedSince is the first release whose CNO default
// masquerade subnets are OVNMasqueradeSubnetV4/V6 (169.254.0.0/17,
// fd69::/112); before it they are 169.254.169.0/29 and fd69::/125 (CNO
// release-4.17 pkg/network/ovn_kubernetes.go defaultV4MasqueradeSubnet,
// commit "Change the masquerade subnet default value for new clusters").
const MasqueradeSubnetWidenedSince OCPMinor = 17

// OVNDefaultMasqueradeSubnets are CNO's default masquerade subnets on
// release minor: what GetMasqueradeSubnet returns when the operator config
// sets none, and so what the live migration validation and a new install
// of that release use.
func OVNDefaultMasqueradeSubnets(minor OCPMinor) (v4, v6 string) {
	if minor < MasqueradeSubnetWidenedSince {
		return OVNMasqueradeSubnetV4Before417, OVNMasqueradeSubnetV6Before417
	}
	return OVNMasqueradeSubnetV4, OVNMasqueradeSubnetV6
}

// SDNLastMinor is the last release a cluster can run OpenShift SDN on (it is
// removed in SDNRemovedSince). A live migration from OpenShift SDN therefore
// runs on it or earlier: the live-migration checks use its defaults when
// the release is unknown.
const SDNLastMinor = SDNRemovedSince - 1

// ---------------------------------------------------------------- install-config networking.clusterNetworkMTU (installer)

// The installer's own bounds for install-config networking.clusterNetworkMTU
// (openshift/installer pkg/types/validation/installconfig.go
// validateNetworkingClusterNetworkMTU; tests "networking clusterNetworkMTU -
// ..." in installconfig_test.go). CNO's 576..65536 applies after it.
const (
	InstallerClusterMTUPlatform = "aws"                                   // validateNetworkingClusterNetworkMTU: c.Platform.Name() != aws.Name is refused
	InstallerClusterMTUMax      = AWSInVPCMTU                             // validateNetworkingClusterNetworkMTU higherLimitMTUVPC 9001
	InstallerClusterMTUMin      = 1000                                    // validateNetworkingClusterNetworkMTU lowerLimitMTUVPC (OCPBUGS-11098)
	InstallerClusterMTUMaxOVN   = InstallerClusterMTUMax - GeneveOverhead // validateNetworkingClusterNetworkMTU limitOVNKubernetes = 9001 - minOverheadOVN 100
	installerMTUNotAWS          = "cluster network MTU is allowed only in AWS deployments"
	installerMTUAboveMax        = "cluster network MTU exceeds the maximum value of %d"
	installerMTUBelowMin        = "cluster network MTU is lower than the minimum value of %d"
	installerMTUNetworkType     = "cluster network MTU is not valid with network plugin %s"
	installerMTUAboveOVNMax     = "cluster network MTU exceeds the maximum value with the network plugin %s of %d"
)

// InstallerClusterMTUError is the installer's verdict on
// networking.clusterNetworkMTU: its exact message, or "" when it accepts the
// value. platformKey is the install-config platform key in lower case,
// networkType the converted and defaulted networking.networkType. The
// checks run in the installer's order and the first failure is the only one
// reported; 0 (unset) is always accepted.
func InstallerClusterMTUError(platformKey, networkType string, mtu int) string {
	switch {
	case mtu == 0:
		return ""
	case platformKey != InstallerClusterMTUPlatform:
		return installerMTUNotAWS
	case mtu > InstallerClusterMTUMax:
		return fmt.Sprintf(installerMTUAboveMax, InstallerClusterMTUMax)
	case mtu < InstallerClusterMTUMin:
		return fmt.Sprintf(installerMTUBelowMin, InstallerClusterMTUMin)
	case networkType != OVNKubernetes:
		return fmt.Sprintf(installerMTUNetworkType, networkType)
	case mtu > InstallerClusterMTUMaxOVN:
		return fmt.Sprintf(installerMTUAboveOVNMax, networkType, InstallerClusterMTUMaxOVN)
	}
	return ""
}

// MachineNetworkSubnetCheck is the installer's check that the subnets it
// installs into lie in the machine networks, for messages: openshift/installer
// pkg/asset/installconfig/aws/validation.go validateSubnetCIDR and
// validateMachineNetworksContainIP (the same function in the gcp and azure
// validation) refuse a subnet whose CIDR starts outside every
// networking.machineNetwork ("subnet's CIDR range start ... is outside of
// the specified machine networks"). Node addresses come from the machine
// networks, and an AWS Local or Wavelength Zone subnet is carved out of the
// VPC CIDR (docs "AWS Local Zone or Wavelength Zone tasks").
const MachineNetworkSubnetCheck = `the installer's validateSubnetCIDR: "subnet's CIDR range start ... is outside of the specified machine networks"`

// SubnetInMachineNetworks reports whether subnet lies wholly inside one of
// the machine networks (same address family, prefix at least as long, and
// its first address inside). The installer checks the first address
// (MachineNetworkSubnetCheck); a subnet that starts inside and ends outside
// would hand out node addresses outside every machine network, so the
// whole subnet must fit.
func SubnetInMachineNetworks(subnet netip.Prefix, machineNetworks []netip.Prefix) bool {
	subnet = subnet.Masked()
	for _, n := range machineNetworks {
		n = n.Masked()
		if n.Addr().Is4() == subnet.Addr().Is4() && n.Bits() <= subnet.Bits() && n.Contains(subnet.Addr()) {
			return true
		}
	}
	return false
}
