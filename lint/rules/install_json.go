package rules

import (
	"encoding/json"
	"strconv"

	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/lint"
)

// A ClusterInstance's JSON-in-string fields as the siteconfig operator
// validates them (stolostron/siteconfig api/v1alpha1
// clusterinstance_validation.go validateClusterInstanceJSONFields, called
// by ValidateClusterInstance before any rendering). A site's ClusterInstance
// sets none of them.

func init() {
	lint.RegisterFamily("v1alpha1", nil, []*lint.Rule{
		{ID: "INS022", Name: "clusterinstance-json-invalid", Severity: lint.Error,
			Summary: "a ClusterInstance's installConfigOverrides, ignitionConfigOverride or a node's installerArgs or ignitionConfigOverride is not valid JSON",
			Rationale: "The siteconfig operator validates a ClusterInstance before it renders anything: installConfigOverrides, the cluster's and each node's " +
				"ignitionConfigOverride and each node's installerArgs must be empty or a valid JSON document (stolostron/siteconfig api/v1alpha1 " +
				"clusterinstance_validation.go validateClusterInstanceJSONFields and isValidJSON: encoding/json, tests in clusterinstance_validation_test.go " +
				"\"should fail for invalid InstallConfigOverrides JSON\", \"should return false for non-JSON characters\"). Otherwise the ClusterInstance " +
				"stays not provisioned (\"installConfigOverrides is not a valid JSON-formatted string\"). YAML flow syntax such as `{key: value}` is not JSON.",
			Fix:   "Write the value as JSON: keys and strings in double quotes, no trailing commas (`'{\"networking\":{\"networkType\":\"OVNKubernetes\"}}'`).",
			Check: checkClusterInstanceJSON},
	})
}

func checkClusterInstanceJSON(set lint.Set, r *lint.Reporter) {
	for _, ci := range manifests.ClusterInstances(plainInstallObjects(set)) {
		check := func(v, what string, path ...string) {
			if v == "" || json.Valid([]byte(v)) {
				return
			}
			r.Object(ci.Obj, what+" is not a valid JSON document: the siteconfig operator refuses the ClusterInstance", path...)
		}
		check(ci.Spec.InstallConfigOverrides, "installConfigOverrides", "spec", "installConfigOverrides")
		check(ci.Spec.IgnitionConfigOverride, "ignitionConfigOverride", "spec", "ignitionConfigOverride")
		for i, n := range ci.Spec.Nodes {
			idx := strconv.Itoa(i)
			check(n.InstallerArgs, "installerArgs of node "+n.HostName, "spec", "nodes", idx, "installerArgs")
			check(n.IgnitionConfigOverride, "ignitionConfigOverride of node "+n.HostName, "spec", "nodes", idx, "ignitionConfigOverride")
		}
	}
}
