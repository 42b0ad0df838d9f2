package diag

import (
	"strings"
	"testing"
)

// TestCredentialLinesNotShown: a line holding a credential is not shown in
// a snippet, whatever follows its key (issue 25, defect 9: "secret" was
// matched only when ":" or "=" followed it directly).
func TestCredentialLinesNotShown(t *testing.T) {
	lines := []string{
		"aws_secret_access_key: KEY: x",
		"secret_key: hunter2",
		"secretAccessKey: hunter2",
		`"secretAccessKey": "hunter2"`,
		"passphrase: hunter2",
		"  ssh-passphrase = hunter2",
		"AWS_SECRET_ACCESS_KEY=hunter2",
		"Environment=DB_PASSWORD=hunter2",
		"ExecStart=/usr/bin/tool --password hunter2",
		"api-key: hunter2",
		"tls.key: hunter2",
		"{client_secret: hunter2}",
		"url: https://user:hunter2@example.com/x",
		"Authorization: Bearer hunter2hunter2",
		"password: hunter2",
		"-----BEGIN RSA PRIVATE KEY----- hunter2",
	}
	for _, l := range lines {
		p := &Printer{Source: func(string) ([]byte, bool) { return []byte("apiVersion: v1\n" + l + "\n"), true }}
		out := p.Format(Diagnostic{Pos: Position{File: "s.yaml", Line: 2, Col: 1}, Message: "m"})
		if strings.Contains(out, "hunter2") || !strings.Contains(out, "line not shown") {
			t.Errorf("%q shown:\n%s", l, out)
		}
	}
	for _, l := range []string{"key: node-role.kubernetes.io/worker", "kind: Secret", "sshKey: ssh-ed25519 AAAA x", "name: shown"} {
		p := &Printer{Source: func(string) ([]byte, bool) { return []byte("apiVersion: v1\n" + l + "\n"), true }}
		if out := p.Format(Diagnostic{Pos: Position{File: "s.yaml", Line: 2, Col: 1}, Message: "m"}); !strings.Contains(out, l) {
			t.Errorf("%q not shown:\n%s", l, out)
		}
	}
}
