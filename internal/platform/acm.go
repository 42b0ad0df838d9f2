package platform

// ACM facts: the governance framework (Policy, ConfigurationPolicy,
// PlacementBinding), placement (Placement, ManagedClusterSetBinding), the
// PolicyGenerator kustomize plugin and the ZTP reference layout that day-2
// delivery through a hub follows (generators/acm).

// API versions and kinds of the objects a hub delivery writes.
const (
	ACMPolicyAPIVersion    = "policy.open-cluster-management.io/v1" // propagator api/v1 groupversion_info.go
	ACMPolicyGroup         = "policy.open-cluster-management.io"
	ACMPlacementAPIVersion = "cluster.open-cluster-management.io/v1beta1" // api cluster/v1beta1 types_placement.go
	ACMPlacementGroup      = "cluster.open-cluster-management.io"
	// ACMClusterSetBindingAPIVersion: the ManagedClusterSetBinding CRD
	// serves only v1beta2 (api cluster/v1beta2
	// 0000_01_clusters.open-cluster-management.io_managedclustersetbindings.crd.yaml).
	ACMClusterSetBindingAPIVersion = "cluster.open-cluster-management.io/v1beta2"
)

// ACMPolicyNameMax bounds len(namespace)+len(name) of a root Policy: the
// propagator replicates it into each cluster's namespace as
// <namespace>.<name>, a label value of at most 63 characters, and its
// webhook refuses more ("the combined length of the policy namespace and
// name cannot exceed 62 characters": governance-policy-propagator
// api/v1/policy_webhook.go validateName).
const ACMPolicyNameMax = 62

// ACMClusterNameLabel is the label the hub puts on every ManagedCluster
// with its name (api cluster/v1 types.go ClusterNameLabelKey): a
// Placement selects one cluster by it.
const ACMClusterNameLabel = "open-cluster-management.io/cluster-name"

// ACMPlacementTolerations are the taints a generated Placement tolerates,
// so a cluster that goes unreachable keeps its policies
// (policy-generator-plugin internal/plugin.go createPlacement).
var ACMPlacementTolerations = []string{
	"cluster.open-cluster-management.io/unavailable",
	"cluster.open-cluster-management.io/unreachable",
}

// The annotations the PolicyGenerator sets on every Policy when the
// configuration leaves them out (policy-generator-plugin internal/plugin.go
// defaults and createPolicy).
const (
	ACMAnnotationCategories  = "policy.open-cluster-management.io/categories"
	ACMAnnotationControls    = "policy.open-cluster-management.io/controls"
	ACMAnnotationStandards   = "policy.open-cluster-management.io/standards"
	ACMAnnotationDescription = "policy.open-cluster-management.io/description"
	ACMDefaultCategories     = "CM Configuration Management"
	ACMDefaultControls       = "CM-2 Baseline Configuration"
	ACMDefaultStandards      = "NIST SP 800-53"
	// ACMDefaultComplianceType: each object must exist with at least the
	// given fields.
	ACMDefaultComplianceType = "musthave"
	// ACMDependencyCompliant: a dependency is met when the policy it
	// names is Compliant (plugin applyDefaultDependencyFields).
	ACMDependencyCompliant = "Compliant"
)

// ZTPDeployWaveAnnotation orders policies: TALM remediates a cluster's
// policies in increasing wave (cnf-features-deploy ztp/source-crs, e.g.
// DefaultCatsrc.yaml and OperatorHub.yaml "1"; the example PolicyGenerators'
// policyAnnotations).
const ZTPDeployWaveAnnotation = "ran.openshift.io/ztp-deploy-wave"

// The ZTP reference layout (cnf-features-deploy release-4.20
// ztp/gitops-subscriptions/argocd/example/acmpolicygenerator): common,
// group and site policies in their own namespaces (ns.yaml), each
// namespace bound to the "global" ManagedClusterSet (ns.yaml), the common
// configuration at wave 1 (acm-common-ranGen.yaml), the group's at 10
// (acm-group-du-sno-ranGen.yaml) and the site's at 100
// (acm-example-sno-site.yaml), severity low, remediationAction inform,
// evaluated every 10m when compliant and 10s when not, in every namespace
// but kube-* (policyDefaults of each file).
const (
	ZTPCommonNamespace          = "ztp-common"
	ZTPGroupNamespace           = "ztp-group"
	ZTPSiteNamespace            = "ztp-site"
	ZTPClusterSet               = "global"
	ZTPCommonWave               = 1
	ZTPGroupWave                = 10
	ZTPSiteWave                 = 100
	ZTPSeverity                 = "low"
	ZTPRemediationAction        = "inform"
	ZTPEvaluateCompliant        = "10m"
	ZTPEvaluateNonCompliant     = "10s"
	ZTPNamespaceSelectorInclude = "*"
	ZTPNamespaceSelectorExclude = "kube-*"
)
