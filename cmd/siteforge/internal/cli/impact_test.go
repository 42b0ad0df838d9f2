package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// impactScenario is a change to a bundled example: edit returns the new
// content of one of its files.
type impactScenario struct {
	name string
	file string // relative to the example
	edit func(t *testing.T, s string) string
	// before, when set, is applied to the old state too (a change from
	// one edited state to another)
	before func(t *testing.T, s string) string
}

func replaceOnce(old, new string) func(t *testing.T, s string) string {
	return func(t *testing.T, s string) string {
		t.Helper()
		if !strings.Contains(s, old) {
			t.Fatalf("the example no longer holds %q", old)
		}
		return strings.ReplaceAll(s, old, new)
	}
}

func appendText(extra string) func(t *testing.T, s string) string {
	return func(t *testing.T, s string) string { return s + extra }
}

// A chrony MachineConfig for every pool, in CUE (appended to a site or the
// fleet defaults): added where the example has none.
const cueChrony = `
machineConfigs: "99-worker-chrony": {
	pool: "worker"
	butane: """
		storage:
		  files:
		    - path: /etc/chrony.conf
		      mode: 0644
		      overwrite: true
		      contents:
		        inline: |
		          server ntp1.example.com iburst
		"""
}
`

var impactExamples = map[string][]impactScenario{
	"disconnected-quay-cache": {
		{name: "chrony-edit", file: "site.yaml", edit: replaceOnce("server ntp2.lab.example.com iburst", "server ntp3.lab.example.com iburst")},
		{name: "digest-mirror-added", file: "site.yaml", edit: replaceOnce("\nmirroring:\n", "\nmirroring:\n  sources:\n    registry.example.com/team:\n      mirrors: [quay.lab.example.com:8443/team]\n")},
		{name: "mirror-removed", file: "site.yaml", edit: replaceOnce("      registry-redhat-io: registry.redhat.io\n", "")},
		{name: "tag-mirror-added", file: "site.yaml", edit: replaceOnce("\nmirroring:\n", "\nmirroring:\n  sources:\n    registry.example.com/team:\n      mirrors: [quay.lab.example.com:8443/team]\n      serves: tags\n")},
		{name: "catalog-display-name", file: "site.yaml", edit: replaceOnce("displayName: Red Hat Operators", "displayName: Red Hat Operators (lab cache)")},
	},
	"fleet": {
		{name: "chrony-added", file: "defaults.cue", edit: appendText(cueChrony)},
		{name: "catalog-display-name", file: "defaults.cue", edit: replaceOnce(`"redhat-operators": image:`, `"redhat-operators": displayName: "Red Hat Operators (hub cache)"
		"redhat-operators": image:`)},
	},
	"aws-local-zones": {
		{name: "chrony-added", file: "site.cue", edit: appendText(cueChrony)},
		// the MTU migration from git: phase 1 starts it, phase 2 ends it;
		// each rolls every pool
		{name: "mtu-phase-1", file: "site.cue", edit: appendText("mtu: target: 1200\nmtu: migration: phase: \"1\"\n"),
			before: appendText("mtu: target: 1200\n")},
		{name: "mtu-phase-2", file: "site.cue", edit: appendText("mtu: target: 1200\nmtu: migration: phase: \"2\"\n"),
			before: appendText("mtu: target: 1200\nmtu: migration: phase: \"1\"\n")},
	},
	"remote-workers": {
		{name: "chrony-added", file: "site.cue", edit: appendText(cueChrony)},
	},
}

// TestImpactGolden: the impact report (markdown, as a pull-request comment
// shows it) of each scenario on each bundled example, against
// golden/impact/<example>/<scenario>.md (UPDATE_GOLDEN=1 rewrites them).
func TestImpactGolden(t *testing.T) {
	abs, _ := filepath.Abs(examplesDir)
	goldenDir, _ := filepath.Abs(filepath.Join("..", "..", "..", "..", "golden", "impact"))
	for example, scenarios := range impactExamples {
		for _, sc := range scenarios {
			t.Run(example+"/"+sc.name, func(t *testing.T) {
				dir := t.TempDir()
				oldDir, newDir := filepath.Join(dir, "old", example), filepath.Join(dir, "new", example)
				copyTree(t, filepath.Join(abs, example), oldDir)
				copyTree(t, filepath.Join(abs, example), newDir)
				data, err := os.ReadFile(filepath.Join(newDir, sc.file))
				if err != nil {
					t.Fatal(err)
				}
				write(t, newDir, map[string]string{sc.file: sc.edit(t, string(data))})
				if sc.before != nil {
					write(t, oldDir, map[string]string{sc.file: sc.before(t, string(data))})
				}
				r := mainIn(t, dir, "impact", "--format", "markdown", filepath.Join("old", example), filepath.Join("new", example))
				if r.code != ExitOK {
					t.Fatalf("exit %d\n%s", r.code, r.stderr)
				}
				golden := filepath.Join(goldenDir, example, sc.name+".md")
				if os.Getenv("UPDATE_GOLDEN") != "" {
					if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(golden, []byte(r.stdout), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (UPDATE_GOLDEN=1 writes it)", err)
				}
				if r.stdout != string(want) {
					t.Errorf("impact report differs from %s (UPDATE_GOLDEN=1 rewrites it):\n--- got\n%s", golden, r.stdout)
				}
			})
		}
	}
}

// TestImpactJSONContract: the JSON names issue 16 fixes, and node counts
// null where the input does not say.
func TestImpactJSONContract(t *testing.T) {
	abs, _ := filepath.Abs(examplesDir)
	dir := t.TempDir()
	copyTree(t, filepath.Join(abs, "disconnected-quay-cache"), filepath.Join(dir, "old"))
	copyTree(t, filepath.Join(abs, "disconnected-quay-cache"), filepath.Join(dir, "new"))
	data, _ := os.ReadFile(filepath.Join(dir, "new", "site.yaml"))
	write(t, dir, map[string]string{"new/site.yaml": strings.ReplaceAll(string(data), "server ntp2.lab.example.com iburst", "server ntp3.lab.example.com iburst")})
	r := mainIn(t, dir, "impact", "--format", "json", "old", "new")
	var rep struct {
		Pools []struct {
			Site, Pool, Action string
			Nodes              *int
			Changes            []struct{ Object, Path, Action, Reason string }
		}
		Other []map[string]any
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	got := map[string]string{}
	for _, p := range rep.Pools {
		n := "null"
		if p.Nodes != nil {
			n = strings.TrimSpace(strings.Repeat("x", 0) + itoa(*p.Nodes))
		}
		got[p.Pool] = p.Action + " " + n
		for _, c := range p.Changes {
			if c.Path == "/etc/chrony.conf" && (c.Action != "reboot" || !strings.Contains(c.Object, "99-"+p.Pool+"-chrony")) {
				t.Errorf("pool %s: change %+v", p.Pool, c)
			}
		}
	}
	if got["master"] != "reboot 3" || got["worker"] != "reboot 2" {
		t.Errorf("pools = %v, want master reboot 3, worker reboot 2\n%s", got, r.stdout)
	}
	if r := mainIn(t, dir, "impact", "--fail-on", "reboot", "old", "new"); r.code != ExitFindings {
		t.Errorf("--fail-on reboot: exit %d, want 1", r.code)
	}
	if r := mainIn(t, dir, "impact", "--fail-on", "reboot", "old", "old"); r.code != ExitOK {
		t.Errorf("no change, --fail-on reboot: exit %d, want 0\n%s", r.code, r.stdout)
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestImpactGit: `impact --git REV` in a fleet repository compares the
// working tree with REV, read through git (no checkout), and names only the
// site that changes.
func TestImpactGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("SKIPPED LOUDLY: git is not installed; impact --git is not tested")
	}
	abs, _ := filepath.Abs(examplesDir)
	dir := t.TempDir()
	copyTree(t, filepath.Join(abs, "fleet"), dir)
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("add", ".")
	git("commit", "-q", "-m", "fleet")
	data, err := os.ReadFile(filepath.Join(dir, "sites", "store-0002", "site.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, dir, map[string]string{"sites/store-0002/site.yaml": string(data) + `
machineConfigs:
  99-master-chrony:
    pool: master
    butane: |
      storage:
        files:
          - path: /etc/chrony.conf
            mode: 0644
            overwrite: true
            contents:
              inline: |
                server ntp1.example.com iburst
`})
	r := mainIn(t, dir, "impact", "--git", "HEAD", "--format", "json")
	if r.code != ExitOK {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	var rep struct {
		Pools []struct{ Site, Pool, Action string }
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	var got []string
	for _, p := range rep.Pools {
		got = append(got, p.Site+"/"+p.Pool+" "+p.Action)
	}
	if strings.Join(got, ", ") != "store-0002/master reboot, store-0002/worker none" {
		t.Errorf("pools = %v, want store-0002 only: master reboot, worker none\n%s", got, r.stdout)
	}
	// a revision git does not know: exit 2, git's reason
	r = mainIn(t, dir, "impact", "--git", "no-such-rev")
	if r.code != ExitFailure || !strings.Contains(r.stderr, "git archive no-such-rev") {
		t.Errorf("unknown revision: exit %d\n%s", r.code, r.stderr)
	}
	// an option smuggled as a revision is refused before git runs
	r = mainIn(t, dir, "impact", "--git", "--output=/tmp/x")
	if r.code != ExitFailure {
		t.Errorf("--git --output=...: exit %d", r.code)
	}
}
