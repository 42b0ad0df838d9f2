package butane

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
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

// TestSecretsRefusedWhateverTheEncoding: what Ignition would write is
// checked, not the YAML text (before: each of these passed).
func TestSecretsRefusedWhateverTheEncoding(t *testing.T) {
	origin := Origin{Pos: diag.Position{File: "site.yaml", Line: 10, Col: 13}, Path: "machineConfigs.x.butane", Snippet: true}
	key := "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n"
	b64 := base64.StdEncoding.EncodeToString([]byte(key))
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(key))
	zw.Close()
	gz64 := base64.StdEncoding.EncodeToString(gz.Bytes())
	file := func(contents string) string {
		return "storage:\n  files:\n    - path: /etc/x\n      mode: 0600\n      contents:\n" + contents
	}
	for name, tc := range map[string]struct{ body, want string }{
		"base64 data URL":                {file("        source: data:;base64," + b64 + "\n"), "a private key"},
		"gzip data URL":                  {file("        compression: gzip\n        source: data:;base64," + gz64 + "\n"), "a private key"},
		"percent-encoded data URL":       {file("        source: data:,-----BEGIN%20EC%20PRIVATE%20KEY-----%0AMHcC%0A\n"), "a private key"},
		"PGP private key block":          {file("        inline: |\n          -----BEGIN PGP PRIVATE KEY BLOCK-----\n          lQOYBF\n"), "a private key"},
		"encrypted PKCS#8":               {file("        inline: |\n          -----BEGIN ENCRYPTED PRIVATE KEY-----\n          MIIE\n"), "a private key"},
		"base64 of a key in inline text": {file("        inline: KEY=" + b64 + "\n"), "a private key"},
		"alias to a key anchored elsewhere": {"systemd:\n  units:\n    - name: a.service\n      contents: &k |\n        [Service]\n        ExecStart=/bin/true\n        # -----BEGIN RSA PRIVATE KEY-----\nstorage:\n  files:\n    - path: /etc/x\n      contents:\n        inline: *k\n",
			"contents hold a secret (a private key)"},
		"key in a systemd unit":                {"systemd:\n  units:\n    - name: a.service\n      contents: |\n        [Service]\n        Environment=KEY=\"-----BEGIN PRIVATE KEY-----\"\n", "contents hold a secret"},
		"key in a drop-in":                     {"systemd:\n  units:\n    - name: a.service\n      dropins:\n        - name: x.conf\n          contents: |\n            -----BEGIN EC PRIVATE KEY-----\n", "a private key"},
		"registry auths as YAML":               {file("        inline: |\n          auths:\n            quay.example.com:\n              auth: dXNlcjpwYXNz\n"), "registry credentials"},
		"second registry with auth":            {file("        inline: '{\"auths\": {\"a.example.com\": {\"email\": \"x\"}, \"b.example.com\": {\"auth\": \"dXNlcjpwYXNz\"}}}'\n"), "registry credentials"},
		"identity token":                       {file("        inline: '{\"auths\": {\"a.example.com\": {\"identitytoken\": \"abc\"}}}'\n"), "registry credentials"},
		"under static-pod-certs":               {"storage:\n  files:\n    - path: /etc/kubernetes/static-pod-certs/secrets/x/tls.key\n      contents:\n        inline: x\n", "a site never writes there"},
		"under static-pod-certs, unclean path": {"storage:\n  files:\n    - path: /etc/kubernetes//static-pod-certs/../static-pod-certs/y\n      contents:\n        inline: x\n", "a site never writes there"},
		"static pod secrets":                   {"storage:\n  files:\n    - path: /etc/kubernetes/static-pod-resources/kube-apiserver-pod-3/secrets/localhost-recovery-client-token/token\n      contents:\n        inline: x\n", "a static pod's certificates, keys and secrets"},
		"etcd certs":                           {"storage:\n  files:\n    - path: /etc/kubernetes/static-pod-resources/etcd-certs/x.key\n      contents:\n        inline: x\n", "a site never writes there"},
		"kubelet pki directory":                {"storage:\n  directories:\n    - path: /var/lib/kubelet/pki/extra\n", "a site never writes there"},
		"link over the pull secret":            {"storage:\n  links:\n    - path: /var/lib/kubelet/config.json\n      target: /tmp/x\n", "the global pull secret"},
		"SSH host key":                         {"storage:\n  files:\n    - path: /etc/ssh/ssh_host_ed25519_key\n      contents:\n        inline: x\n", "SSH host private key"},
		"merge key":                            {"x-defaults: &d\n  path: /var/lib/kubelet/kubeconfig\nstorage:\n  files:\n    - <<: *d\n      contents:\n        inline: x\n", "kubeconfig"},
		"kubeconfig token":                     {file("        inline: |\n          users:\n          - name: admin\n            user:\n              token: sha256~abc\n"), "kubeconfig credentials"},
	} {
		_, err := Build(Config{Name: "99-worker-x", Role: "worker", Body: []byte(tc.body), Origin: origin}, "4.16")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err %v, want %q", name, err, tc.want)
		}
	}
	// Not secrets: a public SSH key, a certificate, an ordinary unit.
	for name, body := range map[string]string{
		"public key":                file("        inline: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIG core@lab\n"),
		"certificate in a data URL": file("        source: data:;base64," + base64.StdEncoding.EncodeToString([]byte("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n")) + "\n"),
		"unit":                      "systemd:\n  units:\n    - name: rotate.service\n      contents: |\n        [Unit]\n        Description=Rotate the token file\n        [Service]\n        ExecStart=/usr/bin/true\n",
		"SSH host public key":       "storage:\n  files:\n    - path: /etc/ssh/ssh_host_ed25519_key.pub\n      contents:\n        inline: ssh-ed25519 AAAA\n",
		"keepalived config beside static pod secrets": "storage:\n  files:\n    - path: /etc/kubernetes/static-pod-resources/keepalived/keepalived.conf.tmpl\n      contents:\n        inline: vrrp\n",
		"auths without credentials":                   file("        inline: '{\"auths\": {\"a.example.com\": {\"email\": \"x\"}}}'\n"),
	} {
		if _, err := Build(Config{Name: "99-worker-x", Role: "worker", Body: []byte(body), Origin: origin}, "4.16"); err != nil {
			t.Errorf("%s refused: %v", name, err)
		}
	}
}
