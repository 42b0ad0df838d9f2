package manifests

import (
	"strings"

	configv1 "github.com/openshift/api/config/v1"

	"github.com/siteforge/siteforge/internal/platform"
)

// Release is what a set of manifests says of the cluster's release, and
// where it says it.
type Release struct {
	// Minor is the OpenShift minor; 0 when no ClusterVersion tells.
	Minor     platform.OCPMinor
	MinorFrom string
	// Image is the release image pull spec; "" when unknown.
	Image, ImageFrom string
}

// ClusterVersionRelease reads the release from the ClusterVersion objects
// among objs (an `oc get clusterversion -o yaml` export): the minor of the
// desired update, else of the desired release, else of the channel
// (stable-4.16: the version after the last '-'); the image of the desired
// update, else of the desired release. The one reader of ClusterVersion.
func ClusterVersionRelease(objs []*Object) Release {
	var r Release
	for _, o := range objs {
		if o.Kind != "ClusterVersion" || o.APIVersion != configv1.GroupVersion.String() {
			continue
		}
		var cv configv1.ClusterVersion
		if o.DecodeLoose(&cv) != nil {
			continue
		}
		if r.Minor == 0 {
			type candidate struct{ version, from string }
			var cands []candidate
			if cv.Spec.DesiredUpdate != nil {
				cands = append(cands, candidate{cv.Spec.DesiredUpdate.Version, "spec.desiredUpdate.version"})
			}
			cands = append(cands, candidate{cv.Status.Desired.Version, "status.desired.version"})
			if i := strings.LastIndexByte(cv.Spec.Channel, '-'); i >= 0 {
				cands = append(cands, candidate{cv.Spec.Channel[i+1:], "spec.channel"})
			}
			for _, c := range cands {
				if c.version == "" {
					continue
				}
				if m, err := platform.ParseOCPMinor(c.version); err == nil {
					r.Minor, r.MinorFrom = m, o.ID()+" "+c.from
					break
				}
			}
		}
		if r.Image == "" {
			switch {
			case cv.Spec.DesiredUpdate != nil && cv.Spec.DesiredUpdate.Image != "":
				r.Image, r.ImageFrom = cv.Spec.DesiredUpdate.Image, o.ID()+" spec.desiredUpdate.image"
			case cv.Status.Desired.Image != "":
				r.Image, r.ImageFrom = cv.Status.Desired.Image, o.ID()+" status.desired.image"
			}
		}
	}
	return r
}
