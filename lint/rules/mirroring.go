package rules

import (
	"fmt"

	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/registries"
	"github.com/siteforge/siteforge/lint"
)

func init() {
	lint.Register(&lint.Rule{
		ID:       "MIR001",
		Name:     "tag-pull-under-digest-only-mirrors",
		Severity: lint.Error,
		Summary:  "an image pulled by tag is covered only by digest mirrors or a blocked source",
		Rationale: "CRI-O (containers/image sysregistriesv2) skips digest-only mirrors for tag references, so a TAG pull under ImageDigestMirrorSet or " +
			"ImageContentSourcePolicy coverage goes to the source alone (registries.md section 3). When the source is blocked " +
			"(mirrorSourcePolicy NeverContactSource) or the cluster is disconnected, the pull fails with ImagePullBackOff: the classic case is an " +
			"operator catalog index such as registry.redhat.io/redhat/redhat-operator-index:v4.16, which CatalogSources pull by tag.",
		Fix: "Add an ImageTagMirrorSet for the repository (on the exact index repository, or on the whole registry to avoid shadowing), point the " +
			"CatalogSource at the mirror directly, or pull by digest. In a site, set serves: \"both\" on the source (a Quay pull-through cache serves tags too).",
		Since: "v1alpha1",
		Check: checkTagPulls,
	})
}

func checkTagPulls(in *lint.Input, r *lint.Reporter) {
	for _, set := range in.Sets() {
		refs := imageRefs(set.Objects)
		if len(refs) == 0 {
			continue
		}
		regIn, diags := manifests.RegistriesInput(set.Objects, set.Minor)
		if len(diags) > 0 {
			continue // other rules report objects that do not decode
		}
		conf, err := registries.Render(regIn)
		if err != nil {
			continue // MCO would refuse: reported by the mirror rules
		}
		toml, err := conf.TOML()
		if err != nil {
			continue
		}
		for _, ref := range refs {
			if !ref.byTag() {
				continue
			}
			res, err := registries.Resolve(toml, ref.ref)
			if err != nil || res.Prefix == "" {
				continue
			}
			if res.SucceedsDisconnected(func(string) bool { return true }) {
				continue
			}
			var digestOnly []string
			sourceBlocked := false
			for _, ep := range res.Endpoints {
				if ep.Mirror && !ep.Source && ep.Skipped {
					digestOnly = append(digestOnly, ep.Location)
				}
				if !ep.Mirror && ep.Blocked {
					sourceBlocked = true
				}
			}
			if len(digestOnly) == 0 && !sourceBlocked {
				continue // not mirrored at all: nothing to get wrong here
			}
			why := "the cluster is disconnected"
			switch {
			case sourceBlocked:
				why = "the source is blocked (NeverContactSource or blockedRegistries)"
			case !set.Disconnected:
				// connected: the pull bypasses the mirror but works
				continue
			}
			r.Object(ref.obj, fmt.Sprintf("%s is pulled by tag, but %s has only digest-only mirrors %v for it and %s: the pull fails (ImagePullBackOff); add a tag mirror (ImageTagMirrorSet)",
				ref.ref, res.Prefix, digestOnly, why), ref.path...)
		}
	}
}
