package upstream

import (
	"encoding/json"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The ACM governance and placement objects: the fields siteforge writes
// (generators/acm) or reads of
//
//   - open-cluster-management-io/governance-policy-propagator api/v1
//     policy_types.go (Policy, PolicySpec, PolicyTemplate, PolicyDependency)
//     and placementbinding_types.go (PlacementBinding, PlacementSubject,
//     Subject);
//   - open-cluster-management-io/config-policy-controller api/v1
//     configurationpolicy_types.go (ConfigurationPolicy,
//     ConfigurationPolicySpec, ObjectTemplate, EvaluationInterval, Target);
//   - open-cluster-management-io/api cluster/v1beta1 types_placement.go
//     (Placement, PlacementSpec, ClusterPredicate, ClusterSelector,
//     Toleration) and cluster/v1beta2 types_managedclustersetbinding.go
//     (ManagedClusterSetBinding);
//   - open-cluster-management-io/policy-generator-plugin internal/plugin.go
//     (Plugin: the PolicyGenerator kustomize plugin's configuration) and
//     internal/types/types.go (PolicyDefaults, PolicyOptions,
//     ConfigurationPolicyOptions, PolicyConfig, Manifest, PlacementConfig,
//     PlacementBindingDefaults, Metadata).
//
// json tags exactly as there. None of these modules is a dependency (they
// pull in controller-runtime and more); tests decode every rendered object
// strictly into these types and validate it against the upstream CRD
// (internal/_fidelity).

// Policy is policy.open-cluster-management.io/v1 Policy (propagator api/v1
// policy_types.go).
type Policy struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata"`
	Spec              PolicySpec `json:"spec"`
}

// PolicySpec is the subset of PolicySpec siteforge sets or reads.
type PolicySpec struct {
	Disabled bool `json:"disabled"`
	// RemediationAction is "inform" or "enforce" (upstream enum
	// Inform;inform;Enforce;enforce); it overrides the templates'.
	RemediationAction string             `json:"remediationAction,omitempty"`
	PolicyTemplates   []*PolicyTemplate  `json:"policy-templates"`
	Dependencies      []PolicyDependency `json:"dependencies,omitempty"`
}

// PolicyTemplate is one policy engine object of a Policy (upstream
// objectDefinition is a runtime.RawExtension: any object, here its JSON).
type PolicyTemplate struct {
	ObjectDefinition  json.RawMessage    `json:"objectDefinition"`
	ExtraDependencies []PolicyDependency `json:"extraDependencies,omitempty"`
	IgnorePending     bool               `json:"ignorePending,omitempty"`
}

// PolicyDependency is a policy (or another object) that must reach a
// compliance state first. Upstream PolicyDependency inlines metav1.TypeMeta
// (apiVersion, kind); the PolicyGenerator's PolicyDependency
// (internal/types/types.go) has the same five fields with the same json
// names, so this one type serves both.
type PolicyDependency struct {
	APIVersion string `json:"apiVersion,omitempty"`
	Compliance string `json:"compliance,omitempty"`
	Kind       string `json:"kind,omitempty"`
	Name       string `json:"name"`
	Namespace  string `json:"namespace,omitempty"`
}

// ConfigurationPolicy is policy.open-cluster-management.io/v1
// ConfigurationPolicy (config-policy-controller api/v1
// configurationpolicy_types.go), as a policy template.
type ConfigurationPolicy struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              ConfigurationPolicySpec `json:"spec"`
}

// ConfigurationPolicySpec is the subset of ConfigurationPolicySpec
// siteforge sets or reads. Upstream's EvaluationInterval and
// NamespaceSelector are structs; pointers here leave them out when unset.
type ConfigurationPolicySpec struct {
	Severity           string              `json:"severity,omitempty"`
	RemediationAction  string              `json:"remediationAction"`
	EvaluationInterval *EvaluationInterval `json:"evaluationInterval,omitempty"`
	NamespaceSelector  *Target             `json:"namespaceSelector,omitempty"`
	ObjectTemplates    []*ObjectTemplate   `json:"object-templates,omitempty"`
	ObjectTemplatesRaw string              `json:"object-templates-raw,omitempty"`
}

// EvaluationInterval is how often a compliant and a non-compliant policy
// is evaluated ("10m", "10s", "watch", "never"); the PolicyGenerator's
// EvaluationInterval has the same fields.
type EvaluationInterval struct {
	Compliant    string `json:"compliant,omitempty"`
	NonCompliant string `json:"noncompliant,omitempty"`
}

// Target is the namespaces a namespaced object template applies to
// (upstream Target, without its inlined label selector); the
// PolicyGenerator's NamespaceSelector has the same fields.
type Target struct {
	Include []string `json:"include,omitempty"`
	Exclude []string `json:"exclude,omitempty"`
}

// ObjectTemplate is one object a ConfigurationPolicy checks or creates.
type ObjectTemplate struct {
	// ComplianceType is "musthave", "mustonlyhave" or "mustnothave".
	ComplianceType   string          `json:"complianceType"`
	ObjectDefinition json.RawMessage `json:"objectDefinition"`
}

// PlacementBinding is policy.open-cluster-management.io/v1
// PlacementBinding (propagator api/v1 placementbinding_types.go).
type PlacementBinding struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	// PlacementRef is upstream PlacementSubject, the same three fields as
	// Subject.
	PlacementRef Subject   `json:"placementRef"`
	Subjects     []Subject `json:"subjects"`
}

// Subject names a Policy or PolicySet (or, as placementRef, a Placement).
type Subject struct {
	APIGroup string `json:"apiGroup"`
	Kind     string `json:"kind"`
	Name     string `json:"name"`
}

// Placement is cluster.open-cluster-management.io/v1beta1 Placement (api
// cluster/v1beta1 types_placement.go).
type Placement struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              PlacementSpec `json:"spec"`
}

// PlacementSpec is the subset of PlacementSpec siteforge sets or reads.
type PlacementSpec struct {
	ClusterSets []string           `json:"clusterSets,omitempty"`
	Predicates  []ClusterPredicate `json:"predicates,omitempty"`
	Tolerations []Toleration       `json:"tolerations,omitempty"`
}

// ClusterPredicate selects clusters.
type ClusterPredicate struct {
	RequiredClusterSelector ClusterSelector `json:"requiredClusterSelector,omitempty"`
}

// ClusterSelector is the label selector of a predicate (upstream also has
// claim and CEL selectors).
type ClusterSelector struct {
	LabelSelector metav1.LabelSelector `json:"labelSelector,omitempty"`
}

// Toleration tolerates a ManagedCluster taint.
type Toleration struct {
	Key      string `json:"key,omitempty"`
	Operator string `json:"operator,omitempty"`
	Value    string `json:"value,omitempty"`
	Effect   string `json:"effect,omitempty"`
}

// ManagedClusterSetBinding is cluster.open-cluster-management.io/v1beta2
// ManagedClusterSetBinding (api cluster/v1beta2
// types_managedclustersetbinding.go): it lets the Placements of its
// namespace select the clusters of a ManagedClusterSet.
type ManagedClusterSetBinding struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              ManagedClusterSetBindingSpec `json:"spec"`
}

// ManagedClusterSetBindingSpec names the ManagedClusterSet.
type ManagedClusterSetBindingSpec struct {
	ClusterSet string `json:"clusterSet"`
}

// PolicyGenerator is the configuration of the PolicyGenerator kustomize
// plugin (policy.open-cluster-management.io/v1 PolicyGenerator;
// policy-generator-plugin internal/plugin.go Plugin).
type PolicyGenerator struct {
	APIVersion               string                   `json:"apiVersion,omitempty"`
	Kind                     string                   `json:"kind,omitempty"`
	Metadata                 GeneratorMetadata        `json:"metadata"`
	PlacementBindingDefaults PlacementBindingDefaults `json:"placementBindingDefaults"`
	PolicyDefaults           PolicyDefaults           `json:"policyDefaults"`
	Policies                 []PolicyConfig           `json:"policies"`
}

// GeneratorMetadata is the generator's metadata (types.go Metadata).
type GeneratorMetadata struct {
	Name string `json:"name,omitempty"`
}

// PlacementBindingDefaults names the PlacementBinding of several policies.
type PlacementBindingDefaults struct {
	Name string `json:"name,omitempty"`
}

// PolicyDefaults is the subset of PolicyDefaults (PolicyOptions and
// ConfigurationPolicyOptions inlined, and the namespace) siteforge writes.
type PolicyDefaults struct {
	GeneratorPolicyOptions `json:",inline"`
	GeneratorConfigOptions `json:",inline"`
	Namespace              string `json:"namespace,omitempty"`
}

// GeneratorPolicyOptions is the subset of types.go PolicyOptions
// siteforge writes.
type GeneratorPolicyOptions struct {
	Dependencies      []PolicyDependency `json:"dependencies,omitempty"`
	Placement         *PlacementConfig   `json:"placement,omitempty"`
	PolicyAnnotations map[string]string  `json:"policyAnnotations,omitempty"`
}

// GeneratorConfigOptions is the subset of types.go
// ConfigurationPolicyOptions siteforge writes.
type GeneratorConfigOptions struct {
	RemediationAction  string              `json:"remediationAction,omitempty"`
	Severity           string              `json:"severity,omitempty"`
	ComplianceType     string              `json:"complianceType,omitempty"`
	EvaluationInterval *EvaluationInterval `json:"evaluationInterval,omitempty"`
	NamespaceSelector  *Target             `json:"namespaceSelector,omitempty"`
}

// PlacementConfig is how the generator places its policies: a label
// selector (upstream a map, here the key-value form the ZTP reference
// writes) and the name of the Placement it generates.
type PlacementConfig struct {
	LabelSelector map[string]string `json:"labelSelector,omitempty"`
	Name          string            `json:"name,omitempty"`
}

// PolicyConfig is one policy of a generator (types.go PolicyConfig).
type PolicyConfig struct {
	GeneratorPolicyOptions `json:",inline"`
	Name                   string     `json:"name,omitempty"`
	Manifests              []Manifest `json:"manifests,omitempty"`
}

// Manifest is a file of objects a policy holds (types.go Manifest).
type Manifest struct {
	Path string `json:"path,omitempty"`
}
