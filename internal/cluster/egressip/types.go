package egressip

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// EgressIP (k8s.ovn.org/v1, cluster-scoped) has no Go module among
// siteforge's dependencies. This is the part of it siteforge writes, field
// names and JSON tags as in ovn-org/ovn-kubernetes
// go-controller/pkg/crd/egressip/v1/types.go (EgressIP, EgressIPSpec,
// EgressIPStatus, EgressIPStatusItem). Two deliberate differences: the
// status is a pointer (siteforge never writes one: the cluster does, and a
// running cluster's state holds it), and PodSelector is a pointer, so an
// EgressIP without one omits the field instead of writing podSelector: {}
// (both select every pod).
type EgressIP struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   EgressIPSpec    `json:"spec"`
	Status *EgressIPStatus `json:"status,omitempty"`
}

// EgressIPStatus is where the cluster assigned the egress IPs: one item per
// address assigned (an address with no item is unassigned).
type EgressIPStatus struct {
	Items []EgressIPStatusItem `json:"items"`
}

// EgressIPStatusItem is one assigned address and the node holding it.
type EgressIPStatusItem struct {
	Node     string `json:"node"`
	EgressIP string `json:"egressIP"`
}

// EgressIPSpec is the desired state of an EgressIP.
type EgressIPSpec struct {
	// EgressIPs are the egress IP addresses, IPv4 and/or IPv6. Required.
	EgressIPs []string `json:"egressIPs"`
	// NamespaceSelector selects the namespaces whose pods use the IPs.
	// Required.
	NamespaceSelector metav1.LabelSelector `json:"namespaceSelector"`
	// PodSelector narrows the pods inside those namespaces (ANDed).
	PodSelector *metav1.LabelSelector `json:"podSelector,omitempty"`
}

// GroupVersion is EgressIP's API group and version.
var GroupVersion = schema.GroupVersion{Group: "k8s.ovn.org", Version: "v1"} // OVN-K go-controller/pkg/crd/egressip/v1/register.go
