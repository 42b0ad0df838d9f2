package machineconfigs

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/load"
	"github.com/siteforge/siteforge/internal/site"
)

const chrony = `storage:
  files:
    - path: /etc/chrony.conf
      mode: 0644
      overwrite: true
      contents:
        inline: |
          server ntp1.example.com iburst
          driftfile /var/lib/chrony/drift
`

const waitUnit = `systemd:
  units:
    - name: remote-wait.service
      enabled: true
      contents: |
        [Service]
        Type=oneshot
        ExecStart=/usr/bin/true

        [Install]
        WantedBy=multi-user.target
`

// testSite is a site as the loader would decode it, with the positions of a
// site.yaml that writes the machineConfigs entries as block scalars.
func testSite(mcs map[string]site.ButaneMachineConfig) *site.Site {
	s := &site.Site{
		Name:           "lab-1",
		Cluster:        site.Cluster{Name: "lab-1", BaseDomain: "example.com", Version: "4.16.3"},
		MachineConfigs: mcs,
		Source:         "sites/lab-1/site.yaml",
		Positions: site.Positions{
			"":                                       {File: "sites/lab-1/site.yaml", Line: 1, Col: 1},
			"machineConfigs":                         {File: "sites/lab-1/site.yaml", Line: 21, Col: 1},
			`machineConfigs."99-worker-chrony"`:      {File: "sites/lab-1/site.yaml", Line: 22, Col: 3},
			`machineConfigs."99-worker-chrony".pool`: {File: "sites/lab-1/site.yaml", Line: 23, Col: 11},
			`machineConfigs."99-worker-chrony".butane`:        {File: "sites/lab-1/site.yaml", Line: 24, Col: 13},
			`machineConfigs."50-remote-worker-wait"`:          {File: "sites/lab-1/site.yaml", Line: 33, Col: 3},
			`machineConfigs."50-remote-worker-wait".pool`:     {File: "sites/lab-1/site.yaml", Line: 34, Col: 11},
			`machineConfigs."50-remote-worker-wait".butane`:   {File: "sites/lab-1/site.yaml", Line: 35, Col: 13},
			`machineConfigs."99-master-kargs"`:                {File: "sites/lab-1/site.yaml", Line: 48, Col: 3},
			`machineConfigs."99-master-kargs".pool`:           {File: "sites/lab-1/site.yaml", Line: 49, Col: 11},
			`machineConfigs."99-master-kargs".butane`:         {File: "sites/lab-1/site.yaml", Line: 50, Col: 13},
			`machineConfigs."99-worker-from-defaults"`:        {File: "defaults.cue", Line: 5, Col: 20},
			`machineConfigs."99-worker-from-defaults".butane`: {File: "defaults.cue", Line: 6, Col: 10},
		},
	}
	return s
}

func TestGenerate(t *testing.T) {
	s := testSite(map[string]site.ButaneMachineConfig{
		"99-worker-chrony":      {Pool: "worker", Butane: chrony},
		"50-remote-worker-wait": {Pool: "remote-worker", Butane: waitUnit},
		"99-master-kargs":       {Pool: "master", Butane: "openshift:\n  kernel_arguments:\n    - nosmt\n"},
	})
	arts, err := Generate(testContext(s), s)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, a := range arts {
		paths = append(paths, a.Path)
	}
	want := []string{
		"machineconfigs/50-remote-worker-wait.bu", "machineconfigs/50-remote-worker-wait.yaml",
		"machineconfigs/99-master-kargs.bu", "machineconfigs/99-master-kargs.yaml",
		"machineconfigs/99-worker-chrony.bu", "machineconfigs/99-worker-chrony.yaml",
	}
	if strings.Join(paths, " ") != strings.Join(want, " ") {
		t.Fatalf("paths\n got %v\nwant %v", paths, want)
	}
	roles := map[string]string{"50-remote-worker-wait": "remote-worker", "99-master-kargs": "master", "99-worker-chrony": "worker"}
	for _, a := range arts {
		name := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(a.Path), ".bu"), ".yaml")
		wantOrigin := s.Positions.Of(`machineConfigs."` + name + `"`)
		if len(a.Origin) != 1 || a.Origin[0] != wantOrigin {
			t.Errorf("%s: origin %v, want %v", a.Path, a.Origin, wantOrigin)
		}
		switch filepath.Ext(a.Path) {
		case ".bu":
			if a.Role != generators.File || a.Comment != "#" || !bytes.HasPrefix(a.Data, []byte("variant: openshift\nversion: 4.16.0\n")) {
				t.Errorf("%s: role %v comment %q data\n%s", a.Path, a.Role, a.Comment, a.Data)
			}
			if !bytes.HasSuffix(a.Data, []byte(s.MachineConfigs[name].Butane)) {
				t.Errorf("%s does not end with the user's body:\n%s", a.Path, a.Data)
			}
		case ".yaml":
			obj, ok := a.Object.(map[string]any)
			if a.Role != generators.Resource || !ok {
				t.Fatalf("%s: role %v object %T", a.Path, a.Role, a.Object)
			}
			meta := obj["metadata"].(map[string]any)
			if meta["name"] != name {
				t.Errorf("%s: name %v", a.Path, meta["name"])
			}
			if got := meta["labels"].(map[string]any)["machineconfiguration.openshift.io/role"]; got != roles[name] {
				t.Errorf("%s: role label %v, want %s", a.Path, got, roles[name])
			}
		}
	}
	kargs := arts[3].Object.(map[string]any)["spec"].(map[string]any)["kernelArguments"]
	if ka, _ := kargs.([]any); len(ka) != 1 || ka[0] != "nosmt" {
		t.Errorf("kernelArguments %v", kargs)
	}
}

func TestGenerateNone(t *testing.T) {
	arts, err := Generate(testContext(testSite(nil)), testSite(nil))
	if err != nil || len(arts) != 0 {
		t.Errorf("got %v, %v", arts, err)
	}
}

func TestGenerateErrors(t *testing.T) {
	s := testSite(map[string]site.ButaneMachineConfig{
		"99-worker-chrony":        {Pool: "worker", Butane: "storage:\n  filez:\n    - path: /etc/chrony.conf\n"},
		"50-remote-worker-wait":   {Pool: "remote-worker", Butane: waitUnit},
		"99-master-kargs":         {Pool: "master", Butane: "storage:\n  files:\n    - mode: 0644\n"},
		"99-worker-from-defaults": {Pool: "worker", Butane: "variant: fcos\n"},
	})
	_, err := Generate(testContext(s), s)
	dl, ok := err.(diag.List)
	if !ok {
		t.Fatalf("error %T %v, want diag.List", err, err)
	}
	want := []diag.Diagnostic{
		// A one-line body (in a fleet defaults file) is reported at the
		// string's own position.
		{Pos: diag.Position{File: "defaults.cue", Line: 6, Col: 10}, Path: `machineConfigs."99-worker-from-defaults".butane`,
			Message: "variant: variant is not allowed in the Butane body"},
		{Pos: diag.Position{File: "sites/lab-1/site.yaml", Line: 26, Col: 9}, Path: `machineConfigs."99-worker-chrony".butane`,
			Message: `storage: unknown Butane field "filez"`},
		{Pos: diag.Position{File: "sites/lab-1/site.yaml", Line: 53, Col: 13}, Path: `machineConfigs."99-master-kargs".butane`,
			Message: "storage.files.0.path: path not specified"},
	}
	if len(dl) != len(want) {
		t.Fatalf("got %d diagnostics:\n%v", len(dl), dl)
	}
	for i := range want {
		g := dl[i]
		g.Hint = ""
		if g != want[i] {
			t.Errorf("diagnostic %d\n got %#v\nwant %#v", i, g, want[i])
		}
	}
}

// TestGenerateWithoutOwnPosition: an entry whose butane field has no
// position of its own is reported at the nearest ancestor's.
func TestGenerateWithoutOwnPosition(t *testing.T) {
	s := testSite(map[string]site.ButaneMachineConfig{"99-worker-new": {Pool: "worker", Butane: "storage:\n  files:\n    - mode: 0644\n"}})
	_, err := Generate(testContext(s), s)
	dl, ok := err.(diag.List)
	if !ok || len(dl) != 1 || dl[0].Pos != s.Positions.Of("machineConfigs") {
		t.Fatalf("got %v", err)
	}
}

func TestRenderWarnings(t *testing.T) {
	noInstall := "systemd:\n  units:\n    - name: noop.service\n      enabled: true\n      contents: |\n        [Service]\n        ExecStart=/bin/true\n"
	s := testSite(map[string]site.ButaneMachineConfig{"99-worker-chrony": {Pool: "worker", Butane: noInstall}})
	out, err := generators.Render(s, generators.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Warnings) != 1 || out.Warnings[0].Pos != (diag.Position{File: "sites/lab-1/site.yaml", Line: 29, Col: 23}) ||
		!strings.Contains(out.Warnings[0].Message, "has no install section") {
		t.Errorf("warnings %v", out.Warnings)
	}
	if got := strings.Join(out.Paths(), " "); got != "kustomization.yaml machineconfigs/99-worker-chrony.bu machineconfigs/99-worker-chrony.yaml" {
		t.Errorf("paths %s", got)
	}
	bu := string(out.Files["machineconfigs/99-worker-chrony.bu"])
	if !strings.HasPrefix(bu, "# Generated by siteforge (generator machineconfigs)") {
		t.Errorf(".bu header:\n%s", bu)
	}
	if _, err := generators.Render(s, generators.Options{Strict: true}); err == nil {
		t.Error("--strict: the warning does not fail the render")
	}
}

func TestRenderDeterministic(t *testing.T) {
	mcs := map[string]site.ButaneMachineConfig{
		"99-worker-chrony":      {Pool: "worker", Butane: chrony},
		"50-remote-worker-wait": {Pool: "remote-worker", Butane: waitUnit},
	}
	first, err := generators.Render(testSite(mcs), generators.Options{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		again, err := generators.Render(testSite(mcs), generators.Options{Strict: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range first.Paths() {
			if !bytes.Equal(first.Files[p], again.Files[p]) {
				t.Fatalf("%s differs between renders", p)
			}
		}
	}
	mc := string(first.Files["machineconfigs/99-worker-chrony.yaml"])
	for _, want := range []string{"siteforge.dev/source: sites/lab-1/site.yaml", "machineconfiguration.openshift.io/role: worker", "version: 3.4.0"} {
		if !strings.Contains(mc, want) {
			t.Errorf("MachineConfig lacks %q:\n%s", want, mc)
		}
	}
}

// TestLoadedSitePositions loads real site files and checks that Butane's
// findings land on the offending token of the user's file, for the YAML and
// CUE layouts the package documentation promises.
func TestLoadedSitePositions(t *testing.T) {
	yamlSite := `apiVersion: siteforge.dev/v1alpha1
kind: Site
name: lab-1
cluster:
  baseDomain: example.com
  version: "4.16"
  platform: baremetal
  installMethod: agent
  lifecycle: install
network:
  machineNetwork: ["192.168.10.0/24"]
  apiVIPs: ["192.168.10.5"]
pools:
  master:
    uplinkInterface: eno1
    uplinkMTU: 1500
    count: 3
  worker:
    uplinkInterface: eno1
    uplinkMTU: 9000
machineConfigs:
  99-worker-chrony:
    pool: worker
    butane: |
      storage:
        files:
          - path: /etc/chrony.conf
            mode: 0644
            contents:
              inline: server ntp1.example.com iburst
          - mode: 0644
            contents:
              inline: x
        directoriez: []
`
	cueSite := `package site

apiVersion: "siteforge.dev/v1alpha1"
kind:       "Site"
name:       "lab-1"
cluster: {
	baseDomain:    "example.com"
	version:       "4.16"
	platform:      "baremetal"
	installMethod: "agent"
	lifecycle:     "install"
}
network: machineNetwork: ["192.168.10.0/24"]
network: apiVIPs: ["192.168.10.5"]
pools: master: {
	uplinkInterface: "eno1"
	uplinkMTU:       1500
}
pools: worker: {
	uplinkInterface: "eno1"
	uplinkMTU:       1500
}
machineConfigs: "99-worker-chrony": {
	pool: "worker"
	butane: """
		storage:
		  files:
		    - path: /etc/chrony.conf
		      mode: 0644
		      contents:
		        inline: server ntp1.example.com iburst
		    - mode: 0644
		      contents:
		        inline: x
		  directoriez: []
		"""
}
`
	for name, src := range map[string]string{"site.yaml": yamlSite, "site.cue": cueSite} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, name)
			if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			res := load.Load([]string{file})
			if len(res.Diagnostics) > 0 || len(res.Sites) != 1 {
				t.Fatalf("load: %v", res.Diagnostics)
			}
			_, err := Generate(testContext(res.Sites[0]), res.Sites[0])
			dl, ok := err.(diag.List)
			if !ok || len(dl) != 2 {
				t.Fatalf("got %v", err)
			}
			lines := strings.Split(src, "\n")
			for i, want := range []string{"mode: 0644", "directoriez: []"} { // the entry without a path; the unknown field
				d := dl[i]
				if d.Pos.File != file || d.Pos.Line < 1 || d.Pos.Line > len(lines) {
					t.Fatalf("diagnostic %d at %v", i, d.Pos)
				}
				line := lines[d.Pos.Line-1]
				if d.Pos.Col < 1 || d.Pos.Col > len(line) || !strings.HasPrefix(line[d.Pos.Col-1:], want) {
					t.Errorf("diagnostic %d (%s) at %v points at %q, want %q", i, d.Message, d.Pos, line, want)
				}
			}
			// The printer underlines the token.
			p := diag.Printer{Source: func(string) ([]byte, bool) { return []byte(src), true }}
			if out := p.Format(dl[1]); !strings.Contains(out, "^^^^^^^^^^^") {
				t.Errorf("snippet:\n%s", out)
			}
		})
	}
}

// testContext is the render context of s (its cluster.version parsed).
func testContext(s *site.Site) *generators.Context {
	ctx, err := generators.NewContext(s, generators.Options{})
	if err != nil {
		panic(err)
	}
	return ctx
}
