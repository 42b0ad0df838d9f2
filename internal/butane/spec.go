package butane

import "github.com/siteforge/siteforge/internal/platform"

// Variant is the Butane variant of every siteforge MachineConfig.
const Variant = "openshift"

// SpecVersion returns the Butane openshift spec version for a cluster
// (platform.ButaneSpecVersion): "4.16.3" -> "4.16.0".
func SpecVersion(ocpVersion string) (string, error) {
	m, err := platform.ParseOCPMinor(ocpVersion)
	if err != nil {
		return "", err
	}
	return platform.ButaneSpecVersion(m)
}
