package manifests

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/siteforge/siteforge/internal/platform"
)

// MarkPlatformWritten sets Object.WrittenBy on the objects of a running
// cluster's state: the reader of a state (internal/discover) calls it once,
// and what reads the objects tests the field instead of decoding them again.
func MarkPlatformWritten(objs []*Object) {
	for _, o := range objs {
		o.WrittenBy = platformWriter(o)
	}
}

// platformWriter is the platform operator that wrote o itself, "" when
// none: a MachineConfig the Machine Config Operator generated (its
// rendered and base configs: platform.MCOGeneratedAnnotation, or a
// controller owner that is a MachineConfigPool or MCO's ControllerConfig).
// A running cluster's state holds them beside what its users wrote. The
// default IngressController is not one: the ingress operator creates it
// only when it is missing (cluster-ingress-operator pkg/operator/operator.go
// ensureDefaultIngressController), and its spec is the users' to edit
// (routeSelector, replicas, nodePlacement: openshift/enhancements
// enhancements/ingress/default-ingress-controller.md); the ING rules read it
// as the default router it is.
func platformWriter(o *Object) string {
	if o.Kind != "MachineConfig" || o.APIVersion != GroupMachineConfigV1 {
		return ""
	}
	var m struct {
		Metadata metav1.ObjectMeta `json:"metadata"`
	}
	if o.DecodeLoose(&m) != nil {
		return ""
	}
	if _, ok := m.Metadata.Annotations[platform.MCOGeneratedAnnotation]; ok {
		return "the Machine Config Operator"
	}
	for _, ref := range m.Metadata.OwnerReferences {
		if ref.Controller != nil && *ref.Controller && ref.APIVersion == GroupMachineConfigV1 &&
			(ref.Kind == "MachineConfigPool" || ref.Kind == "ControllerConfig") {
			return "the Machine Config Operator"
		}
	}
	return ""
}
