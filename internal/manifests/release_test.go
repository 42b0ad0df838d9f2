package manifests

import (
	"fmt"
	"strings"
	"testing"
)

func readDocs(t *testing.T, docs ...string) []*Object {
	t.Helper()
	var objs []*Object
	for i, d := range docs {
		o, diags := ReadBytes("f"+string(rune('0'+i))+".yaml", []byte(d))
		if len(diags) > 0 {
			t.Fatal(diags)
		}
		objs = append(objs, o...)
	}
	return objs
}

func TestClusterVersionRelease(t *testing.T) {
	for name, tc := range map[string]struct {
		doc         string
		minor       int
		from, image string
	}{
		"desired update first": {"spec:\n  channel: stable-4.15\n  desiredUpdate: {version: 4.16.3, image: quay.io/x/y@sha256:aa}\nstatus:\n  desired: {version: 4.15.9, image: quay.io/x/z}\n",
			16, `ClusterVersion version spec.desiredUpdate.version "4.16.3"`, "quay.io/x/y@sha256:aa"},
		"desired release":              {"status:\n  desired: {version: 4.15.9, image: quay.io/x/z}\n", 15, `ClusterVersion version status.desired.version "4.15.9"`, "quay.io/x/z"},
		"channel, after the last dash": {"spec:\n  channel: eus-4.14\n", 14, `ClusterVersion version spec.channel "eus-4.14"`, ""},
		"nothing":                      {"spec: {}\n", 0, "", ""},
	} {
		objs := readDocs(t, "apiVersion: config.openshift.io/v1\nkind: ClusterVersion\nmetadata:\n  name: version\n"+tc.doc)
		r := ReadRelease(objs)
		if int(r.Minor) != tc.minor || r.MinorFrom != tc.from || r.Image != tc.image {
			t.Errorf("%s: %+v", name, r)
		}
	}
}

// Fixtures shaped like the upstream objects each case derives from.
const (
	// stolostron/siteconfig config/samples/assisted-installer/example-sno.yaml
	// (clusterImageSetNameRef "openshift-4.16"); openshift-kni/telco-reference
	// telco-core/install/example-standard-clusterinstance.yaml ("openshift-v4.22").
	relClusterInstance = "apiVersion: siteconfig.open-cluster-management.io/v1alpha1\nkind: ClusterInstance\nmetadata:\n  name: sno\n  namespace: sno\nspec:\n  clusterName: sno\n  clusterImageSetNameRef: \"%s\"\n"
	// openshift/assisted-service docs/hive-integration/crds/agentClusterInstall.yaml
	// (imageSetRef.name openshift-v4.9.0).
	relAgentClusterInstall = "apiVersion: extensions.hive.openshift.io/v1beta1\nkind: AgentClusterInstall\nmetadata:\n  name: aci\n  namespace: spoke\nspec:\n  imageSetRef:\n    name: %s\n"
	// openshift/assisted-service docs/hive-integration/crds/clusterImageSet.yaml;
	// stolostron/acm-hive-openshift-releases clusterImageSets/fast/4.10/img4.10.10-x86_64.yaml.
	relClusterImageSet = "apiVersion: hive.openshift.io/v1\nkind: ClusterImageSet\nmetadata:\n  name: %s\nspec:\n  releaseImage: %s\n"
	// openshift/oc-mirror v1/pkg/api/v1alpha2 types_config.go (mirror.platform.channels,
	// mirror.operators[].catalog); no metadata, as oc-mirror's own samples.
	relImageSetConfig = "kind: ImageSetConfiguration\napiVersion: mirror.openshift.io/%s\nmirror:\n%s"
)

func rel(format string, args ...any) string { return fmt.Sprintf(format, args...) }

func TestReadRelease(t *testing.T) {
	cv := "apiVersion: config.openshift.io/v1\nkind: ClusterVersion\nmetadata:\n  name: version\nspec:\n  channel: stable-4.15\n"
	for _, tc := range []struct {
		name               string
		docs               []string
		minor              int
		from, image, imgAt string
		conflict           string
	}{
		{name: "ClusterInstance, ClusterImageSet not in the set: the name's convention (openshift-v4.N)",
			docs:  []string{rel(relClusterInstance, "openshift-v4.22")},
			minor: 22, from: `ClusterInstance sno/sno spec.clusterImageSetNameRef "openshift-v4.22"`},
		{name: "ClusterInstance, siteconfig sample name openshift-4.N",
			docs:  []string{rel(relClusterInstance, "openshift-4.16")},
			minor: 16, from: `ClusterInstance sno/sno spec.clusterImageSetNameRef "openshift-4.16"`},
		{name: "ClusterInstance naming a set of no known convention: nothing",
			docs: []string{rel(relClusterInstance, "openshift-test")}},
		{name: "ClusterInstance and its ClusterImageSet: the release image decides, over the name",
			docs: []string{rel(relClusterInstance, "openshift-v4.22"),
				rel(relClusterImageSet, "openshift-v4.22", "quay.io/openshift-release-dev/ocp-release:4.21.3-x86_64")},
			minor: 21, from: `ClusterImageSet openshift-v4.22 spec.releaseImage "quay.io/openshift-release-dev/ocp-release:4.21.3-x86_64" (named by ClusterInstance sno/sno spec.clusterImageSetNameRef "openshift-v4.22")`,
			image: "quay.io/openshift-release-dev/ocp-release:4.21.3-x86_64"},
		{name: "ClusterImageSet by digest: the minor from its name, the image from the set",
			docs: []string{rel(relAgentClusterInstall, "img4.17.3-x86-64-appsub"),
				rel(relClusterImageSet, "img4.17.3-x86-64-appsub", "mirror.example.com/ocp4/openshift4@sha256:0000000000000000000000000000000000000000000000000000000000000000")},
			minor: 17, from: `ClusterImageSet img4.17.3-x86-64-appsub metadata.name "img4.17.3-x86-64-appsub" (named by AgentClusterInstall spoke/aci spec.imageSetRef.name "img4.17.3-x86-64-appsub")`,
			image: "mirror.example.com/ocp4/openshift4@sha256:0000000000000000000000000000000000000000000000000000000000000000"},
		{name: "AgentClusterInstall naming a set (assisted-service sample openshift-v4.9.0)",
			docs:  []string{rel(relAgentClusterInstall, "openshift-v4.9.0")},
			minor: 9, from: `AgentClusterInstall spoke/aci spec.imageSetRef.name "openshift-v4.9.0"`},
		{name: "OpenShift 5 (assisted-service clusterImageSet.yaml openshift-v5.0.0): not a 4.y release, nothing",
			docs:  []string{rel(relClusterImageSet, "openshift-v5.0.0", "quay.io/openshift-release-dev/ocp-release:5.0.0-ec.5-x86_64")},
			image: "quay.io/openshift-release-dev/ocp-release:5.0.0-ec.5-x86_64"},
		{name: "unreferenced ClusterImageSets are ignored next to a ClusterInstance",
			docs: []string{rel(relClusterInstance, "openshift-v4.22"),
				rel(relClusterImageSet, "img4.16.3-x86-64-appsub", "quay.io/openshift-release-dev/ocp-release:4.16.3-x86_64")},
			minor: 22, from: `ClusterInstance sno/sno spec.clusterImageSetNameRef "openshift-v4.22"`},
		{name: "a hub's ClusterImageSets of two minors disagree: no release",
			docs: []string{rel(relClusterImageSet, "img4.16.3-x86-64-appsub", "quay.io/openshift-release-dev/ocp-release:4.16.3-x86_64") + "---\n" +
				rel(relClusterImageSet, "img4.17.1-x86-64-appsub", "quay.io/openshift-release-dev/ocp-release:4.17.1-x86_64")},
			conflict: `ClusterImageSet img4.16.3-x86-64-appsub spec.releaseImage "quay.io/openshift-release-dev/ocp-release:4.16.3-x86_64" says 4.16, ClusterImageSet img4.17.1-x86-64-appsub spec.releaseImage "quay.io/openshift-release-dev/ocp-release:4.17.1-x86_64" says 4.17`},
		{name: "ImageSetConfiguration v1alpha2: the release channel",
			docs:  []string{rel(relImageSetConfig, "v1alpha2", "  platform:\n    channels:\n    - name: stable-4.17\n")},
			minor: 17, from: `ImageSetConfiguration in f0.yaml mirror.platform.channels[0].name "stable-4.17"`},
		// The catalogs a mirror serves are not the release a cluster
		// installs (a real repository mirrors redhat-operator-index:v4.10
		// next to an install-config of any release).
		{name: "ImageSetConfiguration: the Red Hat catalog's v4.N tag tells nothing",
			docs: []string{rel(relImageSetConfig, "v1alpha2", "  operators:\n  - catalog: registry.redhat.io/redhat/redhat-operator-index:v4.17\n    packages:\n    - name: local-storage-operator\n")}},
		{name: "ImageSetConfiguration v2alpha1: the channel, minVersion and maxVersion agree",
			docs:  []string{rel(relImageSetConfig, "v2alpha1", "  platform:\n    channels:\n    - name: stable-4.18\n      minVersion: 4.18.2\n      maxVersion: 4.18.9\n")},
			minor: 18, from: `ImageSetConfiguration in f0.yaml mirror.platform.channels[0].name "stable-4.18"`},
		{name: "ImageSetConfiguration mirroring an upgrade 4.16 -> 4.17: no release",
			docs:     []string{rel(relImageSetConfig, "v2alpha1", "  platform:\n    channels:\n    - name: stable-4.16\n      minVersion: 4.16.20\n    - name: stable-4.17\n      maxVersion: 4.17.5\n")},
			conflict: `ImageSetConfiguration in f0.yaml mirror.platform.channels[0].minVersion "4.16.20" says 4.16`},
		{name: "ImageSetConfiguration: an okd channel and another catalog tell nothing",
			docs: []string{rel(relImageSetConfig, "v2alpha1", "  platform:\n    channels:\n    - name: stable-4.15\n      type: okd\n  operators:\n  - catalog: quay.io/example/my-index:v4.15\n")}},
		{name: "precedence: ClusterVersion over ClusterInstance over ImageSetConfiguration",
			docs: []string{rel(relImageSetConfig, "v1alpha2", "  platform:\n    channels:\n    - name: stable-4.17\n"),
				rel(relClusterInstance, "openshift-v4.16"), cv},
			minor: 15, from: `ClusterVersion version spec.channel "stable-4.15"`},
		{name: "precedence: ClusterInstance over ImageSetConfiguration",
			docs: []string{rel(relImageSetConfig, "v1alpha2", "  platform:\n    channels:\n    - name: stable-4.17\n"),
				rel(relClusterInstance, "openshift-v4.16")},
			minor: 16, from: `ClusterInstance sno/sno spec.clusterImageSetNameRef "openshift-v4.16"`},
		{name: "a conflict in the deciding tier is not settled by a lower one",
			docs: []string{rel(relImageSetConfig, "v1alpha2", "  platform:\n    channels:\n    - name: stable-4.17\n"),
				rel(relClusterImageSet, "a", "quay.io/openshift-release-dev/ocp-release:4.16.3-x86_64") + "---\n" + rel(relClusterImageSet, "b", "quay.io/openshift-release-dev/ocp-release:4.17.3-x86_64")},
			conflict: `ClusterImageSet a spec.releaseImage`},
		{name: "the same ClusterInstance in two files agrees with itself",
			docs:  []string{rel(relClusterInstance, "openshift-v4.22"), rel(relClusterInstance, "openshift-v4.22")},
			minor: 22, from: `ClusterInstance sno/sno spec.clusterImageSetNameRef "openshift-v4.22"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := ReadRelease(readDocs(t, tc.docs...))
			if int(r.Minor) != tc.minor || r.MinorFrom != tc.from || r.Image != tc.image {
				t.Errorf("got minor %d from %q image %q, want %d from %q image %q", r.Minor, r.MinorFrom, r.Image, tc.minor, tc.from, tc.image)
			}
			if tc.conflict == "" && r.Conflict != "" || !strings.Contains(r.Conflict, tc.conflict) {
				t.Errorf("conflict %q, want it to contain %q", r.Conflict, tc.conflict)
			}
		})
	}
}
