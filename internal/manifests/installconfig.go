package manifests

import (
	"encoding/json"
	"strconv"
	"strings"

	configv1 "github.com/openshift/api/config/v1"

	"github.com/siteforge/siteforge/internal/platform"
)

// InstallConfig is the part of an install-config.yaml siteforge reads. The
// one reader of install-config: lint's network, MTU, egress, ingress and
// mirroring rules all see the same platform, networks and VIPs.
type InstallConfig struct {
	Obj        *Object `json:"-"`
	BaseDomain string  `json:"baseDomain"`
	Metadata   struct {
		Name string `json:"name"`
	} `json:"metadata"`
	// Sections are the platform sections by key (aws, baremetal, none,
	// ...); the installer accepts exactly one.
	Sections map[string]json.RawMessage `json:"platform"`
	// Networking is networking as the installer sees it after its
	// conversion of the deprecated fields (ConvertNetworking below): rules
	// read these, and InstallNetworkPaths says where each was written.
	Networking struct {
		NetworkType       string      `json:"networkType"`
		ClusterNetworkMTU int         `json:"clusterNetworkMTU"`
		ClusterNetwork    []CIDREntry `json:"clusterNetwork"`
		ServiceNetwork    []string    `json:"serviceNetwork"`
		MachineNetwork    []CIDREntry `json:"machineNetwork"`

		// The deprecated spellings the installer still reads
		// (openshift/installer pkg/types/installconfig.go Networking:
		// DeprecatedType "type", DeprecatedClusterNetworks
		// "clusterNetworks", DeprecatedMachineCIDR "machineCIDR",
		// DeprecatedServiceCIDR "serviceCIDR").
		DeprecatedType            string      `json:"type"`
		DeprecatedClusterNetworks []CIDREntry `json:"clusterNetworks"`
		DeprecatedMachineCIDR     string      `json:"machineCIDR"`
		DeprecatedServiceCIDR     string      `json:"serviceCIDR"`
	} `json:"networking"`
	// Capabilities is the optional-capability selection (baseline set and
	// additional capabilities), as ClusterVersion spec.capabilities.
	Capabilities *configv1.ClusterVersionCapabilitiesSpec `json:"capabilities"`
	// Paths says which field each converted networking value was read from.
	Paths        InstallNetworkPaths `json:"-"`
	Compute      []InstallPool       `json:"compute"`
	ControlPlane *InstallPool        `json:"controlPlane"`
	// Arbiter is the arbiter pool of a two-node cluster with an arbiter
	// (openshift/installer pkg/types/installconfig.go Arbiter).
	Arbiter *InstallPool `json:"arbiter"`

	// Platform is the platform key in lower case (the site schema's
	// spelling); "" unless the file names exactly one.
	Platform string `json:"-"`
	// PlatformKey is the platform key as written (BareMetal, baremetal).
	PlatformKey string `json:"-"`
	// APIVIPs and IngressVIPs are the platform section's VIPs (apiVIPs,
	// and the pre-4.12 singular apiVIP).
	APIVIPs, IngressVIPs []string `json:"-"`
	// VIPKeys are the keys the VIPs were written under in the platform
	// section ("apiVIPs" or "apiVIP", "ingressVIPs" or "ingressVIP").
	APIVIPKey, IngressVIPKey string `json:"-"`
	// LoadBalancerType is the platform section's loadBalancer.type
	// (UserManaged or OpenShiftManagedDefault; "" when not written).
	LoadBalancerType string `json:"-"`
}

// CIDREntry is a {cidr: ...} list element of install-config and Network.
type CIDREntry struct {
	CIDR string `json:"cidr"`
}

// InstallPool is a compute or control plane pool of install-config.
type InstallPool struct {
	Name     string `json:"name"`
	Replicas *int   `json:"replicas"`
	// Fencing is the control plane's fencing section of a two-node cluster
	// with fencing (openshift/installer pkg/types MachinePool Fencing);
	// only its presence is read, never its credentials.
	Fencing json.RawMessage `json:"fencing"`
}

// InstallConfigs reads every install-config among objs that decodes, in
// order.
func InstallConfigs(objs []*Object) []*InstallConfig {
	var out []*InstallConfig
	for _, o := range objs {
		if o.Kind != KindInstallConfig {
			continue
		}
		ic := &InstallConfig{Obj: o}
		if o.DecodeLoose(ic) != nil {
			continue
		}
		ic.convertNetworking()
		if len(ic.Sections) == 1 {
			for key, raw := range ic.Sections {
				ic.Platform, ic.PlatformKey = strings.ToLower(key), key
				var vips struct {
					APIVIPs     []string `json:"apiVIPs"`
					IngressVIPs []string `json:"ingressVIPs"`
					APIVIP      string   `json:"apiVIP"`
					IngressVIP  string   `json:"ingressVIP"`
					LB          struct {
						Type string `json:"type"`
					} `json:"loadBalancer"`
				}
				_ = json.Unmarshal(raw, &vips)
				ic.APIVIPs = append(vips.APIVIPs, nonEmpty(vips.APIVIP)...)
				ic.IngressVIPs = append(vips.IngressVIPs, nonEmpty(vips.IngressVIP)...)
				ic.APIVIPKey, ic.IngressVIPKey = "apiVIPs", "ingressVIPs"
				if len(vips.APIVIPs) == 0 && vips.APIVIP != "" {
					ic.APIVIPKey = "apiVIP"
				}
				if len(vips.IngressVIPs) == 0 && vips.IngressVIP != "" {
					ic.IngressVIPKey = "ingressVIP"
				}
				ic.LoadBalancerType = vips.LB.Type
			}
		}
		out = append(out, ic)
	}
	return out
}

// InstallNetworkPaths are the networking keys (under "networking") the
// converted values come from: the current names, or the deprecated ones the
// installer's conversion took them from.
type InstallNetworkPaths struct {
	NetworkType, ClusterNetwork, ServiceNetwork, MachineNetwork string
}

// convertNetworking applies the installer's conversion of the deprecated
// networking fields (openshift/installer pkg/types/conversion/installconfig.go
// convertNetworking, test TestConvertInstallConfig "old networking" / "new
// networking"): a deprecated field is used only when its replacement is
// empty, so the new field wins when both are written; and networkType is
// recognised regardless of case for OpenShiftSDN and OVNKubernetes.
func (ic *InstallConfig) convertNetworking() {
	n := &ic.Networking
	ic.Paths = InstallNetworkPaths{NetworkType: "networkType", ClusterNetwork: "clusterNetwork", ServiceNetwork: "serviceNetwork", MachineNetwork: "machineNetwork"}
	if len(n.ClusterNetwork) == 0 && len(n.DeprecatedClusterNetworks) > 0 {
		n.ClusterNetwork, ic.Paths.ClusterNetwork = n.DeprecatedClusterNetworks, "clusterNetworks"
	}
	if len(n.MachineNetwork) == 0 && n.DeprecatedMachineCIDR != "" {
		n.MachineNetwork, ic.Paths.MachineNetwork = []CIDREntry{{CIDR: n.DeprecatedMachineCIDR}}, "machineCIDR"
	}
	if len(n.ServiceNetwork) == 0 && n.DeprecatedServiceCIDR != "" {
		n.ServiceNetwork, ic.Paths.ServiceNetwork = []string{n.DeprecatedServiceCIDR}, "serviceCIDR"
	}
	if n.NetworkType == "" && n.DeprecatedType != "" {
		n.NetworkType, ic.Paths.NetworkType = n.DeprecatedType, "type"
	}
	n.NetworkType = platform.CanonicalNetworkType(n.NetworkType)
}

// NetworkTypePath is the field path of the network type as written.
func (ic *InstallConfig) NetworkTypePath() []string {
	return []string{"networking", ic.Paths.NetworkType}
}

// ClusterNetworkPath is the field path of clusterNetwork entry i's cidr as
// written.
func (ic *InstallConfig) ClusterNetworkPath(i int) []string {
	return []string{"networking", ic.Paths.ClusterNetwork, strconv.Itoa(i), "cidr"}
}

// ServiceNetworkPath is the field path of serviceNetwork entry i as written
// (serviceCIDR is a single value).
func (ic *InstallConfig) ServiceNetworkPath(i int) []string {
	if ic.Paths.ServiceNetwork == "serviceCIDR" {
		return []string{"networking", "serviceCIDR"}
	}
	return []string{"networking", ic.Paths.ServiceNetwork, strconv.Itoa(i)}
}

// MachineNetworkPath is the field path of machineNetwork entry i's cidr as
// written (machineCIDR is a single value).
func (ic *InstallConfig) MachineNetworkPath(i int) []string {
	if ic.Paths.MachineNetwork == "machineCIDR" {
		return []string{"networking", "machineCIDR"}
	}
	return []string{"networking", ic.Paths.MachineNetwork, strconv.Itoa(i), "cidr"}
}

func nonEmpty(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
}

// NetworkType is networking.networkType, or the installer's default.
func (ic *InstallConfig) NetworkType() string {
	if ic.Networking.NetworkType != "" {
		return ic.Networking.NetworkType
	}
	return platform.InstallerDefaultNetworkType
}

// EdgePool returns the index of the AWS edge compute pool, or -1.
func (ic *InstallConfig) EdgePool() int {
	if ic.Platform != "aws" {
		return -1
	}
	for i, c := range ic.Compute {
		if c.Name == platform.AWSEdgePoolName {
			return i
		}
	}
	return -1
}

// Pool returns the compute pool named name, or nil.
func (ic *InstallConfig) Pool(name string) *InstallPool {
	for i := range ic.Compute {
		if ic.Compute[i].Name == name {
			return &ic.Compute[i]
		}
	}
	return nil
}
