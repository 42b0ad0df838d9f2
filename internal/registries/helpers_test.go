package registries

import (
	"reflect"
	"testing"

	configv1 "github.com/openshift/api/config/v1"
	operatorv1alpha1 "github.com/openshift/api/operator/v1alpha1"
	"github.com/pelletier/go-toml/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Compact constructors for test inputs.

func idms(name string, entries ...configv1.ImageDigestMirrors) configv1.ImageDigestMirrorSet {
	return configv1.ImageDigestMirrorSet{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec:       configv1.ImageDigestMirrorSetSpec{ImageDigestMirrors: entries},
	}
}

func itms(name string, entries ...configv1.ImageTagMirrors) configv1.ImageTagMirrorSet {
	return configv1.ImageTagMirrorSet{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec:       configv1.ImageTagMirrorSetSpec{ImageTagMirrors: entries},
	}
}

func icsp(name string, entries ...operatorv1alpha1.RepositoryDigestMirrors) operatorv1alpha1.ImageContentSourcePolicy {
	return operatorv1alpha1.ImageContentSourcePolicy{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec:       operatorv1alpha1.ImageContentSourcePolicySpec{RepositoryDigestMirrors: entries},
	}
}

func toMirrors(ms []string) []configv1.ImageMirror {
	out := make([]configv1.ImageMirror, 0, len(ms))
	for _, m := range ms {
		out = append(out, configv1.ImageMirror(m))
	}
	return out
}

// dm is an IDMS entry with the default policy; dmNever one with NeverContactSource.
func dm(source string, mirrors ...string) configv1.ImageDigestMirrors {
	return configv1.ImageDigestMirrors{Source: source, Mirrors: toMirrors(mirrors)}
}

func dmNever(source string, mirrors ...string) configv1.ImageDigestMirrors {
	e := dm(source, mirrors...)
	e.MirrorSourcePolicy = configv1.NeverContactSource
	return e
}

func dmAllow(source string, mirrors ...string) configv1.ImageDigestMirrors {
	e := dm(source, mirrors...)
	e.MirrorSourcePolicy = configv1.AllowContactingSource
	return e
}

func tm(source string, mirrors ...string) configv1.ImageTagMirrors {
	return configv1.ImageTagMirrors{Source: source, Mirrors: toMirrors(mirrors)}
}

func tmNever(source string, mirrors ...string) configv1.ImageTagMirrors {
	e := tm(source, mirrors...)
	e.MirrorSourcePolicy = configv1.NeverContactSource
	return e
}

func rdm(source string, mirrors ...string) operatorv1alpha1.RepositoryDigestMirrors {
	return operatorv1alpha1.RepositoryDigestMirrors{Source: source, Mirrors: mirrors}
}

// img is the image.config "cluster" object with the given scopes (nil lists stay nil).
func img(insecure, blocked, allowed []string) *configv1.Image {
	return &configv1.Image{
		ObjectMeta: metav1.ObjectMeta{Name: "cluster"},
		Spec: configv1.ImageSpec{RegistrySources: configv1.RegistrySources{
			InsecureRegistries: insecure,
			BlockedRegistries:  blocked,
			AllowedRegistries:  allowed,
		}},
	}
}

func list(s ...string) []string { return s }

// semanticTOML parses TOML text into generic maps for a comparison that ignores quoting,
// indentation and key order inside a table.
func semanticTOML(t *testing.T, label string, data []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := toml.Unmarshal(data, &m); err != nil {
		t.Fatalf("%s is not TOML: %v\n%s", label, err, data)
	}
	return m
}

func assertSameTOML(t *testing.T, got []byte, want string) {
	t.Helper()
	g, w := semanticTOML(t, "rendered file", got), semanticTOML(t, "expected file", []byte(want))
	if !reflect.DeepEqual(g, w) {
		t.Errorf("registries.conf differs\n--- got:\n%s\n--- want:\n%s", got, want)
	}
}

func mustRender(t *testing.T, in Input) []byte {
	t.Helper()
	cfg, err := Render(in)
	if err != nil {
		t.Fatalf("Render: %v", err)
	}
	data, err := cfg.TOML()
	if err != nil {
		t.Fatalf("TOML: %v", err)
	}
	return data
}
