package mirroring

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	configv1 "github.com/openshift/api/config/v1"

	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/internal/butane"
	"github.com/siteforge/siteforge/internal/cluster/incluster"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/registries"
	"github.com/siteforge/siteforge/internal/ruleid"
	"github.com/siteforge/siteforge/internal/site"
)

// An in-cluster cache (mirroring.inClusterCache) is a Quay pull-through cache running as a
// workload of the cluster whose nodes pull through it. Its mirrors are never MCO's: an
// ImageDigestMirrorSet entry would be in every node's registries.conf from the first boot,
// when neither the cluster network, its ingress nor the cache's pods run, and each pull would
// wait on the unreachable mirror (with NeverContactSource, never get past it). The nodes get
// instead, per built-in pool, a MachineConfig that installs:
//
//   - the drop-in (InClusterCacheDropIn: the cached upstreams through the cache, then the
//     mirrors the node already had, the source last; the release payload and the cache's own
//     images in tables without the cache), as a file the script copies;
//   - the script: `check` probes /v2/ on the cache (200 or 401 is an answer); on an answer it
//     writes the drop-in into registries.conf.d and reloads CRI-O, otherwise it removes the
//     drop-in and reloads CRI-O; `remove` removes it;
//   - a timer that runs `check` every checkIntervalSeconds from boot on (the wait for the cache,
//     and the removal when it stops answering), and a unit that runs `remove` before CRI-O
//     starts, so a booting node starts from MCO's registries.conf alone.
//
// So the cache's mirrors exist on a node only while the cache answers, and a pull through
// them always falls back to the source. The cost, as Gardener's registry cache states it for
// the same fix (gardener/gardener-extension-registry-cache PR #68): the images the cluster
// needs before the cache runs are not cached.

// In-cluster cache names and paths on the node.
const (
	inClusterCacheName       = "siteforge-in-cluster-cache"
	inClusterCacheMCFormat   = "99-%s-" + inClusterCacheName // per built-in pool
	inClusterCacheScript     = "/usr/local/bin/siteforge-cache-mirror"
	inClusterCacheDropInCopy = "/etc/siteforge/in-cluster-cache/registries.conf" // what the script copies
	inClusterCacheCheckUnit  = "siteforge-cache-mirror.service"
	inClusterCacheTimer      = "siteforge-cache-mirror.timer"
	inClusterCacheCleanup    = "siteforge-cache-mirror-cleanup.service"
	// InClusterCacheDropInPreview is the drop-in in the output folder, for review and for
	// `siteforge mirrors resolve` (the endpoints once the cache answers).
	InClusterCacheDropInPreview = "mirroring/in-cluster-cache.conf"
	// Seconds curl waits for the cache per check: well inside the interval (5 s minimum).
	inClusterCacheConnectTimeout = 3
	inClusterCacheMaxTime        = 4
)

// inClusterCacheField is the site field of the cache.
const inClusterCacheField = "mirroring.inClusterCache"

// inClusterCacheBypass lists the repositories never routed through s's in-cluster cache: the
// release payload (the official repositories and the site's release image repository), the
// cache's own images (those of the Quay operator, its catalogs and its QuayRegistry's pods
// when the Quay operator runs it) and the site's bootstrapImages, sorted.
func inClusterCacheBypass(s *site.Site) []string {
	set := map[string]bool{platform.OfficialReleaseRepository: true, platform.PayloadComponentRepository: true}
	if s.Cluster.ReleaseImage != "" {
		set[platform.InstallerReleaseRepository(s.Cluster.ReleaseImage)] = true
	}
	if c := s.Mirroring.InClusterCache; c != nil {
		if c.DeployedBy == site.CacheByQuayOperator {
			for _, r := range platform.QuayOperatorRepositories {
				set[r] = true
			}
			for _, name := range platform.QuayOperatorCatalogs {
				if cat, ok := platform.DefaultCatalogNamed(name); ok {
					set[cat.Index] = true
				}
			}
		}
		for _, b := range c.BootstrapImages {
			set[b] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// inClusterCacheArtifacts renders the in-cluster cache of s over the nodes' registries.conf
// node: the drop-in preview and, per built-in pool, the MachineConfig and its Butane source.
func inClusterCacheArtifacts(ctx warner, s *site.Site, node *registries.Config, entries []entry) ([]generators.Artifact, error) {
	c := s.Mirroring.InClusterCache
	if diags := checkInClusterCache(s); len(diags) > 0 {
		return nil, diags
	}
	var routes []registries.CacheRoute
	for _, org := range slices.Sorted(maps.Keys(c.Orgs)) {
		routes = append(routes, registries.CacheRoute{Upstream: c.Orgs[org], Mirror: quayMirror(c.Host, org)})
	}
	dropIn, err := registries.CacheDropIn(node, routes, inClusterCacheBypass(s))
	switch {
	case errors.Is(err, registries.ErrCacheSourceBlocked):
		// checkBlockedInCluster refused every site field that blocks a cached upstream; this is a
		// blocked table it could not trace to one.
		return nil, diag.List{{Pos: s.Positions.Of(inClusterCacheField), Path: inClusterCacheField, Rule: ruleid.NeverContactSourceThroughInClusterMirror,
			Message: "the in-cluster cache's drop-in keeps every cached upstream's source as the last resort, and registries.conf blocks one: " + err.Error(),
			Hint:    "let the nodes contact the cached upstreams (policy AllowContactingSource, nothing of them in blockedRegistries)"}}
	case errors.Is(err, registries.ErrCacheUnderWildcard):
		return nil, diag.List{{Pos: s.Positions.Of(inClusterCacheField), Path: inClusterCacheField,
			Message: "the in-cluster cache cannot carry a wildcard source's mirrors into the tables of its upstreams: " + err.Error(),
			Hint:    "mirror the cached upstreams by name (registry.example.com) instead of *.domain"}}
	case err != nil:
		return nil, err
	}
	body, err := dropIn.TOML()
	if err != nil {
		return nil, err
	}
	conf := append([]byte(commentBlock(fmt.Sprintf(
		"The registries.conf.d drop-in of the in-cluster cache %s of site %s. %s writes it to %s while the cache answers on %s, and removes it when the cache stops answering and at every boot. Each cached upstream is pulled through the cache first, then through the mirrors registries.conf already gives it, then from the source (never blocked). The release payload and the cache's own images keep tables without the cache: they are pulled before the cache runs.",
		c.Host, s.Name, inClusterCacheScript, platform.InClusterCacheDropInPath, platform.RegistryAPIBasePath))), body...)
	if err := registries.LoadWithDropIn(mustTOML(node), conf); err != nil {
		return nil, fmt.Errorf("in-cluster cache drop-in: %w", err)
	}
	origin := []diag.Position{s.Positions.Of(inClusterCacheField)}
	arts := []generators.Artifact{{Path: InClusterCacheDropInPreview, Role: generators.File, Data: conf, Comment: "#", Origin: origin}}
	script := inClusterCacheScriptFor(s)
	units := inClusterCacheUnits(c)
	for _, pool := range platform.BuiltinPools {
		name := fmt.Sprintf(inClusterCacheMCFormat, pool)
		var b bytes.Buffer
		b.WriteString(commentBlock(fmt.Sprintf("The in-cluster cache %s on the nodes of pool %s (custom pools get the worker one). Node disruption: MCO reboots each node of the pool once when this MachineConfig is added or changed: its files and units have no node disruption policy (internal/cluster/disruption; `siteforge impact` shows it). The drop-in the script writes later is in no MachineConfig, so MCO never reboots, drains or reverts for it.", c.Host, pool)))
		b.Write(butane.Body{
			Files: []butane.File{
				{Path: inClusterCacheScript, Mode: 0o755, Contents: script},
				{Path: inClusterCacheDropInCopy, Mode: platform.RegistriesConfMode, Contents: string(conf)},
			},
			Units: units,
		}.YAML())
		res, err := butane.Build(butane.Config{
			Name:   name,
			Role:   pool,
			Body:   b.Bytes(),
			Origin: butane.Origin{Pos: s.Positions.Of(inClusterCacheField), Path: inClusterCacheField},
		}, s.Cluster.Version)
		if dl, ok := err.(diag.List); ok {
			return nil, dl
		}
		if err != nil {
			return nil, fmt.Errorf("in-cluster cache MachineConfig %s: %w", name, err)
		}
		for _, w := range res.Warnings {
			ctx.Warn(ruleid.ButaneTranslation, w)
		}
		arts = append(arts,
			generators.Artifact{Path: "mirroring/" + name + ".bu", Role: generators.File, Data: res.Butane, Comment: "#", Origin: origin},
			generators.Artifact{Path: resourcePath("MachineConfig", name), Role: generators.Resource, Object: res.Object, Origin: origin},
		)
	}
	return arts, nil
}

// mustTOML encodes a registries.conf the engine produced (its encoding does not fail).
func mustTOML(c *registries.Config) []byte {
	b, err := c.TOML()
	if err != nil {
		panic(err)
	}
	return b
}

// checkInClusterCache refuses the organizations the in-cluster cache cannot have: two for one
// upstream, a wildcard upstream. Its host is lint's MIR024, the blocked sources under it
// checkBlockedInCluster's (MIR022).
func checkInClusterCache(s *site.Site) diag.List {
	c := s.Mirroring.InClusterCache
	var diags diag.List
	seen := map[string]string{}
	for _, org := range slices.Sorted(maps.Keys(c.Orgs)) {
		upstream := c.Orgs[org]
		path := fieldPath("mirroring", "inClusterCache", "orgs", org)
		switch {
		case strings.HasPrefix(upstream, platform.WildcardScopePrefix):
			diags = append(diags, diag.Diagnostic{Pos: s.Positions.Of(path), Path: path,
				Message: fmt.Sprintf("a Quay proxy-cache organization caches one registry or namespace, not the wildcard %q", upstream),
				Hint:    "name the registry host (registry.example.com) or a namespace on it (quay.io/org)"})
		case seen[upstream] != "":
			diags = append(diags, diag.Diagnostic{Pos: s.Positions.Of(path), Path: path,
				Message: fmt.Sprintf("%q is cached by organization %q already: one upstream, one organization", upstream, seen[upstream])})
		default:
			seen[upstream] = org
		}
	}
	return diags.Sort()
}

// checkBlockedInCluster refuses (MIR022) a source blocked on the nodes (policy
// NeverContactSource, blockedRegistries) whose mirror the cluster serves itself: a bootstrap
// deadlock when every mirror runs in the cluster, waits at every boot when some do not. With an
// in-cluster cache, also a blocked source over an upstream the cache caches: the cache fetches
// from that source itself, and its drop-in keeps the source as the last resort. Each at the line
// that blocks the source.
func checkBlockedInCluster(s *site.Site, entries []entry, minor platform.OCPMinor) diag.List {
	m := s.Mirroring
	c := incluster.OfSite(s, "")
	var diags diag.List
	reported := map[string]bool{}
	refuse := func(path, msg, hint string) {
		if !reported[path] {
			reported[path] = true
			diags = append(diags, diag.Diagnostic{Pos: s.Positions.Of(path), Path: path, Rule: ruleid.NeverContactSourceThroughInClusterMirror, Message: msg, Hint: hint})
		}
	}
	// Before 4.13 NeverContactSource has no effect (RND005): only blockedRegistries block.
	neverContact := func(e entry) bool {
		return e.policy == string(configv1.NeverContactSource) && minor >= platform.IDMSITMSSince
	}
	for _, e := range entries {
		inside, why, outside := c.Split(e.source, e.mirrors)
		if len(inside) == 0 {
			continue
		}
		verdict := incluster.Blocked(outside)
		if neverContact(e) {
			refuse(e.policyPath, fmt.Sprintf("source %s (policy NeverContactSource) is mirrored at %q, %s: %s", e.source, inside[0], why, verdict), incluster.Fix)
		}
		for i, b := range m.BlockedRegistries {
			if scopeContains(b, e.source) {
				refuse(fmt.Sprintf("mirroring.blockedRegistries[%d]", i), fmt.Sprintf("blockedRegistries %s blocks %s, which is mirrored at %q, %s: %s", b, e.source, inside[0], why, verdict), incluster.Fix)
			}
		}
	}
	cache := m.InClusterCache
	if cache == nil {
		return diags.Sort()
	}
	// The upstreams the cache caches, blocked on the nodes.
	for _, org := range slices.Sorted(maps.Keys(cache.Orgs)) {
		upstream := cache.Orgs[org]
		var outside []string // what mirrors the upstream outside the cluster
		for _, e := range entries {
			if scopeContains(e.source, upstream) {
				_, _, out := c.Split(e.source, e.mirrors)
				outside = append(outside, out...)
			}
		}
		contradiction := fmt.Sprintf("the in-cluster cache %s caches it (organization %s): a Quay proxy-cache organization fetches from its upstream itself, so the cache contacts the very source this keeps the nodes from, and the cache's drop-in keeps every cached upstream's source as the last resort. Not a bootstrap deadlock (%s outside the cluster serves it while the cache is down), but a contradiction",
			cache.Host, org, incluster.Quoted(outside))
		hint := fmt.Sprintf("take %s out of %s.orgs, or allow the source (policy AllowContactingSource; take the scope out of blockedRegistries)", upstream, inClusterCacheField)
		for _, e := range entries {
			if neverContact(e) && scopeContains(e.source, upstream) {
				refuse(e.policyPath, fmt.Sprintf("source %s (policy NeverContactSource) covers %s, and %s", e.source, upstream, contradiction), hint)
			}
		}
		for i, b := range m.BlockedRegistries {
			if !scopeContains(b, upstream) {
				continue
			}
			path := fmt.Sprintf("mirroring.blockedRegistries[%d]", i)
			if len(outside) == 0 {
				refuse(path, fmt.Sprintf("blockedRegistries %s blocks %s, which the in-cluster cache %s caches, and no mirror outside the cluster serves it: while the cache is down no node can pull anything under %s, the cache's own images included: %s", b, upstream, cache.Host, upstream, incluster.Deadlock), hint)
				continue
			}
			refuse(path, fmt.Sprintf("blockedRegistries %s blocks %s, and %s", b, upstream, contradiction), hint)
		}
	}
	return diags.Sort()
}

// inClusterCacheScriptFor is the node script of s's in-cluster cache (bash; shellcheck clean).
// Every path and the URL can be overridden by environment variables, for tests:
// SITEFORGE_CACHE_URL, SITEFORGE_CA_DIRS, SITEFORGE_DROPIN, SITEFORGE_DROPIN_SOURCE and
// SITEFORGE_RELOAD_CRIO (a command run by sh instead of reloading crio.service).
func inClusterCacheScriptFor(s *site.Site) string {
	c := s.Mirroring.InClusterCache
	r := strings.NewReplacer(
		"@SITE@", s.Name,
		"@HOST@", c.Host,
		"@URL@", "https://"+c.Host+platform.RegistryAPIBasePath,
		"@CA_DIRS@", platform.ContainersCertsDir+"/"+c.Host+" "+platform.DockerCertsDir+"/"+c.Host,
		"@DROPIN@", platform.InClusterCacheDropInPath,
		"@SOURCE@", inClusterCacheDropInCopy,
		"@CRIO@", platform.CrioService,
		"@RELOAD@", platform.CRIOReloadCommand,
		"@CONNECT@", strconv.Itoa(inClusterCacheConnectTimeout),
		"@MAXTIME@", strconv.Itoa(inClusterCacheMaxTime),
	)
	return r.Replace(inClusterCacheScriptTemplate)
}

const inClusterCacheScriptTemplate = `#!/bin/bash
# The in-cluster cache @HOST@ of site @SITE@ (rendered by siteforge).
#
#   check   if the cache answers on /v2/ (HTTP 200, or 401: it wants
#           credentials), write the registries.conf.d drop-in that pulls the
#           cached upstreams through it and reload CRI-O; otherwise remove the
#           drop-in and reload CRI-O. Run by siteforge-cache-mirror.timer.
#   remove  remove the drop-in (reload CRI-O when it runs). Run before CRI-O
#           starts at every boot, so a booting node never waits on the cache.
#
# CRI-O reads registries.conf.d again on reload (SIGHUP), without a restart.
# The environment overrides the defaults (tests): SITEFORGE_CACHE_URL,
# SITEFORGE_CA_DIRS, SITEFORGE_DROPIN, SITEFORGE_DROPIN_SOURCE,
# SITEFORGE_RELOAD_CRIO (a command for sh -c instead of reloading @CRIO@).
set -euo pipefail

cache_url="${SITEFORGE_CACHE_URL:-@URL@}"
ca_dirs="${SITEFORGE_CA_DIRS:-@CA_DIRS@}"
dropin="${SITEFORGE_DROPIN:-@DROPIN@}"
source_file="${SITEFORGE_DROPIN_SOURCE:-@SOURCE@}"

log() {
	echo "siteforge-cache-mirror: $*" >&2
}

reload_crio() {
	if [ -n "${SITEFORGE_RELOAD_CRIO:-}" ]; then
		sh -c "$SITEFORGE_RELOAD_CRIO"
	elif systemctl is-active --quiet @CRIO@; then
		@RELOAD@
	fi
}

# answers: the cache answers on /v2/, with the CA CRI-O uses for its host
# (the first *.crt of its certs.d directory), else the system trust.
answers() {
	local ca=() dir crt code
	for dir in $ca_dirs; do
		for crt in "$dir"/*.crt; do
			if [ -f "$crt" ]; then
				ca=(--cacert "$crt")
				break 2
			fi
		done
	done
	code=$(curl --silent --output /dev/null --write-out '%{http_code}' \
		--connect-timeout @CONNECT@ --max-time @MAXTIME@ "${ca[@]}" "$cache_url") || code=000
	[ "$code" = 200 ] || [ "$code" = 401 ]
}

install_dropin() {
	if [ -f "$dropin" ] && cmp -s "$source_file" "$dropin"; then
		return 0
	fi
	local dir tmp
	dir=$(dirname "$dropin")
	tmp="$dir/.$(basename "$dropin").tmp"
	mkdir -p "$dir"
	cp "$source_file" "$tmp"
	chmod 0644 "$tmp"
	mv -f "$tmp" "$dropin"
	log "the cache answers at $cache_url: wrote $dropin"
	reload_crio
}

remove_dropin() {
	if [ ! -e "$dropin" ]; then
		return 0
	fi
	rm -f "$dropin"
	log "removed $dropin"
	reload_crio
}

case "${1:-}" in
check)
	if answers; then
		install_dropin
	else
		remove_dropin
	fi
	;;
remove)
	remove_dropin
	;;
*)
	echo "usage: $0 check|remove" >&2
	exit 2
	;;
esac
`

// inClusterCacheUnits are the systemd units of the in-cluster cache.
func inClusterCacheUnits(c *site.InClusterCache) []butane.Unit {
	every := strconv.Itoa(c.CheckIntervalSeconds) + "s"
	return []butane.Unit{
		{Name: inClusterCacheCleanup, Enabled: true, Contents: fmt.Sprintf(`[Unit]
Description=Remove the in-cluster cache mirrors before CRI-O starts (siteforge)
After=local-fs.target
Before=%[1]s

[Service]
Type=oneshot
ExecStart=%[2]s remove

[Install]
WantedBy=%[1]s
`, platform.CrioService, inClusterCacheScript)},
		{Name: inClusterCacheCheckUnit, Contents: fmt.Sprintf(`[Unit]
Description=Mirror the cached upstreams through the in-cluster cache %[1]s while it answers (siteforge)
After=%[2]s network-online.target
Wants=network-online.target

[Service]
Type=oneshot
ExecStart=%[3]s check
`, c.Host, platform.CrioService, inClusterCacheScript)},
		{Name: inClusterCacheTimer, Enabled: true, Contents: fmt.Sprintf(`[Unit]
Description=Check the in-cluster cache %[1]s every %[2]s (siteforge)

[Timer]
OnBootSec=%[2]s
OnUnitInactiveSec=%[2]s
AccuracySec=1s

[Install]
WantedBy=timers.target
`, c.Host, every)},
	}
}
