package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/siteforge/siteforge/internal/ruleid"
	"github.com/siteforge/siteforge/lint"
)

// rndBase is a running site with nothing to warn about.
const rndBase = `apiVersion: siteforge.dev/v1alpha1
kind: Site
name: lab
cluster:
  baseDomain: example.com
  version: "4.16"
  platform: baremetal
  installMethod: agent
  lifecycle: running
network:
  machineNetwork: [192.168.0.0/24]
pools:
  master:
    uplinkInterface: eno1
    uplinkMTU: 1500
  worker:
    uplinkInterface: eno1
    uplinkMTU: 1500
`

const rndButaneUnit = `machineConfigs:
  99-worker-hello:
    pool: worker
    butane: |
      systemd:
        units:
        - name: hello.service
          enabled: true
          contents: |
            [Unit]
            Description=hello
            [Service]
            ExecStart=/usr/bin/true
`

const rndEdgePool = "  edge:\n    uplinkInterface: eno1\n    uplinkMTU: 1500\n    nodes: [{name: edge-0, ip: 192.168.0.30}]\n"

const rndShard = `ingress:
  shards:
    edge:
      domain: apps-edge.example.com
      routeSelector: {matchLabels: {type: edge}}
`

// examplesAbs is examplesDir from the package directory (mainIn changes
// the working directory).
var examplesAbs, _ = filepath.Abs(examplesDir)

// rndFixture writes a site into dir and returns the path to render, the
// file a site-wide suppression is appended to, and whether it is CUE.
type rndFixture func(t *testing.T, dir string) (path, file string, cue bool)

// yamlSite is a site folder with site.yaml and, for each of more, one
// more site file (unified with it).
func yamlSite(content string, more ...string) rndFixture {
	return func(t *testing.T, dir string) (string, string, bool) {
		files := map[string]string{"site/site.yaml": content}
		for i, m := range more {
			files[fmt.Sprintf("site/more-%d.yaml", i)] = m
		}
		write(t, dir, files)
		return "site", filepath.Join(dir, "site", "site.yaml"), false
	}
}

// mir017Off turns MIR017 off for a site: blocking the payload's registry
// is MIR017's error (lint and render alike), and a site that accepts that
// MCO drops the block still gets RND004 for what MCO logs.
const mir017Off = "apiVersion: siteforge.dev/v1alpha1\nlint:\n  severity: {MIR017: \"off\"}\n"

// fromExample copies an example and edits one of its files (old -> new,
// then each further pair; every old must be there).
func fromExample(example, file, old, new string, more ...string) rndFixture {
	return func(t *testing.T, dir string) (string, string, bool) {
		copyTree(t, filepath.Join(examplesAbs, example), filepath.Join(dir, example))
		p := filepath.Join(dir, example, file)
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		edits := append([]string{old, new}, more...)
		for i := 0; i+1 < len(edits); i += 2 {
			if !strings.Contains(text, edits[i]) {
				t.Fatalf("examples/%s/%s no longer holds %q: update the fixture", example, file, edits[i])
			}
			text = strings.Replace(text, edits[i], edits[i+1], 1)
		}
		write(t, dir, map[string]string{filepath.Join(example, file): text})
		return filepath.Dir(filepath.Join(example, file)), p, strings.HasSuffix(file, ".cue")
	}
}

const agentSNOFieldSuppression = ` @lint(ignore="MIR021", reason="we delete imagedigestmirrorset/image-digest-mirror after the installation (header of install/install-config.yaml)")`

const fleetTrustBundle = `
install: additionalTrustBundle: """
	-----BEGIN CERTIFICATE-----
	MIIBszCCAVmgAwIBAgIUQ3Jh
	-----END CERTIFICATE-----
	"""
`

// rndCases: for every render warning rule, a site that warns (fail) and the
// same site fixed (pass).
var rndCases = []struct {
	rule       string
	fail, pass rndFixture
}{
	{ruleid.ButaneTranslation, yamlSite(rndBase + rndButaneUnit),
		yamlSite(rndBase + rndButaneUnit + "            [Install]\n            WantedBy=multi-user.target\n")},
	{ruleid.InstallInputIncomplete, yamlSite(strings.Replace(rndBase, "lifecycle: running", "lifecycle: install", 1)),
		fromExample("agent-sno", "site.cue", "", "")},
	// the example without its field suppression, and as shipped
	{ruleid.InstallerMirrorsConflict, fromExample("agent-sno", "site.cue", agentSNOFieldSuppression, ""),
		fromExample("agent-sno", "site.cue", `policy: "NeverContactSource"`+agentSNOFieldSuppression, `policy: "AllowContactingSource"`)},
	{ruleid.MCOLogsRegistries,
		yamlSite(strings.Replace(rndBase, "lifecycle: running", "lifecycle: running\n  releaseImage: quay.io/openshift-release-dev/ocp-release@sha256:"+strings.Repeat("0", 64), 1)+
			"mirroring:\n  blockedRegistries: [quay.io]\n", mir017Off),
		yamlSite(strings.Replace(rndBase, "lifecycle: running", "lifecycle: running\n  releaseImage: quay.io/openshift-release-dev/ocp-release@sha256:"+strings.Repeat("0", 64), 1) +
			"mirroring:\n  blockedRegistries: [docker.io]\n")},
	{ruleid.NeverContactSourceIgnored,
		yamlSite(strings.Replace(rndBase, `"4.16"`, `"4.12"`, 1) + "mirroring:\n  sources:\n    registry.redhat.io:\n      mirrors: [mirror.example.com/rh]\n      policy: NeverContactSource\n"),
		yamlSite(strings.Replace(rndBase, `"4.16"`, `"4.13"`, 1) + "mirroring:\n  sources:\n    registry.redhat.io:\n      mirrors: [mirror.example.com/rh]\n      policy: NeverContactSource\n")},
	{ruleid.HubTrustBundleDropped, fromExample("fleet", "sites/store-0001/site.cue", `name: "store-0001"`, `name: "store-0001"`+"\n"+fleetTrustBundle),
		fromExample("fleet", "sites/store-0001/site.cue", "", "")},
	{ruleid.SDNLiveMigrationUndocumented, yamlSite(sdnLive("4.15.3")), yamlSite(sdnLive("4.16.12"))},
	{ruleid.RouterSelectorMatchesNoPool,
		yamlSite(rndBase + rndShard + "      nodeSelector: {matchLabels: {edge: \"true\"}}\n"),
		yamlSite(strings.Replace(rndBase, "  worker:\n", rndEdgePool+"  worker:\n", 1) + rndShard + "      pools: [edge]\n      replicas: 1\n      ports: {http: 8080, https: 8443, stats: 9936}\n")},
	{ruleid.RouterPortsIgnored,
		yamlSite(rndBase + rndShard + "      endpointPublishing: LoadBalancerService\n      ports: {http: 8080}\n"),
		yamlSite(rndBase + rndShard + "      endpointPublishing: LoadBalancerService\n")},
	{ruleid.OVSMaxIdleUnsupported, yamlSite(rndBase + "ovs:\n  flowIdleTimeoutMs: 30000\n"), yamlSite(rndBase)},
	{ruleid.NoOperatorCatalog,
		yamlSite(strings.Replace(rndBase, "  lifecycle: running\n", "  lifecycle: running\n  connectivity: disconnected\n", 1)),
		yamlSite(strings.Replace(rndBase, "  lifecycle: running\n", "  lifecycle: running\n  connectivity: disconnected\n", 1) + "mirroring:\n  defaultCatalogs: [redhat-operators]\n  sources:\n    registry.redhat.io:\n      mirrors: [mirror.example.com/rh]\n      serves: both\n")},
}

func sdnLive(version string) string {
	return `apiVersion: siteforge.dev/v1alpha1
kind: Site
name: sdn-live
cluster:
  baseDomain: example.com
  version: "` + version + `"
  platform: aws
  region: eu-west-1
  installMethod: ipi
  lifecycle: running
network:
  type: OpenShiftSDN
  machineNetwork: [10.0.0.0/16]
pools:
  master:
    uplinkInterface: ens5
    uplinkMTU: 1500
    count: 3
  worker:
    uplinkInterface: ens5
    uplinkMTU: 1500
mtu:
  current: 1450
networkMigration:
  to: OVNKubernetes
  mode: live
`
}

// TestRenderWarningRules: every render warning has its rule ID, registered
// in lint with its texts. For each, a site that warns: render prints
// "warning: ... [ID]", render --strict fails on it, lint --format json
// reports it under the ID, and a suppression of the ID with a reason
// (lint: suppress) drops it from render and --strict (counted, never
// silent) and from lint (counted as suppressed, not reported unused). The
// same site fixed renders --strict without it.
func TestRenderWarningRules(t *testing.T) {
	covered := map[string]bool{}
	for _, tc := range rndCases {
		covered[tc.rule] = true
		t.Run(tc.rule, func(t *testing.T) {
			r := lint.Lookup(tc.rule)
			if r == nil || r.Severity != lint.Warning {
				t.Fatalf("rule %s: %+v, want a registered warning rule", tc.rule, r)
			}
			tail := regexp.QuoteMeta("[" + tc.rule + "]")
			dir := t.TempDir()
			path, file, cue := tc.fail(t, dir)

			res := mainIn(t, dir, "render", "-o", "out", path)
			if res.code != ExitOK || !regexp.MustCompile(`(?m)^\S+:\d+:\d+: warning: .*`+tail+`$`).MatchString(res.stderr) {
				t.Errorf("render: exit %d, want 0 and a warning ending in [%s]\n%s", res.code, tc.rule, res.stderr)
			}
			res = mainIn(t, dir, "render", "--strict", "-o", "strict", path)
			if res.code != ExitFailure || !regexp.MustCompile(`(?m)^\S+:\d+:\d+: error: .*`+tail+`$`).MatchString(res.stderr) {
				t.Errorf("render --strict: exit %d, want 2 and an error ending in [%s]\n%s", res.code, tc.rule, res.stderr)
			}
			res = mainIn(t, dir, "lint", "--format", "json", path)
			if !slices.ContainsFunc(decodeReport(t, res.stdout).Findings, func(f struct {
				Rule, Severity, File, Message string
				Line                          int
			}) bool {
				return f.Rule == tc.rule && f.Severity == "warning" && f.Line > 0
			}) {
				t.Errorf("lint --format json: no %s warning\n%s%s", tc.rule, res.stdout, res.stderr)
			}

			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			sup := "\nlint:\n  suppress:\n  - {rule: " + tc.rule + ", reason: \"the test accepts it\"}\n"
			if cue {
				sup = "\nlint: suppress: [{rule: \"" + tc.rule + "\", reason: \"the test accepts it\"}]\n"
			}
			if err := os.WriteFile(file, append(data, sup...), 0o644); err != nil {
				t.Fatal(err)
			}
			res = mainIn(t, dir, "render", "--strict", "-o", "suppressed", path)
			if res.code != ExitOK || strings.Contains(res.stderr, "["+tc.rule+"]") || !regexp.MustCompile(`siteforge: \d+ warnings? suppressed`).MatchString(res.stderr) {
				t.Errorf("render --strict with a suppression of %s: exit %d, want 0, the warning dropped and counted\n%s", tc.rule, res.code, res.stderr)
			}
			res = mainIn(t, dir, "lint", "--format", "json", path)
			rep := decodeReport(t, res.stdout)
			for _, f := range rep.Findings {
				if f.Rule == tc.rule || f.Rule == lint.RuleUnusedSuppression {
					t.Errorf("lint with a suppression of %s: %s %s", tc.rule, f.Rule, f.Message)
				}
			}
			if rep.Summary.Suppressed == 0 {
				t.Errorf("lint with a suppression of %s: nothing counted as suppressed\n%s", tc.rule, res.stdout)
			}

			pdir := t.TempDir()
			ppath, _, _ := tc.pass(t, pdir)
			res = mainIn(t, pdir, "render", "--strict", "-o", "out", ppath)
			if res.code != ExitOK || strings.Contains(res.stderr, "["+tc.rule+"]") {
				t.Errorf("fixed site: render --strict exit %d, want 0 without [%s]\n%s", res.code, tc.rule, res.stderr)
			}
		})
	}
	for _, id := range append(slices.Clone(ruleid.Render), ruleid.OVSMaxIdleUnsupported) {
		if !covered[id] {
			t.Errorf("render warning rule %s has no case in rndCases", id)
		}
	}
}

// TestRenderFieldSuppression: a CUE field's @lint(ignore=ID, reason=...)
// drops a render warning at that field from render and --strict (the
// agent-sno example, as shipped); one without a reason, or on another field,
// does not.
func TestRenderFieldSuppression(t *testing.T) {
	const field = `policy: "NeverContactSource"`
	for _, tc := range []struct {
		name     string
		fixture  rndFixture
		honoured bool
	}{
		{"as shipped", fromExample("agent-sno", "site.cue", "", ""), true},
		{"no reason", fromExample("agent-sno", "site.cue", agentSNOFieldSuppression, ` @lint(ignore="MIR021", reason="")`), false},
		{"another field", fromExample("agent-sno", "site.cue", field+agentSNOFieldSuppression, field,
			`host: "quay.lab.example.com:8443"`, `host: "quay.lab.example.com:8443" @lint(ignore="MIR021", reason="not the warned field")`), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path, _, _ := tc.fixture(t, dir)
			res := mainIn(t, dir, "render", "--strict", "-o", "out", path)
			switch {
			case tc.honoured && (res.code != ExitOK || !strings.Contains(res.stderr, "siteforge: 1 warning suppressed")):
				t.Errorf("exit %d, want 0 and the warning counted as suppressed\n%s", res.code, res.stderr)
			case !tc.honoured && (res.code != ExitFailure || !strings.Contains(res.stderr, "[MIR021]")):
				t.Errorf("exit %d, want 2 with the MIR021 error\n%s", res.code, res.stderr)
			}
		})
	}
}
