package mirroring

import (
	configv1 "github.com/openshift/api/config/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/site"
)

// imageConfig returns the image.config.openshift.io "cluster" object when the site sets any of
// insecure/blocked/allowed registries or an additional trusted CA, else nil. Only the fields
// the site sets are rendered (see imageConfigObject).
func imageConfig(s *site.Site) (*configv1.Image, []diag.Position) {
	m := s.Mirroring
	if len(m.InsecureRegistries) == 0 && len(m.BlockedRegistries) == 0 && len(m.AllowedRegistries) == 0 && m.AdditionalTrustedCA == nil {
		return nil, nil
	}
	img := &configv1.Image{
		TypeMeta:   metav1.TypeMeta{APIVersion: configv1.GroupVersion.String(), Kind: "Image"},
		ObjectMeta: metav1.ObjectMeta{Name: platform.ConfigSingletonName},
		Spec: configv1.ImageSpec{RegistrySources: configv1.RegistrySources{
			InsecureRegistries: append([]string(nil), m.InsecureRegistries...),
			BlockedRegistries:  append([]string(nil), m.BlockedRegistries...),
			AllowedRegistries:  append([]string(nil), m.AllowedRegistries...),
		}},
	}
	var origin []diag.Position
	for path, set := range map[string]bool{
		"mirroring.insecureRegistries":  len(m.InsecureRegistries) > 0,
		"mirroring.blockedRegistries":   len(m.BlockedRegistries) > 0,
		"mirroring.allowedRegistries":   len(m.AllowedRegistries) > 0,
		"mirroring.additionalTrustedCA": m.AdditionalTrustedCA != nil,
	} {
		if set {
			origin = append(origin, s.Positions.Of(path))
		}
	}
	if m.AdditionalTrustedCA != nil {
		img.Spec.AdditionalTrustedCA = configv1.ConfigMapNameReference{Name: m.AdditionalTrustedCA.ConfigMap}
	}
	return img, sortPositions(diag.Unique(origin...))
}

// imageConfigObject is img as a map without the empty fields the typed struct always carries
// (additionalTrustedCA: {name: ""}, registrySources: {}, imageStreamImportMode: ""): applied
// as written, they would clear what the cluster already has there.
func imageConfigObject(img *configv1.Image) (map[string]any, error) {
	m, err := generators.ToMap(img)
	if err != nil {
		return nil, err
	}
	spec, _ := m["spec"].(map[string]any)
	if ca, _ := spec["additionalTrustedCA"].(map[string]any); ca != nil && ca["name"] == "" {
		delete(spec, "additionalTrustedCA")
	}
	if rs, _ := spec["registrySources"].(map[string]any); len(rs) == 0 {
		delete(spec, "registrySources")
	}
	if spec["imageStreamImportMode"] == "" {
		delete(spec, "imageStreamImportMode")
	}
	return m, nil
}
