package mirroring

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"cuelang.org/go/cue"
	"go.podman.io/image/v5/docker/reference"

	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/site"
)

// entry is one source -> mirrors mapping the site asks for, before it becomes an IDMS, ITMS
// or ICSP entry. Entries of mirroring.sources and of the Quay cache stay separate even for one
// source: MCO merges them itself, and refuses two policies for one source, which the engine
// then reports at both fields.
type entry struct {
	source  string
	mirrors []string
	policy  string
	digest  bool // goes to the IDMS (ICSP before 4.13)
	tag     bool // goes to the ITMS (the legacy tag MachineConfig before 4.13)
	// path is the site field the entry comes from; policyPath the field that sets its policy.
	path, policyPath string
	origin           []diag.Position
}

// tagRef is an image reference the site pulls by tag, and where it comes from.
type tagRef struct {
	name string // repository, normalized (docker.io/library/ added)
	path string
}

// collectEntries turns mirroring.sources and mirroring.quayCache into entries sorted by source
// (sources before cache entries for one source, cache entries by organization).
func collectEntries(s *site.Site, minor platform.OCPMinor) ([]entry, diag.List) {
	m := s.Mirroring
	var out []entry
	var diags diag.List
	tagSources := map[string]bool{}
	for _, src := range slices.Sorted(maps.Keys(m.Sources)) {
		ms := m.Sources[src]
		path := fieldPath("mirroring", "sources", src)
		e := entry{
			source:     src,
			mirrors:    append([]string(nil), ms.Mirrors...),
			policy:     ms.Policy,
			digest:     ms.Serves == site.ServesDigests || ms.Serves == site.ServesBoth,
			tag:        ms.Serves == site.ServesTags || ms.Serves == site.ServesBoth,
			path:       path,
			policyPath: path + ".policy",
			origin:     []diag.Position{s.Positions.Of(path)},
		}
		if e.tag {
			tagSources[src] = true
		}
		out = append(out, e)
	}
	if qc := m.QuayCache; qc != nil {
		refs := tagRefs(s, minor)
		for _, org := range slices.Sorted(maps.Keys(qc.Orgs)) {
			upstream := qc.Orgs[org]
			path := fieldPath("mirroring", "quayCache", "orgs", org)
			if strings.HasPrefix(upstream, "*.") {
				diags = append(diags, diag.Diagnostic{Pos: s.Positions.Of(path), Path: path,
					Message: fmt.Sprintf("a Quay proxy-cache organization caches one registry or namespace, not the wildcard %q", upstream),
					Hint:    "name the registry host (registry.example.com) or a namespace on it (quay.io/org)"})
				continue
			}
			e := entry{
				source:     upstream,
				mirrors:    []string{quayMirror(qc.Host, org)},
				policy:     qc.Policy,
				digest:     true,
				tag:        tagSources[upstream],
				path:       path,
				policyPath: fieldPath("mirroring", "quayCache", "policy"),
				origin:     []diag.Position{s.Positions.Of(path), s.Positions.Of("mirroring.quayCache.host")},
			}
			for _, r := range refs {
				if scopeContains(upstream, r.name) {
					e.tag = true
					e.origin = append(e.origin, s.Positions.Of(r.path))
				}
			}
			out = append(out, e)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].source < out[j].source })
	return out, diags
}

// quayMirror is the mirror location of a Quay proxy-cache organization.
//
// Mapping: upstream U cached by organization O on host H gives source U, mirror H/O, for a
// whole registry (registry.redhat.io) and for a namespace (quay.io/openshift-release-dev) alike.
// c/image replaces the source prefix U of a reference with the mirror, so U/<rest> is pulled as
// H/O/<rest>. Quay resolves H/O/<rest> against its upstream: for a whole-registry upstream <rest>
// is the full repository path on the registry (registry.redhat.io/redhat/x -> H/O/redhat/x); for
// a namespace upstream Quay itself prepends the namespace (H/O/ocp-release -> quay.io/
// openshift-release-dev/ocp-release; quay/quay data/registry_model/registry_proxy_model.py
// ProxyModel.__init__: repo_name = f"{upstream_registry_namespace}/{repo_name}"). Appending the
// upstream's path to the mirror (H/O/openshift-release-dev) would make Quay fetch
// quay.io/openshift-release-dev/openshift-release-dev/...: wrong. A pull through the
// cache names the path below the cached upstream.
func quayMirror(host, org string) string { return host + "/" + org }

// tagRefs lists the references the site pulls by tag: operator catalogs, mirroring.images,
// the release image, and the default catalog indexes while OperatorHub's default sources are
// enabled (connected sites). References that do not parse are skipped: the schema checks them.
func tagRefs(s *site.Site, minor platform.OCPMinor) []tagRef {
	var out []tagRef
	add := func(ref, path string) {
		named, err := reference.ParseNormalizedNamed(ref)
		if err != nil {
			return
		}
		if _, digested := named.(reference.Canonical); digested {
			return // name:tag@digest is pulled by digest
		}
		out = append(out, tagRef{name: named.Name(), path: path})
	}
	m := s.Mirroring
	for _, name := range slices.Sorted(maps.Keys(m.Catalogs)) {
		add(m.Catalogs[name].Image, fieldPath("mirroring", "catalogs", name, "image"))
	}
	for i, img := range m.Images {
		add(img, cue.MakePath(cue.Str("mirroring"), cue.Str("images"), cue.Index(i)).String())
	}
	if s.Cluster.ReleaseImage != "" {
		add(s.Cluster.ReleaseImage, "cluster.releaseImage")
	}
	if !disconnected(s) {
		for _, c := range platform.DefaultCatalogs {
			repo := c.Index
			add(fmt.Sprintf("%s:v%s", repo, minor), "cluster.connectivity")
		}
	}
	return out
}

// scopeContains reports whether repository name lies under scope: the same, a path below it,
// or a host under a `*.domain` scope (c/image's prefix match).
func scopeContains(scope, name string) bool {
	if name == scope || strings.HasPrefix(name, scope+"/") {
		return true
	}
	if domain, ok := strings.CutPrefix(scope, "*"); ok {
		host, _, _ := strings.Cut(name, "/")
		return strings.HasSuffix(host, domain)
	}
	return false
}

func disconnected(s *site.Site) bool { return s.Cluster.Connectivity == "disconnected" }

// fieldPath builds a CUE field path (`mirroring.sources."registry.redhat.io"`).
func fieldPath(labels ...string) string {
	sels := make([]cue.Selector, 0, len(labels))
	for _, l := range labels {
		sels = append(sels, cue.Str(l))
	}
	return cue.MakePath(sels...).String()
}
