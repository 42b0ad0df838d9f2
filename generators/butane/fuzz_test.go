package butane

import (
	"testing"

	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/fidelity"
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
		// Without warnings (which render shows, and --strict refuses) the
		// MachineConfig must be one the platform accepts.
		if err := fidelity.Check(res.MachineConfig); err != nil && len(res.Warnings) == 0 {
			t.Fatalf("Butane accepted a body whose MachineConfig the platform refuses, without a warning:\n%s\n%v", body, err)
		}
	})
}
