package rules

import (
	"encoding/base64"
	"strconv"
	"strings"
)

// Fixtures of the MIR family: a failing and a passing case per rule, appended to ruleCases.

// mirrorSetDoc writes an IDMS, ITMS or ICSP with one entry per "source=mirror,mirror[;policy]".
func mirrorSetDoc(kind, name string, entries ...string) string {
	apiVersion, list := "config.openshift.io/v1", "imageDigestMirrors"
	switch kind {
	case "ImageTagMirrorSet":
		list = "imageTagMirrors"
	case "ImageContentSourcePolicy":
		apiVersion, list = "operator.openshift.io/v1alpha1", "repositoryDigestMirrors"
	}
	var b strings.Builder
	b.WriteString("apiVersion: " + apiVersion + "\nkind: " + kind + "\nmetadata:\n  name: " + name + "\nspec:\n  " + list + ":\n")
	for _, e := range entries {
		e, policy, _ := strings.Cut(e, ";")
		source, mirrors, _ := strings.Cut(e, "=")
		b.WriteString("  - source: " + strconv.Quote(source) + "\n    mirrors:\n")
		for _, m := range strings.Split(mirrors, ",") {
			b.WriteString("    - " + strconv.Quote(m) + "\n")
		}
		if policy != "" {
			b.WriteString("    mirrorSourcePolicy: " + policy + "\n")
		}
	}
	return b.String()
}

func mirIDMS(name string, entries ...string) string {
	return mirrorSetDoc("ImageDigestMirrorSet", name, entries...)
}
func mirITMS(name string, entries ...string) string {
	return mirrorSetDoc("ImageTagMirrorSet", name, entries...)
}
func mirICSP(name string, entries ...string) string {
	return mirrorSetDoc("ImageContentSourcePolicy", name, entries...)
}

// installConfigMirrors writes an install-config with the mirror field ("source=mirror,mirror"
// entries); with one mirror each, the mirror of entry i is on line 12+3i, its source on line 13+3i.
func installConfigMirrors(field string, entries ...string) string {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nbaseDomain: example.com\nmetadata:\n  name: hub\nplatform:\n  none: {}\ncontrolPlane:\n  name: master\n  replicas: 3\n" + field + ":\n")
	for _, e := range entries {
		source, mirrors, _ := strings.Cut(e, "=")
		b.WriteString("- mirrors:\n")
		for _, m := range strings.Split(mirrors, ",") {
			b.WriteString("  - " + m + "\n")
		}
		b.WriteString("  source: " + source + "\n")
	}
	return b.String()
}

// imageConfig writes image.config "cluster" with registrySources lists ("insecureRegistries=a,b").
func mirImageConfig(lists ...string) string {
	var b strings.Builder
	b.WriteString("apiVersion: config.openshift.io/v1\nkind: Image\nmetadata:\n  name: cluster\nspec:\n  registrySources:\n")
	for _, l := range lists {
		name, scopes, _ := strings.Cut(l, "=")
		b.WriteString("    " + name + ":\n")
		for _, s := range strings.Split(scopes, ",") {
			b.WriteString("    - " + strconv.Quote(s) + "\n")
		}
	}
	return b.String()
}

// clusterVersion pins the OpenShift version of plain manifests.
func mirClusterVersion(version string) string {
	return "apiVersion: config.openshift.io/v1\nkind: ClusterVersion\nmetadata:\n  name: version\nspec:\n  desiredUpdate:\n    version: " + version + "\n"
}

func mirOperatorHub(disableAll bool) string {
	v := "false"
	if disableAll {
		v = "true"
	}
	return "apiVersion: config.openshift.io/v1\nkind: OperatorHub\nmetadata:\n  name: cluster\nspec:\n  disableAllDefaultSources: " + v + "\n"
}

// machineConfig writes a MachineConfig for pool worker writing one file with content.
func mirMachineConfig(name, path, content string) string {
	return `apiVersion: machineconfiguration.openshift.io/v1
kind: MachineConfig
metadata:
  name: ` + name + `
  labels:
    machineconfiguration.openshift.io/role: worker
spec:
  config:
    ignition:
      version: 3.4.0
    storage:
      files:
      - path: ` + path + `
        mode: 420
        overwrite: true
        contents:
          source: data:text/plain;charset=utf-8;base64,` + base64.StdEncoding.EncodeToString([]byte(content)) + "\n"
}

func mirAssistedConfigMap(registriesConf string) string {
	return `apiVersion: v1
kind: ConfigMap
metadata:
  name: mirror-registry-config
  namespace: multicluster-engine
data:
  ca-bundle.crt: ""
  registries.conf: |
` + mirIndent(registriesConf, "    ")
}

func mirIndent(s, prefix string) string {
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = prefix + l
	}
	return strings.Join(lines, "\n") + "\n"
}

const (
	mirRHCache    = "registry.redhat.io=quay.example.com/registry-redhat-io"
	mirNever      = ";NeverContactSource"
	mirAllowed    = ";AllowContactingSource"
	mirPayloadIDS = "quay.io/openshift-release-dev=mirror.example.com/ocp4"
)

const mirAgentTagConf = `unqualified-search-registries = []

[[registry]]
  location = "registry.redhat.io"
  mirror-by-digest-only = false

  [[registry.mirror]]
    location = "quay.example.com/registry-redhat-io"

[[registry]]
  location = "quay.io/openshift-release-dev"

  [[registry.mirror]]
    location = "quay.example.com/ocp4"
    pull-from-mirror = "all"
`

const mirAgentDigestConf = `unqualified-search-registries = []

[[registry]]
  location = "registry.redhat.io"
  mirror-by-digest-only = true

  [[registry.mirror]]
    location = "quay.example.com/registry-redhat-io"

[[registry]]
  location = "quay.io/openshift-release-dev"

  [[registry.mirror]]
    location = "quay.example.com/ocp4"
    pull-from-mirror = "digest-only"
`

const mirRegistriesConfByHand = `unqualified-search-registries = ["registry.access.redhat.com", "docker.io"]

[[registry]]
  location = "registry.redhat.io"

  [[registry.mirror]]
    location = "quay.example.com/registry-redhat-io"
`

var mirroringCases = []ruleCase{
	// MIR001: a site's mirroring.images are covered by the CLI tests; objects here.
	{rule: "MIR001", name: "cluster catalog by tag under a blocked source", files: map[string]string{
		"idms.yaml": mirIDMS("cache", mirRHCache+mirNever),
		"catalog.yaml": `apiVersion: olm.operatorframework.io/v1
kind: ClusterCatalog
metadata: {name: redhat}
spec:
  source:
    type: Image
    image:
      ref: registry.redhat.io/redhat/redhat-operator-index:v4.18
`,
	}, want: []string{"catalog.yaml:8:12: error: registry.redhat.io/redhat/redhat-operator-index:v4.18 is pulled by tag"}},
	{rule: "MIR001", name: "connected cluster may bypass the digest mirror", files: map[string]string{
		"idms.yaml": mirIDMS("cache", mirRHCache), "catalog.yaml": catalogByTag,
	}},

	{rule: "MIR002", name: "default catalogs enabled under a blocked registry.redhat.io", files: map[string]string{
		"idms.yaml": mirIDMS("cache", mirRHCache+mirNever), "hub.yaml": mirOperatorHub(false), "cv.yaml": mirClusterVersion("4.16.8"),
	}, want: []string{"hub.yaml:6:29: error: OperatorHub cluster spec.disableAllDefaultSources: the default catalog sources redhat-operators, certified-operators, community-operators, redhat-marketplace stay enabled and pull registry.redhat.io/redhat/redhat-operator-index:v4.16"}},
	{rule: "MIR002", name: "one default source re-enabled", files: map[string]string{
		"idms.yaml": mirIDMS("cache", mirRHCache+mirNever),
		"hub.yaml":  mirOperatorHub(true) + "  sources:\n  - name: community-operators\n    disabled: false\n",
	}, want: []string{"hub.yaml:9:15: error: OperatorHub cluster spec.sources[0].disabled: the default catalog sources community-operators stay enabled"}},
	{rule: "MIR002", name: "default catalogs disabled", files: map[string]string{
		"idms.yaml": mirIDMS("cache", mirRHCache+mirNever), "hub.yaml": mirOperatorHub(true),
	}},
	{rule: "MIR002", name: "default catalogs enabled with a tag mirror", files: map[string]string{
		"idms.yaml": mirIDMS("cache", mirRHCache+mirNever), "itms.yaml": mirITMS("cache-tags", mirRHCache+mirNever), "hub.yaml": mirOperatorHub(false),
	}},

	// No OperatorHub in the set: the defaults are enabled (api config/v1 types_operatorhub.go
	// OperatorHubSpec.sources "If the list is empty, it implies that the default hub sources are enabled
	// on the cluster unless disableAllDefaultSources is true"); the finding is at the NeverContactSource
	// entry. The docs' IDMS example (images-configuration-registry-mirror-configuring, 4.22) is this shape.
	{rule: "MIR002", name: "no OperatorHub, registry.redhat.io NeverContactSource, release unknown", files: map[string]string{
		"idms.yaml": mirIDMS("cache", mirRHCache+mirNever),
	}, want: []string{"idms.yaml:10:25: error: no OperatorHub cluster in the set, so the default catalog sources are enabled: the default catalog sources redhat-operators, certified-operators, community-operators, redhat-marketplace stay enabled and pull registry.redhat.io/redhat/redhat-operator-index:v4.N, registry.redhat.io/redhat/certified-operator-index:v4.N, registry.redhat.io/redhat/community-operator-index:v4.N, registry.redhat.io/redhat/redhat-marketplace-index:v4.N (the tag of the cluster's minor; no version known) BY TAG"}},
	// without the marketplace capability there are no default catalogs
	// (api config/v1 ClusterVersionCapabilityMarketplace; the baseline set
	// None enables no optional capability)
	{rule: "MIR002", name: "marketplace capability off in the install-config", files: map[string]string{
		"idms.yaml":           mirIDMS("cache", mirRHCache+mirNever),
		"install-config.yaml": "apiVersion: v1\nbaseDomain: example.com\nmetadata:\n  name: c\nplatform:\n  none: {}\ncapabilities:\n  baselineCapabilitySet: None\n  additionalEnabledCapabilities: [baremetal]\n",
	}},
	{rule: "MIR002", name: "marketplace capability added back", files: map[string]string{
		"idms.yaml":           mirIDMS("cache", mirRHCache+mirNever),
		"install-config.yaml": "apiVersion: v1\nbaseDomain: example.com\nmetadata:\n  name: c\nplatform:\n  none: {}\ncapabilities:\n  baselineCapabilitySet: None\n  additionalEnabledCapabilities: [marketplace]\n",
	}, want: []string{"idms.yaml:10:25: error: no OperatorHub cluster in the set"}},
	{rule: "MIR002", name: "no OperatorHub, release from a ClusterInstance: the real tag", files: map[string]string{
		"idms.yaml": mirIDMS("cache", mirRHCache+mirNever), "ci.yaml": relClusterInstance("openshift-v4.22"),
	}, want: []string{`idms.yaml:10:25: error: no OperatorHub cluster in the set, so the default catalog sources are enabled: the default catalog sources redhat-operators, certified-operators, community-operators, redhat-marketplace stay enabled and pull registry.redhat.io/redhat/redhat-operator-index:v4.22, registry.redhat.io/redhat/certified-operator-index:v4.22, registry.redhat.io/redhat/community-operator-index:v4.22, registry.redhat.io/redhat/redhat-marketplace-index:v4.22 (the tag of 4.22 (from ClusterInstance core/core spec.clusterImageSetNameRef "openshift-v4.22")) BY TAG`}},
	{rule: "MIR002", name: "no OperatorHub, source allowed: the tag pulls reach registry.redhat.io", files: map[string]string{
		"idms.yaml": mirIDMS("cache", mirRHCache+mirAllowed),
	}},
	{rule: "MIR002", name: "OperatorHub disabling redhat-operators only: the other three", files: map[string]string{
		"idms.yaml": mirIDMS("cache", mirRHCache+mirNever),
		"hub.yaml":  mirOperatorHub(false) + "  sources:\n  - name: redhat-operators\n    disabled: true\n",
	}, want: []string{"hub.yaml:6:29: error: OperatorHub cluster spec.disableAllDefaultSources: the default catalog sources certified-operators, community-operators, redhat-marketplace stay enabled"}},
	{rule: "MIR002", name: "OperatorHub disabling each default source", files: map[string]string{
		"idms.yaml": mirIDMS("cache", mirRHCache+mirNever),
		"hub.yaml": mirOperatorHub(false) + "  sources:\n  - {name: redhat-operators, disabled: true}\n  - {name: certified-operators, disabled: true}\n" +
			"  - {name: community-operators, disabled: true}\n  - {name: redhat-marketplace, disabled: true}\n",
	}},

	{rule: "MIR003", name: "tag mirror on a namespace under a digest-mirrored registry", files: map[string]string{
		"idms.yaml": mirIDMS("cache", mirRHCache+mirNever),
		"itms.yaml": mirITMS("index", "registry.redhat.io/redhat=quay.example.com/registry-redhat-io/redhat"),
	}, want: []string{"itms.yaml:7:13: warning: ImageTagMirrorSet index spec.imageTagMirrors[0].source: registry.redhat.io/redhat is nested in registry.redhat.io, which ImageDigestMirrorSet cache mirrors for digest pulls through [quay.example.com/registry-redhat-io]; the table for registry.redhat.io/redhat has only tag-only mirrors, so digest pulls under it (e.g. registry.redhat.io/redhat/siteforge-probe@sha256:"}},
	{rule: "MIR003", name: "digest mirror on a repository under a tag-mirrored registry", files: map[string]string{
		"itms.yaml": mirITMS("cache", mirRHCache),
		"idms.yaml": mirIDMS("ubi", "registry.redhat.io/ubi9=mirror.example.com/ubi9"),
	}, want: []string{"idms.yaml:7:13: warning: ImageDigestMirrorSet ubi spec.imageDigestMirrors[0].source: registry.redhat.io/ubi9 is nested in registry.redhat.io, which ImageTagMirrorSet cache mirrors for tag pulls"}},
	{rule: "MIR003", name: "nested scope mirrored for both kinds", files: map[string]string{
		"idms.yaml": mirIDMS("cache", mirRHCache+mirNever, "registry.redhat.io/redhat=quay.example.com/registry-redhat-io/redhat"),
		"itms.yaml": mirITMS("index", "registry.redhat.io/redhat=quay.example.com/registry-redhat-io/redhat"),
	}},

	{rule: "MIR004", name: "ICSP next to a NeverContactSource IDMS", files: map[string]string{
		"idms.yaml": mirIDMS("cache", mirRHCache+mirNever), "icsp.yaml": mirICSP("old", mirRHCache),
	}, want: []string{`icsp.yaml:7:13: error: ImageContentSourcePolicy old spec.repositoryDigestMirrors[0].source: MCO refuses to render registries.conf (the nodes keep the previous file; the error shows only in the machine-config-controller log): could not update registries config with new changes: conflicting mirrorSourcePolicy is set for the same source "registry.redhat.io" in imagedigestmirrorsets, imagetagmirrorsets, or imagecontentsourcepolicies; ImageDigestMirrorSet cache spec.imageDigestMirrors[0] sets NeverContactSource, this entry AllowContactingSource`}},
	{rule: "MIR004", name: "tag set with an explicit policy conflicting", files: map[string]string{
		"idms.yaml": mirIDMS("cache", mirRHCache+mirNever), "itms.yaml": mirITMS("cache-tags", mirRHCache+mirAllowed),
	}, want: []string{"itms.yaml:10:25: error: ImageTagMirrorSet cache-tags spec.imageTagMirrors[0].mirrorSourcePolicy: MCO refuses"}},
	{rule: "MIR004", name: "same policy everywhere", files: map[string]string{
		"idms.yaml": mirIDMS("cache", mirRHCache+mirNever), "itms.yaml": mirITMS("cache-tags", mirRHCache+mirNever),
	}},

	// a conflict with the installer's own ImageDigestMirrorSet (from the
	// install-config) is MIR021, not MIR004
	{rule: "MIR004", name: "conflict with the installer's mirror objects only", files: map[string]string{
		"idms.yaml": mirIDMS("cache", mirRHCache+mirNever), "install-config.yaml": installConfigMirrors("imageDigestSources", mirRHCache),
	}},
	{rule: "MIR021", name: "NeverContactSource next to the installer's policy-less mirrors", files: map[string]string{
		"idms.yaml": mirIDMS("cache", mirRHCache+mirNever), "install-config.yaml": installConfigMirrors("imageDigestSources", mirRHCache),
	}, want: []string{"install-config.yaml:13:11: warning: install-config imageDigestSources[0].source (ImageDigestMirrorSet image-digest-mirror, which the installer creates from it): MCO refuses to render registries.conf " +
		"(the nodes keep the previous file; the error shows only in the machine-config-controller log): could not update registries config with new changes: " +
		`conflicting mirrorSourcePolicy is set for the same source "registry.redhat.io" in imagedigestmirrorsets, imagetagmirrorsets, or imagecontentsourcepolicies; ` +
		"ImageDigestMirrorSet cache spec.imageDigestMirrors[0] sets NeverContactSource, this entry AllowContactingSource: give every entry for registry.redhat.io the same policy; " +
		"or, after the installation, delete imagedigestmirrorset/image-digest-mirror, which the installer creates (siteforge explain MIR021)"}},
	{rule: "MIR021", name: "the installer's mirrors and the day-2 ones allow contacting the source", files: map[string]string{
		"idms.yaml": mirIDMS("cache", mirRHCache+mirAllowed), "install-config.yaml": installConfigMirrors("imageDigestSources", mirRHCache),
	}},
	{rule: "MIR021", name: "a conflict between day-2 objects is MIR004", files: map[string]string{
		"idms.yaml": mirIDMS("cache", mirRHCache+mirNever), "icsp.yaml": mirICSP("old", mirRHCache),
	}},

	{rule: "MIR005", name: "source among the mirrors", files: map[string]string{
		"idms.yaml": mirIDMS("cache", "registry.redhat.io=quay.example.com/registry-redhat-io,registry.redhat.io"+mirNever),
	}, want: []string{`idms.yaml:11:25: error: ImageDigestMirrorSet cache spec.imageDigestMirrors[0].mirrorSourcePolicy: MCO refuses to render registries.conf (the nodes keep the previous file; the error shows only in the machine-config-controller log): could not update registries config with new changes: cannot set mirrorSourcePolicy: NeverContactSource if the source "registry.redhat.io" is one of the mirrors`}},
	{rule: "MIR005", name: "source among the mirrors, contacting allowed", files: map[string]string{
		"idms.yaml": mirIDMS("cache", "registry.redhat.io=quay.example.com/registry-redhat-io,registry.redhat.io"+mirAllowed),
	}},

	{rule: "MIR006", name: "scheme, tag and upper case", files: map[string]string{
		"icsp.yaml": mirICSP("old", "registry.redhat.io=https://quay.example.com/registry-redhat-io", "quay.io/ocp:4.16=mirror.example.com/ocp", "docker.io=mirror.example.com/DockerHub"),
	}, want: []string{
		`icsp.yaml:9:7: error: ImageContentSourcePolicy old spec.repositoryDigestMirrors[0].mirrors[0]: MCO refuses to render registries.conf (the nodes keep the previous file; the error shows only in the machine-config-controller log): could not update registries config with new changes: invalid format for mirror "https://quay.example.com/registry-redhat-io": remove the scheme`,
		`icsp.yaml:10:13: error: ImageContentSourcePolicy old spec.repositoryDigestMirrors[1].source: MCO refuses to render registries.conf (the nodes keep the previous file; the error shows only in the machine-config-controller log): could not update registries config with new changes: invalid format for source "quay.io/ocp:4.16": remove the tag`,
		`icsp.yaml:15:7: error: ImageContentSourcePolicy old spec.repositoryDigestMirrors[2].mirrors[0]: MCO refuses`,
	}},
	{rule: "MIR006", name: "digest in a mirror", files: map[string]string{
		"idms.yaml": mirIDMS("cache", "quay.io/ocp=mirror.example.com/ocp@sha256:0000000000000000000000000000000000000000000000000000000000000000"),
	}, want: []string{`idms.yaml:9:7: error: ImageDigestMirrorSet cache spec.imageDigestMirrors[0].mirrors[0] "mirror.example.com/ocp@sha256:0000000000000000000000000000000000000000000000000000000000000000": the API server rejects the ImageDigestMirrorSet: a mirror must match the CRD pattern host[:port][/lower-case/path] (openshift/api config/v1 types_image_digest_mirror_set.go, kubebuilder pattern on ImageMirror): remove the digest`}},
	// The telco-hub registry templates: one placeholder in every mirror of an object is one finding
	// per object, with the hint to fill it in; the API server (CRD pattern) rejects IDMS and ITMS.
	{rule: "MIR006", name: "template placeholder repeated", files: map[string]string{
		"idms.yaml": mirIDMS("operators", "registry.redhat.io/oadp=<registry.example.com:8443>/oadp", "registry.redhat.io/rhel8=<registry.example.com:8443>/rhel8", "registry.redhat.io/rhel9=<registry.example.com:8443>/rhel9"),
		"itms.yaml": mirITMS("generic", "registry.redhat.io/ubi8=<registry.example.com:8443>/ubi8", "quay.io/Upper=mirror.example.com/upper"),
	}, want: []string{
		`idms.yaml:9:7: error: ImageDigestMirrorSet operators spec.imageDigestMirrors[0].mirrors[0] "<registry.example.com:8443>/oadp": the API server rejects the ImageDigestMirrorSet: a mirror must match the CRD pattern host[:port][/lower-case/path] (openshift/api config/v1 types_image_digest_mirror_set.go, kubebuilder pattern on ImageMirror): fill in the template placeholder <registry.example.com:8443> (the same placeholder in 2 more entries: spec.imageDigestMirrors[1].mirrors[0], spec.imageDigestMirrors[2].mirrors[0])`,
		`itms.yaml:9:7: error: ImageTagMirrorSet generic spec.imageTagMirrors[0].mirrors[0] "<registry.example.com:8443>/ubi8": the API server rejects the ImageTagMirrorSet`,
		`itms.yaml:10:13: error: ImageTagMirrorSet generic spec.imageTagMirrors[1].source "quay.io/Upper": the API server rejects the ImageTagMirrorSet: a source must match the CRD pattern host[:port][/lower-case/path] or *.domain (openshift/api config/v1 types_image_tag_mirror_set.go, kubebuilder pattern on ImageTagMirrors.Source): repository paths are lower-case`,
	}},
	// install-config mirrors: the installer validates every source and mirror
	// (openshift/installer pkg/types/validation/installconfig.go validateImageDigestSources ->
	// validateNamedRepository) and stops before creating any manifest.
	{rule: "MIR006", name: "install-config placeholder mirrors", files: map[string]string{
		"install-config.yaml": installConfigMirrors("imageDigestSources", "quay.io/openshift-release-dev/ocp-release=<mirror_hostname>:8443/openshift-release-dev/ocp-release", "quay.io/openshift-release-dev/ocp-v4.0-art-dev=<mirror_hostname>:8443/openshift-release-dev/ocp-v4.0-art-dev"),
	}, want: []string{
		`install-config.yaml:12:5: error: install-config imageDigestSources[0].mirrors[0] "<mirror_hostname>:8443/openshift-release-dev/ocp-release": the installer rejects the install-config and creates nothing (openshift/installer pkg/types/validation/installconfig.go validateNamedRepository: failed to parse: invalid reference format): fill in the template placeholder <mirror_hostname> (the same placeholder in 1 more entry: imageDigestSources[1].mirrors[0])`,
	}},
	// installer pkg/types/validation/installconfig_test.go "release image source is not valid":
	// source ocp/release-x.y is refused (not canonical, and no valid host).
	{rule: "MIR006", name: "install-config imageContentSources source not a repository", files: map[string]string{
		"install-config.yaml": installConfigMirrors("imageContentSources", "ocp/release-x.y=mirror.example.com/ocp"),
	}, want: []string{
		`install-config.yaml:13:11: error: install-config imageContentSources[0].source "ocp/release-x.y": the installer rejects the install-config and creates nothing (openshift/installer pkg/types/validation/installconfig.go validateNamedRepository: the repository provided is invalid: a lowercase RFC 1123 subdomain`,
	}},
	{rule: "MIR006", name: "install-config mirrors the installer accepts", files: map[string]string{
		"install-config.yaml": installConfigMirrors("imageDigestSources", "quay.io/openshift-release-dev/ocp-release=registry.lab.example.com:5000/ocp/release", "registry.redhat.io=registry.lab.example.com:5000"),
	}},
	{rule: "MIR006", name: "well-formed locations", files: map[string]string{
		"idms.yaml": mirIDMS("cache", mirRHCache, "*.example.com=mirror.example.net:5000/cache"),
	}},

	{rule: "MIR007", name: "dotless mirror host and source", files: map[string]string{
		"idms.yaml": mirIDMS("cache", "registry.redhat.io=mirrorhost/registry-redhat-io", "internal/team=mirror.example.com/team"),
	}, want: []string{
		`idms.yaml:9:7: warning: ImageDigestMirrorSet cache spec.imageDigestMirrors[0].mirrors[0] "mirrorhost/registry-redhat-io": c/image reads it as the Docker Hub repository docker.io/mirrorhost/registry-redhat-io`,
		`idms.yaml:10:13: warning: ImageDigestMirrorSet cache spec.imageDigestMirrors[1].source "internal/team": c/image reads it as the Docker Hub repository docker.io/internal/team`,
	}},
	{rule: "MIR007", name: "port, localhost and dotted hosts", files: map[string]string{
		"idms.yaml":  mirIDMS("cache", "registry.redhat.io=mirrorhost:5000/registry-redhat-io,localhost/rh,mirror.example.com"),
		"image.yaml": mirImageConfig("insecureRegistries=mirrorhost:5000"),
	}},

	{rule: "MIR008", name: "wildcard source with a mirror", files: map[string]string{
		"idms.yaml": mirIDMS("cache", "*.example.com=mirror.example.net/cache"),
	}, want: []string{`idms.yaml:7:13: warning: ImageDigestMirrorSet cache spec.imageDigestMirrors[0].source "*.example.com" has mirrors: c/image replaces the whole matched host with the mirror location, so different registries under *.example.com collide on one mirror path and host:port references cannot be rewritten (a.example.com/ns/app@sha256:0000000000000000000000000000000000000000000000000000000000000000 and b.example.com/ns/app@sha256:0000000000000000000000000000000000000000000000000000000000000000 both pull mirror.example.net/cache/ns/app@sha256:`}},
	{rule: "MIR008", name: "one source per host", files: map[string]string{
		"idms.yaml": mirIDMS("cache", "a.example.com=mirror.example.net/a", "b.example.com=mirror.example.net/b"),
	}},

	{rule: "MIR009", name: "insecure scope inside a mirrored wildcard", files: map[string]string{
		"idms.yaml":  mirIDMS("cache", "*.example.com=mirror.example.net/cache"),
		"image.yaml": mirImageConfig("insecureRegistries=registry.example.com"),
	}, want: []string{`idms.yaml:7:13: error: ImageDigestMirrorSet cache spec.imageDigestMirrors[0].source: MCO refuses to render registries.conf (the nodes keep the previous file; the error shows only in the machine-config-controller log): could not update registries config with new changes: internal error: mirrorsAdjustedForNestedScope for a wildcard scope "*.example.com" (image.config insecureRegistries "registry.example.com" lies inside it)`}},
	{rule: "MIR009", name: "insecure scope outside the wildcard", files: map[string]string{
		"idms.yaml":  mirIDMS("cache", "*.example.com=mirror.example.net/cache"),
		"image.yaml": mirImageConfig("insecureRegistries=registry.example.org"),
	}},

	{rule: "MIR010", name: "invalid scope, allowed and blocked together", files: map[string]string{
		"image.yaml": mirImageConfig("insecureRegistries=registry.example.com/*", "blockedRegistries=docker.io", "allowedRegistries=quay.io"),
	}, want: []string{
		`image.yaml:8:7: error: Image cluster spec.registrySources.insecureRegistries[0]: MCO refuses to render registries.conf (the nodes keep the previous file; the error shows only in the machine-config-controller log): could not update registries config with new changes: invalid entry for insecure registries "registry.example.com/*"`,
		`image.yaml:12:5: error: Image cluster spec.registrySources.allowedRegistries: MCO refuses to render registries.conf (the nodes keep the previous file; the error shows only in the machine-config-controller log): could not update policy json with new changes: invalid images config: only one of AllowedRegistries or BlockedRegistries may be specified`,
	}},
	{rule: "MIR010", name: "valid scopes", files: map[string]string{
		"image.yaml": mirImageConfig("insecureRegistries=*.lab.example.com,registry.example.com:5000", "blockedRegistries=docker.io"),
	}},

	{rule: "MIR011", name: "mirrors at a Service name and a ClusterIP", files: map[string]string{
		"idms.yaml": mirIDMS("cache", "registry.redhat.io=registry-cache.mirror.svc:5000/rh,quay.example.com/registry-redhat-io",
			"quay.io=10.96.4.20:5000/quay"),
		"install-config.yaml": "apiVersion: v1\nbaseDomain: example.com\nmetadata: {name: c}\nplatform: {none: {}}\nnetworking:\n  serviceNetwork: [10.96.0.0/12]\n",
	}, want: []string{
		`idms.yaml:9:7: warning: ImageDigestMirrorSet cache spec.imageDigestMirrors[0].mirrors[0] "registry-cache.mirror.svc:5000/rh" is a cluster DNS name`,
		`idms.yaml:13:7: warning: ImageDigestMirrorSet cache spec.imageDigestMirrors[1].mirrors[0] "10.96.4.20:5000/quay" is a Service ClusterIP (in 10.96.0.0/12, install-config networking.serviceNetwork)`,
	}},
	{rule: "MIR011", name: "internal registry and the default service network", files: map[string]string{
		"itms.yaml": mirITMS("cache", "quay.io=image-registry.openshift-image-registry.svc:5000/quay,172.30.99.1/quay"),
	}, want: []string{
		`itms.yaml:9:7: warning: ImageTagMirrorSet cache spec.imageTagMirrors[0].mirrors[0] "image-registry.openshift-image-registry.svc:5000/quay" is the internal image registry's Service name`,
		`itms.yaml:10:7: warning: ImageTagMirrorSet cache spec.imageTagMirrors[0].mirrors[1] "172.30.99.1/quay" is a Service ClusterIP (in 172.30.0.0/16, the default service network)`,
	}},
	{rule: "MIR011", name: "mirrors outside the cluster", files: map[string]string{
		"idms.yaml": mirIDMS("cache", "registry.redhat.io=quay.example.com/registry-redhat-io,10.0.0.5:5000/rh"),
	}},

	{rule: "MIR022", name: "NeverContactSource through a Service mirror", files: map[string]string{
		"idms.yaml": mirIDMS("cache", "registry.redhat.io=registry-cache.mirror.svc:5000/rh"+mirNever),
	}, want: []string{
		`idms.yaml:10:25: error: ImageDigestMirrorSet cache spec.imageDigestMirrors[0].mirrorSourcePolicy is NeverContactSource while its mirror "registry-cache.mirror.svc:5000/rh" is a cluster DNS name, which the node's resolver does not know: a bootstrap deadlock`,
	}},
	{rule: "MIR022", name: "blocked source mirrored at a Route of the cluster", files: map[string]string{
		"idms.yaml":  mirIDMS("cache", "quay.io=quay-quay-registry.apps.c.example.com/quay-io"),
		"image.yaml": mirImageConfig("blockedRegistries=quay.io"),
		"route.yaml": "apiVersion: route.openshift.io/v1\nkind: Route\nmetadata:\n  name: quay-quay-registry\n  namespace: quay\nspec:\n  host: quay-quay-registry.apps.c.example.com\n  to: {kind: Service, name: quay-quay-app}\n",
	}, want: []string{
		`image.yaml:8:7: error: Image cluster spec.registrySources.blockedRegistries[0] "quay.io" blocks quay.io, whose mirror "quay-quay-registry.apps.c.example.com/quay-io" (ImageDigestMirrorSet cache spec.imageDigestMirrors[0]) is the host of Route quay/quay-quay-registry`,
	}},
	{rule: "MIR022", name: "NeverContactSource through a host under the install-config's apps domain", files: map[string]string{
		"idms.yaml":           mirIDMS("cache", "registry.redhat.io=quay-quay-registry.apps.c.example.com/rh"+mirNever),
		"install-config.yaml": "apiVersion: v1\nbaseDomain: example.com\nmetadata: {name: c}\nplatform: {none: {}}\n",
	}, want: []string{
		`idms.yaml:10:25: error: ImageDigestMirrorSet cache spec.imageDigestMirrors[0].mirrorSourcePolicy is NeverContactSource while its mirror "quay-quay-registry.apps.c.example.com/rh" is under apps.c.example.com (install-config metadata.name and baseDomain), the cluster's own ingress domain: a Route host, served by a workload of this cluster through its routers: a bootstrap deadlock`,
	}},
	{rule: "MIR022", name: "blocked source with one mirror under the Ingress config's domain and one outside", files: map[string]string{
		"idms.yaml":    mirIDMS("cache", "quay.io=cache.apps.edge.example.com/quay-io,mirror.example.net/quay-io"),
		"image.yaml":   mirImageConfig("blockedRegistries=quay.io"),
		"ingress.yaml": "apiVersion: config.openshift.io/v1\nkind: Ingress\nmetadata:\n  name: cluster\nspec:\n  domain: apps.edge.example.com\n",
	}, want: []string{
		`image.yaml:8:7: error: Image cluster spec.registrySources.blockedRegistries[0] "quay.io" blocks quay.io, whose mirror "cache.apps.edge.example.com/quay-io" (ImageDigestMirrorSet cache spec.imageDigestMirrors[0]) is under apps.edge.example.com (Ingress cluster spec.domain), the cluster's own ingress domain: a Route host, served by a workload of this cluster through its routers: no deadlock, as "mirror.example.net/quay-io" outside the cluster serves it`,
	}},
	// the same verdict as render's (generators/mirroring TestBlockedSourceAsItsOwnMirror)
	{rule: "MIR022", name: "blocked source listed as its own mirror", files: map[string]string{
		"idms.yaml":  mirIDMS("cache", "quay.io=172.30.9.9/quay-io,quay.io"),
		"image.yaml": mirImageConfig("blockedRegistries=quay.io"),
	}, want: []string{
		`image.yaml:8:7: error: Image cluster spec.registrySources.blockedRegistries[0] "quay.io" blocks quay.io, whose mirror "172.30.9.9/quay-io" (ImageDigestMirrorSet cache spec.imageDigestMirrors[0]) is a Service ClusterIP (in 172.30.0.0/16, the default service network), which answers only once the cluster network is up: a bootstrap deadlock`,
	}},
	{rule: "MIR022", name: "NeverContactSource through a host under a shard's domain", files: map[string]string{
		"idms.yaml": mirIDMS("cache", "quay.io=cache.edge.example.com/quay-io"+mirNever),
		"ic.yaml":   "apiVersion: operator.openshift.io/v1\nkind: IngressController\nmetadata:\n  name: edge\n  namespace: openshift-ingress-operator\nspec:\n  domain: edge.example.com\n",
	}, want: []string{
		`idms.yaml:10:25: error: ImageDigestMirrorSet cache spec.imageDigestMirrors[0].mirrorSourcePolicy is NeverContactSource while its mirror "cache.edge.example.com/quay-io" is under edge.example.com (IngressController openshift-ingress-operator/edge spec.domain)`,
	}},
	{rule: "MIR022", name: "NeverContactSource through another cluster's apps domain", files: map[string]string{
		"idms.yaml":           mirIDMS("cache", "registry.redhat.io=quay.apps.hub.example.com/rh"+mirNever),
		"install-config.yaml": "apiVersion: v1\nbaseDomain: example.com\nmetadata: {name: c}\nplatform: {none: {}}\n",
	}},
	{rule: "MIR022", name: "in-cluster mirror allowing the source", files: map[string]string{
		"idms.yaml":  mirIDMS("cache", "registry.redhat.io=registry-cache.mirror.svc:5000/rh"+mirAllowed, "quay.io=quay-quay-registry.apps.c.example.com/quay-io"),
		"route.yaml": "apiVersion: route.openshift.io/v1\nkind: Route\nmetadata:\n  name: quay-quay-registry\n  namespace: quay\nspec:\n  host: quay-quay-registry.apps.c.example.com\n  to: {kind: Service, name: quay-quay-app}\n",
	}},

	{rule: "MIR012", name: "registries.conf by hand next to an IDMS", files: map[string]string{
		"idms.yaml": mirIDMS("cache", mirRHCache+mirNever),
		"mc.yaml":   mirMachineConfig("99-worker-registries", "/etc/containers/registries.conf", mirRegistriesConfByHand),
	}, want: []string{"mc.yaml:13:15: warning: MachineConfig 99-worker-registries spec.config.storage.files[0].path writes /etc/containers/registries.conf while ImageDigestMirrorSet/ImageTagMirrorSet/ImageContentSourcePolicy or image.config make MCO write it too; MCO merges a pool's MachineConfigs by name and the last one wins: it sorts after MCO's 99-worker-generated-registries and REPLACES MCO's file"}},
	{rule: "MIR012", name: "drop-in replacing MCO's table", files: map[string]string{
		"idms.yaml": mirIDMS("cache", mirRHCache+mirNever),
		"mc.yaml":   mirMachineConfig("50-worker-mirrors", "/etc/containers/registries.conf.d/50-mirrors.conf", mirRegistriesConfByHand),
	}, want: []string{"mc.yaml:13:15: warning: MachineConfig 50-worker-mirrors spec.config.storage.files[0].path writes the drop-in /etc/containers/registries.conf.d/50-mirrors.conf whose [[registry]] registry.redhat.io has the prefix of a table MCO renders"}},
	{rule: "MIR012", name: "registries.conf by hand, no mirror objects", files: map[string]string{
		"mc.yaml": mirMachineConfig("99-worker-registries", "/etc/containers/registries.conf", mirRegistriesConfByHand),
	}},

	{rule: "MIR013", name: "assisted mirror ConfigMap mirroring tags", files: map[string]string{
		"cm.yaml": mirAssistedConfigMap(mirAgentTagConf),
	}, want: []string{`cm.yaml:11:1: warning: ConfigMap multicluster-engine/mirror-registry-config data.registries.conf (assisted-service mirror registry ConfigMap) configures tag mirroring assisted-service does not carry into the cluster (only its digest mirrors become install-config imageDigestSources; no ImageTagMirrorSet is created): registry.redhat.io -> quay.example.com/registry-redhat-io mirrors tags and digests (mirror-by-digest-only is not true): only the digest mirroring reaches the cluster; quay.io/openshift-release-dev -> quay.example.com/ocp4 has pull-from-mirror = "all": assisted-service drops this mirror (neither a digest nor a tag mirror; with no mirror left it refuses the file, MIR020)`}},
	{rule: "MIR013", name: "assisted mirror ConfigMap digest-only", files: map[string]string{
		"cm.yaml": mirAssistedConfigMap(mirAgentDigestConf),
	}},
	// The agent installer's mirror/registries.conf (installer pkg/asset/agent/mirror/registriesconf.go),
	// read as a file: the finding is at the first table that mirrors tags.
	{rule: "MIR013", name: "agent mirror/registries.conf mirroring tags", files: map[string]string{
		"mirror/registries.conf": mirAgentTagConf,
	}, want: []string{`mirror/registries.conf:3:1: warning: mirror/registries.conf (the agent installer reads mirror/registries.conf next to install-config.yaml) configures tag mirroring assisted-service does not carry into the cluster`}},
	{rule: "MIR013", name: "agent mirror/registries.conf digest-only", files: map[string]string{
		"mirror/registries.conf": mirAgentDigestConf,
	}},

	// containers/image (sysregistriesv2 TryUpdatingCache) refuses a mirror table with no location;
	// the finding is at the line inside the ConfigMap's block scalar. assisted-service refuses a
	// file without mirrors (pkg/mirrorregistries/parser.go GetImageRegistries).
	{rule: "MIR020", name: "registries.conf that does not load or has no mirror", files: map[string]string{
		"mirror/registries.conf": "[[registry]]\n  location = \"registry.redhat.io\"\n  [[registry.mirror]]\n    insecure = true\n",
		"cm.yaml":                mirAssistedConfigMap("[[registry]]\nlocation = \"registry.redhat.io\"\nblocked = = true\n"),
		"cm2.yaml":               strings.Replace(mirAssistedConfigMap("unqualified-search-registries = [\"registry.access.redhat.com\"]\n"), "mirror-registry-config", "no-mirrors", 1),
	}, want: []string{
		`cm.yaml:11:1: error: ConfigMap multicluster-engine/mirror-registry-config data.registries.conf (assisted-service mirror registry ConfigMap) does not load:`,
		`cm2.yaml:8:20: error: ConfigMap multicluster-engine/no-mirrors data.registries.conf (assisted-service mirror registry ConfigMap) has no [[registry]] with a location and a [[registry.mirror]] assisted-service keeps`,
		`mirror/registries.conf:1:1: error: mirror/registries.conf (the agent installer reads mirror/registries.conf next to install-config.yaml) does not load: containers/image rejects registries.conf: invalid condition: mirror location is unset`,
	}},
	// assisted-service drops pull-from-mirror = "all" mirrors
	// (pkg/mirrorregistries/parser.go parseMirrorRegistries) and refuses a
	// file with none left (GetImageRegistries)
	{rule: "MIR020", name: "only pull-from-mirror all mirrors", files: map[string]string{
		"cm.yaml": mirAssistedConfigMap("[[registry]]\nlocation = \"registry.redhat.io\"\n[[registry.mirror]]\nlocation = \"m.example.com/rh\"\npull-from-mirror = \"all\"\n"),
	}, want: []string{`has no [[registry]] with a location and a [[registry.mirror]] assisted-service keeps`}},
	{rule: "MIR020", name: "registries.conf files that load", files: map[string]string{
		"mirror/registries.conf": mirAgentDigestConf,
		"cm.yaml":                mirAssistedConfigMap(mirAgentDigestConf),
	}},

	{rule: "MIR014", name: "ICSP on 4.16", files: map[string]string{
		"icsp.yaml": mirICSP("old", mirRHCache), "cv.yaml": mirClusterVersion("4.16.8"),
	}, want: []string{"icsp.yaml:2:7: info: ImageContentSourcePolicy old: ImageContentSourcePolicy is deprecated since OpenShift 4.13, and this is 4.16 (from ClusterVersion version spec.desiredUpdate.version \"4.16.8\")"}},
	{rule: "MIR014", name: "ICSP on 4.12", files: map[string]string{
		"icsp.yaml": mirICSP("old", mirRHCache), "cv.yaml": mirClusterVersion("4.12.40"),
	}},

	{rule: "MIR015", name: "ICSP and IDMS on 4.13", files: map[string]string{
		"icsp.yaml": mirICSP("old", "quay.io/ocp=mirror.example.com/ocp"), "idms.yaml": mirIDMS("cache", mirRHCache), "cv.yaml": mirClusterVersion("4.13.4"),
	}, want: []string{`icsp.yaml:2:7: error: ImageContentSourcePolicy old next to ImageDigestMirrorSet cache on OpenShift 4.13 (from ClusterVersion version spec.desiredUpdate.version "4.13.4"): z-streams built before the fix (merged 2023-12-05, MCO PR #4027) fail the whole MCO sync ("error: both imagecontentsourcepolicy and imagedigestmirrorset exist")`}},
	{rule: "MIR015", name: "ICSP and ITMS on 4.14", files: map[string]string{
		"icsp.yaml": mirICSP("old", "quay.io/ocp=mirror.example.com/ocp"), "itms.yaml": mirITMS("tags", mirRHCache), "cv.yaml": mirClusterVersion("4.14.2"),
	}, want: []string{`icsp.yaml:2:7: error: ImageContentSourcePolicy old next to ImageTagMirrorSet tags on OpenShift 4.14 (from ClusterVersion version spec.desiredUpdate.version "4.14.2"): z-streams built before the fix (merged 2023-11-07, MCO PR #3995) fail the whole MCO sync ("error: both imagecontentsourcepolicy and imagetagmirrorset exist")`}},
	{rule: "MIR015", name: "ICSP and IDMS on 4.16", files: map[string]string{
		"icsp.yaml": mirICSP("old", "quay.io/ocp=mirror.example.com/ocp"), "idms.yaml": mirIDMS("cache", mirRHCache), "cv.yaml": mirClusterVersion("4.16.8"),
	}},

	{rule: "MIR016", name: "IDMS on 4.12", files: map[string]string{
		"idms.yaml": mirIDMS("cache", mirRHCache),
		"cv.yaml":   "apiVersion: config.openshift.io/v1\nkind: ClusterVersion\nmetadata:\n  name: version\nspec:\n  channel: stable-4.12\n",
	}, want: []string{"idms.yaml:2:7: error: ImageDigestMirrorSet cache needs OpenShift 4.13 or later, this is 4.12"}},
	{rule: "MIR016", name: "IDMS on 4.13", files: map[string]string{
		"idms.yaml": mirIDMS("cache", mirRHCache), "cv.yaml": mirClusterVersion("4.13.40"),
	}},

	{rule: "MIR017", name: "blocking the payload registry without a mirror", files: map[string]string{
		"image.yaml": mirImageConfig("blockedRegistries=quay.io/openshift-release-dev"),
	}, want: []string{`image.yaml:8:7: error: Image cluster spec.registrySources.blockedRegistries[0] "quay.io/openshift-release-dev" covers the release payload repository of quay.io/openshift-release-dev/ocp-release@sha256:0000000000000000000000000000000000000000000000000000000000000000 (the official release repository (no release image given)) and no unblocked digest mirror serves it: MCO drops this entry and only logs "error adding [\"quay.io/openshift-release-dev\"] to blocked registries, cannot block the repository being used by the payload"`}},
	{rule: "MIR017", name: "blocking the payload components without a mirror", files: map[string]string{
		"image.yaml": mirImageConfig("blockedRegistries=quay.io/openshift-release-dev/ocp-v4.0-art-dev"),
		"cv.yaml":    "apiVersion: config.openshift.io/v1\nkind: ClusterVersion\nmetadata:\n  name: version\nspec:\n  desiredUpdate:\n    image: registry.example.com/ocp/release@sha256:0000000000000000000000000000000000000000000000000000000000000000\n",
	}, want: []string{`image.yaml:8:7: error: Image cluster spec.registrySources.blockedRegistries[0] "quay.io/openshift-release-dev/ocp-v4.0-art-dev" blocks quay.io/openshift-release-dev/ocp-v4.0-art-dev, where every release payload component is pulled from`}},
	{rule: "MIR017", name: "payload blocked with an unblocked digest mirror", files: map[string]string{
		"image.yaml": mirImageConfig("blockedRegistries=quay.io/openshift-release-dev"),
		"idms.yaml":  mirIDMS("release", mirPayloadIDS),
	}},

	{rule: "MIR018", name: "tag mirror set", files: map[string]string{
		"itms.yaml": mirITMS("cache-tags", mirRHCache+mirNever, "quay.io=mirror.example.com/quay"),
	}, want: []string{"itms.yaml:7:3: info: ImageTagMirrorSet cache-tags mirrors tag pulls of registry.redhat.io, quay.io: a tag resolves to whatever the mirror serves"}},
	{rule: "MIR018", name: "tag mirroring in a hand-written registries.conf", files: map[string]string{
		"mc.yaml": mirMachineConfig("99-worker-registries", "/etc/containers/registries.conf", mirRegistriesConfByHand),
	}, want: []string{"mc.yaml:13:15: info: MachineConfig 99-worker-registries spec.config.storage.files[0].path writes /etc/containers/registries.conf with tag mirroring (registry.redhat.io -> quay.example.com/registry-redhat-io (tags and digests))"}},
	{rule: "MIR018", name: "digest mirrors only", files: map[string]string{
		"idms.yaml": mirIDMS("cache", mirRHCache+mirNever),
	}},

	{rule: "MIR019", name: "insecure scope covering a mirror", files: map[string]string{
		"idms.yaml":  mirIDMS("cache", mirRHCache+mirNever),
		"image.yaml": mirImageConfig("insecureRegistries=quay.example.com"),
	}, want: []string{`image.yaml:8:7: warning: Image cluster spec.registrySources.insecureRegistries[0] "quay.example.com" makes the mirrors [quay.example.com/registry-redhat-io] insecure`}},
	{rule: "MIR019", name: "insecure scope covering no mirror", files: map[string]string{
		"idms.yaml":  mirIDMS("cache", mirRHCache+mirNever),
		"image.yaml": mirImageConfig("insecureRegistries=registry.lab.example.com"),
	}},
}

func init() {
	ruleCases = append(ruleCases, mirroringCases...)
}
