package registries

import (
	"bytes"
	"math/rand"
	"testing"

	configv1 "github.com/openshift/api/config/v1"
	operatorv1alpha1 "github.com/openshift/api/operator/v1alpha1"
)

// The merge must not depend on the order MCO's informer lists objects in. Objects carry no
// names here, so the name sort does not hide an order dependency.
func TestRenderIsIndependentOfObjectOrder(t *testing.T) {
	base := Input{
		Image: img(list("insecure.example.com", "registry.example.com/ns/insecure"), list("blocked.example.com"), nil),
		DigestMirrorSets: []configv1.ImageDigestMirrorSet{
			idms("", dm(srcNS, "y2.mirror.io/ns", "x3.mirror.io/ns")),
			idms("", dm(srcNS, "z1.mirror.io/ns", "y2.mirror.io/ns"), dm("quay.io/a", "m2.mirror.io/a", "m1.mirror.io/a")),
			idms("", dm("quay.io/a", "m1.mirror.io/a", "m2.mirror.io/a"), dm("*.example.org", "cache.mirror.io/org")),
			idms("", dm(srcNS, "a.mirror.io/ns", "insecure.example.com/ns")),
		},
		TagMirrorSets: []configv1.ImageTagMirrorSet{
			itms("", tm(srcNS, "tags-b.mirror.io/ns")),
			itms("", tm(srcNS, "tags-a.mirror.io/ns"), tm("quay.io/b", "tags.mirror.io/b")),
		},
		ContentSourcePolicies: []operatorv1alpha1.ImageContentSourcePolicy{
			icsp("", rdm(srcNS, "b.mirror.io/ns", "a.mirror.io/ns")),
			icsp("", rdm("quay.io/a", "m3.mirror.io/a")),
		},
	}
	want := mustRender(t, base)
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 50; i++ {
		in := base
		in.DigestMirrorSets = append([]configv1.ImageDigestMirrorSet(nil), base.DigestMirrorSets...)
		in.TagMirrorSets = append([]configv1.ImageTagMirrorSet(nil), base.TagMirrorSets...)
		in.ContentSourcePolicies = append([]operatorv1alpha1.ImageContentSourcePolicy(nil), base.ContentSourcePolicies...)
		rng.Shuffle(len(in.DigestMirrorSets), func(a, b int) {
			in.DigestMirrorSets[a], in.DigestMirrorSets[b] = in.DigestMirrorSets[b], in.DigestMirrorSets[a]
		})
		rng.Shuffle(len(in.TagMirrorSets), func(a, b int) {
			in.TagMirrorSets[a], in.TagMirrorSets[b] = in.TagMirrorSets[b], in.TagMirrorSets[a]
		})
		rng.Shuffle(len(in.ContentSourcePolicies), func(a, b int) {
			in.ContentSourcePolicies[a], in.ContentSourcePolicies[b] = in.ContentSourcePolicies[b], in.ContentSourcePolicies[a]
		})
		if got := mustRender(t, in); !bytes.Equal(got, want) {
			t.Fatalf("shuffle %d changed the output:\n%s\n--- first:\n%s", i, got, want)
		}
	}
	if err := Load(want); err != nil {
		t.Fatalf("c/image rejects the file: %v", err)
	}
}

// With several errors, the one reported must not depend on object order either.
func TestRenderErrorIsIndependentOfObjectOrder(t *testing.T) {
	a := idms("a", dmNever("first.example.com", "m.mirror.io"), dm("second.example.com", "m.mirror.io"))
	b := idms("b", dm("first.example.com", "n.mirror.io"), dmNever("second.example.com", "n.mirror.io"))
	_, err1 := Render(Input{DigestMirrorSets: []configv1.ImageDigestMirrorSet{a, b}})
	_, err2 := Render(Input{DigestMirrorSets: []configv1.ImageDigestMirrorSet{b, a}})
	if err1 == nil || err2 == nil || err1.Error() != err2.Error() {
		t.Fatalf("errors differ with object order: %v / %v", err1, err2)
	}
}
