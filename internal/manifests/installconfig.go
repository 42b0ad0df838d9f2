package manifests

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/upstream"
)

// InstallConfigFile is an install-config.yaml as the rules read it: the one
// typed InstallConfig (internal/upstream, json tags as openshift/installer
// pkg/types/installconfig.go) and what InstallConfigs derives from it. The
// one reader of install-config: lint's network, MTU, egress, ingress and
// mirroring rules all see the same platform, networks and VIPs.
//
// Networking is networking as the installer sees it after its conversion of
// the deprecated fields (convertNetworking below), never nil: rules read
// these, and Paths says where each was written.
type InstallConfigFile struct {
	Obj *Object `json:"-"`
	upstream.InstallConfig
	// Sections are the platform sections by key (aws, baremetal, none,
	// ...); the installer accepts exactly one. They shadow the typed
	// Platform, which names only the platforms siteforge writes.
	Sections map[string]json.RawMessage `json:"platform"`
	// Paths says which field each converted networking value was read from.
	Paths InstallNetworkPaths `json:"-"`

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

// CIDREntry is a {cidr: ...} list element of the Network objects.
type CIDREntry struct {
	CIDR string `json:"cidr"`
}

// InstallConfigs reads every install-config among objs that decodes, in
// order.
func InstallConfigs(objs []*Object) []*InstallConfigFile {
	var out []*InstallConfigFile
	for _, o := range objs {
		if o.Kind != KindInstallConfig {
			continue
		}
		ic := &InstallConfigFile{Obj: o}
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
				if ic.Platform == "baremetal" {
					// the section shadows the typed Platform: read the
					// hosts from it
					var bm upstream.BareMetalPlatform
					if json.Unmarshal(raw, &bm) == nil {
						ic.InstallConfig.Platform.BareMetal = &bm
					}
				}
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
func (ic *InstallConfigFile) convertNetworking() {
	if ic.Networking == nil {
		ic.Networking = &upstream.Networking{}
	}
	n := ic.Networking
	ic.Paths = InstallNetworkPaths{NetworkType: "networkType", ClusterNetwork: "clusterNetwork", ServiceNetwork: "serviceNetwork", MachineNetwork: "machineNetwork"}
	if len(n.ClusterNetwork) == 0 && len(n.DeprecatedClusterNetworks) > 0 {
		n.ClusterNetwork, ic.Paths.ClusterNetwork = n.DeprecatedClusterNetworks, "clusterNetworks"
	}
	if len(n.MachineNetwork) == 0 && n.DeprecatedMachineCIDR != "" {
		n.MachineNetwork, ic.Paths.MachineNetwork = []upstream.MachineNetworkEntry{{CIDR: n.DeprecatedMachineCIDR}}, "machineCIDR"
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
func (ic *InstallConfigFile) NetworkTypePath() []string {
	return []string{"networking", ic.Paths.NetworkType}
}

// ClusterNetworkPath is the field path of clusterNetwork entry i's cidr as
// written.
func (ic *InstallConfigFile) ClusterNetworkPath(i int) []string {
	return []string{"networking", ic.Paths.ClusterNetwork, strconv.Itoa(i), "cidr"}
}

// ServiceNetworkPath is the field path of serviceNetwork entry i as written
// (serviceCIDR is a single value).
func (ic *InstallConfigFile) ServiceNetworkPath(i int) []string {
	if ic.Paths.ServiceNetwork == "serviceCIDR" {
		return []string{"networking", "serviceCIDR"}
	}
	return []string{"networking", ic.Paths.ServiceNetwork, strconv.Itoa(i)}
}

// MachineNetworkPath is the field path of machineNetwork entry i's cidr as
// written (machineCIDR is a single value).
func (ic *InstallConfigFile) MachineNetworkPath(i int) []string {
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
func (ic *InstallConfigFile) NetworkType() string {
	if ic.Networking.NetworkType != "" {
		return ic.Networking.NetworkType
	}
	return platform.InstallerDefaultNetworkType
}

// EdgePool returns the index of the AWS edge compute pool, or -1.
func (ic *InstallConfigFile) EdgePool() int {
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
func (ic *InstallConfigFile) Pool(name string) *upstream.MachinePool {
	for i := range ic.Compute {
		if ic.Compute[i].Name == name {
			return &ic.Compute[i]
		}
	}
	return nil
}
