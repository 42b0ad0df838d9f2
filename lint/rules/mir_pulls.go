package rules

import (
	"fmt"
	"strings"

	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/registries"
	"github.com/siteforge/siteforge/lint"
)

// ---------------------------------------------------------------------------------------------
// Pull resolution.

// tagPullFailure tells why a tag pull of ref fails under the registries.conf the nodes get: the
// matching table, its digest-only mirrors and why the source is out of reach. prefix is empty when
// the pull works, is not mirrored at all, or bypasses a digest-only mirror in a connected cluster.
func (a *analysis) tagPullFailure(ref string, disconnected bool) (prefix string, digestOnly []string, why string) {
	return tagPullFailureIn(a.nodeTOML, ref, disconnected)
}

// tagPullFailureIn is tagPullFailure under the registries.conf data (none when nil).
func tagPullFailureIn(data []byte, ref string, disconnected bool) (prefix string, digestOnly []string, why string) {
	if data == nil {
		return "", nil, ""
	}
	res, err := registries.Resolve(data, ref)
	if err != nil || res.Prefix == "" || res.Digest {
		return "", nil, ""
	}
	if res.SucceedsDisconnected(func(string) bool { return true }) {
		return "", nil, ""
	}
	sourceBlocked := false
	for _, ep := range res.Endpoints {
		if ep.Mirror && !ep.Source && ep.Skipped {
			digestOnly = append(digestOnly, ep.Location)
		}
		if !ep.Mirror && ep.Blocked {
			sourceBlocked = true
		}
	}
	switch {
	case len(digestOnly) == 0 && !sourceBlocked:
		return "", nil, "" // not mirrored at all: nothing to get wrong here
	case sourceBlocked:
		why = "the source is blocked (NeverContactSource or blockedRegistries)"
	case disconnected:
		why = "the cluster is disconnected"
	default:
		return "", nil, "" // connected: the pull bypasses the mirror but works
	}
	return res.Prefix, digestOnly, why
}

// catalogPod reports whether o is a pod serving a CatalogSource
// (platform.CatalogPodLabel).
func catalogPod(o *manifests.Object) bool {
	if o.Kind != "Pod" {
		return false
	}
	var p struct {
		Metadata struct {
			Labels map[string]string `json:"labels"`
		} `json:"metadata"`
	}
	return o.DecodeLoose(&p) == nil && p.Metadata.Labels[platform.CatalogPodLabel] != ""
}

// tagCoverage says what the matching table offers a tag pull.
func tagCoverage(prefix string, digestOnly []string, what string) string {
	if len(digestOnly) == 0 {
		return fmt.Sprintf("%s has no tag mirror for %s", prefix, what)
	}
	return fmt.Sprintf("%s has only digest-only mirrors %v for %s", prefix, digestOnly, what)
}

func checkTagPulls(set lint.Set, r *lint.Reporter) {
	refs := imageRefs(set.Objects)
	var siteImages []string
	if set.Site != nil && set.Site.Site.Mirroring != nil {
		siteImages = set.Site.Site.Mirroring.Images
	}
	if len(refs) == 0 && len(siteImages) == 0 {
		return
	}
	a := analyze(set)
	message := func(ref string) string {
		prefix, digestOnly, why := a.tagPullFailure(ref, set.Disconnected)
		if prefix == "" {
			return ""
		}
		fix := "add a tag mirror (ImageTagMirrorSet)"
		if a.legacy() {
			fix = "mirror tags with a registries.conf MachineConfig (no ImageTagMirrorSet before 4.13; a site renders one for a source that serves tags)"
		}
		return fmt.Sprintf("%s is pulled by tag, but %s and %s: the pull fails (ImagePullBackOff); %s",
			ref, tagCoverage(prefix, digestOnly, "it"), why, fix)
	}
	for _, ref := range refs {
		if !ref.byTag() || set.Live && catalogPod(ref.obj) {
			continue // a running catalog's pod: MIR026 says what it does
		}
		if msg := message(ref.ref); msg != "" {
			r.Object(ref.obj, msg, ref.path...)
		}
	}
	for i, ref := range siteImages {
		if strings.Contains(ref, "@") {
			continue
		}
		if msg := message(ref); msg != "" {
			s := set.Site.Site
			r.At(s.Name, s.Positions.Of(fmt.Sprintf("mirroring.images[%d]", i)), "mirroring.images: "+msg)
		}
	}
}
