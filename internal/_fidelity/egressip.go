package fidelity

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// EgressIP (k8s.ovn.org/v1) has no Go module among siteforge's dependencies, so the type and the
// CRD are copied here.
//
// Type: ovn-org/ovn-kubernetes go-controller/pkg/crd/egressip/v1/types.go (EgressIP,
// EgressIPSpec, EgressIPStatus, EgressIPStatusItem), field names and JSON tags unchanged.
//
// CRD: the one OpenShift installs, openshift/cluster-network-operator
// bindata/network/ovn-kubernetes/common/001-crd.yaml (egressips.k8s.ovn.org): cluster-scoped, no
// status subresource, spec.egressIPs and spec.namespaceSelector required, no CEL rules.
// Descriptions are dropped; everything that validates is kept. Newer upstream OVN-K adds
// spec.trafficSelector and CEL rules on label keys; OpenShift's CRD does not have them yet, so
// trafficSelector is (correctly) reported as pruned.

var egressIPGVK = schema.GroupVersionKind{Group: "k8s.ovn.org", Version: "v1", Kind: "EgressIP"}

type egressIP struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec egressIPSpec `json:"spec"`
	// Status is a pointer here (upstream: a struct) so that a marshalled object omits it: the CRD
	// requires status.items, so the upstream zero value "status: {items: null}" is rejected.
	Status *egressIPStatus `json:"status,omitempty"`
}

type egressIPSpec struct {
	EgressIPs         []string             `json:"egressIPs"`
	NamespaceSelector metav1.LabelSelector `json:"namespaceSelector"`
	PodSelector       metav1.LabelSelector `json:"podSelector,omitempty"`
}

type egressIPStatus struct {
	Items []egressIPStatusItem `json:"items"`
}

type egressIPStatusItem struct {
	Node     string `json:"node"`
	EgressIP string `json:"egressIP"`
}

// egressIPMarkAnnotation may not be set on create: CNO's ValidatingAdmissionPolicy
// egressip-create-validation (bindata/network/ovn-kubernetes/common/egressip-admission-policy.yaml).
const egressIPMarkAnnotation = "k8s.ovn.org/egressip-mark"

func checkEgressIPCreate(obj map[string]any) []Problem {
	meta, _ := obj["metadata"].(map[string]any)
	ann, _ := meta["annotations"].(map[string]any)
	if _, ok := ann[egressIPMarkAnnotation]; ok {
		return []Problem{{StageKindRule, "metadata.annotations[" + egressIPMarkAnnotation + "]",
			"EgressIP resources cannot be created with this annotation: it is managed by the system (CNO admission policy egressip-create-validation)"}}
	}
	return nil
}

// egressIPCRD is the EgressIP CRD OpenShift installs (see the package
// comment above for its source), written down in crds/written/.
var egressIPCRD = mustReadCRD("crds/written/egressips.k8s.ovn.org.yaml")
