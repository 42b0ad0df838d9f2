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
// (no Go module here ships it). Source: operator-framework/api
// crds/operators.coreos.com_catalogsources.yaml (the same file OpenShift's OLM serves):
// namespaced, v1alpha1 served and stored, status subresource, metadata and spec required,
// spec.sourceType required, icon.base64data and icon.mediatype required. Descriptions are
// dropped, and the large grpcPodConfig subtree (affinity, tolerations, ...) is kept as an
// object whose fields are not checked: siteforge never renders it. Every other spec field is
// typed as upstream, so a misspelt or mistyped field is still pruned or rejected.
const catalogSourceCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: catalogsources.operators.coreos.com
spec:
  group: operators.coreos.com
  names:
    categories: [olm]
    kind: CatalogSource
    listKind: CatalogSourceList
    plural: catalogsources
    shortNames: [catsrc]
    singular: catalogsource
  scope: Namespaced
  versions:
  - name: v1alpha1
    served: true
    storage: true
    subresources:
      status: {}
    schema:
      openAPIV3Schema:
        type: object
        required: [metadata, spec]
        properties:
          apiVersion:
            type: string
          kind:
            type: string
          metadata:
            type: object
          spec:
            type: object
            required: [sourceType]
            properties:
              address:
                type: string
              configMap:
                type: string
              description:
                type: string
              displayName:
                type: string
              grpcPodConfig:
                type: object
                x-kubernetes-preserve-unknown-fields: true
              icon:
                type: object
                required: [base64data, mediatype]
                properties:
                  base64data:
                    type: string
                  mediatype:
                    type: string
              image:
                type: string
              priority:
                type: integer
              publisher:
                type: string
              secrets:
                type: array
                items:
                  type: string
              sourceType:
                type: string
              updateStrategy:
                type: object
                properties:
                  registryPoll:
                    type: object
                    properties:
                      interval:
                        type: string
          status:
            type: object
            x-kubernetes-preserve-unknown-fields: true
`
