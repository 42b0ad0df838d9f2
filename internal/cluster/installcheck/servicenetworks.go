package installcheck

import (
	"fmt"
	"net/netip"
	"strings"
)

// serviceNetworks checks the service networks among themselves as the
// installer does (openshift/installer pkg/types/validation/installconfig.go):
// no service network overlaps an earlier one ("service network must not
// overlap with service network %d": validateNetworking), an IPv4-only
// cluster has one service network ("only one service network can be
// specified") and a dual-stack one two, one of each family ("when installing
// dual-stack IPv4/IPv6 you must provide two service networks, one for each IP
// address type": validateNetworkingIPVersion, whose families are the service
// networks'). Test "overlapping service network validation" in
// installconfig_test.go: 13.0.0.0/16 and 13.0.2.0/24 give both errors.
func (c *checker) serviceNetworks() {
	type sn struct {
		CIDR
		p netip.Prefix
	}
	var nets []sn
	for _, n := range c.f.CIDRs {
		if n.Kind != "serviceNetwork" {
			continue
		}
		p, err := netip.ParsePrefix(strings.TrimSpace(n.V))
		if err != nil {
			continue // not a CIDR: the schema or the installer's parser says so
		}
		p = p.Masked()
		for j, o := range nets {
			if o.p.Overlaps(p) {
				c.add(CheckCIDR, n.Key, nil,
					fmt.Sprintf("serviceNetwork %s overlaps serviceNetwork %s: the installer refuses it (service network must not overlap with service network %d)", n.V, o.V, j),
					"give the services one block per IP family, disjoint from the others")
				break
			}
		}
		nets = append(nets, sn{n, p})
	}
	var v4, v6 int
	for _, n := range nets {
		if n.p.Addr().Is4() {
			v4++
		} else {
			v6++
		}
	}
	switch {
	case v4 > 0 && v6 > 0 && len(nets) != 2:
		c.add(CheckCIDR, nets[len(nets)-1].Key, nil,
			fmt.Sprintf("%d service networks on a dual-stack cluster: the installer refuses them (when installing dual-stack IPv4/IPv6 you must provide two service networks, one for each IP address type)", len(nets)),
			"give one IPv4 and one IPv6 service network")
	case v6 == 0 && v4 > 1:
		c.add(CheckCIDR, nets[1].Key, nil,
			fmt.Sprintf("%d IPv4 service networks: the installer refuses them (only one service network can be specified)", v4),
			"give one service network, or one IPv4 and one IPv6 on a dual-stack cluster")
	}
}
