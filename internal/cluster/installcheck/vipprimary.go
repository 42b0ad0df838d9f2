package installcheck

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/siteforge/siteforge/internal/platform"
)

// vipPrimaryFamily: on a dual-stack cluster (service networks of both IP
// families), a single API or ingress VIP is of the family of the first
// machine network, the cluster's primary family. The installer refuses
// another: "VIP for the API must be of the same IP family with machine
// network's primary IP Family for dual-stack IPv4/IPv6" (openshift/installer
// pkg/types/validation/installconfig.go validateAPIAndIngressVIPs, tests
// "baremetal API VIP set to an incorrect IP Family" and "baremetal Ingress
// VIP set to an incorrect IP Family" in installconfig_test.go: ffd0:: with an
// IPv4-primary dual-stack networking).
func (c *checker) vipPrimaryFamily() {
	if c.f.Platform == platform.PlatformNone {
		return // CheckSingleNode refuses the VIPs
	}
	var v4, v6 bool
	primary := netip.Prefix{}
	for _, n := range c.f.CIDRs {
		p, err := netip.ParsePrefix(strings.TrimSpace(n.V))
		if err != nil {
			continue
		}
		switch n.Kind {
		case "serviceNetwork":
			v4, v6 = v4 || p.Addr().Is4(), v6 || p.Addr().Is6()
		case "machineNetwork":
			if !primary.IsValid() {
				primary = p
			}
		}
	}
	if !v4 || !v6 || !primary.IsValid() {
		return
	}
	fam := func(a netip.Addr) string {
		if a.Unmap().Is4() {
			return "IPv4"
		}
		return "IPv6"
	}
	want := fam(primary.Addr())
	for _, l := range []struct {
		what string
		vips []Value
	}{{"API", c.f.APIVIPs}, {"Ingress", c.f.IngressVIPs}} {
		if len(l.vips) != 1 {
			continue // two: one of each family (vipFamilies)
		}
		v := l.vips[0]
		a, err := netip.ParseAddr(strings.TrimSpace(v.V))
		if err != nil || fam(a) == want {
			continue
		}
		c.add(CheckVIP, v.Key, nil,
			fmt.Sprintf("%s VIP %s is %s but the first machine network %s, the dual-stack cluster's primary family, is %s: the installer refuses it (VIP for the %s must be of the same IP family with machine network's primary IP Family for dual-stack IPv4/IPv6)", strings.ToLower(l.what), v.V, fam(a), primary, want, l.what),
			fmt.Sprintf("use an %s VIP, or give both: one IPv4 and one IPv6 VIP", want))
	}
}
