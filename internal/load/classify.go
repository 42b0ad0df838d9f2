package load

import (
	"bytes"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/siteforge/siteforge/internal/fsread"
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
	return DeclaresSiteData(data)
}

// DeclaresSiteData is DeclaresSite of a YAML or JSON file's content.
func DeclaresSiteData(data []byte) bool { return bytes.Contains(data, []byte(schema.APIVersion)) }

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
	return IsFnConfigData(data)
}

// IsFnConfigData is IsFnConfig of a file's content.
func IsFnConfigData(data []byte) bool {
	return fnConfigKind.Match(data) || bytes.Contains(data, []byte(`"kind":"SiteRender"`)) || bytes.Contains(data, []byte(`"kind":"SiteLint"`)) ||
		bytes.Contains(data, []byte(`"kind": "SiteRender"`)) || bytes.Contains(data, []byte(`"kind": "SiteLint"`))
}

// notSiteInput reports, reading the file once, whether a file kept among
// site files is an exported schema or a kustomize function config.
func notSiteInput(file string) bool {
	data, err := fsread.File(file, MaxFileSize)
	if err != nil {
		return false // read (and reported) by the loader
	}
	if strings.EqualFold(filepath.Ext(file), ".cue") {
		return schemaDefinition.Match(data)
	}
	return DeclaresSiteData(data) && IsFnConfigData(data)
}
