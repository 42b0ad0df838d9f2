package ingress

import (
	"bytes"
	"fmt"
	"strings"

	operatorv1 "github.com/openshift/api/operator/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/internal/cluster/nodes"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/site"
)

// The default IngressController is a File, not a Resource. The operator
// creates and owns it (it recreates it when missing) and admins tune it
// (certificates, tuning options); as a Resource in the kustomization it would
// be owned by the pipeline, and a pruning sync would delete it, taking the
// console and oauth routes down, the day the site stops needing a change.
// The file holds a complete, minimal object (apiVersion, kind, metadata and
// only the spec fields siteforge decides), so the same file is:
//   - at install, the manifest the docs put in <install dir>/manifests/
//     (cluster-ingress-default-ingresscontroller.yaml): the operator then
//     adopts that object instead of creating its own;
//   - on a running cluster, a JSON merge patch (oc patch --type=merge
//     --patch-file): it sets these fields and leaves the rest alone. Lists
//     and selectors it sets replace the controller's current ones.

// DefaultPlan is what siteforge decides about the default controller.
type DefaultPlan struct {
	Placement Placement
	// Pinned: emit nodePlacement (ingress.default.pools, or the masters for
	// the manual remote-worker method).
	Pinned   bool
	Why      string
	Replicas *int32
	// Route and Namespace are the exclusions of the shards in excluded.
	Route, Namespace *metav1.LabelSelector
	Excluded         []string
	Origin           []diag.Position
	Minor            platform.OCPMinor
	Lifecycle        string
}

// PlanDefault places the default router: where the site says, else on the
// masters when the manual remote-worker method applies, else where the
// operator puts it. On keepalived platforms its nodes must be able to hold
// the ingress VIP.
func PlanDefault(s *site.Site, m *Model, in *site.Ingress, pinMasters bool) (DefaultPlan, diag.List) {
	plan := DefaultPlan{Minor: m.Minor, Lifecycle: s.Cluster.Lifecycle}
	var diags diag.List
	var poolPaths map[string]string
	switch {
	case in.Default != nil && len(in.Default.Pools) > 0:
		path := "ingress.default.pools"
		p, d := m.ByPools(platform.IngressDefaultControllerName, in.Default.Pools, path)
		if d != nil {
			return plan, diag.List{*d}
		}
		plan.Placement, plan.Pinned = p, true
		plan.Why = "ingress.default.pools"
		plan.Origin = append(plan.Origin, s.Positions.Of(path))
		poolPaths = map[string]string{}
		for i, name := range in.Default.Pools {
			poolPaths[name] = site.Index(path, i)
		}
	case pinMasters:
		var masters []string
		for _, name := range s.PoolNames() {
			if s.Pools[name].Role == site.RoleMaster {
				masters = append(masters, name)
			}
		}
		p, d := m.ByPools(platform.IngressDefaultControllerName, masters, "cluster.version")
		if d != nil {
			return plan, diag.List{*d}
		}
		plan.Placement, plan.Pinned = p, true
		plan.Why = fmt.Sprintf("the manual remote-worker method (OpenShift %s does not handle remote pools %s itself)",
			m.Minor, strings.Join(nodes.KeepalivedFixPools(s, m.Minor), ", "))
		plan.Origin = append(plan.Origin, s.Positions.Of("cluster.version"))
	default:
		plan.Placement = m.OperatorDefault()
	}

	if plan.Pinned && len(plan.Placement.Pools) == 0 {
		path := "ingress.default.pools"
		if poolPaths == nil {
			path = "cluster.version"
		}
		return plan, diag.List{{Pos: s.Positions.Of(path), Path: path,
			Message: fmt.Sprintf("no node can run the default router: the operator keeps routers off the remote workers it detects (%s; pools %s)",
				platform.RemoteWorkerLabel, strings.Join(plan.Placement.ExcludedRemote, ", ")),
			Hint: "run the default router on pools in the VIPs' subnet"}}
	}
	if nodes.RunsKeepalived(s) && len(s.Network.IngressVIPs) > 0 {
		for _, name := range plan.Placement.Pools {
			pool := s.Pools[name]
			path, ok := poolPaths[name]
			if !ok {
				path = site.Field("pools", name, "placement")
			}
			switch {
			case nodes.IsRemote(pool):
				diags = append(diags, diag.Diagnostic{Pos: s.Positions.Of(path), Path: path,
					Message: fmt.Sprintf("the default router would run on remote pool %q: the ingress VIP follows the default router's pods and can only sit on nodes in its own L2 subnet", name),
					Hint:    `run the default router on pools in the VIPs' subnet (ingress.default.pools: ["master"])`})
			case plan.Pinned && VIPSubnetProblem(s, name) != "":
				// Only where the site places the router: the operator's
				// default placement is the operator's, not the site's,
				// choice, and lint rule ING008 reports it.
				diags = append(diags, diag.Diagnostic{Pos: s.Positions.Of(path), Path: path,
					Message: VIPSubnetProblem(s, name),
					Hint:    "run the default router on pools in the VIPs' subnet"})
			}
		}
	}

	if in.Default != nil && in.Default.Replicas != nil {
		r := int32(*in.Default.Replicas)
		plan.Replicas = &r
		path := "ingress.default.replicas"
		plan.Origin = append(plan.Origin, s.Positions.Of(path))
		if !platform.IngressLoadBalancerPlatform(s.Cluster.Platform) && plan.Placement.Nodes >= 0 && int(r) > plan.Placement.Nodes {
			diags = append(diags, diag.Diagnostic{Pos: s.Positions.Of(path), Path: path,
				Message: fmt.Sprintf("%d HostNetwork router replicas need %d nodes, but the default router can run on %d (%s)",
					r, r, plan.Placement.Nodes, PoolsSummary(s, plan.Placement.Pools)),
				Hint: fmt.Sprintf("set replicas to %d or less", plan.Placement.Nodes)})
		}
	}
	return plan, diags
}

func anyContained(cidrs, ips []string) bool {
	for _, ip := range ips {
		if subnetContains(cidrs, ip) {
			return true
		}
	}
	return false
}

// object is the default controller with the fields siteforge decides.
func (d DefaultPlan) object() *operatorv1.IngressController {
	ic := &operatorv1.IngressController{
		TypeMeta:   metav1.TypeMeta{APIVersion: operatorv1.GroupVersion.String(), Kind: "IngressController"},
		ObjectMeta: metav1.ObjectMeta{Name: platform.IngressDefaultControllerName, Namespace: platform.IngressOperatorNamespace},
		Spec: operatorv1.IngressControllerSpec{
			Replicas:          d.Replicas,
			RouteSelector:     d.Route,
			NamespaceSelector: d.Namespace,
		},
	}
	if d.Pinned {
		ic.Spec.NodePlacement = &operatorv1.NodePlacement{NodeSelector: d.Placement.Selector, Tolerations: d.Placement.Tolerations}
	}
	return ic
}

// file renders the default controller's file, or nil when siteforge decides
// nothing about it.
func (d DefaultPlan) file(s *site.Site) ([]byte, error) {
	if !d.Pinned && d.Replicas == nil && d.Route == nil && d.Namespace == nil {
		return nil, nil
	}
	obj, err := generators.EncodeObject(generators.MustCleanMap(d.object()), s.Source)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	writeLines(&b, "The default IngressController: only the fields siteforge decides.")
	if d.Pinned {
		writeLines(&b, fmt.Sprintf("- nodePlacement: %s (%s).", PoolsSummary(s, d.Placement.Pools), d.Why))
	}
	if d.Replicas != nil {
		writeLines(&b, "- replicas: ingress.default.replicas.")
	}
	if len(d.Excluded) > 0 {
		writeLines(&b, fmt.Sprintf("- routeSelector/namespaceSelector: skip the routes of shards %s; routes and", strings.Join(d.Excluded, ", ")),
			"  namespaces without those labels (the console, oauth and canary routes among them) stay here.")
	}
	writeLines(&b, "")
	if d.Lifecycle == "install" {
		writeLines(&b, "Install: after `openshift-install create manifests`, copy this file to",
			"  <installation directory>/manifests/"+defaultManifestName,
			"Running cluster (a JSON merge patch: the selectors here replace the controller's):")
	} else {
		writeLines(&b, "Apply (a JSON merge patch: the selectors here replace the controller's):")
	}
	writeLines(&b, fmt.Sprintf("  oc patch ingresscontroller/%s -n %s --type=merge --patch-file=%s", platform.IngressDefaultControllerName, platform.IngressOperatorNamespace, defaultPath))
	b.Write(obj)
	return b.Bytes(), nil
}
