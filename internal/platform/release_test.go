package platform

import "testing"

func TestReleaseNameConventions(t *testing.T) {
	for name, want := range map[string]OCPMinor{
		"openshift-4.16":                  16, // stolostron/siteconfig config/samples
		"openshift-v4.22":                 22, // openshift-kni/telco-reference telco-core/install
		"openshift-v4.12.23-disconnected": 12,
		"img4.10.10-x86-64-appsub":        10, // stolostron/acm-hive-openshift-releases
		"ocp-4.3.0":                       3,
		"openshift-test":                  0, // stolostron/siteconfig tests: not a version
		"openshift-v5.0.0":                0, // assisted-service clusterImageSet.yaml: not a 4.y release
		"openshift-4.16x":                 0, // the version must end the name or be followed by '.' or '-'
		"my-openshift-4.16":               0,
	} {
		got, ok := ClusterImageSetNameMinor(name)
		if got != want || ok != (want > 0) {
			t.Errorf("ClusterImageSetNameMinor(%q) = %v, %v; want %v", name, got, ok, want)
		}
	}
	for image, want := range map[string]OCPMinor{
		"quay.io/openshift-release-dev/ocp-release:4.17.3-x86_64": 17,
		"mirror.example.com:5000/ocp4/openshift4:4.16.0":          16,
		"quay.io/openshift-release-dev/ocp-release@sha256:00":     0,
		"mirror.example.com:5000/ocp4/openshift4":                 0,
		"quay.io/openshift-release-dev/ocp-release:latest":        0,
	} {
		got, ok := ReleaseImageTagMinor(image)
		if got != want || ok != (want > 0) {
			t.Errorf("ReleaseImageTagMinor(%q) = %v, %v; want %v", image, got, ok, want)
		}
	}
}
