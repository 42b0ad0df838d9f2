package load

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/fsread"
	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/schema"
)

// IsFleet reports whether dir is a fleet: it holds a sites/ folder, one
// folder per site.
func IsFleet(dir string) bool { return isDir(filepath.Join(dir, fleetSitesDir)) }

// DeclaresSite reports whether a YAML or JSON file declares the site API
// version (siteforge.dev/v1alpha1); a CUE file is always a site input.
func DeclaresSite(file string) bool {
	if strings.EqualFold(filepath.Ext(file), ".cue") {
		return true
	}
	data, err := fsread.File(file, MaxFileSize)
	if err != nil {
		return false // read (and reported) as a manifest
	}
	return bytes.Contains(data, []byte(schema.APIVersion))
}

// schemaDefinition starts the #Site definition in the schema siteforge
// exports (`siteforge schema > siteforge.cue`); a site never defines it.
var schemaDefinition = regexp.MustCompile(`(?m)^#Site:\s*\{`)

// IsSchemaExport reports whether a CUE file is the siteforge schema itself
// (exported for `cue vet`), not a site input.
func IsSchemaExport(file string) bool {
	if !strings.EqualFold(filepath.Ext(file), ".cue") {
		return false
	}
	data, err := fsread.File(file, MaxFileSize)
	return err == nil && schemaDefinition.Match(data)
}

// fnConfigKind matches the kinds of siteforge's kustomize function configs.
var fnConfigKind = regexp.MustCompile(`(?m)^kind:\s*["']?(SiteRender|SiteLint)["']?\s*(#.*)?$`)

// IsFnConfig reports whether a YAML or JSON file declaring the site API
// version is a kustomize function config (kind SiteRender or SiteLint, the
// KRM function's own input), not a site.
func IsFnConfig(file string) bool {
	data, err := fsread.File(file, MaxFileSize)
	if err != nil {
		return false
	}
	return fnConfigKind.Match(data) || bytes.Contains(data, []byte(`"kind":"SiteRender"`)) || bytes.Contains(data, []byte(`"kind":"SiteLint"`)) ||
		bytes.Contains(data, []byte(`"kind": "SiteRender"`)) || bytes.Contains(data, []byte(`"kind": "SiteLint"`))
}

// Classify splits a path a user names into site inputs (for Discover) and
// manifest files. A file is a site when it is CUE or declares the site API
// version, else a manifest. A folder is walked: a fleet is a site input (its
// own site files are the fleet defaults), a folder holding .cue files is one
// site (its site files unified, as vet does), a YAML or JSON file declaring
// the site API version is a site, and everything else YAML or JSON is
// manifests, read everywhere else in the tree (a repository root can hold a
// fleet and plain manifests side by side). Hidden entries are skipped. The
// one way siteforge tells sites from manifests (lint, mirrors).
func Classify(root string) (sites, files []string, diags diag.List) {
	fi, err := os.Stat(root)
	if err != nil {
		return nil, nil, diag.List{{Pos: diag.Position{File: root}, Message: "cannot read: " + describeErr(err)}}
	}
	if !fi.IsDir() {
		if IsSchemaExport(root) || IsSiteFile(root) && DeclaresSite(root) && IsFnConfig(root) {
			return nil, nil, nil
		}
		if IsSiteFile(root) && DeclaresSite(root) {
			return []string{root}, nil, nil
		}
		return nil, []string{root}, nil
	}
	var walk func(dir string) error
	walk = func(dir string) error {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return err
		}
		fleet := IsFleet(dir)
		cueSite := false
		for _, e := range entries {
			if !e.IsDir() && strings.EqualFold(filepath.Ext(e.Name()), ".cue") && !IsSchemaExport(filepath.Join(dir, e.Name())) {
				cueSite = true
			}
		}
		if fleet || cueSite {
			sites = append(sites, dir)
		}
		for _, e := range entries {
			name := e.Name()
			p := filepath.Join(dir, name)
			switch {
			case strings.HasPrefix(name, "."):
			case e.IsDir():
				if fleet && name == fleetSitesDir {
					continue // the fleet's sites
				}
				if err := walk(p); err != nil {
					return err
				}
			case fleet || cueSite:
				// the site's own files are site inputs; nothing else here
				// is read
			case IsSchemaExport(p), IsSiteFile(p) && DeclaresSite(p) && IsFnConfig(p):
				// not a site, not a manifest
			case IsSiteFile(p) && DeclaresSite(p):
				sites = append(sites, p)
			case IsSiteFile(p):
				files = append(files, p)
			case manifests.IsRegistriesConf(p): // i14-mir: registries.conf files are read too (manifests/registriesconf.go)
				files = append(files, p)
			}
		}
		return nil
	}
	if err := walk(root); err != nil {
		diags = append(diags, diag.Diagnostic{Pos: diag.Position{File: root}, Message: "cannot read directory: " + describeErr(err)})
	}
	sort.Strings(sites)
	sort.Strings(files)
	return sites, files, diags
}
