package cli

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The Argo CD plugin's generate command, run through Main in the app folder
// as Argo CD's cmp-server runs it (cwd: the app folder; the Application's
// plugin env as ARGOCD_ENV_*). e2e/argocd_test.go runs the built binary
// with the command plugin.yaml names.

// argocdWarnSite renders one resource and one render warning (the agent
// installation's release mirror under NeverContactSource), so strict mode
// changes the outcome: hardSite as a single node the agent installer can
// install (platform none, the rendezvous host listed), with mirrors.
var argocdWarnSite = strings.Replace(strings.Replace(hardSite, "platform: baremetal", "platform: none", 1),
	"    uplinkMTU: 1500\n", "    uplinkMTU: 1500\n    nodes: [{name: m0, ip: 192.168.0.10}]\n", 1) + `mirroring:
  quayCache:
    host: quay.hub.example.com:8443
    orgs:
      ocp4-mirror: quay.io/openshift-release-dev
    policy: NeverContactSource
`

// argocdFleet is a fleet whose defaults (fleet.yaml) hold what the sites
// share; each site adds its name and pools.
func argocdFleet(t *testing.T, sites ...string) string {
	t.Helper()
	dir := t.TempDir()
	shared, pools, _ := strings.Cut(argocdWarnSite, "pools:\n")
	shared = strings.Replace(shared, "name: lab\n", "", 1)
	writeTree(t, dir, map[string]string{"fleet.yaml": shared})
	for _, s := range sites {
		writeTree(t, dir, map[string]string{filepath.Join("sites", s, "site.yaml"): "name: " + s + "\npools:\n" + pools})
	}
	return dir
}

func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// argocdEnv sets the plugin env of the Application (nil: none) and clears
// any the test process has.
func argocdEnv(t *testing.T, settings map[string]string) {
	t.Helper()
	for _, kv := range os.Environ() {
		if name, _, _ := strings.Cut(kv, "="); strings.HasPrefix(name, "ARGOCD_ENV_") {
			t.Setenv(name, "")
			os.Unsetenv(name)
		}
	}
	for k, v := range settings {
		t.Setenv("ARGOCD_ENV_"+k, v)
	}
}

func lineNumber(t *testing.T, text, substr string) int {
	t.Helper()
	i := strings.Index(text, substr)
	if i < 0 {
		t.Fatalf("%q not in the fixture", substr)
	}
	return strings.Count(text[:i], "\n") + 1
}

// failedCleanly checks a failed generate as Argo CD needs it: exit 2,
// nothing on stdout, stderr starting with want.
func failedCleanly(t *testing.T, r ran, want string) {
	t.Helper()
	if r.code != ExitFailure || r.stdout != "" {
		t.Errorf("want exit 2 and no output, got exit %d, stdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	if !strings.HasPrefix(r.stderr, want) {
		t.Errorf("stderr does not start with %q:\n%s", want, r.stderr)
	}
}

func TestArgoCDGenerateSite(t *testing.T) {
	argocdEnv(t, nil)
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"site.yaml": argocdWarnSite})
	want := mainIn(t, dir, "render", "--stdout", ".")
	got := mainIn(t, dir, "argocd", "generate")
	if got.code != ExitOK || got.stdout == "" || got.stdout != want.stdout {
		t.Fatalf("generate (exit %d) differs from render --stdout . (exit %d):\n%s\nstderr:\n%s", got.code, want.code, got.stdout, got.stderr)
	}
	if !strings.Contains(got.stdout, "siteforge.dev/source: .\n") {
		t.Errorf("a plain site's objects are not annotated with its folder relative to the app folder (.):\n%s", got.stdout)
	}
	if !strings.HasPrefix(got.stderr, "site.yaml:"+strconv.Itoa(lineNumber(t, argocdWarnSite, "policy: NeverContactSource"))+":13: warning:") {
		t.Errorf("the render warning is not on stderr:\n%s", got.stderr)
	}

	// A broken site: nothing on stdout, the error's position first.
	broken := strings.Replace(argocdWarnSite, "uplinkMTU: 1500", "uplinkMtu: 1500", 1)
	bad := t.TempDir()
	writeTree(t, bad, map[string]string{"site.yaml": broken})
	failedCleanly(t, mainIn(t, bad, "argocd", "generate"), "site.yaml:"+strconv.Itoa(lineNumber(t, broken, "uplinkMtu"))+":5: error: ")
}

func TestArgoCDGenerateFleetSite(t *testing.T) {
	argocdEnv(t, nil)
	fleet := argocdFleet(t, "a", "b")
	whole := mainIn(t, fleet, "render", "--stdout", ".")
	if whole.code != ExitOK {
		t.Fatalf("the fixture fleet does not render: %s", whole.stderr)
	}
	got := mainIn(t, filepath.Join(fleet, "sites", "b"), "argocd", "generate")
	if got.code != ExitOK {
		t.Fatalf("generate in sites/b: exit %d\n%s", got.code, got.stderr)
	}
	// The fleet's render of site b (rendered from the fleet's root, so the
	// annotation and headers are the same), and nothing of site a.
	_, siteB, ok := strings.Cut(whole.stdout, "siteforge.dev/source: sites/a\n")
	if !ok || !strings.HasSuffix(whole.stdout, got.stdout) || strings.Contains(got.stdout, "sites/a") ||
		!strings.Contains(got.stdout, "siteforge.dev/source: sites/b\n") || !strings.HasSuffix(siteB, got.stdout) {
		t.Errorf("generate in sites/b is not the fleet's render of sites/b:\n%s\nfleet:\n%s", got.stdout, whole.stdout)
	}
	if wd, _ := os.Getwd(); wd != filepath.Join(fleet, "sites", "b") {
		t.Errorf("generate left the process in %s", wd)
	}
	// The fleet's defaults apply, and their problems are reported relative
	// to the fleet's root.
	defaults, err := os.ReadFile(filepath.Join(fleet, "fleet.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	broken := strings.Replace(string(defaults), "machineNetwork:", "machineNetworks:", 1)
	writeTree(t, fleet, map[string]string{"fleet.yaml": broken})
	failedCleanly(t, mainIn(t, filepath.Join(fleet, "sites", "b"), "argocd", "generate"),
		"fleet.yaml:"+strconv.Itoa(lineNumber(t, broken, "machineNetworks"))+":3: error: ")
}

func TestArgoCDGenerateOneSitePerApp(t *testing.T) {
	argocdEnv(t, nil)
	// A fleet folder holding one site renders it.
	one := argocdFleet(t, "a")
	if r := mainIn(t, one, "argocd", "generate"); r.code != ExitOK || !strings.Contains(r.stdout, "siteforge.dev/source: sites/a\n") {
		t.Errorf("a fleet of one site: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	// Several sites would go to one destination cluster.
	failedCleanly(t, mainIn(t, argocdFleet(t, "a", "b"), "argocd", "generate"), ".: error: the app folder holds 2 sites (sites/a, sites/b)")
}

func TestArgoCDGenerateNoResources(t *testing.T) {
	argocdEnv(t, nil)
	// hardSite renders install outputs only: an empty stream would prune
	// everything the Application deployed.
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"site.yaml": hardSite})
	failedCleanly(t, mainIn(t, dir, "argocd", "generate"), ".: error: site lab renders no Kubernetes resources")
	writeTree(t, dir, map[string]string{"site.yaml": argocdWarnSite})
	if r := mainIn(t, dir, "argocd", "generate"); r.code != ExitOK || r.stdout == "" {
		t.Errorf("a site with resources: exit %d\n%s", r.code, r.stderr)
	}
}

func TestArgoCDGenerateStrict(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"site.yaml": argocdWarnSite})
	policy := strconv.Itoa(lineNumber(t, argocdWarnSite, "policy: NeverContactSource"))
	for _, tc := range []struct {
		value string
		ok    bool
		want  string // stderr prefix
	}{
		{"", true, "site.yaml:" + policy + ":13: warning: "},
		{"false", true, "site.yaml:" + policy + ":13: warning: "},
		{"true", false, "site.yaml:" + policy + ":13: error: "},
		{"yes", false, `siteforge argocd generate: ARGOCD_ENV_SITEFORGE_STRICT="yes": want true or false`},
		{"True", false, `siteforge argocd generate: ARGOCD_ENV_SITEFORGE_STRICT="True": want true or false`},
	} {
		t.Run("SITEFORGE_STRICT="+tc.value, func(t *testing.T) {
			argocdEnv(t, map[string]string{"SITEFORGE_STRICT": tc.value})
			r := mainIn(t, dir, "argocd", "generate")
			if !tc.ok {
				failedCleanly(t, r, tc.want)
				return
			}
			if r.code != ExitOK || r.stdout == "" || !strings.HasPrefix(r.stderr, tc.want) {
				t.Errorf("exit %d, stdout %d bytes, stderr:\n%s", r.code, len(r.stdout), r.stderr)
			}
		})
	}
	t.Run("unknown setting", func(t *testing.T) {
		argocdEnv(t, map[string]string{"SITEFORGE_STRIKT": "true", "OTHER_TOOL": "x"})
		failedCleanly(t, mainIn(t, dir, "argocd", "generate"),
			"siteforge argocd generate: ARGOCD_ENV_SITEFORGE_STRIKT: unknown setting (Application spec.source.plugin.env SITEFORGE_STRIKT); the plugin reads SITEFORGE_STRICT; did you mean SITEFORGE_STRICT?")
	})
}

func TestArgoCDUsage(t *testing.T) {
	argocdEnv(t, nil)
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"site.yaml": argocdWarnSite})
	for _, args := range [][]string{{"argocd"}, {"argocd", "render"}, {"argocd", "generate", "."}} {
		failedCleanly(t, mainIn(t, dir, args...), "siteforge argocd: the only subcommand is generate")
	}
	if r := mainIn(t, dir, "help", "argocd"); r.code != ExitOK || !strings.Contains(r.stdout, "SITEFORGE_STRICT=true or false") {
		t.Errorf("help argocd does not document the settings: %s", r.stdout)
	}
}

// TestArgoCDRepoRoot: the repository root is the app folder less
// ARGOCD_APP_SOURCE_PATH, so the source annotation is the one the CLI
// writes at the root, even when the sidecar's copy has no .git.
func TestArgoCDRepoRoot(t *testing.T) {
	for _, c := range []struct {
		wd, sp, want string
		ok           bool
	}{
		{"/tmp/x/repo/examples/fleet/sites/a", "examples/fleet/sites/a", "/tmp/x/repo", true},
		{"/tmp/x/repo/examples/fleet/sites/a", "/examples/fleet/sites/a/", "/tmp/x/repo", true},
		{"/tmp/x/repo", ".", "/tmp/x/repo", true},
		{"/tmp/x/repo/a", "b", "", false},
		{"/tmp/x/repo/a", "../a", "", false},
		{"/tmp/x/repo/a", "", "", false},
		{"/tmp/x/repoa", "a", "", false},
	} {
		got, ok := argocdRepoRoot(filepath.FromSlash(c.wd), c.sp)
		if ok != c.ok || got != filepath.FromSlash(c.want) {
			t.Errorf("argocdRepoRoot(%q, %q) = %q %v, want %q %v", c.wd, c.sp, got, ok, c.want, c.ok)
		}
	}
}
