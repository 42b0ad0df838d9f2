package manifests

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/siteforge/siteforge/internal/platform"
)

// PlatformWritten reports whether a platform operator wrote o itself, and
// says which: a MachineConfig the Machine Config Operator generated (its
// rendered and base configs: platform.MCOGeneratedAnnotation, or a
// controller owner that is a MachineConfigPool or MCO's ControllerConfig),
// or the default IngressController the ingress operator creates
// (cluster-ingress-operator pkg/operator/controller/ingress
// ensureDefaultIngressController). A running cluster's state holds them
// beside what its users wrote.
func PlatformWritten(o *Object) (by string, ok bool) {
	switch {
	case o.Kind == "IngressController" && o.APIVersion == GroupOperatorV1 &&
		o.Namespace == platform.IngressOperatorNamespace && o.Name == platform.IngressDefaultControllerName:
		return "the ingress operator", true
	case o.Kind != "MachineConfig" || o.APIVersion != GroupMachineConfigV1:
		return "", false
	}
	var m struct {
		Metadata metav1.ObjectMeta `json:"metadata"`
	}
	if o.DecodeLoose(&m) != nil {
		return "", false
	}
	if _, ok := m.Metadata.Annotations[platform.MCOGeneratedAnnotation]; ok {
		return "the Machine Config Operator", true
	}
	for _, ref := range m.Metadata.OwnerReferences {
		if ref.Controller != nil && *ref.Controller && ref.APIVersion == GroupMachineConfigV1 &&
			(ref.Kind == "MachineConfigPool" || ref.Kind == "ControllerConfig") {
			return "the Machine Config Operator", true
		}
	}
	return "", false
}
