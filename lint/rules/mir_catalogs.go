package rules

import (
	"fmt"
	"strconv"
	"strings"

	configv1 "github.com/openshift/api/config/v1"

	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/lint"
)

// ---------------------------------------------------------------------------------------------
// MIR002: default catalogs.

func checkDefaultCatalogs(set lint.Set, r *lint.Reporter) {
	var hub *manifests.Object
	for _, o := range set.Kind(manifests.GroupConfig, "OperatorHub") {
		if o.Name == platform.ConfigSingletonName {
			hub = o
		}
	}
	// Without OperatorHub cluster the default sources are enabled (api config/v1
	// OperatorHubSpec.Sources: "If the list is empty, it implies that the default hub sources are
	// enabled on the cluster unless disableAllDefaultSources is true").
	if hub == nil && set.Site != nil && !set.Disconnected {
		return // a connected site: not checked (its catalogs are the mirroring generator's)
	}
	// Without the marketplace capability there is no OperatorHub and no
	// default catalog (api config/v1 ClusterVersionCapabilityMarketplace
	// "supplies ... default catalogs"; OperatorHub +openshift:capability=marketplace).
	if set.Site == nil && manifests.CapabilityOff(set.Objects, configv1.ClusterVersionCapabilityMarketplace) != "" {
		return
	}
	enabled, path := platform.DefaultCatalogs, []string(nil)
	if hub != nil {
		var spec configv1.OperatorHub
		if hub.DecodeLoose(&spec) != nil {
			return
		}
		enabled, path = enabledDefaultCatalogs(spec.Spec)
	}
	if len(enabled) == 0 {
		return
	}
	a := analyze(set)
	// The default catalogs pull the index of the cluster's minor (:v4.N).
	tag, tagSaid := platform.DefaultCatalogTagUnknown, "the tag of the cluster's minor; no version known"
	if set.Minor > 0 {
		tag, tagSaid = platform.DefaultCatalogTag(set.Minor), "the tag of "+set.MinorIn()
	}
	var names, refs []string
	var prefix, why string
	var digestOnly []string
	for _, c := range enabled {
		ref := c.Index + ":" + tag
		p, d, w := a.tagPullFailure(ref, set.Disconnected)
		if p == "" {
			continue
		}
		names, refs = append(names, c.Name), append(refs, ref)
		prefix, digestOnly, why = p, d, w
	}
	if len(names) == 0 {
		return
	}
	msg := fmt.Sprintf("the default catalog sources %s stay enabled and pull %s (%s) BY TAG, but %s and %s: "+
		"the catalog pods fail (ImagePullBackOff); set OperatorHub cluster spec.disableAllDefaultSources: true and add CatalogSources "+
		"for your mirrored catalogs, or add an ImageTagMirrorSet for registry.redhat.io/redhat",
		strings.Join(names, ", "), strings.Join(refs, ", "), tagSaid, tagCoverage(prefix, digestOnly, "them"), why)
	switch {
	case hub != nil:
		r.Object(hub, "OperatorHub cluster "+userPath(path)+": "+msg, path...)
	case set.Site != nil:
		s := set.Site.Site
		r.At(s.Name, s.Positions.Of("cluster.connectivity"), "disconnected site without OperatorHub cluster: "+msg)
	default:
		const noHub = "no OperatorHub cluster in the set, so the default catalog sources are enabled: "
		if obj, at := catalogBlocker(a, prefix); obj != nil {
			r.Object(obj, noHub+msg, at...)
		}
	}
}

// catalogBlocker finds what blocks the default catalogs' tag pulls under the registries.conf
// table prefix: the mirror entry for prefix that sets NeverContactSource, else the image config's
// blockedRegistries.
func catalogBlocker(a *analysis, prefix string) (*manifests.Object, []string) {
	for _, e := range a.accepted {
		if e.source == prefix && e.effectivePolicy() == configv1.NeverContactSource {
			return e.obj, e.path("mirrorSourcePolicy")
		}
	}
	if a.imageObj != nil && len(a.imageSpec.Spec.RegistrySources.BlockedRegistries) > 0 {
		return a.imageObj, []string{"spec", "registrySources", "blockedRegistries"}
	}
	for _, e := range a.accepted {
		if e.source == prefix {
			return e.obj, e.path("source")
		}
	}
	return nil, nil
}

// enabledDefaultCatalogs lists the default catalogs an OperatorHub spec leaves enabled (a sources
// entry overrides disableAllDefaultSources, api config/v1 OperatorHubSpec), and the field to blame.
func enabledDefaultCatalogs(spec configv1.OperatorHubSpec) (enabled []platform.DefaultCatalog, path []string) {
	path = []string{"spec", "disableAllDefaultSources"}
	for _, c := range platform.DefaultCatalogs {
		idx := -1
		for i, s := range spec.Sources {
			if s.Name == c.Name {
				idx = i
			}
		}
		switch {
		case idx >= 0 && !spec.Sources[idx].Disabled:
			enabled = append(enabled, c)
			if spec.DisableAllDefaultSources {
				path = []string{"spec", "sources", strconv.Itoa(idx), "disabled"}
			}
		case idx < 0 && !spec.DisableAllDefaultSources:
			enabled = append(enabled, c)
		}
	}
	return enabled, path
}
