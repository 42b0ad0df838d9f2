package manifests

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	yaml "go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/selection"

	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/fsread"
	"github.com/siteforge/siteforge/internal/platform"
)

// ProblemSourceMissing: a source file a PolicyGenerator or
// PolicyGenTemplate names is not in the repository (ZTP's source CRs are
// built into the ztp-site-generate container); what it holds is not
// linted.
const ProblemSourceMissing ProblemKind = ProblemUnreadable + 1

// Generated is what the policy generators among a set of objects say.
type Generated struct {
	Deliveries []Delivery
	// Sources are the files read as source files (absolute or as the
	// generator's path joins them): not objects of the cluster of the
	// folder they are in.
	Sources map[string]bool
	// SourceDirs are the folders of source files: the source-crs folder
	// of a PolicyGenTemplate, the top folder under the kustomization of
	// a PolicyGenerator's manifests[].path (source-crs/x.yaml). What they
	// hold is read by the generators, or by nothing.
	SourceDirs map[string]bool
	Problems   []Problem

	// placements are the repository's Placements and PlacementRules by
	// kind/namespace/name (placementSelectors).
	placements map[string][]labels.Selector
	// read are the source files read, by path.
	read map[string]sourceFile
}

// GeneratorDeliveries reads the PolicyGenerators (the ACM kustomize
// plugin's configuration) and ZTP PolicyGenTemplates among objs: the
// policies each generates, with the objects of the source files they name,
// patched or overlaid as the generator does, positioned in the source file
// or, for what a patch or overlay sets, in the generator file.
//
// A generator runs as a kustomize plugin, in the folder of the
// kustomization that lists it (kustomize runs exec plugins there): its
// paths are relative to that folder, which base gives for each generator
// (the generator's own folder when it is not known).
func GeneratorDeliveries(objs []*Object, base func(*Object) string) Generated {
	g := Generated{Sources: map[string]bool{}, SourceDirs: map[string]bool{}, placements: placementSelectors(objs),
		read: map[string]sourceFile{}}
	for _, o := range objs {
		dir := filepath.Dir(o.File)
		if base != nil {
			if b := base(o); b != "" {
				dir = b
			}
		}
		switch {
		case isHubKind(o, platform.PolicyAPIGroup, KindPolicyGenerator):
			g.policyGenerator(o, dir)
		case o.Kind == KindPolicyGenTemplate && o.APIVersion == platform.PolicyGenTemplateVersion:
			g.SourceDirs[filepath.Join(dir, platform.PolicyGenTemplateSourceDir)] = true
			g.policyGenTemplate(o, dir)
		}
	}
	return g
}

func (g *Generated) problem(kind ProblemKind, o *Object, at *yaml.Node, msg, hint string) {
	g.Problems = append(g.Problems, Problem{Kind: kind, Diagnostic: diag.Diagnostic{Pos: nodePos(o.File, at), Message: msg, Hint: hint}})
}

// policyGenerator reads a PolicyGenerator (open-cluster-management-io/
// policy-generator-plugin docs/policygenerator-reference.yaml): each
// policies[] entry is a policy of the objects of its manifests[].path
// (a file, or the YAML files of a flat folder; internal/utils.go
// getManifests) relative to the generator's folder, each patched by its
// patches (internal/patches.go: applied as kustomize strategic merge
// patches; read here as merge patches, mappings merged and lists
// replaced), placed by placement.labelSelector (policyDefaults, or the
// policy's own).
func (g *Generated) policyGenerator(o *Object, dir string) {
	defaults := child(o.Root(), "policyDefaults")
	for _, p := range seq(child(o.Root(), "policies")) {
		ns := scalar(p, "namespace")
		if ns == "" {
			ns = scalar(defaults, "namespace")
		}
		d := Delivery{By: o, Policy: ns + "/" + scalar(p, "name")}
		place := child(p, "placement")
		if place == nil {
			place = child(defaults, "placement")
		}
		d.Selector = g.generatorSelector(place, ns, dir)
		compliance := scalar(p, "complianceType")
		if compliance == "" {
			compliance = scalar(defaults, "complianceType")
		}
		for _, m := range seq(child(p, "manifests")) {
			c := compliance
			if mc := scalar(m, "complianceType"); mc != "" {
				c = mc
			}
			if mustNotHave(c) {
				continue
			}
			pathNode := child(m, "path")
			if pathNode == nil || pathNode.Value == "" {
				continue
			}
			if first, rest, ok := strings.Cut(filepath.ToSlash(filepath.Clean(pathNode.Value)), "/"); ok && rest != "" && first != ".." && first != "." {
				g.SourceDirs[filepath.Join(dir, first)] = true // source-crs/x.yaml: the folder of source files
			}
			files, ok := g.manifestFiles(o, dir, pathNode)
			if !ok {
				continue
			}
			var srcs []*Object
			for _, f := range files {
				got, ok := g.source(o, f, pathNode)
				if ok {
					srcs = append(srcs, got...)
				}
			}
			d.Objects = append(d.Objects, g.patched(o, srcs, seq(child(m, "patches")))...)
		}
		g.Deliveries = append(g.Deliveries, d)
	}
}

// manifestFiles are the files a manifests[].path names: the file, or the
// YAML files of the folder. A folder with a kustomization is built by
// kustomize: not read.
func (g *Generated) manifestFiles(o *Object, dir string, pathNode *yaml.Node) ([]string, bool) {
	p := filepath.Join(dir, filepath.FromSlash(pathNode.Value))
	fi, err := os.Stat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		g.problem(ProblemSourceMissing, o, pathNode, fmt.Sprintf("%s: the manifest %s is not in the repository; its objects are not linted", o.ID(), diag.Clean(pathNode.Value)),
			"ZTP's source CRs are built into the ztp-site-generate container: copy the ones you use into source-crs/ to lint them")
		return nil, false
	case err != nil:
		g.problem(ProblemUnreadable, o, pathNode, "cannot read "+diag.Clean(pathNode.Value)+": "+fsread.Describe(err), "")
		return nil, false
	case !fi.IsDir():
		return []string{p}, true
	}
	entries, err := os.ReadDir(p)
	if err != nil {
		g.problem(ProblemUnreadable, o, pathNode, "cannot read "+diag.Clean(pathNode.Value)+": "+fsread.Describe(err), "")
		return nil, false
	}
	var files []string
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		if isKustomizationName(e.Name()) {
			g.problem(ProblemTemplate, o, pathNode, fmt.Sprintf("%s: %s is a kustomization; what it builds is not linted", o.ID(), diag.Clean(pathNode.Value)),
				"lint the output of kustomize build")
			return nil, false
		}
		if ext := filepath.Ext(e.Name()); ext == ".yaml" || ext == ".yml" {
			files = append(files, filepath.Join(p, e.Name()))
		}
	}
	return files, true
}

func isKustomizationName(name string) bool {
	return name == "kustomization.yaml" || name == "kustomization.yml"
}

// source reads one source file's objects (problems at their place in the
// file; a missing file is a problem at the generator's line at).
func (g *Generated) source(o *Object, file string, at *yaml.Node) ([]*Object, bool) {
	if c, ok := g.read[file]; ok {
		return c.objs, c.ok // read once, however many generators name it
	}
	data, err := fsread.File(file, MaxFileSize)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		g.problem(ProblemSourceMissing, o, at, fmt.Sprintf("%s: the source CR %s is not in the repository; its objects are not linted", o.ID(), diag.Clean(at.Value)),
			"ZTP's source CRs are built into the ztp-site-generate container: copy the ones you use into "+platform.PolicyGenTemplateSourceDir+"/ to lint them")
		return nil, false
	case err != nil:
		g.problem(ProblemUnreadable, o, at, "cannot read "+diag.Clean(at.Value)+": "+fsread.Describe(err), "")
		return nil, false
	}
	g.Sources[file] = true
	objs, probs := Scan(file, data)
	g.Problems = append(g.Problems, probs...)
	if len(objs) == 0 && len(probs) == 0 {
		objs = rawOnly(file, data)
	}
	ok := len(probs) == 0 || len(objs) > 0
	g.read[file] = sourceFile{objs, ok}
	return objs, ok
}

// sourceFile is a source file read: its objects (never changed: patches
// and overlays apply to copies).
type sourceFile struct {
	objs []*Object
	ok   bool
}

// rawOnly reads a manifest that holds only object-templates-raw (a
// PolicyGenerator takes it as the object templates of a ConfigurationPolicy
// it generates: policy-generator-plugin internal/utils.go
// isPolicyTypeManifest) as that ConfigurationPolicy, so deliver reads its
// templates.
func rawOnly(file string, data []byte) []*Object {
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 || depth(doc.Content[0], 0) > MaxDepth {
		return nil
	}
	root := doc.Content[0]
	raw := child(root, "object-templates-raw")
	if raw == nil || raw.Kind != yaml.ScalarNode {
		return nil
	}
	// the ConfigurationPolicy the generator wraps it in: its spec is
	// the manifest
	policy := &yaml.Node{Kind: yaml.MappingNode, Line: root.Line, Column: root.Column, Content: []*yaml.Node{
		{Kind: yaml.ScalarNode, Value: "apiVersion"}, {Kind: yaml.ScalarNode, Value: platform.PolicyAPIGroup + "/v1"},
		{Kind: yaml.ScalarNode, Value: "kind"}, {Kind: yaml.ScalarNode, Value: KindConfigurationPolicy},
		{Kind: yaml.ScalarNode, Value: "spec"}, root}}
	return []*Object{{File: file, APIVersion: platform.PolicyAPIGroup + "/v1", Kind: KindConfigurationPolicy, root: eagerRoot(policy)}}
}

// patched applies a manifest's patches to its objects (a copy: the source
// file's objects are not changed) and reads what it delivers: the objects,
// or those a ConfigurationPolicy manifest holds. A patch applies to the
// only object, or to the one of its apiVersion, kind and name
// (internal/patches.go Validate).
func (g *Generated) patched(gen *Object, srcs []*Object, patches []*yaml.Node) []*Object {
	var out []*Object
	for _, s := range srcs {
		from := map[*yaml.Node]string{}
		sn := s.Root()
		n := sn
		for _, p := range patches {
			if p.Kind != yaml.MappingNode || len(srcs) > 1 && !patchFor(p, s) {
				continue
			}
			if n == sn {
				n = copyNode(sn)
			}
			mergePatch(n, p, gen.File, from)
		}
		if len(from) == 0 {
			from = nil
		}
		g.deliver(&out, gen, s, n, from)
	}
	return out
}

// deliver adds what a source object s of the generator gen (its node n
// after patches or overlays) puts on the cluster.
func (g *Generated) deliver(out *[]*Object, gen, s *Object, n *yaml.Node, from map[*yaml.Node]string) {
	if strings.HasPrefix(scalar(n, "apiVersion"), platform.PolicyAPIGroup+"/") && scalar(n, "kind") == KindConfigurationPolicy {
		objs, probs := configurationPolicyObjects(s, gen.ID(), n, from)
		*out = append(*out, objs...)
		g.Problems = append(g.Problems, probs...)
		return
	}
	o, probs := embedded(s, gen.ID(), n, from)
	g.Problems = append(g.Problems, probs...)
	if o != nil {
		*out = append(*out, o)
	}
}

// patchFor: the patch names the object (apiVersion, kind, name; the
// namespace when it says one).
func patchFor(p *yaml.Node, o *Object) bool {
	md := child(p, "metadata")
	return scalar(p, "apiVersion") == o.APIVersion && scalar(p, "kind") == o.Kind && scalar(md, "name") == o.Name &&
		(scalar(md, "namespace") == "" || scalar(md, "namespace") == o.Namespace)
}

// generatorSelector is the selectors of a PolicyGenerator placement
// (docs/policygenerator-reference.yaml placement): its labelSelector (or
// the deprecated clusterSelectors, clusterSelector), key: value pairs or a
// LabelSelector with matchLabels and matchExpressions; or the Placement
// or PlacementRule it names in the policy's namespace (placementName,
// placementRuleName) or in a file relative to the kustomization
// (placementPath, placementRulePath). nil when none of them is known.
func (g *Generated) generatorSelector(place *yaml.Node, ns, dir string) []labels.Selector {
	for _, key := range []string{"labelSelector", "clusterSelectors", "clusterSelector"} {
		n := child(place, key)
		if n == nil || n.Kind != yaml.MappingNode || len(n.Content) == 0 {
			continue
		}
		if child(n, "matchLabels") == nil && child(n, "matchExpressions") == nil {
			n = &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Value: "matchLabels"}, n}}
		}
		if s, ok := labelSelector(n); ok {
			return []labels.Selector{s}
		}
		return nil
	}
	if name := scalar(place, "placementName"); name != "" {
		return g.placements[KindPlacement+"/"+ns+"/"+name]
	}
	if name := scalar(place, "placementRuleName"); name != "" {
		return g.placements[KindPlacementRule+"/"+ns+"/"+name]
	}
	for _, key := range []string{"placementPath", "placementRulePath"} {
		p := scalar(place, key)
		if p == "" {
			continue
		}
		data, err := fsread.File(filepath.Join(dir, filepath.FromSlash(p)), MaxFileSize)
		if err != nil {
			return nil
		}
		objs, _ := Scan(filepath.Join(dir, filepath.FromSlash(p)), data)
		for _, o := range objs {
			if s, ok := placementOf(o); ok {
				return s
			}
		}
		return nil
	}
	return nil
}

// policyGenTemplate reads a ZTP PolicyGenTemplate (cnf-features-deploy
// release-4.20 ztp/policygenerator/policyGen/policyBuilder.go Build): each
// spec.sourceFiles[] entry is a source CR in the source-crs folder
// (platform.PolicyGenTemplateSourceDir) with $mcp replaced by spec.mcp,
// its metadata and spec/data/status overlays merged (setValues), in the
// policy <name>-<policyName> placed by spec.bindingRules (and not
// bindingExcludedRules); a source file without a policyName (or with
// wrapInPolicy false) is a plain CR of the hub.
func (g *Generated) policyGenTemplate(o *Object, dir string) {
	spec := child(o.Root(), "spec")
	sel, ok := pgtSelector(spec)
	wrap := scalar(spec, "wrapInPolicy") != "false"
	mcp := scalar(spec, "mcp")
	byPolicy := map[string]*Delivery{}
	var order []string
	for _, sf := range seq(child(spec, "sourceFiles")) {
		nameNode := child(sf, "fileName")
		if nameNode == nil || nameNode.Value == "" || mustNotHave(scalar(sf, "complianceType")) {
			continue
		}
		policy := scalar(sf, "policyName")
		key := policy
		if policy == "" || !wrap {
			key = ""
		}
		d := byPolicy[key]
		if d == nil {
			d = &Delivery{By: o, Policy: o.Namespace + "/" + o.Name + "-" + policy, Hub: key == ""}
			if key == "" {
				d.Policy = o.Namespace + "/" + o.Name
			} else if ok {
				d.Selector = []labels.Selector{sel}
			}
			byPolicy[key] = d
			order = append(order, key)
		}
		file := filepath.Join(dir, platform.PolicyGenTemplateSourceDir, filepath.FromSlash(nameNode.Value))
		srcs, ok := g.source(o, file, nameNode)
		if !ok {
			continue
		}
		overlaid := len(srcs) == 1
		for _, s := range srcs {
			n := copyNode(s.Root())
			if mcp != "" {
				replaceMCP(n, mcp)
			}
			from := map[*yaml.Node]string{}
			if overlaid {
				overlay(n, sf, o.File, from)
			}
			if len(from) == 0 {
				from = nil
			}
			g.deliver(&d.Objects, o, s, n, from)
		}
	}
	for _, k := range order {
		g.Deliveries = append(g.Deliveries, *byPolicy[k])
	}
}

// pgtSelector: spec.bindingRules (labels the cluster has) and
// spec.bindingExcludedRules (labels it has not: NotIn; policyBuilder.go
// createPolicyPlacement). Not ok when there are no binding rules.
func pgtSelector(spec *yaml.Node) (labels.Selector, bool) {
	rules := stringMap(child(spec, "bindingRules"))
	if len(rules) == 0 {
		return nil, false
	}
	sel, ok := labelSelector(&yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Value: "matchLabels"}, child(spec, "bindingRules")}})
	if !ok {
		return nil, false
	}
	excl := stringMap(child(spec, "bindingExcludedRules"))
	for _, k := range sortedKeys(excl) {
		r, err := labels.NewRequirement(k, selection.NotIn, []string{excl[k]})
		if err != nil {
			return nil, false
		}
		sel = sel.Add(*r)
	}
	return sel, true
}

// replaceMCP replaces platform.PolicyGenTemplateMCP in every string.
func replaceMCP(n *yaml.Node, mcp string) {
	if n.Kind == yaml.ScalarNode {
		n.Value = strings.ReplaceAll(n.Value, platform.PolicyGenTemplateMCP, mcp)
	}
	for _, c := range n.Content {
		replaceMCP(c, mcp)
	}
}

// overlay merges a PolicyGenTemplate source file entry's overlays into a
// source CR (policyBuilder.go getCustomResource): metadata name and
// namespace replaced, labels and annotations merged, each section of
// platform.PolicyGenTemplateOverlays merged by setValues.
func overlay(n, sf *yaml.Node, file string, from map[*yaml.Node]string) {
	md := child(sf, "metadata")
	if target := child(n, "metadata"); target != nil {
		for _, k := range []string{"name", "namespace"} {
			if v := child(md, k); v != nil && v.Kind == yaml.ScalarNode && v.Value != "" {
				setKey(target, k, adopt(v, file, from), file, from)
			}
		}
		for _, k := range []string{"labels", "annotations"} {
			if v := child(md, k); v != nil && v.Kind == yaml.MappingNode && len(v.Content) > 0 {
				t := child(target, k)
				if t == nil || t.Kind != yaml.MappingNode {
					t = &yaml.Node{Kind: yaml.MappingNode, Line: v.Line, Column: v.Column}
					setKey(target, k, t, file, from)
				}
				setValues(t, v, file, from)
			}
		}
	}
	for _, k := range platform.PolicyGenTemplateOverlays {
		v := child(sf, k)
		t := child(n, k)
		if t == nil && v != nil {
			t = &yaml.Node{Kind: yaml.MappingNode, Line: v.Line, Column: v.Column}
			setKey(n, k, t, file, from)
		}
		if t != nil && t.Kind == yaml.MappingNode {
			setValues(t, v, file, from)
		}
	}
}

// setValues merges the overlay v into the source mapping t as
// policyBuilder.go setValues does: a key the overlay does not set is
// deleted when its value is an empty string or starts with $; mappings
// are merged; a list of mappings is merged item by item, the overlay's
// extra items appended; any other value is replaced; the overlay's other
// keys are added.
func setValues(t, v *yaml.Node, file string, from map[*yaml.Node]string) {
	var kept []*yaml.Node
	for i := 0; i+1 < len(t.Content); i += 2 {
		k, sv := t.Content[i], t.Content[i+1]
		ov := child(v, k.Value)
		if ov == nil || ov.Tag == "!!null" {
			if sv.Kind == yaml.ScalarNode && sv.Tag == "!!str" && (sv.Value == "" || strings.HasPrefix(sv.Value, platform.PolicyGenTemplatePlaceholderPrefix)) {
				continue // a placeholder the overlay leaves unset
			}
			kept = append(kept, k, sv)
			continue
		}
		switch {
		case sv.Kind == yaml.MappingNode && ov.Kind == yaml.MappingNode:
			setValues(sv, ov, file, from)
		case sv.Kind == yaml.SequenceNode && len(sv.Content) > 0 && sv.Content[0].Kind == yaml.MappingNode && ov.Kind == yaml.SequenceNode:
			for j, item := range ov.Content {
				switch {
				case j < len(sv.Content) && sv.Content[j].Kind == yaml.MappingNode && item.Kind == yaml.MappingNode:
					setValues(sv.Content[j], item, file, from)
				case j >= len(sv.Content):
					sv.Content = append(sv.Content, adopt(item, file, from))
				}
			}
		default:
			sv = adopt(ov, file, from)
		}
		kept = append(kept, k, sv)
	}
	t.Content = kept
	for i := 0; v != nil && i+1 < len(v.Content); i += 2 {
		if child(t, v.Content[i].Value) == nil {
			t.Content = append(t.Content, adopt(v.Content[i], file, from), adopt(v.Content[i+1], file, from))
		}
	}
}

// mergePatch applies a merge patch p to the mapping t: mappings merged,
// null deletes, anything else replaced (RFC 7386; kustomize applies a
// PolicyGenerator's patches as strategic merge patches, which merge
// lists of known types by key: read here as replaced).
func mergePatch(t, p *yaml.Node, file string, from map[*yaml.Node]string) {
	for i := 0; i+1 < len(p.Content); i += 2 {
		k, pv := p.Content[i], p.Content[i+1]
		if pv.Tag == "!!null" {
			deleteKey(t, k.Value)
			continue
		}
		tv := child(t, k.Value)
		if tv != nil && tv.Kind == yaml.MappingNode && pv.Kind == yaml.MappingNode {
			mergePatch(tv, pv, file, from)
			continue
		}
		setKey(t, k.Value, adopt(pv, file, from), file, from)
	}
}

// adopt copies an overlay's node, its nodes marked as written in file.
func adopt(n *yaml.Node, file string, from map[*yaml.Node]string) *yaml.Node {
	c := copyNode(n)
	markFrom(c, file, from)
	return c
}

// setKey sets key to v in the mapping t (a new key node is from file).
func setKey(t *yaml.Node, key string, v *yaml.Node, file string, from map[*yaml.Node]string) {
	for i := 0; i+1 < len(t.Content); i += 2 {
		if t.Content[i].Value == key {
			t.Content[i+1] = v
			return
		}
	}
	k := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key, Line: v.Line, Column: v.Column}
	from[k] = file
	if _, ok := from[v]; !ok {
		from[v] = file
	}
	t.Content = append(t.Content, k, v)
}

func deleteKey(t *yaml.Node, key string) {
	for i := 0; i+1 < len(t.Content); i += 2 {
		if t.Content[i].Value == key {
			t.Content = append(t.Content[:i:i], t.Content[i+2:]...)
			return
		}
	}
}

// copyNode is a deep copy of a node (aliases resolved to copies of what
// they name).
func copyNode(n *yaml.Node) *yaml.Node {
	if n == nil {
		return nil
	}
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	c := *n
	c.Content = make([]*yaml.Node, len(n.Content))
	for i, x := range n.Content {
		c.Content[i] = copyNode(x)
	}
	return &c
}
