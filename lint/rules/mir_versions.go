package rules

import (
	"fmt"

	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/lint"
)

// ---------------------------------------------------------------------------------------------
// Version rules (MIR014-MIR016): skipped when the set's version is unknown.

func checkDeprecatedICSP(set lint.Set, r *lint.Reporter) {
	minor := int(set.Minor)
	if minor < int(platform.IDMSITMSSince) {
		return
	}
	for _, o := range set.Kind(manifests.GroupOperatorV1Alpha1, "ImageContentSourcePolicy") {
		r.Object(o, fmt.Sprintf("%s: ImageContentSourcePolicy is deprecated since OpenShift %s, and this is %s; it can express neither tag mirroring nor mirrorSourcePolicy; convert it with `oc adm migrate icsp <file> --dest-dir <dir>`, apply the ImageDigestMirrorSet, then delete the ICSP",
			o.ID(), platform.IDMSITMSSince, set.MinorIn()), "kind")
	}
}

// icspFixMerged is when MCO's fix allowing ICSP next to IDMS/ITMS merged in
// each release branch that shipped without it (see
// platform.ICSPWithMirrorSetsSince).
var icspFixMerged = map[platform.OCPMinor]string{13: "2023-12-05, MCO PR #4027", 14: "2023-11-07, MCO PR #3995"}

func checkICSPWithMirrorSets(set lint.Set, r *lint.Reporter) {
	minor := int(set.Minor)
	if minor < int(platform.IDMSITMSSince) || minor >= int(platform.ICSPWithMirrorSetsSince) {
		return
	}
	sets := append(set.Kind(manifests.GroupConfig, "ImageDigestMirrorSet"), set.Kind(manifests.GroupConfig, "ImageTagMirrorSet")...)
	if len(sets) == 0 {
		return
	}
	refusal := platform.MCOErrICSPWithIDMS
	if sets[0].Kind == "ImageTagMirrorSet" {
		refusal = platform.MCOErrICSPWithITMS
	}
	fixed := icspFixMerged[platform.OCPMinor(minor)]
	for _, o := range set.Kind(manifests.GroupOperatorV1Alpha1, "ImageContentSourcePolicy") {
		r.Object(o, fmt.Sprintf("%s next to %s on OpenShift %s: z-streams built before the fix (merged %s) fail the whole MCO sync (%q) and render no registries.conf; convert the ICSP with `oc adm migrate icsp` and delete it (or suppress, naming the z-stream, if the cluster runs a later one)",
			o.ID(), sets[0].ID(), set.MinorIn(), fixed, refusal), "kind")
	}
}

func checkMirrorSetsBefore413(set lint.Set, r *lint.Reporter) {
	minor := int(set.Minor)
	if minor == 0 || minor >= int(platform.IDMSITMSSince) {
		return
	}
	for _, o := range append(set.Kind(manifests.GroupConfig, "ImageDigestMirrorSet"), set.Kind(manifests.GroupConfig, "ImageTagMirrorSet")...) {
		r.Object(o, fmt.Sprintf("%s needs OpenShift %s or later, this is %s: the API server has no %s resource and MCO reads only ImageContentSourcePolicy, so these mirrors never reach the nodes; use an ImageContentSourcePolicy (digest mirrors; tag mirroring before 4.13 needs a registries.conf MachineConfig)",
			o.ID(), platform.IDMSITMSSince, set.MinorIn(), o.Kind), "kind")
	}
}
