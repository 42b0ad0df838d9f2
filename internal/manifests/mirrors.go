package manifests

import (
	"fmt"

	configv1 "github.com/openshift/api/config/v1"
	operatorv1alpha1 "github.com/openshift/api/operator/v1alpha1"

	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/registries"
)

// The kinds MCO reads to render registries.conf.
const (
	GroupConfig           = "config.openshift.io/v1"
	GroupOperatorV1Alpha1 = "operator.openshift.io/v1alpha1"
)

// RegistriesInput collects, from a set of objects, everything MCO reads to
// render registries.conf: ImageDigestMirrorSets, ImageTagMirrorSets,
// ImageContentSourcePolicies and the image.config.openshift.io "cluster"
// object. Other objects are ignored. A mirror object that does not decode is
// a diagnostic at its position.
func RegistriesInput(objs []*Object, minor int) (registries.Input, diag.List) {
	in := registries.Input{Minor: minor}
	var diags diag.List
	decode := func(o *Object, into any) bool {
		if err := o.Decode(into); err != nil {
			diags = append(diags, diag.Diagnostic{Pos: o.Pos(), Message: fmt.Sprintf("%s does not decode: %v", o.ID(), err)})
			return false
		}
		return true
	}
	for _, o := range objs {
		switch {
		case o.APIVersion == GroupConfig && o.Kind == "ImageDigestMirrorSet":
			var x configv1.ImageDigestMirrorSet
			if decode(o, &x) {
				in.DigestMirrorSets = append(in.DigestMirrorSets, x)
			}
		case o.APIVersion == GroupConfig && o.Kind == "ImageTagMirrorSet":
			var x configv1.ImageTagMirrorSet
			if decode(o, &x) {
				in.TagMirrorSets = append(in.TagMirrorSets, x)
			}
		case o.APIVersion == GroupOperatorV1Alpha1 && o.Kind == "ImageContentSourcePolicy":
			var x operatorv1alpha1.ImageContentSourcePolicy
			if decode(o, &x) {
				in.ContentSourcePolicies = append(in.ContentSourcePolicies, x)
			}
		case o.APIVersion == GroupConfig && o.Kind == "Image" && o.Name == "cluster":
			var x configv1.Image
			if decode(o, &x) {
				in.Image = &x
			}
		}
	}
	return in, diags
}
