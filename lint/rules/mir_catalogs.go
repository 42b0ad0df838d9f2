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
	if hub == nil && !(set.Site != nil && set.Disconnected) {
		return // plain manifests without OperatorHub: whether the defaults run is unknown
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
	tag := "latest"
	if a.minor > 0 {
		tag = "v" + platform.OCPMinor(a.minor).String()
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
	msg := fmt.Sprintf("the default catalog sources %s stay enabled and pull %s BY TAG, but %s and %s: "+
		"the catalog pods fail (ImagePullBackOff); set OperatorHub cluster spec.disableAllDefaultSources: true and add CatalogSources "+
		"for your mirrored catalogs, or add an ImageTagMirrorSet for registry.redhat.io/redhat",
		strings.Join(names, ", "), strings.Join(refs, ", "), tagCoverage(prefix, digestOnly, "them"), why)
	if hub != nil {
		r.Object(hub, "OperatorHub cluster "+userPath(path)+": "+msg, path...)
		return
	}
	s := set.Site.Site
	r.At(s.Name, s.Positions.Of("cluster.connectivity"), "disconnected site without OperatorHub cluster: "+msg)
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
