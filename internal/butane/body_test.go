package butane

import (
	"testing"

	"github.com/vincent-petithory/dataurl"

	"github.com/siteforge/siteforge/internal/diag"
)

func TestBodyYAML(t *testing.T) {
	b := Body{
		Files: []File{{Path: "/etc/NetworkManager/conf.d/99-eno1-mtu.conf", Mode: 0o600,
			Contents: "[connection-eno1-mtu]\nmatch-device=interface-name:eno1\nethernet.mtu=9000\n"}},
		Units: []Unit{
			{Name: "keepalived-fix.service", Enabled: true, Contents: "[Service]\nType=oneshot\nExecStart=/usr/local/bin/fix\n\n[Install]\nWantedBy=multi-user.target\n"},
			{Name: "ovs-vswitchd.service", Dropins: []Dropin{{Name: "10-flow-idle.conf", Contents: "[Service]\nEnvironment=X=1\n"}}},
		},
	}
	want := `storage:
  files:
    - path: /etc/NetworkManager/conf.d/99-eno1-mtu.conf
      mode: 0600
      overwrite: true
      contents:
        inline: |
          [connection-eno1-mtu]
          match-device=interface-name:eno1
          ethernet.mtu=9000
systemd:
  units:
    - name: keepalived-fix.service
      enabled: true
      contents: |
        [Service]
        Type=oneshot
        ExecStart=/usr/local/bin/fix

        [Install]
        WantedBy=multi-user.target
    - name: ovs-vswitchd.service
      dropins:
        - name: 10-flow-idle.conf
          contents: |
            [Service]
            Environment=X=1
`
	if got := string(b.YAML()); got != want {
		t.Errorf("Body.YAML:\n%s\nwant:\n%s", got, want)
	}
	if got := (Body{}).YAML(); got != nil {
		t.Errorf("empty body: %q", got)
	}
}

// TestBodyRoundTrip checks that contents survive YAML quoting exactly.
func TestBodyRoundTrip(t *testing.T) {
	contents := []string{
		"plain\n",
		"no trailing newline",
		"  leading spaces\n\ttab\ntrailing spaces   \n",
		"# not a comment\nkey: value\n- item\n",
		"unicode: größe ✓\n\n\n",
		"",
		"\"quoted\" and 'single' and \\backslash\n",
	}
	var b Body
	for i, c := range contents {
		b.Files = append(b.Files, File{Path: "/etc/siteforge/f" + string(rune('a'+i)), Mode: 0o644, Contents: c})
	}
	res, err := Build(Config{Name: "50-worker-files", Role: "worker", Body: b.YAML(),
		Origin: Origin{Pos: diag.Position{File: "site.yaml", Line: 3, Col: 5}, Path: "ovs"}}, "4.12")
	if err != nil {
		t.Fatalf("%v\n%s", err, b.YAML())
	}
	cfg := ignitionOf(t, res.Object)
	for i, f := range cfg.Storage.Files {
		if f.Mode == nil || *f.Mode != 0o644 || f.Overwrite == nil || !*f.Overwrite {
			t.Errorf("%s: mode %v overwrite %v", f.Path, f.Mode, f.Overwrite)
		}
		var got string
		if f.Contents.Source != nil {
			d, err := dataurl.DecodeString(*f.Contents.Source)
			if err != nil {
				t.Fatal(err)
			}
			got = string(d.Data)
		}
		if got != contents[i] {
			t.Errorf("%s: contents %q, want %q", f.Path, got, contents[i])
		}
	}
}
