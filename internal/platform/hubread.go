package platform

// What a hub keeps for its managed clusters, as lint reads it: the ACM
// policy objects and the generators of the ZTP layout. Each fact names its
// upstream source.

// The API versions and kinds of the hub objects that deliver objects to
// managed clusters (open-cluster-management-io/api policy/v1 and
// cluster/v1beta1; the CRDs in ../shared/upstream/acm/crds).
const (
	PolicyAPIGroup           = "policy.open-cluster-management.io"  // Policy, ConfigurationPolicy, PlacementBinding, PolicyGenerator
	PlacementAPIGroup        = "cluster.open-cluster-management.io" // Placement (v1beta1), ManagedCluster (v1)
	PlacementRuleAPIGroup    = "apps.open-cluster-management.io"    // PlacementRule (v1, deprecated)
	PolicyGenTemplateVersion = "ran.openshift.io/v1"                // ZTP PolicyGenTemplate, SiteConfig (cnf-features-deploy ztp/ran-crd)
)

// PolicyGenTemplateSourceDir is where the ZTP policy generator reads a
// PolicyGenTemplate's spec.sourceFiles[].fileName: the source-crs folder of
// the folder it runs in (the kustomization's, where the PolicyGenTemplate
// is), else the source-crs folder built into the ztp-site-generate
// container next to its executable (openshift-kni/cnf-features-deploy
// release-4.20 ztp/policygenerator/utils/filesHandler.go ReadSourceCRFile,
// utils.go SourceCRsPath).
const PolicyGenTemplateSourceDir = "source-crs"

// PolicyGenTemplateMCP is the placeholder of a source CR that a
// PolicyGenTemplate's spec.mcp replaces wherever it occurs in the text
// (cnf-features-deploy ztp/policygenerator/policyGen/policyBuilder.go
// getCustomResource: strings.Replace(resourceStr, "$mcp", mcp, -1)).
const PolicyGenTemplateMCP = "$mcp"

// PolicyGenTemplatePlaceholderPrefix starts a value of a source CR that a
// PolicyGenTemplate leaves out unless it sets it: a string that is empty or
// starts with $, at a key the overlay does not set, is deleted
// (policyBuilder.go setValues).
const PolicyGenTemplatePlaceholderPrefix = "$"

// PolicyGenTemplateOverlays are the sections of a source CR that a
// PolicyGenTemplate source file's overlay of the same name merges into
// (policyBuilder.go getCustomResource: spec, data, status, binaryData,
// stringData; metadata name, namespace, labels and annotations apart).
var PolicyGenTemplateOverlays = []string{"spec", "data", "status", "binaryData", "stringData"}

// PolicyTemplateMarker starts a template in the object-templates of a
// ConfigurationPolicy: the config-policy-controller resolves `{{ ... }}` on
// the managed cluster and the governance-policy-propagator resolves
// `{{hub ... hub}}` on the hub before the policy is replicated
// (open-cluster-management-io/config-policy-controller pkg/templates, RHACM
// docs "Template processing"). What such an object says is known only then.
const PolicyTemplateMarker = "{{"

// ClusterSetLabel is the label a ManagedCluster carries naming its
// ManagedClusterSet; a Placement's spec.clusterSets select by it
// (open-cluster-management-io/api cluster/v1beta2
// types_managedclusterset.go ClusterSetLabel).
const ClusterSetLabel = "cluster.open-cluster-management.io/clusterset"
