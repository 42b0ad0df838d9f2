package load

import (
	"fmt"

	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/site"
	"github.com/siteforge/siteforge/internal/suggest"
)

// expandDefaultCatalogs turns mirroring.defaultCatalogs into catalogs: each
// named default source of OperatorHub (platform.DefaultCatalogs) at the
// site's release, positioned at its entry, so every generator and check
// sees one kind of catalog.
func expandDefaultCatalogs(s *site.Site) diag.List {
	m := s.Mirroring
	if m == nil || len(m.DefaultCatalogs) == 0 {
		return nil
	}
	minor, err := s.Minor()
	if err != nil {
		return nil // cluster.version is reported by the schema
	}
	var out diag.List
	for i, name := range m.DefaultCatalogs {
		path := site.FieldPath("mirroring", "defaultCatalogs", i)
		c, ok := platform.DefaultCatalogNamed(name)
		if !ok {
			out = append(out, s.At(path, fmt.Sprintf("%q is not a default catalog", name), suggest.Hint(name, platform.DefaultCatalogNames(), "default catalogs")))
			continue
		}
		if _, dup := m.Catalogs[name]; dup {
			out = append(out, s.At(path, fmt.Sprintf("catalog %q is listed in defaultCatalogs and in catalogs", name),
				"keep one: defaultCatalogs for the default source at the site's release, catalogs for an image of your own"))
			continue
		}
		if m.Catalogs == nil {
			m.Catalogs = map[string]site.Catalog{}
		}
		m.Catalogs[name] = site.Catalog{Image: c.Index + ":" + platform.DefaultCatalogTag(minor), DisplayName: c.DisplayName, Publisher: c.Publisher}
		pos := s.Positions.Of(path)
		for _, p := range []string{site.FieldPath("mirroring", "catalogs", name), site.FieldPath("mirroring", "catalogs", name, "image")} {
			if _, set := s.Positions[p]; !set {
				s.Positions[p] = pos
			}
		}
	}
	return out
}
