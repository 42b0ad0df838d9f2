package cli

import (
	"encoding/json"
	"fmt"
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

// chain applies edits in order.
func chain(edits ...func(t *testing.T, s string) string) func(t *testing.T, s string) string {
	return func(t *testing.T, s string) string {
		for _, e := range edits {
			s = e(t, s)
		}
		return s
	}
}

// The scenarios are written once per format: CUE text appended to a site
// (or the fleet defaults) unifies with it; YAML is inserted where the
// example keeps the key.

func cueChrony(server string) string {
	mc := func(pool string) string {
		return `machineConfigs: "99-` + pool + `-chrony": {
	pool: "` + pool + `"
	butane: """
		storage:
		  files:
		    - path: /etc/chrony.conf
		      mode: 0644
		      overwrite: true
		      contents:
		        inline: |
		          server ` + server + ` iburst
		"""
}
`
	}
	return "\n" + mc("master") + mc("worker")
}

func cueSource(name, serves string, mirrors ...string) string {
	return "\nmirroring: sources: \"" + name + "\": {mirrors: [\"" + strings.Join(mirrors, "\", \"") + "\"], serves: \"" + serves + "\"}\n"
}

func cueCatalog(display string) string {
	return "\nmirroring: catalogs: \"team-operators\": {image: \"registry.example.com/team/operator-index:v1\", displayName: \"" + display + "\"}\n"
}

func cueMTU(current, target, machine int, phase string) string {
	return fmt.Sprintf("\nmtu: {current: %d, target: %d, machine: %d, migration: phase: %q}\n", current, target, machine, phase)
}

func yamlSource(name, serves string, mirrors ...string) string {
	return "  sources:\n    " + name + ":\n      mirrors: [" + strings.Join(mirrors, ", ") + "]\n      serves: " + serves + "\n"
}

// addSource inserts a mirrored source under the site's mirroring (its
// sources: when it has some; a second sources: key would be refused).
func addSource(name, serves string, mirrors ...string) func(t *testing.T, s string) string {
	return func(t *testing.T, s string) string {
		t.Helper()
		entry := yamlSource(name, serves, mirrors...)
		if strings.Contains(s, "\nmirroring:\n  sources:\n") {
			return strings.Replace(s, "\nmirroring:\n  sources:\n", "\nmirroring:\n"+entry, 1)
		}
		return replaceOnce("\nmirroring:\n", "\nmirroring:\n"+entry)(t, s)
	}
}

// cueScenarios are the scenarios of a CUE site (or fleet defaults):
// running is the edit that makes it a running cluster (a cluster to
// install has no node to disrupt); mtu the current, target and machine
// MTUs of a legal migration of its plan.
func cueScenarios(file, running string, mtu [3]int) []impactScenario {
	base := func(extra ...string) func(t *testing.T, s string) string {
		edits := []func(t *testing.T, s string) string{}
		if running != "" {
			edits = append(edits, replaceOnce(running, strings.Replace(running, `"install"`, `"running"`, 1)))
		}
		for _, e := range extra {
			edits = append(edits, appendText(e))
		}
		return chain(edits...)
	}
	return []impactScenario{
		{name: "chrony-edit", file: file, before: base(cueChrony("ntp1.example.com")), edit: base(cueChrony("ntp2.example.com"))},
		{name: "digest-mirror-added", file: file, before: base(), edit: base(cueSource("registry.example.com/team", "digests", "mirror.example.com/team"))},
		{name: "mirror-removed", file: file, before: base(cueSource("registry.example.com/team", "digests", "mirror.example.com/team", "mirror2.example.com/team")),
			edit: base(cueSource("registry.example.com/team", "digests", "mirror.example.com/team"))},
		{name: "tag-mirror-added", file: file, before: base(), edit: base(cueSource("registry.example.com/team", "tags", "mirror.example.com/team"))},
		{name: "catalog-display-name", file: file, before: base(cueCatalog("Team Operators")), edit: base(cueCatalog("Team Operators (mirror)"))},
		{name: "mtu-phase-1", file: file, before: base(cueMTU(mtu[0], mtu[1], mtu[2], "none")), edit: base(cueMTU(mtu[0], mtu[1], mtu[2], "1"))},
		{name: "mtu-phase-2", file: file, before: base(cueMTU(mtu[0], mtu[1], mtu[2], "1")), edit: base(cueMTU(mtu[0], mtu[1], mtu[2], "2"))},
	}
}

// yamlScenarios are the scenarios of a YAML site that has mirroring,
// catalogs and a chrony MachineConfig (disconnected-quay-cache, the
// kustomize example's site).
func yamlScenarios(file, running, chronyLine, catalogLine, catalogEdit string, mtu [3]int) []impactScenario {
	base := func(extra ...func(t *testing.T, s string) string) func(t *testing.T, s string) string {
		edits := []func(t *testing.T, s string) string{}
		if running != "" {
			edits = append(edits, replaceOnce(running, strings.Replace(running, "install", "running", 1)))
		}
		return chain(append(edits, extra...)...)
	}
	mtuBlock := func(phase string) func(t *testing.T, s string) string {
		return appendText(fmt.Sprintf("\nmtu:\n  current: %d\n  target: %d\n  machine: %d\n  migration:\n    phase: %q\n", mtu[0], mtu[1], mtu[2], phase))
	}
	return []impactScenario{
		{name: "chrony-edit", file: file, before: base(), edit: base(replaceOnce(chronyLine, strings.Replace(chronyLine, "ntp1", "ntp3", 1)))},
		{name: "digest-mirror-added", file: file, before: base(), edit: base(addSource("registry.example.com/team", "digests", "mirror.example.com/team"))},
		{name: "mirror-removed", file: file, before: base(addSource("registry.example.com/team", "digests", "mirror.example.com/team", "mirror2.example.com/team")),
			edit: base(addSource("registry.example.com/team", "digests", "mirror.example.com/team"))},
		{name: "tag-mirror-added", file: file, before: base(), edit: base(addSource("registry.example.com/team", "tags", "mirror.example.com/team"))},
		{name: "catalog-display-name", file: file, before: base(), edit: base(replaceOnce(catalogLine, catalogEdit))},
		{name: "mtu-phase-1", file: file, before: base(mtuBlock("none")), edit: base(mtuBlock("1"))},
		{name: "mtu-phase-2", file: file, before: base(mtuBlock("1")), edit: base(mtuBlock("2"))},
	}
}

// impactExamples: every bundled example, every scenario of issue 16 (a
// chrony MachineConfig edit, an added digest mirror, a removed mirror, an
// added tag mirror, a catalog display-name change, the two MTU migration
// steps). Examples to install are made running clusters first.
var impactExamples = map[string][]impactScenario{
	"aws-local-zones":     cueScenarios("site.cue", "", [3]int{8901, 1200, 9001}),
	"aws-local-zones-ipi": cueScenarios("site.cue", `lifecycle: "install"`, [3]int{8901, 1200, 9001}),
	"agent-sno":           cueScenarios("site.cue", `lifecycle:     "install"`, [3]int{1400, 1300, 1500}),
	"remote-workers":      cueScenarios("site.cue", `lifecycle:     "install"`, [3]int{1400, 1300, 1500}),
	"fleet":               cueScenarios("defaults.cue", `lifecycle:    *"install" | string`, [3]int{1400, 1300, 1500}),
	// a catalog's CatalogSource changes: one more default catalog
	"disconnected-quay-cache": yamlScenarios("site.yaml", "  lifecycle: install", "server ntp1.lab.example.com iburst",
		"defaultCatalogs: [redhat-operators, certified-operators]", "defaultCatalogs: [redhat-operators, certified-operators, community-operators]", [3]int{1400, 1300, 1500}),
	"kustomize/site": yamlScenarios("site.yaml", "", "server ntp1.lab.example.com iburst", "displayName: Red Hat Operators", "displayName: Red Hat Operators (mirror)", [3]int{1400, 1300, 1500}),
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
	// a running cluster (the example is one to install: no node to disrupt)
	data, _ := os.ReadFile(filepath.Join(dir, "new", "site.yaml"))
	running := strings.Replace(string(data), "  lifecycle: install", "  lifecycle: running", 1)
	write(t, dir, map[string]string{"old/site.yaml": running,
		"new/site.yaml": strings.ReplaceAll(running, "server ntp2.lab.example.com iburst", "server ntp3.lab.example.com iburst")})
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

// TestImpactGit: `impact --git HEAD~1` in a fleet repository compares the
// working tree with the revision, read through git (no checkout), and names
// only the site that changes.
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
	// running clusters (the example's stores are to be installed)
	defaults, err := os.ReadFile(filepath.Join(dir, "defaults.cue"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, dir, map[string]string{"defaults.cue": strings.Replace(string(defaults), `lifecycle:    *"install" | string`, `lifecycle:    *"running" | string`, 1)})
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
	// the change is committed: HEAD~1 against the working tree, as a
	// pull request is checked
	git("add", ".")
	git("commit", "-q", "-m", "store-0002: chrony")
	r := mainIn(t, dir, "impact", "--git", "HEAD~1", "--format", "json")
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

// TestImpactSiteToInstall: a site still to be installed has no node to
// disrupt: no pool, one note; an unchanged one is not named.
func TestImpactSiteToInstall(t *testing.T) {
	abs, _ := filepath.Abs(examplesDir)
	dir := t.TempDir()
	copyTree(t, filepath.Join(abs, "disconnected-quay-cache"), filepath.Join(dir, "old"))
	copyTree(t, filepath.Join(abs, "disconnected-quay-cache"), filepath.Join(dir, "new"))
	r := mainIn(t, dir, "impact", "old", "new")
	if r.code != ExitOK || strings.Contains(r.stdout, "lab-disconnected") {
		t.Errorf("unchanged site to install: exit %d\n%s", r.code, r.stdout)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "new", "site.yaml"))
	write(t, dir, map[string]string{"new/site.yaml": strings.ReplaceAll(string(data), "ntp2.lab", "ntp3.lab")})
	r = mainIn(t, dir, "impact", "--fail-on", "reboot", "old", "new")
	if r.code != ExitOK || !strings.Contains(r.stdout, "lab-disconnected: none:") || !strings.Contains(r.stdout, "still to be installed") {
		t.Errorf("changed site to install: exit %d\n%s", r.code, r.stdout)
	}
}

// TestImpactOfAFix: the old state is what was rendered before, so a change
// that fixes a lint error (an uplink MTU above what AWS carries, MTU009)
// still has its impact shown; the new state passes the check pipeline as
// render's does, so a change that introduces the error is refused.
func TestImpactOfAFix(t *testing.T) {
	abs, _ := filepath.Abs(examplesDir)
	dir := t.TempDir()
	good, bad := filepath.Join(dir, "good"), filepath.Join(dir, "bad")
	copyTree(t, filepath.Join(abs, "aws-local-zones"), good)
	copyTree(t, filepath.Join(abs, "aws-local-zones"), bad)
	data, err := os.ReadFile(filepath.Join(bad, "site.cue"))
	if err != nil {
		t.Fatal(err)
	}
	broken := strings.Replace(string(data), "uplinkMTU:       9001", "uplinkMTU:       9216", 1)
	if broken == string(data) {
		t.Fatal("the example has no uplinkMTU 9001 to break")
	}
	write(t, bad, map[string]string{"site.cue": broken})

	if r := mainIn(t, dir, "impact", "bad", "good"); r.code != ExitOK || r.stdout == "" {
		t.Errorf("impact of the fix: exit %d, want 0 and the site's impact\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := mainIn(t, dir, "impact", "good", "bad"); r.code != ExitFailure || !strings.Contains(r.stderr, "[MTU009]") {
		t.Errorf("impact of the mistake: exit %d, want 2 with MTU009\n%s%s", r.code, r.stdout, r.stderr)
	}
}
