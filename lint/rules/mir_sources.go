package rules

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	configv1 "github.com/openshift/api/config/v1"
	"go.podman.io/image/v5/docker/reference"

	"github.com/siteforge/siteforge/internal/cluster/incluster"
	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/registries"
	"github.com/siteforge/siteforge/lint"
)

// ---------------------------------------------------------------------------------------------
// MIR003: shadowing.

func checkShadowing(set lint.Set, r *lint.Reporter) {
	a := analyze(set)
	if a.toml == nil {
		return
	}
	bySource := map[string][]*mirrorEntry{}
	var sources []string
	for _, e := range a.accepted {
		if !a.effective(e) || !e.realMirrors() || strings.HasPrefix(e.source, "*.") {
			continue
		}
		if bySource[e.source] == nil {
			sources = append(sources, e.source)
		}
		bySource[e.source] = append(bySource[e.source], e)
	}
	sort.Strings(sources)
	for _, source := range sources {
		has := map[bool]bool{}
		for _, e := range bySource[source] {
			has[e.digest()] = true
		}
		for _, digest := range []bool{true, false} {
			if has[digest] || !hasMirroredAncestor(source, digest, a.accepted) {
				continue
			}
			if msg := a.shadowMessage(source, digest); msg != "" {
				for _, e := range bySource[source] {
					r.Object(e.obj, e.where("source")+": "+msg, e.path("source")...)
				}
			}
		}
	}
}

// hasMirroredAncestor is a cheap pre-filter before asking the engine: some other entry of the
// kind (digest or tag) has a source that is a parent path of source, or a wildcard covering its host.
func hasMirroredAncestor(source string, digest bool, entries []*mirrorEntry) bool {
	for _, e := range entries {
		switch {
		case e.digest() != digest || !e.realMirrors():
		case strings.HasPrefix(source, e.source+"/"):
			return true
		case strings.HasPrefix(e.source, "*.") && strings.HasSuffix(incluster.Host(source), e.source[1:]):
			return true
		}
	}
	return false
}

// shadowMessage resolves a reference of the kind source's entries lack, with and without them:
// when only the nested entries keep the broader mirror away, it explains the loss.
func (a *analysis) shadowMessage(source string, digest bool) string {
	probe := probeRef(source, digest)
	with, err := registries.Resolve(a.toml, probe)
	if err != nil || with.Prefix != source || with.SucceedsDisconnected(nil) {
		return ""
	}
	var others []*mirrorEntry
	for _, e := range a.accepted {
		if e.source != source {
			others = append(others, e)
		}
	}
	conf, err := registries.Render(a.input(others, a.imageCfg))
	if err != nil {
		return ""
	}
	data, err := conf.TOML()
	if err != nil {
		return ""
	}
	without, err := registries.Resolve(data, probe)
	if err != nil || !without.SucceedsDisconnected(nil) {
		return ""
	}
	var lost []string
	for _, ep := range without.Attempts() {
		if ep.Mirror && !ep.Source {
			lost = append(lost, ep.Location)
		}
	}
	parent := ""
	for _, e := range others {
		if a.effective(e) && e.digest() == digest && e.source == without.Prefix {
			parent = e.source
		}
	}
	if parent == "" { // the table without the nested entries got the mirrors some ancestor copied into it
		for _, e := range others {
			if a.effective(e) && e.digest() == digest && strings.HasPrefix(source, e.source+"/") && len(e.source) > len(parent) {
				parent = e.source
			}
		}
	}
	if parent == "" {
		parent = without.Prefix
	}
	var by []string
	for _, e := range others {
		if a.effective(e) && e.digest() == digest && e.source == parent {
			by = append(by, e.obj.ID())
		}
	}
	fate := "go to the source"
	for _, ep := range with.Endpoints {
		if !ep.Mirror && ep.Blocked {
			fate = "go to the source, which is blocked: they fail"
		}
	}
	kind, other := pullKind(digest), pullKind(!digest)
	entry := "a " + kind + " entry for " + source + " too"
	if !strings.HasPrefix(parent, "*.") {
		entry += " (the parent's mirrors with " + strings.TrimPrefix(source, parent) + " appended)"
	}
	return fmt.Sprintf("%s is nested in %s, which %s mirrors for %s pulls through %v; the table for %s has only %s-only mirrors, so %s pulls under it "+
		"(e.g. %s) lose that mirror and %s; add %s, or move this entry to the exact repository pulled by %s",
		source, parent, strings.Join(uniqueStrings(by), ", "), kind, lost, source, other, kind, probe, fate, entry, other)
}

func uniqueStrings(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// ---------------------------------------------------------------------------------------------
// MIR007: dotless hosts.

// dockerHubName returns what c/image makes of a location whose first component is not a host
// (no dot, no port, not localhost): a docker.io repository. ok is false for a proper host, and for
// a location that is no valid name at all (MIR006 reports those).
func dockerHubName(location string) (string, bool) {
	named, err := reference.ParseNormalizedNamed(strings.TrimSuffix(location, "/") + "/" + probeRepository)
	if err != nil {
		return "", false
	}
	host, _, _ := strings.Cut(location, "/")
	if reference.Domain(named) == host {
		return "", false
	}
	return strings.TrimSuffix(named.Name(), "/"+probeRepository), true
}

func checkDotlessHosts(set lint.Set, r *lint.Reporter) {
	m := readMirrorObjects(set)
	for _, e := range m.entries {
		if !strings.HasPrefix(e.source, "*.") {
			if name, ok := dockerHubName(e.source); ok {
				r.Object(e.obj, fmt.Sprintf("%s %q: c/image reads it as the Docker Hub repository %s, so no image reference ever matches this source; use the registry's fully qualified host name or add its port",
					e.where("source"), e.source, name), e.path("source")...)
			}
		}
		for j, mirror := range e.mirrors {
			if name, ok := dockerHubName(mirror); ok {
				r.Object(e.obj, fmt.Sprintf("%s %q: c/image reads it as the Docker Hub repository %s and pulls %s/... from docker.io instead of the mirror; use the mirror's fully qualified host name or add its port (mirrorhost.example.com/ns, mirrorhost:5000/ns)",
					e.where("mirrors", strconv.Itoa(j)), mirror, name, name), e.path("mirrors", strconv.Itoa(j))...)
			}
		}
	}
	if m.imageObj == nil {
		return
	}
	for _, list := range registrySourceLists {
		for i, scope := range *registrySourceList(&m.imageSpec.Spec.RegistrySources, list) {
			if strings.HasPrefix(scope, "*.") {
				continue
			}
			if name, ok := dockerHubName(scope); ok {
				path := []string{"spec", "registrySources", list, strconv.Itoa(i)}
				r.Object(m.imageObj, fmt.Sprintf("%s %s %q: c/image reads it as the Docker Hub repository %s, so it never matches the registry meant; use the fully qualified host name or add its port",
					m.imageObj.ID(), userPath(path), scope, name), path...)
			}
		}
	}
}

// ---------------------------------------------------------------------------------------------
// MIR008: wildcard sources with mirrors.

func checkWildcardMirrors(set lint.Set, r *lint.Reporter) {
	a := analyze(set)
	for _, e := range a.entries {
		if !strings.HasPrefix(e.source, "*.") || !e.realMirrors() || !a.effective(e) {
			continue
		}
		msg := fmt.Sprintf("%s %q has mirrors: c/image replaces the whole matched host with the mirror location, so different registries under %s collide on one mirror path and host:port references cannot be rewritten",
			e.where("source"), e.source, e.source)
		if demo := a.wildcardDemo(e); demo != "" {
			msg += " (" + demo + ")"
		}
		r.Object(e.obj, msg+"; mirror each registry host as its own source, with its own mirror path", e.path("source")...)
	}
}

// wildcardDemo shows the collision with the engine: two hosts under the wildcard resolving to the
// same mirror reference, and what a host:port reference gives.
func (a *analysis) wildcardDemo(e *mirrorEntry) string {
	if a.toml == nil {
		return ""
	}
	domain := e.source[1:]
	first := func(ref string) (string, error) {
		res, err := registries.Resolve(a.toml, ref)
		if err != nil {
			return "", err
		}
		for _, ep := range res.Attempts() {
			if ep.Mirror && !ep.Source {
				return ep.Reference, nil
			}
		}
		return "", nil
	}
	refA, refB := taggedOrDigested("a"+domain+"/ns/app", e.digest()), taggedOrDigested("b"+domain+"/ns/app", e.digest())
	gotA, errA := first(refA)
	gotB, errB := first(refB)
	if errA != nil || errB != nil || gotA == "" || gotA != gotB {
		return ""
	}
	demo := fmt.Sprintf("%s and %s both pull %s", refA, refB, gotA)
	withPort := taggedOrDigested("a"+domain+":5000/ns/app", e.digest())
	if _, err := first(withPort); err != nil {
		demo += fmt.Sprintf("; %s fails: %v", withPort, err)
	}
	return demo
}

// ---------------------------------------------------------------------------------------------
// MIR011: mirrors at in-cluster Services.

// inClusterOf is what tells the set's in-cluster hosts apart (internal/cluster/incluster): the
// service network (the site's, a Network config's, the install-config's, else the default), the
// ingress domains (the site's apps domain and shards; the Ingress config's spec.domain, else the
// install-config's apps domain, and the IngressControllers' spec.domain) and the Routes' hosts.
func inClusterOf(set lint.Set) incluster.Cluster {
	return lint.Fact(set, factInCluster, func() incluster.Cluster { return newInCluster(set) })
}

func newInCluster(set lint.Set) incluster.Cluster {
	var c incluster.Cluster
	if set.Site != nil {
		c = incluster.OfSite(set.Site.Site, "the site's ")
	}
	c.Routes = map[string]string{}
	for _, o := range set.Objects {
		var x struct {
			Spec struct {
				ServiceNetwork []string `json:"serviceNetwork"`
			} `json:"spec"`
		}
		if o.Kind == "Network" && (o.APIVersion == manifests.GroupConfig || o.APIVersion == manifests.GroupOperatorV1) && o.Name == platform.ConfigSingletonName && o.DecodeLoose(&x) == nil {
			c.AddServiceNetworks(x.Spec.ServiceNetwork, o.ID()+" spec.serviceNetwork")
		}
	}
	for _, ic := range manifests.InstallConfigs(set.Objects) {
		c.AddServiceNetworks(ic.Networking.ServiceNetwork, "install-config networking."+ic.Paths.ServiceNetwork)
	}
	if len(c.ServiceNetworks) == 0 {
		c.AddServiceNetworks([]string{platform.InstallerDefaultServiceNetwork}, "the default service network")
	}
	c.AddIngressDomain(ingClusterDomain(set, plainClusterOf(set)))
	for _, ic := range ingControllers(set) {
		c.AddIngressDomain(ic.spec.Domain, ic.obj.ID()+" spec.domain")
	}
	for _, o := range set.Objects {
		if o.Kind != "Route" || !strings.HasPrefix(o.APIVersion, "route.openshift.io/") {
			continue
		}
		var x struct {
			Spec struct {
				Host string `json:"host"`
			} `json:"spec"`
		}
		if o.DecodeLoose(&x) == nil && x.Spec.Host != "" {
			c.Routes[strings.ToLower(x.Spec.Host)] = o.ID()
		}
	}
	return c
}

func checkServiceMirrors(set lint.Set, r *lint.Reporter) {
	m := readMirrorObjects(set)
	if len(m.entries) == 0 {
		return
	}
	c := inClusterOf(set)
	for _, e := range m.entries {
		for j, mirror := range e.mirrors {
			why := c.Service(incluster.Host(mirror))
			if why == "" {
				continue
			}
			r.Object(e.obj, fmt.Sprintf("%s %q is %s: CRI-O pulls on the node, before and outside the cluster network, so during bootstrap, reboots and upgrades each pull waits up to the %d s dial timeout and then falls back to the next mirror or the source (or fails when the source is blocked); give the mirror an address the nodes reach without the cluster, or, for a cache running in this cluster, use the bootstrap-safe form: a site's mirroring.inClusterCache adds its mirrors on each node only while it answers (docs/in-cluster-cache.md)",
				e.where("mirrors", strconv.Itoa(j)), mirror, why, platform.RegistryDialTimeoutSeconds), e.path("mirrors", strconv.Itoa(j))...)
		}
	}
}

// ---------------------------------------------------------------------------------------------
// MIR022: a blocked source whose mirror runs inside the cluster.

func checkInClusterNeverContact(set lint.Set, r *lint.Reporter) {
	m := readMirrorObjects(set)
	if len(m.entries) == 0 {
		return
	}
	c := inClusterOf(set)
	blocked := m.imageSpec.Spec.RegistrySources.BlockedRegistries
	reportedBlocked := map[int]bool{}
	for _, e := range m.entries {
		inside, why, outside := c.Split(e.source, e.mirrors)
		if len(inside) == 0 {
			continue
		}
		if e.effectivePolicy() == configv1.NeverContactSource {
			r.Object(e.obj, fmt.Sprintf("%s is NeverContactSource while its mirror %q is %s: %s; %s",
				e.where("mirrorSourcePolicy"), inside[0], why, incluster.Blocked(outside), incluster.Fix), e.path("mirrorSourcePolicy")...)
		}
		for i, scope := range blocked {
			if m.imageObj == nil || reportedBlocked[i] || !registries.ScopeCovers(scope, e.source) {
				continue
			}
			reportedBlocked[i] = true
			r.Object(m.imageObj, fmt.Sprintf("%s spec.registrySources.blockedRegistries[%d] %q blocks %s, whose mirror %q (%s) is %s: %s; %s",
				m.imageObj.ID(), i, scope, e.source, inside[0], e.where(), why, incluster.Blocked(outside), incluster.Fix),
				"spec", "registrySources", "blockedRegistries", strconv.Itoa(i))
		}
	}
}
