package credential

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

const pullSecret = `{"auths":{"quay.io":{"auth":"dXNlcjpodW50ZXIy","email":"x@example.com"}}}`

func gzip64(t *testing.T, s string) string {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	zw.Close()
	return base64.StdEncoding.EncodeToString(b.Bytes())
}

// ignitionFile is an Ignition storage file entry, as a MachineConfig or an
// ignitionConfigOverride writes it.
func ignitionFile(path, source, compression string) string {
	c := `{"source": "` + source + `"`
	if compression != "" {
		c += `, "compression": "` + compression + `"`
	}
	return `{"ignition": {"version": "3.2.0"}, "storage": {"files": [{"path": "` + path + `", "mode": 384, "contents": ` + c + `}}]}}`
}

func machineConfig(config string) string {
	return "apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfig\nmetadata:\n  name: 99-x\nspec:\n  config: " + config + "\n"
}

// TestFind: what a node would get is checked, whatever the encoding and
// wherever the document sits, and the well-known credential paths count
// whatever is written there.
func TestFind(t *testing.T) {
	b64 := base64.StdEncoding.EncodeToString([]byte(pullSecret))
	key := "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n"
	for name, tc := range map[string]struct{ data, want string }{
		"kubelet config.json, base64 data URL": {machineConfig(ignitionFile("/var/lib/kubelet/config.json", "data:;base64,"+b64, "")),
			"the kubelet's copy of the global pull secret (/var/lib/kubelet/config.json)"},
		"kubelet config.json, percent-encoded": {machineConfig(ignitionFile("/var/lib/kubelet/config.json", "data:,"+url.PathEscape(pullSecret), "")),
			"global pull secret"},
		"kubelet config.json, gzip": {machineConfig(ignitionFile("/var/lib/kubelet/config.json", "data:;base64,"+gzip64(t, pullSecret), "gzip")),
			"global pull secret"},
		"kubelet config.json, empty contents": {machineConfig(ignitionFile("/var/lib/kubelet/config.json", "data:,", "")),
			"global pull secret"},
		"pull secret elsewhere, base64": {machineConfig(ignitionFile("/etc/x.json", "data:;base64,"+b64, "")), "registry credentials"},
		"pull secret elsewhere, percent-encoded": {machineConfig(ignitionFile("/etc/x.json", "data:,"+url.PathEscape(pullSecret), "")),
			"registry credentials"},
		"pull secret elsewhere, gzip":    {machineConfig(ignitionFile("/etc/x.json", "data:;base64,"+gzip64(t, pullSecret), "gzip")), "registry credentials"},
		"root docker config":             {machineConfig(ignitionFile("/root/.docker/config.json", "data:,x", "")), "registry credentials"},
		"core user docker config":        {machineConfig(ignitionFile("/var/home/core/.docker/config.json", "data:,x", "")), "registry credentials"},
		"podman user auth":               {machineConfig(ignitionFile("/home/core/.config/containers/auth.json", "data:,x", "")), "registry credentials"},
		"containers auth.json":           {machineConfig(ignitionFile("/etc/containers/auth.json", "data:,x", "")), "registry credentials"},
		"a .key file":                    {machineConfig(ignitionFile("/etc/pki/tls/server.key", "data:,x", "")), "a private key"},
		"a -key.pem file":                {machineConfig(ignitionFile("/etc/app/client-key.pem", "data:,x", "")), "a private key"},
		"an SSH private key":             {machineConfig(ignitionFile("/var/home/core/.ssh/id_ed25519", "data:,x", "")), "an SSH private key"},
		"private key in a plain .pem":    {machineConfig(ignitionFile("/etc/app/bundle.pem", "data:;base64,"+base64.StdEncoding.EncodeToString([]byte(key)), "")), "a private key"},
		"append to the pull secret":      {machineConfig(`{"storage": {"files": [{"path": "/var/lib/kubelet/config.json", "append": [{"source": "data:,x"}]}]}}`), "global pull secret"},
		"Secret .dockerconfigjson value": {"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  config: " + b64 + "\n", "registry credentials"},
		"ignitionConfigOverride string":  {"spec:\n  ignitionConfigOverride: '" + ignitionFile("/var/lib/kubelet/config.json", "data:,x", "") + "'\n", "global pull secret"},
		"a MachineConfig in a ConfigMap": {"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  99-x.yaml: |\n" + indent(machineConfig(ignitionFile("/etc/x.json", "data:;base64,"+b64, "")), "    "), "registry credentials"},
		"Butane in a site": {"machineConfigs:\n  99-auth:\n    pool: worker\n    butane: |\n      storage:\n        files:\n          - path: /etc/containers/auth.json\n            contents:\n              inline: x\n",
			"registry credentials (/etc/containers/auth.json)"},
		"URL with a password": {"spec:\n  httpProxy: http://user:hunter2@proxy.example.com:3128\n", "a credential"},
	} {
		got := Find([]byte(tc.data))
		if got == "" || !strings.Contains(got, tc.want) {
			t.Errorf("%s: Find = %q, want %q", name, got, tc.want)
		}
	}
	for name, data := range map[string]string{
		"chrony":              machineConfig(ignitionFile("/etc/chrony.conf", "data:,server%20ntp.example.com%20iburst", "")),
		"a CA bundle":         machineConfig(ignitionFile("/etc/pki/ca-trust/source/anchors/lab.pem", "data:;base64,"+base64.StdEncoding.EncodeToString([]byte("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n")), "")),
		"a public key":        machineConfig(ignitionFile("/var/home/core/.ssh/id_ed25519.pub", "data:,ssh-ed25519%20AAAA", "")),
		"auths without creds": machineConfig(ignitionFile("/etc/x.json", "data:,"+url.PathEscape(`{"auths":{"quay.io":{"email":"x"}}}`), "")),
		"a path in a pod":     "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  volumes:\n  - name: auth\n    hostPath:\n      path: /var/lib/kubelet/config.json\n",
		"a Namespace":         "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: plain\n",
	} {
		if got := Find([]byte(data)); got != "" {
			t.Errorf("%s: Find = %q, want none", name, got)
		}
	}
}

// TestLine: a line whose data: URL decodes to a credential is not shown.
func TestLine(t *testing.T) {
	b64 := base64.StdEncoding.EncodeToString([]byte(pullSecret))
	for _, l := range []string{
		"        source: data:;base64," + b64,
		`      "contents": {"source": "data:,` + url.PathEscape(pullSecret) + `"}`,
		"  config: " + b64,
	} {
		if !Line([]byte(l)) {
			t.Errorf("Line(%q) = false", l)
		}
	}
	for _, l := range []string{"        source: data:,server%20ntp.example.com", "  path: /var/lib/kubelet/config.json", "kind: MachineConfig"} {
		if Line([]byte(l)) {
			t.Errorf("Line(%q) = true", l)
		}
	}
}

func indent(s, pad string) string {
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for i := range lines {
		lines[i] = pad + lines[i]
	}
	return strings.Join(lines, "\n") + "\n"
}

// TestDecodedOnce: each piece of text is decoded once (a string of a
// document, a data: URL, a base64 run), and what the whole text held once
// decoded is still found wherever it sits: in a comment, a key, a
// !!binary scalar, a base64 run wrapped in a block scalar, a file that is
// one data: URL. Where a document in a string and the string as text both
// hold a credential, the name is the one In gives.
func TestDecodedOnce(t *testing.T) {
	b64 := base64.StdEncoding.EncodeToString([]byte(pullSecret))
	var wrapped strings.Builder
	for s := b64; s != ""; {
		n := min(20, len(s))
		wrapped.WriteString("    " + s[:n] + "\n")
		s = s[n:]
	}
	kubelet := `{"storage": {"files": [{"path": "/var/lib/kubelet/config.json", "contents": {"source": "data:;base64,` + b64 + `"}}]}}`
	for name, tc := range map[string]struct{ data, want string }{
		"a comment":             {"a: 1\n# " + b64 + "\nb: 2\n", "registry credentials (a pull secret)"},
		"a key":                 {"a:\n  " + b64 + ": x\n", "registry credentials (a pull secret)"},
		"a !!binary scalar":     {"a: !!binary " + b64 + "\n", "registry credentials (a pull secret)"},
		"wrapped in a block":    {"data:\n  cfg: |\n" + wrapped.String(), "registry credentials (a pull secret)"},
		"a data: URL file":      {"data:;base64," + b64 + "\n", "registry credentials (a pull secret)"},
		"a gzip data: URL":      {"x: \"data:;base64," + gzip64(t, pullSecret) + "\"\n", "registry credentials (a pull secret)"},
		"a file path":           {"spec:\n  config: " + kubelet + "\n", "the kubelet's copy of the global pull secret (/var/lib/kubelet/config.json)"},
		"a document in a value": {"data:\n  mc: |\n    spec:\n      config: " + kubelet + "\n", "registry credentials (a pull secret)"},
		"a comment in a value":  {"data:\n  x.yaml: |\n    a: 1\n    # " + b64 + "\n", "registry credentials (a pull secret)"},
		"a later document":      {"kind: x\n---\nkind: y\nz: data:;base64," + b64 + "\n", "registry credentials (a pull secret)"},
	} {
		if got := Decoded([]byte(tc.data)); got != tc.want {
			t.Errorf("%s: Decoded = %q, want %q", name, got, tc.want)
		}
	}
	for name, data := range map[string]string{
		"plain manifests": string(benchManifests()),
		"a CA bundle":     "a: data:;base64," + base64.StdEncoding.EncodeToString([]byte(benchCA())) + "\n",
	} {
		if got := Decoded([]byte(data)); got != "" {
			t.Errorf("%s: Decoded = %q, want none", name, got)
		}
	}
}

// TestWalkStrings: WalkStrings reports the strings walkAll does, never a file
// entry's path.
func TestWalkStrings(t *testing.T) {
	body := "storage:\n  files:\n    - path: /var/lib/kubelet/config.json\n      contents:\n        inline: x\n    - path: /etc/x.json\n      contents:\n        source: data:,"
	body += url.PathEscape(pullSecret) + "\n"
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(body), &doc); err != nil {
		t.Fatal(err)
	}
	var all, strs []string
	walkAll(&doc, func(f Finding) bool {
		all = append(all, fmt.Sprintf("%d %s %v", f.Node.Line, f.Key, f.Path))
		return true
	})
	WalkStrings(&doc, func(f Finding) bool {
		strs = append(strs, fmt.Sprintf("%d %s %v", f.Node.Line, f.Key, f.Path))
		return true
	})
	if want := []string{"3 path true", "8 source false"}; !slices.Equal(all, want) {
		t.Errorf("walkAll: %q, want %q", all, want)
	}
	if want := []string{"8 source false"}; !slices.Equal(strs, want) {
		t.Errorf("WalkStrings: %q, want %q", strs, want)
	}
}
