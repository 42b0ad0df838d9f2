package mirroring

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	configv1 "github.com/openshift/api/config/v1"
	operatorv1alpha1 "github.com/openshift/api/operator/v1alpha1"
	"github.com/pelletier/go-toml/v2"
	"sigs.k8s.io/yaml"

	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/internal/_fidelity"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/load"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/registries"
	"github.com/siteforge/siteforge/internal/ruleid"
	"github.com/siteforge/siteforge/internal/site"
	"github.com/siteforge/siteforge/internal/upstream"
)

const (
	quayHost        = "quay.lab.example.com:8443"
	operatorIndex   = "registry.redhat.io/redhat/redhat-operator-index:v4.16"
	idmsPath        = "mirroring/imagedigestmirrorset-siteforge-digest-mirrors.yaml"
	itmsPath        = "mirroring/imagetagmirrorset-siteforge-tag-mirrors.yaml"
	icspPath        = "mirroring/imagecontentsourcepolicy-siteforge-digest-mirrors.yaml"
	imagePath       = "mirroring/image-cluster.yaml"
	operatorHubPath = "mirroring/operatorhub-cluster.yaml"
	workerPreview   = "mirroring/registries-worker.conf"
	masterPreview   = "mirroring/registries-master.conf"
)

// ---------------------------------------------------------------- helpers

func loadExample(t *testing.T, path string) []*site.Site {
	t.Helper()
	res := load.Load([]string{path})
	if len(res.Diagnostics) > 0 {
		t.Fatalf("load %s: %v", path, res.Diagnostics)
	}
	return res.Sites
}

// siteSpec is the variable part of a test site.
type siteSpec struct {
	version, install, connectivity, lifecycle string
	pools                                     string // extra pools YAML (indented two spaces)
	mirroring                                 string // the mirroring block, "" for none
}

func (sp siteSpec) yaml() string {
	def := func(v, d string) string {
		if v == "" {
			return d
		}
		return v
	}
	var b strings.Builder
	fmt.Fprintf(&b, `apiVersion: siteforge.dev/v1alpha1
kind: Site
name: test
cluster:
  baseDomain: example.com
  version: %q
  platform: none
  installMethod: %s
  connectivity: %s
  lifecycle: %s
network:
  machineNetwork: ["192.168.1.0/24"]
pools:
  master:
    uplinkInterface: eno1
    uplinkMTU: 1500
    nodes:
      # bootMAC and bmc: a hub install (assisted) registers the host as a
      # BareMetalHost (internal/cluster/installcheck)
      - {name: m0, ip: 192.168.1.10, bootMAC: "52:54:00:00:01:10", bmc: {address: "redfish-virtualmedia+https://10.0.0.10/redfish/v1/Systems/1", credentialsSecret: m0-bmc}}
%s`, def(sp.version, "4.16"), def(sp.install, "agent"), def(sp.connectivity, "disconnected"), def(sp.lifecycle, "install"), sp.pools)
	if sp.mirroring != "" {
		b.WriteString("mirroring:\n" + sp.mirroring)
	}
	return b.String()
}

func loadSpec(t *testing.T, sp siteSpec) *site.Site {
	t.Helper()
	l, err := load.New()
	if err != nil {
		t.Fatal(err)
	}
	res := l.LoadSource("site.yaml", []byte(sp.yaml()))
	if len(res.Diagnostics) > 0 {
		t.Fatalf("load test site: %v\n%s", res.Diagnostics, sp.yaml())
	}
	return res.Sites[0]
}

func render(t *testing.T, s *site.Site) *generators.Output {
	t.Helper()
	out, err := generators.Render(s, generators.Options{})
	if err != nil {
		t.Fatalf("render: %v", err)
	}
	return out
}

// decode reads a rendered file (header comment included) into a typed object.
func decode[T any](t *testing.T, out *generators.Output, path string) T {
	t.Helper()
	var v T
	data, ok := out.Files[path]
	if !ok {
		t.Fatalf("no %s; files: %v", path, out.Paths())
	}
	if err := yaml.UnmarshalStrict(data, &v); err != nil {
		t.Fatalf("decode %s: %v", path, err)
	}
	return v
}

func resolve(t *testing.T, conf []byte, ref string) registries.Resolution {
	t.Helper()
	res, err := registries.Resolve(conf, ref)
	if err != nil {
		t.Fatalf("resolve %s: %v", ref, err)
	}
	return res
}

// cacheSource is the mirroring block of a Quay cache (AllowContactingSource unless policy).
func cacheBlock(policy string, orgs map[string]string, extra string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "  quayCache:\n    host: %s\n    policy: %s\n    orgs:\n", quayHost, policy)
	for _, org := range slices.Sorted(maps.Keys(orgs)) {
		fmt.Fprintf(&b, "      %s: %s\n", org, orgs[org])
	}
	b.WriteString(extra)
	return b.String()
}

var labOrgs = map[string]string{"registry-redhat-io": "registry.redhat.io", "ocp4-mirror": "quay.io/openshift-release-dev"}

const labCatalogs = `  catalogs:
    redhat-operators:
      image: registry.redhat.io/redhat/redhat-operator-index:v4.16
`

// ---------------------------------------------------------------- the example

func TestDisconnectedQuayCacheExample(t *testing.T) {
	sites := loadExample(t, "../../examples/disconnected-quay-cache")
	out := render(t, sites[0])

	never := configv1.NeverContactSource
	wantIDMS := []configv1.ImageDigestMirrors{
		{Source: "quay.io/openshift-release-dev", Mirrors: []configv1.ImageMirror{quayHost + "/ocp4-mirror"}, MirrorSourcePolicy: never},
		{Source: "registry.redhat.io", Mirrors: []configv1.ImageMirror{quayHost + "/registry-redhat-io"}, MirrorSourcePolicy: never},
	}
	idms := decode[configv1.ImageDigestMirrorSet](t, out, idmsPath)
	if idms.Name != digestMirrorSetName || !reflect.DeepEqual(idms.Spec.ImageDigestMirrors, wantIDMS) {
		t.Errorf("IDMS %s = %+v, want %+v", idms.Name, idms.Spec.ImageDigestMirrors, wantIDMS)
	}
	// Only registry.redhat.io is pulled by tag (the two catalogs); the release is pulled by
	// digest, so quay.io/openshift-release-dev gets no tag entry.
	wantITMS := []configv1.ImageTagMirrors{
		{Source: "registry.redhat.io", Mirrors: []configv1.ImageMirror{quayHost + "/registry-redhat-io"}, MirrorSourcePolicy: never},
	}
	itms := decode[configv1.ImageTagMirrorSet](t, out, itmsPath)
	if itms.Name != tagMirrorSetName || !reflect.DeepEqual(itms.Spec.ImageTagMirrors, wantITMS) {
		t.Errorf("ITMS %s = %+v, want %+v", itms.Name, itms.Spec.ImageTagMirrors, wantITMS)
	}

	hub := decode[configv1.OperatorHub](t, out, operatorHubPath)
	if hub.Name != "cluster" || !hub.Spec.DisableAllDefaultSources {
		t.Errorf("OperatorHub = %+v, want cluster with disableAllDefaultSources", hub)
	}
	wantCatalogs := map[string]upstream.CatalogSourceSpec{
		"redhat-operators":    {SourceType: "grpc", Image: "registry.redhat.io/redhat/redhat-operator-index:v4.16", DisplayName: "Red Hat Operators", Publisher: "Red Hat"},
		"certified-operators": {SourceType: "grpc", Image: "registry.redhat.io/redhat/certified-operator-index:v4.16", DisplayName: "Certified Operators", Publisher: "Red Hat"},
	}
	for name, want := range wantCatalogs {
		cs := decode[upstream.CatalogSource](t, out, "mirroring/catalogsource-"+name+".yaml")
		if cs.APIVersion != "operators.coreos.com/v1alpha1" || cs.Kind != "CatalogSource" || cs.Name != name || cs.Namespace != "openshift-marketplace" || cs.Spec != want {
			t.Errorf("CatalogSource %s = %+v %+v, want %+v", name, cs.TypeMeta, cs.Spec, want)
		}
	}

	img := decode[configv1.Image](t, out, imagePath)
	if img.Spec.AdditionalTrustedCA.Name != "registry-cas" {
		t.Errorf("image.config additionalTrustedCA = %q, want registry-cas", img.Spec.AdditionalTrustedCA.Name)
	}

	// The node pulls the catalog (by tag) from the cache first, and never needs the source.
	res := resolve(t, out.Files[workerPreview], operatorIndex)
	attempts := res.Attempts()
	if len(attempts) == 0 || attempts[0].Location != quayHost+"/registry-redhat-io" {
		t.Fatalf("attempts for %s = %+v, want the cache first", operatorIndex, attempts)
	}
	if got, want := attempts[0].Reference, quayHost+"/registry-redhat-io/redhat/redhat-operator-index:v4.16"; got != want {
		t.Errorf("physical reference %s, want %s", got, want)
	}
	if !res.SucceedsDisconnected(nil) {
		t.Errorf("%s does not succeed disconnected: %+v", operatorIndex, res.Endpoints)
	}
	// The release (by digest) comes from the namespace cache, without the namespace repeated.
	release := sites[0].Cluster.ReleaseImage
	res = resolve(t, out.Files[workerPreview], release)
	if a := res.Attempts(); len(a) == 0 || !strings.HasPrefix(a[0].Reference, quayHost+"/ocp4-mirror/ocp-release@sha256:") || !res.SucceedsDisconnected(nil) {
		t.Errorf("release %s resolves to %+v", release, res.Endpoints)
	}

	// Agent install: no fragment (the install finisher writes install-config.yaml), and the
	// warning about the installer's own IDMS.
	if _, ok := out.Files[installConfigMirrorsPath]; ok {
		t.Errorf("unexpected %s for an agent install", installConfigMirrorsPath)
	}
	if _, ok := out.Files[masterPreview]; !ok {
		t.Errorf("missing %s", masterPreview)
	}
	// The site suppresses it (MIR021, with the reason that the object is
	// deleted after the installation): render drops it, and keeps it in
	// Suppressed for lint.
	if hasWarning(out.Warnings, "image-digest-mirror") {
		t.Errorf("the suppressed MIR021 warning is still shown: %v", out.Warnings)
	}
	if len(out.Suppressed) != 1 || out.Suppressed[0].Rule != ruleid.InstallerMirrorsConflict || !hasWarning(out.Suppressed, "image-digest-mirror") {
		t.Errorf("suppressed %v, want the MIR021 warning about the installer's IDMS", out.Suppressed)
	}
}

// commentText joins a file's comment lines into one line of text (comments are wrapped).
func commentText(data []byte) string {
	var words []string
	for _, line := range strings.Split(string(data), "\n") {
		if text, ok := strings.CutPrefix(strings.TrimSpace(line), "#"); ok {
			words = append(words, strings.Fields(text)...)
		}
	}
	return strings.Join(words, " ")
}

func hasWarning(ws diag.List, substr string) bool {
	for _, w := range ws {
		if strings.Contains(w.Message, substr) {
			return true
		}
	}
	return false
}

func TestFleetExamples(t *testing.T) {
	for _, s := range loadExample(t, "../../examples/fleet") {
		out := render(t, s)
		idms := decode[configv1.ImageDigestMirrorSet](t, out, idmsPath)
		if len(idms.Spec.ImageDigestMirrors) != 2 {
			t.Errorf("%s: IDMS entries %+v", s.Name, idms.Spec.ImageDigestMirrors)
		}
		// Each store pulls its catalogs (index tag following its version) through the cache.
		ref := s.Mirroring.Catalogs["redhat-operators"].Image
		res := resolve(t, out.Files[workerPreview], ref)
		if !res.SucceedsDisconnected(nil) {
			t.Errorf("%s: %s does not succeed disconnected: %+v", s.Name, ref, res.Endpoints)
		}
	}
}

// ---------------------------------------------------------------- Quay cache mapping

func TestQuayCacheMapping(t *testing.T) {
	tests := []struct {
		name      string
		spec      siteSpec
		wantTag   []string // ITMS sources
		wantMatch map[string]string
	}{
		{
			name: "whole registry and namespace, digest only without tag references",
			spec: siteSpec{mirroring: cacheBlock("NeverContactSource", labOrgs, "")},
			wantMatch: map[string]string{
				"registry.redhat.io/ubi9/ubi@sha256:" + strings.Repeat("a", 64):                    quayHost + "/registry-redhat-io/ubi9/ubi@sha256:" + strings.Repeat("a", 64),
				"quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:" + strings.Repeat("b", 64): quayHost + "/ocp4-mirror/ocp-v4.0-art-dev@sha256:" + strings.Repeat("b", 64),
			},
		},
		{
			name:    "a catalog pulled by tag adds the tag entry for its upstream only",
			spec:    siteSpec{mirroring: cacheBlock("NeverContactSource", labOrgs, labCatalogs)},
			wantTag: []string{"registry.redhat.io"},
			wantMatch: map[string]string{
				operatorIndex: quayHost + "/registry-redhat-io/redhat/redhat-operator-index:v4.16",
			},
		},
		{
			name: "an image by tag under the namespace upstream",
			spec: siteSpec{mirroring: cacheBlock("NeverContactSource", labOrgs,
				"  images:\n    - quay.io/openshift-release-dev/ocp-release:4.16.3-x86_64\n")},
			wantTag: []string{"quay.io/openshift-release-dev"},
			wantMatch: map[string]string{
				"quay.io/openshift-release-dev/ocp-release:4.16.3-x86_64": quayHost + "/ocp4-mirror/ocp-release:4.16.3-x86_64",
			},
		},
		{
			name:    "connected: the default catalogs are pulled by tag",
			spec:    siteSpec{connectivity: "connected", mirroring: cacheBlock("AllowContactingSource", labOrgs, "")},
			wantTag: []string{"registry.redhat.io"},
		},
		{
			name: "a source declared serves both adds the cache's tag entry",
			spec: siteSpec{mirroring: cacheBlock("AllowContactingSource", labOrgs, `  sources:
    quay.io/openshift-release-dev:
      mirrors: [mirror.example.com/ocp]
      serves: both
`)},
			wantTag: []string{"quay.io/openshift-release-dev", "quay.io/openshift-release-dev"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := render(t, loadSpec(t, tt.spec))
			var gotTag []string
			if _, ok := out.Files[itmsPath]; ok {
				for _, e := range decode[configv1.ImageTagMirrorSet](t, out, itmsPath).Spec.ImageTagMirrors {
					gotTag = append(gotTag, e.Source)
				}
			}
			if !reflect.DeepEqual(gotTag, tt.wantTag) {
				t.Errorf("ITMS sources %v, want %v", gotTag, tt.wantTag)
			}
			for ref, want := range tt.wantMatch {
				res := resolve(t, out.Files[workerPreview], ref)
				if a := res.Attempts(); len(a) == 0 || a[0].Reference != want {
					t.Errorf("%s resolves to %+v, want %s first", ref, res.Endpoints, want)
				}
			}
		})
	}
}

func TestWildcardQuayUpstreamIsAnError(t *testing.T) {
	s := loadSpec(t, siteSpec{mirroring: cacheBlock("AllowContactingSource", map[string]string{"wild": `"*.example.com"`}, "")})
	_, err := generators.Render(s, generators.Options{})
	var dl diag.List
	if !errors.As(err, &dl) || len(dl) != 1 || dl[0].Path != `mirroring.quayCache.orgs.wild` || dl[0].Pos.Line == 0 {
		t.Fatalf("render error = %v, want one diagnostic at mirroring.quayCache.orgs.wild", err)
	}
}

// ---------------------------------------------------------------- version gates

const bothSources = `  sources:
    registry.example.com/team:
      mirrors: [mirror.example.com/team]
      serves: both
    registry.example.com/digests:
      mirrors: [mirror.example.com/digests]
    registry.example.com/tags:
      mirrors: [mirror.example.com/tags]
      serves: tags
`

func TestVersionGates(t *testing.T) {
	tests := []struct {
		version     string
		want, avoid []string
	}{
		{"4.12", []string{icspPath,
			"mirroring/machineconfig-99-master-zz-siteforge-registries.yaml", "mirroring/99-master-zz-siteforge-registries.bu",
			"mirroring/machineconfig-99-worker-zz-siteforge-registries.yaml", "mirroring/99-worker-zz-siteforge-registries.bu"},
			[]string{idmsPath, itmsPath}},
		{"4.13", []string{idmsPath, itmsPath}, []string{icspPath, "mirroring/machineconfig-99-worker-zz-siteforge-registries.yaml"}},
		{"4.16", []string{idmsPath, itmsPath}, []string{icspPath, "mirroring/machineconfig-99-worker-zz-siteforge-registries.yaml"}},
	}
	for _, tt := range tests {
		t.Run(tt.version, func(t *testing.T) {
			out := render(t, loadSpec(t, siteSpec{version: tt.version, install: "ipi", connectivity: "connected", lifecycle: "running", mirroring: bothSources}))
			for _, p := range tt.want {
				if _, ok := out.Files[p]; !ok {
					t.Errorf("missing %s; files %v", p, out.Paths())
				}
			}
			for _, p := range tt.avoid {
				if _, ok := out.Files[p]; ok {
					t.Errorf("unexpected %s", p)
				}
			}
			// Whatever the version, the nodes mirror tags where the site asks for it and only
			// there.
			conf := out.Files[workerPreview]
			for ref, wantMirror := range map[string]bool{
				"registry.example.com/team/app:1.0":                                  true,
				"registry.example.com/tags/app:1.0":                                  true,
				"registry.example.com/digests/app:1.0":                               false,
				"registry.example.com/digests/app@sha256:" + strings.Repeat("c", 64): true,
				"registry.example.com/team/app@sha256:" + strings.Repeat("c", 64):    true,
			} {
				res := resolve(t, conf, ref)
				if got := res.SucceedsDisconnected(nil); got != wantMirror {
					t.Errorf("%s: reaches a mirror = %v, want %v (%+v)", ref, got, wantMirror, res.Endpoints)
				}
			}
		})
	}
}

func TestLegacyTagMachineConfig(t *testing.T) {
	out := render(t, loadSpec(t, siteSpec{version: "4.12", install: "ipi", connectivity: "connected", lifecycle: "running", mirroring: bothSources}))
	icsp := decode[operatorv1alpha1.ImageContentSourcePolicy](t, out, icspPath)
	var got []string
	for _, e := range icsp.Spec.RepositoryDigestMirrors {
		got = append(got, e.Source)
	}
	if want := []string{"registry.example.com/digests", "registry.example.com/team"}; !reflect.DeepEqual(got, want) {
		t.Errorf("ICSP sources %v, want %v (tags-only sources are not ICSP sources)", got, want)
	}

	// The MachineConfig's file is the preview, the name sorts after MCO's, and the .bu says why.
	bu := string(out.Files["mirroring/99-worker-zz-siteforge-registries.bu"])
	for _, want := range []string{"99-worker-generated-registries", "sorted by name", "path: /etc/containers/registries.conf", "role: worker"} {
		if !strings.Contains(bu, want) && !strings.Contains(commentText([]byte(bu)), want) {
			t.Errorf(".bu lacks %q:\n%s", want, bu)
		}
	}
	if !(legacyTagMachineConfigName("worker") > fmt.Sprintf(platform.RegistriesMachineConfigNameFormat, "worker")) {
		t.Errorf("%s does not sort after MCO's MachineConfig", legacyTagMachineConfigName("worker"))
	}
	var conf struct {
		Registry []struct {
			Location           string `toml:"location"`
			MirrorByDigestOnly *bool  `toml:"mirror-by-digest-only"`
		} `toml:"registry"`
	}
	if err := toml.Unmarshal(out.Files[workerPreview], &conf); err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"registry.example.com/digests": true, "registry.example.com/tags": false, "registry.example.com/team": false}
	for _, r := range conf.Registry {
		if r.MirrorByDigestOnly == nil || *r.MirrorByDigestOnly != want[r.Location] {
			t.Errorf("%s: mirror-by-digest-only %v, want %v", r.Location, r.MirrorByDigestOnly, want[r.Location])
		}
	}
	if len(conf.Registry) != len(want) {
		t.Errorf("tables %+v, want %v", conf.Registry, want)
	}
	// The MachineConfig carries exactly the preview's TOML.
	mc := out.Files["mirroring/machineconfig-99-worker-zz-siteforge-registries.yaml"]
	if !bytes.Contains(mc, []byte("99-worker-zz-siteforge-registries")) || !bytes.Contains(mc, []byte("machineconfiguration.openshift.io/role: worker")) {
		t.Errorf("MachineConfig:\n%s", mc)
	}
}

func TestLegacyPolicyWarns(t *testing.T) {
	out := render(t, loadSpec(t, siteSpec{version: "4.12", install: "ipi", connectivity: "connected", lifecycle: "running",
		mirroring: cacheBlock("NeverContactSource", labOrgs, "")}))
	if !hasWarning(out.Warnings, "NeverContactSource needs OpenShift 4.13") {
		t.Errorf("warnings %v", out.Warnings)
	}
}

// ---------------------------------------------------------------- install-time files

func TestInstallFiles(t *testing.T) {
	tests := []struct {
		name         string
		spec         siteSpec
		wantField    string // "" when the site has no install-time mirrors
		wantFragment bool   // install/install-config-mirrors.yaml (assisted only)
		wantPolicy   bool
	}{
		{"agent 4.16", siteSpec{version: "4.16"}, "imageDigestSources", false, false},
		{"agent 4.14", siteSpec{version: "4.14"}, "imageDigestSources", false, false},
		{"agent 4.13", siteSpec{version: "4.13"}, "imageContentSources", false, false},
		{"agent 4.21 carries the policy", siteSpec{version: "4.21"}, "imageDigestSources", false, true},
		{"assisted", siteSpec{install: "assisted"}, "imageDigestSources", true, false},
		{"agent running", siteSpec{lifecycle: "running"}, "", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.spec.mirroring = cacheBlock("NeverContactSource", labOrgs, labCatalogs)
			s := loadSpec(t, tt.spec)
			minor, err := s.Minor()
			if err != nil {
				t.Fatal(err)
			}
			in, err := ForInstall(s, minor)
			if err != nil {
				t.Fatal(err)
			}
			out := render(t, s)
			frag, ok := out.Files[installConfigMirrorsPath]
			if ok != tt.wantFragment {
				t.Fatalf("%s present = %v, want %v", installConfigMirrorsPath, ok, tt.wantFragment)
			}
			if tt.wantField == "" {
				if in != nil {
					t.Fatalf("install-time mirrors %+v for a running site", in)
				}
				return
			}
			if in == nil || in.Field != tt.wantField {
				t.Fatalf("install-time mirrors %+v, want field %s", in, tt.wantField)
			}
			want := []upstream.ImageDigestSource{
				{Source: "quay.io/openshift-release-dev", Mirrors: []string{quayHost + "/ocp4-mirror"}},
				// the release repository, which the installer matches exactly
				{Source: "quay.io/openshift-release-dev/ocp-release", Mirrors: []string{quayHost + "/ocp4-mirror/ocp-release"}},
				{Source: "registry.redhat.io", Mirrors: []string{quayHost + "/registry-redhat-io"}},
			}
			if tt.wantPolicy {
				want[0].SourcePolicy, want[1].SourcePolicy, want[2].SourcePolicy = "NeverContactSource", "NeverContactSource", "NeverContactSource"
			}
			if !reflect.DeepEqual(in.Sources, want) {
				t.Errorf("%s = %+v, want %+v", tt.wantField, in.Sources, want)
			}
			if tt.wantFragment {
				var ic map[string][]upstream.ImageDigestSource
				if err := yaml.UnmarshalStrict(frag, &ic); err != nil {
					t.Fatal(err)
				}
				if keys := slices.Sorted(maps.Keys(ic)); len(keys) != 1 || keys[0] != tt.wantField || !reflect.DeepEqual(ic[tt.wantField], want) {
					t.Errorf("fragment %+v, want %s: %+v", ic, tt.wantField, want)
				}
			}
			// The day-2 objects come too: the installer forces digest-only.
			if _, ok := out.Files[itmsPath]; !ok {
				t.Errorf("missing the day-2 ITMS")
			}

			conf := in.RegistriesConf
			if err := registries.Load(conf); err != nil {
				t.Fatal(err)
			}
			// Digest-only: the catalog (by tag) does not reach the cache at install time, the
			// release (by digest) does.
			if res := resolve(t, conf, operatorIndex); res.SucceedsDisconnected(nil) {
				t.Errorf("agent registries.conf mirrors tags: %+v", res.Endpoints)
			}
			digestRef := "quay.io/openshift-release-dev/ocp-release@sha256:" + strings.Repeat("d", 64)
			res := resolve(t, conf, digestRef)
			if !res.SucceedsDisconnected(nil) {
				t.Errorf("agent registries.conf does not mirror digests: %+v", res.Endpoints)
			}
			if blocked := res.Endpoints[len(res.Endpoints)-1].Blocked; blocked != tt.wantPolicy {
				t.Errorf("source blocked = %v, want %v", blocked, tt.wantPolicy)
			}
		})
	}
}

// TestDay0MirrorSetsRefused: MCO's bootstrap renders registries.conf from the installer's mirror
// objects and the day-0 copies of the site's together; a policy conflict (the installer's
// policy-less IDMS before 4.21 against NeverContactSource) or a 4.13 ICSP/IDMS mix fails it.
func TestDay0MirrorSetsRefused(t *testing.T) {
	tests := []struct {
		install, version, policy string
		want                     string // substring of Day0Refused, "" when accepted
		sourcePolicy             bool   // the install-time sources carry the policy
	}{
		{"agent", "4.16", "NeverContactSource", "conflicting mirrorSourcePolicy", false},
		{"agent", "4.16", "AllowContactingSource", "", false},
		{"agent", "4.21", "NeverContactSource", "", true},
		{"agent", "4.13", "AllowContactingSource", "both imagecontentsourcepolicy and imagedigestmirrorset exist", false},
		// assisted-service writes no sourcePolicy, whatever the release
		// (openshift/assisted-service internal/installcfg/builder/builder.go
		// setImageDigestMirrorSet; overrides are decoded strictly into
		// installcfg.ImageDigestSource, which has none).
		{"assisted", "4.21", "NeverContactSource", "conflicting mirrorSourcePolicy", false},
		{"assisted", "4.21", "AllowContactingSource", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.install+"/"+tt.version+"/"+tt.policy, func(t *testing.T) {
			s := loadSpec(t, siteSpec{install: tt.install, version: tt.version, mirroring: cacheBlock(tt.policy, labOrgs, labCatalogs)})
			minor, _ := s.Minor()
			in, err := ForInstall(s, minor)
			if err != nil || in == nil {
				t.Fatalf("ForInstall = %v, %v", in, err)
			}
			if tt.want == "" && in.Day0Refused != "" || tt.want != "" && !strings.Contains(in.Day0Refused, tt.want) {
				t.Errorf("Day0Refused = %q, want %q", in.Day0Refused, tt.want)
			}
			for _, src := range in.Sources {
				if (src.SourcePolicy != "") != tt.sourcePolicy {
					t.Errorf("source %s: sourcePolicy %q, want one: %t", src.Source, src.SourcePolicy, tt.sourcePolicy)
				}
			}
			want := []string{idmsPath, itmsPath}
			if !reflect.DeepEqual(in.Day0Paths, want) {
				t.Errorf("Day0Paths = %v, want %v", in.Day0Paths, want)
			}
		})
	}
}

func TestInstallerConflictWarnings(t *testing.T) {
	tests := []struct {
		version, policy string
		want            string // substring of a warning, "" for none
	}{
		{"4.16", "NeverContactSource", "delete ImageDigestMirrorSet image-digest-mirror"},
		{"4.16", "AllowContactingSource", ""},
		{"4.21", "NeverContactSource", ""},
		{"4.13", "AllowContactingSource", "both imagecontentsourcepolicy and imagedigestmirrorset exist"},
	}
	for _, tt := range tests {
		t.Run(tt.version+"/"+tt.policy, func(t *testing.T) {
			out := render(t, loadSpec(t, siteSpec{version: tt.version, mirroring: cacheBlock(tt.policy, labOrgs, "")}))
			if tt.want == "" {
				for _, w := range out.Warnings {
					if w.Rule != ruleid.NoOperatorCatalog { // the fixture lists no catalog
						t.Errorf("warning %v", w)
					}
				}
				return
			}
			found := false
			for _, w := range out.Warnings {
				if strings.Contains(w.Error(), tt.want) {
					found = true
				}
			}
			if !found {
				t.Errorf("no warning with %q: %v", tt.want, out.Warnings)
			}
		})
	}
}

// ---------------------------------------------------------------- image.config, OperatorHub

func TestImageConfig(t *testing.T) {
	tests := []struct {
		name      string
		mirroring string
		want      *configv1.ImageSpec // nil: no image.config
	}{
		{"nothing set", "  sources:\n    a.example.com:\n      mirrors: [m.example.com/a]\n", nil},
		{"insecure and blocked", "  insecureRegistries: [insecure.example.com]\n  blockedRegistries: [blocked.example.com, \"*.bad.example.com\"]\n",
			&configv1.ImageSpec{RegistrySources: configv1.RegistrySources{
				InsecureRegistries: []string{"insecure.example.com"},
				BlockedRegistries:  []string{"blocked.example.com", "*.bad.example.com"}}}},
		{"allowed", "  allowedRegistries: [registry.redhat.io, quay.io]\n",
			&configv1.ImageSpec{RegistrySources: configv1.RegistrySources{AllowedRegistries: []string{"registry.redhat.io", "quay.io"}}}},
		{"trusted CA only", "  additionalTrustedCA:\n    configMap: my-cas\n",
			&configv1.ImageSpec{AdditionalTrustedCA: configv1.ConfigMapNameReference{Name: "my-cas"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := render(t, loadSpec(t, siteSpec{install: "ipi", connectivity: "connected", lifecycle: "running", mirroring: tt.mirroring}))
			data, ok := out.Files[imagePath]
			if tt.want == nil {
				if ok {
					t.Fatalf("unexpected %s:\n%s", imagePath, data)
				}
				return
			}
			img := decode[configv1.Image](t, out, imagePath)
			if img.Name != "cluster" || !reflect.DeepEqual(img.Spec, *tt.want) {
				t.Errorf("image.config %s spec %+v, want %+v", img.Name, img.Spec, *tt.want)
			}
			// Only what the site sets is written, so applying it clears nothing else.
			for _, absent := range []string{"imageStreamImportMode", `name: ""`, "registrySources: {}"} {
				if bytes.Contains(data, []byte(absent)) {
					t.Errorf("%s contains %q:\n%s", imagePath, absent, data)
				}
			}
		})
	}
}

func TestInsecureRegistryReachesPreview(t *testing.T) {
	out := render(t, loadSpec(t, siteSpec{install: "ipi", connectivity: "connected", lifecycle: "running",
		mirroring: "  insecureRegistries: [insecure.example.com:5000]\n"}))
	res := resolve(t, out.Files[workerPreview], "insecure.example.com:5000/app:1")
	if len(res.Endpoints) != 1 || !res.Endpoints[0].Insecure {
		t.Errorf("insecure registry endpoints %+v", res.Endpoints)
	}
}

func TestCatalogsAndOperatorHub(t *testing.T) {
	tests := []struct {
		name         string
		connectivity string
		mirroring    string
		wantHub      bool
		wantCatalogs []string
	}{
		{"disconnected with catalogs", "disconnected", labCatalogs, true, []string{"redhat-operators"}},
		{"connected with catalogs: OperatorHub untouched", "connected", labCatalogs, false, []string{"redhat-operators"}},
		{"disconnected without mirroring", "disconnected", "", true, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := render(t, loadSpec(t, siteSpec{install: "ipi", connectivity: tt.connectivity, lifecycle: "running", mirroring: tt.mirroring}))
			if _, ok := out.Files[operatorHubPath]; ok != tt.wantHub {
				t.Errorf("OperatorHub present = %v, want %v", ok, tt.wantHub)
			}
			var got []string
			for _, p := range out.Paths() {
				if name, ok := strings.CutPrefix(p, "mirroring/catalogsource-"); ok {
					got = append(got, strings.TrimSuffix(name, ".yaml"))
				}
			}
			if !reflect.DeepEqual(got, tt.wantCatalogs) {
				t.Errorf("catalogs %v, want %v", got, tt.wantCatalogs)
			}
		})
	}
}

// ---------------------------------------------------------------- no mirroring, errors, previews

func TestNoMirroringNoArtifacts(t *testing.T) {
	s := loadSpec(t, siteSpec{install: "ipi", connectivity: "connected", lifecycle: "running"})
	arts, err := Generate(testContext(s), s)
	if err != nil || len(arts) != 0 {
		t.Fatalf("Generate = %d artifacts, %v; want none", len(arts), err)
	}
}

func TestPoliciesConflictIsPositioned(t *testing.T) {
	mirroring := cacheBlock("NeverContactSource", labOrgs, `  sources:
    registry.redhat.io:
      mirrors: [mirror.example.com/rh]
      policy: AllowContactingSource
`)
	s := loadSpec(t, siteSpec{install: "ipi", connectivity: "connected", lifecycle: "running", mirroring: mirroring})
	_, err := generators.Render(s, generators.Options{})
	var dl diag.List
	if !errors.As(err, &dl) || len(dl) != 1 {
		t.Fatalf("render error %v, want one diagnostic", err)
	}
	d := dl[0]
	if d.Path != `mirroring.sources."registry.redhat.io".policy` || d.Pos.Line == 0 ||
		!strings.Contains(d.Message, "conflicting mirrorSourcePolicy") || !strings.Contains(d.Hint, "mirroring.quayCache.policy") {
		t.Errorf("diagnostic %+v", d)
	}
}

func TestNeverContactSourceAmongMirrorsIsPositioned(t *testing.T) {
	mirroring := `  sources:
    registry.example.com:
      mirrors: [mirror.example.com, registry.example.com]
      policy: NeverContactSource
`
	s := loadSpec(t, siteSpec{install: "ipi", connectivity: "connected", lifecycle: "running", mirroring: mirroring})
	_, err := generators.Render(s, generators.Options{})
	var dl diag.List
	if !errors.As(err, &dl) || len(dl) != 1 || dl[0].Path != `mirroring.sources."registry.example.com"` {
		t.Fatalf("render error %v", err)
	}
}

func TestPreviewPools(t *testing.T) {
	pools := `  worker:
    uplinkInterface: eno1
    uplinkMTU: 1500
  infra:
    role: custom
    uplinkInterface: eno1
    uplinkMTU: 1500
`
	out := render(t, loadSpec(t, siteSpec{install: "ipi", connectivity: "connected", lifecycle: "running", pools: pools,
		mirroring: "  catalogs:\n    mine:\n      image: registry.example.com/catalog:v1\n"}))
	var got []string
	for _, p := range out.Paths() {
		if strings.HasPrefix(p, "mirroring/registries-") {
			got = append(got, p)
		}
	}
	want := []string{"mirroring/registries-infra.conf", masterPreview, workerPreview}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("previews %v, want %v", got, want)
	}
	// No mirror object: MCO writes nothing, and the preview says so.
	if !strings.Contains(commentText(out.Files[workerPreview]), "MCO writes no registries.conf") {
		t.Errorf("preview:\n%s", out.Files[workerPreview])
	}
	if !strings.Contains(commentText(out.Files["mirroring/registries-infra.conf"]), "gets the worker pool's MachineConfigs") {
		t.Errorf("custom pool preview:\n%s", out.Files["mirroring/registries-infra.conf"])
	}
}

// ---------------------------------------------------------------- determinism, origins, fidelity

// allSites are the examples and test sites covering every output kind.
func allSites(t *testing.T) []*site.Site {
	t.Helper()
	sites := loadExample(t, "../../examples/disconnected-quay-cache")
	sites = append(sites, loadExample(t, "../../examples/fleet")...)
	sites = append(sites, loadExample(t, "../../examples/remote-quay-in-cluster")...)
	for _, sp := range []siteSpec{
		{version: "4.12", install: "ipi", connectivity: "connected", lifecycle: "running", mirroring: bothSources + labCatalogs},
		{version: "4.12", install: "agent", mirroring: cacheBlock("AllowContactingSource", labOrgs, labCatalogs)},
		{version: "4.13", mirroring: cacheBlock("NeverContactSource", labOrgs, labCatalogs)},
		{version: "4.21", install: "assisted", mirroring: cacheBlock("NeverContactSource", labOrgs, labCatalogs)},
		{install: "ipi", connectivity: "connected", lifecycle: "running", mirroring: labCatalogs},
		{install: "ipi", connectivity: "connected", lifecycle: "running",
			mirroring: bothSources + "  insecureRegistries: [insecure.example.com]\n  blockedRegistries: [blocked.example.com]\n  additionalTrustedCA:\n    configMap: cas\n"},
	} {
		sites = append(sites, loadSpec(t, sp))
	}
	return sites
}

func TestDeterministic(t *testing.T) {
	for _, s := range allSites(t) {
		a, b := render(t, s), render(t, s)
		if !reflect.DeepEqual(a.Paths(), b.Paths()) {
			t.Fatalf("%s: paths differ", s.Name)
		}
		for _, p := range a.Paths() {
			if !bytes.Equal(a.Files[p], b.Files[p]) {
				t.Errorf("%s: %s differs between two renders", s.Name, p)
			}
		}
	}
}

func TestEveryArtifactHasAnOrigin(t *testing.T) {
	for _, s := range allSites(t) {
		arts, err := Generate(testContext(s), s)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range arts {
			if len(a.Origin) == 0 {
				t.Errorf("%s: %s has no origin", s.Name, a.Path)
			}
			for _, p := range a.Origin {
				if !p.IsValid() || p.Line == 0 {
					t.Errorf("%s: %s origin %v", s.Name, a.Path, p)
				}
			}
		}
	}
}

func TestFidelity(t *testing.T) {
	kinds := map[string]bool{}
	for _, s := range allSites(t) {
		out := render(t, s)
		for _, p := range out.Resources {
			if err := fidelity.Check(out.Files[p]); err != nil {
				t.Errorf("%s: %s: %v", s.Name, p, err)
			}
			var meta struct{ Kind string }
			if err := yaml.Unmarshal(out.Files[p], &meta); err == nil {
				kinds[meta.Kind] = true
			}
		}
		if err := fidelity.CheckStream(out.Stream()); err != nil {
			t.Errorf("%s: stream: %v", s.Name, err)
		}
		for _, p := range out.Paths() {
			if strings.HasSuffix(p, ".conf") {
				if err := fidelity.CheckRegistriesConf(out.Files[p]); err != nil {
					t.Errorf("%s: %s: %v", s.Name, p, err)
				}
			}
		}
	}
	var got []string
	for k := range kinds {
		got = append(got, k)
	}
	sort.Strings(got)
	want := []string{"CatalogSource", "ConfigMap", "Image", "ImageContentSourcePolicy", "ImageDigestMirrorSet", "ImageTagMirrorSet", "MachineConfig", "OperatorHub"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("kinds checked %v, want %v", got, want)
	}
}

// testContext is the render context of s (its cluster.version parsed).
func testContext(s *site.Site) *generators.Context {
	ctx, err := generators.NewContext(s, generators.Options{})
	if err != nil {
		panic(err)
	}
	return ctx
}

// TestWithReleaseRepository: the installer takes the release image's mirror
// only from a source equal to the release repository (installer
// pkg/asset/agent/mirror/registriesconf.go GetMirrorFromRelease), so a
// repository mirrored through a covering source gets its own entry, with
// the same mirrors under the same path; an exact source or none is left as
// it is.
func TestWithReleaseRepository(t *testing.T) {
	ns := upstream.ImageDigestSource{Source: "quay.io/openshift-release-dev", Mirrors: []string{"m.example.com/a", "n.example.com/b"}, SourcePolicy: "NeverContactSource"}
	reg := upstream.ImageDigestSource{Source: "quay.io", Mirrors: []string{"m.example.com/quay"}}
	other := upstream.ImageDigestSource{Source: "registry.redhat.io", Mirrors: []string{"m.example.com/rh"}}
	exact := upstream.ImageDigestSource{Source: "quay.io/openshift-release-dev/ocp-release", Mirrors: []string{"m.example.com/x"}}
	for _, c := range []struct {
		name    string
		sources []upstream.ImageDigestSource
		pull    string
		want    []upstream.ImageDigestSource
	}{
		{"namespace source", []upstream.ImageDigestSource{ns, other}, "",
			[]upstream.ImageDigestSource{ns, {Source: "quay.io/openshift-release-dev/ocp-release", Mirrors: []string{"m.example.com/a/ocp-release", "n.example.com/b/ocp-release"}, SourcePolicy: "NeverContactSource"}, other}},
		{"the longest covering source", []upstream.ImageDigestSource{reg, ns}, "quay.io/openshift-release-dev/ocp-release@sha256:" + strings.Repeat("a", 64),
			[]upstream.ImageDigestSource{reg, ns, {Source: "quay.io/openshift-release-dev/ocp-release", Mirrors: []string{"m.example.com/a/ocp-release", "n.example.com/b/ocp-release"}, SourcePolicy: "NeverContactSource"}}},
		{"exact source", []upstream.ImageDigestSource{ns, exact}, "", []upstream.ImageDigestSource{ns, exact}},
		{"not mirrored", []upstream.ImageDigestSource{other}, "", []upstream.ImageDigestSource{other}},
		{"a pinned release elsewhere", []upstream.ImageDigestSource{ns}, "registry.example.com:5000/ocp/release:4.16.3-x86_64", []upstream.ImageDigestSource{ns}},
	} {
		got := withReleaseRepository(c.sources, platform.InstallerReleaseRepository(c.pull))
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
	if got := platform.InstallerReleaseRepository("registry.example.com:5000/ocp/release:4.16.3-x86_64"); got != "registry.example.com:5000/ocp/release" {
		t.Errorf("InstallerReleaseRepository with a port and a tag: %q", got)
	}
}
