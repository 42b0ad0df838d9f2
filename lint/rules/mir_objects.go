package rules

import (
	"errors"
	"fmt"
	"strconv"

	configv1 "github.com/openshift/api/config/v1"
	operatorv1alpha1 "github.com/openshift/api/operator/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/registries"
	"github.com/siteforge/siteforge/lint"
)

// ---------------------------------------------------------------------------------------------
// Reading the mirror objects of a set.

// entryKind is the object kind an entry comes from.
type entryKind int

const (
	digestSet     entryKind = iota // ImageDigestMirrorSet
	contentPolicy                  // ImageContentSourcePolicy (digest mirrors)
	tagSet                         // ImageTagMirrorSet
)

// mirrorEntry is one source -> mirrors entry of an IDMS, ITMS or ICSP, with where it is written.
type mirrorEntry struct {
	obj     *manifests.Object
	kind    entryKind
	index   int
	source  string
	mirrors []string
	policy  configv1.MirrorSourcePolicy
	// origin is the install-config field the entry comes from, when obj is an object the installer
	// creates from it (manifests.MirrorSet.Installer); nil otherwise.
	origin *manifests.InstallerOrigin
}

func (e *mirrorEntry) list() string {
	switch e.kind {
	case digestSet:
		return "imageDigestMirrors"
	case tagSet:
		return "imageTagMirrors"
	}
	return "repositoryDigestMirrors"
}

// path is the field path of the entry, or of a field inside it.
func (e *mirrorEntry) path(field ...string) []string {
	return append([]string{"spec", e.list(), strconv.Itoa(e.index)}, field...)
}

// where names the object and field for messages: for an object the installer creates, the
// install-config field it comes from.
func (e *mirrorEntry) where(field ...string) string {
	if e.origin != nil {
		return fmt.Sprintf("install-config %s (%s, which the installer creates from it)", userPath(e.origin.Path(e.index, field...)), e.obj.ID())
	}
	return e.obj.ID() + " " + userPath(e.path(field...))
}

// digest reports whether the entry mirrors digest pulls (IDMS, ICSP) rather than tag pulls.
func (e *mirrorEntry) digest() bool { return e.kind != tagSet }

// realMirrors reports whether the entry names a mirror other than its source (else MCO ignores it).
func (e *mirrorEntry) realMirrors() bool {
	for _, m := range e.mirrors {
		if m != e.source {
			return true
		}
	}
	return false
}

func (e *mirrorEntry) effectivePolicy() configv1.MirrorSourcePolicy {
	if e.policy == "" {
		return configv1.AllowContactingSource
	}
	return e.policy
}

func pullKind(digest bool) string {
	if digest {
		return "digest"
	}
	return "tag"
}

// userPath writes a field path the way users read it: spec.imageDigestMirrors[0].mirrors[1].
func userPath(path []string) string { return manifests.UserPath(path) }

// mirrorObjects is what a set holds for registries.conf: the mirror entries in MCO's order (IDMS,
// then ICSP, then ITMS, each kind by object name), the image config, the release image.
type mirrorObjects struct {
	set     lint.Set
	minor   int
	entries []*mirrorEntry
	// full is every mirror object and the image config as given (MCO's input).
	full     registries.Input
	imageObj *manifests.Object // image.config.openshift.io "cluster", nil when absent
	// imageSpec is image's decoded content (empty when absent).
	imageSpec configv1.Image
	// release is the release image when known, and where it comes from.
	release, releaseFrom string
	// rejected are the install-config mirror entries the installer refuses.
	rejected []manifests.InstallerRejection
}

// readMirrorObjects reads the set's mirror objects (manifests.ReadMirrors) leniently: a field the
// API does not know is left to the API server; what the platform does with the rest is still checked.
// Computed once per set: shared by the rules, never changed.
func readMirrorObjects(set lint.Set) *mirrorObjects {
	return lint.Fact(set, factMirrorObjects, func() *mirrorObjects { return newMirrorObjects(set) })
}

func newMirrorObjects(set lint.Set) *mirrorObjects {
	m := &mirrorObjects{set: set, minor: int(set.Minor)}
	ms := manifests.ReadMirrors(set.Objects)
	m.rejected = ms.InstallerRejected
	origin := func(o *manifests.Object) *manifests.InstallerOrigin {
		if org, ok := ms.Installer[o]; ok {
			return &org
		}
		return nil
	}
	for _, x := range ms.DigestSets {
		for i, e := range x.Spec.Spec.ImageDigestMirrors {
			m.entries = append(m.entries, &mirrorEntry{obj: x.Obj, kind: digestSet, index: i, source: e.Source, mirrors: mirrorStrings(e.Mirrors), policy: e.MirrorSourcePolicy, origin: origin(x.Obj)})
		}
	}
	for _, x := range ms.ContentPolicies {
		for i, e := range x.Spec.Spec.RepositoryDigestMirrors {
			m.entries = append(m.entries, &mirrorEntry{obj: x.Obj, kind: contentPolicy, index: i, source: e.Source, mirrors: append([]string(nil), e.Mirrors...), origin: origin(x.Obj)})
		}
	}
	for _, x := range ms.TagSets {
		for i, e := range x.Spec.Spec.ImageTagMirrors {
			m.entries = append(m.entries, &mirrorEntry{obj: x.Obj, kind: tagSet, index: i, source: e.Source, mirrors: mirrorStrings(e.Mirrors), policy: e.MirrorSourcePolicy})
		}
	}
	if ms.Image != nil {
		m.imageObj, m.imageSpec = ms.Image.Obj, ms.Image.Spec
	}
	m.release, m.releaseFrom = set.ReleaseImage, set.ReleaseImageFrom
	if m.release != "" {
		if _, err := registries.Render(registries.Input{ReleaseImage: m.release, Minor: m.minor}); errors.Is(err, registries.ErrReleaseImage) {
			m.release, m.releaseFrom = "", ""
		}
	}
	m.full = ms.Input(m.minor, m.release)
	return m
}

func mirrorStrings(ms []configv1.ImageMirror) []string {
	out := make([]string, 0, len(ms))
	for _, m := range ms {
		out = append(out, string(m))
	}
	return out
}

// legacy reports whether the set targets a release before IDMS/ITMS (MCO ignores them there).
func (m *mirrorObjects) legacy() bool { return m.minor > 0 && m.minor < int(platform.IDMSITMSSince) }

// effective reports whether MCO of the set's release reads the entry at all.
func (m *mirrorObjects) effective(e *mirrorEntry) bool { return !m.legacy() || e.kind == contentPolicy }

// input builds the engine input from entries (in the given order, which the engine keeps: each
// entry becomes an object of its own, named by its position) and an image config.
func (m *mirrorObjects) input(entries []*mirrorEntry, image *configv1.Image) registries.Input {
	in := registries.Input{Image: image, Minor: m.minor, ReleaseImage: m.release}
	for seq, e := range entries {
		meta := metav1.ObjectMeta{Name: fmt.Sprintf("%06d", seq)}
		switch e.kind {
		case digestSet:
			in.DigestMirrorSets = append(in.DigestMirrorSets, configv1.ImageDigestMirrorSet{ObjectMeta: meta,
				Spec: configv1.ImageDigestMirrorSetSpec{ImageDigestMirrors: []configv1.ImageDigestMirrors{{Source: e.source, Mirrors: imageMirrors(e.mirrors), MirrorSourcePolicy: e.policy}}}})
		case tagSet:
			in.TagMirrorSets = append(in.TagMirrorSets, configv1.ImageTagMirrorSet{ObjectMeta: meta,
				Spec: configv1.ImageTagMirrorSetSpec{ImageTagMirrors: []configv1.ImageTagMirrors{{Source: e.source, Mirrors: imageMirrors(e.mirrors), MirrorSourcePolicy: e.policy}}}})
		default:
			in.ContentSourcePolicies = append(in.ContentSourcePolicies, operatorv1alpha1.ImageContentSourcePolicy{ObjectMeta: meta,
				Spec: operatorv1alpha1.ImageContentSourcePolicySpec{RepositoryDigestMirrors: []operatorv1alpha1.RepositoryDigestMirrors{{Source: e.source, Mirrors: append([]string(nil), e.mirrors...)}}}})
		}
	}
	return in
}

func imageMirrors(ms []string) []configv1.ImageMirror {
	out := make([]configv1.ImageMirror, 0, len(ms))
	for _, m := range ms {
		out = append(out, configv1.ImageMirror(m))
	}
	return out
}
