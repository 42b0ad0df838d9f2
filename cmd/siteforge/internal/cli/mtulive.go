package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/siteforge/siteforge/internal/cluster/mtu"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/discover"
	"github.com/siteforge/siteforge/internal/load"
	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/site"
)

// livePlan is the MTU plan of a running cluster's state (a must-gather, an
// Insights archive): mtu.OfState.
type livePlan struct {
	what string // discover.MustGather or discover.InsightsArchive
	st   *manifests.State
	site *site.Site
	plan mtu.Plan
	// migration is where the state's MTU migration stands
	// (mtu.MigrationOf).
	migration mtu.Progress
	notes     []string // what was not read
}

// readLivePlan reads path when it is a running cluster's state: ok false
// when it is not one; fine false when its plan cannot be made (the problem
// printed: no applied MTU, no legal cluster MTU).
func readLivePlan(e env, path string) (lp livePlan, ok, fine bool) {
	c, probs, isLive := discover.LiveCluster(path)
	if !isLive {
		return livePlan{}, false, true
	}
	for _, p := range probs {
		lp.notes = append(lp.notes, fmt.Sprintf("%s: not read: %s", diag.Clean(p.Pos.String()), diag.Clean(p.Message)))
	}
	lp.what, lp.st = c.What, manifests.ReadState(c.Objects)
	p, s, err := mtu.OfState(lp.st)
	s.Source = path
	if err != nil {
		dl, _ := diag.Split(err)
		printDiagnostics(e.stderr, load.Result{Diagnostics: dl})
		return lp, true, false
	}
	lp.site, lp.plan, lp.migration = s, p, mtu.MigrationOf(lp.st)
	return lp, true, true
}

// liveInside are the roots of the running clusters' states (must-gathers,
// Insights archives) under path when it holds no site, found as lint finds
// them (internal/discover); none when it holds a site or no state.
func liveInside(path string) []string {
	if units, d := load.Discover([]string{path}); len(d) == 0 && len(units) > 0 {
		return nil // sites: mtu plans them
	}
	found := discover.Paths([]string{path}, discover.Options{})
	if len(found.Sites) > 0 {
		return nil
	}
	var roots []string
	for _, c := range found.Clusters {
		if c.Live() {
			roots = append(roots, c.Root)
		}
	}
	return roots
}

// namedPaths names up to four paths, and how many more.
func namedPaths(ps []string) string {
	const most = 4
	out := make([]string, 0, most)
	for _, p := range ps[:min(len(ps), most)] {
		out = append(out, diag.Clean(p))
	}
	if len(ps) > most {
		return fmt.Sprintf("%s and %d more", strings.Join(out, ", "), len(ps)-most)
	}
	return strings.Join(out, ", ")
}

// write prints the plan: the links as for a site, then what the cluster
// applies, and the migration to run or the one under way.
func (lp livePlan) write(w io.Writer) {
	s, p, st := lp.site, lp.plan, lp.st
	rel := "release unknown"
	if st.Release.Minor > 0 {
		rel = "OpenShift " + st.Release.Minor.String()
	}
	where := diag.Clean(st.Platform)
	if st.Region != "" {
		where += " " + diag.Clean(st.Region)
	}
	fmt.Fprintf(w, "cluster %s (%s, %s): %s, %s, %s\n", diag.Clean(s.Name), diag.Clean(s.Source), lp.what, planTraits(s, p), rel, where)
	for _, n := range lp.notes {
		fmt.Fprintf(w, "  %s\n", n)
	}
	fmt.Fprintln(w)
	for _, name := range s.PoolNames() {
		pool := s.Pools[name]
		place := ""
		if pool.Zone != "" {
			place = fmt.Sprintf(", %s %s", pool.Placement, diag.Clean(pool.Zone))
		}
		fmt.Fprintf(w, "  pool %s: %d nodes%s\n", diag.Clean(name), pool.Size(), place)
	}
	fmt.Fprintln(w)
	tw := writeLinks(w, p)
	fmt.Fprintf(tw, "  target\t%d\tcomputed from the links\n", p.Target)
	cur := fmt.Sprintf("status.clusterNetworkMTU (%s)", s.Positions.Of("mtu.current"))
	pr := lp.migration
	switch {
	case pr.Stage == mtu.Phase1RollingOut || pr.Stage == mtu.Phase2Due:
		fmt.Fprintf(tw, "  current\t%d\t%s: the MTU migration %d -> %d is under way\n", *p.Current, cur, pr.From, pr.To)
	case pr.Stage == mtu.Phase2RollingOut:
		fmt.Fprintf(tw, "  current\t%d\t%s: phase 2 of the MTU migration to %d is rolling out\n", *p.Current, cur, pr.To)
	case pr.Stage == mtu.MigrationUnknown:
		fmt.Fprintf(tw, "  current\t%d\t%s: an MTU migration is under way\n", *p.Current, cur)
	case p.MigrationDue():
		fmt.Fprintf(tw, "  current\t%d\t%s: an MTU migration %d -> %d is due\n", *p.Current, cur, *p.Current, p.Target)
	default:
		fmt.Fprintf(tw, "  current\t%d\t%s: matches the target, no migration\n", *p.Current, cur)
	}
	if p.Machine > 0 {
		fmt.Fprintf(tw, "  machine\t%d\tthe uplink MTU every pool has\n", p.Machine)
	}
	tw.Flush()
	phase2 := func() {
		fmt.Fprintf(w, "  2. %s\n     then wait until every MachineConfigPool is Updated: each node reboots once more; Network.config status.clusterNetworkMTU becomes %d\n",
			pr.Phase2Command(st.NetworkType()), pr.To)
	}
	switch pr.Stage {
	case mtu.Phase1RollingOut:
		fmt.Fprintf(w, "\nthe MTU migration %d -> %d is under way (Network.operator spec.migration.mtu, %s): phase 1 has not reached every node: pool %s\nwhat remains:\n",
			pr.From, pr.To, st.Operator.PosOf("spec", "migration", "mtu"), poolsText(pr.Behind()))
		fmt.Fprintln(w, "  1. wait until every MachineConfigPool is Updated (oc get machineconfigpools): each node reboots once; a pool that stays behind is degraded or paused")
		phase2()
		return
	case mtu.Phase2Due:
		fmt.Fprintf(w, "\nthe MTU migration %d -> %d is under way (Network.operator spec.migration.mtu, %s): phase 1 runs on every node\nwhat remains:\n",
			pr.From, pr.To, st.Operator.PosOf("spec", "migration", "mtu"))
		phase2()
		return
	case mtu.Phase2RollingOut:
		fmt.Fprintf(w, "\nthe MTU migration to %d is finishing: phase 2 is applied, and pool %s still runs %s\n", pr.To, poolsText(pr.Behind()), platform.MCOUnitMTUMigration)
		fmt.Fprintln(w, "what remains: wait until every MachineConfigPool is Updated (oc get machineconfigpools): each node reboots once more")
		return
	case mtu.MigrationUnknown:
		fmt.Fprintf(w, "\nan MTU migration is under way (Network.operator spec.migration.mtu, %s); the state does not say how far it went (siteforge lint: MTU014, MTU004)\n",
			st.Operator.PosOf("spec", "migration", "mtu"))
		return
	}
	ph1, ph2 := p.Phases()
	if ph1 == nil {
		return
	}
	fmt.Fprintf(w, "\nthe MTU migration %d -> %d, in two phases (docs \"Changing the cluster network MTU\"):\n", *p.Current, p.Target)
	fmt.Fprintf(w, "  1. %s\n     then wait until every MachineConfigPool is Updated (oc get machineconfigpools): each node reboots once\n", mtu.PatchCommand(ph1))
	fmt.Fprintf(w, "  2. %s\n     then wait again: each node reboots once more; Network.config status.clusterNetworkMTU becomes %d\n", mtu.PatchCommand(ph2), p.Target)
}

// remains is, for --check, what remains of a migration under way ("" when
// none is: a migration is due, or nothing).
func (lp livePlan) remains() string {
	pr := lp.migration
	switch pr.Stage {
	case mtu.Phase1RollingOut:
		return fmt.Sprintf("phase 1 is rolling out (pool %s), then phase 2", poolsText(pr.Behind()))
	case mtu.Phase2Due:
		return "phase 2 remains"
	case mtu.Phase2RollingOut:
		return fmt.Sprintf("phase 2 is rolling out (pool %s)", poolsText(pr.Behind()))
	case mtu.MigrationUnknown:
		return "how far it went is not in the state"
	}
	return ""
}

// poolsText names pools with how far their nodes are.
func poolsText(ps []mtu.PoolMigration) string {
	var out []string
	for _, p := range ps {
		out = append(out, diag.Clean(p.String()))
	}
	return strings.Join(out, ", ")
}

// json is the plan as mtu --format json reports a site's, with the state
// it was read from and the migration's phases.
func (lp livePlan) json() mtuSiteJSON {
	out := planJSON(lp.site, lp.plan)
	out.State = lp.what
	if ph1, ph2 := lp.plan.Phases(); ph1 != nil && lp.st.MTUMigration() == nil {
		out.Phases = []string{mtu.PatchCommand(ph1), mtu.PatchCommand(ph2)}
	}
	return out
}
