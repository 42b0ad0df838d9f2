package manifests

import (
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/upstream"
)

// ClusterInstanceObject is a siteconfig ClusterInstance as the install
// checks read it: its spec, the one typed ClusterInstanceSpec
// (internal/upstream, json tags as stolostron/siteconfig api/v1alpha1
// clusterinstance_types.go).
type ClusterInstanceObject struct {
	Obj  *Object                      `json:"-"`
	Spec upstream.ClusterInstanceSpec `json:"spec"`
}

// ClusterInstances reads every ClusterInstance among objs that decodes, in
// order, with the ClusterInstance of each cluster of a SiteConfig v1
// (SiteConfigClusters: positioned in the SiteConfig).
func ClusterInstances(objs []*Object) []*ClusterInstanceObject {
	var out []*ClusterInstanceObject
	for _, o := range objs {
		if IsSiteConfig(o) {
			clusters, _ := SiteConfigClusters(o)
			for _, c := range clusters {
				out = append(out, c.CI)
			}
			continue
		}
		if o.Kind != platform.ClusterInstanceKind || o.APIVersion != platform.ClusterInstanceAPIVersion {
			continue
		}
		ci := &ClusterInstanceObject{Obj: o}
		if o.DecodeLoose(ci) != nil {
			continue
		}
		out = append(out, ci)
	}
	return out
}
