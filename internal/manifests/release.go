package manifests

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	configv1 "github.com/openshift/api/config/v1"

	"github.com/siteforge/siteforge/internal/platform"
)

// Release is what a set of manifests says of the cluster's release, and
// where it says it.
type Release struct {
	// Minor is the OpenShift minor; 0 when no object tells, or when the
	// objects that decide disagree (then Conflict says how).
	Minor platform.OCPMinor
	// MinorFrom names the object and field the minor comes from, with the
	// value read: `ClusterInstance sno/sno spec.clusterImageSetNameRef "openshift-v4.22"`.
	MinorFrom string
	// Image is the release image pull spec; "" when unknown or ambiguous.
	Image, ImageFrom string
	// Conflict, when the minor is unknown because the objects that decide
	// it disagree, lists them: `ClusterImageSet a spec.releaseImage "…:4.16.3" says 4.16, …`.
	Conflict string
}

// releaseClue is what one field of one object says of the release.
type releaseClue struct {
	minor     platform.OCPMinor // 0: says nothing of the minor
	from      string
	image     string // "": says nothing of the image
	imageFrom string
}

// releaseTiers are the readers of the release, in precedence order (after
// --ocp-version, which the caller applies): the first tier whose objects
// say anything decides, and when its objects disagree the release is
// unknown (a lower tier is not asked: it is weaker evidence of the same
// question).
//
//  1. ClusterVersion: the cluster's own record of its release.
//  2. ClusterImageSet, ClusterInstance, AgentClusterInstall: the release a
//     cluster is installed from (hive, siteconfig, assisted-service).
//  3. ImageSetConfiguration: the releases oc-mirror mirrors for the cluster
//     (mirror.platform channels). Its operator catalogs tell nothing of the
//     release: an ImageSetConfiguration configures the mirror, not a
//     cluster, and the catalog index it copies (redhat-operator-index:v4.10)
//     is whatever catalog the mirror serves - one mirror serves several
//     clusters, and the release a cluster installs is the payload, which
//     only mirror.platform names (oc-mirror docs "Image set configuration
//     parameters": mirror.platform.channels are the OpenShift releases to
//     mirror, mirror.operators the Operator catalogs).
var releaseTiers = []func([]*Object) []releaseClue{clusterVersionClues, imageSetClues, imageSetConfigurationClues}

// ReadRelease reads the release a set of manifests states, by the
// precedence of releaseTiers. The one reader of the release of plain
// manifests.
func ReadRelease(objs []*Object) Release {
	var r Release
	minorDone, imageDone := false, false
	for _, tier := range releaseTiers {
		clues := tier(objs)
		if !minorDone {
			var said []releaseClue
			for _, c := range clues {
				if c.minor > 0 {
					said = append(said, c)
				}
			}
			if len(said) > 0 {
				minorDone = true
				if conflict := minorConflict(said); conflict != "" {
					r.Conflict = conflict
				} else {
					r.Minor, r.MinorFrom = said[0].minor, said[0].from
				}
			}
		}
		if !imageDone {
			var images []releaseClue
			for _, c := range clues {
				if c.image != "" && !slices.ContainsFunc(images, func(o releaseClue) bool { return o.image == c.image }) {
					images = append(images, c)
				}
			}
			if len(images) > 0 {
				imageDone = true
				if len(images) == 1 {
					r.Image, r.ImageFrom = images[0].image, images[0].imageFrom
				}
			}
		}
		if minorDone && imageDone {
			break
		}
	}
	return r
}

// minorConflict describes clues that name more than one minor; "" when they
// agree.
func minorConflict(clues []releaseClue) string {
	agree := true
	for _, c := range clues {
		agree = agree && c.minor == clues[0].minor
	}
	if agree {
		return ""
	}
	var parts []string
	for _, c := range clues {
		parts = append(parts, fmt.Sprintf("%s says %s", c.from, c.minor))
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}

// sourceName names an object for a release source: its ID, or its kind and file
// when it has no name (an ImageSetConfiguration needs none).
func sourceName(o *Object) string {
	if o.Name == "" {
		return fmt.Sprintf("%s in %s", o.Kind, o.File)
	}
	return o.ID()
}

// sourceOf says where a value was read: `<object> <field> "<value>"`.
func sourceOf(o *Object, field, value string) string {
	return fmt.Sprintf("%s %s %q", sourceName(o), field, value)
}

// clusterVersionClues reads the ClusterVersion objects (an `oc get
// clusterversion -o yaml` export): the minor of the desired update, else of
// the desired release, else of the channel (stable-4.16: the version after
// the last '-'); the image of the desired update, else of the desired
// release (api config/v1 ClusterVersionSpec.DesiredUpdate, ClusterVersionStatus.Desired).
func clusterVersionClues(objs []*Object) []releaseClue {
	var out []releaseClue
	for _, o := range objs {
		if o.Kind != "ClusterVersion" || o.APIVersion != configv1.GroupVersion.String() {
			continue
		}
		var cv configv1.ClusterVersion
		if o.DecodeLoose(&cv) != nil {
			continue
		}
		var c releaseClue
		type candidate struct{ version, field string }
		var cands []candidate
		if cv.Spec.DesiredUpdate != nil {
			cands = append(cands, candidate{cv.Spec.DesiredUpdate.Version, "spec.desiredUpdate.version"})
		}
		cands = append(cands, candidate{cv.Status.Desired.Version, "status.desired.version"})
		for _, k := range cands {
			if k.version == "" {
				continue
			}
			if m, err := platform.ParseOCPMinor(k.version); err == nil {
				c.minor, c.from = m, sourceOf(o, k.field, k.version)
				break
			}
		}
		if c.minor == 0 {
			if m, ok := platform.ChannelMinor(cv.Spec.Channel); ok {
				c.minor, c.from = m, sourceOf(o, "spec.channel", cv.Spec.Channel)
			}
		}
		switch {
		case cv.Spec.DesiredUpdate != nil && cv.Spec.DesiredUpdate.Image != "":
			c.image, c.imageFrom = cv.Spec.DesiredUpdate.Image, sourceOf(o, "spec.desiredUpdate.image", cv.Spec.DesiredUpdate.Image)
		case cv.Status.Desired.Image != "":
			c.image, c.imageFrom = cv.Status.Desired.Image, sourceOf(o, "status.desired.image", cv.Status.Desired.Image)
		}
		if c.minor > 0 || c.image != "" {
			out = append(out, c)
		}
	}
	return out
}

// imageSetRef is a reference to a ClusterImageSet by name.
type imageSetRef struct {
	obj         *Object
	field, name string
}

// imageSetClues reads the release a cluster is installed from: the
// ClusterImageSets named by the set's ClusterInstances
// (spec.clusterImageSetNameRef) and AgentClusterInstalls
// (spec.imageSetRef.name). A named ClusterImageSet in the set gives its
// spec.releaseImage (the minor from the image's 4.y.z tag, else from the
// set's name); one not in the set gives the minor of the name, when the name
// follows a known convention (platform.ClusterImageSetNameMinor). A set
// with no ClusterInstance or AgentClusterInstall reads every ClusterImageSet
// (a hub holding several releases then disagrees, and tells nothing).
func imageSetClues(objs []*Object) []releaseClue {
	sets := map[string]*Object{}
	var refs []imageSetRef
	for _, o := range objs {
		switch {
		case o.Kind == platform.ClusterImageSetKind && o.APIVersion == platform.ClusterImageSetAPIVersion:
			if _, dup := sets[o.Name]; !dup {
				sets[o.Name] = o
			}
		case o.Kind == platform.ClusterInstanceKind && o.APIVersion == platform.ClusterInstanceAPIVersion:
			var ci struct {
				Spec struct {
					ClusterImageSetNameRef string `json:"clusterImageSetNameRef"`
				} `json:"spec"`
			}
			if o.DecodeLoose(&ci) == nil && ci.Spec.ClusterImageSetNameRef != "" {
				refs = append(refs, imageSetRef{o, "spec.clusterImageSetNameRef", ci.Spec.ClusterImageSetNameRef})
			}
		case IsSiteConfig(o):
			// each cluster's ClusterImageSet: its own, else the spec's
			// (the converter's getClusterImageSetRef)
			if sc, err := DecodeSiteConfig(o); err == nil {
				for i, c := range sc.Spec.Clusters {
					if c.ClusterImageSetNameRef != "" {
						refs = append(refs, imageSetRef{o, fmt.Sprintf("spec.clusters[%d].clusterImageSetNameRef", i), c.ClusterImageSetNameRef})
					} else if sc.Spec.ClusterImageSetNameRef != "" {
						refs = append(refs, imageSetRef{o, "spec.clusterImageSetNameRef", sc.Spec.ClusterImageSetNameRef})
					}
				}
			}
		case o.Kind == platform.AgentClusterInstallKind && o.APIVersion == platform.AgentClusterInstallAPIVersion:
			var aci struct {
				Spec struct {
					ImageSetRef *struct {
						Name string `json:"name"`
					} `json:"imageSetRef"`
				} `json:"spec"`
			}
			if o.DecodeLoose(&aci) == nil && aci.Spec.ImageSetRef != nil && aci.Spec.ImageSetRef.Name != "" {
				refs = append(refs, imageSetRef{o, "spec.imageSetRef.name", aci.Spec.ImageSetRef.Name})
			}
		}
	}
	var out []releaseClue
	if len(refs) == 0 {
		for _, o := range objs {
			if sets[o.Name] == o {
				out = append(out, clusterImageSetClue(o, ""))
			}
		}
		return out
	}
	for _, ref := range refs {
		refFrom := sourceOf(ref.obj, ref.field, ref.name)
		if o := sets[ref.name]; o != nil {
			out = append(out, clusterImageSetClue(o, refFrom))
			continue
		}
		if m, ok := platform.ClusterImageSetNameMinor(ref.name); ok {
			out = append(out, releaseClue{minor: m, from: refFrom})
		}
	}
	return out
}

// clusterImageSetClue reads one ClusterImageSet: the release image, its
// minor from the image's tag, else from the set's name. by names the
// reference that chose it ("" when none did).
func clusterImageSetClue(o *Object, by string) releaseClue {
	var cis struct {
		Spec struct {
			ReleaseImage string `json:"releaseImage"`
		} `json:"spec"`
	}
	if o.DecodeLoose(&cis) != nil {
		return releaseClue{}
	}
	suffix := ""
	if by != "" {
		suffix = " (named by " + by + ")"
	}
	var c releaseClue
	if img := cis.Spec.ReleaseImage; img != "" {
		c.image, c.imageFrom = img, sourceOf(o, "spec.releaseImage", img)+suffix
		if m, ok := platform.ReleaseImageTagMinor(img); ok {
			c.minor, c.from = m, c.imageFrom
		}
	}
	if c.minor == 0 {
		if m, ok := platform.ClusterImageSetNameMinor(o.Name); ok {
			c.minor, c.from = m, sourceOf(o, "metadata.name", o.Name)+suffix
		}
	}
	return c
}

// imageSetConfigurationClues reads oc-mirror ImageSetConfigurations: the
// OpenShift release channels mirrored (mirror.platform.channels[]: the
// channel name's version, minVersion, maxVersion; channels of type okd are
// skipped) and the default Red Hat catalogs mirrored by their v4.y tag
// (mirror.operators[].catalog). A configuration that mirrors an upgrade
// across minors names several, and so tells nothing.
func imageSetConfigurationClues(objs []*Object) []releaseClue {
	var out []releaseClue
	for _, o := range objs {
		if o.Kind != platform.ImageSetConfigurationKind || !slices.Contains(platform.ImageSetConfigurationAPIVersions, o.APIVersion) {
			continue
		}
		var isc struct {
			Mirror struct {
				Platform struct {
					Channels []struct {
						Name       string `json:"name"`
						Type       string `json:"type"`
						MinVersion string `json:"minVersion"`
						MaxVersion string `json:"maxVersion"`
					} `json:"channels"`
				} `json:"platform"`
			} `json:"mirror"`
		}
		if o.DecodeLoose(&isc) != nil {
			continue
		}
		for i, ch := range isc.Mirror.Platform.Channels {
			if ch.Type != "" && !strings.EqualFold(ch.Type, platform.OCMirrorPlatformOCP) {
				continue
			}
			field := fmt.Sprintf("mirror.platform.channels[%d]", i)
			if m, ok := platform.ChannelMinor(ch.Name); ok {
				out = append(out, releaseClue{minor: m, from: sourceOf(o, field+".name", ch.Name)})
			}
			for _, v := range []struct{ key, value string }{{"minVersion", ch.MinVersion}, {"maxVersion", ch.MaxVersion}} {
				if v.value == "" {
					continue
				}
				if m, err := platform.ParseOCPMinor(v.value); err == nil {
					out = append(out, releaseClue{minor: m, from: sourceOf(o, field+"."+v.key, v.value)})
				}
			}
		}
	}
	return out
}
