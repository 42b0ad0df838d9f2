package rules

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/siteforge/siteforge/internal/cluster/incluster"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/site"
	"github.com/siteforge/siteforge/lint"
)

// The rules of a site's in-cluster cache (mirroring.inClusterCache): what the site must say for
// the cache to stay off the nodes' path while it cannot answer.

// inClusterCacheOf is the set's site and its in-cluster cache, nil when it has none.
func inClusterCacheOf(set lint.Set) (*site.Site, *site.InClusterCache) {
	if set.Site == nil || set.Site.Site.Mirroring == nil || set.Site.Site.Mirroring.InClusterCache == nil {
		return nil, nil
	}
	return set.Site.Site, set.Site.Site.Mirroring.InClusterCache
}

// ---------------------------------------------------------------------------------------------
// MIR023: an in-cluster cache whose own images siteforge does not know, and the site does not list.

func checkCacheOwnImages(set lint.Set, r *lint.Reporter) {
	s, c := inClusterCacheOf(set)
	if c == nil || c.DeployedBy != site.CacheByOther || len(c.BootstrapImages) > 0 {
		return
	}
	r.At(s.Name, s.Positions.Of(site.Field("mirroring", "inClusterCache", "deployedBy")), fmt.Sprintf(
		"the in-cluster cache %s is deployed by %q, so siteforge does not know its own images, and bootstrapImages lists none: the images of the cache's own pods (and of its operator, if any) would go through the cache whenever a node has its drop-in, so a cache pod that restarts or moves pulls from the cache it is part of first, and reaches the source only once that fails; list the repositories of the cache's images in mirroring.inClusterCache.bootstrapImages, or say deployedBy: quay-operator for a Quay the Quay operator runs",
		c.Host, c.DeployedBy))
}

// ---------------------------------------------------------------------------------------------
// MIR024: an in-cluster cache at an address the nodes cannot reach it at.

func checkCacheHost(set lint.Set, r *lint.Reporter) {
	s, c := inClusterCacheOf(set)
	if c == nil {
		return
	}
	pos := s.Positions.Of(site.Field("mirroring", "inClusterCache", "host"))
	host := incluster.Host(c.Host)
	if strings.HasSuffix(host, platform.ServiceDomainSuffix) || strings.HasSuffix(host, platform.ClusterDomainSuffix) {
		r.At(s.Name, pos, fmt.Sprintf("the in-cluster cache's host %q is a cluster DNS name: CRI-O pulls on the node and resolves mirror hosts with the node's resolver, not cluster DNS, so the nodes never reach the cache; give the Route host name of the cache (it resolves in the nodes' DNS through the cluster's ingress), or its Service's ClusterIP", c.Host))
		return
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return // a host name: the nodes resolve it through the site's DNS
	}
	nets := inClusterOf(set)
	if _, ok := nets.ServiceNetworkOf(ip); ok {
		return
	}
	var cidrs []string
	for _, n := range nets.ServiceNetworks {
		cidrs = append(cidrs, n.Prefix.String()+" ("+n.From+")")
	}
	r.At(s.Name, pos, fmt.Sprintf("the in-cluster cache's host %s is an IP address outside the service network %s, so it is not the ClusterIP of the cache's Service, the one address form besides a Route host name that reaches the cache from every node; give the ClusterIP of the cache's Service (oc get service -n <namespace> <name> -o jsonpath='{.spec.clusterIP}'), or the Route's host name",
		c.Host, strings.Join(cidrs, ", ")))
}
