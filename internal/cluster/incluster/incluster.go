// Package incluster tells which registry hosts a node pulls from are served
// by the cluster itself: a Service (its cluster DNS name, or a ClusterIP in
// the service network), a Route's host, any host under one of the
// cluster's ingress domains (which the cluster's own routers serve), or a
// site's in-cluster cache. CRI-O
// pulls on the node, before and outside the cluster network, so such a host
// answers only once the cluster network, its ingress and the workload
// behind it run. The generators (a site's mirroring and its in-cluster
// cache) and the lint rules (MIR011, MIR022, MIR024, MIR025) judge mirrors
// with it (a site's facts: OfSite; which mirrors of a source run inside:
// Split), so a site and its manifests get one answer.
package incluster

import (
	"fmt"
	"maps"
	"net/netip"
	"slices"
	"strings"

	"github.com/siteforge/siteforge/internal/cluster/routing"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/site"
)

// Network is a service network CIDR and where it is configured.
type Network struct {
	Prefix netip.Prefix
	From   string
}

// Domain is an ingress domain of the cluster and where it is configured: the
// Ingress config's spec.domain (the default router's), an IngressController
// shard's spec.domain.
type Domain struct {
	Domain string
	From   string
}

// Cache is an in-cluster cache of the cluster (a site's
// mirroring.inClusterCache): its host[:port] and where it is configured.
type Cache struct {
	Host string
	From string
}

// Cluster is what tells an in-cluster host apart.
type Cluster struct {
	ServiceNetworks []Network
	IngressDomains  []Domain
	// Routes maps the spec.host of a Route to what names it ("Route ns/name").
	Routes map[string]string
	Cache  Cache
}

// OfSite is what tells the hosts a site's cluster serves itself apart: its
// service network, its ingress domains (the apps domain, the shards') and
// its in-cluster cache. prefix goes before the site's field paths in From:
// "" where every fact is the site's (render), "the site's " where
// manifests say some too (lint).
func OfSite(s *site.Site, prefix string) Cluster {
	var c Cluster
	c.AddServiceNetworks(s.Network.ServiceNetwork, prefix+"network.serviceNetwork")
	c.AddIngressDomain(routing.AppsDomain(s.Cluster.Name, s.Cluster.BaseDomain), "the site's cluster name and baseDomain")
	if s.Ingress != nil {
		for _, name := range slices.Sorted(maps.Keys(s.Ingress.Shards)) {
			c.AddIngressDomain(s.Ingress.Shards[name].Domain, prefix+site.Field("ingress", "shards", name, "domain"))
		}
	}
	if m := s.Mirroring; m != nil && m.InClusterCache != nil {
		c.Cache = Cache{Host: m.InClusterCache.Host, From: prefix + "mirroring.inClusterCache.host"}
	}
	return c
}

// AddServiceNetworks appends the parseable CIDRs of cidrs, configured at from.
func (c *Cluster) AddServiceNetworks(cidrs []string, from string) {
	for _, s := range cidrs {
		if p, err := netip.ParsePrefix(s); err == nil {
			c.ServiceNetworks = append(c.ServiceNetworks, Network{p.Masked(), from})
		}
	}
}

// AddIngressDomain appends domain, configured at from ("" is ignored).
func (c *Cluster) AddIngressDomain(domain, from string) {
	if domain = strings.TrimSuffix(strings.ToLower(domain), "."); domain != "" {
		c.IngressDomains = append(c.IngressDomains, Domain{domain, from})
	}
}

// HostPort is the host[:port] of a registry location (host[:port][/path]).
func HostPort(location string) string {
	host, _, _ := strings.Cut(location, "/")
	return host
}

// Host is the host of a registry location (host[:port][/path]), without its
// port; an IPv6 literal without its brackets.
func Host(location string) string {
	host := HostPort(location)
	if strings.HasPrefix(host, "[") {
		if end := strings.Index(host, "]"); end > 0 {
			return host[1:end]
		}
	}
	if i := strings.LastIndexByte(host, ':'); i >= 0 {
		return host[:i]
	}
	return host
}

// Service tells why host (no port) is an in-cluster Service, "" when it is
// not: a cluster DNS name (ServiceName), or a ClusterIP, which answers only
// once the cluster network is up.
func (c Cluster) Service(host string) string {
	if why := ServiceName(host); why != "" {
		return why
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		if n, ok := c.ServiceNetworkOf(ip); ok {
			return fmt.Sprintf("a Service ClusterIP (in %s, %s), which answers only once the cluster network is up", n.Prefix, n.From)
		}
	}
	return ""
}

// ServiceName tells why host (no port) is a cluster DNS name, "" when it is
// not: the node's resolver does not know it (the internal registry's name
// resolves only through the /etc/hosts entry the DNS operator's node
// resolver maintains while cluster DNS works).
func ServiceName(host string) string {
	switch {
	case host == platform.InternalRegistryHost || host == platform.InternalRegistryHost+platform.ClusterDomainSuffix:
		return "the internal image registry's Service name, which the node resolves only through the /etc/hosts entry the DNS operator maintains while cluster DNS works"
	case strings.HasSuffix(host, platform.ServiceDomainSuffix), strings.HasSuffix(host, platform.ServiceDomainSuffix+platform.ClusterDomainSuffix), strings.HasSuffix(host, platform.ClusterDomainSuffix):
		return "a cluster DNS name, which the node's resolver does not know"
	}
	return ""
}

// ServiceNetworkOf is the service network holding ip.
func (c Cluster) ServiceNetworkOf(ip netip.Addr) (Network, bool) {
	for _, n := range c.ServiceNetworks {
		if n.Prefix.Contains(ip.Unmap()) {
			return n, true
		}
	}
	return Network{}, false
}

// Ingress tells why host (no port) is served by the cluster's routers, ""
// when it is not known to be: the host of a Route, or a host under an
// ingress domain (a Route host the router admits: the default router
// serves the Ingress config's spec.domain, cluster-ingress-operator
// pkg/operator/controller/ingress/controller.go setDefaultDomain).
func (c Cluster) Ingress(host string) string {
	host = strings.ToLower(host)
	if rt := c.Routes[host]; rt != "" {
		return "the host of " + rt + ", served by a workload of this cluster through its ingress"
	}
	for _, d := range c.IngressDomains {
		if strings.HasSuffix(host, "."+d.Domain) {
			return fmt.Sprintf("under %s (%s), the cluster's own ingress domain: a Route host, served by a workload of this cluster through its routers", d.Domain, d.From)
		}
	}
	return ""
}

// Why tells why the host of location is served from inside the cluster, ""
// when it is not known to be: the in-cluster cache, a Service, a host its
// routers serve.
func (c Cluster) Why(location string) string {
	if c.Cache.Host != "" && HostPort(location) == c.Cache.Host {
		return "the in-cluster cache (" + c.Cache.From + "), a workload of this cluster"
	}
	host := Host(location)
	if why := c.Service(host); why != "" {
		return why
	}
	return c.Ingress(host)
}

// Split splits the mirrors of source into those served from inside the
// cluster (inside; why, of the first) and the others (outside). The source
// listed as its own mirror is neither: blocked, it serves nothing.
func (c Cluster) Split(source string, mirrors []string) (inside []string, why string, outside []string) {
	for _, mi := range mirrors {
		if w := c.Why(mi); w != "" {
			if why == "" {
				why = w
			}
			inside = append(inside, mi)
		} else if mi != source {
			outside = append(outside, mi)
		}
	}
	return inside, why, outside
}

// Deadlock is what a source blocked on the nodes (NeverContactSource,
// blockedRegistries) means when every mirror of it runs in the cluster.
const Deadlock = "a bootstrap deadlock: until the cluster network, its ingress and the mirror's own pods run, the mirror cannot answer, and with the source blocked no node can pull what those need (the mirror's own images included), at install and after every reboot and upgrade"

// Blocked is what blocking a source on the nodes means when some of its
// mirrors run in the cluster and outside are the others: Deadlock when there
// are none, else partlyOutside.
func Blocked(outside []string) string {
	if len(outside) == 0 {
		return Deadlock
	}
	return partlyOutside(outside)
}

// partlyOutside is what a source blocked on the nodes means when some of its
// mirrors (outside) are outside the cluster: no deadlock, but waits.
func partlyOutside(outside []string) string {
	return fmt.Sprintf("no deadlock, as %s outside the cluster serves it; but at install and after every reboot and upgrade a pull that reaches the in-cluster mirror waits on it (up to CRI-O's %d s dial timeout when nothing answers at its address), and an image the mirrors outside the cluster lack cannot be pulled at all until the cluster runs", Quoted(outside), platform.RegistryDialTimeoutSeconds)
}

// Fix is how a blocked source with an in-cluster mirror is made safe.
const Fix = "allow the source (mirrorSourcePolicy AllowContactingSource; take the scope out of blockedRegistries), or mirror through a registry outside the cluster; for a cache running in this cluster, a site's mirroring.inClusterCache adds its mirrors on each node only while it answers"

// Quoted is mirrors quoted and joined with " and ", as the verdicts name
// the mirrors outside the cluster.
func Quoted(mirrors []string) string {
	out := make([]string, len(mirrors))
	for i, s := range mirrors {
		out[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(out, " and ")
}
