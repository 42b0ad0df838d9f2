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
