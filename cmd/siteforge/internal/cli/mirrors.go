package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/generators/mirroring"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/discover"
	"github.com/siteforge/siteforge/internal/load"
	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/registries"
)

func init() {
	register(&command{
		name:    "mirrors",
		args:    "preview|resolve PATH... [--image REF...]",
		summary: "show the registries.conf nodes get, and where each image is pulled from",
		help: `PATH is a site (as for vet: its rendered mirror objects are used), plain
manifests (YAML/JSON files or folders holding ImageDigestMirrorSet,
ImageTagMirrorSet, ImageContentSourcePolicy and image.config.openshift.io
cluster objects), or a running cluster's state (the folder oc adm
must-gather writes, or an Insights archive): there the registries.conf
each pool's nodes run, read from the rendered MachineConfig of the pool's
status.configuration, once for the pools that run the same file, named
with them; where the state holds no file contents (an Insights archive
strips them), the one MCO renders from the cluster's own mirror objects
and release, said so.

  siteforge mirrors preview PATH...
      prints /etc/containers/registries.conf as the Machine Config Operator
      renders it for the worker pool (master and custom pools get the same
      file). Exit 2 with MCO's own error text where MCO would refuse to render
      (it logs the error in machine-config-controller and keeps the old file).

  siteforge mirrors resolve PATH... --image REF [--image REF...]
      lists, per reference, the endpoints a node tries in order (CRI-O through
      containers/image), marking blocked and skipped ones, then what that
      means: for a disconnected cluster (the site says so, or --disconnected),
      whether the pull can succeed without reaching the source; for a
      connected one, where it is pulled from first. A site with an in-cluster
      cache gets both lists: before the cache answers and once it does. Exit
      1 when the site is disconnected (or --disconnected is given) and some
      pull cannot succeed.`,
		example: `  siteforge mirrors preview examples/disconnected-quay-cache
  siteforge mirrors preview must-gather.local.5483957185
  siteforge mirrors resolve examples/disconnected-quay-cache --image registry.redhat.io/ubi9/ubi:latest
  siteforge mirrors resolve --format json examples/disconnected-quay-cache --image quay.io/openshift-release-dev/ocp-release:4.16.3-x86_64`,
		flags: func(fs *pflag.FlagSet) func(env, []string) int {
			images := fs.StringArray("image", nil, "image reference to resolve (repeatable)")
			version := fs.String("ocp-version", "", "OpenShift version (4.N) of plain manifests (default: latest behaviour)")
			disconnected := fs.Bool("disconnected", false, "judge pulls as in a disconnected cluster (sites say it themselves)")
			format := fs.String("format", "text", "output format: text or json (docs/json/mirrors-preview.schema.json, mirrors-resolve.schema.json)")
			return func(e env, args []string) int {
				if len(args) < 2 || (args[0] != "preview" && args[0] != "resolve") {
					return usageError(e, "mirrors", "expected preview or resolve and at least one PATH")
				}
				if !formatFlag(e, "mirrors", *format) {
					return ExitFailure
				}
				minor := 0
				if *version != "" {
					m, err := platform.ParseOCPMinor(*version)
					if err != nil {
						return usageError(e, "mirrors", fmt.Sprintf("--ocp-version \"%s\": %v", *version, err))
					}
					minor = int(m)
				}
				if args[0] == "resolve" && len(*images) == 0 {
					return usageError(e, "mirrors", "resolve needs at least one --image REF")
				}
				if args[0] == "preview" && len(*images) > 0 {
					return usageError(e, "mirrors", "--image is for resolve")
				}
				sets, ok := mirrorInputs(e, args[1:], minor)
				if !ok {
					return ExitFailure
				}
				switch {
				case args[0] == "preview" && *format == "json":
					return previewJSON(e, sets)
				case args[0] == "preview":
					return preview(e, sets)
				case *format == "json":
					return resolveJSON(e, sets, *images, *disconnected)
				}
				return resolve(e, sets, *images, *disconnected)
			}
		},
	})
}

// mirrorSet is one registries.conf to compute: a site's, or the one of a set
// of plain manifests.
type mirrorSet struct {
	label        string // the site name, or "manifests"
	input        registries.Input
	disconnected bool
	// mirrors are the plain manifests' mirror objects (nil for a site):
	// where MCO's refusal points in the user's files
	mirrors *manifests.MirrorSet
	// cacheHost and cacheDropIn are a site's in-cluster cache and the
	// registries.conf.d drop-in its nodes get while the cache answers
	// (generators/mirroring InClusterCacheDropInPreview); empty without one.
	cacheHost   string
	cacheDropIn []byte
	// running are, of a running cluster's state, the registries.conf each
	// pool's nodes run (the rendered config of its status.configuration,
	// manifests.State.RunningFile); nil for other inputs.
	running []manifests.PoolFile
}

// mirrorInputs reads sites and manifests as lint does (internal/discover):
// one registries.conf per cluster - each site (with the plain manifests
// beside it when it is the only site), each rendered site folder whose site
// is not given too, each kustomization root, marked folder or installation
// folder, and the other plain manifests.
func mirrorInputs(e env, paths []string, minor int) ([]mirrorSet, bool) {
	found := discover.Paths(paths, discover.Options{})
	var diags diag.List
	for _, p := range found.Problems {
		if p.Kind == manifests.ProblemTemplate {
			fmt.Fprintf(e.stderr, "siteforge mirrors: %s: not read: %s\n", diag.Clean(p.Pos.String()), diag.Clean(p.Message))
			continue
		}
		diags = append(diags, p.Diagnostic)
	}
	if printDiagnostics(e.stderr, load.Result{Diagnostics: diags.Sort()}) {
		return nil, false
	}
	var sets []mirrorSet
	given := map[string]bool{} // site names
	if len(found.Sites) > 0 {
		outs, ok := renderAll(e, found.Sites, generators.Options{})
		if !ok {
			return nil, false
		}
		var extra []*manifests.Object
		if len(outs) == 1 {
			extra, found.Loose = found.Loose, nil // one cluster: the site and the files beside it
		}
		for _, o := range outs {
			given[o.Site.Name] = true
			objs, _, err := o.Objects()
			if err != nil {
				fmt.Fprintf(e.stderr, "siteforge mirrors: %s\n", diag.Clean(err.Error()))
				return nil, false
			}
			m, err := o.Site.Minor()
			if err != nil {
				fmt.Fprintf(e.stderr, "siteforge mirrors: site %s: %s\n", diag.Clean(o.Site.Name), diag.Clean(err.Error()))
				return nil, false
			}
			// the site's objects and the files beside it, read once: a
			// problem in a rendered object is siteforge's, in a file the
			// user's
			ms := manifests.ReadMirrors(append(append([]*manifests.Object{}, objs...), extra...))
			var mine, theirs diag.List
			for _, d := range append(ms.Problems, ms.InstallerDiagnostics()...) {
				if strings.HasPrefix(d.Pos.File, generators.RenderedPrefix) {
					mine = append(mine, d)
				} else {
					theirs = append(theirs, d)
				}
			}
			if len(mine) > 0 {
				fmt.Fprintf(e.stderr, "siteforge mirrors: internal error: %s\n", diag.Clean(mine.Error()))
				return nil, false
			}
			if printDiagnostics(e.stderr, load.Result{Diagnostics: theirs.Sort()}) {
				return nil, false
			}
			in := ms.Input(int(m), o.Site.Cluster.ReleaseImage)
			set := mirrorSet{label: "site " + o.Site.Name, input: in, disconnected: o.Site.Cluster.Connectivity == "disconnected"}
			if m := o.Site.Mirroring; m != nil && m.InClusterCache != nil {
				set.cacheHost, set.cacheDropIn = m.InClusterCache.Host, o.Files[mirroring.InClusterCacheDropInPreview]
			}
			sets = append(sets, set)
		}
	}
	if len(found.Loose) > 0 {
		set, ok := manifestMirrorSet(e, "manifests", found.Loose, minor)
		if !ok {
			return nil, false
		}
		sets = append(sets, set)
	}
	for _, c := range found.Clusters {
		if len(c.Objects) == 0 || c.RenderedSite != "" && given[c.RenderedSite] {
			continue
		}
		set, ok := manifestMirrorSet(e, c.What+" "+c.Root, c.Objects, minor)
		if !ok {
			return nil, false
		}
		if c.Live() {
			st := manifests.ReadState(c.Objects)
			for _, p := range st.Pools {
				set.running = append(set.running, st.RunningFile(p, platform.RegistriesConfPath))
			}
		}
		sets = append(sets, set)
	}
	return sets, true
}

// manifestMirrorSet is the registries.conf input of one cluster of plain
// manifests, on release minor (0: the ClusterVersion's, if any).
func manifestMirrorSet(e env, label string, objs []*manifests.Object, minor int) (mirrorSet, bool) {
	ms := manifests.ReadMirrors(objs)
	// The release a ClusterVersion export names: MCO keeps the payload
	// repository unblocked unless a digest mirror serves it (the
	// registries engine's payload rule needs the release image).
	rel := manifests.ReadRelease(objs)
	if minor == 0 {
		minor = int(rel.Minor)
	}
	img := rel.Image
	if _, err := registries.Render(registries.Input{ReleaseImage: img, Minor: minor}); errors.Is(err, registries.ErrReleaseImage) {
		fmt.Fprintf(e.stderr, "siteforge mirrors: warning: %s \"%s\" is no image reference; rendering without the release payload rule\n", diag.Clean(rel.ImageFrom), diag.Clean(img))
		img = ""
	}
	in := ms.Input(minor, img)
	var diags diag.List
	diags = append(diags, ms.Problems...)
	diags = append(diags, ms.InstallerDiagnostics()...)
	if printDiagnostics(e.stderr, load.Result{Diagnostics: diags.Sort()}) {
		return mirrorSet{}, false
	}
	return mirrorSet{label: label, input: in, mirrors: &ms}, true
}

// nodeFile is one registries.conf nodes get: the one MCO renders from a
// set's mirror objects, or, of a running cluster's state, the one some of
// its pools' nodes run.
type nodeFile struct {
	set  mirrorSet
	conf *registries.Config
	data []byte
	// pools are, of a running cluster's state, the pools whose nodes run
	// the file, and configs their rendered configs (none when the file is
	// MCO's rendering, for the pools whose rendered config the state holds
	// no contents of).
	pools, configs []string
}

// header says, for a running cluster's state, which pools' nodes run the
// file and where it was read; "" for other inputs.
func (f nodeFile) header() string {
	switch {
	case f.set.running == nil:
		return ""
	case len(f.configs) == 0:
		return fmt.Sprintf("of pool%s %s, computed from the cluster's mirror objects as the Machine Config Operator renders them: the state holds no contents of the rendered config%s the nodes run (an Insights archive strips them)",
			plural(len(f.pools)), diag.Clean(strings.Join(f.pools, ", ")), plural(len(f.pools)))
	}
	return fmt.Sprintf("as the nodes of pool%s %s run it, read from the rendered config%s %s (MachineConfigPool status.configuration)",
		plural(len(f.pools)), diag.Clean(strings.Join(f.pools, ", ")), plural(len(f.configs)), diag.Clean(strings.Join(f.configs, ", ")))
}

// nodeFiles are the registries.conf files of a set: MCO's rendering of its
// mirror objects; of a running cluster's state, the file each pool's nodes
// run, once for the pools that run the same one (MCO's rendering for the
// pools whose file the state does not hold). Where MCO would refuse to
// render, the refusal is an error, unless every pool's file is known: the
// nodes keep what they run, and the refusal is a warning.
func nodeFiles(e env, s mirrorSet) ([]nodeFile, bool) {
	var known []manifests.PoolFile
	var unknown []string
	for _, f := range s.running {
		if f.Data != nil {
			known = append(known, f)
		} else {
			unknown = append(unknown, f.Pool.Obj.Name)
		}
	}
	c, b, err := render(s)
	if err != nil {
		keeps := len(known) > 0 && len(unknown) == 0
		refusal(e, s, err, keeps)
		if !keeps {
			return nil, false
		}
	}
	var out []nodeFile
	for _, f := range known {
		if i := slices.IndexFunc(out, func(n nodeFile) bool { return bytes.Equal(n.data, f.Data) }); i >= 0 {
			out[i].pools, out[i].configs = append(out[i].pools, f.Pool.Obj.Name), append(out[i].configs, f.Config)
			continue
		}
		parsed, err := registries.Parse(f.Data)
		if err != nil {
			fmt.Fprintf(e.stderr, "%s: error: pool %s runs %s, whose %s does not load: %s\n", diag.SafeLine(s.label), diag.Clean(f.Pool.Obj.Name),
				diag.Clean(f.Config), platform.RegistriesConfPath, diag.Clean(err.Error()))
			return nil, false
		}
		out = append(out, nodeFile{set: s, conf: parsed, data: f.Data, pools: []string{f.Pool.Obj.Name}, configs: []string{f.Config}})
	}
	if len(known) == 0 || len(unknown) > 0 {
		out = append(out, nodeFile{set: s, conf: c, data: b, pools: unknown})
	}
	return out, true
}

// render renders one set's registries.conf as MCO does.
func render(s mirrorSet) (*registries.Config, []byte, error) {
	c, err := registries.Render(s.input)
	if err != nil {
		return nil, nil, err
	}
	b, err := c.TOML()
	if err != nil {
		return nil, nil, fmt.Errorf("internal error: %w", err)
	}
	return c, b, nil
}

// refusal prints MCO's refusal to render a set's registries.conf, at the
// user's entries it names: an error, or a warning when the nodes' own
// files follow (keeps).
func refusal(e env, s mirrorSet, err error, keeps bool) {
	where := s.label
	positions := refusalPositions(s.mirrors, err)
	if len(positions) > 0 {
		where = positions[0].String()
	}
	severity := "error"
	if keeps {
		severity = "warning"
	}
	fmt.Fprintf(e.stderr, "%s: %s: the Machine Config Operator would refuse to render registries.conf: %s\n", diag.SafeLine(where), severity, diag.Clean(err.Error()))
	for _, p := range positions[min(1, len(positions)):] {
		fmt.Fprintf(e.stderr, "%s: note: the same source here\n", diag.SafeLine(p.String()))
	}
	if keeps {
		fmt.Fprintln(e.stderr, "  (MCO logs this in machine-config-controller and keeps the previous file on every node: the files the nodes run follow)")
		return
	}
	fmt.Fprintln(e.stderr, "  (MCO logs this in machine-config-controller and keeps the previous file on every node)")
}

// eachConf calls write with every registries.conf of every set (nodeFiles);
// the output is written only when every set renders and write succeeds.
// write returns the exit code of its file (or ExitFailure to stop).
func eachConf(e env, sets []mirrorSet, header string, write func(out *bytes.Buffer, f nodeFile) int) int {
	var out bytes.Buffer
	code := ExitOK
	for _, s := range sets {
		files, ok := nodeFiles(e, s)
		if !ok {
			return ExitFailure
		}
		if len(sets) > 1 {
			fmt.Fprintf(&out, header, diag.Clean(s.label))
		}
		for _, f := range files {
			switch write(&out, f) {
			case ExitFailure:
				return ExitFailure
			case ExitFindings:
				code = ExitFindings
			}
		}
	}
	_, _ = e.stdout.Write(out.Bytes())
	return code
}

func preview(e env, sets []mirrorSet) int {
	return eachConf(e, sets, "# ---- %s\n", func(out *bytes.Buffer, f nodeFile) int {
		if h := f.header(); h != "" {
			fmt.Fprintf(out, "# %s %s, %s\n", platform.RegistriesConfPath, h, diag.Clean(f.set.label))
		} else {
			fmt.Fprintf(out, "# %s for the worker pool (master and custom pools get the same file), %s\n", platform.RegistriesConfPath, diag.Clean(f.set.label))
		}
		switch {
		case f.conf.Written:
		case len(f.configs) > 0:
			out.WriteString("# The Machine Config Operator wrote no registries.conf of its own (no mirror sets, no insecure or\n# blocked registries): the nodes run the default file:\n")
		default:
			out.WriteString("# The Machine Config Operator writes no registries.conf for this input: no mirror sets and no\n# insecure or blocked registries. Nodes keep the default file:\n")
		}
		for _, w := range f.conf.Warnings {
			fmt.Fprintf(e.stderr, "%s: warning: %s\n", diag.SafeLine(f.set.label), diag.Clean(fmt.Sprint(w)))
		}
		out.Write(f.data)
		return ExitOK
	})
}

func resolve(e env, sets []mirrorSet, images []string, disconnected bool) int {
	return eachConf(e, sets, "# %s\n", func(out *bytes.Buffer, f nodeFile) int {
		s, b := f.set, f.data
		if h := f.header(); h != "" {
			fmt.Fprintf(out, "# %s %s\n", platform.RegistriesConfPath, h)
		}
		code := ExitOK
		for _, ref := range images {
			r, err := registries.Resolve(b, ref)
			if err != nil {
				fmt.Fprintf(e.stderr, "siteforge mirrors resolve: %s: %s\n", diag.Clean(ref), diag.Clean(err.Error()))
				return ExitFailure
			}
			if s.cacheDropIn != nil {
				fmt.Fprintf(out, "# before the in-cluster cache %s answers (at boot, after reboots and upgrades, while it is down):\n", diag.Clean(s.cacheHost))
			}
			if ok := printResolution(out, r, disconnected || s.disconnected); !ok && (disconnected || s.disconnected) {
				code = ExitFindings
			}
			if s.cacheDropIn != nil {
				after, err := registries.ResolveWithDropIn(b, s.cacheDropIn, ref)
				if err != nil {
					fmt.Fprintf(e.stderr, "siteforge mirrors resolve: %s: %s\n", diag.Clean(ref), diag.Clean(err.Error()))
					return ExitFailure
				}
				fmt.Fprintf(out, "# once the in-cluster cache %s answers (drop-in %s):\n", diag.Clean(s.cacheHost), platform.InClusterCacheDropInPath)
				printResolution(out, after, disconnected || s.disconnected)
			}
		}
		return code
	})
}

// printResolution prints the endpoints of one reference and reports whether
// the pull can succeed without the source. Its last line says what that means
// for the cluster: judged as disconnected (the site says so, or
// --disconnected), whether the pull succeeds without the source; else which
// endpoint a connected node pulls from first.
func printResolution(w io.Writer, r registries.Resolution, disconnected bool) bool {
	by := "tag"
	if r.Digest {
		by = "digest"
	}
	fmt.Fprintf(w, "%s (by %s)\n", diag.SafeLine(r.Reference), by)
	if r.Prefix == "" {
		fmt.Fprintln(w, "  no registries.conf table matches: pulled from the source only")
	} else {
		fmt.Fprintf(w, "  table %s\n", diag.Clean(r.Prefix))
	}
	n := 0
	for _, ep := range r.Endpoints {
		kind := "source"
		if ep.Mirror && !ep.Source {
			kind = "mirror"
			if ep.PullFromMirror != "" {
				kind += " (" + ep.PullFromMirror + ")"
			}
		}
		var notes []string
		if ep.Insecure {
			notes = append(notes, "insecure")
		}
		if ep.Blocked {
			notes = append(notes, "BLOCKED")
		}
		loc := ep.Reference
		if loc == "" {
			loc = ep.Location
		}
		if ep.Skipped {
			fmt.Fprintf(w, "  -  %s  %s  skipped: %s\n", diag.Clean(loc), diag.Clean(kind), diag.Clean(ep.SkipReason))
			continue
		}
		n++
		line := fmt.Sprintf("  %d. %s  %s", n, diag.Clean(loc), diag.Clean(kind))
		if len(notes) > 0 {
			line += "  " + strings.Join(notes, ", ")
		}
		fmt.Fprintln(w, line)
	}
	first, sourceTried := "", false
	for _, ep := range r.Attempts() {
		if ep.Mirror && !ep.Source && first == "" {
			first = ep.Location
		}
		if ep.Source {
			sourceTried = true
		}
	}
	ok := r.SucceedsDisconnected(nil)
	switch {
	case disconnected && ok:
		fmt.Fprintf(w, "  disconnected: the pull can succeed (first mirror tried: %s)\n", diag.Clean(first))
	case disconnected:
		fmt.Fprintln(w, "  disconnected: the pull FAILS: no mirror serves this reference, only the source")
	case ok && sourceTried:
		fmt.Fprintf(w, "  connected: pulled from the mirrors first (first tried: %s), the source last\n", diag.Clean(first))
	case ok:
		fmt.Fprintf(w, "  connected: pulled from the mirrors only (first tried: %s): the source is blocked\n", diag.Clean(first))
	case sourceTried:
		fmt.Fprintln(w, "  connected: pulled from the source: no mirror serves this reference (a disconnected cluster could not pull it)")
	default:
		fmt.Fprintln(w, "  the pull FAILS: no mirror serves this reference and the source is blocked")
	}
	return ok
}

// quotedSource is the source MCO's refusal names ("... for the same source
// \"registry.redhat.io\" ...").
var quotedSource = regexp.MustCompile(`source "([^"]+)"`)

// refusalPositions are the entries of the user's mirror objects whose
// source MCO's refusal names, in file order; none when it names no source
// or the set is a site's.
func refusalPositions(ms *manifests.MirrorSet, err error) []diag.Position {
	if ms == nil {
		return nil
	}
	// Refusals of image.config registrySources: at the list MCO refuses
	// (lint's MIR009/MIR010 point at the same fields).
	if img := ms.Image; img != nil {
		rs := img.Spec.Spec.RegistrySources
		at := func(list string) []diag.Position {
			return []diag.Position{img.Obj.PosOf("spec", "registrySources", list)}
		}
		switch {
		case errors.Is(err, registries.ErrAllowedAndBlocked):
			return at("allowedRegistries")
		case errors.Is(err, registries.ErrWildcardNestedScope) && len(rs.BlockedRegistries) > 0:
			return at("blockedRegistries")
		case errors.Is(err, registries.ErrWildcardNestedScope) && len(rs.InsecureRegistries) > 0:
			return at("insecureRegistries")
		case errors.Is(err, registries.ErrInvalidScope):
			for _, list := range []string{"insecureRegistries", "blockedRegistries", "allowedRegistries"} {
				for i, scope := range map[string][]string{"insecureRegistries": rs.InsecureRegistries, "blockedRegistries": rs.BlockedRegistries, "allowedRegistries": rs.AllowedRegistries}[list] {
					if strings.Contains(err.Error(), strconv.Quote(scope)) {
						return []diag.Position{img.Obj.PosOf("spec", "registrySources", list, strconv.Itoa(i))}
					}
				}
			}
		}
	}
	m := quotedSource.FindStringSubmatch(err.Error())
	if m == nil {
		return nil
	}
	var out []diag.Position
	for _, x := range ms.DigestSets {
		for i, e := range x.Spec.Spec.ImageDigestMirrors {
			if e.Source == m[1] {
				out = append(out, x.Obj.PosOf("spec", "imageDigestMirrors", strconv.Itoa(i), "source"))
			}
		}
	}
	for _, x := range ms.TagSets {
		for i, e := range x.Spec.Spec.ImageTagMirrors {
			if e.Source == m[1] {
				out = append(out, x.Obj.PosOf("spec", "imageTagMirrors", strconv.Itoa(i), "source"))
			}
		}
	}
	for _, x := range ms.ContentPolicies {
		for i, e := range x.Spec.Spec.RepositoryDigestMirrors {
			if e.Source == m[1] {
				out = append(out, x.Obj.PosOf("spec", "repositoryDigestMirrors", strconv.Itoa(i), "source"))
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Compare(out[j]) < 0 })
	return out
}
