package butane

import (
	"testing"

	"github.com/siteforge/siteforge/internal/_fidelity"
	"github.com/siteforge/siteforge/internal/credential"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/ignition"
)

// FuzzBuild: any Butane body from a site either translates into a
// MachineConfig the platform accepts, or fails with diagnostics at the
// user's position; never a panic.
func FuzzBuild(f *testing.F) {
	f.Add([]byte("storage:\n  files:\n    - path: /etc/chrony.conf\n      mode: 0644\n      contents:\n        inline: server ntp.example.com iburst\n"))
	f.Add([]byte("systemd:\n  units:\n    - name: x.service\n      enabled: true\n      contents: |\n        [Unit]\n        Description=x\n"))
	f.Add([]byte("kernel_arguments:\n  should_exist: [nosmt]\n"))
	f.Add([]byte("variant: fcos\n"))
	f.Add([]byte("storage: {files: [{path: rel}]}\n"))
	// credential bypass attempts (the hardening issue)
	f.Add([]byte("storage:\n  files:\n    - path: /etc/x\n      contents:\n        source: data:;base64,LS0tLS1CRUdJTiBQUklWQVRFIEtFWS0tLS0tCg==\n"))
	f.Add([]byte("a: &k \"-----BEGIN PRIVATE KEY-----\"\nstorage:\n  files:\n    - path: /etc/x\n      contents:\n        inline: *k\n"))
	f.Add([]byte("storage:\n  files:\n    - path: /etc/kubernetes/static-pod-resources/etcd-certs/k\n      contents:\n        inline: x\n"))
	pos := diag.Position{File: "site.yaml", Line: 10, Col: 13}
	f.Fuzz(func(t *testing.T, body []byte) {
		res, err := Build(Config{Name: "99-worker-x", Role: "worker", Body: body, Origin: Origin{Pos: pos, Path: "machineConfigs.x.butane", Snippet: true}}, "4.16")
		if err != nil {
			dl, ok := err.(diag.List)
			if !ok || len(dl) == 0 {
				t.Fatalf("error is not a diagnostic list: %v", err)
			}
			for _, d := range dl {
				if d.Pos.File != "site.yaml" || d.Pos.Line < 1 {
					t.Fatalf("diagnostic not in the site file: %v", d)
				}
			}
			return
		}
		// Whatever the encoding, no file the MachineConfig writes holds a
		// private key: the credential check sees what Ignition writes.
		for _, c := range writtenContents(t, res.Object) {
			if credential.In(c) == "a private key" {
				t.Fatalf("a body writing a private key was accepted:\n%s", body)
			}
		}
		// Without warnings (which render shows, and --strict refuses) the
		// MachineConfig must be one the platform accepts.
		if err := fidelity.Check(mcYAML(t, res)); err != nil && len(res.Warnings) == 0 {
			t.Fatalf("Butane accepted a body whose MachineConfig the platform refuses, without a warning:\n%s\n%v", body, err)
		}
	})
}

// writtenContents decodes every file content of a translated MachineConfig
// as Ignition will write it.
func writtenContents(t *testing.T, obj map[string]any) [][]byte {
	t.Helper()
	var out [][]byte
	spec, _ := obj["spec"].(map[string]any)
	cfg, _ := spec["config"].(map[string]any)
	storage, _ := cfg["storage"].(map[string]any)
	files, _ := storage["files"].([]any)
	for _, f := range files {
		fm, _ := f.(map[string]any)
		var parts []any
		if c, ok := fm["contents"]; ok {
			parts = append(parts, c)
		}
		if a, ok := fm["append"].([]any); ok {
			parts = append(parts, a...)
		}
		for _, p := range parts {
			pm, _ := p.(map[string]any)
			src, _ := pm["source"].(string)
			comp, _ := pm["compression"].(string)
			if b, err := ignition.Contents(src, comp, 16<<20); err == nil {
				out = append(out, b)
			}
		}
	}
	systemd, _ := cfg["systemd"].(map[string]any)
	units, _ := systemd["units"].([]any)
	for _, u := range units {
		um, _ := u.(map[string]any)
		if c, ok := um["contents"].(string); ok {
			out = append(out, []byte(c))
		}
		dropins, _ := um["dropins"].([]any)
		for _, d := range dropins {
			dm, _ := d.(map[string]any)
			if c, ok := dm["contents"].(string); ok {
				out = append(out, []byte(c))
			}
		}
	}
	return out
}
