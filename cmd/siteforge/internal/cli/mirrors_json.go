package cli

import (
	"fmt"

	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/registries"
)

// previewJSON is mirrors preview --format json: every cluster's
// registries.conf, written only when every one renders (as in text).
func previewJSON(e env, sets []mirrorSet) int {
	out := mirrorsPreviewJSON{SchemaVersion: jsonSchemaVersion, Clusters: []mirrorsPreviewConf{}}
	for _, s := range sets {
		c, b, ok := conf(e, s)
		if !ok {
			return ExitFailure
		}
		p := mirrorsPreviewConf{Cluster: diag.Clean(s.label), Path: platform.RegistriesConfPath, Written: c.Written, Content: string(b), Warnings: []string{}}
		for _, w := range c.Warnings {
			p.Warnings = append(p.Warnings, diag.Clean(fmt.Sprint(w)))
		}
		out.Clusters = append(out.Clusters, p)
	}
	return writeJSON(e, "mirrors preview", out)
}

// resolveJSON is mirrors resolve --format json; the exit code is text's.
func resolveJSON(e env, sets []mirrorSet, images []string, disconnected bool) int {
	out := mirrorsResolveJSON{SchemaVersion: jsonSchemaVersion, Clusters: []mirrorsResolveConf{}}
	code := ExitOK
	for _, s := range sets {
		_, b, ok := conf(e, s)
		if !ok {
			return ExitFailure
		}
		c := mirrorsResolveConf{Cluster: diag.Clean(s.label), Disconnected: disconnected || s.disconnected, Images: []mirrorsResolution{}}
		if s.cacheDropIn != nil {
			c.InClusterCache = diag.Clean(s.cacheHost)
		}
		for _, ref := range images {
			r, err := registries.Resolve(b, ref)
			if err != nil {
				fmt.Fprintf(e.stderr, "siteforge mirrors resolve: %s: %s\n", diag.Clean(ref), diag.Clean(err.Error()))
				return ExitFailure
			}
			j := resolutionJSON(r)
			if !j.SucceedsDisconnected && c.Disconnected {
				code = ExitFindings
			}
			if s.cacheDropIn != nil {
				after, err := registries.ResolveWithDropIn(b, s.cacheDropIn, ref)
				if err != nil {
					fmt.Fprintf(e.stderr, "siteforge mirrors resolve: %s: %s\n", diag.Clean(ref), diag.Clean(err.Error()))
					return ExitFailure
				}
				a := resolutionJSON(after)
				j.OnceCacheAnswers = &a
			}
			c.Images = append(c.Images, j)
		}
		out.Clusters = append(out.Clusters, c)
	}
	if writeJSON(e, "mirrors resolve", out) != ExitOK {
		return ExitFailure
	}
	return code
}
