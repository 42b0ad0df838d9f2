package ingress

import "github.com/siteforge/siteforge/internal/platform"

// Output paths (inside the site's output folder).
const (
	dir         = "ingress"
	defaultPath = dir + "/" + platform.IngressDefaultManifestName
)
