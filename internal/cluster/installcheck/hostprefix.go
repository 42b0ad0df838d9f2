package installcheck

import (
	"fmt"
	"net/netip"
	"strconv"
	"strings"

	"github.com/siteforge/siteforge/internal/platform"
)

// hostPrefixes checks each cluster network's hostPrefix as the installer
// does (openshift/installer pkg/types/validation/installconfig.go
// validateClusterNetwork), when the network plugin carves per-node subnets
// (pluginsUsingHostPrefix: OVNKubernetes; OpenShiftSDN on the releases that
// install it) or a hostPrefix is written: it is not negative ("hostPrefix
// must be positive"), not shorter than the cluster network's prefix
// ("cluster network host subnetwork prefix must not be larger size than CIDR
// 192.168.1.0/24": test "cluster network host prefix too large", 23 for a
// /24), the same for every IPv4 cluster network ("must be the same value for
// IPv4 networks": test "multiple cluster network host prefix different", 30
// beside 23) and 64 for IPv6 ("must be 64 for IPv6 networks").
func (c *checker) hostPrefixes() {
	uses := c.f.NetworkType == platform.OVNKubernetes || c.f.NetworkType == platform.OpenShiftSDN
	// the earlier IPv4 cluster networks and their hostPrefixes
	var earlier4 []CIDR
	var earlier4HP []int
	for _, n := range c.f.CIDRs {
		if n.Kind != "clusterNetwork" || n.HostPrefix.Key == nil {
			continue
		}
		p, err := netip.ParsePrefix(strings.TrimSpace(n.V))
		if err != nil {
			continue
		}
		hp := 0
		if v := strings.TrimSpace(n.HostPrefix.V); v != "" {
			if hp, err = strconv.Atoi(v); err != nil {
				continue
			}
		}
		key := n.HostPrefix.Key
		switch {
		case !uses && hp == 0:
			// the plugin carves no per-node subnets: hostPrefix unused
		case hp < 0:
			c.add(CheckCIDR, key, nil,
				fmt.Sprintf("hostPrefix %d of clusterNetwork %s is negative: the installer refuses it (hostPrefix must be positive)", hp, n.V),
				"give each node a subnet of the cluster network: hostPrefix 23 on IPv4, 64 on IPv6")
		case hp < p.Bits():
			c.add(CheckCIDR, key, nil,
				fmt.Sprintf("hostPrefix %d of clusterNetwork %s is shorter than its /%d: the installer refuses it (cluster network host subnetwork prefix must not be larger size than CIDR %s)", hp, n.V, p.Bits(), n.V),
				fmt.Sprintf("use a hostPrefix of at least %d, or a larger cluster network", p.Bits()))
		case p.Addr().Is4() && differs(earlier4HP, hp) >= 0:
			i := differs(earlier4HP, hp)
			c.add(CheckCIDR, key, nil,
				fmt.Sprintf("hostPrefix %d of clusterNetwork %s differs from %d of clusterNetwork %s: the installer refuses it (cluster network host subnetwork prefix must be the same value for IPv4 networks)", hp, n.V, earlier4HP[i], earlier4[i].V),
				fmt.Sprintf("use hostPrefix %d for every IPv4 cluster network", earlier4HP[i]))
		case p.Addr().Is6() && hp != 64:
			c.add(CheckCIDR, key, nil,
				fmt.Sprintf("hostPrefix %d of clusterNetwork %s: the installer refuses it (cluster network host subnetwork prefix must be 64 for IPv6 networks)", hp, n.V),
				"use hostPrefix 64")
		}
		if p.Addr().Is4() {
			earlier4, earlier4HP = append(earlier4, n), append(earlier4HP, hp)
		}
	}
}

// differs is the index of the first of hps that is not hp, or -1.
func differs(hps []int, hp int) int {
	for i, h := range hps {
		if h != hp {
			return i
		}
	}
	return -1
}
