package fidelity

import (
	"context"
	"strconv"
	"strings"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	schemaobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
)

// validate runs the API server's create path for a custom resource on a copy of obj:
// decode-time coercion (unknown metadata fields, pruning, embedded ObjectMeta), the status
// subresource reset, defaulting, then the strategy's validation (ObjectMeta, OpenAPI schema,
// embedded resources, list types, CEL).
func (c *compiledCRD) validate(in map[string]any) []Problem {
	var ps []Problem
	obj := runtime.DeepCopyJSON(in)

	// Decoding (customresource_handler.go unstructuredSchemaCoercer.apply).
	objectMeta, foundMeta, metaUnknown, err := schemaobjectmeta.GetObjectMetaWithOptions(obj, schemaobjectmeta.ObjectMetaOptions{ReturnUnknownFieldPaths: true})
	if err != nil {
		return append(ps, Problem{StageMetadata, "metadata", err.Error()})
	}
	ps = append(ps, pruned(in, metaUnknown)...)
	ps = append(ps, pruned(in, pruning.PruneWithOptions(obj, c.structural, true, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true}))...)
	structuraldefaulting.PruneNonNullableNullsWithoutDefaults(obj, c.structural)
	if ferr, paths := schemaobjectmeta.CoerceWithOptions(nil, obj, c.structural, false, schemaobjectmeta.CoerceOptions{ReturnUnknownFieldPaths: true}); ferr != nil {
		ps = append(ps, fieldProblems(StageMetadata, field.ErrorList{ferr})...)
	} else {
		ps = append(ps, pruned(in, paths)...)
	}
	if foundMeta {
		if err := schemaobjectmeta.SetObjectMeta(obj, objectMeta); err != nil {
			ps = append(ps, Problem{StageMetadata, "metadata", err.Error()})
		}
	}

	// PrepareForCreate: with a status subresource, create drops status. Zero values are what
	// marshalling a Go type emits (status: {}, machineCount: 0), so only real content is reported.
	if st, ok := obj["status"]; ok && c.statusSubresource {
		if !isZeroJSON(st) {
			ps = append(ps, Problem{StagePrune, "status", "dropped on create: the kind has a status subresource, only its controller writes status"})
		}
		delete(obj, "status")
	}

	structuraldefaulting.Default(obj, c.structural)

	// Validation (strategy.go customResourceStrategy.Validate).
	u := &unstructured.Unstructured{Object: obj}
	metaErrs := apivalidation.ValidateObjectMetaAccessor(u, c.namespaced, apivalidation.NameIsDNSSubdomain, field.NewPath("metadata"))
	schemaErrs := validation.ValidateCustomResource(nil, obj, c.validator)
	schemaErrs = append(schemaErrs, schemaobjectmeta.Validate(nil, obj, c.structural, false)...)
	schemaErrs = append(schemaErrs, listtype.ValidateListSetsAndMaps(nil, c.structural, obj)...)
	ps = append(ps, fieldProblems(StageMetadata, metaErrs)...)
	ps = append(ps, fieldProblems(StageSchema, schemaErrs)...)
	if c.cel != nil {
		if blocking(append(metaErrs, schemaErrs...)) {
			ps = append(ps, Problem{StageCEL, "", "x-kubernetes-validations rules were not evaluated because the object failed schema validation; the API server skips them too"})
		} else {
			celErrs, _ := c.cel.Validate(context.Background(), nil, c.structural, obj, nil, celconfig.RuntimeCELCostBudget)
			ps = append(ps, fieldProblems(StageCEL, celErrs)...)
		}
	}
	return ps
}

// isZeroJSON reports a JSON value made only of nulls, zeros, empty strings, false and empty
// collections.
func isZeroJSON(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case bool:
		return !v
	case string:
		return v == ""
	case int64:
		return v == 0
	case float64:
		return v == 0
	case []any:
		return len(v) == 0
	case map[string]any:
		for _, x := range v {
			if !isZeroJSON(x) {
				return false
			}
		}
		return true
	}
	return false
}

// blocking mirrors strategy.go hasBlockingErr: after these the server does not run CEL rules.
func blocking(errs field.ErrorList) bool {
	for _, err := range errs {
		switch err.Type {
		case field.ErrorTypeNotSupported, field.ErrorTypeRequired, field.ErrorTypeTooLong, field.ErrorTypeTooMany, field.ErrorTypeTypeInvalid:
			return true
		}
	}
	return false
}

// pruned reports the fields the server drops. A dropped field holding only a zero value is
// not reported: reading the object back gives the same Go value, and it is what marshalling a Go
// type emits for a feature-gated field the installed CRD lacks (Scheduler
// spec.profileCustomizations: {dynamicResourceAllocation: ""}). A typo is still caught by the
// strict decode.
func pruned(obj map[string]any, paths []string) []Problem {
	ps := make([]Problem, 0, len(paths))
	for _, p := range paths {
		if v, ok := lookupPath(obj, p); ok && isZeroJSON(v) {
			continue
		}
		ps = append(ps, Problem{StagePrune, p, "unknown field: the API server silently drops it (pruning)"})
	}
	return ps
}

// lookupPath resolves a pruning path ("spec.list[2].field") in obj.
func lookupPath(obj map[string]any, p string) (any, bool) {
	var cur any = obj
	for _, seg := range strings.Split(p, ".") {
		name, rest, _ := strings.Cut(seg, "[")
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[name]; !ok {
			return nil, false
		}
		for rest != "" {
			idx, after, found := strings.Cut(rest, "]")
			if !found {
				return nil, false
			}
			i, err := strconv.Atoi(idx)
			l, ok := cur.([]any)
			if err != nil || !ok || i < 0 || i >= len(l) {
				return nil, false
			}
			cur = l[i]
			rest = strings.TrimPrefix(after, "[")
		}
	}
	return cur, true
}
