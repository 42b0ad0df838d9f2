package mirroring

import (
	"maps"
	"slices"

	configv1 "github.com/openshift/api/config/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/site"
	"github.com/siteforge/siteforge/internal/upstream"
)

// catalogSources renders one CatalogSource per declared catalog. The image stays as declared:
// the catalog pod's node pulls it through the mirrors (by tag, hence the ITMS), so the upstream
// name is the right one.
func catalogSources(s *site.Site) []namedObject {
	var out []namedObject
	for _, name := range slices.Sorted(maps.Keys(s.Mirroring.Catalogs)) {
		c := s.Mirroring.Catalogs[name]
		path := fieldPath("mirroring", "catalogs", name)
		out = append(out, namedObject{
			kind: "CatalogSource",
			name: name,
			object: &upstream.CatalogSource{
				TypeMeta:   metav1.TypeMeta{APIVersion: manifests.GroupOperatorsCoreOS, Kind: "CatalogSource"},
				ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: platform.MarketplaceNamespace},
				Spec: upstream.CatalogSourceSpec{
					SourceType:  platform.CatalogSourceTypeGrpc,
					Image:       c.Image,
					DisplayName: c.DisplayName,
					Publisher:   c.Publisher,
				},
			},
			origin: []diag.Position{s.Positions.Of(path)},
		})
	}
	return out
}

// operatorHub disables the default catalog sources of a disconnected site: they pull
// registry.redhat.io/redhat/*-index by tag and can only fail there (installer pkg/asset/manifests; docs "Configuring image registry repository mirroring").
func operatorHub(s *site.Site) *namedObject {
	if !disconnected(s) {
		return nil
	}
	return &namedObject{
		kind: "OperatorHub",
		name: platform.ConfigSingletonName,
		object: &configv1.OperatorHub{
			TypeMeta:   metav1.TypeMeta{APIVersion: configv1.GroupVersion.String(), Kind: "OperatorHub"},
			ObjectMeta: metav1.ObjectMeta{Name: platform.ConfigSingletonName},
			Spec:       configv1.OperatorHubSpec{DisableAllDefaultSources: true},
		},
		origin: []diag.Position{s.Positions.Of("cluster.connectivity")},
	}
}
