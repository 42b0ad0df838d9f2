package rules

import (
	"fmt"

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
