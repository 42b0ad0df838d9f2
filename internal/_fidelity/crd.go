package fidelity

import (
	"context"
	"fmt"

	"k8s.io/apiextensions-apiserver/pkg/apihelpers"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	crdvalidation "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apimachinery/pkg/runtime/schema"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"sigs.k8s.io/yaml"
)

// compiledCRD is everything the API server builds from a CRD to serve one version of it
// (apiextensions-apiserver customresource_handler.go getOrCreateServingInfoFor).
type compiledCRD struct {
	namespaced bool
	// statusSubresource: the server resets status on create.
	statusSubresource bool
	// structural drives pruning, defaulting, list-type and CEL validation; defaults are pruned
	// the way the handler does it.
	structural *structuralschema.Structural
	validator  validation.SchemaValidator
	// cel is nil when the schema has no x-kubernetes-validations rules.
	cel *cel.Validator
}

func compileCRD(gvk schema.GroupVersionKind, crdYAML []byte) (*compiledCRD, error) {
	crd := &apiextensionsv1.CustomResourceDefinition{}
	if err := yaml.UnmarshalStrict(crdYAML, crd); err != nil {
		return nil, fmt.Errorf("decode CRD: %w", err)
	}
	if crd.Spec.Group != gvk.Group || crd.Spec.Names.Kind != gvk.Kind {
		return nil, fmt.Errorf("CRD %s defines %s/%s, not %s", crd.Name, crd.Spec.Group, crd.Spec.Names.Kind, gvkString(gvk))
	}
	served := false
	for _, v := range crd.Spec.Versions {
		if v.Name == gvk.Version {
			served = v.Served
		}
	}
	if !served {
		return nil, fmt.Errorf("CRD %s does not serve version %s", crd.Name, gvk.Version)
	}
	if err := validateCRD(crd); err != nil {
		return nil, err
	}

	val, err := apihelpers.GetSchemaForVersion(crd, gvk.Version)
	if err != nil {
		return nil, fmt.Errorf("CRD %s: %w", crd.Name, err)
	}
	if val == nil || val.OpenAPIV3Schema == nil {
		return nil, fmt.Errorf("CRD %s has no schema for %s", crd.Name, gvk.Version)
	}
	internal := &apiextensions.CustomResourceValidation{}
	if err := apiextensionsv1.Convert_v1_CustomResourceValidation_To_apiextensions_CustomResourceValidation(val, internal, nil); err != nil {
		return nil, fmt.Errorf("CRD %s: convert schema: %w", crd.Name, err)
	}
	s, err := structuralschema.NewStructural(internal.OpenAPIV3Schema)
	if err != nil {
		return nil, fmt.Errorf("CRD %s: schema is not structural: %w", crd.Name, err)
	}
	s = s.DeepCopy()
	if err := structuraldefaulting.PruneDefaults(s); err != nil {
		return nil, fmt.Errorf("CRD %s: prune defaults: %w", crd.Name, err)
	}
	validator, _, err := validation.NewSchemaValidator(internal.OpenAPIV3Schema)
	if err != nil {
		return nil, fmt.Errorf("CRD %s: schema validator: %w", crd.Name, err)
	}
	sub, err := apihelpers.GetSubresourcesForVersion(crd, gvk.Version)
	if err != nil {
		return nil, fmt.Errorf("CRD %s: %w", crd.Name, err)
	}
	return &compiledCRD{
		namespaced:        crd.Spec.Scope == apiextensionsv1.NamespaceScoped,
		statusSubresource: sub != nil && sub.Status != nil,
		structural:        s,
		validator:         validator,
		cel:               cel.NewValidator(s, true, celconfig.PerCallLimit),
	}, nil
}

// validateCRD runs the checks the API server runs when the CRD itself is created (structural
// schema, CEL rules compile and fit the cost budget, defaults valid, ...), so a hand-written or
// registered CRD cannot quietly validate nothing.
func validateCRD(crd *apiextensionsv1.CustomResourceDefinition) error {
	c := crd.DeepCopy()
	// The registry strategy sets storedVersions on create (PrepareForCreate).
	for _, v := range c.Spec.Versions {
		if v.Storage {
			c.Status.StoredVersions = []string{v.Name}
		}
	}
	internal := &apiextensions.CustomResourceDefinition{}
	if err := apiextensionsv1.Convert_v1_CustomResourceDefinition_To_apiextensions_CustomResourceDefinition(c, internal, nil); err != nil {
		return fmt.Errorf("CRD %s: convert: %w", crd.Name, err)
	}
	if errs := crdvalidation.ValidateCustomResourceDefinition(context.Background(), internal); len(errs) > 0 {
		return fmt.Errorf("CRD %s is invalid: %w", crd.Name, errs.ToAggregate())
	}
	return nil
}
