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
	nets := c.sameKindOverlaps("serviceNetwork", "service network", "give the services one block per IP family, disjoint from the others")
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

// parsedCIDR is a CIDR of the facts with its prefix parsed.
type parsedCIDR struct {
	CIDR
	p netip.Prefix
}

// sameKindOverlaps reports each network of kind that overlaps an earlier
// one of the same kind, as the installer refuses it
// (openshift/installer pkg/types/validation/installconfig.go
// validateNetworking / validateMachineNetwork, validateClusterNetwork:
// "<what> must not overlap with <what> %d", the index of the earlier one;
// tests "overlapping machine network and machine network", "overlapping
// cluster network and cluster network", "overlapping service network and
// service network" in installconfig_test.go), and returns the networks of
// kind that parse, in order.
func (c *checker) sameKindOverlaps(kind, what, hint string) []parsedCIDR {
	var nets []parsedCIDR
	for _, n := range c.f.CIDRs {
		if n.Kind != kind {
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
					fmt.Sprintf("%s %s overlaps %s %s: the installer refuses it (%s must not overlap with %s %d)", kind, n.V, kind, o.V, what, what, j),
					hint)
				break
			}
		}
		nets = append(nets, parsedCIDR{n, p})
	}
	return nets
}

// ownOverlaps: machine networks overlapping each other, and cluster
// networks overlapping each other (sameKindOverlaps).
func (c *checker) ownOverlaps() {
	c.sameKindOverlaps("machineNetwork", "machine network", "give each machine network its own block")
	c.sameKindOverlaps("clusterNetwork", "cluster network", "give each cluster network its own block")
}
