package manifests

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	configv1 "github.com/openshift/api/config/v1"
)

// Cases from openshift/installer pkg/types/validation/installconfig.go validateNamedRepository and
// its test (pkg/types/validation/installconfig_test.go "release image source is not valid").
func TestValidateInstallerRepository(t *testing.T) {
	for _, c := range []struct {
		in, err string // err: "" when accepted, else a fragment of the installer's error
	}{
		{"quay.io/openshift-release-dev/ocp-release", ""},
		{"registry.lab.redhat.com:5000", ""}, // not canonical: a bare host:port is accepted (the installer's comment)
		{"registry.redhat.io", ""},
		{"10.0.0.5:5000/ocp", ""},
		{"ocp/release-x.y", "the repository provided is invalid: a lowercase RFC 1123 subdomain"},
		{"<registry.example.com:8443>/ocp4/openshift4", "failed to parse: invalid reference format"},
		{"<mirror_hostname>:8443/rhel9", "failed to parse: invalid reference format"},
		{"quay.io/ocp/release:4.16", "must be repository--not reference"},
		{"quay.io/ocp/release@sha256:0000000000000000000000000000000000000000000000000000000000000000", "must be repository--not reference"},
		{"quay.io/OCP", "failed to parse"},
	} {
		err := ValidateInstallerRepository(c.in)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%q: %v, want accepted", c.in, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%q: %v, want %q", c.in, err, c.err)
		}
	}
}

// The installer's objects: ImageDigestMirrorSet image-digest-mirror from imageDigestSources, one
// entry per source, sourcePolicy as mirrorSourcePolicy (installer pkg/asset/manifests
// imagedigestmirrorset.go ConvertImageDigestMirrorSet), at the install-config's positions.
func TestReadMirrorsInstallConfig(t *testing.T) {
	objs, d := ReadBytes("install-config.yaml", []byte(`apiVersion: v1
baseDomain: example.com
metadata: {name: hub}
platform: {none: {}}
imageDigestSources:
- mirrors:
  - mirror.example.com:8443/ocp/release
  source: quay.io/openshift-release-dev/ocp-release
- source: quay.io/openshift-release-dev/ocp-v4.0-art-dev
  mirrors: [mirror.example.com:8443/ocp/art, other.example.com/art]
  sourcePolicy: NeverContactSource
`))
	if len(d) > 0 {
		t.Fatal(d)
	}
	ms := ReadMirrors(objs)
	if len(ms.Problems) > 0 || len(ms.InstallerRejected) > 0 || len(ms.DigestSets) != 1 || len(ms.ContentPolicies) != 0 {
		t.Fatalf("%+v", ms)
	}
	x := ms.DigestSets[0]
	if x.Obj.Name != "image-digest-mirror" || x.Spec.Name != "image-digest-mirror" || x.Obj.File != "install-config.yaml" {
		t.Errorf("object %s %q in %s", x.Obj.ID(), x.Spec.Name, x.Obj.File)
	}
	got := x.Spec.Spec.ImageDigestMirrors
	if len(got) != 2 || got[0].Source != "quay.io/openshift-release-dev/ocp-release" || len(got[1].Mirrors) != 2 ||
		got[1].Mirrors[1] != "other.example.com/art" || got[0].MirrorSourcePolicy != "" || got[1].MirrorSourcePolicy != configv1.NeverContactSource {
		t.Errorf("entries %+v", got)
	}
	for _, c := range []struct {
		path      []string
		line, col int
	}{
		{[]string{"spec", "imageDigestMirrors", "0", "mirrors", "0"}, 7, 5},
		{[]string{"spec", "imageDigestMirrors", "0", "source"}, 8, 11},
		{[]string{"spec", "imageDigestMirrors", "1", "mirrors", "1"}, 10, 46},
		{[]string{"spec", "imageDigestMirrors", "1", "mirrorSourcePolicy"}, 11, 17},
	} {
		if p := x.Obj.PosOf(c.path...); p.Line != c.line || p.Col != c.col {
			t.Errorf("%v at %d:%d, want %d:%d", c.path, p.Line, p.Col, c.line, c.col)
		}
	}
	org, ok := ms.Installer[x.Obj]
	if !ok || org.Field != FieldImageDigestSources || strings.Join(org.Path(1, "mirrorSourcePolicy"), ".") != "imageDigestSources.1.sourcePolicy" {
		t.Errorf("origin %+v %v", org, ok)
	}
	if in := ms.Input(0, ""); len(in.DigestMirrorSets) != 1 {
		t.Errorf("engine input %+v", in)
	}
}

// imageContentSources: one ImageContentSourcePolicy image-policy-<i> per entry (the names the
// installer gives them); the installer refuses both fields at once
// (pkg/types/validation/installconfig.go ValidateInstallConfig) and any invalid entry, and then
// creates nothing.
func TestReadMirrorsInstallConfigContentSources(t *testing.T) {
	objs, _ := ReadBytes("install-config.yaml", []byte(`apiVersion: v1
baseDomain: example.com
metadata: {name: hub}
platform: {none: {}}
imageContentSources:
- mirrors: [mirror.example.com/rhel8]
  source: registry.redhat.io/rhel8
- mirrors: [mirror.example.com/ocp]
  source: quay.io/openshift-release-dev/ocp-release
`))
	ms := ReadMirrors(objs)
	if len(ms.ContentPolicies) != 2 || ms.ContentPolicies[1].Obj.Name != "image-policy-1" ||
		ms.ContentPolicies[1].Spec.Spec.RepositoryDigestMirrors[0].Source != "quay.io/openshift-release-dev/ocp-release" {
		t.Fatalf("%+v", ms.ContentPolicies)
	}
	if p := ms.ContentPolicies[1].Obj.PosOf("spec", "repositoryDigestMirrors", "0", "source"); p.Line != 9 {
		t.Errorf("source at %v", p)
	}
	if org := ms.Installer[ms.ContentPolicies[1].Obj]; strings.Join(org.Path(0, "mirrors", "0"), ".") != "imageContentSources.1.mirrors.0" {
		t.Errorf("origin %+v", org)
	}

	both, _ := ReadBytes("install-config.yaml", []byte(`apiVersion: v1
baseDomain: example.com
platform: {none: {}}
controlPlane: {name: master}
imageContentSources:
- mirrors: [mirror.example.com/rhel8]
  source: registry.redhat.io/rhel8
imageDigestSources:
- mirrors: [<registry.example.com:8443>/ocp]
  source: quay.io/openshift-release-dev/ocp-release
`))
	ms = ReadMirrors(both)
	if len(ms.DigestSets)+len(ms.ContentPolicies) != 0 || len(ms.InstallerRejected) != 2 {
		t.Fatalf("objects %d+%d, rejected %+v", len(ms.DigestSets), len(ms.ContentPolicies), ms.InstallerRejected)
	}
	if r := ms.InstallerRejected[0]; r.Value != "<registry.example.com:8443>/ocp" || r.Config.PosOf(r.Path...).Line != 9 {
		t.Errorf("%+v", r)
	}
	if r := ms.InstallerRejected[1]; !errors.Is(r.Err, ErrBothInstallMirrorFields) {
		t.Errorf("%+v", r)
	}
	diags := ms.InstallerDiagnostics()
	if len(diags) != 2 || diags[0].Pos.Line != 9 || !strings.Contains(diags[0].Message, "the installer rejects it") {
		t.Errorf("%v", diags)
	}
}

// registries.conf files are read (by name) as one RegistriesConf object; RegistriesConfTexts
// finds them and the registries.conf key of ConfigMaps, with the lines of a literal block scalar.
func TestRegistriesConfFiles(t *testing.T) {
	if !IsManifestFile("mirror/registries.conf") || IsManifestFile("mirror/other.conf") {
		t.Error("IsManifestFile")
	}
	dir := t.TempDir()
	conf := "[[registry]]\n  location = \"registry.redhat.io\"\n"
	if err := os.WriteFile(filepath.Join(dir, "registries.conf"), []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	objs, d := ReadFile(filepath.Join(dir, "registries.conf"))
	if len(d) > 0 || len(objs) != 1 || objs[0].Kind != KindRegistriesConf {
		t.Fatalf("%v %v", objs, d)
	}
	cm, _ := ReadBytes("cm.yaml", []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: m, namespace: mce}\ndata:\n  registries.conf: |\n    [[registry]]\n      location = \"quay.io\"\n  other: x\n"))
	texts := RegistriesConfTexts(append(objs, cm...))
	if len(texts) != 2 || texts[0].Text != conf || !strings.Contains(texts[1].Text, `location = "quay.io"`) {
		t.Fatalf("%+v", texts)
	}
	if o, path := texts[1].AtLine(2); path != nil || o.PosOf().Line != 7 || o.Name != "m" || o.File != "cm.yaml" {
		t.Errorf("line 2 of the ConfigMap's text at %v (%v)", o.PosOf(), path)
	}
	if o, _ := texts[0].AtLine(2); o.PosOf().Line != 2 {
		t.Errorf("line 2 of the file at %v", o.PosOf())
	}
}
