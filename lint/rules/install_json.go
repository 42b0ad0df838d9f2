package rules

import (
	"strconv"

	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/ruleid"
	"github.com/siteforge/siteforge/lint"
)

// A ClusterInstance's JSON-in-string fields as the siteconfig operator
// validates them (stolostron/siteconfig api/v1alpha1
// clusterinstance_validation.go validateClusterInstanceJSONFields, called
// by ValidateClusterInstance before any rendering) and as assisted-service
// uses them (platform.ClusterInstanceJSONProblem). A site's fields of the
// same names are refused under this rule when the site loads.

func init() {
	lint.RegisterFamily("v1alpha1", nil, []*lint.Rule{
		{ID: ruleid.ClusterInstanceJSON, Name: "clusterinstance-json-invalid", Severity: lint.Error,
			Summary: "a ClusterInstance's installConfigOverrides, ignitionConfigOverride or a node's installerArgs or ignitionConfigOverride is not valid JSON, or not the JSON it takes",
			Rationale: "The siteconfig operator validates a ClusterInstance before it renders anything: installConfigOverrides, the cluster's and each node's " +
				"ignitionConfigOverride and each node's installerArgs must be empty or a valid JSON document (stolostron/siteconfig api/v1alpha1 " +
				"clusterinstance_validation.go validateClusterInstanceJSONFields and isValidJSON: encoding/json, tests in clusterinstance_validation_test.go " +
				"\"should fail for invalid InstallConfigOverrides JSON\", \"should return false for non-JSON characters\"). Otherwise the ClusterInstance " +
				"stays not provisioned (\"installConfigOverrides is not a valid JSON-formatted string\"). YAML flow syntax such as `{key: value}` is not JSON. " +
				"Valid JSON of the wrong shape passes the webhook and fails later: assisted-service merges installConfigOverrides into the install-config " +
				"and ignitionConfigOverride into the Ignition configs as JSON objects, and the bare metal agent controller passes installerArgs to " +
				"coreos-installer as a list of strings (openshift/assisted-service docs/hive-integration \"Creating host installer args overrides\").",
			Fix:   "Write the value as JSON of its shape: an object for the overrides (`'{\"networking\":{\"networkType\":\"OVNKubernetes\"}}'`), a list of strings for installerArgs (`'[\"--append-karg\", \"nosmt\"]'`).",
			Check: checkClusterInstanceJSON},
	})
}

func checkClusterInstanceJSON(set lint.Set, r *lint.Reporter) {
	for _, ci := range manifests.ClusterInstances(plainInstallObjects(set)) {
		check := func(v string, shape byte, what string, path ...string) {
			if v == "" {
				return
			}
			if p := platform.ClusterInstanceJSONProblem(v, shape); p != "" {
				r.Object(ci.Obj, what+" "+p, path...)
			}
		}
		check(ci.Spec.InstallConfigOverrides, platform.JSONObject, "installConfigOverrides", "spec", "installConfigOverrides")
		check(ci.Spec.IgnitionConfigOverride, platform.JSONObject, "ignitionConfigOverride", "spec", "ignitionConfigOverride")
		for i, n := range ci.Spec.Nodes {
			idx := strconv.Itoa(i)
			check(n.InstallerArgs, platform.JSONStringsList, "installerArgs of node "+n.HostName, "spec", "nodes", idx, "installerArgs")
			check(n.IgnitionConfigOverride, platform.JSONObject, "ignitionConfigOverride of node "+n.HostName, "spec", "nodes", idx, "ignitionConfigOverride")
		}
	}
}
