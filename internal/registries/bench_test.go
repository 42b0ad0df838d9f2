package registries

import (
	"testing"

	configv1 "github.com/openshift/api/config/v1"
)

// BenchmarkRender: MCO's merge of a typical disconnected site's mirror sets
// into registries.conf, TOML included.
func BenchmarkRender(b *testing.B) {
	in := Input{
		DigestMirrorSets: []configv1.ImageDigestMirrorSet{
			idms("cache", dm("registry.redhat.io", "quay.example.com:8443/registry-redhat-io"), dm("quay.io/openshift-release-dev", "quay.example.com:8443/ocp4-mirror")),
			idms("extra", dm("registry.redhat.io/ubi9", "mirror.example.com/ubi9", "quay.example.com:8443/registry-redhat-io/ubi9")),
		},
		TagMirrorSets: []configv1.ImageTagMirrorSet{itms("tags", tm("registry.redhat.io", "quay.example.com:8443/registry-redhat-io"))},
	}
	b.ReportAllocs()
	for b.Loop() {
		c, err := Render(in)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := c.TOML(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkResolve: one pull resolved through containers/image.
// BenchmarkResolve: one reference under a registries.conf c/image has not
// seen (the scratch file written, loaded, asked).
func BenchmarkResolve(b *testing.B) {
	toml := benchConf(b)
	b.ReportAllocs()
	for b.Loop() {
		forgetAnswers()
		if _, err := Resolve(toml, "registry.redhat.io/redhat/redhat-operator-index:v4.16"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkResolveRemembered: the same question again (another site of a
// fleet with the same file).
func BenchmarkResolveRemembered(b *testing.B) {
	toml := benchConf(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Resolve(toml, "registry.redhat.io/redhat/redhat-operator-index:v4.16"); err != nil {
			b.Fatal(err)
		}
	}
}

func benchConf(b *testing.B) []byte {
	c, err := Render(Input{DigestMirrorSets: []configv1.ImageDigestMirrorSet{idms("cache", dm("registry.redhat.io", "quay.example.com:8443/registry-redhat-io"))}})
	if err != nil {
		b.Fatal(err)
	}
	toml, err := c.TOML()
	if err != nil {
		b.Fatal(err)
	}
	return toml
}

func forgetAnswers() {
	answers.Lock()
	answers.m = nil
	answers.Unlock()
}
