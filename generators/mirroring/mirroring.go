package mirroring

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strings"

	configv1 "github.com/openshift/api/config/v1"

	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/registries"
	"github.com/siteforge/siteforge/internal/ruleid"
	"github.com/siteforge/siteforge/internal/site"
)

// GeneratorName is the generator's stable name (it appears in every file header).
const GeneratorName = "mirroring"

// namedObject is a Kubernetes object with what its path and origin need.
type namedObject struct {
	kind, name string
	object     any
	origin     []diag.Position
}

func (o namedObject) artifact() generators.Artifact {
	return generators.Artifact{
		Path:   resourcePath(o.kind, o.name),
		Role:   generators.Resource,
		Object: o.object,
		Origin: sortPositions(diag.Unique(o.origin...)),
	}
}

// resourcePath is "mirroring/<kind-lowercase>-<name>.yaml".
func resourcePath(kind, name string) string {
	return "mirroring/" + strings.ToLower(kind) + "-" + name + ".yaml"
}

// Generate renders the site's image mirroring: the day-2 mirror objects, image.config,
// OperatorHub and CatalogSources, the install-time mirror files of agent/assisted installs, and
// a preview of /etc/containers/registries.conf per pool.
func Generate(ctx *generators.Context, s *site.Site) ([]generators.Artifact, error) {
	minor := ctx.Minor
	var arts []generators.Artifact
	if hub := operatorHub(s); hub != nil {
		arts = append(arts, hub.artifact())
		if s.Mirroring == nil || len(s.Mirroring.Catalogs) == 0 {
			ctx.Warn(ruleid.NoOperatorCatalog, s.At("cluster.connectivity",
				"a disconnected site: OperatorHub's default sources are disabled (they pull registry.redhat.io/redhat/*-index by tag), and the site lists no catalog in their place: the cluster has no operator catalog, and OperatorHub shows nothing to install",
				`list the catalogs your mirrors serve: mirroring: defaultCatalogs: ["redhat-operators"] (the default sources at the site's release) or mirroring: catalogs: {<name>: {image: ...}}`))
		}
	}
	if s.Mirroring == nil {
		return arts, nil
	}

	entries, diags := collectEntries(s, minor)
	if len(diags) > 0 {
		return nil, diags
	}
	if diags := checkBlockedInCluster(s, entries, minor); len(diags) > 0 {
		return nil, diags
	}
	legacy := minor < platform.IDMSITMSSince
	if legacy {
		warnLegacyPolicies(ctx, s, entries, minor)
	}
	sets := buildMirrorSets(entries, legacy)
	img, imgOrigin := imageConfig(s)
	in := engineInput(s, sets, img, minor)
	cfg, err := registries.Render(in)
	if err != nil {
		return nil, engineDiagnostics(s, entries, err)
	}
	engineWarnings(ctx, s, cfg)

	var objects []namedObject
	if sets.idms != nil {
		objects = append(objects, namedObject{"ImageDigestMirrorSet", sets.idms.Name, sets.idms, sets.digestOrigin})
	}
	if sets.itms != nil {
		objects = append(objects, namedObject{"ImageTagMirrorSet", sets.itms.Name, sets.itms, sets.tagOrigin})
	}
	if sets.icsp != nil {
		objects = append(objects, namedObject{"ImageContentSourcePolicy", sets.icsp.Name, sets.icsp, sets.digestOrigin})
	}
	if img != nil {
		obj, err := imageConfigObject(img)
		if err != nil {
			return nil, fmt.Errorf("image config: %w", err)
		}
		objects = append(objects, namedObject{"Image", img.Name, obj, imgOrigin})
	}
	cas, diags := trustedCAConfigMap(s)
	if len(diags) > 0 {
		return nil, diags
	}
	if cas != nil {
		objects = append(objects, *cas)
	}
	objects = append(objects, catalogSources(s)...)
	for _, o := range objects {
		arts = append(arts, o.artifact())
	}

	previewOrigin := append(append([]diag.Position(nil), sets.digestOrigin...), sets.tagOrigin...)
	previewOrigin = sortPositions(diag.Unique(append(previewOrigin, imgOrigin...)...))
	if len(previewOrigin) == 0 { // only catalogs: the file is the template, from the mirroring block
		previewOrigin = diag.Unique(s.Positions.Of("mirroring"))
	}
	node := nodeRegistriesConf{cfg: cfg, minor: minor}
	nodeCfg := cfg // the file the nodes get
	if legacy {
		legacyCfg, err := legacyTagRegistriesConf(in, entries)
		if err != nil {
			return nil, engineDiagnostics(s, entries, err)
		}
		if legacyCfg != nil {
			nodeCfg = legacyCfg
			data, err := legacyTOML(legacyCfg)
			if err != nil {
				return nil, err
			}
			node.legacyTagConf = data
			mcArts, err := legacyTagMachineConfigs(ctx, s, data, minor, previewOrigin)
			if err != nil {
				return nil, err
			}
			arts = append(arts, mcArts...)
		}
	}
	previews, err := node.previews(s, objects, previewOrigin)
	if err != nil {
		return nil, err
	}
	arts = append(arts, previews...)
	if s.Mirroring.InClusterCache != nil {
		cacheArts, err := inClusterCacheArtifacts(ctx, s, nodeCfg, entries)
		if err != nil {
			return nil, err
		}
		arts = append(arts, cacheArts...)
	}

	if installTimeMirrors(s) {
		warnings, _ := checkAfterInstall(s, entries, in, minor)
		for _, w := range warnings {
			ctx.Warn(ruleid.InstallerMirrorsConflict, w)
		}
	}
	if s.Cluster.InstallMethod == site.InstallAssisted {
		inst, err := ForInstall(s, minor)
		if err != nil {
			return nil, err
		}
		if inst != nil {
			files, err := installFiles(s, inst, minor)
			if err != nil {
				return nil, err
			}
			arts = append(arts, files...)
		}
	}
	return arts, nil
}

// warnLegacyPolicies: before 4.13 the only digest object is the ICSP, which has no policy; MCO
// treats it as AllowContactingSource.
func warnLegacyPolicies(ctx warner, s *site.Site, entries []entry, minor platform.OCPMinor) {
	seen := map[string]bool{}
	for _, e := range entries {
		if e.policy != string(configv1.NeverContactSource) || seen[e.policyPath] {
			continue
		}
		seen[e.policyPath] = true
		ctx.Warn(ruleid.NeverContactSourceIgnored, diag.Diagnostic{Pos: s.Positions.Of(e.policyPath), Path: e.policyPath,
			Message: fmt.Sprintf("policy NeverContactSource needs OpenShift %s (ImageDigestMirrorSet/ImageTagMirrorSet); on %s the ImageContentSourcePolicy has no policy and the nodes still contact %s when the mirrors fail", platform.IDMSITMSSince, minor, e.source),
			Hint:    "the policy takes effect once the cluster runs 4.13 or later and the site is rendered again"})
	}
}

// nodeRegistriesConf is /etc/containers/registries.conf on the nodes.
type nodeRegistriesConf struct {
	cfg   *registries.Config
	minor platform.OCPMinor
	// legacyTagConf is the file of the pre-4.13 tag MachineConfig, which replaces MCO's.
	legacyTagConf []byte
}

// previewPools are the MachineConfigPools to preview: master, worker and every custom pool.
func previewPools(s *site.Site) []string {
	pools := map[string]bool{site.RoleMaster: true, site.RoleWorker: true}
	for _, name := range s.PoolNames() {
		pools[s.Pools[name].MachineConfigPool()] = true
	}
	return slices.Sorted(maps.Keys(pools))
}

// previews renders mirroring/registries-<pool>.conf for every pool.
func (n nodeRegistriesConf) previews(s *site.Site, objects []namedObject, origin []diag.Position) ([]generators.Artifact, error) {
	var from []string
	for _, o := range objects {
		if o.kind != "CatalogSource" && o.kind != "ConfigMap" { // what MCO renders registries.conf from
			from = append(from, resourcePath(o.kind, o.name))
		}
	}
	body := n.legacyTagConf
	if body == nil {
		var err error
		if body, err = n.cfg.TOML(); err != nil {
			return nil, err
		}
	}
	var arts []generators.Artifact
	for _, pool := range previewPools(s) {
		var b bytes.Buffer
		text := fmt.Sprintf("/etc/containers/registries.conf on the nodes of pool %s (OpenShift %s).", pool, n.minor)
		managed := pool
		if pool != site.RoleMaster && pool != site.RoleWorker {
			managed = site.RoleWorker
			text += fmt.Sprintf(" MCO renders the file for the built-in pools only; pool %s gets the worker pool's MachineConfigs.", pool)
		}
		mcoMachineConfig := fmt.Sprintf(platform.RegistriesMachineConfigNameFormat, managed)
		switch {
		case n.legacyTagConf != nil:
			text += fmt.Sprintf(" Written by MachineConfig %s (%s), which replaces MCO's %s (it sorts later by name): MCO's file plus mirror-by-digest-only = false on the tag-mirrored sources.",
				legacyTagMachineConfigName(managed), legacyTagMachineConfigPath(managed), mcoMachineConfig)
		case n.cfg.Written:
			text += fmt.Sprintf(" What MCO writes in MachineConfig %s", mcoMachineConfig)
			if len(from) > 0 {
				text += " from " + strings.Join(from, ", ")
			}
			text += "."
		default:
			text += " MCO writes no registries.conf for this site (no ImageDigestMirrorSet, ImageTagMirrorSet or ImageContentSourcePolicy, no insecure or blocked registries): the nodes keep the template below."
		}
		text += " Compare semantically (parsed TOML): MCO's encoder quotes some values differently."
		b.WriteString(commentBlock(text))
		b.Write(body)
		arts = append(arts, generators.Artifact{
			Path:    fmt.Sprintf("mirroring/registries-%s.conf", pool),
			Role:    generators.File,
			Data:    b.Bytes(),
			Comment: "#",
			Origin:  origin,
		})
	}
	return arts, nil
}

// commentBlock wraps text into "# " comment lines.
func commentBlock(text string) string { return generators.CommentBlock(text) }

// sortPositions orders positions by file, line and column.
func sortPositions(ps []diag.Position) []diag.Position {
	slices.SortStableFunc(ps, diag.Position.Compare)
	return ps
}
