package manifests

import (
	"slices"

	configv1 "github.com/openshift/api/config/v1"
)

// CapabilityOff says that the objects disable an optional cluster
// capability, and where: an install-config's capabilities, else a
// ClusterVersion's spec.capabilities, select a baseline set that lacks it
// and do not add it (openshift/api config/v1 types_cluster_version.go
// ClusterVersionCapabilitiesSpec, ClusterVersionCapabilitySets; installer
// pkg/types/installconfig.go Capabilities). "" when it is enabled, or when
// nothing says (the default baseline, vCurrent, enables every capability).
// An unknown baseline set says nothing. The one reader of capabilities.
func CapabilityOff(objs []*Object, capability configv1.ClusterVersionCapability) string {
	check := func(spec *configv1.ClusterVersionCapabilitiesSpec) bool {
		if spec == nil || spec.BaselineCapabilitySet == "" {
			return false
		}
		set, known := configv1.ClusterVersionCapabilitySets[spec.BaselineCapabilitySet]
		if !known {
			return false
		}
		return !slices.Contains(set, capability) && !slices.Contains(spec.AdditionalEnabledCapabilities, capability)
	}
	for _, ic := range InstallConfigs(objs) {
		if ic.Capabilities != nil {
			if check(ic.Capabilities) {
				return ic.Obj.ID() + " capabilities.baselineCapabilitySet " + string(ic.Capabilities.BaselineCapabilitySet)
			}
			return ""
		}
	}
	for _, o := range objs {
		if o.Kind != "ClusterVersion" || o.APIVersion != GroupConfig {
			continue
		}
		var cv configv1.ClusterVersion
		if o.DecodeLoose(&cv) == nil && cv.Spec.Capabilities != nil {
			if check(cv.Spec.Capabilities) {
				return o.ID() + " spec.capabilities.baselineCapabilitySet " + string(cv.Spec.Capabilities.BaselineCapabilitySet)
			}
			return ""
		}
	}
	return ""
}
