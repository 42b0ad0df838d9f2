package manifests

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/selection"

	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/fsread"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/yamllimit"
)

// The hub's language: what an ACM hub keeps for its managed clusters. A
// Policy's ConfigurationPolicies hold objects of the clusters its
// placement selects; a PolicyGenerator (the ACM kustomize plugin) and a
// ZTP PolicyGenTemplate name source files that become such policies.
// This file reads the objects a Policy delivers and the clusters its
// placement selects; hubgen.go reads the generators.

// The hub kinds read here.
const (
	KindPolicy              = "Policy"
	KindConfigurationPolicy = "ConfigurationPolicy"
	KindPlacementBinding    = "PlacementBinding"
	KindPolicySet           = "PolicySet"
	KindPlacement           = "Placement"
	KindPlacementRule       = "PlacementRule"
	KindPolicyGenerator     = "PolicyGenerator"
	KindPolicyGenTemplate   = "PolicyGenTemplate"
	KindManagedCluster      = "ManagedCluster"
	KindSiteConfig          = "SiteConfig"
	KindClusterInstance     = "ClusterInstance"
)

// Delivery is what one policy puts on the managed clusters it places.
type Delivery struct {
	// By is the hub object that says it: a Policy, PolicyGenerator or
	// PolicyGenTemplate.
	By *Object
	// Policy is the policy's namespace/name.
	Policy string
	// Objects are the objects the policy's ConfigurationPolicies hold
	// (objects that must not exist, mustnothave, are left out), at their
	// lines in the file that says them.
	Objects []*Object
	// Selector selects the managed clusters by label: a cluster any of
	// them matches; nil when the repository does not say which clusters
	// the policy is placed on.
	Selector []labels.Selector
	// Hub: the objects are applied with the generator itself, to the
	// cluster that applies the kustomization (a PolicyGenTemplate source
	// file without a policy).
	Hub bool
}

// ManagedCluster is a cluster the hub manages, as the repository
// describes it, with the labels its ManagedCluster gets.
type ManagedCluster struct {
	Name   string
	Labels labels.Set
	// By is the object that says it: a ManagedCluster, a ClusterInstance
	// (spec.extraLabels.ManagedCluster) or a SiteConfig
	// (spec.clusters[].clusterLabels).
	By *Object
}

// isHubKind reports whether an object is of apiVersion group/<version>
// and kind.
func isHubKind(o *Object, group, kind string) bool {
	return o.Kind == kind && strings.HasPrefix(o.APIVersion, group+"/")
}

// DeliversObjects reports whether an object delivers objects to managed
// clusters: a Policy, a PolicyGenerator or a PolicyGenTemplate.
func DeliversObjects(o *Object) bool {
	return isHubKind(o, platform.PolicyAPIGroup, KindPolicy) || isHubKind(o, platform.PolicyAPIGroup, KindPolicyGenerator) ||
		o.Kind == KindPolicyGenTemplate && o.APIVersion == platform.PolicyGenTemplateVersion
}

// ManagedClusters are the managed clusters the objects describe, by the
// labels their ManagedCluster gets: a ManagedCluster's own; a
// ClusterInstance's spec.extraLabels.ManagedCluster (stolostron/siteconfig
// api/v1alpha1 clusterinstance_types.go ExtraLabels, applied by its
// ManagedCluster template); a SiteConfig cluster's clusterLabels
// (cnf-features-deploy ztp/siteconfig-generator siteConfig.go Clusters
// ClusterLabels, the labels of the ManagedCluster it generates).
func ManagedClusters(objs []*Object) []ManagedCluster {
	var out []ManagedCluster
	for _, o := range objs {
		switch {
		case isHubKind(o, platform.PlacementAPIGroup, KindManagedCluster):
			out = append(out, ManagedCluster{Name: o.Name, Labels: stringMap(child(child(o.Root(), "metadata"), "labels")), By: o})
		case o.Kind == KindClusterInstance && o.APIVersion == platform.ClusterInstanceAPIVersion:
			spec := child(o.Root(), "spec")
			out = append(out, ManagedCluster{Name: scalar(spec, "clusterName"),
				Labels: stringMap(child(child(spec, "extraLabels"), KindManagedCluster)), By: o})
		case o.Kind == KindSiteConfig && o.APIVersion == platform.PolicyGenTemplateVersion:
			for _, c := range seq(child(child(o.Root(), "spec"), "clusters")) {
				out = append(out, ManagedCluster{Name: scalar(c, "clusterName"), Labels: stringMap(child(c, "clusterLabels")), By: o})
			}
		}
	}
	return out
}

// PolicyDeliveries reads the Policies among objs: the objects each holds,
// and the clusters its placement selects when the objects say it (a
// PlacementBinding naming the policy and a Placement or PlacementRule
// that selects by label). What a Policy holds that is not read (a
// template) is a problem.
func PolicyDeliveries(objs []*Object) ([]Delivery, []Problem) {
	selectors := bindings(objs)
	var (
		out      []Delivery
		problems []Problem
	)
	for _, o := range objs {
		if !isHubKind(o, platform.PolicyAPIGroup, KindPolicy) {
			continue
		}
		d := Delivery{By: o, Policy: o.Namespace + "/" + o.Name, Selector: selectors[o.Namespace+"/"+o.Name]}
		for _, t := range seq(child(child(o.Root(), "spec"), "policy-templates")) {
			def := child(t, "objectDefinition")
			if scalar(def, "kind") != KindConfigurationPolicy {
				continue // CertificatePolicy, OperatorPolicy, Gatekeeper: no objects of the cluster
			}
			got, probs := configurationPolicyObjects(o, o.ID(), def, nil)
			d.Objects = append(d.Objects, got...)
			problems = append(problems, probs...)
		}
		out = append(out, d)
	}
	return out, problems
}

// configurationPolicyObjects are the objects of a ConfigurationPolicy
// (node def, in the file of parent): spec.object-templates[].objectDefinition,
// and spec.object-templates-raw when it holds no template. An object that
// must not exist (complianceType mustnothave) is not an object of the
// cluster. by names the hub object that says it, for messages; from
// names the files of nodes outside parent's file.
func configurationPolicyObjects(parent *Object, by string, def *yaml.Node, from map[*yaml.Node]string) ([]*Object, []Problem) {
	spec := child(def, "spec")
	var (
		out      []*Object
		problems []Problem
	)
	add := func(tmpls []*yaml.Node) {
		for _, t := range tmpls {
			if mustNotHave(scalar(t, "complianceType")) {
				continue
			}
			od := child(t, "objectDefinition")
			if od == nil || od.Kind != yaml.MappingNode {
				continue
			}
			o, p := embedded(parent, by, od, from)
			problems = append(problems, p...)
			if o != nil {
				out = append(out, o)
			}
		}
	}
	add(seq(child(spec, "object-templates")))
	if raw := child(spec, "object-templates-raw"); raw != nil && raw.Kind == yaml.ScalarNode {
		tmpls, p := rawTemplates(parent, by, raw, from)
		problems = append(problems, p...)
		add(tmpls)
	}
	return out, problems
}

// mustNotHave: a complianceType that says the object must not exist
// (config-policy-controller api/v1 ComplianceType, matched without
// regard to case).
func mustNotHave(complianceType string) bool {
	return strings.EqualFold(complianceType, "mustnothave")
}

// embedded makes the Object of an object inside a hub object (node n,
// positions in parent's file or as from says). An object holding a
// template is not read: it is a problem at the template.
func embedded(parent *Object, by string, n *yaml.Node, from map[*yaml.Node]string) (*Object, []Problem) {
	o := &Object{File: parent.File, Index: parent.Index, Item: parent.Item, root: eagerRoot(n), from: from}
	o.APIVersion = scalar(n, "apiVersion")
	o.Kind = scalar(n, "kind")
	if o.APIVersion == "" || o.Kind == "" {
		return nil, nil
	}
	if child(n, "status") != nil && child(n, "spec") == nil {
		// a status check (ZTP's validator policies: a MachineConfigPool
		// that must report Updated): what the cluster reports, not an
		// object it is given
		return nil, nil
	}
	o.Name = scalar(child(n, "metadata"), "name")
	o.Namespace = scalar(child(n, "metadata"), "namespace")
	at := placeholder(n)
	if at == nil {
		at = templateValue(n)
	}
	if at != nil {
		return nil, []Problem{{Kind: ProblemTemplate, Diagnostic: diag.Diagnostic{Pos: nodePos(o.fileOf(at), at),
			Message: fmt.Sprintf("%s in %s holds a policy template ({{ ... }} or {{hub ... hub}}), resolved on the hub or the managed cluster; it is not linted", o.ID(), by),
			Hint:    "lint the object as the policy resolves it"}}}
	}
	b, err := yaml.Marshal(n)
	if err != nil {
		return nil, []Problem{{Kind: ProblemSyntax, Diagnostic: diag.Diagnostic{Pos: nodePos(o.fileOf(n), n), Message: "cannot re-encode object: " + err.Error()}}}
	}
	o.Raw = b
	return o, nil
}

// templateValue finds a string (or key) holding a policy template marker
// (platform.PolicyTemplateMarker): the config-policy-controller and the
// hub resolve templates in every string of an object template.
func templateValue(n *yaml.Node) *yaml.Node {
	if n.Kind == yaml.ScalarNode && strings.Contains(n.Value, platform.PolicyTemplateMarker) {
		return n
	}
	for _, c := range n.Content {
		if t := templateValue(c); t != nil {
			return t
		}
	}
	return nil
}

// rawTemplates reads object-templates-raw: a YAML list of object
// templates in a string. One holding a template is a problem (what it
// says is known once resolved). The positions of a literal block scalar
// (`|`) are its lines in the file; otherwise every node is at the string.
func rawTemplates(parent *Object, by string, raw *yaml.Node, from map[*yaml.Node]string) ([]*yaml.Node, []Problem) {
	file := parent.File
	if f, ok := from[raw]; ok {
		file = f
	}
	if strings.Contains(raw.Value, platform.PolicyTemplateMarker) {
		return nil, []Problem{{Kind: ProblemTemplate, Diagnostic: diag.Diagnostic{Pos: nodePos(file, raw),
			Message: fmt.Sprintf("object-templates-raw of %s holds a policy template; it is not linted", by),
			Hint:    "lint the objects as the policy resolves them"}}}
	}
	var doc yaml.Node
	if err := yamllimit.CheckAliases([]byte(raw.Value), MaxFileSize); err != nil {
		return nil, []Problem{{Kind: ProblemSyntax, Diagnostic: diag.Diagnostic{Pos: nodePos(file, raw),
			Message: fmt.Sprintf("object-templates-raw of %s: %s", by, err.Error())}}}
	}
	if err := yaml.Unmarshal([]byte(raw.Value), &doc); err != nil {
		return nil, []Problem{{Kind: ProblemSyntax, Diagnostic: diag.Diagnostic{Pos: nodePos(file, raw),
			Message: fmt.Sprintf("object-templates-raw of %s does not parse: %s", by, strings.TrimPrefix(err.Error(), "yaml: "))}}}
	}
	if len(doc.Content) == 0 || depth(doc.Content[0], 0) > MaxDepth {
		return nil, nil
	}
	root := doc.Content[0]
	place(root, raw, blockIndent(file, raw))
	if from != nil {
		if f, ok := from[raw]; ok {
			markFrom(root, f, from)
		}
	}
	return seq(root), nil
}

// blockIndent is the column (0-based) of the content of a literal block
// scalar: the indentation of its first non-empty line in the file; -1
// when it is not a literal block or the file cannot be read.
func blockIndent(file string, raw *yaml.Node) int {
	if raw.Style != yaml.LiteralStyle {
		return -1
	}
	src, err := fsread.File(file, MaxFileSize)
	if err != nil {
		return -1
	}
	lines := strings.Split(string(src), "\n")
	for i := raw.Line; i < len(lines); i++ { // raw.Line is 1-based: lines[raw.Line] is the next line
		if t := strings.TrimLeft(lines[i], " "); t != "" {
			return len(lines[i]) - len(t)
		}
	}
	return -1
}

// place moves the nodes parsed from a string to the string's place in the
// file: line by line for a literal block (indent >= 0), else at the
// string itself.
func place(n, raw *yaml.Node, indent int) {
	if indent >= 0 {
		n.Line += raw.Line
		n.Column += indent
	} else {
		n.Line, n.Column = raw.Line, raw.Column
	}
	for _, c := range n.Content {
		place(c, raw, indent)
	}
}

// markFrom records that every node under n is in file.
func markFrom(n *yaml.Node, file string, from map[*yaml.Node]string) {
	from[n] = file
	for _, c := range n.Content {
		markFrom(c, file, from)
	}
}

// bindings are the label selectors of the policies the PlacementBindings
// among objs bind, directly or through a PolicySet (namespace/name of the
// Policy -> selectors, any of which places it). A binding to a placement
// that is not among objs or does not select by label alone places
// nothing, and neither does a PolicySet for a policy it excludes from some
// clusters.
func bindings(objs []*Object) map[string][]labels.Selector {
	placements := placementSelectors(objs)
	sets := map[string][]string{} // namespace/name of a PolicySet -> its policies
	for _, o := range objs {
		if !isHubKind(o, platform.PolicyAPIGroup, KindPolicySet) {
			continue
		}
		spec := child(o.Root(), "spec")
		excluded := map[string]bool{}
		for _, e := range seq(child(spec, "exclusions")) {
			excluded[scalar(e, "policyName")] = true // placed on some of the clusters only
		}
		for _, p := range seq(child(spec, "policies")) {
			if !excluded[p.Value] {
				sets[o.Namespace+"/"+o.Name] = append(sets[o.Namespace+"/"+o.Name], p.Value)
			}
		}
	}
	out := map[string][]labels.Selector{}
	for _, o := range objs {
		if !isHubKind(o, platform.PolicyAPIGroup, KindPlacementBinding) {
			continue
		}
		ref := child(o.Root(), "placementRef")
		s, ok := placements[scalar(ref, "kind")+"/"+o.Namespace+"/"+scalar(ref, "name")]
		if !ok {
			continue
		}
		for _, sub := range seq(child(o.Root(), "subjects")) {
			switch scalar(sub, "kind") {
			case KindPolicy:
				out[o.Namespace+"/"+scalar(sub, "name")] = append(out[o.Namespace+"/"+scalar(sub, "name")], s...)
			case KindPolicySet:
				for _, p := range sets[o.Namespace+"/"+scalar(sub, "name")] {
					out[o.Namespace+"/"+p] = append(out[o.Namespace+"/"+p], s...)
				}
			}
		}
	}
	return out
}

// placementSelectors are the label selectors of the Placements and
// PlacementRules among objs that select by label alone (kind/namespace/name
// -> selectors, any of which selects a cluster).
func placementSelectors(objs []*Object) map[string][]labels.Selector {
	out := map[string][]labels.Selector{}
	for _, o := range objs {
		if s, ok := placementOf(o); ok {
			out[o.Kind+"/"+o.Namespace+"/"+o.Name] = s
		}
	}
	return out
}

// placementOf is the selectors of a Placement or PlacementRule (a
// PlacementRule's spec.clusterSelector, unless it names clusters or a
// number of them).
func placementOf(o *Object) ([]labels.Selector, bool) {
	switch {
	case isHubKind(o, platform.PlacementAPIGroup, KindPlacement):
		return placementSelector(child(o.Root(), "spec"))
	case isHubKind(o, platform.PlacementRuleAPIGroup, KindPlacementRule):
		spec := child(o.Root(), "spec")
		if s, ok := labelSelector(child(spec, "clusterSelector")); ok && child(spec, "clusterReplicas") == nil && child(spec, "clusters") == nil {
			return []labels.Selector{s}, true
		}
	}
	return nil, false
}

// placementSelector is the clusters a Placement's spec selects by label:
// its predicates' requiredClusterSelector.labelSelector, any of which
// selects a cluster (open-cluster-management-io/api cluster/v1beta1
// types_placement.go Predicates: "If multiple predicates are specified,
// the logic is OR"), of the clusters of its spec.clusterSets (by
// platform.ClusterSetLabel). Not ok when a predicate selects by claim,
// when there is none, a predicate has no label selector, or the
// placement picks a number of the clusters it selects.
func placementSelector(spec *yaml.Node) ([]labels.Selector, bool) {
	preds := seq(child(spec, "predicates"))
	if len(preds) == 0 || child(spec, "numberOfClusters") != nil {
		return nil, false
	}
	var sets []string
	for _, s := range seq(child(spec, "clusterSets")) {
		sets = append(sets, s.Value)
	}
	var member *labels.Requirement
	if len(sets) > 0 {
		r, err := labels.NewRequirement(platform.ClusterSetLabel, selection.In, sets)
		if err != nil {
			return nil, false
		}
		member = r
	}
	var any []labels.Selector
	for _, p := range preds {
		req := child(p, "requiredClusterSelector")
		if child(req, "claimSelector") != nil {
			return nil, false
		}
		s, ok := labelSelector(child(req, "labelSelector"))
		if !ok {
			return nil, false
		}
		if member != nil {
			s = s.Add(*member)
		}
		any = append(any, s)
	}
	return any, true
}

// Selects reports whether a cluster with these labels is one the
// delivery's placement selects (false when it is not known).
func (d Delivery) Selects(l labels.Set) bool {
	for _, s := range d.Selector {
		if s.Matches(l) {
			return true
		}
	}
	return false
}

// labelSelector reads a metav1.LabelSelector (matchLabels,
// matchExpressions); not ok when it is missing or does not parse.
func labelSelector(n *yaml.Node) (labels.Selector, bool) {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil, false
	}
	sel := labels.NewSelector()
	keys := stringMap(child(n, "matchLabels"))
	for _, k := range sortedKeys(keys) {
		r, err := labels.NewRequirement(k, selection.Equals, []string{keys[k]})
		if err != nil {
			return nil, false
		}
		sel = sel.Add(*r)
	}
	for _, e := range seq(child(n, "matchExpressions")) {
		var op selection.Operator
		switch scalar(e, "operator") {
		case "In":
			op = selection.In
		case "NotIn":
			op = selection.NotIn
		case "Exists":
			op = selection.Exists
		case "DoesNotExist":
			op = selection.DoesNotExist
		default:
			return nil, false
		}
		var vals []string
		for _, v := range seq(child(e, "values")) {
			vals = append(vals, v.Value)
		}
		r, err := labels.NewRequirement(scalar(e, "key"), op, vals)
		if err != nil {
			return nil, false
		}
		sel = sel.Add(*r)
	}
	return sel, true
}

// seq is a sequence node's items (nil for anything else).
func seq(n *yaml.Node) []*yaml.Node {
	if n == nil || n.Kind != yaml.SequenceNode {
		return nil
	}
	return n.Content
}

// stringMap reads a mapping of scalars (labels); nil for anything else.
func stringMap(n *yaml.Node) map[string]string {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	out := map[string]string{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if v := n.Content[i+1]; v.Kind == yaml.ScalarNode && v.Tag != "!!null" {
			out[n.Content[i].Value] = v.Value
		} else if v.Kind == yaml.ScalarNode {
			out[n.Content[i].Value] = ""
		}
	}
	return out
}

func sortedKeys(m map[string]string) []string { return slices.Sorted(maps.Keys(m)) }
