package rules

import (
	"strconv"
	"strings"

	"github.com/siteforge/siteforge/internal/manifests"
)

// imageRef is an image reference found in an object, with the field path
// where it is written.
type imageRef struct {
	obj  *manifests.Object
	ref  string
	path []string
}

// byTag reports whether a reference is pulled by tag (no digest).
func (i imageRef) byTag() bool { return !strings.Contains(i.ref, "@") }

// podSpecPaths are where workload kinds keep their pod template
// (Kubernetes apps/v1, batch/v1).
var podSpecPaths = map[string][]string{
	"Pod":                   {"spec"},
	"Deployment":            {"spec", "template", "spec"},
	"StatefulSet":           {"spec", "template", "spec"},
	"DaemonSet":             {"spec", "template", "spec"},
	"ReplicaSet":            {"spec", "template", "spec"},
	"Job":                   {"spec", "template", "spec"},
	"CronJob":               {"spec", "jobTemplate", "spec", "template", "spec"},
	"DeploymentConfig":      {"spec", "template", "spec"},
	"ReplicationController": {"spec", "template", "spec"},
}

// imageRefs lists the images objects pull: CatalogSource spec.image,
// ClusterCatalog spec.source.image.ref, and every container of workloads.
func imageRefs(objs []*manifests.Object) []imageRef {
	var out []imageRef
	for _, o := range objs {
		switch {
		case o.Kind == "CatalogSource":
			var cs struct {
				Spec struct {
					Image string `json:"image"`
				} `json:"spec"`
			}
			if o.DecodeLoose(&cs) == nil && cs.Spec.Image != "" {
				out = append(out, imageRef{o, cs.Spec.Image, []string{"spec", "image"}})
			}
		case o.Kind == "ClusterCatalog":
			var cc struct {
				Spec struct {
					Source struct {
						Image struct {
							Ref string `json:"ref"`
						} `json:"image"`
					} `json:"source"`
				} `json:"spec"`
			}
			if o.DecodeLoose(&cc) == nil && cc.Spec.Source.Image.Ref != "" {
				out = append(out, imageRef{o, cc.Spec.Source.Image.Ref, []string{"spec", "source", "image", "ref"}})
			}
		case podSpecPaths[o.Kind] != nil:
			out = append(out, containerImages(o, podSpecPaths[o.Kind])...)
		}
	}
	return out
}

func containerImages(o *manifests.Object, specPath []string) []imageRef {
	var root map[string]any
	if o.DecodeLoose(&root) != nil {
		return nil
	}
	var cur any = root
	for _, k := range specPath {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[k]
	}
	spec, ok := cur.(map[string]any)
	if !ok {
		return nil
	}
	var out []imageRef
	for _, list := range []string{"initContainers", "containers"} {
		cs, _ := spec[list].([]any)
		for i, c := range cs {
			cm, _ := c.(map[string]any)
			if img, _ := cm["image"].(string); img != "" {
				p := append(append([]string{}, specPath...), list, strconv.Itoa(i), "image")
				out = append(out, imageRef{o, img, p})
			}
		}
	}
	return out
}

// probeRepository is the repository name appended to a scope to build a synthetic reference
// under it, for asking the registries engine how the nodes would pull from that scope.
const probeRepository = "siteforge-probe"

// probeDigest is a well-formed digest for synthetic references (never pulled).
const probeDigest = "sha256:0000000000000000000000000000000000000000000000000000000000000000"

// probeRef is a synthetic reference under scope: by digest or by tag.
func probeRef(scope string, digest bool) string {
	return taggedOrDigested(strings.TrimSuffix(scope, "/")+"/"+probeRepository, digest)
}

// taggedOrDigested adds the probe digest or a tag to a repository name.
func taggedOrDigested(repo string, digest bool) string {
	if digest {
		return repo + "@" + probeDigest
	}
	return repo + ":latest"
}
