package installcheck

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/siteforge/siteforge/internal/platform"
)

// vipFamilies checks the VIP lists as the installer does before it compares
// them with the networks (openshift/installer
// pkg/types/validation/installconfig.go validateAPIAndIngressVIPs, tests
// "invalid_apivips_both_ipv4", "invalid_apis_both_ipv6" and the "foobar"
// VIP in installconfig_test.go): every VIP is an IP ("is not a valid IP"),
// and two VIPs of a list are one IPv4 and one IPv6 address.
func (c *checker) vipFamilies() {
	if c.f.Platform == platform.PlatformNone {
		return // CheckSingleNode refuses them
	}
	for _, l := range []struct {
		what string
		vips []Value
	}{{"API", c.f.APIVIPs}, {"Ingress", c.f.IngressVIPs}} {
		var addrs []netip.Addr
		for _, v := range l.vips {
			a, err := netip.ParseAddr(strings.TrimSpace(v.V))
			if err != nil {
				c.add(CheckVIP, v.Key, nil,
					fmt.Sprintf("%s VIP %q is not an IP address: the installer refuses it (%q is not a valid IP)", strings.ToLower(l.what), v.V, v.V),
					"write the VIP as an IPv4 or IPv6 address")
				continue
			}
			addrs = append(addrs, a.Unmap())
		}
		if len(l.vips) == 2 && len(addrs) == 2 && addrs[0].Is4() == addrs[1].Is4() {
			c.add(CheckVIP, l.vips[1].Key, nil,
				fmt.Sprintf("two %s VIPs of one IP family (%s, %s): the installer refuses them (If two %s VIPs are given, one must be an IPv4 address, the other an IPv6)", strings.ToLower(l.what), l.vips[0].V, l.vips[1].V, l.what),
				"give one VIP, or one IPv4 and one IPv6 VIP on a dual-stack cluster")
		}
	}
}
