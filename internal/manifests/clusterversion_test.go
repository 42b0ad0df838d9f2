package manifests

import "testing"

func TestClusterVersionRelease(t *testing.T) {
	for name, tc := range map[string]struct {
		doc         string
		minor       int
		from, image string
	}{
		"desired update first": {"spec:\n  channel: stable-4.15\n  desiredUpdate: {version: 4.16.3, image: quay.io/x/y@sha256:aa}\nstatus:\n  desired: {version: 4.15.9, image: quay.io/x/z}\n",
			16, "ClusterVersion version spec.desiredUpdate.version", "quay.io/x/y@sha256:aa"},
		"desired release":              {"status:\n  desired: {version: 4.15.9, image: quay.io/x/z}\n", 15, "ClusterVersion version status.desired.version", "quay.io/x/z"},
		"channel, after the last dash": {"spec:\n  channel: eus-4.14\n", 14, "ClusterVersion version spec.channel", ""},
		"nothing":                      {"spec: {}\n", 0, "", ""},
	} {
		objs, d := ReadBytes("cv.yaml", []byte("apiVersion: config.openshift.io/v1\nkind: ClusterVersion\nmetadata:\n  name: version\n"+tc.doc))
		if len(d) > 0 {
			t.Fatal(d)
		}
		r := ClusterVersionRelease(objs)
		if int(r.Minor) != tc.minor || r.MinorFrom != tc.from || r.Image != tc.image {
			t.Errorf("%s: %+v", name, r)
		}
	}
}
