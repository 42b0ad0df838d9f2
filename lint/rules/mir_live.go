package rules

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/lint"

	"github.com/siteforge/siteforge/internal/platform"
)

// ---------------------------------------------------------------- MIR026

// checkCatalogPullFailing: on a running cluster, a catalog pod whose image
// pull failed (platform.ImagePullFailureReasons) while its CatalogSource
// pulls by tag a reference the nodes' registries.conf cannot resolve by tag
// (the digest-only mirrors of a blocked source: MIR001's analysis).
func checkCatalogPullFailing(set lint.Set, r *lint.Reporter) {
	st := liveState(set)
	if st == nil || len(st.Catalogs) == 0 {
		return
	}
	a := analyze(set)
	for _, c := range st.Catalogs {
		ref := c.Spec.Image
		if ref == "" || !(imageRef{ref: ref}).byTag() {
			continue
		}
		prefix, digestOnly, why := a.tagPullFailure(ref, set.Disconnected)
		if prefix == "" {
			continue
		}
		for _, p := range c.Pods {
			for i, cs := range p.Pod.Status.ContainerStatuses {
				w := cs.State.Waiting
				if w == nil || !slices.Contains(platform.ImagePullFailureReasons, w.Reason) || cs.Image != ref {
					continue
				}
				r.Object(p.Obj, fmt.Sprintf("the catalog pod's container %s is in %s (%q): CatalogSource %s/%s (%s) pulls %s by tag, but %s and %s, so no node can pull it and the catalog serves no operator; add an ImageTagMirrorSet for %s, or point spec.image at the mirror by digest",
					cs.Name, w.Reason, diag.Clean(w.Message), c.Obj.Namespace, c.Obj.Name, posString(c.Obj.PosOf("spec", "image")), ref,
					tagCoverage(prefix, digestOnly, "it"), why, prefix),
					"status", "containerStatuses", strconv.Itoa(i), "state", "waiting", "reason")
			}
		}
	}
}
