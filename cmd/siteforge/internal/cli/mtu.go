package cli

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/spf13/pflag"

	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/internal/cluster/mtu"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/load"
	"github.com/siteforge/siteforge/internal/site"
)

func init() {
	register(&command{
		name:    "mtu",
		args:    "PATH... [--check]",
		summary: "print the cluster MTU plan of sites or running clusters: links, binding constraint, overhead, result",
		help: `For every site named by PATH (as for vet), prints every link overlay traffic
crosses (each pool's uplink, each path between pools, and the platform's
default paths such as AWS Local Zone <-> Region), its MTU and where the number
comes from; the binding constraint (the smallest links, marked *); the overlay
overhead; the largest legal cluster MTU; the target; and, for a running site,
the MTU it applies now (mtu.current) and whether a migration is due.

A PATH may be a running cluster's state instead: the folder oc adm
must-gather writes (or one image folder of it) or an unpacked Insights
archive, or a folder without sites holding exactly one of them (found as
lint finds it; with several, give the one to plan). Its plan is the cluster's own: the applied MTU (Network.config
status.clusterNetworkMTU), the platform and network type it runs, a pool per
MachineConfigPool of its nodes and one per AWS Local or Wavelength Zone of its
edge nodes, each uplink at the platform's default MTU; when a migration is
due, the two phases to run (oc patch commands), and when one is under way,
how far it went (the rendered config each pool's nodes run) and what
remains.

Exit 0 when every site has a legal plan, 2 when a site does not load or has no
legal cluster MTU (the problem is shown at its position). With --check, exit 1
when a running site's mtu.current (a running cluster's applied MTU) differs
from its target: an MTU migration is due (siteforge render writes it), or,
on a running cluster, under way (what remains is said).`,
		example: `  siteforge mtu examples/aws-local-zones
  siteforge mtu --check --format json examples/aws-local-zones | jq '.sites[].links[] | select(.binding)'
  siteforge mtu must-gather.local.5483957185`,
		flags: func(fs *pflag.FlagSet) func(env, []string) int {
			check := fs.Bool("check", false, "exit 1 when a running site's MTU differs from the plan (a migration is due)")
			format := fs.String("format", "text", "output format: text or json (docs/json/mtu.schema.json)")
			return func(e env, args []string) int {
				if len(args) == 0 {
					return usageError(e, "mtu", "no PATH given")
				}
				if !formatFlag(e, "mtu", *format) {
					return ExitFailure
				}
				var paths []string
				var live []livePlan
				for _, a := range args {
					lp, ok, fine := readLivePlan(e, a)
					if ok || !fine {
						if !fine {
							return ExitFailure
						}
						live = append(live, lp)
						continue
					}
					// no site here: the running cluster's state inside,
					// as lint finds it, when there is one
					switch roots := liveInside(a); len(roots) {
					case 0:
						paths = append(paths, a)
					case 1:
						if lp, _, fine = readLivePlan(e, roots[0]); !fine {
							return ExitFailure
						}
						live = append(live, lp)
					default:
						printDiagnostics(e.stderr, load.Result{Diagnostics: diag.List{{Pos: diag.Position{File: a},
							Message: fmt.Sprintf("no site here, but %d running clusters' states: %s", len(roots), namedPaths(roots)),
							Hint:    "give the folder of the must-gather (or Insights archive) whose plan to print; siteforge mtu takes several PATHs"}}})
						return ExitFailure
					}
				}
				// The one check pipeline first (verdict.Site): a site that
				// vet or render refuses has no plan to print either.
				sites := map[int]*site.Site{}
				ok := true
				if len(paths) > 0 {
					var mu sync.Mutex
					run, err := eachSite(paths, generators.Options{}, func(i int, o *generators.Output) error {
						mu.Lock()
						sites[i] = o.Site
						mu.Unlock()
						return nil
					})
					ok = finish(e, run, err)
					if err != nil {
						return ExitFailure
					}
				}
				var due, underWay []string
				first := true
				plans := mtuJSON{SchemaVersion: jsonSchemaVersion, Sites: []mtuSiteJSON{}}
				for _, lp := range live {
					switch remains := lp.remains(); {
					case remains != "" && lp.plan.MigrationDue():
						underWay = append(underWay, fmt.Sprintf("an MTU migration is under way for %s: %s", diag.Clean(lp.site.Name), remains))
					case lp.plan.MigrationDue():
						due = append(due, lp.site.Name)
					}
					if *format == "json" {
						plans.Sites = append(plans.Sites, lp.json())
						continue
					}
					if !first {
						fmt.Fprintln(e.stdout)
					}
					first = false
					lp.write(e.stdout)
				}
				for _, i := range sortedIndexes(sites) {
					s := sites[i]
					p, err := mtu.Of(s)
					if err != nil {
						// the network generator refuses what mtu.Of refuses
						fmt.Fprintf(e.stderr, "siteforge mtu: site %s: internal error: %s\n", diag.Clean(s.Name), diag.Clean(err.Error()))
						return ExitFailure
					}
					if s.Cluster.Lifecycle == "running" && p.MigrationDue() {
						due = append(due, s.Name)
					}
					if *format == "json" {
						plans.Sites = append(plans.Sites, planJSON(s, p))
						continue
					}
					if !first {
						fmt.Fprintln(e.stdout)
					}
					first = false
					writePlan(e.stdout, s, p)
				}
				if *format == "json" && writeJSON(e, "mtu", plans) != ExitOK {
					return ExitFailure
				}
				if !ok {
					return ExitFailure
				}
				if *check && len(due)+len(underWay) > 0 {
					if len(due) > 0 {
						fmt.Fprintf(e.stderr, "an MTU migration is due for %s\n", strings.Join(due, ", "))
					}
					for _, u := range underWay {
						fmt.Fprintln(e.stderr, u)
					}
					return ExitFindings
				}
				return ExitOK
			}
		},
	})
}

// writePlan prints one site's plan as a table.
func writePlan(w io.Writer, s *site.Site, p mtu.Plan) {
	fmt.Fprintf(w, "site %s (%s): %s\n\n", diag.Clean(s.Name), diag.Clean(s.Source), planTraits(s, p))
	tw := writeLinks(w, p)
	if p.TargetFromSite {
		fmt.Fprintf(tw, "  target\t%d\tmtu.target (%s)\n", p.Target, s.Positions.Of("mtu.target"))
	} else {
		fmt.Fprintf(tw, "  target\t%d\tcomputed (no mtu.target)\n", p.Target)
	}
	switch {
	case s.Cluster.Lifecycle != "running":
		fmt.Fprintf(tw, "  install\t%d\tsiteforge render writes it to install/manifests/cluster-network-03-config.yml\n", p.Target)
	case p.Current == nil:
		fmt.Fprintf(tw, "  current\t?\tunknown: set mtu.current (oc get network.config cluster -o jsonpath='{.status.clusterNetworkMTU}')\n")
	case p.MigrationDue():
		fmt.Fprintf(tw, "  current\t%d\tmtu.current: an MTU migration %d -> %d is due (siteforge render writes network/mtu-migration-*)\n", *p.Current, *p.Current, p.Target)
	default:
		fmt.Fprintf(tw, "  current\t%d\tmtu.current: matches the target, no migration\n", *p.Current)
	}
	switch {
	case s.MTU != nil && s.MTU.Machine != nil:
		fmt.Fprintf(tw, "  machine\t%d\tmtu.machine: the uplink MTU of every node\n", p.Machine)
	case p.Machine > 0:
		fmt.Fprintf(tw, "  machine\t%d\tthe uplink MTU every pool has\n", p.Machine)
	}
	tw.Flush()
}

// planTraits says what the plan is for: network type, address family,
// IPsec, lifecycle.
func planTraits(s *site.Site, p mtu.Plan) string {
	family := "IPv4"
	if p.AnyIPv6 {
		family = "IPv6 in the cluster network"
	}
	return fmt.Sprintf("%s, %s, IPsec %s, %s", p.NetworkType, family, diag.Clean(s.Network.IPsec), diag.Clean(s.Cluster.Lifecycle))
}

// writeLinks prints the plan's links and bounds (binding constraint,
// overhead, largest cluster MTU) and returns the table the caller ends.
func writeLinks(w io.Writer, p mtu.Plan) *tabwriter.Writer {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  LINK\tMTU\tFROM")
	for _, l := range p.Links {
		mark := " "
		if l.Binding {
			mark = "*"
		}
		from := l.Origin
		if l.Pos.IsValid() {
			from += " (" + l.Pos.String() + ")"
		}
		if l.Note != "" {
			from += ": " + l.Note
		}
		fmt.Fprintf(tw, "%s %s\t%d\t%s\n", mark, diag.Clean(l.Label()), l.MTU, diag.Clean(from))
	}
	tw.Flush()
	fmt.Fprintln(w)

	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	var names []string
	for _, l := range p.BindingLinks() {
		names = append(names, diag.Clean(l.Label()))
	}
	fmt.Fprintf(tw, "  binding constraint\t%d\t%s (marked *)\n", p.Smallest, strings.Join(names, ", "))
	fmt.Fprintf(tw, "  overhead\t-%d\t%s (%s)\n", p.Overhead, p.OverheadName, p.NetworkType)
	fmt.Fprintf(tw, "  cluster MTU\t%d\tlargest legal value (CNO accepts %d-%d)\n", p.Largest, p.Floor, p.Max)
	return tw
}
