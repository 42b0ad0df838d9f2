package rules

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/netip"
	"sort"
	"strconv"
	"strings"
	"sync"

	configv1 "github.com/openshift/api/config/v1"
	operatorv1alpha1 "github.com/openshift/api/operator/v1alpha1"
	"github.com/pelletier/go-toml/v2"
	"go.podman.io/image/v5/docker/reference"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/registries"
	"github.com/siteforge/siteforge/lint"
)

// The MIR family: image mirroring and registries (registries.md, "Pitfalls a linter must
// catch"). Every rule asks the registries engine (internal/registries) what MCO renders and how
// a node pulls; none re-implements a platform rule. Findings on objects MCO refuses carry MCO's
// exact error text, so a user can grep the machine-config-controller log for it.

// mcoRefusal is what every finding about a refused render says first.
const mcoRefusal = "MCO refuses to render registries.conf (the nodes keep the previous file; the error shows only in the machine-config-controller log)"

func init() {
	for _, r := range []*lint.Rule{
		{
			ID:       "MIR001",
			Name:     "tag-pull-under-digest-only-mirrors",
			Severity: lint.Error,
			Summary:  "an image pulled by tag is covered only by digest mirrors or a blocked source",
			Rationale: "CRI-O (containers/image sysregistriesv2) skips digest-only mirrors for tag references, so a TAG pull under ImageDigestMirrorSet or " +
				"ImageContentSourcePolicy coverage goes to the source alone (registries.md section 3). When the source is blocked " +
				"(mirrorSourcePolicy NeverContactSource) or the cluster is disconnected, the pull fails with ImagePullBackOff: the classic case is an " +
				"operator catalog index such as registry.redhat.io/redhat/redhat-operator-index:v4.16, which CatalogSources pull by tag. " +
				"Checked for CatalogSources, ClusterCatalogs, workload containers and a site's mirroring.images.",
			Fix: "Add an ImageTagMirrorSet for the repository (on the exact index repository, or on the whole registry to avoid shadowing), point the " +
				"CatalogSource at the mirror directly, or pull by digest. In a site, set serves: \"both\" on the source (a Quay pull-through cache serves tags too).",
			Check: checkTagPulls,
		},
		{
			ID:       "MIR002",
			Name:     "default-catalogs-under-digest-only-mirrors",
			Severity: lint.Error,
			Summary:  "the default operator catalogs stay enabled while registry.redhat.io is covered only by digest mirrors or a blocked source",
			Rationale: "While OperatorHub cluster leaves them enabled, the default CatalogSources in openshift-marketplace (redhat-operators, " +
				"certified-operators, community-operators, redhat-marketplace) pull registry.redhat.io/redhat/<name>-index:v4.N BY TAG " +
				"(registries.md section 4). Digest-only mirrors are skipped for tag references (c/image sysregistriesv2), so the pull goes to " +
				"registry.redhat.io, which NeverContactSource or blockedRegistries blocks and a disconnected cluster cannot reach: the catalog " +
				"pods stay in ImagePullBackOff. Plain manifests are checked when they include OperatorHub cluster; a site when it is disconnected.",
			Fix: "Set OperatorHub cluster spec.disableAllDefaultSources: true and add CatalogSources for the catalogs you mirror, or add an " +
				"ImageTagMirrorSet entry for registry.redhat.io/redhat (a Quay pull-through cache serves tags too).",
			Check: checkDefaultCatalogs,
		},
		{
			ID:       "MIR003",
			Name:     "nested-mirror-shadows-parent",
			Severity: lint.Warning,
			Summary:  "a mirror entry nested in a broader mirrored source of the other kind (digest/tag) takes the broader mirror away",
			Rationale: "c/image uses only the [[registry]] table with the longest matching prefix (sysregistriesv2 FindRegistry), and MCO copies a " +
				"parent's mirrors only into nested tables that have no mirrors of its own (runtime-utils mirrorsAdjustedForNestedScope; registries.md " +
				"section 2.8). An ImageTagMirrorSet entry on registry.redhat.io/redhat under an ImageDigestMirrorSet entry on registry.redhat.io " +
				"gets a table with tag-only mirrors, so digest pulls of everything under registry.redhat.io/redhat lose their mirror and go to the " +
				"source (registries.md section 5.2); they fail where the source is blocked or unreachable. siteforge resolves a digest and a tag " +
				"reference under the nested scope with the registries engine, with and without the nested entry.",
			Fix: "Add the entry of the other kind for the nested source too (the parent's mirrors with the extra path appended), put the nested " +
				"entry on the exact repository pulled, or mirror the whole registry for both kinds.",
			Check: checkShadowing,
		},
		{
			ID:       "MIR004",
			Name:     "conflicting-mirror-source-policy",
			Severity: lint.Error,
			Summary:  "mirror entries for one source set different mirrorSourcePolicy values",
			Rationale: "MCO allows one mirrorSourcePolicy per source across all ImageDigestMirrorSets, ImageTagMirrorSets and " +
				"ImageContentSourcePolicies (unset and ICSP entries count as AllowContactingSource) and otherwise refuses to render registries.conf: " +
				"`conflicting mirrorSourcePolicy is set for the same source %q in imagedigestmirrorsets, imagetagmirrorsets, or " +
				"imagecontentsourcepolicies` (MCO container-runtime-config helpers.go validateRegistriesConfScopes; registries.md section 2.9). " +
				"The nodes keep the previous file. The installer's policy-less ImageDigestMirrorSet image-digest-mirror next to a " +
				"NeverContactSource one is the usual cause.",
			Fix: "Give every entry for the source the same mirrorSourcePolicy (an ICSP cannot say NeverContactSource: convert it with " +
				"`oc adm migrate icsp`), or delete the stale object.",
			Check: refusalCheck(isPolicyConflict),
		},
		{
			ID:       "MIR005",
			Name:     "never-contact-source-lists-source",
			Severity: lint.Error,
			Summary:  "mirrorSourcePolicy NeverContactSource on an entry that lists its source among the mirrors",
			Rationale: "MCO refuses to render registries.conf when a NeverContactSource entry names its own source as a mirror: `cannot set " +
				"mirrorSourcePolicy: NeverContactSource if the source %q is one of the mirrors` (MCO helpers.go validateRegistriesConfScopes; " +
				"registries.md section 2.9). The nodes keep the previous file.",
			Fix:   "Remove the source from the mirrors, or use AllowContactingSource (c/image then tries the source last anyway).",
			Check: refusalCheck(func(err error) bool { return errors.Is(err, registries.ErrNeverContactSourceIsMirror) }),
		},
		{
			ID:       "MIR006",
			Name:     "invalid-mirror-location",
			Severity: lint.Error,
			Summary:  "a mirror source or mirror is not host[:port][/lower-case/path]: scheme, tag, digest, upper case or a wildcard mirror",
			Rationale: "Sources and mirrors must match the CRD patterns (openshift/api config/v1 types_image_digest_mirror_set.go): " +
				"host[:port][/path] with a lower-case path, or *.domain for a source; no scheme, tag or digest. The API server rejects an " +
				"ImageDigestMirrorSet/ImageTagMirrorSet that does not; ImageContentSourcePolicy has no pattern, and MCO applies the same patterns " +
				"to every kind and refuses to render registries.conf: `invalid format for source %q` / `invalid format for mirror %q` " +
				"(registries.md sections 1 and 2.9).",
			Fix: "Write the location as host[:port][/path]: drop https://, :tag and @sha256:..., lower-case the path; a mirror cannot be a wildcard.",
			Check: refusalCheck(func(err error) bool {
				return errors.Is(err, registries.ErrInvalidSource) || errors.Is(err, registries.ErrInvalidMirror)
			}),
		},
		{
			ID:       "MIR007",
			Name:     "dotless-registry-host",
			Severity: lint.Warning,
			Summary:  "a source, mirror or registry scope starts with a host that has no dot or port (and is not localhost): c/image reads it as a docker.io path",
			Rationale: "containers/image (docker/reference ParseNormalizedNamed) takes the first component as a registry host only when it contains " +
				"a dot or a colon or is localhost; otherwise the whole name is a docker.io repository. The CRD pattern accepts mirrorhost/ns, but " +
				"a node then pulls docker.io/mirrorhost/ns/... for that mirror, and a source or scope written that way never matches a reference " +
				"(registries.md sections 1 and 5.8).",
			Fix:   "Use the registry's fully qualified host name or add its port: mirrorhost.example.com/ns or mirrorhost:5000/ns.",
			Check: checkDotlessHosts,
		},
		{
			ID:       "MIR008",
			Name:     "wildcard-source-with-mirrors",
			Severity: lint.Warning,
			Summary:  "a *.domain source has mirrors: rewriting drops the host",
			Rationale: "For a *.domain table c/image replaces the whole matched host with the mirror location (sysregistriesv2 rewriteReference), " +
				"so a.example.com/ns/app and b.example.com/ns/app both become <mirror>/ns/app (the registries collide on one mirror path), and a " +
				"host:port reference becomes <mirror>:port/..., which is no valid reference: the pull fails (registries.md section 5.3).",
			Fix:   "Mirror each registry host as its own source, with its own mirror path.",
			Check: checkWildcardMirrors,
		},
		{
			ID:       "MIR009",
			Name:     "wildcard-source-with-nested-scope",
			Severity: lint.Error,
			Summary:  "an insecure or blocked registry scope lies inside a mirrored *.domain source: MCO refuses to render",
			Rationale: "MCO gives a table nested in a mirrored source that has no mirrors of its own the parent's mirrors with the extra path " +
				"appended; for a wildcard parent it cannot, and refuses to render registries.conf: `internal error: mirrorsAdjustedForNestedScope " +
				"for a wildcard scope %q` (runtime-utils EditRegistriesConfig; registries.md section 2.9). image.config insecureRegistries and " +
				"blockedRegistries entries create such tables.",
			Fix:   "List the mirrored hosts one by one instead of the wildcard, or move the insecure/blocked scope out of it.",
			Check: refusalCheck(func(err error) bool { return errors.Is(err, registries.ErrWildcardNestedScope) }),
		},
		{
			ID:       "MIR010",
			Name:     "registry-sources-refused",
			Severity: lint.Error,
			Summary:  "image.config registrySources (or another mirror setting) that MCO refuses: an invalid scope, allowed and blocked together",
			Rationale: "MCO accepts `*` in insecureRegistries, blockedRegistries and allowedRegistries only as a leading `*.` with no /, @ or : " +
				"after it (`invalid entry for insecure|blocked|allowed registries %q`, runtime-utils IsValidRegistriesConfScope), and only one of " +
				"allowedRegistries and blockedRegistries (`invalid images config: only one of AllowedRegistries or BlockedRegistries may be " +
				"specified`, MCO helpers.go updatePolicyJSON). Either error stops MCO from rendering registries.conf or policy.json " +
				"(registries.md sections 1 and 2.9); the nodes keep the previous files. Any other refusal of the registries engine is reported here too.",
			Fix: "Write scopes as host[:port][/path] or *.domain, and use either allowedRegistries or blockedRegistries.",
			Check: refusalCheck(func(err error) bool {
				return !isPolicyConflict(err) && !errors.Is(err, registries.ErrNeverContactSourceIsMirror) &&
					!errors.Is(err, registries.ErrInvalidSource) && !errors.Is(err, registries.ErrInvalidMirror) &&
					!errors.Is(err, registries.ErrWildcardNestedScope)
			}),
		},
		{
			ID:       "MIR011",
			Name:     "mirror-at-in-cluster-service",
			Severity: lint.Warning,
			Summary:  "a node-level mirror points at an in-cluster Service (*.svc, *.cluster.local or a service-network address)",
			Rationale: "CRI-O resolves mirror hosts with the node's resolver, not cluster DNS: only image-registry.openshift-image-registry.svc is " +
				"put into /etc/hosts, and only while cluster DNS works; a Service ClusterIP answers only once the cluster network is up. During " +
				"bootstrap, reboots and upgrades such a mirror is unreachable: each pull waits up to the fixed 30 s dial timeout and then falls " +
				"back to the next mirror or the source, or fails when the source is blocked (registries.md sections 3 and 5.5; the same class " +
				"of failure is known from containerd nodes whose cache mirror sat at a Service IP). The service network comes from the Network " +
				"config, the install-config or the site (default 172.30.0.0/16).",
			Fix: "Give the mirror an address the nodes reach without the cluster: a registry outside the cluster, or a Route/load-balancer host name " +
				"that resolves in the nodes' DNS.",
			Check: checkServiceMirrors,
		},
		{
			ID:       "MIR012",
			Name:     "registries-conf-machineconfig",
			Severity: lint.Warning,
			Summary:  "a MachineConfig writes /etc/containers/registries.conf or a registries.conf.d drop-in next to the mirror objects MCO renders",
			Rationale: "MCO writes /etc/containers/registries.conf itself (MachineConfig 99-<pool>-generated-registries) whenever an " +
				"ImageDigestMirrorSet, ImageTagMirrorSet, ImageContentSourcePolicy or insecure/blocked registry exists. MCO merges a pool's " +
				"MachineConfigs sorted by name and the last file at a path wins (MCO MergeMachineConfigs): a hand-written file either replaces " +
				"MCO's (the mirror objects silently stop applying) or is replaced by it. A registries.conf.d drop-in whose [[registry]] has the " +
				"prefix of one of MCO's tables replaces that table (c/image drop-in merging) (registries.md section 5.4).",
			Fix: "Express the mirrors as ImageDigestMirrorSet/ImageTagMirrorSet (4.13+) and delete the MachineConfig; before 4.13, render the " +
				"tag-mirroring MachineConfig with siteforge, which writes MCO's file plus the tag mirrors and sorts after MCO's.",
			Check: checkRegistriesMachineConfigs,
		},
		{
			ID:       "MIR013",
			Name:     "installer-tag-mirroring-lost",
			Severity: lint.Warning,
			Summary:  "tag mirroring configured through the assisted or agent installer's registries.conf, which keeps digest mirroring only",
			Rationale: "The assisted and agent installers reduce a user-supplied registries.conf (assisted-service mirror ConfigMap key " +
				"registries.conf, InfraEnv ignitionConfigOverride) to ImageDigestMirrorSet/ImageTagMirrorSet: pull-from-mirror = \"tag-only\" " +
				"becomes an ITMS, digest-only or unset becomes an IDMS, \"all\" is dropped silently and a registry-level mirror-by-digest-only = " +
				"false is ignored; the install-time registries.conf hard-codes mirror-by-digest-only = true (registries.md sections 4 and 5.6). " +
				"Tag pulls therefore miss these mirrors during and after the installation.",
			Fix: "Keep the installer's registries.conf digest-only (pull-from-mirror = \"digest-only\") and apply an ImageTagMirrorSet on day 2 " +
				"(4.13+; a MachineConfig before 4.13) for the repositories pulled by tag.",
			Check: checkInstallerRegistriesConf,
		},
		{
			ID:       "MIR014",
			Name:     "image-content-source-policy-deprecated",
			Severity: lint.Info,
			Summary:  "an ImageContentSourcePolicy on OpenShift 4.13 or later",
			Rationale: "ImageContentSourcePolicy is deprecated from 4.13, which introduced ImageDigestMirrorSet and ImageTagMirrorSet; an ICSP " +
				"can express neither tag mirroring nor mirrorSourcePolicy (registries.md section 1). `oc adm migrate icsp` converts it.",
			Fix:   "Convert it: oc adm migrate icsp <file> --dest-dir <dir>, apply the ImageDigestMirrorSet, then delete the ICSP.",
			Check: checkDeprecatedICSP,
		},
		{
			ID:       "MIR015",
			Name:     "icsp-with-mirror-sets-before-coexistence",
			Severity: lint.Error,
			Summary:  "ImageContentSourcePolicy together with ImageDigestMirrorSet/ImageTagMirrorSet on 4.13 or 4.14",
			Rationale: "On 4.13 and 4.14 z-streams built before MCO's fix, an ICSP next to an IDMS or ITMS fails the whole MCO sync (`error: both " +
				"imagecontentsourcepolicy and imagedigestmirrorset exist`, or `... and imagetagmirrorset exist`; runtime-utils " +
				"RejectMultiUpdateMirrorSetObjs, called from MCO container-runtime-config syncImageConfig): no registries.conf is rendered at all. " +
				"MCO PR #3898 removed the check before 4.15 branched; the backports merged 2023-11-07 for 4.14 (PR #3995, OCPBUGS-22275) " +
				"and 2023-12-05 for 4.13 (PR #4027, OCPBUGS-23468).",
			Fix:   "Convert the ICSP (oc adm migrate icsp) and delete it, or run a z-stream built after the backport (then suppress with that reason).",
			Check: checkICSPWithMirrorSets,
		},
		{
			ID:       "MIR016",
			Name:     "mirror-sets-before-4-13",
			Severity: lint.Error,
			Summary:  "an ImageDigestMirrorSet or ImageTagMirrorSet for OpenShift before 4.13",
			Rationale: "ImageDigestMirrorSet and ImageTagMirrorSet first shipped in OpenShift 4.13 (api config/v1; registries.md section 1): " +
				"before, the API server has no such resource and MCO reads only ImageContentSourcePolicy, so the mirrors never reach the nodes.",
			Fix: "Use an ImageContentSourcePolicy for digest mirrors; tag mirroring before 4.13 needs a MachineConfig for registries.conf (siteforge " +
				"renders one from a site).",
			Check: checkMirrorSetsBefore413,
		},
		{
			ID:       "MIR017",
			Name:     "blocked-release-payload",
			Severity: lint.Error,
			Summary:  "blockedRegistries covers the release payload repository without an unblocked digest mirror for it",
			Rationale: "MCO refuses to block the repository of the release image unless an unblocked digest mirror serves it: it drops that " +
				"blocked entry and only logs `cannot block the repository being used by the payload` (MCO helpers.go " +
				"getValidBlockedAndAllowedRegistries; registries.md section 2.9), so the registry is NOT blocked. The payload's component images " +
				"(quay.io/openshift-release-dev/ocp-v4.0-art-dev, always pulled by digest) are not protected that way: blocking them without a " +
				"digest mirror fails every component pull. The release image is the site's cluster.releaseImage or a ClusterVersion's, else " +
				"quay.io/openshift-release-dev/ocp-release; the check uses the registries engine's payload rule.",
			Fix: "Add an ImageDigestMirrorSet entry for quay.io/openshift-release-dev (or the payload repository) whose mirror is outside every " +
				"blocked scope, or narrow the blocked scope.",
			Check: checkBlockedPayload,
		},
		{
			ID:       "MIR018",
			Name:     "tag-mirroring-supply-chain",
			Severity: lint.Info,
			Summary:  "tag mirroring (ImageTagMirrorSet, pull-from-mirror tag-only/all) trades away the digest guarantee",
			Rationale: "A digest pull from a mirror is verified against the digest; a tag pull gets whatever the mirror serves under that tag, so " +
				"a stale or compromised mirror changes what runs (registries.md section 5.9). Tag mirroring is often needed (operator catalogs " +
				"are pulled by tag); this note asks for a conscious decision.",
			Fix: "Pull by digest where you can. Acknowledge the rest with a suppression that says why: siteforge.dev/ignore-MIR018: \"<reason>\" " +
				"on the object, or lint.suppress in the site.",
			Check: checkTagMirroring,
		},
		{
			ID:       "MIR019",
			Name:     "insecure-mirror",
			Severity: lint.Warning,
			Summary:  "image.config insecureRegistries covers a mirror: TLS verification is off for it",
			Rationale: "MCO marks every mirror located inside an insecure scope `insecure = true` (registries.md section 2.7): CRI-O then skips " +
				"certificate verification and may fall back to plain HTTP for it, sending the pull secret's credentials for that mirror and " +
				"accepting whatever answers. (Whether additionalTrustedCA holds the mirror's CA cannot be checked from the manifests.)",
			Fix: "Put the mirror's CA into image.config spec.additionalTrustedCA (ConfigMap in openshift-config, key host..port) and remove the " +
				"insecure entry.",
			Check: checkInsecureMirrors,
		},
	} {
		r.Since = "v1alpha1"
		lint.Register(r)
	}
}

// ---------------------------------------------------------------------------------------------
// Reading the mirror objects of a set.

// entryKind is the object kind an entry comes from.
type entryKind int

const (
	digestSet     entryKind = iota // ImageDigestMirrorSet
	contentPolicy                  // ImageContentSourcePolicy (digest mirrors)
	tagSet                         // ImageTagMirrorSet
)

// mirrorEntry is one source -> mirrors entry of an IDMS, ITMS or ICSP, with where it is written.
type mirrorEntry struct {
	obj     *manifests.Object
	kind    entryKind
	index   int
	source  string
	mirrors []string
	policy  configv1.MirrorSourcePolicy
}

func (e *mirrorEntry) list() string {
	switch e.kind {
	case digestSet:
		return "imageDigestMirrors"
	case tagSet:
		return "imageTagMirrors"
	}
	return "repositoryDigestMirrors"
}

// path is the field path of the entry, or of a field inside it.
func (e *mirrorEntry) path(field ...string) []string {
	return append([]string{"spec", e.list(), strconv.Itoa(e.index)}, field...)
}

// where names the object and field for messages.
func (e *mirrorEntry) where(field ...string) string {
	return e.obj.ID() + " " + userPath(e.path(field...))
}

// digest reports whether the entry mirrors digest pulls (IDMS, ICSP) rather than tag pulls.
func (e *mirrorEntry) digest() bool { return e.kind != tagSet }

// realMirrors reports whether the entry names a mirror other than its source (else MCO ignores it).
func (e *mirrorEntry) realMirrors() bool {
	for _, m := range e.mirrors {
		if m != e.source {
			return true
		}
	}
	return false
}

func (e *mirrorEntry) effectivePolicy() configv1.MirrorSourcePolicy {
	if e.policy == "" {
		return configv1.AllowContactingSource
	}
	return e.policy
}

func pullKind(digest bool) string {
	if digest {
		return "digest"
	}
	return "tag"
}

// userPath writes a field path the way users read it: spec.imageDigestMirrors[0].mirrors[1].
func userPath(path []string) string {
	var b strings.Builder
	for _, p := range path {
		if _, err := strconv.Atoi(p); err == nil {
			b.WriteString("[" + p + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(p)
	}
	return b.String()
}

// mirrorObjects is what a set holds for registries.conf: the mirror entries in MCO's order (IDMS,
// then ICSP, then ITMS, each kind by object name), the image config, the release image.
type mirrorObjects struct {
	set     lint.Set
	minor   int
	entries []*mirrorEntry
	// full is every mirror object and the image config as given (MCO's input).
	full     registries.Input
	imageObj *manifests.Object // image.config.openshift.io "cluster", nil when absent
	// imageSpec is image's decoded content (empty when absent).
	imageSpec configv1.Image
	// release is the release image when known, and where it comes from.
	release, releaseFrom string
}

// readMirrorObjects reads the set's mirror objects (manifests.ReadMirrors) leniently: a field the
// API does not know is left to the API server; what the platform does with the rest is still checked.
func readMirrorObjects(set lint.Set) *mirrorObjects {
	m := &mirrorObjects{set: set, minor: int(set.Minor)}
	ms := manifests.ReadMirrors(set.Objects)
	for _, x := range ms.DigestSets {
		for i, e := range x.Spec.Spec.ImageDigestMirrors {
			m.entries = append(m.entries, &mirrorEntry{obj: x.Obj, kind: digestSet, index: i, source: e.Source, mirrors: mirrorStrings(e.Mirrors), policy: e.MirrorSourcePolicy})
		}
	}
	for _, x := range ms.ContentPolicies {
		for i, e := range x.Spec.Spec.RepositoryDigestMirrors {
			m.entries = append(m.entries, &mirrorEntry{obj: x.Obj, kind: contentPolicy, index: i, source: e.Source, mirrors: append([]string(nil), e.Mirrors...)})
		}
	}
	for _, x := range ms.TagSets {
		for i, e := range x.Spec.Spec.ImageTagMirrors {
			m.entries = append(m.entries, &mirrorEntry{obj: x.Obj, kind: tagSet, index: i, source: e.Source, mirrors: mirrorStrings(e.Mirrors), policy: e.MirrorSourcePolicy})
		}
	}
	if ms.Image != nil {
		m.imageObj, m.imageSpec = ms.Image.Obj, ms.Image.Spec
	}
	m.release, m.releaseFrom = set.ReleaseImage, set.ReleaseImageFrom
	if m.release != "" {
		if _, err := registries.Render(registries.Input{ReleaseImage: m.release, Minor: m.minor}); errors.Is(err, registries.ErrReleaseImage) {
			m.release, m.releaseFrom = "", ""
		}
	}
	m.full = ms.Input(m.minor, m.release)
	return m
}

func mirrorStrings(ms []configv1.ImageMirror) []string {
	out := make([]string, 0, len(ms))
	for _, m := range ms {
		out = append(out, string(m))
	}
	return out
}

// legacy reports whether the set targets a release before IDMS/ITMS (MCO ignores them there).
func (m *mirrorObjects) legacy() bool { return m.minor > 0 && m.minor < int(platform.IDMSITMSSince) }

// effective reports whether MCO of the set's release reads the entry at all.
func (m *mirrorObjects) effective(e *mirrorEntry) bool { return !m.legacy() || e.kind == contentPolicy }

// input builds the engine input from entries (in the given order, which the engine keeps: each
// entry becomes an object of its own, named by its position) and an image config.
func (m *mirrorObjects) input(entries []*mirrorEntry, image *configv1.Image) registries.Input {
	in := registries.Input{Image: image, Minor: m.minor, ReleaseImage: m.release}
	for seq, e := range entries {
		meta := metav1.ObjectMeta{Name: fmt.Sprintf("%06d", seq)}
		switch e.kind {
		case digestSet:
			in.DigestMirrorSets = append(in.DigestMirrorSets, configv1.ImageDigestMirrorSet{ObjectMeta: meta,
				Spec: configv1.ImageDigestMirrorSetSpec{ImageDigestMirrors: []configv1.ImageDigestMirrors{{Source: e.source, Mirrors: imageMirrors(e.mirrors), MirrorSourcePolicy: e.policy}}}})
		case tagSet:
			in.TagMirrorSets = append(in.TagMirrorSets, configv1.ImageTagMirrorSet{ObjectMeta: meta,
				Spec: configv1.ImageTagMirrorSetSpec{ImageTagMirrors: []configv1.ImageTagMirrors{{Source: e.source, Mirrors: imageMirrors(e.mirrors), MirrorSourcePolicy: e.policy}}}})
		default:
			in.ContentSourcePolicies = append(in.ContentSourcePolicies, operatorv1alpha1.ImageContentSourcePolicy{ObjectMeta: meta,
				Spec: operatorv1alpha1.ImageContentSourcePolicySpec{RepositoryDigestMirrors: []operatorv1alpha1.RepositoryDigestMirrors{{Source: e.source, Mirrors: append([]string(nil), e.mirrors...)}}}})
		}
	}
	return in
}

func imageMirrors(ms []string) []configv1.ImageMirror {
	out := make([]configv1.ImageMirror, 0, len(ms))
	for _, m := range ms {
		out = append(out, configv1.ImageMirror(m))
	}
	return out
}

// ---------------------------------------------------------------------------------------------
// What MCO refuses, attributed to the field responsible.

// refusal is one MCO refusal, at the entry or image.config field that causes it.
type refusal struct {
	obj   *manifests.Object
	path  []string
	entry *mirrorEntry // nil for image.config
	value string       // the offending source, mirror or scope
	err   error
}

// analysis is a set's mirror objects run through the engine: what MCO refuses, and the
// registries.conf it renders from everything else.
type analysis struct {
	*mirrorObjects
	refusals []refusal
	// accepted are the entries MCO renders once the refused ones are fixed or removed.
	accepted []*mirrorEntry
	// imageCfg is the image config without refused scopes (nil when absent).
	imageCfg *configv1.Image
	// in is the engine input of accepted and image; conf and toml its rendering (nil if the
	// engine still fails, which it should not).
	in   registries.Input
	conf *registries.Config
	toml []byte
	// nodeTOML is the file worker nodes end up with: toml, unless a MachineConfig that sorts
	// after MCO's writes registries.conf (siteforge's pre-4.13 tag mirroring does).
	nodeTOML []byte
}

// analysisCache keeps the last few analyses: every MIR rule looks at the same sets in one run.
var analysisCache struct {
	sync.Mutex
	entries []cachedAnalysis
}

type cachedAnalysis struct {
	first *manifests.Object
	n     int
	site  *lint.Site
	minor int
	a     *analysis
}

const analysisCacheSize = 8

// analyze returns the set's analysis (see newAnalysis), cached for the rules that follow.
func analyze(set lint.Set) *analysis {
	if len(set.Objects) == 0 {
		return newAnalysis(set)
	}
	key := cachedAnalysis{first: set.Objects[0], n: len(set.Objects), site: set.Site, minor: int(set.Minor)}
	analysisCache.Lock()
	for _, c := range analysisCache.entries {
		if c.first == key.first && c.n == key.n && c.site == key.site && c.minor == key.minor {
			analysisCache.Unlock()
			return c.a
		}
	}
	analysisCache.Unlock()
	key.a = newAnalysis(set)
	analysisCache.Lock()
	analysisCache.entries = append(analysisCache.entries, key)
	if len(analysisCache.entries) > analysisCacheSize {
		analysisCache.entries = analysisCache.entries[1:]
	}
	analysisCache.Unlock()
	return key.a
}

// newAnalysis finds every MCO refusal one by one: the image config's scopes first, then, when
// the entries together are refused, each entry added in MCO's order and rendered with those
// accepted so far. The entry whose addition makes the engine fail is the one responsible (for a
// policy conflict: the later entry, as in MCO, where the first policy seen for a source wins).
func newAnalysis(set lint.Set) *analysis {
	m := readMirrorObjects(set)
	a := &analysis{mirrorObjects: m}
	if m.imageObj != nil {
		a.imageCfg = a.checkImageConfig()
	}
	acc := m.input(m.entries, a.imageCfg)
	if _, err := registries.Render(acc); err == nil {
		a.accepted = m.entries
	} else {
		acc = m.input(nil, a.imageCfg)
		for _, e := range m.entries {
			cand := m.input(append(append([]*mirrorEntry(nil), a.accepted...), e), a.imageCfg)
			if _, err := registries.Render(cand); err != nil {
				a.refusals = append(a.refusals, refusal{obj: e.obj, entry: e, err: err, path: e.path("source"), value: e.source})
				a.placeEntryRefusal(&a.refusals[len(a.refusals)-1])
				continue
			}
			a.accepted = append(a.accepted, e)
			acc = cand
		}
	}
	a.in = acc
	conf, err := registries.Render(acc)
	if err != nil {
		return a
	}
	data, err := conf.TOML()
	if err != nil {
		return a
	}
	a.conf, a.toml, a.nodeTOML = conf, data, data
	if data := machineConfigRegistriesConf(set); data != nil {
		a.nodeTOML = data
	}
	return a
}

// machineConfigRegistriesConf is the registries.conf a worker MachineConfig writes over MCO's own
// (MCO merges a pool's MachineConfigs by name, the last file at a path wins), nil when none does.
func machineConfigRegistriesConf(set lint.Set) []byte {
	files, roles := machineConfigFiles(set)
	managed := fmt.Sprintf(platform.RegistriesMachineConfigNameFormat, "worker")
	var last *registriesFile
	for i, f := range files {
		if f.file != platform.RegistriesConfPath || f.conf == nil || f.obj.Name <= managed {
			continue
		}
		if role := roles[f.obj]; role != "" && role != "worker" {
			continue
		}
		if last == nil || f.obj.Name > last.obj.Name {
			last = &files[i]
		}
	}
	if last == nil {
		return nil
	}
	return last.data
}

// registrySourceLists are the image.config lists MCO validates, in its order.
var registrySourceLists = []string{"insecureRegistries", "blockedRegistries", "allowedRegistries"}

func registrySourceList(rs *configv1.RegistrySources, name string) *[]string {
	switch name {
	case "insecureRegistries":
		return &rs.InsecureRegistries
	case "blockedRegistries":
		return &rs.BlockedRegistries
	}
	return &rs.AllowedRegistries
}

// checkImageConfig validates each image.config scope alone, then allowed and blocked together, and
// returns the image config without what MCO refuses.
func (a *analysis) checkImageConfig() *configv1.Image {
	clean := a.imageSpec.DeepCopy()
	for _, list := range registrySourceLists {
		var kept []string
		for i, scope := range *registrySourceList(&a.imageSpec.Spec.RegistrySources, list) {
			probe := &configv1.Image{}
			*registrySourceList(&probe.Spec.RegistrySources, list) = []string{scope}
			if _, err := registries.Render(registries.Input{Image: probe, Minor: a.minor}); err != nil {
				a.refusals = append(a.refusals, refusal{obj: a.imageObj, path: []string{"spec", "registrySources", list, strconv.Itoa(i)}, value: scope, err: err})
				continue
			}
			kept = append(kept, scope)
		}
		*registrySourceList(&clean.Spec.RegistrySources, list) = kept
	}
	if _, err := registries.Render(registries.Input{Image: clean, Minor: a.minor, ReleaseImage: a.release}); err != nil {
		a.refusals = append(a.refusals, refusal{obj: a.imageObj, path: []string{"spec", "registrySources", "allowedRegistries"}, err: err})
		clean.Spec.RegistrySources.AllowedRegistries = nil
	}
	return clean
}

// placeEntryRefusal points an entry's refusal at the field MCO's message names.
func (a *analysis) placeEntryRefusal(f *refusal) {
	e := f.entry
	switch {
	case errors.Is(f.err, registries.ErrInvalidMirror):
		for j, m := range e.mirrors {
			if strings.Contains(f.err.Error(), strconv.Quote(m)) {
				f.path, f.value = e.path("mirrors", strconv.Itoa(j)), m
				return
			}
		}
	case isPolicyConflict(f.err), errors.Is(f.err, registries.ErrNeverContactSourceIsMirror):
		if e.policy != "" {
			f.path = e.path("mirrorSourcePolicy")
		}
	}
}

func isPolicyConflict(err error) bool {
	return errors.Is(err, registries.ErrConflictingMirrorSourcePolicy)
}

// refusalCheck reports the refusals whose error matches.
func refusalCheck(match func(error) bool) func(in *lint.Input, r *lint.Reporter) {
	return func(in *lint.Input, r *lint.Reporter) {
		for _, set := range in.Sets() {
			a := analyze(set)
			for _, f := range a.refusals {
				if match(f.err) {
					r.Object(f.obj, a.refusalMessage(f), f.path...)
				}
			}
		}
	}
}

func (a *analysis) refusalMessage(f refusal) string {
	where := f.obj.ID() + " " + userPath(f.path)
	msg := fmt.Sprintf("%s: %s: %v", where, mcoRefusal, f.err)
	if f.entry == nil {
		switch {
		case errors.Is(f.err, registries.ErrInvalidScope):
			return msg + ": a scope is host[:port][/path], or *.domain with nothing after the domain"
		case errors.Is(f.err, registries.ErrAllowedAndBlocked):
			return msg + ": keep either allowedRegistries or blockedRegistries"
		}
		return msg
	}
	switch {
	case isPolicyConflict(f.err):
		for _, other := range a.accepted {
			if other.source == f.entry.source && other.effectivePolicy() != f.entry.effectivePolicy() {
				return fmt.Sprintf("%s; %s sets %s, this entry %s: give every entry for %s the same policy", msg,
					other.where(), other.effectivePolicy(), f.entry.effectivePolicy(), f.entry.source)
			}
		}
		return msg + ": give every entry for " + f.entry.source + " the same policy"
	case errors.Is(f.err, registries.ErrNeverContactSourceIsMirror):
		return msg + ": remove " + f.entry.source + " from the mirrors, or use AllowContactingSource"
	case errors.Is(f.err, registries.ErrInvalidSource), errors.Is(f.err, registries.ErrInvalidMirror):
		return msg + ": " + locationHint(f.value, errors.Is(f.err, registries.ErrInvalidSource))
	case errors.Is(f.err, registries.ErrWildcardNestedScope):
		var nested []string
		if a.imageCfg != nil {
			for _, list := range []string{"insecureRegistries", "blockedRegistries"} {
				for _, s := range *registrySourceList(&a.imageCfg.Spec.RegistrySources, list) {
					if strings.HasSuffix(locationHost(s), strings.TrimPrefix(f.entry.source, "*")) {
						nested = append(nested, fmt.Sprintf("%s %q", list, s))
					}
				}
			}
		}
		if len(nested) > 0 {
			msg += " (image.config " + strings.Join(nested, ", ") + " lies inside it)"
		}
		return msg + ": list the mirrored hosts instead of the wildcard, or move the insecure/blocked scope out of it"
	}
	return msg
}

// locationHint says what is wrong with a source or mirror MCO rejects.
func locationHint(value string, source bool) string {
	_, path, _ := strings.Cut(value, "/")
	switch {
	case strings.Contains(value, "://"):
		return "remove the scheme: a location is host[:port][/path]"
	case strings.Contains(value, "@"):
		return "remove the digest: a location names a registry or repository, never an image"
	case strings.Contains(path, ":"):
		return "remove the tag: a location names a registry or repository, never an image"
	case strings.ToLower(path) != path:
		return "repository paths are lower-case"
	case strings.HasSuffix(value, "/"):
		return "remove the trailing slash"
	case strings.Contains(value, "*") && !source:
		return "a mirror cannot be a wildcard: name the mirror host"
	case strings.Contains(value, "*"):
		return "a wildcard source is *.domain, with no port or path"
	}
	if source {
		return "a source is host[:port][/lower-case/path] or *.domain"
	}
	return "a mirror is host[:port][/lower-case/path]"
}

// ---------------------------------------------------------------------------------------------
// Pull resolution.

// tagPullFailure tells why a tag pull of ref fails under the registries.conf the nodes get: the
// matching table, its digest-only mirrors and why the source is out of reach. prefix is empty when
// the pull works, is not mirrored at all, or bypasses a digest-only mirror in a connected cluster.
func (a *analysis) tagPullFailure(ref string, disconnected bool) (prefix string, digestOnly []string, why string) {
	if a.nodeTOML == nil {
		return "", nil, ""
	}
	res, err := registries.Resolve(a.nodeTOML, ref)
	if err != nil || res.Prefix == "" || res.Digest {
		return "", nil, ""
	}
	if res.SucceedsDisconnected(func(string) bool { return true }) {
		return "", nil, ""
	}
	sourceBlocked := false
	for _, ep := range res.Endpoints {
		if ep.Mirror && !ep.Source && ep.Skipped {
			digestOnly = append(digestOnly, ep.Location)
		}
		if !ep.Mirror && ep.Blocked {
			sourceBlocked = true
		}
	}
	switch {
	case len(digestOnly) == 0 && !sourceBlocked:
		return "", nil, "" // not mirrored at all: nothing to get wrong here
	case sourceBlocked:
		why = "the source is blocked (NeverContactSource or blockedRegistries)"
	case disconnected:
		why = "the cluster is disconnected"
	default:
		return "", nil, "" // connected: the pull bypasses the mirror but works
	}
	return res.Prefix, digestOnly, why
}

// tagCoverage says what the matching table offers a tag pull.
func tagCoverage(prefix string, digestOnly []string, what string) string {
	if len(digestOnly) == 0 {
		return fmt.Sprintf("%s has no tag mirror for %s", prefix, what)
	}
	return fmt.Sprintf("%s has only digest-only mirrors %v for %s", prefix, digestOnly, what)
}

func checkTagPulls(in *lint.Input, r *lint.Reporter) {
	for _, set := range in.Sets() {
		refs := imageRefs(set.Objects)
		var siteImages []string
		if set.Site != nil && set.Site.Site.Mirroring != nil {
			siteImages = set.Site.Site.Mirroring.Images
		}
		if len(refs) == 0 && len(siteImages) == 0 {
			continue
		}
		a := analyze(set)
		message := func(ref string) string {
			prefix, digestOnly, why := a.tagPullFailure(ref, set.Disconnected)
			if prefix == "" {
				return ""
			}
			fix := "add a tag mirror (ImageTagMirrorSet)"
			if a.legacy() {
				fix = "mirror tags with a registries.conf MachineConfig (no ImageTagMirrorSet before 4.13; a site renders one for a source that serves tags)"
			}
			return fmt.Sprintf("%s is pulled by tag, but %s and %s: the pull fails (ImagePullBackOff); %s",
				ref, tagCoverage(prefix, digestOnly, "it"), why, fix)
		}
		for _, ref := range refs {
			if !ref.byTag() {
				continue
			}
			if msg := message(ref.ref); msg != "" {
				r.Object(ref.obj, msg, ref.path...)
			}
		}
		for i, ref := range siteImages {
			if strings.Contains(ref, "@") {
				continue
			}
			if msg := message(ref); msg != "" {
				s := set.Site.Site
				r.At(s.Name, s.Positions.Of(fmt.Sprintf("mirroring.images[%d]", i)), "mirroring.images: "+msg)
			}
		}
	}
}

// ---------------------------------------------------------------------------------------------
// MIR002: default catalogs.

func checkDefaultCatalogs(in *lint.Input, r *lint.Reporter) {
	for _, set := range in.Sets() {
		var hub *manifests.Object
		for _, o := range set.Kind(manifests.GroupConfig, "OperatorHub") {
			if o.Name == platform.ConfigSingletonName {
				hub = o
			}
		}
		if hub == nil && !(set.Site != nil && set.Disconnected) {
			continue // plain manifests without OperatorHub: whether the defaults run is unknown
		}
		enabled, path := platform.DefaultCatalogs, []string(nil)
		if hub != nil {
			var spec configv1.OperatorHub
			if hub.DecodeLoose(&spec) != nil {
				continue
			}
			enabled, path = enabledDefaultCatalogs(spec.Spec)
		}
		if len(enabled) == 0 {
			continue
		}
		a := analyze(set)
		tag := "latest"
		if a.minor > 0 {
			tag = "v" + platform.OCPMinor(a.minor).String()
		}
		var names, refs []string
		var prefix, why string
		var digestOnly []string
		for _, c := range enabled {
			ref := c.Index + ":" + tag
			p, d, w := a.tagPullFailure(ref, set.Disconnected)
			if p == "" {
				continue
			}
			names, refs = append(names, c.Name), append(refs, ref)
			prefix, digestOnly, why = p, d, w
		}
		if len(names) == 0 {
			continue
		}
		msg := fmt.Sprintf("the default catalog sources %s stay enabled and pull %s BY TAG, but %s and %s: "+
			"the catalog pods fail (ImagePullBackOff); set OperatorHub cluster spec.disableAllDefaultSources: true and add CatalogSources "+
			"for your mirrored catalogs, or add an ImageTagMirrorSet for registry.redhat.io/redhat",
			strings.Join(names, ", "), strings.Join(refs, ", "), tagCoverage(prefix, digestOnly, "them"), why)
		if hub != nil {
			r.Object(hub, "OperatorHub cluster "+userPath(path)+": "+msg, path...)
			continue
		}
		s := set.Site.Site
		r.At(s.Name, s.Positions.Of("cluster.connectivity"), "disconnected site without OperatorHub cluster: "+msg)
	}
}

// enabledDefaultCatalogs lists the default catalogs an OperatorHub spec leaves enabled (a sources
// entry overrides disableAllDefaultSources, api config/v1 OperatorHubSpec), and the field to blame.
func enabledDefaultCatalogs(spec configv1.OperatorHubSpec) (enabled []platform.DefaultCatalog, path []string) {
	path = []string{"spec", "disableAllDefaultSources"}
	for _, c := range platform.DefaultCatalogs {
		idx := -1
		for i, s := range spec.Sources {
			if s.Name == c.Name {
				idx = i
			}
		}
		switch {
		case idx >= 0 && !spec.Sources[idx].Disabled:
			enabled = append(enabled, c)
			if spec.DisableAllDefaultSources {
				path = []string{"spec", "sources", strconv.Itoa(idx), "disabled"}
			}
		case idx < 0 && !spec.DisableAllDefaultSources:
			enabled = append(enabled, c)
		}
	}
	return enabled, path
}

// ---------------------------------------------------------------------------------------------
// MIR003: shadowing.

func checkShadowing(in *lint.Input, r *lint.Reporter) {
	for _, set := range in.Sets() {
		a := analyze(set)
		if a.toml == nil {
			continue
		}
		bySource := map[string][]*mirrorEntry{}
		var sources []string
		for _, e := range a.accepted {
			if !a.effective(e) || !e.realMirrors() || strings.HasPrefix(e.source, "*.") {
				continue
			}
			if bySource[e.source] == nil {
				sources = append(sources, e.source)
			}
			bySource[e.source] = append(bySource[e.source], e)
		}
		sort.Strings(sources)
		for _, source := range sources {
			has := map[bool]bool{}
			for _, e := range bySource[source] {
				has[e.digest()] = true
			}
			for _, digest := range []bool{true, false} {
				if has[digest] || !hasMirroredAncestor(source, digest, a.accepted) {
					continue
				}
				if msg := a.shadowMessage(source, digest); msg != "" {
					for _, e := range bySource[source] {
						r.Object(e.obj, e.where("source")+": "+msg, e.path("source")...)
					}
				}
			}
		}
	}
}

// hasMirroredAncestor is a cheap pre-filter before asking the engine: some other entry of the
// kind (digest or tag) has a source that is a parent path of source, or a wildcard covering its host.
func hasMirroredAncestor(source string, digest bool, entries []*mirrorEntry) bool {
	for _, e := range entries {
		switch {
		case e.digest() != digest || !e.realMirrors():
		case strings.HasPrefix(source, e.source+"/"):
			return true
		case strings.HasPrefix(e.source, "*.") && strings.HasSuffix(locationHost(source), e.source[1:]):
			return true
		}
	}
	return false
}

// shadowMessage resolves a reference of the kind source's entries lack, with and without them:
// when only the nested entries keep the broader mirror away, it explains the loss.
func (a *analysis) shadowMessage(source string, digest bool) string {
	probe := probeRef(source, digest)
	with, err := registries.Resolve(a.toml, probe)
	if err != nil || with.Prefix != source || with.SucceedsDisconnected(nil) {
		return ""
	}
	var others []*mirrorEntry
	for _, e := range a.accepted {
		if e.source != source {
			others = append(others, e)
		}
	}
	conf, err := registries.Render(a.input(others, a.imageCfg))
	if err != nil {
		return ""
	}
	data, err := conf.TOML()
	if err != nil {
		return ""
	}
	without, err := registries.Resolve(data, probe)
	if err != nil || !without.SucceedsDisconnected(nil) {
		return ""
	}
	var lost []string
	for _, ep := range without.Attempts() {
		if ep.Mirror && !ep.Source {
			lost = append(lost, ep.Location)
		}
	}
	parent := ""
	for _, e := range others {
		if a.effective(e) && e.digest() == digest && e.source == without.Prefix {
			parent = e.source
		}
	}
	if parent == "" { // the table without the nested entries got the mirrors some ancestor copied into it
		for _, e := range others {
			if a.effective(e) && e.digest() == digest && strings.HasPrefix(source, e.source+"/") && len(e.source) > len(parent) {
				parent = e.source
			}
		}
	}
	if parent == "" {
		parent = without.Prefix
	}
	var by []string
	for _, e := range others {
		if a.effective(e) && e.digest() == digest && e.source == parent {
			by = append(by, e.obj.ID())
		}
	}
	fate := "go to the source"
	for _, ep := range with.Endpoints {
		if !ep.Mirror && ep.Blocked {
			fate = "go to the source, which is blocked: they fail"
		}
	}
	kind, other := pullKind(digest), pullKind(!digest)
	entry := "a " + kind + " entry for " + source + " too"
	if !strings.HasPrefix(parent, "*.") {
		entry += " (the parent's mirrors with " + strings.TrimPrefix(source, parent) + " appended)"
	}
	return fmt.Sprintf("%s is nested in %s, which %s mirrors for %s pulls through %v; the table for %s has only %s-only mirrors, so %s pulls under it "+
		"(e.g. %s) lose that mirror and %s; add %s, or move this entry to the exact repository pulled by %s",
		source, parent, strings.Join(uniqueStrings(by), ", "), kind, lost, source, other, kind, probe, fate, entry, other)
}

func uniqueStrings(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// ---------------------------------------------------------------------------------------------
// MIR007: dotless hosts.

// dockerHubName returns what c/image makes of a location whose first component is not a host
// (no dot, no port, not localhost): a docker.io repository. ok is false for a proper host, and for
// a location that is no valid name at all (MIR006 reports those).
func dockerHubName(location string) (string, bool) {
	named, err := reference.ParseNormalizedNamed(strings.TrimSuffix(location, "/") + "/" + probeRepository)
	if err != nil {
		return "", false
	}
	host, _, _ := strings.Cut(location, "/")
	if reference.Domain(named) == host {
		return "", false
	}
	return strings.TrimSuffix(named.Name(), "/"+probeRepository), true
}

func checkDotlessHosts(in *lint.Input, r *lint.Reporter) {
	for _, set := range in.Sets() {
		m := readMirrorObjects(set)
		for _, e := range m.entries {
			if !strings.HasPrefix(e.source, "*.") {
				if name, ok := dockerHubName(e.source); ok {
					r.Object(e.obj, fmt.Sprintf("%s %q: c/image reads it as the Docker Hub repository %s, so no image reference ever matches this source; use the registry's fully qualified host name or add its port",
						e.where("source"), e.source, name), e.path("source")...)
				}
			}
			for j, mirror := range e.mirrors {
				if name, ok := dockerHubName(mirror); ok {
					r.Object(e.obj, fmt.Sprintf("%s %q: c/image reads it as the Docker Hub repository %s and pulls %s/... from docker.io instead of the mirror; use the mirror's fully qualified host name or add its port (mirrorhost.example.com/ns, mirrorhost:5000/ns)",
						e.where("mirrors", strconv.Itoa(j)), mirror, name, name), e.path("mirrors", strconv.Itoa(j))...)
				}
			}
		}
		if m.imageObj == nil {
			continue
		}
		for _, list := range registrySourceLists {
			for i, scope := range *registrySourceList(&m.imageSpec.Spec.RegistrySources, list) {
				if strings.HasPrefix(scope, "*.") {
					continue
				}
				if name, ok := dockerHubName(scope); ok {
					path := []string{"spec", "registrySources", list, strconv.Itoa(i)}
					r.Object(m.imageObj, fmt.Sprintf("%s %s %q: c/image reads it as the Docker Hub repository %s, so it never matches the registry meant; use the fully qualified host name or add its port",
						m.imageObj.ID(), userPath(path), scope, name), path...)
				}
			}
		}
	}
}

// ---------------------------------------------------------------------------------------------
// MIR008: wildcard sources with mirrors.

func checkWildcardMirrors(in *lint.Input, r *lint.Reporter) {
	for _, set := range in.Sets() {
		a := analyze(set)
		for _, e := range a.entries {
			if !strings.HasPrefix(e.source, "*.") || !e.realMirrors() || !a.effective(e) {
				continue
			}
			msg := fmt.Sprintf("%s %q has mirrors: c/image replaces the whole matched host with the mirror location, so different registries under %s collide on one mirror path and host:port references cannot be rewritten",
				e.where("source"), e.source, e.source)
			if demo := a.wildcardDemo(e); demo != "" {
				msg += " (" + demo + ")"
			}
			r.Object(e.obj, msg+"; mirror each registry host as its own source, with its own mirror path", e.path("source")...)
		}
	}
}

// wildcardDemo shows the collision with the engine: two hosts under the wildcard resolving to the
// same mirror reference, and what a host:port reference gives.
func (a *analysis) wildcardDemo(e *mirrorEntry) string {
	if a.toml == nil {
		return ""
	}
	domain := e.source[1:]
	first := func(ref string) (string, error) {
		res, err := registries.Resolve(a.toml, ref)
		if err != nil {
			return "", err
		}
		for _, ep := range res.Attempts() {
			if ep.Mirror && !ep.Source {
				return ep.Reference, nil
			}
		}
		return "", nil
	}
	refA, refB := taggedOrDigested("a"+domain+"/ns/app", e.digest()), taggedOrDigested("b"+domain+"/ns/app", e.digest())
	gotA, errA := first(refA)
	gotB, errB := first(refB)
	if errA != nil || errB != nil || gotA == "" || gotA != gotB {
		return ""
	}
	demo := fmt.Sprintf("%s and %s both pull %s", refA, refB, gotA)
	withPort := taggedOrDigested("a"+domain+":5000/ns/app", e.digest())
	if _, err := first(withPort); err != nil {
		demo += fmt.Sprintf("; %s fails: %v", withPort, err)
	}
	return demo
}

// ---------------------------------------------------------------------------------------------
// MIR011: mirrors at in-cluster Services.

// serviceCIDR is a service network CIDR and where it is configured.
type serviceCIDR struct {
	prefix netip.Prefix
	from   string
}

// serviceCIDRs returns the set's service network: the site's, a Network config's (config or
// operator), the install-config's, else the default.
func serviceCIDRs(set lint.Set) []serviceCIDR {
	var out []serviceCIDR
	add := func(cidrs []string, from string) {
		for _, c := range cidrs {
			if p, err := netip.ParsePrefix(c); err == nil {
				out = append(out, serviceCIDR{p.Masked(), from})
			}
		}
	}
	if set.Site != nil {
		add(set.Site.Site.Network.ServiceNetwork, "the site's network.serviceNetwork")
	}
	for _, o := range set.Objects {
		var x struct {
			Spec struct {
				ServiceNetwork []string `json:"serviceNetwork"`
			} `json:"spec"`
		}
		switch {
		case o.Kind == "Network" && (o.APIVersion == manifests.GroupConfig || o.APIVersion == manifests.GroupOperatorV1) && o.Name == platform.ConfigSingletonName:
			if o.DecodeLoose(&x) == nil {
				add(x.Spec.ServiceNetwork, o.ID()+" spec.serviceNetwork")
			}
		}
	}
	for _, ic := range manifests.InstallConfigs(set.Objects) {
		add(ic.Networking.ServiceNetwork, "install-config networking.serviceNetwork")
	}
	if len(out) == 0 {
		add([]string{platform.InstallerDefaultServiceNetwork}, "the default service network")
	}
	return out
}

// inClusterService tells why a mirror host is an in-cluster Service ("" when it is not).
func inClusterService(host string, nets []serviceCIDR) string {
	switch {
	case host == platform.InternalRegistryHost || host == platform.InternalRegistryHost+platform.ClusterDomainSuffix:
		return "the internal image registry's Service name, which the node resolves only through the /etc/hosts entry the DNS operator maintains while cluster DNS works"
	case strings.HasSuffix(host, platform.ServiceDomainSuffix), strings.HasSuffix(host, platform.ServiceDomainSuffix+platform.ClusterDomainSuffix), strings.HasSuffix(host, platform.ClusterDomainSuffix):
		return "a cluster DNS name, which the node's resolver does not know"
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		for _, n := range nets {
			if n.prefix.Contains(ip.Unmap()) {
				return fmt.Sprintf("a Service ClusterIP (in %s, %s), which answers only once the cluster network is up", n.prefix, n.from)
			}
		}
	}
	return ""
}

func checkServiceMirrors(in *lint.Input, r *lint.Reporter) {
	for _, set := range in.Sets() {
		m := readMirrorObjects(set)
		if len(m.entries) == 0 {
			continue
		}
		nets := serviceCIDRs(set)
		for _, e := range m.entries {
			for j, mirror := range e.mirrors {
				why := inClusterService(locationHost(mirror), nets)
				if why == "" {
					continue
				}
				r.Object(e.obj, fmt.Sprintf("%s %q is %s: CRI-O pulls on the node, before and outside the cluster network, so during bootstrap, reboots and upgrades each pull waits up to the 30 s dial timeout and then falls back to the next mirror or the source (or fails when the source is blocked); give the mirror an address the nodes reach without the cluster",
					e.where("mirrors", strconv.Itoa(j)), mirror, why), e.path("mirrors", strconv.Itoa(j))...)
			}
		}
	}
}

// ---------------------------------------------------------------------------------------------
// registries.conf written by hand: MachineConfigs and installer configuration.

// registriesFile is a registries.conf (or drop-in) some object writes.
type registriesFile struct {
	obj  *manifests.Object
	path []string // the field holding it
	file string   // the node path
	conf *registries.Config
	data []byte
	err  error // why the content could not be read (conf is nil)
}

// isRegistriesPath reports whether a node path is registries.conf or one of its drop-ins.
func isRegistriesPath(p string) bool {
	return p == platform.RegistriesConfPath || strings.HasPrefix(p, platform.RegistriesConfDropInDir)
}

// registriesFiles lists the registries.conf files an Ignition config writes; path is the field
// path of the files list in the object.
func registriesFiles(o *manifests.Object, ign manifests.IgnitionConfig, path []string) []registriesFile {
	var out []registriesFile
	for i, f := range ign.Storage.Files {
		if !isRegistriesPath(f.Path) {
			continue
		}
		rf := registriesFile{obj: o, path: append(append([]string(nil), path...), strconv.Itoa(i), "path"), file: f.Path}
		data, err := f.Data(manifests.MaxFileSize)
		if err == nil {
			rf.data = data
			rf.conf, err = parseRegistriesConf(data)
		}
		rf.err = err
		out = append(out, rf)
	}
	return out
}

// parseRegistriesConf reads registries.conf content into the engine's model (keys it does not
// model are ignored) after containers/image itself accepted it.
func parseRegistriesConf(data []byte) (*registries.Config, error) {
	if err := registries.Load(data); err != nil {
		return nil, err
	}
	var c registries.Config
	if err := toml.Unmarshal(data, &c); err != nil {
		return nil, err
	}
	return &c, nil
}

// machineConfigFiles lists the registries.conf files the set's MachineConfigs write, with the
// MachineConfig's pool.
func machineConfigFiles(set lint.Set) (files []registriesFile, roles map[*manifests.Object]string) {
	roles = map[*manifests.Object]string{}
	for _, mc := range manifests.MachineConfigs(set.Objects) {
		roles[mc.Obj] = mc.Role
		files = append(files, registriesFiles(mc.Obj, mc.Config, []string{"spec", "config", "storage", "files"})...)
	}
	return files, roles
}

// siteforgeOwn reports whether a rendered MachineConfig is siteforge's pre-4.13 tag-mirroring one
// (MCO's file plus the tag mirrors, kept in step by rendering).
func siteforgeOwn(set lint.Set, o *manifests.Object) bool {
	if set.Site == nil {
		return false
	}
	for _, pool := range []string{"master", "worker"} {
		if o.Name == fmt.Sprintf(platform.SiteforgeTagMachineConfigNameFormat, pool) {
			return true
		}
	}
	return false
}

func checkRegistriesMachineConfigs(in *lint.Input, r *lint.Reporter) {
	for _, set := range in.Sets() {
		files, roles := machineConfigFiles(set)
		if len(files) == 0 {
			continue
		}
		a := analyze(set)
		if !registries.WrittenByMCO(a.full) {
			continue // MCO leaves registries.conf alone: a MachineConfig is the only way to write it
		}
		mcoScopes := map[string]bool{}
		if a.conf != nil {
			for _, reg := range a.conf.Registries {
				mcoScopes[reg.Scope()] = true
			}
		}
		for _, f := range files {
			if siteforgeOwn(set, f.obj) {
				continue
			}
			where := f.obj.ID() + " " + userPath(f.path)
			if f.file == platform.RegistriesConfPath {
				role := roles[f.obj]
				if role == "" {
					role = "<pool>"
				}
				managed := fmt.Sprintf(platform.RegistriesMachineConfigNameFormat, role)
				what := fmt.Sprintf("it sorts after MCO's %s and REPLACES MCO's file: the mirror objects and image.config registry settings stop reaching the nodes unless this file repeats them, and it goes stale at the next change", managed)
				if f.obj.Name < managed {
					what = fmt.Sprintf("MCO's %s sorts after it and replaces this file: its content never reaches the nodes", managed)
				}
				r.Object(f.obj, fmt.Sprintf("%s writes %s while ImageDigestMirrorSet/ImageTagMirrorSet/ImageContentSourcePolicy or image.config make MCO write it too; MCO merges a pool's MachineConfigs by name and the last one wins: %s; express the mirrors as ImageDigestMirrorSet/ImageTagMirrorSet and delete this file",
					where, f.file, what), f.path...)
				continue
			}
			if f.conf == nil {
				r.Object(f.obj, fmt.Sprintf("%s writes the drop-in %s next to the registries.conf MCO renders, and its content cannot be read (%v): a [[registry]] with the prefix of one of MCO's tables replaces that table; express the mirrors as ImageDigestMirrorSet/ImageTagMirrorSet instead",
					where, f.file, f.err), f.path...)
				continue
			}
			var clash []string
			for _, reg := range f.conf.Registries {
				if mcoScopes[reg.Scope()] {
					clash = append(clash, reg.Scope())
				}
			}
			if len(clash) > 0 {
				r.Object(f.obj, fmt.Sprintf("%s writes the drop-in %s whose [[registry]] %s has the prefix of a table MCO renders from the mirror objects: c/image lets the drop-in replace MCO's table, so its mirrors and flags are lost; express the mirrors as ImageDigestMirrorSet/ImageTagMirrorSet instead",
					where, f.file, strings.Join(clash, ", ")), f.path...)
			}
		}
	}
}

// tagMirrors lists the mirrors of a registries.conf that serve tag pulls, per table, with how.
func tagMirrors(c *registries.Config) (out []string) {
	for _, reg := range c.Registries {
		if reg.MirrorByDigestOnly {
			continue
		}
		for _, m := range reg.Mirrors {
			switch m.PullFromMirror {
			case "", registries.PullFromMirrorAll:
				out = append(out, fmt.Sprintf("%s -> %s (tags and digests)", reg.Scope(), m.Location))
			case registries.PullFromMirrorTagOnly:
				out = append(out, fmt.Sprintf("%s -> %s (tag-only)", reg.Scope(), m.Location))
			}
		}
	}
	return out
}

// installerFiles lists the registries.conf content the assisted/agent installer reads from the
// set: assisted-service mirror ConfigMaps and InfraEnv ignition overrides.
func installerFiles(set lint.Set) []registriesFile {
	var out []registriesFile
	for _, o := range set.Kind("v1", "ConfigMap") {
		var cm struct {
			Data map[string]string `json:"data"`
		}
		if o.DecodeLoose(&cm) != nil {
			continue
		}
		data, ok := cm.Data[platform.AssistedRegistriesConfKey]
		if !ok {
			continue
		}
		f := registriesFile{obj: o, path: []string{"data", platform.AssistedRegistriesConfKey}, file: "assisted-service mirror registries.conf"}
		f.conf, f.err = parseRegistriesConf([]byte(data))
		out = append(out, f)
	}
	for _, o := range set.Kind(manifests.GroupAgentInstall, "InfraEnv") {
		var ie struct {
			Spec struct {
				IgnitionConfigOverride string `json:"ignitionConfigOverride"`
			} `json:"spec"`
		}
		if o.DecodeLoose(&ie) != nil || ie.Spec.IgnitionConfigOverride == "" {
			continue
		}
		var ign manifests.IgnitionConfig
		if json.Unmarshal([]byte(ie.Spec.IgnitionConfigOverride), &ign) != nil {
			continue
		}
		for _, f := range registriesFiles(o, ign, nil) {
			f.path = []string{"spec", "ignitionConfigOverride"}
			out = append(out, f)
		}
	}
	return out
}

func checkInstallerRegistriesConf(in *lint.Input, r *lint.Reporter) {
	for _, set := range in.Sets() {
		for _, f := range installerFiles(set) {
			if f.conf == nil {
				continue
			}
			var problems []string
			for _, reg := range f.conf.Registries {
				if reg.MirrorByDigestOnly {
					continue
				}
				for _, m := range reg.Mirrors {
					switch m.PullFromMirror {
					case "":
						problems = append(problems, fmt.Sprintf("%s -> %s mirrors tags and digests (mirror-by-digest-only is not true): only the digest mirroring is kept", reg.Scope(), m.Location))
					case registries.PullFromMirrorAll:
						problems = append(problems, fmt.Sprintf("%s -> %s has pull-from-mirror = \"all\": the installer drops this mirror silently", reg.Scope(), m.Location))
					case registries.PullFromMirrorTagOnly:
						problems = append(problems, fmt.Sprintf("%s -> %s has pull-from-mirror = \"tag-only\": it becomes an ImageTagMirrorSet only after the installation, the install-time registries.conf is digest-only", reg.Scope(), m.Location))
					}
				}
			}
			if len(problems) == 0 {
				continue
			}
			r.Object(f.obj, fmt.Sprintf("%s %s (%s) configures tag mirroring the installer does not keep (it writes mirror-by-digest-only = true and reduces the file to ImageDigestMirrorSet/ImageTagMirrorSet): %s; keep this file digest-only and apply an ImageTagMirrorSet on day 2 (4.13+; a MachineConfig before) for tag pulls",
				f.obj.ID(), userPath(f.path), f.file, strings.Join(problems, "; ")), f.path...)
		}
	}
}

// ---------------------------------------------------------------------------------------------
// Version rules (MIR014-MIR016): skipped when the set's version is unknown.

func checkDeprecatedICSP(in *lint.Input, r *lint.Reporter) {
	for _, set := range in.Sets() {
		minor := int(set.Minor)
		if minor < int(platform.IDMSITMSSince) {
			continue
		}
		for _, o := range set.Kind(manifests.GroupOperatorV1Alpha1, "ImageContentSourcePolicy") {
			r.Object(o, fmt.Sprintf("%s: ImageContentSourcePolicy is deprecated since OpenShift %s (this is %s) and can express neither tag mirroring nor mirrorSourcePolicy; convert it with `oc adm migrate icsp <file> --dest-dir <dir>`, apply the ImageDigestMirrorSet, then delete the ICSP",
				o.ID(), platform.IDMSITMSSince, platform.OCPMinor(minor)), "kind")
		}
	}
}

// icspFixMerged is when MCO's fix allowing ICSP next to IDMS/ITMS merged in
// each release branch that shipped without it (see
// platform.ICSPWithMirrorSetsSince).
var icspFixMerged = map[platform.OCPMinor]string{13: "2023-12-05, MCO PR #4027", 14: "2023-11-07, MCO PR #3995"}

func checkICSPWithMirrorSets(in *lint.Input, r *lint.Reporter) {
	for _, set := range in.Sets() {
		minor := int(set.Minor)
		if minor < int(platform.IDMSITMSSince) || minor >= int(platform.ICSPWithMirrorSetsSince) {
			continue
		}
		sets := append(set.Kind(manifests.GroupConfig, "ImageDigestMirrorSet"), set.Kind(manifests.GroupConfig, "ImageTagMirrorSet")...)
		if len(sets) == 0 {
			continue
		}
		refusal := platform.MCOErrICSPWithIDMS
		if sets[0].Kind == "ImageTagMirrorSet" {
			refusal = platform.MCOErrICSPWithITMS
		}
		fixed := icspFixMerged[platform.OCPMinor(minor)]
		for _, o := range set.Kind(manifests.GroupOperatorV1Alpha1, "ImageContentSourcePolicy") {
			r.Object(o, fmt.Sprintf("%s next to %s on OpenShift %s: z-streams built before the fix (merged %s) fail the whole MCO sync (%q) and render no registries.conf; convert the ICSP with `oc adm migrate icsp` and delete it (or suppress, naming the z-stream, if the cluster runs a later one)",
				o.ID(), sets[0].ID(), platform.OCPMinor(minor), fixed, refusal), "kind")
		}
	}
}

func checkMirrorSetsBefore413(in *lint.Input, r *lint.Reporter) {
	for _, set := range in.Sets() {
		minor := int(set.Minor)
		if minor == 0 || minor >= int(platform.IDMSITMSSince) {
			continue
		}
		for _, o := range append(set.Kind(manifests.GroupConfig, "ImageDigestMirrorSet"), set.Kind(manifests.GroupConfig, "ImageTagMirrorSet")...) {
			r.Object(o, fmt.Sprintf("%s needs OpenShift %s or later, this is %s: the API server has no %s resource and MCO reads only ImageContentSourcePolicy, so these mirrors never reach the nodes; use an ImageContentSourcePolicy (digest mirrors; tag mirroring before 4.13 needs a registries.conf MachineConfig)",
				o.ID(), platform.IDMSITMSSince, platform.OCPMinor(minor), o.Kind), "kind")
		}
	}
}

// ---------------------------------------------------------------------------------------------
// MIR017: blocking the release payload.

func checkBlockedPayload(in *lint.Input, r *lint.Reporter) {
	for _, set := range in.Sets() {
		a := analyze(set)
		if a.imageCfg == nil || len(a.imageCfg.Spec.RegistrySources.BlockedRegistries) == 0 {
			continue
		}
		release, from := a.release, a.releaseFrom
		if release == "" {
			release, from = platform.OfficialReleaseRepository+"@"+probeDigest, "the official release repository (no release image given)"
		}
		withRelease := a.in
		withRelease.ReleaseImage = release
		conf, err := registries.Render(withRelease)
		if err != nil {
			continue
		}
		blockedPath := func(scope string) []string {
			for i, s := range a.imageSpec.Spec.RegistrySources.BlockedRegistries {
				if s == scope {
					return []string{"spec", "registrySources", "blockedRegistries", strconv.Itoa(i)}
				}
			}
			return []string{"spec", "registrySources", "blockedRegistries"}
		}
		blocked := a.imageCfg.Spec.RegistrySources.BlockedRegistries
		dropped := map[string]bool{}
		for _, w := range conf.Warnings {
			switch {
			case errors.Is(w, registries.ErrPayloadRepositoryBlocked):
				for _, scope := range blocked {
					if !strings.Contains(w.Error(), strconv.Quote(scope)) {
						continue
					}
					dropped[scope] = true
					path := blockedPath(scope)
					r.Object(a.imageObj, fmt.Sprintf("%s %s %q covers the release payload repository of %s (%s) and no unblocked digest mirror serves it: MCO drops this entry and only logs %q, so the registry is NOT blocked; add an ImageDigestMirrorSet entry for the payload repository with a mirror outside every blocked scope, or narrow the blocked scope",
						a.imageObj.ID(), userPath(path), scope, release, from, w.Error()), path...)
				}
			case errors.Is(w, registries.ErrPayloadCheck):
				path := []string{"spec", "registrySources", "blockedRegistries"}
				r.Object(a.imageObj, fmt.Sprintf("%s %s: MCO cannot evaluate whether the blocked registries cover the release payload (%v) and then renders NO blocked registries at all",
					a.imageObj.ID(), userPath(path), w), path...)
				dropped = nil
			}
		}
		if dropped == nil {
			continue
		}
		// The payload's component images are not protected by MCO's payload rule: resolve one
		// with each remaining blocked scope alone.
		probe := platform.PayloadComponentRepository + "@" + probeDigest
		for _, scope := range blocked {
			if dropped[scope] {
				continue
			}
			one := withRelease
			img := a.imageCfg.DeepCopy()
			img.Spec.RegistrySources.BlockedRegistries = []string{scope}
			img.Spec.RegistrySources.AllowedRegistries = nil
			one.Image = img
			if !pullBlocked(one, probe) {
				continue
			}
			path := blockedPath(scope)
			r.Object(a.imageObj, fmt.Sprintf("%s %s %q blocks %s, where every release payload component is pulled from (by digest), and no unblocked digest mirror serves it: every component pull fails; add an ImageDigestMirrorSet entry for quay.io/openshift-release-dev with a mirror outside every blocked scope, or narrow the blocked scope",
				a.imageObj.ID(), userPath(path), scope, platform.PayloadComponentRepository), path...)
		}
	}
}

// pullBlocked reports whether ref cannot be pulled under what MCO renders for in: its source is
// blocked and no mirror is left to try.
func pullBlocked(in registries.Input, ref string) bool {
	conf, err := registries.Render(in)
	if err != nil {
		return false
	}
	data, err := conf.TOML()
	if err != nil {
		return false
	}
	res, err := registries.Resolve(data, ref)
	if err != nil || res.SucceedsDisconnected(nil) {
		return false
	}
	for _, ep := range res.Endpoints {
		if !ep.Mirror && ep.Blocked {
			return true
		}
	}
	return false
}

// ---------------------------------------------------------------------------------------------
// MIR018: tag mirroring as a supply-chain note.

func checkTagMirroring(in *lint.Input, r *lint.Reporter) {
	for _, set := range in.Sets() {
		m := readMirrorObjects(set)
		if !m.legacy() {
			reported := map[*manifests.Object]bool{}
			for _, e := range m.entries {
				if e.kind != tagSet || !e.realMirrors() || reported[e.obj] {
					continue
				}
				reported[e.obj] = true
				var sources []string
				for _, x := range m.entries {
					if x.obj == e.obj && x.realMirrors() {
						sources = append(sources, x.source)
					}
				}
				r.Object(e.obj, fmt.Sprintf("%s mirrors tag pulls of %s: a tag resolves to whatever the mirror serves under it, without the digest check a digest pull gets; pull by digest where you can and acknowledge the rest with a suppression that says why",
					e.obj.ID(), strings.Join(sources, ", ")), "spec", e.list())
			}
		}
		files, _ := machineConfigFiles(set)
		for _, f := range files {
			if f.conf == nil {
				continue
			}
			if tags := tagMirrors(f.conf); len(tags) > 0 {
				r.Object(f.obj, fmt.Sprintf("%s %s writes %s with tag mirroring (%s): a tag resolves to whatever the mirror serves under it, without the digest check a digest pull gets; pull by digest where you can and acknowledge the rest with a suppression that says why",
					f.obj.ID(), userPath(f.path), f.file, strings.Join(tags, "; ")), f.path...)
			}
		}
	}
}

// ---------------------------------------------------------------------------------------------
// MIR019: insecure mirrors.

func checkInsecureMirrors(in *lint.Input, r *lint.Reporter) {
	for _, set := range in.Sets() {
		a := analyze(set)
		if a.imageCfg == nil || len(a.imageCfg.Spec.RegistrySources.InsecureRegistries) == 0 || len(a.accepted) == 0 {
			continue
		}
		for i, scope := range a.imageSpec.Spec.RegistrySources.InsecureRegistries {
			img := a.imageCfg.DeepCopy()
			img.Spec.RegistrySources.InsecureRegistries = []string{scope}
			conf, err := registries.Render(a.input(a.accepted, img))
			if err != nil {
				continue
			}
			var insecure []string
			for _, reg := range conf.Registries {
				for _, mirror := range reg.Mirrors {
					if mirror.Insecure {
						insecure = append(insecure, mirror.Location)
					}
				}
			}
			if len(insecure) == 0 {
				continue
			}
			sort.Strings(insecure)
			path := []string{"spec", "registrySources", "insecureRegistries", strconv.Itoa(i)}
			r.Object(a.imageObj, fmt.Sprintf("%s %s %q makes the mirrors %v insecure: CRI-O skips TLS verification for them (and may use plain HTTP), sending the pull secret's credentials and accepting whatever answers; put the mirror's CA into spec.additionalTrustedCA (ConfigMap in openshift-config, key host..port) and remove the entry",
				a.imageObj.ID(), userPath(path), scope, uniqueStrings(insecure)), path...)
		}
	}
}
