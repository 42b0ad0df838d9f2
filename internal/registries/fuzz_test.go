package registries

import (
	"testing"

	configv1 "github.com/openshift/api/config/v1"
	operatorv1alpha1 "github.com/openshift/api/operator/v1alpha1"
)

// Alphabets the fuzzer picks from. Sources and mirrors include values MCO itself rejects
// (4.13+ validates them); image.config scopes are only values the CRD admits, because MCO does
// not check them against c/image's rules and the API server guards them.
var (
	fuzzValidSources = []string{
		"registry.example.com", "registry.example.com/ns", "registry.example.com/ns/app",
		"quay.io", "quay.io/openshift-release-dev", "*.example.com", "*.sub.example.com",
		"mirror.example.com/ns", "localhost:5000/ns",
	}
	fuzzInvalidSources = []string{"", "registry.example.com/ns:v1", "https://quay.io", "*.example.com/ns", "Registry.example.com/NS"}
	fuzzValidMirrors   = []string{
		"mirror.example.com/ns", "mirror.example.com", "m1.mirror.io", "m2.mirror.io/a/b",
		"registry.example.com/ns", "quay.io/mirror", "localhost:5000/cache",
	}
	fuzzInvalidMirrors = []string{"", "*.mirror.io", "mirror.io/ns@sha256:abc", "http://mirror.io"}
	fuzzScopes         = []string{
		"registry.example.com", "registry.example.com/ns/insecure", "quay.io", "quay.io/openshift-release-dev",
		"*.example.com", "*.sub.example.com", "mirror.example.com", "block.io", "foo.example.com",
	}
	fuzzInvalidScopes = []string{"", "*example.com", "example.*.com", "*.example.com/ns"}
)

// fuzzBytes hands out small choices from the fuzz input, then zeros.
type fuzzBytes struct {
	data []byte
}

func (b *fuzzBytes) next() int {
	if len(b.data) == 0 {
		return 0
	}
	v := int(b.data[0])
	b.data = b.data[1:]
	return v
}

func (b *fuzzBytes) pick(choices []string) string { return choices[b.next()%len(choices)] }

// entry returns a source, its mirrors and a policy; invalid values only when allowed.
func (b *fuzzBytes) entry(allowInvalid bool) (string, []string, configv1.MirrorSourcePolicy) {
	flags := b.next()
	source := b.pick(fuzzValidSources)
	if allowInvalid && flags&1 != 0 {
		source = b.pick(fuzzInvalidSources)
	}
	var mirrors []string
	for n := b.next() % 4; n > 0; n-- {
		m := b.pick(fuzzValidMirrors)
		if allowInvalid && flags&2 != 0 && b.next()%3 == 0 {
			m = b.pick(fuzzInvalidMirrors)
		}
		if flags&4 != 0 && b.next()%4 == 0 {
			m = source
		}
		mirrors = append(mirrors, m)
	}
	policy := []configv1.MirrorSourcePolicy{"", configv1.AllowContactingSource, configv1.NeverContactSource}[(flags>>3)%3]
	return source, mirrors, policy
}

func (b *fuzzBytes) scopes(allowInvalid bool) []string {
	n := b.next() % 4
	if n == 0 {
		return nil
	}
	var out []string
	for ; n > 0; n-- {
		if allowInvalid && b.next()%5 == 0 {
			out = append(out, b.pick(fuzzInvalidScopes))
			continue
		}
		out = append(out, b.pick(fuzzScopes))
	}
	return out
}

func fuzzInput(data []byte) Input {
	b := &fuzzBytes{data: data}
	in := Input{Minor: []int{0, 12, 13, 16, 19}[b.next()%5]}
	modern := !in.legacy()
	for n := b.next() % 3; n > 0; n-- {
		obj := idms("")
		for k := b.next() % 3; k > 0; k-- {
			s, ms, p := b.entry(modern)
			obj.Spec.ImageDigestMirrors = append(obj.Spec.ImageDigestMirrors, configv1.ImageDigestMirrors{Source: s, Mirrors: toMirrors(ms), MirrorSourcePolicy: p})
		}
		in.DigestMirrorSets = append(in.DigestMirrorSets, obj)
	}
	for n := b.next() % 3; n > 0; n-- {
		obj := itms("")
		for k := b.next() % 3; k > 0; k-- {
			s, ms, p := b.entry(modern)
			obj.Spec.ImageTagMirrors = append(obj.Spec.ImageTagMirrors, configv1.ImageTagMirrors{Source: s, Mirrors: toMirrors(ms), MirrorSourcePolicy: p})
		}
		in.TagMirrorSets = append(in.TagMirrorSets, obj)
	}
	for n := b.next() % 3; n > 0; n-- {
		obj := icsp("")
		for k := b.next() % 3; k > 0; k-- {
			s, ms, _ := b.entry(modern) // 4.12 does not validate ICSP: keep it to valid values there
			obj.Spec.RepositoryDigestMirrors = append(obj.Spec.RepositoryDigestMirrors, operatorv1alpha1.RepositoryDigestMirrors{Source: s, Mirrors: ms})
		}
		in.ContentSourcePolicies = append(in.ContentSourcePolicies, obj)
	}
	if flags := b.next(); flags%2 == 1 {
		// Invalid blocked/allowed scopes are MCO-validated; invalid insecure ones are too.
		in.Image = img(b.scopes(true), b.scopes(true), b.scopes(flags&2 != 0))
	}
	if b.next()%2 == 1 {
		in.ReleaseImage = releaseImage
	}
	return in
}

// FuzzRender: Render never panics; whatever it renders, c/image loads, deterministically.
func FuzzRender(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{0, 2, 2, 0, 3, 1, 1, 2, 0, 1, 1, 3, 1, 2, 3, 1, 1})
	f.Add([]byte{1, 1, 1, 8, 5, 3, 0, 1, 2, 0, 0, 0, 1, 3, 5, 6, 7, 1, 1})
	f.Add([]byte{0, 2, 2, 16, 6, 3, 3, 3, 3, 2, 2, 24, 1, 2, 1, 2, 1, 1, 3, 2, 4, 3, 1, 3, 0, 1})
	f.Add([]byte{4, 1, 2, 4, 0, 3, 0, 0, 0, 0, 0, 1, 2, 0, 0, 0, 3, 2, 3, 2, 8, 1, 2, 3, 3, 4, 5, 1})
	f.Add([]byte("the quick brown fox jumps over the lazy registry mirror"))
	f.Fuzz(func(t *testing.T, data []byte) {
		in := fuzzInput(data)
		cfg, err := Render(in)
		if err != nil {
			return
		}
		out, err := cfg.TOML()
		if err != nil {
			t.Fatalf("TOML: %v", err)
		}
		if err := Load(out); err != nil {
			t.Fatalf("c/image rejects a rendered file: %v\n%s", err, out)
		}
		again, err := Render(in)
		if err != nil {
			t.Fatalf("second Render failed: %v", err)
		}
		if out2, _ := again.TOML(); string(out2) != string(out) {
			t.Fatalf("non-deterministic output")
		}
	})
}
