package golden

import (
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/siteforge/siteforge/internal/credential"
)

// Secret material no rendered file may hold. Render never reads a pull
// secret, BMC credentials or a private key; this scan proves nothing came
// through another way (a user pasting one into a site field, a generator
// copying a file).
var (
	privateKeyPEM = regexp.MustCompile(`-----BEGIN ([A-Z0-9]+ )*PRIVATE KEY-----`)
	// A docker config JSON ("auths" object), as in a pull secret.
	authsJSON = regexp.MustCompile(`"auths"\s*:\s*\{`)
	// install-config pullSecret (the agent and IPI installers read it from
	// install-config.yaml; siteforge leaves it to `siteforge`'s completion
	// command, outside the render tree).
	pullSecretKey = regexp.MustCompile(`(?m)^\s*"?pullSecret"?\s*:`)
	// BMC credentials as YAML or JSON keys (a BareMetalHost secret, a
	// Redfish/IPMI credential).
	// Credentials in a URL's user-info (redfish://root:calvin@10.0.0.1/...).
	urlCredentials = regexp.MustCompile(`[a-z][a-z0-9.+-]*://[^/\s@:]+:[^/\s@]*@`)
	credentialKey  = regexp.MustCompile(`(?mi)^\s*(-\s*)?"?(password|username|bmcpassword|bmcusername)"?\s*:|"(password|username)"\s*:`)
)

// secretFindings lists what in data looks like secret material; file names
// the data in the findings.
func secretFindings(file string, data []byte) []string {
	var out []string
	add := func(format string, a ...any) { out = append(out, file+": "+fmt.Sprintf(format, a...)) }
	if privateKeyPEM.Match(data) {
		add("a private key PEM block")
	}
	if authsJSON.Match(data) {
		add(`a docker config JSON ("auths"), as in a pull secret`)
	}
	if pullSecretKey.Match(data) {
		add("a pullSecret field")
	}
	if urlCredentials.Match(data) {
		add("a URL with a password in its user-info")
	}
	if m := credentialKey.Find(data); m != nil {
		add("a credential field %q", strings.TrimSpace(string(m)))
	}
	// what a node would get, decoded (data: URLs, gzip, base64, a file
	// written to a credential path): the check import uses
	if what := credential.Decoded(data); what != "" {
		add("%s, once decoded", what)
	}
	for _, doc := range yamlDocs(data) {
		secretObjects(doc, 0, func(msg string) { add("%s", msg) })
	}
	return out
}

// yamlDocs decodes the YAML documents of data, skipping what does not
// parse (text files, Butane, scripts are scanned by the patterns).
func yamlDocs(data []byte) []any {
	var docs []any
	for _, part := range regexp.MustCompile(`(?m)^---\s*$`).Split(string(data), -1) {
		var v any
		if yaml.Unmarshal([]byte(part), &v) == nil && v != nil {
			docs = append(docs, v)
		}
	}
	return docs
}

// secretObjects reports a Secret object with data or stringData in v, and
// looks inside every string that is itself a YAML manifest (the day-0
// manifests of an extra-manifests ConfigMap).
func secretObjects(v any, depth int, report func(string)) {
	if depth > 8 {
		return
	}
	switch x := v.(type) {
	case map[string]any:
		if x["kind"] == "Secret" {
			if _, ok := x["data"]; ok {
				report("a Secret object with data")
			} else if _, ok := x["stringData"]; ok {
				report("a Secret object with stringData")
			}
		}
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			secretObjects(x[k], depth+1, report)
		}
	case []any:
		for _, e := range x {
			secretObjects(e, depth+1, report)
		}
	case string:
		if strings.Contains(x, "kind:") || strings.Contains(x, `"kind"`) {
			for _, doc := range yamlDocs([]byte(x)) {
				secretObjects(doc, depth+1, report)
			}
		}
	}
}

// scanTree scans every file under root.
func scanTree(t *testing.T, root string) (findings []string, files int) {
	t.Helper()
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files++
		findings = append(findings, secretFindings(p, data)...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return findings, files
}

// TestGoldenHoldsNoSecrets scans EVERY golden file of every example.
func TestGoldenHoldsNoSecrets(t *testing.T) {
	var total int
	for _, ex := range Examples {
		findings, n := scanTree(t, ex)
		total += n
		for _, f := range findings {
			t.Errorf("secret material in golden output: %s", f)
		}
	}
	findings, n := scanTree(t, "impact")
	total += n
	for _, f := range findings {
		t.Errorf("secret material in golden output: %s", f)
	}
	if total == 0 {
		t.Fatal("no golden file scanned")
	}
}

// TestSecretScanFindsPlantedSecrets: the scan is not blind. Each planted
// file must be reported, a clean hub output must not be.
func TestSecretScanFindsPlantedSecrets(t *testing.T) {
	key := "-----BEGIN OPENSSH " + "PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\n"
	planted := map[string]string{
		"secret-data.yaml":       "apiVersion: v1\nkind: Secret\nmetadata:\n  name: bmc\ntype: Opaque\ndata:\n  password: cGFzcw==\n",
		"secret-stringdata.yaml": "apiVersion: v1\nkind: Secret\nmetadata:\n  name: ps\nstringData:\n  x: y\n",
		"pull-secret.json":       `{"auths": {"quay.io": {"auth": "dXNlcjpwYXNz"}}}`,
		"install-config.yaml":    "apiVersion: v1\nbaseDomain: example.com\npullSecret: '{}'\n",
		"key.pem":                key,
		"ssh.yaml":               "sshKey: |\n  " + strings.ReplaceAll(key, "\n", "\n  "),
		"bmc.yaml":               "hosts:\n  - name: m0\n    bmc:\n      address: ipmi://10.0.0.1\n      username: admin\n",
		"bmc.json":               `{"bmc": {"password": "x"}}`,
		"bmc-url.yaml":           "nodes:\n  - bmcAddress: redfish-virtualmedia+https://root:calvin@10.1.101.11/redfish/v1/Systems/1\n",
		// a pull secret a MachineConfig writes, only visible decoded
		"mc-pull-secret.yaml": "apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfig\nmetadata:\n  name: 99-x\nspec:\n  config:\n    storage:\n      files:\n      - path: /etc/x.json\n        contents:\n          source: data:;base64," +
			base64.StdEncoding.EncodeToString([]byte(`{"auths": {"quay.io": {"auth": "dXNlcjpwYXNz"}}}`)) + "\n",
		"mc-kubelet-auth.yaml":  "apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfig\nmetadata:\n  name: 99-x\nspec:\n  config:\n    storage:\n      files:\n      - path: /var/lib/kubelet/config.json\n        contents:\n          source: data:,%7B%7D\n",
		"configmap-secret.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: extra-manifests\ndata:\n  s.yaml: |\n    apiVersion: v1\n    kind: Secret\n    metadata:\n      name: s\n    data:\n      token: eA==\n",
	}
	dir := t.TempDir()
	for name, content := range planted {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name := range planted {
		data, _ := os.ReadFile(filepath.Join(dir, name))
		if f := secretFindings(name, data); len(f) == 0 {
			t.Errorf("planted %s is not reported", name)
		}
	}
	findings, n := scanTree(t, dir)
	if n != len(planted) || len(findings) < len(planted) {
		t.Errorf("scanTree: %d files, %d findings, want %d files and a finding each", n, len(findings), len(planted))
	}
	// What the hub output legitimately holds: Secret NAMES.
	clean := []byte("spec:\n  pullSecretRef:\n    name: assisted-deployment-pull-secret\n  nodes:\n  - bmcCredentialsName:\n      name: m0-bmc\n  sshPublicKey: ssh-ed25519 AAAAC3Nza lab\n")
	if f := secretFindings("clean.yaml", clean); len(f) > 0 {
		t.Errorf("clean hub output reported: %v", f)
	}
}
