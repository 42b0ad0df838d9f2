package fidelity

import (
	"k8s.io/apimachinery/pkg/runtime/schema"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// CatalogSource (operators.coreos.com/v1alpha1) has no Go module here: a
// typed struct with the spec fields of operator-framework/api
// pkg/operators/v1alpha1/catalogsource_types.go, and its CRD written down.
var catalogSourceGVK = schema.GroupVersionKind{Group: "operators.coreos.com", Version: "v1alpha1", Kind: "CatalogSource"}

type catalogSource struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata"`
	Spec              catalogSourceSpec `json:"spec"`
	Status            map[string]any    `json:"status,omitempty"`
}

type catalogSourceSpec struct {
	SourceType     string          `json:"sourceType"`
	Priority       int             `json:"priority,omitempty"`
	ConfigMap      string          `json:"configMap,omitempty"`
	Address        string          `json:"address,omitempty"`
	Image          string          `json:"image,omitempty"`
	GrpcPodConfig  map[string]any  `json:"grpcPodConfig,omitempty"`
	UpdateStrategy *updateStrategy `json:"updateStrategy,omitempty"`
	Secrets        []string        `json:"secrets,omitempty"`
	DisplayName    string          `json:"displayName,omitempty"`
	Description    string          `json:"description,omitempty"`
	Publisher      string          `json:"publisher,omitempty"`
	Icon           *catalogIcon    `json:"icon,omitempty"`
}

type updateStrategy struct {
	RegistryPoll *struct {
		Interval string `json:"interval,omitempty"`
	} `json:"registryPoll,omitempty"`
}

type catalogIcon struct {
	Data      string `json:"base64data"`
	MediaType string `json:"mediatype"`
}

// catalogSourceCRD is the CatalogSource CRD OLM installs, written down for the fidelity checks
// (crds/written/catalogsources.operators.coreos.com.yaml)
// (no Go module here ships it). Source: operator-framework/api
// crds/operators.coreos.com_catalogsources.yaml (the same file OpenShift's OLM serves):
// namespaced, v1alpha1 served and stored, status subresource, metadata and spec required,
// spec.sourceType required, icon.base64data and icon.mediatype required. Descriptions are
// dropped, and the large grpcPodConfig subtree (affinity, tolerations, ...) is kept as an
// object whose fields are not checked: siteforge never renders it. Every other spec field is
// typed as upstream, so a misspelt or mistyped field is still pruned or rejected.
var catalogSourceCRD = mustReadCRD("crds/written/catalogsources.operators.coreos.com.yaml")
