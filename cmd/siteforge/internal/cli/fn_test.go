package cli

import (
	"bytes"
	"strings"
	"testing"
)

// The fn verb hands the ResourceList to the KRM function (internal/krm
// tests it); here: the wiring, the exit codes and the help.
func TestFnVerb(t *testing.T) {
	const lint = `apiVersion: config.kubernetes.io/v1
kind: ResourceList
functionConfig:
  apiVersion: siteforge.dev/v1alpha1
  kind: SiteLint
  metadata: {name: lint}
items:
- apiVersion: config.openshift.io/v1
  kind: ImageDigestMirrorSet
  metadata: {name: cache}
  spec:
    imageDigestMirrors:
    - {source: registry.redhat.io, mirrors: [quay.example.com/rh], mirrorSourcePolicy: NeverContactSource}
- apiVersion: operators.coreos.com/v1alpha1
  kind: CatalogSource
  metadata: {name: ops, namespace: openshift-marketplace}
  spec: {sourceType: grpc, image: "registry.redhat.io/redhat/redhat-operator-index:v4.16"}
`
	t.Chdir(t.TempDir())
	for name, tc := range map[string]struct {
		args   []string
		stdin  string
		code   int
		stdout string
		stderr string
	}{
		"finding":   {[]string{"fn"}, lint, ExitFindings, "rule: MIR001", "[MIR001]"},
		"clean":     {[]string{"fn"}, strings.Replace(lint, "metadata: {name: lint}", "metadata: {name: lint}\n  spec: {disable: [MIR001, MIR002]}", 1), ExitOK, "kind: ResourceList", ""},
		"bad kind":  {[]string{"fn"}, strings.Replace(lint, "kind: SiteLint", "kind: Site", 1), ExitFailure, "severity: error", "want apiVersion siteforge.dev/v1alpha1"},
		"arguments": {[]string{"fn", "x"}, lint, ExitFailure, "", "takes no arguments"},
		"help":      {[]string{"help", "fn"}, "", ExitOK, "--enable-exec", ""},
	} {
		t.Run(name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := Main(tc.args, strings.NewReader(tc.stdin), &stdout, &stderr)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tc.code, stderr.String())
			}
			if !strings.Contains(stdout.String(), tc.stdout) {
				t.Errorf("stdout lacks %q:\n%s", tc.stdout, stdout.String())
			}
			if !strings.Contains(stderr.String(), tc.stderr) {
				t.Errorf("stderr lacks %q:\n%s", tc.stderr, stderr.String())
			}
		})
	}
}

// SiteLint goes under kustomize transformers:, never validators: (kustomize
// v5.8.1 fails every validator that hands its items back,
// kubernetes-sigs/kustomize#5036): the help and the kind error say so, and
// never advise validators: for it.
func TestFnAdvisesTransformersForSiteLint(t *testing.T) {
	t.Chdir(t.TempDir())
	var help, stderr, out bytes.Buffer
	Main([]string{"help", "fn"}, strings.NewReader(""), &help, &stderr)
	bad := "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nfunctionConfig:\n  apiVersion: siteforge.dev/v1alpha1\n  kind: Lint\n  metadata: {name: x}\nitems: []\n"
	Main([]string{"fn"}, strings.NewReader(bad), &out, &stderr)
	for name, text := range map[string]string{"help fn": help.String(), "kind error": stderr.String()} {
		if !strings.Contains(text, "transformers:") {
			t.Errorf("%s does not advise transformers: for SiteLint:\n%s", name, text)
		}
		for _, l := range strings.Split(text, "\n") {
			if strings.Contains(l, "SiteLint") && strings.Contains(l, "validators:") &&
				!strings.Contains(l, "not validators:") && !strings.Contains(l, "kpt validators:") {
				t.Errorf("%s advises validators: for SiteLint: %q", name, l)
			}
		}
	}
}
