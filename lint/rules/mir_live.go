package rules

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/registries"
	"github.com/siteforge/siteforge/lint"
)

// ---------------------------------------------------------------- MIR026

// checkCatalogPullFailing: on a running cluster, a catalog pod whose image
// pull failed (platform.ImagePullFailureReasons) while its CatalogSource
// pulls by tag a reference the registries.conf of the pod's node cannot
// resolve by tag (the digest-only mirrors of a blocked source: MIR001's
// analysis). The node's file is the one its pool runs (the rendered config
// of status.configuration) when the state holds it, else the one the
// cluster's mirror objects render.
func checkCatalogPullFailing(set lint.Set, r *lint.Reporter) {
	st := liveState(set)
	if st == nil || len(st.Catalogs) == 0 {
		return
	}
	a := analyze(set)
	var nodePools map[string]*manifests.Pool // built for the first failing pod
	for _, c := range st.Catalogs {
		ref := c.Spec.Image
		if ref == "" || !(imageRef{ref: ref}).byTag() {
			continue
		}
		for _, p := range c.Pods {
			failing := pullFailures(p, ref)
			if len(failing) == 0 {
				continue
			}
			if nodePools == nil {
				nodePools = poolsOfNodes(st)
			}
			data, on := a.nodeTOML, ""
			if f, ok := podRegistriesConf(st, nodePools, p); ok {
				data, on = f.Data, fmt.Sprintf("in the registries.conf its node %s runs (pool %s, %s), ", p.Pod.Spec.NodeName, f.Pool.Obj.Name, f.Config)
			}
			prefix, digestOnly, why := tagPullFailureIn(data, ref, set.Disconnected)
			if prefix == "" {
				continue
			}
			fix := fmt.Sprintf("add an ImageTagMirrorSet for %s, or point spec.image at the mirror by digest", prefix)
			if objPrefix, _, _ := a.tagPullFailure(ref, set.Disconnected); on != "" && objPrefix == "" {
				fix = "the cluster's mirror objects already serve it, but this pool's nodes do not run them yet (MIR027 says why): let the pool update"
			}
			for _, i := range failing {
				cs := p.Pod.Status.ContainerStatuses[i]
				w := cs.State.Waiting
				r.Object(p.Obj, fmt.Sprintf("the catalog pod's container %s is in %s (%q): CatalogSource %s/%s pulls %s by tag (spec.image), but %s%s and %s, so the pull fails and the catalog serves no operator; %s",
					cs.Name, w.Reason, diag.Clean(w.Message), c.Obj.Namespace, c.Obj.Name, ref,
					on, tagCoverage(prefix, digestOnly, "it"), why, fix),
					"status", "containerStatuses", strconv.Itoa(i), "state", "waiting", "reason")
			}
		}
	}
}

// pullFailures are the indexes in status.containerStatuses of the pod's
// containers whose pull of ref failed (platform.ImagePullFailureReasons).
func pullFailures(p *manifests.CatalogPod, ref string) []int {
	var out []int
	for i, cs := range p.Pod.Status.ContainerStatuses {
		if w := cs.State.Waiting; w != nil && slices.Contains(platform.ImagePullFailureReasons, w.Reason) && cs.Image == ref {
			out = append(out, i)
		}
	}
	return out
}

// poolsOfNodes maps each node's name to its pool (State.PoolOf), for the
// nodes in one.
func poolsOfNodes(st *manifests.State) map[string]*manifests.Pool {
	byName := map[string]*manifests.Pool{}
	for _, p := range st.Pools {
		if byName[p.Obj.Name] == nil {
			byName[p.Obj.Name] = p
		}
	}
	out := map[string]*manifests.Pool{}
	for _, n := range st.Nodes {
		if p := byName[st.PoolOf(n)]; p != nil && out[n.Name] == nil {
			out[n.Name] = p
		}
	}
	return out
}

// podRegistriesConf is the registries.conf the node of a pod runs: its
// pool's (nodePools: poolsOfNodes), from the rendered config of the pool's
// status.configuration; false when the state does not hold it.
func podRegistriesConf(st *manifests.State, nodePools map[string]*manifests.Pool, p *manifests.CatalogPod) (manifests.PoolFile, bool) {
	pool := nodePools[p.Pod.Spec.NodeName]
	if pool == nil {
		return manifests.PoolFile{}, false
	}
	f := st.RunningFile(pool, platform.RegistriesConfPath)
	return f, f.Data != nil
}

// ---------------------------------------------------------------- MIR027

// checkPoolRegistriesConf: on a running cluster, a pool whose nodes run
// (the rendered config of its status.configuration) a registries.conf
// other than the one the cluster's mirror objects render for it, and why:
// the pool is paused, the new config is rolling out, the pool is degraded,
// or MCO has not rendered it yet.
func checkPoolRegistriesConf(set lint.Set, r *lint.Reporter) {
	st := liveState(set)
	if st == nil {
		return
	}
	a := analyze(set)
	if a.toml == nil || len(a.refusals) > 0 {
		return // MCO refuses the mirror objects (their rules say where) and keeps the nodes' file
	}
	for _, p := range st.Pools {
		run := st.RunningFile(p, platform.RegistriesConfPath)
		want := a.poolTOML(set, p.Obj.Name)
		if run.Data == nil || want == nil {
			continue // the state does not hold the file (an Insights archive strips it)
		}
		differ, ok := registriesConfDiff(run.Data, want)
		if !ok || differ == "" {
			continue
		}
		name, mcp := p.Obj.Name, p.MCP
		stale := fmt.Sprintf("its nodes run %s, whose registries.conf is not the one the cluster's mirror objects render for them now (%s)", run.Config, differ)
		target := st.TargetFile(p, platform.RegistriesConfPath)
		targetDiffer, targetOK := registriesConfDiff(target.Data, want)
		switch {
		case mcp.Spec.Paused:
			r.Object(p.Obj, fmt.Sprintf("pool %s is paused (spec.paused): %s, and MCO gives a paused pool's nodes no new config, so their image pulls still follow the old mirror configuration; "+
				"unpause it when its nodes may be updated (each drains, or reboots, as the change needs): `oc patch machineconfigpool %s --type=merge -p '{\"spec\":{\"paused\":false}}'`",
				name, stale, name), "spec", "paused")
		case target.Data != nil && targetOK && targetDiffer == "" && target.Config != run.Config:
			r.Object(p.Obj, fmt.Sprintf("pool %s is rolling out %s (%d of %d nodes updated): until it is done, %s, and pulls there still follow the old mirror configuration; "+
				"wait until the pool is Updated (oc get machineconfigpool %s)", name, target.Config, mcp.Status.UpdatedMachineCount, mcp.Status.MachineCount, stale, name),
				"status", "configuration", "name")
		case p.True(platform.PoolConditionDegraded):
			msg := ""
			if c := p.Condition(platform.PoolConditionDegraded); c != nil && c.Message != "" {
				msg = fmt.Sprintf(" (%q)", diag.Clean(c.Message))
			}
			r.Object(p.Obj, fmt.Sprintf("pool %s is degraded%s: %s, and MCO rolls out nothing to it until the degradation is fixed (MCF008 names a MachineConfig another rule flags)",
				name, msg, stale), "status", "configuration", "name")
		default:
			r.Object(p.Obj, fmt.Sprintf("pool %s: %s, and MCO has not rendered it into the pool's config yet (spec.configuration %s holds another): the mirror objects are newer than "+
				"what the controller had rendered when the state was gathered, or its container runtime config controller is failing (oc logs -n %s deployment/machine-config-controller)",
				name, stale, target.Config, platform.MCONamespace), "status", "configuration", "name")
		}
	}
}

// registriesConfDiff says how the registries.conf nodes run differs from
// the one the objects render, table by table ("" when they are the same
// file, whatever their quoting and spacing); false when either does not
// load.
func registriesConfDiff(nodes, objects []byte) (string, bool) {
	if nodes == nil || objects == nil {
		return "", false
	}
	n, err := registries.Parse(nodes)
	if err != nil {
		return "", false
	}
	o, err := registries.Parse(objects)
	if err != nil {
		return "", false
	}
	var parts []string
	if !reflect.DeepEqual(n.UnqualifiedSearchRegistries, o.UnqualifiedSearchRegistries) {
		parts = append(parts, "unqualified-search-registries")
	}
	tables := func(c *registries.Config) map[string]registries.Registry {
		m := map[string]registries.Registry{}
		for _, reg := range c.Registries {
			m[reg.Scope()] = reg
		}
		return m
	}
	nt, ot := tables(n), tables(o)
	var changed, added, gone []string
	for _, scope := range slices.Sorted(maps.Keys(ot)) {
		nr, ok := nt[scope]
		switch {
		case !ok:
			added = append(added, scope)
		case !reflect.DeepEqual(nr, ot[scope]):
			changed = append(changed, scope)
		}
	}
	for _, scope := range slices.Sorted(maps.Keys(nt)) {
		if _, ok := ot[scope]; !ok {
			gone = append(gone, scope)
		}
	}
	if len(changed) > 0 {
		parts = append(parts, "the table of "+namedList(changed)+" differs")
	}
	if len(added) > 0 {
		parts = append(parts, "the objects add the table of "+namedList(added))
	}
	if len(gone) > 0 {
		parts = append(parts, "the objects no longer have the table of "+namedList(gone))
	}
	if len(parts) == 0 && !reflect.DeepEqual(n, o) {
		parts = append(parts, "their settings differ")
	}
	return strings.Join(parts, "; "), true
}
