package mirroring

import (
	"bytes"
	"fmt"

	"github.com/pelletier/go-toml/v2"

	operatorv1alpha1 "github.com/openshift/api/operator/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/registries"
)

// Before 4.13 there is no ImageTagMirrorSet and an ICSP only ever mirrors digests (MCO writes
// `mirror-by-digest-only = true` on every ICSP source). The only way to mirror tags is to
// write /etc/containers/registries.conf with a MachineConfig of one's own, and that file then
// REPLACES MCO's "99-<pool>-generated-registries" one: whichever MachineConfig sorts last by
// name wins the path (see platform.SiteforgeTagMachineConfigNameFormat). So the
// hand-written file must be MCO's file plus the tag mirroring, never less, or the ICSP mirrors
// and the image.config settings silently disappear from the nodes.

// legacyTagSourcesPolicy is the name of the scratch ICSP that lets the engine build the tables
// of tag-only sources. It is never rendered as an object.
const legacyTagSourcesPolicy = "siteforge-legacy-tag-sources"

// legacyTagRegistriesConf is the registries.conf the pre-4.13 tag MachineConfig writes: what
// MCO renders from the site's ICSP and image config (the engine, in its <= 4.12 mode), with the
// tag-only sources added as if they were ICSP sources, then `mirror-by-digest-only = false` on
// every table whose nearest mirrored source is tag-mirrored. It returns nil when no source is
// tag-mirrored.
func legacyTagRegistriesConf(in registries.Input, entries []entry) (*registries.Config, error) {
	tagSources := map[string]bool{}
	digestSources := map[string]bool{}
	var extra []operatorv1alpha1.RepositoryDigestMirrors
	for _, e := range entries {
		if e.digest {
			digestSources[e.source] = true
		}
	}
	for _, e := range entries {
		if !e.tag {
			continue
		}
		tagSources[e.source] = true
		if !digestSources[e.source] {
			extra = append(extra, operatorv1alpha1.RepositoryDigestMirrors{Source: e.source, Mirrors: append([]string(nil), e.mirrors...)})
		}
	}
	if len(tagSources) == 0 {
		return nil, nil
	}
	if len(extra) > 0 {
		in.ContentSourcePolicies = append(append([]operatorv1alpha1.ImageContentSourcePolicy(nil), in.ContentSourcePolicies...),
			operatorv1alpha1.ImageContentSourcePolicy{
				ObjectMeta: metav1.ObjectMeta{Name: legacyTagSourcesPolicy},
				Spec:       operatorv1alpha1.ImageContentSourcePolicySpec{RepositoryDigestMirrors: extra},
			})
	}
	cfg, err := registries.Render(in)
	if err != nil {
		return nil, err
	}
	if !cfg.Written {
		return nil, fmt.Errorf("internal error: MCO writes no registries.conf for %d mirrored sources", len(tagSources)+len(digestSources))
	}
	for i := range cfg.Registries {
		reg := &cfg.Registries[i]
		if len(reg.Mirrors) == 0 {
			continue
		}
		if nearest := nearestSource(reg.Scope(), tagSources, digestSources); tagSources[nearest] {
			reg.MirrorByDigestOnly = false
		}
	}
	return cfg, nil
}

// nearestSource returns the longest mirrored source containing scope ("" when none).
func nearestSource(scope string, sets ...map[string]bool) string {
	best := ""
	for _, set := range sets {
		for src := range set {
			if scopeContains(src, scope) && len(src) > len(best) {
				best = src
			}
		}
	}
	return best
}

// legacyTagMachineConfigName names the tag MachineConfig of a built-in pool.
func legacyTagMachineConfigName(pool string) string {
	return fmt.Sprintf(platform.SiteforgeTagMachineConfigNameFormat, pool)
}

// legacyConf is registries.Config as the hand-written file encodes it: the same keys, plus an
// explicit `mirror-by-digest-only` on every mirrored table (false on the tag-mirrored ones), so
// a reader of the MachineConfig sees the one difference from MCO's file.
type legacyConf struct {
	UnqualifiedSearchRegistries    []string         `toml:"unqualified-search-registries"`
	ShortNameMode                  *string          `toml:"short-name-mode,omitempty"`
	AdditionalLayerStoreAuthHelper *string          `toml:"additional-layer-store-auth-helper,omitempty"`
	Registries                     []legacyRegistry `toml:"registry,omitempty"`
}

type legacyRegistry struct {
	Prefix             string              `toml:"prefix"`
	Location           string              `toml:"location,omitempty"`
	Insecure           bool                `toml:"insecure,omitempty"`
	Blocked            bool                `toml:"blocked,omitempty"`
	MirrorByDigestOnly *bool               `toml:"mirror-by-digest-only,omitempty"`
	Mirrors            []registries.Mirror `toml:"mirror,omitempty"`
}

// legacyTOML encodes cfg like registries.Config.TOML, with mirror-by-digest-only explicit.
func legacyTOML(cfg *registries.Config) ([]byte, error) {
	out := legacyConf{
		UnqualifiedSearchRegistries:    cfg.UnqualifiedSearchRegistries,
		ShortNameMode:                  cfg.ShortNameMode,
		AdditionalLayerStoreAuthHelper: cfg.AdditionalLayerStoreAuthHelper,
	}
	for _, r := range cfg.Registries {
		lr := legacyRegistry{Prefix: r.Prefix, Location: r.Location, Insecure: r.Insecure, Blocked: r.Blocked, Mirrors: r.Mirrors}
		if len(r.Mirrors) > 0 {
			v := r.MirrorByDigestOnly
			lr.MirrorByDigestOnly = &v
		}
		out.Registries = append(out.Registries, lr)
	}
	var buf bytes.Buffer
	enc := toml.NewEncoder(&buf)
	enc.SetIndentTables(true)
	enc.SetIndentSymbol("  ")
	if err := enc.Encode(out); err != nil {
		return nil, fmt.Errorf("encode registries.conf: %w", err)
	}
	return buf.Bytes(), nil
}
