package mirroring

import (
	configv1 "github.com/openshift/api/config/v1"
	operatorv1alpha1 "github.com/openshift/api/operator/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/siteforge/siteforge/internal/diag"
)

// mirrorSets is the day-2 mirror configuration: IDMS and ITMS from 4.13, an ICSP before.
// A nil object is not rendered.
type mirrorSets struct {
	idms *configv1.ImageDigestMirrorSet
	itms *configv1.ImageTagMirrorSet
	icsp *operatorv1alpha1.ImageContentSourcePolicy
	// digestOrigin and tagOrigin are the site fields behind each object.
	digestOrigin, tagOrigin []diag.Position
}

// buildMirrorSets renders the entries as one digest object and one tag object, entries in
// source order. legacy selects the pre-4.13 ICSP (digest entries only: ICSP cannot express tag
// mirroring, see legacytags.go).
func buildMirrorSets(entries []entry, legacy bool) mirrorSets {
	var out mirrorSets
	var digest []configv1.ImageDigestMirrors
	var tag []configv1.ImageTagMirrors
	var icsp []operatorv1alpha1.RepositoryDigestMirrors
	for _, e := range entries {
		if e.digest {
			out.digestOrigin = append(out.digestOrigin, e.origin...)
			if legacy {
				icsp = append(icsp, operatorv1alpha1.RepositoryDigestMirrors{Source: e.source, Mirrors: append([]string(nil), e.mirrors...)})
			} else {
				digest = append(digest, configv1.ImageDigestMirrors{Source: e.source, Mirrors: imageMirrors(e.mirrors), MirrorSourcePolicy: configv1.MirrorSourcePolicy(e.policy)})
			}
		}
		if e.tag && !legacy {
			out.tagOrigin = append(out.tagOrigin, e.origin...)
			tag = append(tag, configv1.ImageTagMirrors{Source: e.source, Mirrors: imageMirrors(e.mirrors), MirrorSourcePolicy: configv1.MirrorSourcePolicy(e.policy)})
		}
	}
	if len(digest) > 0 {
		out.idms = &configv1.ImageDigestMirrorSet{
			TypeMeta:   metav1.TypeMeta{APIVersion: configv1.GroupVersion.String(), Kind: "ImageDigestMirrorSet"},
			ObjectMeta: metav1.ObjectMeta{Name: digestMirrorSetName},
			Spec:       configv1.ImageDigestMirrorSetSpec{ImageDigestMirrors: digest},
		}
	}
	if len(tag) > 0 {
		out.itms = &configv1.ImageTagMirrorSet{
			TypeMeta:   metav1.TypeMeta{APIVersion: configv1.GroupVersion.String(), Kind: "ImageTagMirrorSet"},
			ObjectMeta: metav1.ObjectMeta{Name: tagMirrorSetName},
			Spec:       configv1.ImageTagMirrorSetSpec{ImageTagMirrors: tag},
		}
	}
	if len(icsp) > 0 {
		out.icsp = &operatorv1alpha1.ImageContentSourcePolicy{
			TypeMeta:   metav1.TypeMeta{APIVersion: operatorv1alpha1.GroupVersion.String(), Kind: "ImageContentSourcePolicy"},
			ObjectMeta: metav1.ObjectMeta{Name: digestMirrorSetName},
			Spec:       operatorv1alpha1.ImageContentSourcePolicySpec{RepositoryDigestMirrors: icsp},
		}
	}
	out.digestOrigin = diag.Unique(out.digestOrigin...)
	out.tagOrigin = diag.Unique(out.tagOrigin...)
	return out
}

func imageMirrors(ms []string) []configv1.ImageMirror {
	out := make([]configv1.ImageMirror, 0, len(ms))
	for _, m := range ms {
		out = append(out, configv1.ImageMirror(m))
	}
	return out
}
