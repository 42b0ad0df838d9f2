package ingress

import (
	"bytes"
	"fmt"
	"strings"

	operatorv1 "github.com/openshift/api/operator/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/internal/cluster/routing"
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

// defaultObject is the default controller with the fields siteforge decides.
func defaultObject(d routing.DefaultPlan) *operatorv1.IngressController {
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

// defaultFile renders the default controller's file, or nil when siteforge decides
// nothing about it.
func defaultFile(d routing.DefaultPlan, s *site.Site) ([]byte, error) {
	if !d.Pinned && d.Replicas == nil && d.Route == nil && d.Namespace == nil {
		return nil, nil
	}
	obj, err := generators.EncodeObject(generators.MustCleanMap(defaultObject(d)), s.SourceName())
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	writeLines(&b, "The default IngressController: only the fields siteforge decides.")
	if d.Pinned {
		writeLines(&b, fmt.Sprintf("- nodePlacement: %s (%s).", routing.PoolsSummary(s, d.Placement.Pools), d.Why))
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
			"  <installation directory>/manifests/"+platform.IngressDefaultManifestName,
			"Running cluster (a JSON merge patch: the selectors here replace the controller's):")
	} else {
		writeLines(&b, "Apply (a JSON merge patch: the selectors here replace the controller's):")
	}
	writeLines(&b, fmt.Sprintf("  oc patch ingresscontroller/%s -n %s --type=merge --patch-file=%s", platform.IngressDefaultControllerName, platform.IngressOperatorNamespace, defaultPath))
	b.Write(obj)
	return b.Bytes(), nil
}
