package manifests

import (
	"encoding/json"
	"strings"

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
	Sections   map[string]json.RawMessage `json:"platform"`
	Networking struct {
		NetworkType       string      `json:"networkType"`
		ClusterNetworkMTU int         `json:"clusterNetworkMTU"`
		ClusterNetwork    []CIDREntry `json:"clusterNetwork"`
		ServiceNetwork    []string    `json:"serviceNetwork"`
		MachineNetwork    []CIDREntry `json:"machineNetwork"`
	} `json:"networking"`
	Compute      []InstallPool `json:"compute"`
	ControlPlane *InstallPool  `json:"controlPlane"`

	// Platform is the platform key in lower case (the site schema's
	// spelling); "" unless the file names exactly one.
	Platform string `json:"-"`
	// APIVIPs and IngressVIPs are the platform section's VIPs (apiVIPs,
	// and the pre-4.12 singular apiVIP).
	APIVIPs, IngressVIPs []string `json:"-"`
}

// CIDREntry is a {cidr: ...} list element of install-config and Network.
type CIDREntry struct {
	CIDR string `json:"cidr"`
}

// InstallPool is a compute or control plane pool of install-config.
type InstallPool struct {
	Name     string `json:"name"`
	Replicas *int   `json:"replicas"`
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
		if len(ic.Sections) == 1 {
			for key, raw := range ic.Sections {
				ic.Platform = strings.ToLower(key)
				var vips struct {
					APIVIPs     []string `json:"apiVIPs"`
					IngressVIPs []string `json:"ingressVIPs"`
					APIVIP      string   `json:"apiVIP"`
					IngressVIP  string   `json:"ingressVIP"`
				}
				_ = json.Unmarshal(raw, &vips)
				ic.APIVIPs = append(vips.APIVIPs, nonEmpty(vips.APIVIP)...)
				ic.IngressVIPs = append(vips.IngressVIPs, nonEmpty(vips.IngressVIP)...)
			}
		}
		out = append(out, ic)
	}
	return out
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
