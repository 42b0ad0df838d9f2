package rules

import (
	"fmt"
	"net/netip"
	"net/url"

	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/lint"
)

// install-config proxy addresses as the installer validates them
// (openshift/installer pkg/types/validation/installconfig.go validateProxy,
// validateIPProxy). A site has no proxy setting: siteforge writes none.

func init() {
	lint.RegisterFamily("v1alpha1", nil, []*lint.Rule{
		{
			ID:       "NET006",
			Name:     "install-proxy-in-cluster-network",
			Severity: lint.Error,
			Summary:  "an install-config proxy whose address is inside the cluster networks, the service networks or the OVN-Kubernetes join subnet set in install-config",
			Rationale: "When install-config proxy.httpProxy or proxy.httpsProxy names its host by IP address, the installer refuses an address inside a cluster network " +
				"(\"proxy value is part of the cluster networks\"), a service network (\"... of the service networks\") or the join subnet the install-config sets in " +
				"networking.ovnKubernetesConfig.ipv4.internalJoinSubnet (\"proxy value is part of the ovn-kubernetes IPv4 InternalJoinSubnet\"): those addresses are " +
				"pods', services' and OVN-Kubernetes' own, so the proxy would be unreachable from the nodes (openshift/installer " +
				"pkg/types/validation/installconfig.go validateIPProxy; test \"HTTPProxy overlapping with user-provided IPv4 Internal Join Subnet\" in " +
				"installconfig_test.go). The default join subnet (100.64.0.0/16) is not checked by the installer; a proxy named by host name is not checked.",
			Fix:   "Point the proxy at an address on the machine network or outside the cluster, or renumber the network or the join subnet.",
			Check: checkInstallProxy,
		},
	})
}

func checkInstallProxy(set lint.Set, r *lint.Reporter) {
	for _, ic := range manifests.InstallConfigs(plainInstallObjects(set)) {
		p := ic.Proxy
		if p == nil {
			continue
		}
		for _, f := range []struct{ key, v string }{{"httpProxy", p.HTTPProxy}, {"httpsProxy", p.HTTPSProxy}} {
			ip, ok := proxyIP(f.v)
			if !ok {
				continue
			}
			for _, where := range proxyNetworks(ic, ip) {
				r.Object(ic.Obj, fmt.Sprintf("proxy %s is inside %s: the installer refuses a proxy address there (pod, service and OVN-Kubernetes addresses are not the proxy's)",
					f.v, where), "proxy", f.key)
			}
		}
	}
}

// proxyIP is the IP address a proxy URL names as its host, as the installer
// reads it (url.ParseRequestURI, then the host name as an IP); !ok for a
// host name or a URL that does not parse (that the installer reports
// otherwise).
func proxyIP(v string) (netip.Addr, bool) {
	if v == "" {
		return netip.Addr{}, false
	}
	u, err := url.ParseRequestURI(v)
	if err != nil {
		return netip.Addr{}, false
	}
	a, err := netip.ParseAddr(u.Hostname())
	if err != nil || a.Zone() != "" {
		return netip.Addr{}, false
	}
	return a.Unmap(), true
}

// proxyNetworks names what ip is inside, in the installer's order: the
// first cluster network, the first service network, the install-config's
// join subnet.
func proxyNetworks(ic *manifests.InstallConfigFile, ip netip.Addr) []string {
	var out []string
	for _, c := range ic.Networking.ClusterNetwork {
		if p, err := netip.ParsePrefix(c.CIDR); err == nil && p.Contains(ip) {
			out = append(out, "clusterNetwork "+c.CIDR)
			break
		}
	}
	for _, c := range ic.Networking.ServiceNetwork {
		if p, err := netip.ParsePrefix(c); err == nil && p.Contains(ip) {
			out = append(out, "serviceNetwork "+c)
			break
		}
	}
	if v, _ := installJoinSubnet(ic); v != "" {
		if p, err := netip.ParsePrefix(v); err == nil && p.Addr().Is4() && p.Contains(ip) {
			out = append(out, "the OVN-Kubernetes join subnet "+v+" set in networking.ovnKubernetesConfig")
		}
	}
	return out
}
