package fidelity

import (
	"encoding/base64"
	"fmt"
	"sort"

	corev1 "k8s.io/api/core/v1"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/validation"
)

// coreKinds are the k8s.io/api kinds generators emit next to the OpenShift ones. They have no
// CRD: Check strictly decodes them, applies the ObjectMeta rules and the rules below, which
// mirror kubernetes pkg/apis/core/validation (ValidateConfigMap, ValidateNamespace).
func coreKinds() []*kind {
	return []*kind{
		{
			gvk:        corev1.SchemeGroupVersion.WithKind("ConfigMap"),
			newObj:     func() any { return &corev1.ConfigMap{} },
			namespaced: true,
			nameRule:   apivalidation.NameIsDNSSubdomain,
			rules:      []kindRule{checkConfigMap},
		},
		{
			gvk:      corev1.SchemeGroupVersion.WithKind("Namespace"),
			newObj:   func() any { return &corev1.Namespace{} },
			nameRule: apivalidation.ValidateNamespaceName,
			rules:    []kindRule{checkNamespace},
		},
	}
}

// checkConfigMap: keys are valid ConfigMap keys, no key in both data and binaryData, and the
// total size stays under corev1.MaxSecretSize (ValidateConfigMap).
func checkConfigMap(obj map[string]any) []Problem {
	var ps []Problem
	total := 0
	seen := map[string]bool{}
	for _, field := range []string{"data", "binaryData"} {
		m, _ := obj[field].(map[string]any)
		for _, key := range sortedKeys(m) {
			p := fmt.Sprintf("%s[%s]", field, key)
			for _, msg := range validation.IsConfigMapKey(key) {
				ps = append(ps, Problem{StageKindRule, p, fmt.Sprintf("Invalid value: %q: %s", key, msg)})
			}
			if seen[key] {
				ps = append(ps, Problem{StageKindRule, p, fmt.Sprintf("Invalid value: %q: duplicate of key present in data", key)})
			}
			seen[key] = true
			if s, ok := m[key].(string); ok {
				total += len(s)
				if field == "binaryData" {
					if b, err := base64.StdEncoding.DecodeString(s); err == nil {
						total += len(b) - len(s) // the server counts decoded bytes
					}
				}
			}
		}
	}
	if total > corev1.MaxSecretSize {
		ps = append(ps, Problem{StageKindRule, "", fmt.Sprintf("Too long: must have at most %d bytes", corev1.MaxSecretSize)})
	}
	return ps
}

// checkNamespace: spec.finalizers are qualified names (ValidateNamespace).
func checkNamespace(obj map[string]any) []Problem {
	var ps []Problem
	spec, _ := obj["spec"].(map[string]any)
	fins, _ := spec["finalizers"].([]any)
	for i, f := range fins {
		s, _ := f.(string)
		for _, msg := range validation.IsQualifiedName(s) {
			ps = append(ps, Problem{StageKindRule, fmt.Sprintf("spec.finalizers[%d]", i), fmt.Sprintf("Invalid value: %q: %s", s, msg)})
		}
	}
	return ps
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
