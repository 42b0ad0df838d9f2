package registries

import (
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"

	configv1 "github.com/openshift/api/config/v1"
	operatorv1alpha1 "github.com/openshift/api/operator/v1alpha1"
)

const appDigest = "@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

func mustResolve(t *testing.T, in Input, ref string) Resolution {
	t.Helper()
	res, err := Resolve(mustRender(t, in), ref)
	if err != nil {
		t.Fatalf("Resolve(%q): %v", ref, err)
	}
	return res
}

// endpointsSummary renders endpoints compactly: location, then flags.
func endpointsSummary(eps []Endpoint) string {
	var parts []string
	for _, e := range eps {
		s := e.Location
		if e.Source {
			s += " source"
		}
		if e.Blocked {
			s += " blocked"
		}
		if e.Skipped {
			s += " skipped(" + e.SkipReason + ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " | ")
}

func wantEndpoints(t *testing.T, res Resolution, want string) {
	t.Helper()
	if got := endpointsSummary(res.Endpoints); got != want {
		t.Errorf("endpoints of %s\n got: %s\nwant: %s", res.Reference, got, want)
	}
}

var digestOnly = Input{DigestMirrorSets: []configv1.ImageDigestMirrorSet{
	idms("d", dm(srcNS, "mirror.example.com/ns")),
}}

func TestResolveTagRefUnderDigestMirrorGoesToSourceOnly(t *testing.T) {
	res := mustResolve(t, digestOnly, "registry.example.com/ns/app:v1")
	wantEndpoints(t, res, "mirror.example.com/ns skipped("+SkipDigestOnlyForTag+") | registry.example.com/ns source")
	if res.Digest || res.Prefix != srcNS {
		t.Errorf("Digest=%v Prefix=%q", res.Digest, res.Prefix)
	}
	if a := res.Attempts(); len(a) != 1 || !a[0].Source || a[0].Reference != "registry.example.com/ns/app:v1" {
		t.Errorf("attempts = %+v", a)
	}
	if res.SucceedsDisconnected(nil) {
		t.Error("a tag pull covered only by a digest mirror cannot succeed disconnected")
	}
}

func TestResolveDigestRefUsesMirrorFirst(t *testing.T) {
	res := mustResolve(t, digestOnly, "registry.example.com/ns/app"+appDigest)
	wantEndpoints(t, res, "mirror.example.com/ns | registry.example.com/ns source")
	if got := res.Endpoints[0].Reference; got != "mirror.example.com/ns/app"+appDigest {
		t.Errorf("mirror reference = %q", got)
	}
	if !res.SucceedsDisconnected(nil) {
		t.Error("digest pull with a digest mirror should succeed disconnected")
	}
	if res.SucceedsDisconnected(func(string) bool { return false }) {
		t.Error("unreachable mirror must not count")
	}
}

func TestResolveBlockedSource(t *testing.T) {
	in := Input{DigestMirrorSets: []configv1.ImageDigestMirrorSet{idms("d", dmNever(srcNS, "mirror.example.com/ns"))}}

	res := mustResolve(t, in, "registry.example.com/ns/app"+appDigest)
	wantEndpoints(t, res, "mirror.example.com/ns | registry.example.com/ns source blocked")
	if a := res.Attempts(); len(a) != 1 || a[0].Location != "mirror.example.com/ns" {
		t.Errorf("attempts = %+v", a)
	}

	res = mustResolve(t, in, "registry.example.com/ns/app:v1")
	wantEndpoints(t, res, "mirror.example.com/ns skipped("+SkipDigestOnlyForTag+") | registry.example.com/ns source blocked")
	if len(res.Attempts()) != 0 {
		t.Errorf("a tag pull under NeverContactSource with digest mirrors has nowhere to go: %+v", res.Attempts())
	}
}

func TestResolveBlockedMirror(t *testing.T) {
	in := Input{
		Image:            img(nil, list("block.io"), nil),
		DigestMirrorSets: []configv1.ImageDigestMirrorSet{idms("d", dm("quay.io/team", "block.io/team"))},
	}
	res := mustResolve(t, in, "quay.io/team/app"+appDigest)
	wantEndpoints(t, res, "block.io/team blocked | quay.io/team source")
	if res.SucceedsDisconnected(nil) {
		t.Error("a blocked mirror cannot serve the pull")
	}
}

// Shadowing (registries.md pitfall 2): the ITMS table on the index repository wins for
// every reference below it, so digest pulls there lose the registry-wide IDMS mirror.
func TestResolveLongestPrefixWins(t *testing.T) {
	in := Input{
		DigestMirrorSets: []configv1.ImageDigestMirrorSet{idms("d", dm("registry.redhat.io", "mirror.example.com/rh"))},
		TagMirrorSets:    []configv1.ImageTagMirrorSet{itms("t", tm("registry.redhat.io/redhat", "mirror.example.com/rh-tags"))},
	}
	res := mustResolve(t, in, "registry.redhat.io/redhat/redhat-operator-index"+appDigest)
	if res.Prefix != "registry.redhat.io/redhat" {
		t.Errorf("prefix = %q, want the longer registry.redhat.io/redhat", res.Prefix)
	}
	wantEndpoints(t, res, "mirror.example.com/rh-tags skipped("+SkipTagOnlyForDigest+") | registry.redhat.io/redhat source")

	res = mustResolve(t, in, "registry.redhat.io/redhat/redhat-operator-index:v4.16")
	wantEndpoints(t, res, "mirror.example.com/rh-tags | registry.redhat.io/redhat source")
	if got := res.Endpoints[0].Reference; got != "mirror.example.com/rh-tags/redhat-operator-index:v4.16" {
		t.Errorf("tag mirror reference = %q", got)
	}

	res = mustResolve(t, in, "registry.redhat.io/ubi9/ubi"+appDigest)
	if res.Prefix != "registry.redhat.io" {
		t.Errorf("prefix = %q", res.Prefix)
	}
	wantEndpoints(t, res, "mirror.example.com/rh | registry.redhat.io source")
}

// Wildcard sources rewrite without the host (registries.md pitfall 3).
func TestResolveWildcardDropsHost(t *testing.T) {
	in := Input{DigestMirrorSets: []configv1.ImageDigestMirrorSet{idms("d", dm("*.example.com", "cache.mirror.io/example"))}}
	res := mustResolve(t, in, "a.example.com/ns/app"+appDigest)
	if res.Prefix != "*.example.com" {
		t.Errorf("prefix = %q", res.Prefix)
	}
	if got := res.Endpoints[0].Reference; got != "cache.mirror.io/example/ns/app"+appDigest {
		t.Errorf("wildcard mirror reference = %q", got)
	}
	if src := res.Endpoints[1]; src.Location != "" || src.Reference != "a.example.com/ns/app"+appDigest {
		t.Errorf("wildcard source endpoint = %+v", src)
	}
}

func TestResolveWithoutMatchingTable(t *testing.T) {
	res := mustResolve(t, digestOnly, "busybox")
	if res.Reference != "docker.io/library/busybox:latest" || res.Prefix != "" {
		t.Errorf("reference %q prefix %q", res.Reference, res.Prefix)
	}
	wantEndpoints(t, res, "docker.io/library/busybox source")
}

func TestResolveLegacyMirrorByDigestOnly(t *testing.T) {
	in := Input{Minor: 12, ContentSourcePolicies: []operatorv1alpha1.ImageContentSourcePolicy{icsp("p", rdm(srcNS, "mirror.example.com/ns"))}}
	res := mustResolve(t, in, "registry.example.com/ns/app:v1")
	wantEndpoints(t, res, "mirror.example.com/ns skipped("+SkipMirrorByDigestOnly+") | registry.example.com/ns source")
	res = mustResolve(t, in, "registry.example.com/ns/app"+appDigest)
	wantEndpoints(t, res, "mirror.example.com/ns | registry.example.com/ns source")
}

// A mirror entry that repeats the source still contacts the source.
func TestResolveSourceListedAsMirror(t *testing.T) {
	in := Input{DigestMirrorSets: []configv1.ImageDigestMirrorSet{idms("d", dm(srcNS, srcNS, "mirror.example.com/ns"))}}
	res := mustResolve(t, in, "registry.example.com/ns/app"+appDigest)
	wantEndpoints(t, res, "registry.example.com/ns source | mirror.example.com/ns | registry.example.com/ns source")
	if !res.Endpoints[0].Mirror {
		t.Error("first endpoint is a [[registry.mirror]] entry")
	}
	if res.SucceedsDisconnected(func(loc string) bool { return loc != "mirror.example.com/ns" }) {
		t.Error("only the source-as-mirror is reachable: not disconnected-safe")
	}
}

func TestLoadAndResolveReturnContainersImageErrors(t *testing.T) {
	for name, file := range map[string]string{
		"not TOML":           "[[registry]\n",
		"wildcard with path": "[[registry]]\nprefix = \"*.example.com/ns\"\n",
		"mixed mirror styles": `[[registry]]
location = "a.example.com"
mirror-by-digest-only = true
[[registry.mirror]]
location = "m.example.com"
pull-from-mirror = "tag-only"
`,
	} {
		t.Run(name, func(t *testing.T) {
			if err := Load([]byte(file)); err == nil {
				t.Error("Load accepted an invalid file")
			}
			if _, err := Resolve([]byte(file), "a.example.com/app:v1"); err == nil {
				t.Error("Resolve accepted an invalid file")
			}
		})
	}
	if _, err := Resolve(mustRender(t, digestOnly), "Not A Reference"); err == nil {
		t.Error("Resolve accepted an invalid reference")
	}
}

// TestAnswersRemembered: c/image's answer for a file and a reference is
// worked out once; each caller gets its own copy, and another file (even
// one byte apart) gets its own answer.
func TestAnswersRemembered(t *testing.T) {
	data := mustRender(t, digestOnly)
	ref := "registry.example.com/ns/app" + appDigest
	first, err := Resolve(data, ref)
	if err != nil {
		t.Fatal(err)
	}
	want := endpointsSummary(first.Endpoints)
	first.Endpoints[0].Location = "changed by a caller"
	again, err := Resolve(data, ref)
	if err != nil {
		t.Fatal(err)
	}
	if got := endpointsSummary(again.Endpoints); got != want {
		t.Errorf("a caller's change leaked into the remembered answer: %s", got)
	}
	key := answerKey{conf: sha256.Sum256(data), ref: "\x00" + ref}
	answers.Lock()
	_, ok := answers.m[key]
	answers.Unlock()
	if !ok {
		t.Errorf("the answer is not remembered")
	}
	// Another file: the mirror is gone, so the digest pull goes to the source.
	other := []byte(strings.Replace(string(data), "mirror.example.com/ns", "mirror.example.com/nt", 1))
	res, err := Resolve(other, ref)
	if err != nil {
		t.Fatal(err)
	}
	if got := endpointsSummary(res.Endpoints); got == want {
		t.Errorf("another file got the first file's answer: %s", got)
	}
	// A refusal is remembered as the same refusal.
	bad := []byte("[[registry]]\nprefix = \"example.com\"\nlocation = \"\"\n[[registry]]\nprefix = \"example.com\"\nlocation = \"x.example.com\"\n")
	e1, e2 := Load(bad), Load(bad)
	if e1 == nil || e2 == nil || e1.Error() != e2.Error() {
		t.Errorf("refusal not remembered: %v / %v", e1, e2)
	}
	// The bound: a full table starts over.
	answers.Lock()
	answers.m = map[answerKey]answer{}
	for i := range maxAnswers {
		answers.m[answerKey{ref: fmt.Sprint(i)}] = answer{}
	}
	answers.Unlock()
	if _, err := Resolve(data, ref); err != nil {
		t.Fatal(err)
	}
	answers.Lock()
	n := len(answers.m)
	answers.Unlock()
	if n != 1 {
		t.Errorf("%d answers after the table filled up, want 1", n)
	}
}
