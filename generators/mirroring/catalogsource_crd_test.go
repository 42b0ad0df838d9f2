package mirroring

import (
	"sync"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/siteforge/siteforge/internal/fidelity"
)

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

var registerCatalogSource = sync.OnceValue(func() error {
	return fidelity.Register(schema.GroupVersionKind{Group: "operators.coreos.com", Version: "v1alpha1", Kind: "CatalogSource"},
		func() any { return &catalogSource{} }, []byte(catalogSourceCRD))
})
