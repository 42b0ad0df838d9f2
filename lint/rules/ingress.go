package rules

import (
	"fmt"
	"maps"
	"net"
	"slices"
	"sort"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/siteforge/siteforge/internal/cluster/nodes"
	"github.com/siteforge/siteforge/internal/cluster/routing"
	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/site"
	"github.com/siteforge/siteforge/lint"
)

// ING rules: IngressControllers (operator.openshift.io/v1) in plain manifests
// and the routers of sites, checked with the ingress generator's own code
// (generators/ingress): placement translation, domain rules, host ports,
// exclusions and the router model of a site.

func init() {
	lint.RegisterFamily("v1alpha1", ingChecks, []*lint.Rule{
		{ID: "ING001", Name: "router-node-selector-unbuildable", Severity: lint.Error,
			Summary: "an IngressController's nodePlacement.nodeSelector uses a form the router Deployment cannot be built from",
			Rationale: "spec.nodePlacement.nodeSelector accepts only matchLabels, or matchExpressions with operator In and exactly one value. " +
				"Anything else (NotIn, Exists, DoesNotExist, In with several values) is admitted, but the operator turns the selector into the " +
				"router pods' nodeSelector with apimachinery LabelSelectorAsMap and fails: `failed to build router deployment: ingresscontroller " +
				"\"<name>\" has invalid spec.nodePlacement.nodeSelector: operator \"NotIn\" cannot be converted into the old label selector " +
				"format` (CIO desiredRouterDeployment). No router runs. Never fixed (BZ 2043573 / OCPBUGS-3404 documented it in 4.13). Sites: siteforge translates such a selector into matchLabels over the site's pools, or refuses it.",
			Fix: "Select the nodes with matchLabels (or In with one value): label the nodes the router should run on, and select that label."},
		{ID: "ING002", Name: "ingress-domain-invalid", Severity: lint.Error,
			Summary: "an IngressController's domain breaks the API's length or DNS rules",
			Rationale: "spec.domain must be at most 244 characters, a DNS-1123 subdomain with labels of at most 63 characters, and " +
				"len(\"router-\" + metadata.name + \".\" + spec.domain) at most 253 (the router's canonical hostname) (api operator/v1 " +
				"IngressController validation). The API server refuses the object.",
			Fix: "Use a shorter, lower-case domain (letters, digits, '-' and '.'), or a shorter controller name."},
		{ID: "ING003", Name: "ingress-domain-duplicate", Severity: lint.Error,
			Summary: "two IngressControllers have the same domain",
			Rationale: "The operator admits one controller per domain; the other gets Admitted=False \"conflicts with: ...\" and runs no router " +
				"(openshift/cluster-ingress-operator pkg/operator/controller/ingress/controller.go validateDomainUniqueness). A controller " +
				"without spec.domain takes the cluster's ingress domain (controller.go setDefaultDomain; openshift/api operator/v1 types_ingresscontroller.go " +
				"IngressControllerSpec.domain: \"If empty, defaults to ingress.config.openshift.io/cluster .spec.domain\" and \"must be unique " +
				"among all IngressControllers\"), as the default controller does: the operator creates it without a domain when missing " +
				"(pkg/operator/operator.go ensureDefaultIngressController). So a shard without spec.domain conflicts with the default, whether " +
				"or not the set holds it. The cluster's ingress domain is the Ingress config's spec.domain, or apps.<metadata.name>.<baseDomain> of " +
				"the install-config in the set. An object given twice (same namespace and name) is one object (the check compares UIDs).",
			Fix: "Give every IngressController its own domain (a shard typically <shard>.<cluster>.<base domain>)."},
		{ID: "ING004", Name: "default-router-serves-shard-routes", Severity: lint.Warning,
			Summary: "the default IngressController does not exclude a shard's routes, so both routers serve them",
			Rationale: "The default controller keeps serving every route its selectors admit, a shard's routes included, unless its " +
				"routeSelector or namespaceSelector rejects them (NotIn / DoesNotExist on the shard's label). Routes " +
				"served twice are admitted on both routers, and which one clients reach depends on DNS. Checked when the set holds the " +
				"default controller; for a site, a shard with excludeFromDefault: false.",
			Fix: "Add to the default controller's routeSelector (or namespaceSelector) a NotIn / DoesNotExist requirement on the shard's label; in a site, excludeFromDefault: true."},
		{ID: "ING005", Name: "default-router-drops-platform-routes", Severity: lint.Error,
			Summary: "the default IngressController's selectors reject the console, OAuth or canary routes",
			Rationale: "The default controller must keep the platform's own routes: console (openshift-console), oauth-openshift " +
				"(openshift-authentication, every login) and the canary the ingress operator checks itself with (openshift-ingress-canary). " +
				"A routeSelector that requires a label (matchLabels, In, Exists), or a namespaceSelector rejecting those namespaces, drops them: " +
				"no shard serves them either (CIO desiredRouterDeployment; api operator/v1 IngressController).",
			Fix: "Exclude shard routes with NotIn / DoesNotExist requirements only, which routes without the label pass; never require a label on the default controller."},
		{ID: "ING006", Name: "hostnetwork-replicas-exceed-nodes", Severity: lint.Error,
			Summary: "a HostNetwork router has more replicas than nodes it can run on",
			Rationale: "HostNetwork router pods bind host ports 80/443/1936, so each needs its own node: replicas above the eligible nodes stay " +
				"Pending and the controller is degraded (CIO desiredRouterDeployment; api operator/v1 IngressController). Replicas default to 2 (1 on single-node clusters). Node counts " +
				"come from a site's pools, or from the Node objects or install-config replicas of a set of plain manifests; unknown counts are " +
				"skipped. Sites: render refuses replicas the site sets; the rule reports the defaults.",
			Fix: "Set spec.replicas (ingress.*.replicas) to at most the eligible nodes, or place the router on more nodes."},
		{ID: "ING007", Name: "hostnetwork-port-collision", Severity: lint.Error,
			Summary: "two HostNetwork routers that share nodes bind the same host port, or one router binds a port twice",
			Rationale: "A HostNetwork router binds its httpPort, httpsPort and statsPort (80, 443, 1936 unless set) on every node it runs on: a " +
				"second router on the same nodes needs three other ports, or its pods never start (CIO desiredRouterDeployment; api operator/v1 IngressController). The operator " +
				"refuses a controller whose three ports are not unique. Routers share nodes when one's node selector is contained in the " +
				"other's (or, with Node objects in the set, when a node matches both); the default controller counts even when the set does " +
				"not hold it, when the install-config says its platform publishes with HostNetwork.",
			Fix: "Give the shard other ports (spec.endpointPublishingStrategy.hostNetwork httpPort/httpsPort/statsPort) or nodes no other HostNetwork router runs on."},
		{ID: "ING008", Name: "default-router-off-ingress-vip-subnet", Severity: lint.Error,
			Summary: "the default router can run on nodes outside the ingress VIP's subnet",
			Rationale: "On keepalived platforms (baremetal, vSphere, OpenStack, Nutanix with VIPs) the ingress VIP follows the DEFAULT router's " +
				"pods, and can sit only on a node whose primary subnet holds it: a router pod on a node in another subnet (remote workers) takes " +
				"the VIP where it is unreachable and ingress breaks (MCO templates/common/on-prem/files/keepalived-script-default-ingress.yaml: chk_default_ingress.sh keeps the VIP only on a node running a Ready router-default pod; docs \"Configuring network components to run on the control plane\"). Sites: render refuses a placement the " +
				"site sets; the rule reports the operator's default placement (the worker-labelled pools). Plain manifests: a default " +
				"controller selecting node.openshift.io/remote-worker, or Node objects off the VIP's machine network.",
			Fix: "Place the default router on nodes in the VIPs' subnet: ingress.default.pools: [\"master\"] in a site, or the default controller's nodePlacement.nodeSelector."},
	})
}

var ingChecks = map[string]func(lint.Set, *lint.Reporter){
	"ING001": checkRouterNodeSelectors,
	"ING002": checkIngressDomains,
	"ING003": checkDuplicateDomains,
	"ING004": checkShardExclusion,
	"ING005": checkPlatformRoutes,
	"ING006": checkRouterReplicas,
	"ING007": checkRouterPorts,
	"ING008": checkDefaultRouterVIP,
}

// ingController is an IngressController of a set, or the default controller
// the set does not hold but the cluster has (implicit).
type ingController struct {
	obj      *manifests.Object
	name     string
	implicit bool
	spec     ingSpec
}

type ingSpec struct {
	Domain        string `json:"domain"`
	Replicas      *int   `json:"replicas"`
	NodePlacement *struct {
		NodeSelector *metav1.LabelSelector `json:"nodeSelector"`
	} `json:"nodePlacement"`
	RouteSelector              *metav1.LabelSelector `json:"routeSelector"`
	NamespaceSelector          *metav1.LabelSelector `json:"namespaceSelector"`
	EndpointPublishingStrategy *struct {
		Type        string `json:"type"`
		HostNetwork *struct {
			HTTPPort  int `json:"httpPort"`
			HTTPSPort int `json:"httpsPort"`
			StatsPort int `json:"statsPort"`
		} `json:"hostNetwork"`
	} `json:"endpointPublishingStrategy"`
}

// ingControllers lists the set's IngressControllers: the default
// controller first, then the others in file order. The default is the
// cluster's router from installation on (cluster-ingress-operator
// pkg/operator/operator.go ensureDefaultIngressController creates it when
// missing), not a shard: when a shard is added, the default is the
// admitted controller the shard is compared with (pkg/operator/controller/ingress
// controller.go validateDomainUniqueness refuses the newcomer), and
// without spec.domain its domain is the Ingress config's spec.domain
// (controller.go setDefaultDomain). So what a rule says of a controller
// that conflicts with another is said of the shard, never of the default.
func ingControllers(set lint.Set) []*ingController {
	var out []*ingController
	for _, o := range set.Kind(manifests.GroupOperatorV1, "IngressController") {
		var doc struct {
			Spec ingSpec `json:"spec"`
		}
		if o.DecodeLoose(&doc) != nil {
			continue
		}
		out = append(out, &ingController{obj: o, name: o.Name, spec: doc.Spec})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].isDefault() && !out[j].isDefault() })
	return out
}

func (c *ingController) isDefault() bool {
	return c.name == platform.IngressDefaultControllerName && (c.obj == nil || c.obj.Namespace == "" || c.obj.Namespace == platform.IngressOperatorNamespace)
}

// ingDefaultController returns the set's default controller, or an implicit
// one (no spec) when the set holds an install-config (the cluster has one).
func ingDefaultController(ics []*ingController, facts plainCluster) *ingController {
	for _, c := range ics {
		if c.isDefault() {
			return c
		}
	}
	if facts.installConfig != nil {
		return &ingController{name: platform.IngressDefaultControllerName, implicit: true}
	}
	return nil
}

func (c *ingController) nodeSelectorSpec() *metav1.LabelSelector {
	if c.spec.NodePlacement == nil {
		return nil
	}
	return c.spec.NodePlacement.NodeSelector
}

// nodeSelector is the router pods' nodeSelector; false when the router
// cannot be built (ING001).
func (c *ingController) nodeSelector() (map[string]string, bool) {
	sel := c.nodeSelectorSpec()
	if sel == nil {
		return routing.DefaultNodeSelector(), true
	}
	if routing.NodeSelectorError(c.name, sel) != nil {
		return nil, false
	}
	m, _ := metav1.LabelSelectorAsMap(sel)
	return m, true
}

// hostNetwork reports whether the router binds host ports.
func (c *ingController) hostNetwork(clusterPlatform string) bool {
	if s := c.spec.EndpointPublishingStrategy; s != nil && s.Type != "" {
		return s.Type == platform.PublishingHostNetwork
	}
	return platform.IngressDefaultPublishing(clusterPlatform) == platform.PublishingHostNetwork
}

func (c *ingController) ports() routing.HostPorts {
	p := routing.DefaultHostPorts
	if s := c.spec.EndpointPublishingStrategy; s != nil && s.HostNetwork != nil {
		for i, v := range []int{s.HostNetwork.HTTPPort, s.HostNetwork.HTTPSPort, s.HostNetwork.StatsPort} {
			if v != 0 {
				p[i] = v
			}
		}
	}
	return p
}

// report reports on the controller, or, for the implicit default
// controller, at the install-config's ingress VIPs (or platform section).
func (c *ingController) report(r *lint.Reporter, facts plainCluster, msg string, path ...string) {
	if c.implicit {
		r.Object(facts.installConfig, msg+" (the default IngressController the operator creates)", "platform", facts.platform, "ingressVIPs")
		return
	}
	r.Object(c.obj, msg, path...)
}

func checkRouterNodeSelectors(set lint.Set, r *lint.Reporter) {
	for _, c := range ingControllers(set) {
		sel := c.nodeSelectorSpec()
		err := routing.NodeSelectorError(c.name, sel)
		if err == nil {
			continue
		}
		path := []string{"spec", "nodePlacement", "nodeSelector"}
		for i, e := range sel.MatchExpressions {
			if e.Operator != metav1.LabelSelectorOpIn {
				path = append(path, "matchExpressions", fmt.Sprint(i), "operator")
				break
			}
			if len(e.Values) != 1 {
				path = append(path, "matchExpressions", fmt.Sprint(i), "values")
				break
			}
		}
		r.Object(c.obj, err.Error()+": no router runs; select the nodes with matchLabels or In with exactly one value", path...)
	}
}

func checkIngressDomains(set lint.Set, r *lint.Reporter) {
	for _, c := range ingControllers(set) {
		if c.spec.Domain == "" {
			continue
		}
		for _, p := range routing.DomainProblems(c.name, c.spec.Domain) {
			r.Object(c.obj, fmt.Sprintf("IngressController %s: %s: %s", c.name, p.Message, p.Hint), "spec", "domain")
		}
	}
}

// ingClusterDomain is the default controller's domain when it sets
// none: the Ingress config's, else the install-config's apps domain; from
// says where it is configured ("" when unknown).
func ingClusterDomain(set lint.Set, facts plainCluster) (domain, from string) {
	for _, o := range set.Kind(manifests.GroupConfig, "Ingress") {
		var doc struct {
			Spec struct {
				Domain string `json:"domain"`
			} `json:"spec"`
		}
		if o.Name == "cluster" && o.DecodeLoose(&doc) == nil && doc.Spec.Domain != "" {
			return doc.Spec.Domain, o.ID() + " spec.domain"
		}
	}
	if facts.installConfig != nil && facts.name != "" && facts.baseDomain != "" {
		return routing.AppsDomain(facts.name, facts.baseDomain), "install-config metadata.name and baseDomain"
	}
	return "", ""
}

// ingUnknownClusterDomain keys the cluster ingress domain when the set does not say it: every
// controller without spec.domain shares it all the same.
const ingUnknownClusterDomain = "\x00the cluster ingress domain"

// checkDuplicateDomains follows CIO pkg/operator/controller/ingress/controller.go: setDefaultDomain
// gives a controller without spec.domain the Ingress config's spec.domain, and
// validateDomainUniqueness refuses a controller whose domain an admitted controller with another UID
// has ("conflicts with: <name>"). The default controller always exists (CIO operator.go
// ensureDefaultIngressController creates it without spec.domain when missing). An object given twice
// (same namespace and name) is one object: it never conflicts with itself.
func checkDuplicateDomains(set lint.Set, r *lint.Reporter) {
	if set.Site != nil {
		return // render refuses a shard with a taken domain
	}
	// The operator admits only the IngressControllers of its namespace
	// (cluster-ingress-operator pkg/operator/controller/ingress/controller.go
	// validate lists them InNamespace(r.config.Namespace)): one elsewhere
	// is never admitted, and takes no domain.
	var ics []*ingController
	for _, c := range ingControllers(set) {
		if ns := c.obj.Namespace; ns == "" || ns == platform.IngressOperatorNamespace {
			ics = append(ics, c)
		}
	}
	if len(ics) == 0 {
		return
	}
	facts := plainClusterOf(set)
	clusterDomain, _ := ingClusterDomain(set, facts)
	effective := func(c *ingController) string {
		switch {
		case c.spec.Domain != "":
			return c.spec.Domain
		case clusterDomain != "":
			return clusterDomain
		}
		return ingUnknownClusterDomain
	}
	type owner struct{ id, name string }
	identity := func(c *ingController) string {
		ns := c.obj.Namespace
		if ns == "" {
			ns = platform.IngressOperatorNamespace
		}
		return ns + "/" + c.name
	}
	seen := map[string]owner{}
	if !slices.ContainsFunc(ics, (*ingController).isDefault) {
		// the operator's default controller, which the set does not hold, has the cluster domain
		key := clusterDomain
		if key == "" {
			key = ingUnknownClusterDomain
		}
		seen[key] = owner{platform.IngressOperatorNamespace + "/" + platform.IngressDefaultControllerName, platform.IngressDefaultControllerName}
	}
	for _, c := range ics {
		domain, id := effective(c), identity(c)
		other, dup := seen[domain]
		if !dup {
			seen[domain] = owner{id, c.name}
			continue
		}
		if other.id == id {
			continue // the same object, given twice
		}
		if c.spec.Domain != "" {
			p := routing.DomainConflict(domain, other.name)
			r.Object(c.obj, fmt.Sprintf("IngressController %s: %s: give every IngressController its own domain", c.name, p.Message), "spec", "domain")
			continue
		}
		taken := "the cluster ingress domain (ingress.config.openshift.io cluster spec.domain)"
		if domain != ingUnknownClusterDomain {
			taken = "the cluster ingress domain " + domain
		}
		r.Object(c.obj, fmt.Sprintf("IngressController %s has no spec.domain, so the operator gives it %s, which IngressController %q has too: "+
			"the operator admits only one controller per domain, and this one gets Admitted=False (\"conflicts with: %s\") and runs no router; "+
			"set spec.domain to the shard's own domain (e.g. <shard>.<cluster>.<base domain>)", c.name, taken, other.name, other.name), "spec")
	}
}

func checkShardExclusion(set lint.Set, r *lint.Reporter) {
	if set.Site != nil {
		s := set.Site.Site
		if s.Ingress == nil {
			return
		}
		for _, name := range slices.Sorted(maps.Keys(s.Ingress.Shards)) {
			sh := s.Ingress.Shards[name]
			if sh.ExcludeFromDefault || sh.RouteSelector == nil && sh.NamespaceSelector == nil {
				continue
			}
			r.At(s.Name, s.Positions.Of(site.Field("ingress", "shards", name, "excludeFromDefault")), fmt.Sprintf(
				"shard %q has excludeFromDefault: false: the default router serves its routes too, and which router clients reach depends on DNS; "+
					"set excludeFromDefault: true, or suppress ING004 with the reason both routers should serve them", name))
		}
		return
	}
	ics := ingControllers(set)
	var def *ingController
	for _, c := range ics {
		if c.isDefault() {
			def = c
		}
	}
	if def == nil {
		return // the cluster's default controller is not in the set
	}
	for _, c := range ics {
		if c == def || c.spec.RouteSelector == nil && c.spec.NamespaceSelector == nil {
			continue
		}
		if routing.ExcludesShard(def.spec.RouteSelector, def.spec.NamespaceSelector, c.spec.RouteSelector, c.spec.NamespaceSelector) {
			continue
		}
		r.Object(def.obj, fmt.Sprintf("the default IngressController does not exclude the routes of shard %q (%s): both routers serve them; "+
			"add a NotIn or DoesNotExist requirement on the shard's label to the default's routeSelector or namespaceSelector",
			c.name, ingSelectorsText(c.spec.RouteSelector, c.spec.NamespaceSelector)), "spec", "routeSelector")
	}
}

// ingSelectorsText describes a shard's selectors for messages.
func ingSelectorsText(route, ns *metav1.LabelSelector) string {
	var parts []string
	if route != nil {
		parts = append(parts, "routeSelector "+metav1.FormatLabelSelector(route))
	}
	if ns != nil {
		parts = append(parts, "namespaceSelector "+metav1.FormatLabelSelector(ns))
	}
	return strings.Join(parts, ", ")
}

func checkPlatformRoutes(set lint.Set, r *lint.Reporter) {
	for _, c := range ingControllers(set) {
		if !c.isDefault() {
			continue
		}
		if dropped := routing.PlatformRoutesDropped(c.spec.RouteSelector, nil); len(dropped) > 0 {
			r.Object(c.obj, fmt.Sprintf("the default IngressController's routeSelector %s rejects the platform's routes %s (they carry none of your labels): "+
				"exclude shard routes with NotIn or DoesNotExist instead of requiring a label", metav1.FormatLabelSelector(c.spec.RouteSelector), strings.Join(dropped, ", ")),
				"spec", "routeSelector")
		}
		if dropped := routing.PlatformRoutesDropped(nil, c.spec.NamespaceSelector); len(dropped) > 0 {
			r.Object(c.obj, fmt.Sprintf("the default IngressController's namespaceSelector %s rejects the namespaces of the platform's routes %s: "+
				"exclude shard namespaces with NotIn or DoesNotExist on a label of your own", metav1.FormatLabelSelector(c.spec.NamespaceSelector), strings.Join(dropped, ", ")),
				"spec", "namespaceSelector")
		}
	}
}

func checkRouterReplicas(set lint.Set, r *lint.Reporter) {
	if set.Site != nil {
		s := set.Site.Site
		routers, err := routing.Routers(s)
		if err != nil {
			return // render reports it
		}
		for _, rt := range routers {
			if !rt.HostNetwork || rt.ReplicasSet || rt.Nodes < 0 || rt.Replicas <= rt.Nodes {
				continue
			}
			r.At(s.Name, s.Positions.Of(rt.Path), fmt.Sprintf(
				"router %q gets the operator's default of %d HostNetwork replicas, but can run on %d node(s) (pools %s): each replica binds the host ports, "+
					"so %d stay Pending; set replicas to %d or place the router on more nodes",
				rt.Name, rt.Replicas, rt.Nodes, strings.Join(rt.Pools, ", "), rt.Replicas-rt.Nodes, rt.Nodes))
		}
		return
	}
	facts := plainClusterOf(set)
	for _, c := range ingControllers(set) {
		if !c.hostNetwork(facts.platform) {
			continue
		}
		sel, ok := c.nodeSelector()
		if !ok {
			continue
		}
		nodes, from, known := facts.eligibleNodes(sel)
		if !known {
			continue
		}
		replicas, why := facts.defaultRouterReplicas(), "the operator's default"
		if c.spec.Replicas != nil {
			replicas, why = *c.spec.Replicas, "spec.replicas"
		}
		if replicas <= nodes {
			continue
		}
		r.Object(c.obj, fmt.Sprintf("IngressController %s has %d HostNetwork replicas (%s) but its node selector %s matches %d node(s) (%s): "+
			"each replica binds the host ports, so %d stay Pending; set spec.replicas to %d or select more nodes",
			c.name, replicas, why, ingLabelsText(sel), nodes, from, replicas-nodes, nodes), "spec", "replicas")
	}
}

func ingLabelsText(m map[string]string) string {
	return metav1.FormatLabelSelector(&metav1.LabelSelector{MatchLabels: m})
}

// eligibleNodes counts the nodes a router node selector matches: the Node
// objects of the set, else the install-config's replicas for the selectors
// that select a role (workers; masters; the default placement, which is the
// masters on a cluster without workers).
func (c plainCluster) eligibleNodes(sel map[string]string) (int, string, bool) {
	if len(c.nodes) > 0 {
		n := 0
		for _, node := range c.nodesMatching(sel) {
			if ingHasKey(node.labels, platform.RemoteWorkerLabel) && !ingHasKey(sel, platform.RemoteWorkerLabel) {
				continue // CIO's node affinity keeps routers off detected remote workers
			}
			n++
		}
		return n, "Node objects of the set", true
	}
	if c.installConfig == nil {
		return 0, "", false
	}
	workers, masters := 3, 3 // installer defaults of compute and controlPlane replicas
	if c.computeReplicas != nil {
		workers = *c.computeReplicas
	}
	if c.controlPlaneReplicas != nil {
		masters = *c.controlPlaneReplicas
	}
	rest := map[string]string{}
	for k, v := range sel {
		if k != platform.OSLabel {
			rest[k] = v
		}
	}
	switch {
	case len(rest) == 1 && ingHasKey(rest, platform.WorkerRoleLabel) && rest[platform.WorkerRoleLabel] == "":
		if workers == 0 {
			return masters, "install-config: no compute replicas, so the masters are the workers", true
		}
		return workers, "install-config compute replicas", true
	case len(rest) == 1 && ingHasKey(rest, platform.MasterRoleLabel) && rest[platform.MasterRoleLabel] == "":
		return masters, "install-config controlPlane replicas", true
	}
	return 0, "", false
}

func ingHasKey(m map[string]string, k string) bool {
	_, ok := m[k]
	return ok
}

// defaultRouterReplicas is the operator's replica count for a controller
// without spec.replicas: 1 on a single-node cluster, else 2.
func (c plainCluster) defaultRouterReplicas() int {
	if c.controlPlaneReplicas != nil && *c.controlPlaneReplicas == 1 && c.computeReplicas != nil && *c.computeReplicas == 0 {
		return 1
	}
	if len(c.nodes) == 1 {
		return 1
	}
	return 2
}

func checkRouterPorts(set lint.Set, r *lint.Reporter) {
	if set.Site != nil {
		return // render refuses colliding routers
	}
	facts := plainClusterOf(set)
	ics := ingControllers(set)
	if def := ingDefaultController(ics, facts); def != nil && def.implicit {
		ics = append([]*ingController{def}, ics...)
	}
	type hn struct {
		c   *ingController
		sel map[string]string
	}
	var routers []hn
	for _, c := range ics {
		if !c.hostNetwork(facts.platform) {
			continue
		}
		if msg := c.ports().NotUnique(); msg != "" {
			c.report(r, facts, fmt.Sprintf("IngressController %s: %s: give HTTP, HTTPS and stats three different ports", c.name, msg),
				"spec", "endpointPublishingStrategy", "hostNetwork")
		}
		if sel, ok := c.nodeSelector(); ok {
			routers = append(routers, hn{c, sel})
		}
	}
	for j := 1; j < len(routers); j++ {
		for i := 0; i < j; i++ {
			a, b := routers[i], routers[j]
			shared, how := facts.shareNodes(a.sel, b.sel)
			if !shared {
				continue
			}
			clashes := routing.PortClashes(a.c.name, a.c.ports(), b.c.name, b.c.ports())
			if len(clashes) == 0 {
				continue
			}
			b.c.report(r, facts, fmt.Sprintf("HostNetwork routers %q and %q both run on %s and bind host port %s: the pods of %q never start there; "+
				"give it other ports (spec.endpointPublishingStrategy.hostNetwork) or other nodes",
				a.c.name, b.c.name, how, strings.Join(clashes, ", "), b.c.name), "spec", "endpointPublishingStrategy")
		}
	}
}

// shareNodes reports whether two router node selectors can put pods on the
// same node: a Node object of the set matches both, or (without Nodes) one
// selector is contained in the other.
func (c plainCluster) shareNodes(a, b map[string]string) (bool, string) {
	if len(c.nodes) > 0 {
		var both []string
		for _, n := range c.nodesMatching(a) {
			if manifests.SelectorMatches(&metav1.LabelSelector{MatchLabels: b}, n.labels) {
				both = append(both, n.name)
			}
		}
		return len(both) > 0, "nodes " + strings.Join(both, ", ")
	}
	sa, sb := &metav1.LabelSelector{MatchLabels: a}, &metav1.LabelSelector{MatchLabels: b}
	switch {
	case nodes.Covers(sa, sb):
		return true, "the nodes " + ingLabelsText(b) + " selects"
	case nodes.Covers(sb, sa):
		return true, "the nodes " + ingLabelsText(a) + " selects"
	}
	return false, ""
}

func checkDefaultRouterVIP(set lint.Set, r *lint.Reporter) {
	if set.Site != nil {
		s := set.Site.Site
		routers, err := routing.Routers(s)
		if err != nil || len(routers) == 0 || routers[0].Pinned {
			return // render judges a placement the site sets
		}
		for _, name := range routers[0].Pools {
			if msg := routing.VIPSubnetProblem(s, name); msg != "" {
				r.At(s.Name, s.Positions.Of(site.Field("pools", name)), msg+
					" (the operator's default placement: the worker-labelled pools); place the default router on pools in the VIP's subnet with ingress.default.pools")
			}
		}
		return
	}
	facts := plainClusterOf(set)
	if facts.installConfig == nil || !platform.KeepalivedPlatform(facts.platform) || len(facts.ingressVIPs) == 0 {
		return
	}
	def := ingDefaultController(ingControllers(set), facts)
	sel, ok := def.nodeSelector()
	if !ok {
		return
	}
	if ingHasKey(sel, platform.RemoteWorkerLabel) {
		def.report(r, facts, fmt.Sprintf("the default router's node selector %s selects the remote workers (%s): the ingress VIP %s follows the default router's pods "+
			"and cannot reach nodes outside its subnet; select nodes in the VIP's subnet (the masters)",
			ingLabelsText(sel), platform.RemoteWorkerLabel, strings.Join(facts.ingressVIPs, ", ")), "spec", "nodePlacement", "nodeSelector")
		return
	}
	// The VIP's subnet is the machine network holding it; a node is in
	// it when its address is, or its primary subnet holds the VIP.
	vipNets := nodes.Containing(nodes.ParseCIDRs(facts.machineNetworks), facts.ingressVIPs...)
	var off []string
	for _, n := range facts.nodesMatching(sel) {
		if ingHasKey(n.labels, platform.RemoteWorkerLabel) {
			continue // CIO's node affinity keeps the router off detected remote workers
		}
		switch {
		case len(n.addrs) == 0 && len(n.primary) == 0,
			len(vipNets) == 0 && len(n.primary) == 0,
			len(nodes.Containing(vipNets, n.addrs...)) > 0,
			ingAnyHolds(n.primary, facts.ingressVIPs):
			continue // in the VIP's subnet, or unknown
		}
		off = append(off, fmt.Sprintf("%s (%s)", n.name, strings.Join(n.addrs, ", ")))
	}
	if len(off) == 0 {
		return
	}
	sort.Strings(off)
	def.report(r, facts, fmt.Sprintf("the default router's node selector %s matches nodes outside the ingress VIP %s's subnet: %s; the VIP follows the "+
		"default router's pods and is unreachable there; select nodes in the VIP's subnet", ingLabelsText(sel), strings.Join(facts.ingressVIPs, ", "), strings.Join(off, ", ")),
		"spec", "nodePlacement", "nodeSelector")
}

func ingAnyHolds(subnets []*net.IPNet, ips []string) bool {
	return len(nodes.Containing(subnets, ips...)) > 0
}
