package butane

import (
	"fmt"
	"regexp"
	"strconv"
)

// openshiftSpecs are the stable `variant: openshift` spec versions Butane
// v0.29.0 translates, oldest first (butane config/config.go
// RegisterTranslator("openshift", ...); 4.23.0-experimental is left out:
// experimental specs change without notice). TestSpecTableMatchesButane
// fails when a Butane upgrade adds a stable spec, so the table cannot fall
// behind the library.
var openshiftSpecs = []string{
	"4.8.0", "4.9.0", "4.10.0", "4.11.0", "4.12.0", "4.13.0", "4.14.0", "4.15.0",
	"4.16.0", "4.17.0", "4.18.0", "4.19.0", "4.20.0", "4.21.0", "4.22.0",
}

// Variant is the Butane variant of every siteforge MachineConfig.
const Variant = "openshift"

var reOCPVersion = regexp.MustCompile(`^([0-9]+)\.([0-9]+)(?:\.[0-9]+)?$`)

// SpecVersion returns the Butane openshift spec version for a cluster: the
// highest stable spec not above the OpenShift version ("4.16.3" -> "4.16.0").
// A cluster newer than the newest spec gets the newest one (an older spec
// produces an older Ignition version, which the MCO accepts); a cluster
// older than the oldest spec is an error.
func SpecVersion(ocpVersion string) (string, error) {
	m := reOCPVersion.FindStringSubmatch(ocpVersion)
	if m == nil {
		return "", fmt.Errorf("OpenShift version %q is not of the form 4.N or 4.N.z", ocpVersion)
	}
	major, _ := strconv.Atoi(m[1])
	minor, _ := strconv.Atoi(m[2])
	best := ""
	for _, spec := range openshiftSpecs {
		sm := reOCPVersion.FindStringSubmatch(spec)
		smaj, _ := strconv.Atoi(sm[1])
		smin, _ := strconv.Atoi(sm[2])
		if smaj < major || smaj == major && smin <= minor {
			best = spec
		}
	}
	if best == "" {
		return "", fmt.Errorf("OpenShift %s is older than the oldest Butane openshift spec %s", ocpVersion, openshiftSpecs[0])
	}
	return best, nil
}
