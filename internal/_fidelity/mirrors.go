package fidelity

import (
	"fmt"
	"regexp"
	"sync"

	configv1 "github.com/openshift/api/config/v1"
)

// Per-object rules of MCO's ContainerRuntimeConfig controller (validateRegistriesConfScopes,
// pkg/controller/container-runtime-config/helpers.go). When they fail MCO renders no
// registries.conf at all and the error only shows in the machine-config-controller log. Rules that
// span several objects (conflicting policies for one source) are the registries engine's job.

// mirrorPatterns are MCO's sourceRegex and mirrorRegex, which MCO keeps "the same as openshift/api"
// and applies to ICSP because the ICSP CRD has no pattern. They are read from the embedded IDMS
// CRD so they follow the pinned openshift/api.
var mirrorPatterns = sync.OnceValues(func() (source, mirror *regexp.Regexp) {
	k := lookup(configv1.GroupVersion.WithKind("ImageDigestMirrorSet"))
	c, err := k.crd()
	if err != nil {
		panic(fmt.Sprintf("fidelity: IDMS CRD: %v", err))
	}
	entry := c.structural.Properties["spec"].Properties["imageDigestMirrors"].Items
	src := entry.Properties["source"].ValueValidation
	mir := entry.Properties["mirrors"].Items.ValueValidation
	if src == nil || mir == nil || src.Pattern == "" || mir.Pattern == "" {
		panic("fidelity: the IDMS CRD no longer has source/mirror patterns")
	}
	return regexp.MustCompile(src.Pattern), regexp.MustCompile(mir.Pattern)
})

// checkICSPFormats: MCO's "invalid format for source/mirror" for ImageContentSourcePolicy.
func checkICSPFormats(obj map[string]any) []Problem {
	source, mirror := mirrorPatterns()
	var ps []Problem
	forEachMirrorEntry(obj, "repositoryDigestMirrors", func(path, src, _ string, mirrors []string) {
		if !source.MatchString(src) {
			ps = append(ps, Problem{StageKindRule, path + ".source",
				fmt.Sprintf("invalid format for source %q: MCO renders no registries.conf (the ICSP CRD does not check it)", src)})
		}
		for j, m := range mirrors {
			if !mirror.MatchString(m) {
				ps = append(ps, Problem{StageKindRule, fmt.Sprintf("%s.mirrors[%d]", path, j),
					fmt.Sprintf("invalid format for mirror %q: MCO renders no registries.conf (the ICSP CRD does not check it)", m)})
			}
		}
	})
	return ps
}

// checkNeverContactSource returns the rule for an IDMS/ITMS list field: NeverContactSource is
// refused when the source is also one of its mirrors.
func checkNeverContactSource(list string) kindRule {
	return func(obj map[string]any) []Problem {
		var ps []Problem
		forEachMirrorEntry(obj, list, func(path, src, policy string, mirrors []string) {
			if policy != string(configv1.NeverContactSource) {
				return
			}
			for j, m := range mirrors {
				if m == src {
					ps = append(ps, Problem{StageKindRule, fmt.Sprintf("%s.mirrors[%d]", path, j),
						fmt.Sprintf("cannot set mirrorSourcePolicy: NeverContactSource if the source %q is one of the mirrors (MCO renders no registries.conf)", src)})
				}
			}
		})
		return ps
	}
}

func forEachMirrorEntry(obj map[string]any, list string, fn func(path, source, policy string, mirrors []string)) {
	spec, _ := obj["spec"].(map[string]any)
	entries, _ := spec[list].([]any)
	for i, e := range entries {
		entry, _ := e.(map[string]any)
		src, _ := entry["source"].(string)
		policy, _ := entry["mirrorSourcePolicy"].(string)
		var mirrors []string
		ms, _ := entry["mirrors"].([]any)
		for _, m := range ms {
			s, _ := m.(string)
			mirrors = append(mirrors, s)
		}
		fn(fmt.Sprintf("spec.%s[%d]", list, i), src, policy, mirrors)
	}
}
