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
		files, ok := nodeFiles(e, s)
		if !ok {
			return ExitFailure
		}
		for _, f := range files {
			p := mirrorsPreviewConf{Cluster: diag.Clean(s.label), Path: platform.RegistriesConfPath, Written: f.conf.Written, Content: string(f.data), Warnings: []string{}}
			p.Pools, p.RenderedConfigs = cleanAll(f.pools), cleanAll(f.configs)
			for _, w := range f.conf.Warnings {
				p.Warnings = append(p.Warnings, diag.Clean(fmt.Sprint(w)))
			}
			out.Clusters = append(out.Clusters, p)
		}
	}
	return writeJSON(e, "mirrors preview", out)
}

// resolveJSON is mirrors resolve --format json; the exit code is text's.
func resolveJSON(e env, sets []mirrorSet, images []string, disconnected bool) int {
	out := mirrorsResolveJSON{SchemaVersion: jsonSchemaVersion, Clusters: []mirrorsResolveConf{}}
	code := ExitOK
	for _, f := range flatFiles(e, sets) {
		if f == nil {
			return ExitFailure
		}
		s, b := f.set, f.data
		c := mirrorsResolveConf{Cluster: diag.Clean(s.label), Disconnected: disconnected || s.disconnected, Images: []mirrorsResolution{}}
		c.Pools, c.RenderedConfigs = cleanAll(f.pools), cleanAll(f.configs)
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

// flatFiles are every set's registries.conf files (nodeFiles), in order;
// the last is nil when a set's cannot be read (its error printed).
func flatFiles(e env, sets []mirrorSet) []*nodeFile {
	var out []*nodeFile
	for _, s := range sets {
		files, ok := nodeFiles(e, s)
		if !ok {
			return append(out, nil)
		}
		for i := range files {
			out = append(out, &files[i])
		}
	}
	return out
}

// cleanAll is every value through diag.Clean; nil for none (omitted).
func cleanAll(vs []string) []string {
	var out []string
	for _, v := range vs {
		out = append(out, diag.Clean(v))
	}
	return out
}
