package discover

import (
	"path/filepath"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/labels"

	"github.com/siteforge/siteforge/internal/manifests"
)

// What a Cluster is when a hub delivers its objects.
const (
	// ManagedClusterSet: the objects the policies deliver to one managed
	// cluster the repository describes (a ManagedCluster, a
	// ClusterInstance or a SiteConfig cluster, by its labels): every
	// common, group and site policy whose placement selects it.
	ManagedClusterSet = "managed cluster"
	// PolicySet: the objects of one policy whose clusters the repository
	// does not say (its placement is not in the repository, or selects
	// none of the clusters described there): a set of its own.
	PolicySet = "policy"
)

// hub reads the hub's language among everything the walk read: the
// objects inside Policies, and the source files PolicyGenerators and
// PolicyGenTemplates name, linted as objects of the managed clusters
// their placement selects. The Policies and generators stay objects of
// the cluster (the hub) that holds them; the objects they deliver are
// never mixed with it nor with another managed cluster's. The source
// files a generator read (and a PolicyGenTemplate's whole source-crs
// folder) are not objects of the folder's cluster: the generator reads
// them, nothing applies them.
func (r *Result) hub() {
	if !r.hasHubObjects() {
		return
	}
	var all []*manifests.Object
	holder := map[*manifests.Object]int{} // -1: loose
	for _, o := range r.Loose {
		all = append(all, o)
		holder[o] = -1
	}
	for i, c := range r.Clusters {
		for _, o := range c.Objects {
			all = append(all, o)
			holder[o] = i
		}
	}
	policies, probs := manifests.PolicyDeliveries(all)
	gen := manifests.GeneratorDeliveries(all, func(o *manifests.Object) string {
		if i := holder[o]; i >= 0 && r.Clusters[i].What == "kustomization" {
			return r.Clusters[i].Root // kustomize runs the generator there
		}
		return ""
	})
	if len(policies) == 0 && len(gen.Deliveries) == 0 {
		return
	}
	sourceFile := func(file string) bool {
		if gen.Sources[file] {
			return true
		}
		for d := range gen.SourceDirs {
			if strings.HasPrefix(file, d+string(filepath.Separator)) {
				return true
			}
		}
		return false
	}
	// what the walk said of a source file, the generator says again
	// where it reads it; the rest of a source-crs folder is not read
	kept := r.Problems[:0]
	for _, p := range r.Problems {
		if !sourceFile(p.Pos.File) {
			kept = append(kept, p)
		}
	}
	r.Problems = append(kept, probs...)
	r.Problems = append(r.Problems, gen.Problems...)
	source := func(o *manifests.Object) bool { return sourceFile(o.File) }
	r.Loose = dropSources(r.Loose, source)
	for i := range r.Clusters {
		r.Clusters[i].Objects = dropSources(r.Clusters[i].Objects, source)
	}

	var delivered []manifests.Delivery
	for _, d := range append(policies, gen.Deliveries...) {
		switch {
		case len(d.Objects) == 0:
		case d.Hub: // applied with the generator, where it is applied
			if i := holder[d.By]; i >= 0 {
				r.Clusters[i].Objects = append(r.Clusters[i].Objects, d.Objects...)
			} else {
				r.Loose = append(r.Loose, d.Objects...)
			}
		default:
			delivered = append(delivered, d)
		}
	}
	placed := make([]bool, len(delivered))
	for _, mc := range managedClusters(all) {
		c := Cluster{Root: mc.By.File, What: ManagedClusterSet, Managed: mc.Name, enclosing: -1}
		for i, d := range delivered {
			if d.Selects(mc.Labels) {
				c.Objects = append(c.Objects, d.Objects...)
				placed[i] = true
			}
		}
		if len(c.Objects) > 0 {
			r.Clusters = append(r.Clusters, c)
		}
	}
	for i, d := range delivered {
		if !placed[i] {
			r.Clusters = append(r.Clusters, Cluster{Root: d.By.File, What: PolicySet, Managed: d.Policy, Objects: d.Objects, enclosing: -1})
		}
	}
}

// hasHubObjects reports whether any object read is one that delivers
// objects to managed clusters (most repositories hold none).
func (r *Result) hasHubObjects() bool {
	for _, o := range r.Loose {
		if manifests.DeliversObjects(o) {
			return true
		}
	}
	for _, c := range r.Clusters {
		for _, o := range c.Objects {
			if manifests.DeliversObjects(o) {
				return true
			}
		}
	}
	return false
}

// managedClusters are the named managed clusters the objects describe,
// one per name (the labels of every description of it together), by
// name.
func managedClusters(objs []*manifests.Object) []manifests.ManagedCluster {
	byName := map[string]*manifests.ManagedCluster{}
	for _, mc := range manifests.ManagedClusters(objs) {
		if mc.Name == "" {
			continue
		}
		if have := byName[mc.Name]; have != nil {
			have.Labels = labels.Merge(have.Labels, mc.Labels)
			continue
		}
		c := mc
		byName[mc.Name] = &c
	}
	out := make([]manifests.ManagedCluster, 0, len(byName))
	for _, mc := range byName {
		out = append(out, *mc)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func dropSources(objs []*manifests.Object, source func(*manifests.Object) bool) []*manifests.Object {
	kept := objs[:0]
	for _, o := range objs {
		if !source(o) {
			kept = append(kept, o)
		}
	}
	return kept
}
