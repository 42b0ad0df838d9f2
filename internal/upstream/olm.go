package upstream

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// CatalogSource (operators.coreos.com/v1alpha1) has no Go module among
// siteforge's dependencies: this is the part of it siteforge writes and
// reads. Field names and JSON tags are those of operator-framework/api
// pkg/operators/v1alpha1/catalogsource_types.go (CatalogSource,
// CatalogSourceSpec, CatalogSourceStatus, GRPCConnectionState). Upstream's
// Icon and Status are left out on purpose (non-pointer structs there,
// always encoded, and the CRD requires icon.base64data and icon.mediatype;
// the cluster writes the status): CatalogSourceStatus is the status a
// cluster's CatalogSource carries.
type CatalogSource struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata"`

	Spec CatalogSourceSpec `json:"spec"`
}

// CatalogSourceSpec is what a CatalogSource serves.
type CatalogSourceSpec struct {
	SourceType  string `json:"sourceType"`
	Image       string `json:"image,omitempty"`
	DisplayName string `json:"displayName,omitempty"`
	Publisher   string `json:"publisher,omitempty"`
}

// CatalogSourceStatus is what OLM observes of the catalog's registry pod.
type CatalogSourceStatus struct {
	Message             string               `json:"message,omitempty"`
	Reason              string               `json:"reason,omitempty"`
	GRPCConnectionState *GRPCConnectionState `json:"connectionState,omitempty"`
}

// GRPCConnectionState is OLM's last view of the catalog's gRPC connection
// (lastObservedState: READY, CONNECTING, TRANSIENT_FAILURE, ...).
type GRPCConnectionState struct {
	Address           string      `json:"address,omitempty"`
	LastObservedState string      `json:"lastObservedState"`
	LastConnectTime   metav1.Time `json:"lastConnect,omitempty"`
}
