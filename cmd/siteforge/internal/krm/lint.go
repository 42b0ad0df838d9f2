package krm

import (
	"fmt"
	"strconv"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/lint"
	_ "github.com/siteforge/siteforge/lint/rules" // every rule
)

// lintItems is SiteLint: the items are linted as one set of plain
// manifests (one cluster), the named sites as sites (their model and their
// rendered objects). Items rendered from a linted site (same
// siteforge.dev/source) are left to the site's own checks, so a finding is
// reported once, at the site's line. The items are never changed.
func lintItems(r *reporter, spec LintSpec) int {
	threshold := lint.Error
	if spec.FailOn != "" {
		t, err := lint.ParseSeverity(spec.FailOn)
		if err != nil {
			r.failure("spec.failOn: %v", err)
			return exitFailure
		}
		threshold = t
	}
	in := &lint.Input{}
	if spec.OCPVersion != "" {
		m, err := platform.ParseOCPMinor(spec.OCPVersion)
		if err != nil {
			r.failure("spec.ocpVersion %q: %v", spec.OCPVersion, err)
			return exitFailure
		}
		in.Minor, in.MinorFrom = m, "spec.ocpVersion"
	}

	linted := map[string]bool{} // site sources linted as sites
	if len(spec.Paths) > 0 || spec.Site != nil {
		root, ok := packageRoot(r)
		if !ok {
			return exitFailure
		}
		sites, res, ok := loadSites(r, root, spec.Paths, spec.Site != nil)
		if !ok {
			return exitFailure
		}
		outs, ok := renderOutputs(r, sites, res, generators.Options{}, false, true)
		if !ok {
			return exitFailure
		}
		for _, o := range outs {
			ls, err := lintSite(o)
			if err != nil {
				r.failure("%v", err)
				return exitFailure
			}
			in.Sites = append(in.Sites, ls)
			linted[o.Site.SourceName()] = true
		}
		if in.Minor == 0 && len(sites) == 1 {
			if m, err := platform.ParseOCPMinor(sites[0].Cluster.Version); err == nil {
				in.Minor, in.MinorFrom = m, "the site's cluster.version"
			}
		}
	}

	items := map[string]*item{} // by the file name its object is read under
	for i, n := range r.rl.Items {
		if n.GetAnnotations()[localConfigAnnotation] == "true" {
			continue
		}
		it := newItem(i, n)
		if linted[it.renderedFrom] {
			continue
		}
		objs, d := manifests.ReadBytes(it.file, it.data)
		if len(d) > 0 {
			r.failure("internal error: item %d (%s) does not read back: %v", i, it.describe(), d)
			return exitFailure
		}
		if len(objs) == 1 {
			it.obj = objs[0]
			items[it.file] = it
		}
		in.Objects = append(in.Objects, objs...)
	}

	res, err := lint.Run(in, lint.Options{Enable: spec.Enable, Disable: spec.Disable})
	if err != nil {
		r.failure("%v", err)
		return exitFailure
	}
	srcs := &sources{}
	about := map[int]*item{} // finding index -> the item it is about
	for i := range res.Findings {
		f := &res.Findings[i]
		if it := items[f.Pos.File]; it != nil {
			about[i] = it
			end := f.End
			f.Pos = it.userPos(srcs, f.Pos)
			f.End = diag.Position{}
			if end.File == it.file && f.Pos.Line > 0 {
				f.End = it.userPos(srcs, end)
			}
		}
	}
	r.findings(res.Findings, func(i int) *framework.File {
		if it := about[i]; it != nil && it.path != "" {
			// The file the tool read the item from, as it said (kpt).
			return &framework.File{Path: it.path, Index: it.index}
		}
		return nil
	})
	if e, w, n := res.Counts(); e+w+n > 0 {
		fmt.Fprintf(r.stderr, "siteforge fn: %s: %d errors, %d warnings, %d infos, %d suppressed\n", r.label, e, w, n, res.Suppressed)
	}
	if res.Fails(threshold) {
		return exitFindings
	}
	return exitOK
}

// lintSite is a site with its rendered resources read back as manifests.
func lintSite(o *generators.Output) (*lint.Site, error) {
	objs, origin, err := o.Objects()
	if err != nil {
		return nil, err
	}
	return &lint.Site{Site: o.Site, Objects: objs, Origin: origin, Warnings: o.AllWarnings()}, nil
}

// kustomize's bookkeeping annotations on the items it passes; they are
// dropped from the copy that is linted.
var bookkeepingPrefixes = []string{"config.kubernetes.io/", "internal.config.kubernetes.io/", "config.k8s.io/", "kustomize.config.k8s.io/"}

// Annotations kustomize keeps on a renamed object: its names before
// namePrefix, nameSuffix, namespace and the like (oldest first).
const (
	previousKinds      = "internal.config.kubernetes.io/previousKinds"
	previousNames      = "internal.config.kubernetes.io/previousNames"
	previousNamespaces = "internal.config.kubernetes.io/previousNamespaces"
	originAnnotation   = "config.kubernetes.io/origin" // with buildMetadata: [originAnnotations]
)

// item is one ResourceList item under lint.
type item struct {
	file string // the name its lint copy is read under
	data []byte
	obj  *manifests.Object

	apiVersion, kind, namespace, name string // as kustomize emits it
	// the identity in the user's file, before kustomize renamed it
	origKind, origNamespace, origName string
	origin                            string // origin annotation path, if any
	renderedFrom                      string // siteforge.dev/source, if rendered
	// the path and index annotations the tool passed (kpt: the package
	// file the item was read from; kustomize passes none)
	path  string
	index int
}

func newItem(i int, n *kyaml.RNode) *item {
	ann := n.GetAnnotations()
	it := &item{
		file:       "kustomize-item-" + strconv.Itoa(i),
		apiVersion: n.GetApiVersion(), kind: n.GetKind(), namespace: n.GetNamespace(), name: n.GetName(),
		renderedFrom: ann[generators.SourceAnnotation],
	}
	it.path, it.index, _ = fileOf(n)
	it.origKind = firstOr(ann[previousKinds], it.kind)
	it.origName = firstOr(ann[previousNames], it.name)
	it.origNamespace = firstOr(ann[previousNamespaces], it.namespace)
	if o := ann[originAnnotation]; o != "" {
		var origin struct {
			Path string `yaml:"path"`
			Repo string `yaml:"repo"`
		}
		if kyaml.Unmarshal([]byte(o), &origin) == nil && origin.Repo == "" {
			it.origin = origin.Path
		}
	}
	c := n.Copy()
	var drop []string
	for k := range ann {
		for _, p := range bookkeepingPrefixes {
			if strings.HasPrefix(k, p) {
				drop = append(drop, k)
			}
		}
	}
	for _, k := range drop {
		_, _ = c.Pipe(kyaml.ClearAnnotation(k))
	}
	if len(c.GetAnnotations()) == 0 {
		_, _ = c.Pipe(kyaml.Lookup("metadata"), kyaml.Clear("annotations"))
	}
	s, err := c.String()
	if err != nil {
		s = n.MustString()
	}
	it.data = []byte(s)
	return it
}

func firstOr(list, def string) string {
	if list == "" {
		return def
	}
	return strings.Split(list, ",")[0]
}

func (it *item) describe() string {
	if it.namespace != "" {
		return fmt.Sprintf("%s %s/%s", it.kind, it.namespace, it.name)
	}
	return fmt.Sprintf("%s %s", it.kind, it.name)
}

// userPos maps a position in the item's lint copy to the user's file: the
// same field in the object the item was built from, found in the file its
// path annotation names (kpt) or through the kustomization. Without one, it
// names the item's file (path annotation), or the object, without a line:
// `Kind namespace/name (kustomize output)` (docs/integrations.md), also for
// an object rendered from a site this SiteLint does not lint: its
// siteforge.dev/source is the site's path from the repository root, often a
// folder, not a file the finding could be at.
func (it *item) userPos(srcs *sources, p diag.Position) diag.Position {
	src := srcs.find(it)
	if src == nil {
		if it.path != "" {
			return diag.Position{File: it.path}
		}
		return diag.Position{File: it.describe() + " (kustomize output)"}
	}
	path, isKey, ok := pathAt(it.obj.Root(), p.Line, p.Col)
	switch {
	case !ok:
		return src.Pos()
	case isKey:
		return src.KeyPosOf(path...)
	}
	return src.PosOf(path...)
}
