package manifests

// The API versions siteforge reads objects of (manifests_test checks them
// against the openshift/api and operator-framework packages).
const (
	GroupConfig           = "config.openshift.io/v1"
	GroupOperatorV1       = "operator.openshift.io/v1"
	GroupOperatorV1Alpha1 = "operator.openshift.io/v1alpha1"
	GroupMachineConfigV1  = "machineconfiguration.openshift.io/v1"
	GroupOperatorsCoreOS  = "operators.coreos.com/v1alpha1" // CatalogSource: operator-framework/api pkg/operators/v1alpha1 (GroupName operators.coreos.com)
	GroupAgentInstall     = "agent-install.openshift.io/v1beta1"
)

// SourceAnnotation is the annotation siteforge puts on every object it
// renders: the input it came from (generators.SourceAnnotation).
const SourceAnnotation = "siteforge.dev/source"
