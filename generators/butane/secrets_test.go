package butane

import (
	"strings"
	"testing"

	"github.com/siteforge/siteforge/internal/diag"
)

func TestSecretsRefused(t *testing.T) {
	origin := Origin{Pos: diag.Position{File: "site.yaml", Line: 10, Col: 13}, Path: "machineConfigs.x.butane", Snippet: true}
	for name, tc := range map[string]struct {
		body, want string
	}{
		"pull secret path": {"storage:\n  files:\n    - path: /var/lib/kubelet/config.json\n      mode: 0600\n      contents:\n        inline: x\n",
			"site.yaml:13:"},
		"private key": {"storage:\n  files:\n    - path: /etc/pki/x.key\n      mode: 0600\n      contents:\n        inline: |\n          -----BEGIN RSA PRIVATE KEY-----\n          MIIB\n",
			"inline contents hold a secret"},
		"docker auths": {"storage:\n  files:\n    - path: /etc/x.json\n      contents:\n        inline: '{\"auths\": {\"q.example.com\": {\"auth\": \"dXNlcjpwYXNz\"}}}'\n",
			"a site never embeds credentials"},
	} {
		_, err := Build(Config{Name: "99-worker-x", Role: "worker", Body: []byte(tc.body), Origin: origin}, "4.16")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err %v, want %q", name, err, tc.want)
		}
	}
	// A CA certificate is not a secret.
	ok := "storage:\n  files:\n    - path: /etc/pki/ca-trust/source/anchors/lab.crt\n      mode: 0644\n      contents:\n        inline: |\n          -----BEGIN CERTIFICATE-----\n          MIIB\n"
	if _, err := Build(Config{Name: "99-worker-ca", Role: "worker", Body: []byte(ok), Origin: origin}, "4.16"); err != nil {
		t.Errorf("CA certificate refused: %v", err)
	}
}
