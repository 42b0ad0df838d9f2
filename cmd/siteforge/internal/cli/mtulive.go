package cli

import (
	"fmt"
	"io"

	"github.com/siteforge/siteforge/internal/cluster/mtu"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/discover"
	"github.com/siteforge/siteforge/internal/load"
	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/site"
)

// livePlan is the MTU plan of a running cluster's state (a must-gather, an
// Insights archive): mtu.OfState.
type livePlan struct {
	what  string // discover.MustGather or discover.InsightsArchive
	st    *manifests.State
	site  *site.Site
	plan  mtu.Plan
	notes []string // what was not read
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
	lp.site, lp.plan = s, p
	return lp, true, true
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
	mig := st.MTUMigration()
	underWay := mig != nil && mig.Network != nil && mig.Network.To != nil
	switch {
	case p.MigrationDue() && underWay:
		fmt.Fprintf(tw, "  current\t%d\t%s: a migration to %d is under way\n", *p.Current, cur, *mig.Network.To)
	case p.MigrationDue():
		fmt.Fprintf(tw, "  current\t%d\t%s: an MTU migration %d -> %d is due\n", *p.Current, cur, *p.Current, p.Target)
	default:
		fmt.Fprintf(tw, "  current\t%d\t%s: matches the target, no migration\n", *p.Current, cur)
	}
	if p.Machine > 0 {
		fmt.Fprintf(tw, "  machine\t%d\tthe uplink MTU every pool has\n", p.Machine)
	}
	tw.Flush()
	if underWay {
		fmt.Fprintf(w, "\nan MTU migration is under way: Network.operator spec.migration.mtu network.to %d (%s); siteforge lint says how far it went (MTU014)\n",
			*mig.Network.To, st.Operator.PosOf("spec", "migration", "mtu"))
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
