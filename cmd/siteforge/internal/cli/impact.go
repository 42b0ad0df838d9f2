package cli

import (
	"archive/tar"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/spf13/pflag"

	"github.com/siteforge/siteforge/cmd/siteforge/internal/guard"
	"github.com/siteforge/siteforge/cmd/siteforge/internal/verdict"
	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/internal/cluster/disruption"
	"github.com/siteforge/siteforge/internal/cluster/impact"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/discover"
	"github.com/siteforge/siteforge/internal/load"
	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/output"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/site"
)

func init() {
	register(&command{
		name:    "impact",
		args:    "(OLD NEW | --git REV [PATH...]) [--format text|json|markdown] [--fail-on reboot|drain]",
		summary: "which nodes a change drains or reboots, pool by pool (the Machine Config Operator's rules)",
		help: `Compares two states of the same inputs - OLD and NEW are anything lint reads
(sites, fleets, rendered output folders, plain manifest folders, and a
running cluster's state: a must-gather or an Insights archive), or with
--git REV the PATHs (default .) at git revision REV against the working tree,
read through git without a checkout - and says for each cluster and
MachineConfigPool what the Machine Config Operator does to its nodes: none,
reload (CRI-O), restart (CRI-O), drain, or reboot, change by change, with MCO's
reason, and how many nodes that is.

A pool's configuration is every MachineConfig its machineConfigSelector
takes, plus the registries.conf MCO generates from the mirror objects and
image.config; a MachineConfiguration "cluster" in NEW (node disruption
policies, 4.17+) changes the actions the way MCO applies it. MTU and network
type migrations (Network objects) reboot every pool. Clusters are matched by
site name, or by their folder relative to OLD and NEW. A must-gather, as OLD
or NEW, is the cluster the other side holds when that side holds one: its
pools, their node counts (status.machineCount) and maxUnavailable are the
cluster's own where the other side does not define them, and the
MachineConfigs MCO generated are MCO's on both sides, so the same state as
OLD and NEW changes nothing. Two must-gathers of one cluster give what
changed between them.
docs/impact.md lists the rules and their MCO sources.

Exit 0; 1 with --fail-on reboot|drain when a pool's action is at least that;
2 when an input cannot be read or rendered.`,
		flags: func(fs *pflag.FlagSet) func(env, []string) int {
			format := fs.String("format", "text", "output format: text, json or markdown")
			failOn := fs.String("fail-on", "", "exit 1 when a pool is drained or rebooted: reboot or drain")
			rev := fs.String("git", "", "compare PATHs at this git revision with the working tree")
			return func(e env, args []string) int {
				switch *format {
				case "text", "json", "markdown":
				default:
					return usageError(e, "impact", fmt.Sprintf("unknown --format \"%s\" (text, json, markdown)", *format))
				}
				threshold := disruption.Action(-1)
				switch *failOn {
				case "":
				case "reboot":
					threshold = disruption.Reboot
				case "drain":
					threshold = disruption.Drain
				default:
					return usageError(e, "impact", fmt.Sprintf("--fail-on \"%s\": reboot or drain", *failOn))
				}
				var before, after []impact.Cluster
				var ok bool
				if *rev != "" {
					paths := args
					if len(paths) == 0 {
						paths = []string{"."}
					}
					before, after, ok = gitSides(e, *rev, paths)
				} else {
					if len(args) != 2 {
						return usageError(e, "impact", "give OLD and NEW, or --git REV [PATH...]")
					}
					if before, ok = impactSide(e, args[0], []string{args[0]}, true); ok {
						after, ok = impactSide(e, args[1], []string{args[1]}, false)
					}
					if ok && len(before) == 1 && len(after) == 1 {
						sameCluster(&before[0], &after[0])
					}
				}
				if !ok {
					return ExitFailure
				}
				rep, err := impact.Compare(before, after)
				if err != nil {
					fmt.Fprintf(e.stderr, "siteforge impact: %s\n", diag.Clean(err.Error()))
					return ExitFailure
				}
				var b bytes.Buffer
				switch *format {
				case "json":
					enc := json.NewEncoder(&b)
					enc.SetIndent("", "  ")
					if err := enc.Encode(rep); err != nil {
						fmt.Fprintf(e.stderr, "siteforge impact: %s\n", diag.Clean(err.Error()))
						return ExitFailure
					}
				case "markdown":
					impactMarkdown(&b, rep)
				default:
					impactText(&b, rep)
				}
				_, _ = e.stdout.Write(b.Bytes())
				if threshold >= 0 && rep.Max() >= threshold {
					return ExitFindings
				}
				return ExitOK
			}
		},
	})
}

// impactSide reads one state: the clusters under paths, named relative to
// base (sites by their name). The new state's sites pass the check pipeline
// as render's do (a site render refuses has no impact to show); the old
// state (old) is what was rendered before: its sites are rendered, and the
// lint rules' findings on them refuse nothing (a change that fixes a lint
// error still has its impact shown).
func impactSide(e env, base string, paths []string, old bool) ([]impact.Cluster, bool) {
	found := discover.Paths(paths, discover.Options{})
	var diags diag.List
	for _, p := range found.Problems {
		if p.Kind == manifests.ProblemTemplate {
			continue // not a cluster object until rendered
		}
		diags = append(diags, p.Diagnostic)
	}
	if printDiagnostics(e.stderr, load.Result{Diagnostics: diags.Sort()}) {
		return nil, false
	}
	var out []impact.Cluster
	names := map[string]bool{}
	if len(found.Sites) > 0 {
		units, d := load.Discover(found.Sites)
		var extra []*manifests.Object
		if len(units) == 1 {
			extra, found.Loose = found.Loose, nil
		}
		bySite := map[int]impact.Cluster{}
		var mu sync.Mutex
		run, err := eachUnit(units, d, verdict.Options{Findings: old}, func(i int, o *generators.Output) error {
			objs, _, err := o.Objects()
			if err != nil {
				return err
			}
			c := impact.Cluster{Name: o.Site.Name, Objects: append(objs, extra...), ReleaseImage: o.Site.Cluster.ReleaseImage, PoolNodes: map[string]int{},
				NotInstalled: o.Site.Cluster.Lifecycle == site.LifecycleInstall}
			if m, err := o.Site.Minor(); err == nil {
				c.Minor = m
			}
			for _, name := range o.Site.PoolNames() {
				p := o.Site.Pools[name]
				mcp := p.MachineConfigPool()
				n := p.Size()
				if prev, ok := c.PoolNodes[mcp]; ok && (prev < 0 || n < 0) {
					n = -1
				} else if ok {
					n += prev
				}
				c.PoolNodes[mcp] = n
			}
			mu.Lock()
			bySite[i] = c
			mu.Unlock()
			return nil
		})
		if err != nil {
			fmt.Fprintf(e.stderr, "siteforge impact: %s\n", diag.Clean(err.Error()))
			return nil, false
		}
		if printDiagnostics(e.stderr, load.Result{Diagnostics: run.Diagnostics, Sources: run.Sources}) {
			return nil, false
		}
		for _, i := range sortedIndexes(bySite) {
			out = append(out, bySite[i])
			names[bySite[i].Name] = true
		}
	}
	plain := func(name string, objs []*manifests.Object, live bool) {
		c := impact.Cluster{Name: name, Objects: objs, Live: live}
		rel := manifests.ReadRelease(objs)
		c.Minor, c.ReleaseImage = rel.Minor, rel.Image
		out = append(out, c)
	}
	if len(found.Loose) > 0 {
		plain("manifests", found.Loose, false)
	}
	for _, c := range found.Clusters {
		if len(c.Objects) == 0 {
			continue
		}
		name := c.RenderedSite
		if name == "" {
			rel, err := filepath.Rel(base, c.Root)
			if err != nil {
				rel = c.Root
			}
			name = filepath.ToSlash(rel)
		}
		if names[name] {
			continue // the site itself is in the input
		}
		plain(name, c.Objects, c.Live())
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, true
}

// sameCluster names a running cluster's state (a must-gather, an
// Insights archive) as the one cluster the other side holds: OLD and NEW
// are the same cluster, whichever of them was gathered from it. Two
// gathered states take OLD's name.
func sameCluster(before, after *impact.Cluster) {
	switch {
	case after.Live:
		after.Name = before.Name
	case before.Live:
		before.Name = after.Name
	}
}

// maxGitArchive bounds what is read from git for --git.
const maxGitArchive = 512 << 20

// gitSides reads paths at rev (the tree at rev through git archive, into a
// private temporary folder removed afterwards) and in the working tree.
func gitSides(e env, rev string, paths []string) (before, after []impact.Cluster, ok bool) {
	top, err := gitOutput("", "rev-parse", "--show-toplevel")
	if err != nil {
		fmt.Fprintf(e.stderr, "siteforge impact: --git needs a git work tree: %s\n", diag.Clean(err.Error()))
		return nil, nil, false
	}
	top = strings.TrimSpace(top)
	var rels []string
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			fmt.Fprintf(e.stderr, "siteforge impact: %s: %s\n", diag.Clean(p), diag.Clean(err.Error()))
			return nil, nil, false
		}
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			abs = real
		}
		if realTop, err := filepath.EvalSymlinks(top); err == nil {
			top = realTop
		}
		rel, err := filepath.Rel(top, abs)
		if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
			fmt.Fprintf(e.stderr, "siteforge impact: %s is outside the git work tree %s\n", diag.Clean(p), diag.Clean(top))
			return nil, nil, false
		}
		rels = append(rels, filepath.ToSlash(rel))
	}
	// The tree at rev goes to a scratch folder registered with the abort
	// path before it exists: an interrupt stops the extraction, then
	// removes it; a killed run's folder is removed by the next impact
	// --git (output.Scratch).
	var sc output.Scratch
	defer guard.OnAbort(sc.Abort)()
	defer sc.Abort()
	guard.Announce(os.TempDir(), "siteforge-impact-")
	tmp, err := sc.Create(os.TempDir(), "siteforge-impact-")
	if err != nil {
		fmt.Fprintf(e.stderr, "siteforge impact: %s: %s\n", diag.Clean(os.TempDir()), diag.Clean(err.Error()))
		return nil, nil, false
	}
	// The whole tree at rev: a site folder of a fleet needs the fleet's
	// defaults, outside the PATH.
	if err := gitArchive(top, rev, nil, tmp, sc.Do); err != nil {
		fmt.Fprintf(e.stderr, "siteforge impact: git archive %s: %s\n", diag.Clean(rev), diag.Clean(err.Error()))
		return nil, nil, false
	}
	for i, rel := range rels {
		old := filepath.Join(tmp, filepath.FromSlash(rel))
		if _, err := os.Stat(old); err != nil {
			continue // the path is new since rev: nothing before
		}
		b, ok := impactSide(e, old, []string{old}, true)
		if !ok {
			return nil, nil, false
		}
		a, ok := impactSide(e, paths[i], []string{paths[i]}, false)
		if !ok {
			return nil, nil, false
		}
		before, after = append(before, b...), append(after, a...)
	}
	for i, rel := range rels {
		if _, err := os.Stat(filepath.Join(tmp, filepath.FromSlash(rel))); err == nil {
			continue
		}
		a, ok := impactSide(e, paths[i], []string{paths[i]}, false)
		if !ok {
			return nil, nil, false
		}
		after = append(after, a...)
	}
	return before, after, true
}

func gitOutput(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%v: %s", err, strings.TrimSpace(errb.String()))
	}
	return out.String(), nil
}

// gitArchive extracts rels at rev into dir: regular files and folders only
// (symbolic links and other entries are skipped), paths confined to dir,
// at most maxGitArchive bytes. Each entry is written through do (the
// scratch folder's writer: an abort stops it).
func gitArchive(top, rev string, rels []string, dir string, do func(func() error) error) error {
	if strings.HasPrefix(rev, "-") {
		return fmt.Errorf("revision %q starts with '-'", rev)
	}
	args := []string{"-C", top, "archive", "--format=tar", rev}
	if len(rels) > 0 {
		args = append(append(args, "--"), rels...)
	}
	cmd := exec.Command("git", args...)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	extractErr := untar(io.LimitReader(out, maxGitArchive+1), dir, do)
	_, _ = io.Copy(io.Discard, out)
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("%v: %s", err, strings.TrimSpace(errb.String()))
	}
	return extractErr
}

func untar(r io.Reader, dir string, do func(func() error) error) error {
	tr := tar.NewReader(r)
	var total int64
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		target := filepath.Join(dir, filepath.FromSlash(h.Name))
		if rel, err := filepath.Rel(dir, target); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(h.Name) {
			continue // never outside dir
		}
		switch h.Typeflag {
		case tar.TypeDir:
			if err := do(func() error { return os.MkdirAll(target, 0o700) }); err != nil {
				return err
			}
		case tar.TypeReg:
			total += h.Size
			if total > maxGitArchive {
				return fmt.Errorf("more than %d bytes", maxGitArchive)
			}
			err := do(func() error {
				if err := os.MkdirAll(filepath.Dir(target), 0o700); err != nil {
					return err
				}
				f, err := os.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
				if err != nil {
					return err
				}
				if _, err := io.Copy(f, io.LimitReader(tr, h.Size)); err != nil {
					f.Close()
					return err
				}
				return f.Close()
			})
			if err != nil {
				return err
			}
		}
	}
}

func nodesText(n *int) string {
	if n == nil {
		return "?"
	}
	return fmt.Sprint(*n)
}

// impactText prints the report as a table and a line per change. Every
// value (site and pool names, object names, MachineConfig file paths, MCO's
// reasons) goes through diag.Clean, and a value that starts a line through
// diag.SafeLine: a path can hold any byte but NUL and "/".
func impactText(w io.Writer, rep impact.Report) {
	if len(rep.Pools) == 0 {
		fmt.Fprintln(w, "no node is drained, restarted or rebooted: no MachineConfigPool's configuration changes")
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	if len(rep.Pools) == 0 {
		tw = nil
	}
	c := diag.Clean
	if tw != nil {
		fmt.Fprintln(tw, "SITE\tPOOL\tNODES\tACTION\tWAVES")
		for _, p := range rep.Pools {
			waves := "-"
			if p.Waves > 0 {
				waves = fmt.Sprintf("%d (maxUnavailable %s)", p.Waves, c(p.MaxUnavailable))
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", diag.SafeLine(p.Site), c(p.Pool), nodesText(p.Nodes), p.Action, waves)
		}
		tw.Flush()
	}
	for _, p := range rep.Pools {
		for _, ch := range p.Changes {
			fmt.Fprintf(w, "%s/%s: %s: %s %s: %s\n", diag.SafeLine(p.Site), c(p.Pool), ch.Action, c(ch.Object), c(ch.Path), c(ch.Reason))
		}
	}
	for _, o := range rep.Other {
		fmt.Fprintf(w, "%s: %s: %s %s: %s\n", diag.SafeLine(o.Site), o.Action, c(o.Object), c(o.Path), c(o.Reason))
	}
}

// mdCell is a value in a markdown table cell or list item: diag.Clean
// (every control character, CR and LF included, escaped; the value
// bounded), and "|" escaped, as GitHub Flavored Markdown's tables need
// (spec section 6.10 "Tables (extension)": "include a pipe in a cell's
// content by escaping it").
func mdCell(s string) string {
	return strings.ReplaceAll(diag.Clean(s), "|", `\|`)
}

// mdCode is a value as a markdown code span: mdCell, between backtick runs
// longer than any in it (CommonMark 0.31, section 6.1 "Code spans"), with
// a space inside when it starts or ends with a backtick.
func mdCode(s string) string {
	s = mdCell(s)
	run, longest := 0, 0
	for _, r := range s {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return fence + s + fence
}

// mdMaxReasons is the most changes a pool's row names (--format text lists
// them all): the row is one line of a job summary or a pull request
// comment, and each change is three values of at most diag.MaxMessageBytes,
// so a row holds at most 14 values (docs/limits.md).
const mdMaxReasons = 4

func impactMarkdown(w io.Writer, rep impact.Report) {
	fmt.Fprintln(w, "### siteforge impact")
	fmt.Fprintln(w)
	if len(rep.Pools) == 0 {
		fmt.Fprintln(w, "No node is drained, restarted or rebooted: no MachineConfigPool's configuration changes.")
	} else {
		fmt.Fprintln(w, "| site | pool | nodes | action | why |")
		fmt.Fprintln(w, "|---|---|---|---|---|")
	}
	for _, p := range rep.Pools {
		var why []string
		for _, c := range p.Changes {
			if c.Action == p.Action {
				why = append(why, fmt.Sprintf("%s (%s): %s", mdCode(c.Path), mdCell(c.Object), mdCell(c.Reason)))
			}
		}
		if len(why) == 0 {
			why = []string{"no change"}
		}
		if len(why) > mdMaxReasons {
			why = append(why[:mdMaxReasons], fmt.Sprintf("and %d more (--format text lists every change)", len(why)-mdMaxReasons))
		}
		fmt.Fprintf(w, "| %s | %s | %s | **%s** | %s |\n", mdCell(p.Site), mdCell(p.Pool), nodesText(p.Nodes), p.Action, strings.Join(why, "; "))
	}
	if len(rep.Other) > 0 {
		fmt.Fprintln(w)
		for _, o := range rep.Other {
			fmt.Fprintf(w, "- %s: %s: %s\n", mdCell(o.Site), mdCell(strings.TrimSpace(o.Object+" "+o.Path)), mdCell(o.Reason))
		}
	}
}

var _ = platform.ConfigSingletonName
