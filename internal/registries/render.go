package registries

import (
	"fmt"
	"sort"

	configv1 "github.com/openshift/api/config/v1"
	operatorv1alpha1 "github.com/openshift/api/operator/v1alpha1"

	"github.com/siteforge/siteforge/internal/platform"
)

// Input is everything MCO reads to render registries.conf. Object order does not matter
// (MCO lists them from an informer cache; the engine sorts them by name).
type Input struct {
	DigestMirrorSets      []configv1.ImageDigestMirrorSet
	TagMirrorSets         []configv1.ImageTagMirrorSet
	ContentSourcePolicies []operatorv1alpha1.ImageContentSourcePolicy
	// Image is the image.config.openshift.io "cluster" object; nil is an empty spec (a real
	// cluster always has it; MCO does nothing at all without it).
	Image *configv1.Image
	// ReleaseImage is the release payload pull spec (ClusterVersion status.desired.image). When
	// set, blocked scopes covering the payload repository follow MCO's payload rule; when empty
	// the rule is skipped (MCO would refuse to render).
	ReleaseImage string
	// Minor is the OpenShift 4.<Minor> whose MCO is reproduced: 1..12 is the ICSP-only
	// behaviour (IDMS/ITMS ignored, `mirror-by-digest-only = true`), 0 means the latest.
	Minor int
}

// legacy reports whether in.Minor selects the pre-IDMS (<= 4.12) behaviour.
func (in Input) legacy() bool { return in.Minor > 0 && in.Minor < int(platform.IDMSITMSSince) }

// writesLayerStoreHelper reports whether MCO's encoder writes additional-layer-store-auth-helper.
func (in Input) writesLayerStoreHelper() bool {
	return in.Minor <= 0 || in.Minor >= int(platform.AdditionalLayerStoreAuthHelperSince)
}

func (in Input) registrySources() configv1.RegistrySources {
	if in.Image == nil {
		return configv1.RegistrySources{}
	}
	return in.Image.Spec.RegistrySources
}

// objects is Input with its objects sorted by name, and IDMS/ITMS dropped in legacy mode.
type objects struct {
	idms []configv1.ImageDigestMirrorSet
	itms []configv1.ImageTagMirrorSet
	icsp []operatorv1alpha1.ImageContentSourcePolicy
}

func sortedObjects(in Input) objects {
	o := objects{
		icsp: append([]operatorv1alpha1.ImageContentSourcePolicy(nil), in.ContentSourcePolicies...),
	}
	if !in.legacy() {
		o.idms = append([]configv1.ImageDigestMirrorSet(nil), in.DigestMirrorSets...)
		o.itms = append([]configv1.ImageTagMirrorSet(nil), in.TagMirrorSets...)
	}
	sort.SliceStable(o.idms, func(i, j int) bool { return o.idms[i].Name < o.idms[j].Name })
	sort.SliceStable(o.itms, func(i, j int) bool { return o.itms[i].Name < o.itms[j].Name })
	sort.SliceStable(o.icsp, func(i, j int) bool { return o.icsp[i].Name < o.icsp[j].Name })
	return o
}

// digestEntries lists IDMS entries then ICSP entries (as AllowContactingSource), MCO's order.
func (o objects) digestEntries() []policyEntry {
	var entries []policyEntry
	for _, idms := range o.idms {
		for _, e := range idms.Spec.ImageDigestMirrors {
			entries = append(entries, policyEntry{source: e.Source, mirrors: imageMirrors(e.Mirrors), policy: e.MirrorSourcePolicy})
		}
	}
	for _, icsp := range o.icsp {
		for _, e := range icsp.Spec.RepositoryDigestMirrors {
			entries = append(entries, policyEntry{source: e.Source, mirrors: append([]string(nil), e.Mirrors...)})
		}
	}
	return entries
}

func (o objects) tagEntries() []policyEntry {
	var entries []policyEntry
	for _, itms := range o.itms {
		for _, e := range itms.Spec.ImageTagMirrors {
			entries = append(entries, policyEntry{source: e.Source, mirrors: imageMirrors(e.Mirrors), policy: e.MirrorSourcePolicy})
		}
	}
	return entries
}

func (o objects) empty() bool { return len(o.idms) == 0 && len(o.itms) == 0 && len(o.icsp) == 0 }

func imageMirrors(ms []configv1.ImageMirror) []string {
	out := make([]string, 0, len(ms))
	for _, m := range ms {
		out = append(out, string(m))
	}
	return out
}

func merge(entries []policyEntry) []mergedSource {
	raw := make([]mirrorEntry, 0, len(entries))
	for _, e := range entries {
		raw = append(raw, mirrorEntry{source: e.source, mirrors: e.mirrors, neverContactSource: e.policy == configv1.NeverContactSource})
	}
	return mergeMirrorEntries(raw)
}

// Render reproduces MCO's registries.conf for in. An error means MCO refuses to render
// (it logs the error and the previous MachineConfig stays); its text is MCO's.
func Render(in Input) (*Config, error) {
	objs := sortedObjects(in)
	sources := in.registrySources()

	lists, err := applyPayloadRule(in, objs, sources)
	if err != nil {
		return nil, err
	}
	cfg := templateConfig()
	if in.legacy() && (len(in.DigestMirrorSets) != 0 || len(in.TagMirrorSets) != 0) {
		cfg.Warnings = append(cfg.Warnings, fmt.Errorf("%w: the %s MCO ignores them", ErrMirrorSetsUnsupported, platform.OCPMinor(in.Minor)))
	}
	cfg.Warnings = append(cfg.Warnings, lists.warnings...)

	if writes(objs, sources.InsecureRegistries, lists.registries) {
		regs, err := renderTables(in, objs, sources.InsecureRegistries, lists.registries)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", registriesUpdateContext, err)
		}
		empty := ""
		cfg.ShortNameMode = &empty
		if in.writesLayerStoreHelper() {
			cfg.AdditionalLayerStoreAuthHelper = &empty
		}
		cfg.Registries = regs
		cfg.Written = true
	}

	if lists.policy != nil || lists.allowed != nil {
		if err := validatePolicyLists(lists.policy, lists.allowed, lists.payloadRepo); err != nil {
			return nil, fmt.Errorf("%s: %w", policyUpdateContext, err)
		}
	}
	return cfg, nil
}

// renderTables validates and builds the tables. Mirrors MCO helpers.go updateRegistriesConfig.
func renderTables(in Input, objs objects, insecure, blocked []string) ([]Registry, error) {
	if err := validateRegistryScopes(insecure, blocked, nil); err != nil {
		return nil, err
	}
	digest, tag := objs.digestEntries(), objs.tagEntries()
	if !in.legacy() {
		if err := validateMirrorEntries(append(append([]policyEntry(nil), digest...), tag...)); err != nil {
			return nil, err
		}
	}
	return buildTables(editInput{
		insecure: insecure,
		blocked:  blocked,
		digest:   merge(digest),
		tag:      merge(tag),
		legacy:   in.legacy(),
	})
}

// writes is MCO's condition for writing registries.conf: some IDMS/ITMS/ICSP object exists
// (even an empty one), or the image config's insecure list is set, or a blocked scope
// survives the payload rule. Mirrors MCO registriesConfigIgnition.
func writes(objs objects, insecure, blocked []string) bool {
	return insecure != nil || blocked != nil || !objs.empty()
}

// WrittenByMCO reports whether MCO manages /etc/containers/registries.conf for in (its write
// condition, before validation: a render error keeps the previous file). When false the
// node keeps the template (only unqualified-search-registries) and a MachineConfig written
// by hand is the only other source of the file.
func WrittenByMCO(in Input) bool {
	objs := sortedObjects(in)
	sources := in.registrySources()
	lists, err := applyPayloadRule(in, objs, sources)
	if err != nil {
		return false
	}
	return writes(objs, sources.InsecureRegistries, lists.registries)
}
