package platform

import "fmt"

// ButaneOpenShiftSpecs are the stable `variant: openshift` spec versions
// (4.N.0) Butane v0.29.0 translates, oldest first (butane config/config.go
// RegisterTranslator("openshift", ...); 4.23.0-experimental is left out:
// experimental specs change without notice). internal/butane's
// TestSpecTableMatchesButane fails when a Butane upgrade adds a stable spec,
// so the table cannot fall behind the library.
var ButaneOpenShiftSpecs = []OCPMinor{8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22}

// ButaneSpecVersion returns the Butane openshift spec version for a cluster
// release: the highest stable spec not above it ("4.16" -> "4.16.0"). A
// release newer than the newest spec gets the newest one (an older spec
// produces an older Ignition version, which the MCO accepts); a release
// older than the oldest spec is an error.
func ButaneSpecVersion(m OCPMinor) (string, error) {
	best := OCPMinor(0)
	for _, spec := range ButaneOpenShiftSpecs {
		if spec <= m {
			best = spec
		}
	}
	if best == 0 {
		return "", fmt.Errorf("OpenShift %s is older than the oldest Butane openshift spec %s.0", m, ButaneOpenShiftSpecs[0])
	}
	return best.String() + ".0", nil
}
