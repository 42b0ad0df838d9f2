package rules

import (
	"fmt"

	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/lint"
)

func init() {
	lint.Register(&lint.Rule{
		ID:       "MTU001",
		Name:     "cluster-mtu-exceeds-path",
		Severity: lint.Error,
		Summary:  "the cluster MTU plus the overlay overhead is larger than the smallest link overlay traffic crosses",
		Rationale: "The cluster (overlay) MTU must be at most the smallest MTU of any link overlay traffic crosses, over ALL pools, minus the overlay overhead " +
			"(OVN-Kubernetes 100, +46 with IPsec Full; OpenShift SDN 50; CNO getOVNEncapOverhead). AWS carries only 1300 bytes between a Local Zone or " +
			"Wavelength Zone instance and the Region, so a cluster with an edge compute pool needs 1200 (OVN-K) / 1250 (SDN), which the installer " +
			"writes itself only when no MTU is given (openshift/installer pkg/asset/manifests/network.go). Larger packets are dropped: KCS 6996487 " +
			"shows `net/http: TLS handshake timeout` pulling from the internal registry on Local Zone nodes.",
		Fix: "Set the cluster MTU to the smallest link MTU minus the overhead (1200 for OVN-Kubernetes with an AWS edge pool). On a running " +
			"cluster this is an MTU migration: `siteforge render` writes both phases and the runbook.",
		Since: "v1alpha1",
		Check: checkClusterMTU,
	})
}

// awsEdgePoolName is the install-config compute pool name of AWS Local
// Zone / Wavelength Zone nodes (openshift/installer types/aws edge pools).
const awsEdgePoolName = "edge"

func checkClusterMTU(in *lint.Input, r *lint.Reporter) {
	for _, set := range in.Sets() {
		if set.Site != nil {
			checkSiteMTU(set, r)
			continue
		}
		checkInstallMTU(set, r)
	}
}

// checkSiteMTU: a site's wanted cluster MTU against its links.
func checkSiteMTU(set lint.Set, r *lint.Reporter) {
	s := set.Site.Site
	if s.MTU == nil || s.MTU.Target == nil {
		return // siteforge computes the target from the links
	}
	overhead := platform.Overhead(s.Network.Type, s.Network.IPsec == "Full")
	for _, l := range s.Links() {
		if *s.MTU.Target+overhead > l.MTU {
			r.At(s.Name, s.Positions.Of("mtu.target"), fmt.Sprintf(
				"cluster MTU %d + %d overhead is larger than the %s (MTU %d, %s): at most %d fits",
				*s.MTU.Target, overhead, l, l.MTU, l.Origin, l.MTU-overhead))
			return
		}
	}
}

// checkInstallMTU: an install-config with an AWS edge compute pool and the
// Network manifest or clusterNetworkMTU that ignore the 1300-byte path.
func checkInstallMTU(set lint.Set, r *lint.Reporter) {
	for _, ic := range set.Kind("", manifests.KindInstallConfig) {
		var cfg struct {
			Platform   map[string]any `json:"platform"`
			Networking struct {
				NetworkType       string `json:"networkType"`
				ClusterNetworkMTU int    `json:"clusterNetworkMTU"`
			} `json:"networking"`
			Compute []struct {
				Name string `json:"name"`
			} `json:"compute"`
		}
		if ic.DecodeLoose(&cfg) != nil || cfg.Platform["aws"] == nil {
			continue
		}
		hasEdge := false
		for _, c := range cfg.Compute {
			hasEdge = hasEdge || c.Name == awsEdgePoolName
		}
		if !hasEdge {
			continue
		}
		netType := cfg.Networking.NetworkType
		if netType == "" {
			netType = platform.OVNKubernetes
		}
		if cfg.Networking.ClusterNetworkMTU > 0 {
			limit := platform.AWSEdgeZoneToRegionMTU - platform.Overhead(netType, false)
			if cfg.Networking.ClusterNetworkMTU > limit {
				r.Object(ic, edgeMessage(cfg.Networking.ClusterNetworkMTU, netType, 0, limit), "networking", "clusterNetworkMTU")
			}
		}
		for _, n := range set.Kind("operator.openshift.io/v1", "Network") {
			var net struct {
				Spec struct {
					DefaultNetwork struct {
						OVN *struct {
							MTU         int             `json:"mtu"`
							IPsecConfig *map[string]any `json:"ipsecConfig"`
						} `json:"ovnKubernetesConfig"`
						SDN *struct {
							MTU int `json:"mtu"`
						} `json:"openshiftSDNConfig"`
					} `json:"defaultNetwork"`
				} `json:"spec"`
			}
			if n.DecodeLoose(&net) != nil {
				continue
			}
			dn := net.Spec.DefaultNetwork
			switch {
			case dn.OVN != nil && dn.OVN.MTU > 0:
				ipsec := dn.OVN.IPsecConfig != nil && ipsecFull(*dn.OVN.IPsecConfig)
				over := platform.Overhead(platform.OVNKubernetes, ipsec)
				if limit := platform.AWSEdgeZoneToRegionMTU - over; dn.OVN.MTU > limit {
					r.Object(n, edgeMessage(dn.OVN.MTU, platform.OVNKubernetes, over-platform.GeneveOverhead, limit), "spec", "defaultNetwork", "ovnKubernetesConfig", "mtu")
				}
			case dn.SDN != nil && dn.SDN.MTU > 0:
				if limit := platform.AWSEdgeZoneToRegionMTU - platform.VXLANOverhead; dn.SDN.MTU > limit {
					r.Object(n, edgeMessage(dn.SDN.MTU, platform.OpenShiftSDN, 0, limit), "spec", "defaultNetwork", "openshiftSDNConfig", "mtu")
				}
			}
		}
	}
}

func ipsecFull(cfg map[string]any) bool {
	mode, _ := cfg["mode"].(string)
	return platform.IPsecModeIsFull(true, mode)
}

func edgeMessage(mtu int, netType string, ipsecExtra, limit int) string {
	extra := ""
	if ipsecExtra > 0 {
		extra = fmt.Sprintf(" and %d for IPsec", ipsecExtra)
	}
	return fmt.Sprintf("cluster MTU %d does not fit the %d-byte path between the AWS edge pool (Local/Wavelength Zone) and the Region: "+
		"%s needs %d bytes of overhead%s, so the MTU must be at most %d",
		mtu, platform.AWSEdgeZoneToRegionMTU, netType, platform.Overhead(netType, false), extra, limit)
}
