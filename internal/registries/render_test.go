package registries

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	configv1 "github.com/openshift/api/config/v1"
	operatorv1alpha1 "github.com/openshift/api/operator/v1alpha1"
)

// Headers of the files MCO writes (compared semantically, so quoting does not matter).
const (
	templateFile = `unqualified-search-registries = ["registry.access.redhat.com", "docker.io"]
`
	header413 = `unqualified-search-registries = ["registry.access.redhat.com", "docker.io"]
short-name-mode = ""
`
	headerLatest = header413 + `additional-layer-store-auth-helper = ""
`
	payloadDigest  = "sha256:4207ba569ff014931f1b5d125fe3751936a768e119546683c899eb09f3cdceb0"
	releaseImage   = "quay.io/openshift-release-dev/ocp-release@" + payloadDigest
	srcNS          = "registry.example.com/ns"
	registriesCtx  = "could not update registries config with new changes: "
	policyCtx      = "could not update policy json with new changes: "
	conflictSuffix = ` in imagedigestmirrorsets, imagetagmirrorsets, or imagecontentsourcepolicies`
)

type renderCase struct {
	name       string
	in         Input
	want       string // expected file, compared semantically
	notWritten bool   // MCO leaves the template alone
	wantWarn   string // substring of one warning
	wantErr    string // exact error text (MCO's, with MCO's context)
	errIs      error  // sentinel the error or warning matches
}

var renderCases = []renderCase{
	{
		name:       "nothing configured: template only, not written",
		in:         Input{},
		want:       templateFile,
		notWritten: true,
	},
	{
		name:       "allowed registries only: policy.json only, registries.conf not written",
		in:         Input{Image: img(nil, nil, list("quay.io", "registry.redhat.io"))},
		want:       templateFile,
		notWritten: true,
	},
	{
		name: "an empty IDMS object still makes MCO write the file",
		in:   Input{DigestMirrorSets: []configv1.ImageDigestMirrorSet{idms("empty")}},
		want: headerLatest,
	},
	{
		name: "IDMS mirrors are digest-only, latest writes the layer-store helper key",
		in: Input{DigestMirrorSets: []configv1.ImageDigestMirrorSet{
			idms("a", dm(srcNS, "mirror-1.example.com/ns", "mirror-2.example.com/ns")),
		}},
		want: headerLatest + `
[[registry]]
  prefix = ""
  location = "registry.example.com/ns"
  [[registry.mirror]]
    location = "mirror-1.example.com/ns"
    pull-from-mirror = "digest-only"
  [[registry.mirror]]
    location = "mirror-2.example.com/ns"
    pull-from-mirror = "digest-only"
`,
	},
	{
		name: "4.16 has no additional-layer-store-auth-helper key",
		in: Input{Minor: 16, DigestMirrorSets: []configv1.ImageDigestMirrorSet{
			idms("a", dm(srcNS, "mirror.example.com/ns")),
		}},
		want: header413 + `
[[registry]]
  prefix = ""
  location = "registry.example.com/ns"
  [[registry.mirror]]
    location = "mirror.example.com/ns"
    pull-from-mirror = "digest-only"
`,
	},
	{
		name: "merge across objects follows the preference edges (B,C)+(A,B)=(A,B,C)",
		in: Input{DigestMirrorSets: []configv1.ImageDigestMirrorSet{
			idms("first", dm(srcNS, "y2.mirror.io", "x3.mirror.io")),
			idms("second", dm(srcNS, "z1.mirror.io", "y2.mirror.io")),
		}},
		want: headerLatest + `
[[registry]]
  prefix = ""
  location = "registry.example.com/ns"
  [[registry.mirror]]
    location = "z1.mirror.io"
    pull-from-mirror = "digest-only"
  [[registry.mirror]]
    location = "y2.mirror.io"
    pull-from-mirror = "digest-only"
  [[registry.mirror]]
    location = "x3.mirror.io"
    pull-from-mirror = "digest-only"
`,
	},
	{
		name: "unordered mirrors tie-break lexicographically",
		in: Input{DigestMirrorSets: []configv1.ImageDigestMirrorSet{
			idms("a", dm(srcNS, "z.mirror.io")),
			idms("b", dm(srcNS, "y.mirror.io")),
		}},
		want: headerLatest + `
[[registry]]
  prefix = ""
  location = "registry.example.com/ns"
  [[registry.mirror]]
    location = "y.mirror.io"
    pull-from-mirror = "digest-only"
  [[registry.mirror]]
    location = "z.mirror.io"
    pull-from-mirror = "digest-only"
`,
	},
	{
		// (a,z)+(b,c): roots a,b; a frees z, b frees c; the FIFO gives a,b,z,c (not a,b,c,z).
		name: "topological sort is a FIFO of sorted batches, not smallest-first",
		in: Input{DigestMirrorSets: []configv1.ImageDigestMirrorSet{
			idms("a", dm(srcNS, "a.mirror.io", "z.mirror.io")),
			idms("b", dm(srcNS, "b.mirror.io", "c.mirror.io")),
		}},
		want: headerLatest + `
[[registry]]
  prefix = ""
  location = "registry.example.com/ns"
  [[registry.mirror]]
    location = "a.mirror.io"
    pull-from-mirror = "digest-only"
  [[registry.mirror]]
    location = "b.mirror.io"
    pull-from-mirror = "digest-only"
  [[registry.mirror]]
    location = "z.mirror.io"
    pull-from-mirror = "digest-only"
  [[registry.mirror]]
    location = "c.mirror.io"
    pull-from-mirror = "digest-only"
`,
	},
	{
		// (m2,m1)+(m1,m2) is a cycle: it is broken by the lexicographically first mirror.
		name: "cycle broken by the lexicographically first unused mirror",
		in: Input{DigestMirrorSets: []configv1.ImageDigestMirrorSet{
			idms("a", dm(srcNS, "m2.mirror.io", "m1.mirror.io")),
			idms("b", dm(srcNS, "m1.mirror.io", "m2.mirror.io")),
		}},
		want: headerLatest + `
[[registry]]
  prefix = ""
  location = "registry.example.com/ns"
  [[registry.mirror]]
    location = "m1.mirror.io"
    pull-from-mirror = "digest-only"
  [[registry.mirror]]
    location = "m2.mirror.io"
    pull-from-mirror = "digest-only"
`,
	},
	{
		name: "duplicate mirrors across IDMS and ICSP collapse",
		in: Input{
			DigestMirrorSets: []configv1.ImageDigestMirrorSet{
				idms("a", dm(srcNS, "m1.mirror.io", "m2.mirror.io")),
				idms("b", dm(srcNS, "m1.mirror.io", "m2.mirror.io")),
			},
			ContentSourcePolicies: []operatorv1alpha1.ImageContentSourcePolicy{icsp("c", rdm(srcNS, "m1.mirror.io"))},
		},
		want: headerLatest + `
[[registry]]
  prefix = ""
  location = "registry.example.com/ns"
  [[registry.mirror]]
    location = "m1.mirror.io"
    pull-from-mirror = "digest-only"
  [[registry.mirror]]
    location = "m2.mirror.io"
    pull-from-mirror = "digest-only"
`,
	},
	{
		name: "source listed last is dropped",
		in: Input{DigestMirrorSets: []configv1.ImageDigestMirrorSet{
			idms("a", dm(srcNS, "m1.mirror.io", srcNS)),
		}},
		want: headerLatest + `
[[registry]]
  prefix = ""
  location = "registry.example.com/ns"
  [[registry.mirror]]
    location = "m1.mirror.io"
    pull-from-mirror = "digest-only"
`,
	},
	{
		name: "source listed before other mirrors stays in the mirror list",
		in: Input{DigestMirrorSets: []configv1.ImageDigestMirrorSet{
			idms("a", dm(srcNS, srcNS, "m1.mirror.io")),
		}},
		want: headerLatest + `
[[registry]]
  prefix = ""
  location = "registry.example.com/ns"
  [[registry.mirror]]
    location = "registry.example.com/ns"
    pull-from-mirror = "digest-only"
  [[registry.mirror]]
    location = "m1.mirror.io"
    pull-from-mirror = "digest-only"
`,
	},
	{
		name: "entries with no mirror or only the source are ignored, policy included",
		in: Input{
			DigestMirrorSets: []configv1.ImageDigestMirrorSet{idms("a",
				dmNever("a.example.com"),
				dm("b.example.com", "b.example.com", "b.example.com"),
				dm("c.example.com", "mirror.io/c"),
			)},
			ContentSourcePolicies: []operatorv1alpha1.ImageContentSourcePolicy{icsp("p", rdm("d.example.com"))},
		},
		want: headerLatest + `
[[registry]]
  prefix = ""
  location = "c.example.com"
  [[registry.mirror]]
    location = "mirror.io/c"
    pull-from-mirror = "digest-only"
`,
	},
	{
		name: "sources are emitted in sorted order",
		in: Input{DigestMirrorSets: []configv1.ImageDigestMirrorSet{idms("a",
			dm("zeta.example.com", "mirror.io/zeta"),
			dm("alpha.example.com", "mirror.io/alpha"),
		)}},
		want: headerLatest + `
[[registry]]
  prefix = ""
  location = "alpha.example.com"
  [[registry.mirror]]
    location = "mirror.io/alpha"
    pull-from-mirror = "digest-only"
[[registry]]
  prefix = ""
  location = "zeta.example.com"
  [[registry.mirror]]
    location = "mirror.io/zeta"
    pull-from-mirror = "digest-only"
`,
	},
	{
		name: "tag-only sources come after all digest sources",
		in: Input{
			DigestMirrorSets: []configv1.ImageDigestMirrorSet{idms("d", dm("b.example.com", "mirror.io/b"))},
			TagMirrorSets:    []configv1.ImageTagMirrorSet{itms("t", tm("a.example.com", "mirror.io/a"))},
		},
		want: headerLatest + `
[[registry]]
  prefix = ""
  location = "b.example.com"
  [[registry.mirror]]
    location = "mirror.io/b"
    pull-from-mirror = "digest-only"
[[registry]]
  prefix = ""
  location = "a.example.com"
  [[registry.mirror]]
    location = "mirror.io/a"
    pull-from-mirror = "tag-only"
`,
	},
	{
		name: "digest mirrors before tag mirrors on one source",
		in: Input{
			DigestMirrorSets: []configv1.ImageDigestMirrorSet{idms("d", dm(srcNS, "d1.mirror.io/ns", "d2.mirror.io/ns"))},
			TagMirrorSets:    []configv1.ImageTagMirrorSet{itms("t", tm(srcNS, "t1.mirror.io/ns"))},
		},
		want: headerLatest + `
[[registry]]
  prefix = ""
  location = "registry.example.com/ns"
  [[registry.mirror]]
    location = "d1.mirror.io/ns"
    pull-from-mirror = "digest-only"
  [[registry.mirror]]
    location = "d2.mirror.io/ns"
    pull-from-mirror = "digest-only"
  [[registry.mirror]]
    location = "t1.mirror.io/ns"
    pull-from-mirror = "tag-only"
`,
	},
	{
		name: "wildcard source becomes a prefix without location",
		in: Input{DigestMirrorSets: []configv1.ImageDigestMirrorSet{
			idms("a", dm("*.example.com", "mirror.io/example")),
		}},
		want: headerLatest + `
[[registry]]
  prefix = "*.example.com"
  [[registry.mirror]]
    location = "mirror.io/example"
    pull-from-mirror = "digest-only"
`,
	},
	{
		name: "NeverContactSource blocks the source table, digest and tag alike",
		in: Input{
			DigestMirrorSets: []configv1.ImageDigestMirrorSet{idms("d",
				dmNever(srcNS, "mirror.io/ns"),
				dmAllow("other.example.com", "mirror.io/other"),
			)},
			TagMirrorSets: []configv1.ImageTagMirrorSet{itms("t", tmNever(srcNS, "tags.mirror.io/ns"))},
		},
		want: headerLatest + `
[[registry]]
  prefix = ""
  location = "other.example.com"
  [[registry.mirror]]
    location = "mirror.io/other"
    pull-from-mirror = "digest-only"
[[registry]]
  prefix = ""
  location = "registry.example.com/ns"
  blocked = true
  [[registry.mirror]]
    location = "mirror.io/ns"
    pull-from-mirror = "digest-only"
  [[registry.mirror]]
    location = "tags.mirror.io/ns"
    pull-from-mirror = "tag-only"
`,
	},
	{
		name: "ICSP merges with IDMS as digest-only mirrors",
		in: Input{
			DigestMirrorSets:      []configv1.ImageDigestMirrorSet{idms("d", dm("registry-a.com", "mirror-idms.registry-a.com"))},
			ContentSourcePolicies: []operatorv1alpha1.ImageContentSourcePolicy{icsp("p", rdm("registry-a.com", "mirror-icsp.registry-a.com"))},
		},
		want: headerLatest + `
[[registry]]
  prefix = ""
  location = "registry-a.com"
  [[registry.mirror]]
    location = "mirror-icsp.registry-a.com"
    pull-from-mirror = "digest-only"
  [[registry.mirror]]
    location = "mirror-idms.registry-a.com"
    pull-from-mirror = "digest-only"
`,
	},
	{
		name: "insecure scope marks itself, nested tables and mirrors located in it",
		in: Input{
			Image: img(list("insecure.com"), nil, nil),
			DigestMirrorSets: []configv1.ImageDigestMirrorSet{idms("d",
				dm("insecure.com/ns", "insecure.com/mirror", "other.com/ns"),
				dm("other.com/src", "insecure.com/other"),
			)},
		},
		want: headerLatest + `
[[registry]]
  prefix = ""
  location = "insecure.com/ns"
  insecure = true
  [[registry.mirror]]
    location = "insecure.com/mirror"
    insecure = true
    pull-from-mirror = "digest-only"
  [[registry.mirror]]
    location = "other.com/ns"
    pull-from-mirror = "digest-only"
[[registry]]
  prefix = ""
  location = "other.com/src"
  [[registry.mirror]]
    location = "insecure.com/other"
    insecure = true
    pull-from-mirror = "digest-only"
[[registry]]
  prefix = ""
  location = "insecure.com"
  insecure = true
`,
	},
	{
		name: "blocked scope marks itself and nested tables, not mirrors",
		in: Input{
			Image:            img(nil, list("blocked.com"), nil),
			DigestMirrorSets: []configv1.ImageDigestMirrorSet{idms("d", dm("blocked.com/ns", "blocked.com/mirror", "other.com/ns"))},
		},
		want: headerLatest + `
[[registry]]
  prefix = ""
  location = "blocked.com/ns"
  blocked = true
  [[registry.mirror]]
    location = "blocked.com/mirror"
    pull-from-mirror = "digest-only"
  [[registry.mirror]]
    location = "other.com/ns"
    pull-from-mirror = "digest-only"
[[registry]]
  prefix = ""
  location = "blocked.com"
  blocked = true
`,
	},
	{
		name: "wildcard insecure and blocked scopes: blocked tables first, insecure reaches nested wildcards",
		in: Input{Image: img(
			list("*.insecure-example.com"),
			list("*.blocked.insecure-example.com", "*.blocked-example.com"),
			nil,
		)},
		want: headerLatest + `
[[registry]]
  prefix = "*.blocked.insecure-example.com"
  insecure = true
  blocked = true
[[registry]]
  prefix = "*.blocked-example.com"
  blocked = true
[[registry]]
  prefix = "*.insecure-example.com"
  insecure = true
`,
	},
	{
		name: "nested scopes without own mirrors get the parent's mirrors with the path appended",
		in: Input{
			Image:            img(list("primary.com/top/insecure"), list("primary.com/top/blocked"), nil),
			DigestMirrorSets: []configv1.ImageDigestMirrorSet{idms("d", dm("primary.com/top", "mirror.com/primary"))},
			TagMirrorSets:    []configv1.ImageTagMirrorSet{itms("t", tm("primary.com/top", "mirror-tag.com/primary"))},
		},
		want: headerLatest + `
[[registry]]
  prefix = ""
  location = "primary.com/top"
  [[registry.mirror]]
    location = "mirror.com/primary"
    pull-from-mirror = "digest-only"
  [[registry.mirror]]
    location = "mirror-tag.com/primary"
    pull-from-mirror = "tag-only"
[[registry]]
  prefix = ""
  location = "primary.com/top/blocked"
  blocked = true
  [[registry.mirror]]
    location = "mirror.com/primary/blocked"
    pull-from-mirror = "digest-only"
  [[registry.mirror]]
    location = "mirror-tag.com/primary/blocked"
    pull-from-mirror = "tag-only"
[[registry]]
  prefix = ""
  location = "primary.com/top/insecure"
  insecure = true
  [[registry.mirror]]
    location = "mirror.com/primary/insecure"
    pull-from-mirror = "digest-only"
  [[registry.mirror]]
    location = "mirror-tag.com/primary/insecure"
    pull-from-mirror = "tag-only"
`,
	},
	{
		name: "nested scope with its own mirrors inherits nothing",
		in: Input{
			Image: img(nil, list("primary.com/top/sub"), nil),
			DigestMirrorSets: []configv1.ImageDigestMirrorSet{idms("d",
				dm("primary.com/top", "mirror.com/primary"),
				dm("primary.com/top/sub", "mirror.com/sub"),
			)},
		},
		want: headerLatest + `
[[registry]]
  prefix = ""
  location = "primary.com/top"
  [[registry.mirror]]
    location = "mirror.com/primary"
    pull-from-mirror = "digest-only"
[[registry]]
  prefix = ""
  location = "primary.com/top/sub"
  blocked = true
  [[registry.mirror]]
    location = "mirror.com/sub"
    pull-from-mirror = "digest-only"
`,
	},
	{
		// MCO copies from the first mirrored source in sorted order that contains the table,
		// so a.example.com/x/y gets a.example.com's mirrors, not the closer a.example.com/x's.
		name: "nested copy comes from the first mirrored parent, not the closest",
		in: Input{
			Image: img(list("a.example.com/x/y"), nil, nil),
			DigestMirrorSets: []configv1.ImageDigestMirrorSet{idms("d",
				dm("a.example.com", "mirror.io/a"),
				dm("a.example.com/x", "mirror.io/x"),
			)},
		},
		want: headerLatest + `
[[registry]]
  prefix = ""
  location = "a.example.com"
  [[registry.mirror]]
    location = "mirror.io/a"
    pull-from-mirror = "digest-only"
[[registry]]
  prefix = ""
  location = "a.example.com/x"
  [[registry.mirror]]
    location = "mirror.io/x"
    pull-from-mirror = "digest-only"
[[registry]]
  prefix = ""
  location = "a.example.com/x/y"
  insecure = true
  [[registry.mirror]]
    location = "mirror.io/a/x/y"
    pull-from-mirror = "digest-only"
`,
	},
	{
		name: "NeverContactSource blocked is not propagated to nested tables",
		in: Input{
			Image:            img(list("primary.com/top/insecure"), nil, nil),
			DigestMirrorSets: []configv1.ImageDigestMirrorSet{idms("d", dmNever("primary.com/top", "mirror.com/primary"))},
		},
		want: headerLatest + `
[[registry]]
  prefix = ""
  location = "primary.com/top"
  blocked = true
  [[registry.mirror]]
    location = "mirror.com/primary"
    pull-from-mirror = "digest-only"
[[registry]]
  prefix = ""
  location = "primary.com/top/insecure"
  insecure = true
  [[registry.mirror]]
    location = "mirror.com/primary/insecure"
    pull-from-mirror = "digest-only"
`,
	},
	{
		name: "4.12 writes mirror-by-digest-only for ICSP sources and nested copies, ignores IDMS",
		in: Input{
			Minor:                 12,
			Image:                 img(list("registry.example.com/ns/insecure"), nil, nil),
			ContentSourcePolicies: []operatorv1alpha1.ImageContentSourcePolicy{icsp("p", rdm(srcNS, "mirror.example.com/ns"))},
			DigestMirrorSets:      []configv1.ImageDigestMirrorSet{idms("ignored", dm("ignored.example.com", "mirror.io/ignored"))},
		},
		want: header413 + `
[[registry]]
  prefix = ""
  location = "registry.example.com/ns"
  mirror-by-digest-only = true
  [[registry.mirror]]
    location = "mirror.example.com/ns"
[[registry]]
  prefix = ""
  location = "registry.example.com/ns/insecure"
  insecure = true
  mirror-by-digest-only = true
  [[registry.mirror]]
    location = "mirror.example.com/ns/insecure"
`,
		wantWarn: "the 4.12 MCO ignores them",
		errIs:    ErrMirrorSetsUnsupported,
	},
	{
		name: "blocked payload repository without a mirror is dropped with MCO's log text",
		in: Input{
			ReleaseImage: releaseImage,
			Image:        img(nil, list("quay.io", "block.io"), nil),
		},
		want: headerLatest + `
[[registry]]
  prefix = ""
  location = "block.io"
  blocked = true
`,
		wantWarn: `error adding ["quay.io"] to blocked registries, cannot block the repository being used by the payload`,
		errIs:    ErrPayloadRepositoryBlocked,
	},
	{
		name: "only the payload registry blocked: dropped, so MCO does not write the file",
		in: Input{
			ReleaseImage: releaseImage,
			Image:        img(nil, list("quay.io/openshift-release-dev"), nil),
		},
		want:       templateFile,
		notWritten: true,
		wantWarn:   `error adding ["quay.io/openshift-release-dev"] to blocked registries`,
		errIs:      ErrPayloadRepositoryBlocked,
	},
	{
		name: "blocked payload registry kept when an unblocked digest mirror serves the payload",
		in: Input{
			ReleaseImage:     releaseImage,
			Image:            img(nil, list("quay.io"), nil),
			DigestMirrorSets: []configv1.ImageDigestMirrorSet{idms("d", dm("quay.io/openshift-release-dev", "mirror.example.com/ocp"))},
		},
		want: headerLatest + `
[[registry]]
  prefix = ""
  location = "quay.io/openshift-release-dev"
  blocked = true
  [[registry.mirror]]
    location = "mirror.example.com/ocp"
    pull-from-mirror = "digest-only"
[[registry]]
  prefix = ""
  location = "quay.io"
  blocked = true
`,
	},
	{
		name: "a payload mirror inside a blocked scope does not save the blocked payload registry",
		in: Input{
			ReleaseImage:     releaseImage,
			Image:            img(nil, list("quay.io", "block.io"), nil),
			DigestMirrorSets: []configv1.ImageDigestMirrorSet{idms("d", dm("quay.io/openshift-release-dev", "block.io/openshift-release-dev"))},
		},
		want: headerLatest + `
[[registry]]
  prefix = ""
  location = "quay.io/openshift-release-dev"
  [[registry.mirror]]
    location = "block.io/openshift-release-dev"
    pull-from-mirror = "digest-only"
[[registry]]
  prefix = ""
  location = "block.io"
  blocked = true
`,
		wantWarn: `error adding ["quay.io"] to blocked registries`,
		errIs:    ErrPayloadRepositoryBlocked,
	},

	// Errors: MCO refuses to render; texts are MCO's, with MCO's context.
	{
		name: "error: conflicting mirrorSourcePolicy between IDMS objects",
		in: Input{DigestMirrorSets: []configv1.ImageDigestMirrorSet{
			idms("a", dmNever(srcNS, "m1.mirror.io")),
			idms("b", dm(srcNS, "m2.mirror.io")),
		}},
		wantErr: registriesCtx + `conflicting mirrorSourcePolicy is set for the same source "registry.example.com/ns"` + conflictSuffix,
		errIs:   ErrConflictingMirrorSourcePolicy,
	},
	{
		name: "error: ICSP counts as AllowContactingSource against an IDMS NeverContactSource",
		in: Input{
			DigestMirrorSets:      []configv1.ImageDigestMirrorSet{idms("a", dmNever(srcNS, "m1.mirror.io"))},
			ContentSourcePolicies: []operatorv1alpha1.ImageContentSourcePolicy{icsp("p", rdm(srcNS, "m2.mirror.io"))},
		},
		wantErr: registriesCtx + `conflicting mirrorSourcePolicy is set for the same source "registry.example.com/ns"` + conflictSuffix,
		errIs:   ErrConflictingMirrorSourcePolicy,
	},
	{
		name: "error: one policy per source across IDMS and ITMS",
		in: Input{
			DigestMirrorSets: []configv1.ImageDigestMirrorSet{idms("a", dm(srcNS, "m1.mirror.io"))},
			TagMirrorSets:    []configv1.ImageTagMirrorSet{itms("t", tmNever(srcNS, "t1.mirror.io"))},
		},
		wantErr: registriesCtx + `conflicting mirrorSourcePolicy is set for the same source "registry.example.com/ns"` + conflictSuffix,
		errIs:   ErrConflictingMirrorSourcePolicy,
	},
	{
		name: "error: the policy of a mirror-less entry still takes part in the conflict check",
		in: Input{DigestMirrorSets: []configv1.ImageDigestMirrorSet{
			idms("a", dmNever(srcNS)),
			idms("b", dm(srcNS, "m1.mirror.io")),
		}},
		wantErr: registriesCtx + `conflicting mirrorSourcePolicy is set for the same source "registry.example.com/ns"` + conflictSuffix,
		errIs:   ErrConflictingMirrorSourcePolicy,
	},
	{
		name: "error: NeverContactSource with the source among the mirrors",
		in: Input{DigestMirrorSets: []configv1.ImageDigestMirrorSet{
			idms("a", dmNever(srcNS, "m1.mirror.io", srcNS)),
		}},
		wantErr: registriesCtx + `cannot set mirrorSourcePolicy: NeverContactSource if the source "registry.example.com/ns" is one of the mirrors`,
		errIs:   ErrNeverContactSourceIsMirror,
	},
	{
		name: "error: invalid source format (ICSP has no CRD pattern)",
		in: Input{ContentSourcePolicies: []operatorv1alpha1.ImageContentSourcePolicy{
			icsp("p", rdm("registry.example.com/ns:v1", "mirror.io/ns")),
		}},
		wantErr: registriesCtx + `invalid format for source "registry.example.com/ns:v1"`,
		errIs:   ErrInvalidSource,
	},
	{
		name: "error: invalid mirror format (scheme)",
		in: Input{DigestMirrorSets: []configv1.ImageDigestMirrorSet{
			idms("a", dm(srcNS, "https://mirror.io/ns")),
		}},
		wantErr: registriesCtx + `invalid format for mirror "https://mirror.io/ns"`,
		errIs:   ErrInvalidMirror,
	},
	{
		name:    "error: invalid insecure registries entry",
		in:      Input{Image: img(list("*example.com"), nil, nil)},
		wantErr: registriesCtx + `invalid entry for insecure registries "*example.com"`,
		errIs:   ErrInvalidScope,
	},
	{
		name:    "error: invalid blocked registries entry",
		in:      Input{Image: img(nil, list("example.*.com"), nil)},
		wantErr: registriesCtx + `invalid entry for blocked registries "example.*.com"`,
		errIs:   ErrInvalidScope,
	},
	{
		name:    "error: invalid allowed registries entry (policy.json path)",
		in:      Input{Image: img(nil, nil, list("*.example.com/foo"))},
		wantErr: policyCtx + `invalid entry for allowed registries "*.example.com/foo"`,
		errIs:   ErrInvalidScope,
	},
	{
		name:    "error: allowed and blocked registries both set",
		in:      Input{Image: img(nil, list("block.io"), list("allow.io"))},
		wantErr: policyCtx + `invalid images config: only one of AllowedRegistries or BlockedRegistries may be specified`,
		errIs:   ErrAllowedAndBlocked,
	},
	{
		name: "error: allowed and blocked both set even when MCO allowed the payload repository itself",
		in: Input{
			ReleaseImage:     releaseImage,
			Image:            img(nil, list("quay.io"), list("allow.io")),
			DigestMirrorSets: []configv1.ImageDigestMirrorSet{idms("d", dm("quay.io/openshift-release-dev", "mirror.example.com/ocp"))},
		},
		wantErr: policyCtx + `invalid images config: only one of AllowedRegistries or BlockedRegistries may be specified`,
		errIs:   ErrAllowedAndBlocked,
	},
	{
		name: "error: wildcard mirror source with a mirror-less nested entry",
		in: Input{
			Image:            img(list("foo.example.com"), nil, nil),
			DigestMirrorSets: []configv1.ImageDigestMirrorSet{idms("d", dm("*.example.com", "mirror.io/example"))},
		},
		wantErr: registriesCtx + `internal error: mirrorsAdjustedForNestedScope for a wildcard scope "*.example.com"`,
		errIs:   ErrWildcardNestedScope,
	},
	{
		name:    "error: release image that is not a fully qualified reference",
		in:      Input{ReleaseImage: "ocp-release:4.16", Image: img(nil, list("quay.io"), nil)},
		wantErr: `error parsing reference of release image`,
		errIs:   ErrReleaseImage,
	},
}

func TestRender(t *testing.T) {
	if len(renderCases) < 25 {
		t.Fatalf("the table must keep at least 25 cases, has %d", len(renderCases))
	}
	for _, tc := range renderCases {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := Render(tc.in)
			if tc.wantErr != "" {
				if err == nil {
					t.Fatalf("Render succeeded, want error %q", tc.wantErr)
				}
				if err.Error() != tc.wantErr {
					t.Errorf("error text\n got: %s\nwant: %s", err, tc.wantErr)
				}
				if tc.errIs != nil && !errors.Is(err, tc.errIs) {
					t.Errorf("error %v does not match sentinel %v", err, tc.errIs)
				}
				return
			}
			if err != nil {
				t.Fatalf("Render: %v", err)
			}
			data, err := cfg.TOML()
			if err != nil {
				t.Fatalf("TOML: %v", err)
			}
			assertSameTOML(t, data, tc.want)
			if err := Load(data); err != nil {
				t.Errorf("c/image rejects the rendered file: %v\n%s", err, data)
			}
			if cfg.Written == tc.notWritten {
				t.Errorf("Written = %v, want %v", cfg.Written, !tc.notWritten)
			}
			if got := WrittenByMCO(tc.in); got != cfg.Written {
				t.Errorf("WrittenByMCO = %v, Render says Written = %v", got, cfg.Written)
			}
			again := mustRender(t, tc.in)
			if !bytes.Equal(data, again) {
				t.Errorf("output is not deterministic:\n%s\n---\n%s", data, again)
			}
			checkWarnings(t, cfg.Warnings, tc.wantWarn, tc.errIs)
		})
	}
}

func checkWarnings(t *testing.T, warnings []error, want string, is error) {
	t.Helper()
	if want == "" {
		if len(warnings) != 0 {
			t.Errorf("unexpected warnings: %v", warnings)
		}
		return
	}
	for _, w := range warnings {
		if strings.Contains(w.Error(), want) && (is == nil || errors.Is(w, is)) {
			return
		}
	}
	t.Errorf("no warning containing %q (matching %v) in %v", want, is, warnings)
}
