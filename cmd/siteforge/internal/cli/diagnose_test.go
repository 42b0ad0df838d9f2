package cli

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/siteforge/siteforge/internal/archivegen"
	"github.com/siteforge/siteforge/internal/credential"
	"github.com/siteforge/siteforge/internal/discover"
	"github.com/siteforge/siteforge/lint"
	sigsyaml "sigs.k8s.io/yaml"
)

// repoRoot is the repository, from the package's folder (the tests change
// the working folder).
var repoRoot, _ = filepath.Abs(filepath.Join("..", "..", "..", ".."))

// mustGather is the folder oc adm must-gather wrote of a fixture cluster
// (internal/archivegen's testdata).
func mustGather(t *testing.T, scenario string) string {
	t.Helper()
	return filepath.Join(repoRoot, "internal", "archivegen", "testdata", scenario, archivegen.DestDir)
}

// insightsSample is the Insights operator's documented sample archive,
// beside the repository; the test is skipped, loudly, without it.
func insightsSample(t *testing.T) string {
	t.Helper()
	p := filepath.Join(filepath.Dir(repoRoot), "shared", "upstream", "insights", "archive-sample")
	if _, err := os.Stat(filepath.Join(p, "config", "version.json")); err != nil {
		t.Skipf("SKIPPED: the Insights operator's sample archive is not beside the repository (%v): lint of an Insights archive is not tested", err)
	}
	return p
}

// treeDigest is every file's path, mode, size, modification time and
// content under dir: what running a command must leave as it was.
func treeDigest(t *testing.T, dir string) string {
	t.Helper()
	h := sha256.New()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s %v %d %d\n", p, fi.Mode(), fi.Size(), fi.ModTime().UnixNano())
		if fi.Mode().IsRegular() {
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			h.Write(data)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// TestDiagnoseKCS6996487: lint of the must-gather of KCS 6996487's cluster
// reports MTU001 at the Network config naming the edge nodes; mtu prints
// the target 1200 and the two phases; neither writes into the must-gather,
// and no secret it holds is printed.
func TestDiagnoseKCS6996487(t *testing.T) {
	mg := mustGather(t, "kcs6996487")
	before := treeDigest(t, mg)
	dir := t.TempDir()

	r := mainIn(t, dir, "lint", mg)
	if r.code != ExitFindings {
		t.Fatalf("lint exit %d, want 1\n%s%s", r.code, r.stdout, r.stderr)
	}
	want := regexp.MustCompile(`(?m)^\S+/cluster-scoped-resources/config\.openshift\.io/networks\.yaml:30:24: error: cluster MTU 8901 does not fit the 1300-byte path .*` +
		`its edge nodes ip-10-0-208-20\.ec2\.internal, ip-10-0-209-21\.ec2\.internal \(us-east-1-nyc-1a\) drop larger packets .*` +
		`phase 1 .*"network":\{"from":8901,"to":1200\}.*phase 2 .*"mtu":1200.* \[MTU001\]$`)
	if !want.MatchString(r.stdout) || strings.Count(r.stdout, "\n") != 2 {
		t.Errorf("lint:\n%s", r.stdout)
	}

	r = mainIn(t, dir, "mtu", mg)
	if r.code != ExitOK {
		t.Fatalf("mtu exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	for _, want := range []string{
		"pool edge: 2 nodes, aws-local-zone us-east-1-nyc-1a",
		"* path edge <-> worker (edge: aws-local-zone us-east-1-nyc-1a)  1300",
		"  target              1200  computed from the links",
		"  current             8901  status.clusterNetworkMTU (",
		"the MTU migration 8901 -> 1200, in two phases",
		`  1. oc patch network.operator.openshift.io cluster --type=merge -p '{"spec":{"migration":{"mtu":{"machine":{"to":9001},"network":{"from":8901,"to":1200}}}}}'`,
		`  2. oc patch network.operator.openshift.io cluster --type=merge -p '{"spec":{"defaultNetwork":{"ovnKubernetesConfig":{"mtu":1200}},"migration":null}}'`,
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("mtu does not print %q:\n%s", want, r.stdout)
		}
	}
	if r := mainIn(t, dir, "mtu", "--check", mg); r.code != ExitFindings {
		t.Errorf("mtu --check exit %d, want 1: the migration is due", r.code)
	}
	if r := mainIn(t, dir, "mtu", "--check", mustGather(t, "kcs6996487-fixed")); r.code != ExitOK {
		t.Errorf("mtu --check of the cluster at 1200: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = mainIn(t, dir, "mtu", "--format", "json", mg)
	var js mtuJSON
	if err := json.Unmarshal([]byte(r.stdout), &js); err != nil || len(js.Sites) != 1 || js.Sites[0].Target != 1200 ||
		js.Sites[0].State != discover.MustGather || len(js.Sites[0].Phases) != 2 {
		t.Errorf("mtu --format json: %v\n%s", err, r.stdout)
	}
	if after := treeDigest(t, mg); after != before {
		t.Errorf("the must-gather changed")
	}
}

// TestDiagnoseScenarios: the digest-only catalog failure, the unassigned
// EgressIP, the default IngressController dropping the platform's routes,
// each with its passing counterpart, and a tag mirror set a paused pool's
// nodes do not run yet.
func TestDiagnoseScenarios(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		scenario string
		code     int
		want     []string
	}{
		{"catalog-digest-only", ExitFindings, []string{
			`cs-redhat-operator-index-7x9kq.yaml:41:17: error: the catalog pod's container registry-server is in ImagePullBackOff .* \[MIR026\]`,
			`catalogsources/cs-redhat-operator-index.yaml:11:10: error: registry.redhat.io/redhat/redhat-operator-index:v4.16 is pulled by tag.* \[MIR001\]`}},
		{"catalog-tag-mirrored", ExitOK, []string{`imagetagmirrorsets.yaml:12:5: info: ImageTagMirrorSet itms-operator-0 mirrors tag pulls.* \[MIR018\]`}},
		{"egressip-unassigned", ExitFindings, []string{
			`egress-prod.yaml:15:3: error: egress IP 10.0.130.200 is assigned to no node .*; why: the finding EGR006 \(egress-ip-not-enough-nodes\) at spec.egressIPs\[0\] \[EGR008\]$`,
			`egress-prod.yaml:10:5: error: 10.0.130.200 cannot be assigned: no node may host egress IPs.* \[EGR006\]`}},
		{"egressip-assigned", ExitOK, nil},
		{"ingress-default-drops-platform-routes", ExitFindings, []string{
			`ingresscontrollers/default.yaml:19:5: error: the default IngressController's routeSelector type=public rejects the platform's routes openshift-console/console, openshift-authentication/oauth-openshift, openshift-ingress-canary/canary .* \[ING005\]`}},
		{"ingress-sharded", ExitOK, nil},
		{"mirrors-pool-paused", ExitFindings, []string{
			`imagetagmirrorsets.yaml:12:5: info: ImageTagMirrorSet itms-operator-0 mirrors tag pulls.* \[MIR018\]`,
			`machineconfigpools/worker.yaml:33:11: warning: pool worker is paused \(spec.paused\): its nodes run rendered-worker-\w+, whose registries.conf is not the one .* \[MIR027\]`,
			`cs-redhat-operator-index-7x9kq.yaml:41:17: error: .* in the registries.conf its node ip-10-0-130-40.ec2.internal runs \(pool worker, rendered-worker-\w+\), .* let the pool update \[MIR026\]`}},
	} {
		mg := mustGather(t, tc.scenario)
		r := mainIn(t, dir, "lint", mg)
		if r.code != tc.code {
			t.Errorf("%s: lint exit %d, want %d\n%s%s", tc.scenario, r.code, tc.code, r.stdout, r.stderr)
		}
		if got := strings.Count(r.stdout, "\n") - 1; got != len(tc.want) {
			t.Errorf("%s: %d findings, want %d:\n%s", tc.scenario, got, len(tc.want), r.stdout)
		}
		for _, w := range tc.want {
			if !regexp.MustCompile("(?m)" + w).MatchString(r.stdout) {
				t.Errorf("%s: lint does not report %s:\n%s", tc.scenario, w, r.stdout)
			}
		}
		if strings.Contains(r.stdout+r.stderr, archivegen.FixtureSecret) {
			t.Errorf("%s: the fixture's credential is printed", tc.scenario)
		}
	}
}

// TestDiagnoseInsightsSample: lint of the Insights operator's sample
// archive exits 0 or 1, positions every finding, prints no secret it holds
// (in any format), reads the release 4.7.16 from config/version.json (no
// finding of a later release's gate: OpenShift SDN is fine on 4.7), and
// reports nothing on what the platform's operators wrote (MCO's rendered
// and base MachineConfigs) nor on its default IngressController.
func TestDiagnoseInsightsSample(t *testing.T) {
	sample := insightsSample(t)
	before := treeDigest(t, sample)
	dir := t.TempDir()
	var secrets []string
	for _, f := range []string{"config/secrets/openshift-config/support/data.json", "config/secrets/openshift-monitoring/alertmanager-main/data.json"} {
		data, err := os.ReadFile(filepath.Join(sample, f))
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		for _, v := range m {
			if s, ok := v.(string); ok && len(s) >= 8 {
				secrets = append(secrets, s)
			}
		}
	}
	if len(secrets) == 0 {
		t.Fatal("the sample's secrets hold no value to look for: the test shows nothing")
	}
	var js struct {
		Findings []struct {
			Rule     string `json:"rule"`
			File     string `json:"file"`
			Line     int    `json:"line"`
			Resource *struct {
				Kind, Namespace, Name string
			} `json:"resource"`
		} `json:"findings"`
	}
	for _, format := range []string{"text", "json", "sarif", "github"} {
		r := mainIn(t, dir, "lint", "--format", format, sample)
		if r.code != ExitOK && r.code != ExitFindings {
			t.Fatalf("lint --format %s exit %d\n%s%s", format, r.code, r.stdout, r.stderr)
		}
		for _, s := range secrets {
			if strings.Contains(r.stdout+r.stderr, s) {
				t.Errorf("lint --format %s prints a secret of the archive", format)
			}
		}
		for _, line := range strings.Split(r.stdout, "\n") {
			if credential.Find([]byte(line)) != "" {
				t.Errorf("lint --format %s prints a line that looks like a credential: %s", format, line)
			}
		}
		if format == "json" {
			if err := json.Unmarshal([]byte(r.stdout), &js); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, f := range js.Findings {
		if f.File == "" || f.Line < 1 {
			t.Errorf("finding %s without a position: %+v", f.Rule, f)
		}
	}

	// the release, and the platform's own objects, as lint reads them
	c, probs, ok := discover.LiveCluster(sample)
	if !ok || len(probs) > 0 || c.What != discover.InsightsArchive {
		t.Fatalf("the sample is not an Insights archive: %v %v", ok, probs)
	}
	set := lint.LiveSet(c.Objects, 0, "")
	if set.Minor.String() != "4.7" || !strings.Contains(set.MinorFrom, `status.desired.version "4.7.16"`) {
		t.Errorf("release %s from %s, want 4.7 from config/version.json", set.Minor, set.MinorFrom)
	}
	platformWritten, read := map[string]bool{}, map[string]bool{}
	for _, o := range c.Objects {
		read[o.Kind+" "+o.Namespace+"/"+o.Name] = true
		if o.WrittenBy != "" {
			platformWritten[o.Kind+" "+o.Namespace+"/"+o.Name] = true
		}
	}
	for _, want := range []string{"MachineConfig /00-master", "MachineConfig /01-master-kubelet", "MachineConfig /rendered-worker-39c9df4a2c026c3149a02abe6f88cfc8"} {
		if !platformWritten[want] {
			t.Errorf("%s is not the platform's", want)
		}
	}
	// the default IngressController is the administrator's to edit, so
	// its findings are reported; it is the default router, not a shard
	// without a domain, and the sample's draws none
	const defaultIC = "IngressController openshift-ingress-operator/default"
	if !read[defaultIC] {
		t.Errorf("%s is not read: the test shows nothing", defaultIC)
	}
	if platformWritten[defaultIC] {
		t.Errorf("%s is read as the platform's: no finding on its spec would be reported", defaultIC)
	}
	l, err := lint.New(lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range l.Check(set).Findings {
		if f.Resource == nil {
			continue
		}
		if key := f.Resource.Kind + " " + f.Resource.Namespace + "/" + f.Resource.Name; platformWritten[key] || key == defaultIC {
			t.Errorf("finding on %s: %s", key, f.Message)
		}
		if f.Rule == "NET002" {
			t.Errorf("a finding of a later release on 4.7.16: %s", f.Message)
		}
	}
	// read as plain manifests, the same objects draw those findings: the
	// live reading is what keeps them out
	plain := lint.ManifestSet(c.Objects, 0, "")
	plain.Minor, plain.MinorFrom = 0, ""
	var net002, mcf004 bool
	for _, f := range l.Check(plain).Findings {
		net002 = net002 || f.Rule == "NET002"
		mcf004 = mcf004 || f.Rule == "MCF004"
	}
	if !net002 || !mcf004 {
		t.Errorf("read as plain manifests of the latest release, NET002 %v, MCF004 %v: the test shows nothing", net002, mcf004)
	}
	if after := treeDigest(t, sample); after != before {
		t.Errorf("the archive changed")
	}
}

// impactPools are the pools of impact --format json's report, each as
// "N nodes, action, maxUnavailable M, W waves, C changes", and the
// reasons of its other news.
func impactPools(t *testing.T, r ran) (map[string]string, []string) {
	t.Helper()
	if r.code != ExitOK {
		t.Fatalf("impact exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	var rep struct {
		Pools []struct {
			Pool           string `json:"pool"`
			Nodes          *int   `json:"nodes"`
			Action         string `json:"action"`
			MaxUnavailable string `json:"maxUnavailable"`
			Waves          int    `json:"waves"`
			Changes        []struct {
				Object string `json:"object"`
			} `json:"changes"`
		} `json:"pools"`
		Other []struct {
			Reason string `json:"reason"`
		} `json:"other"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	got := map[string]string{}
	for _, p := range rep.Pools {
		n := -1
		if p.Nodes != nil {
			n = *p.Nodes
		}
		got[p.Pool] = fmt.Sprintf("%d nodes, %s, maxUnavailable %s, %d waves, %d changes", n, p.Action, p.MaxUnavailable, p.Waves, len(p.Changes))
	}
	var other []string
	for _, o := range rep.Other {
		other = append(other, o.Reason)
	}
	return got, other
}

// chronyGitOps writes dir/gitops/chrony.yaml: a user MachineConfig of the
// worker pool, which reboots its nodes.
func chronyGitOps(t *testing.T, dir string) string {
	t.Helper()
	chrony, err := sigsyaml.Marshal(archivegen.UserConfig("99-worker-chrony", "worker", "3.4.0", "/etc/chrony.conf", "server 10.0.0.2 iburst\n"))
	if err != nil {
		t.Fatal(err)
	}
	write(t, dir, map[string]string{"gitops/chrony.yaml": string(chrony)})
	return filepath.Join(dir, "gitops")
}

// chronyOnCluster checks impact's report of chronyGitOps's MachineConfig
// on kcs6996487's cluster: the worker pool's 5 nodes (status.machineCount)
// reboot, 2 at a time (its maxUnavailable), the master pool's do nothing.
func chronyOnCluster(t *testing.T, what string, r ran) {
	t.Helper()
	got, other := impactPools(t, r)
	want := map[string]string{
		"master": "3 nodes, none, maxUnavailable 1, 0 waves, 0 changes",
		"worker": "5 nodes, reboot, maxUnavailable 2, 3 waves, 1 changes",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) || len(other) != 0 {
		t.Errorf("%s:\n%v\nwant\n%v\nother %v", what, got, want, other)
	}
}

// TestImpactMustGatherAsOld: impact with a must-gather as OLD reports the
// cluster's own node counts per pool (status.machineCount: the worker pool
// holds the two Local Zone nodes too) and its maxUnavailable (2), though
// NEW defines no pool; MCO's generated configs are not changes.
func TestImpactMustGatherAsOld(t *testing.T) {
	mg := mustGather(t, "kcs6996487")
	before := treeDigest(t, mg)
	dir := t.TempDir()
	gitops := chronyGitOps(t, dir)
	chronyOnCluster(t, "impact MG GITOPS", mainIn(t, dir, "impact", "--format", "json", mg, gitops))
	if after := treeDigest(t, mg); after != before {
		t.Errorf("the must-gather changed")
	}
}

// TestImpactMustGatherAsNew: a must-gather is the cluster on either side.
// The same must-gather as OLD and NEW, and a must-gather committed to git
// and unchanged (impact --git HEAD), change nothing: MCO's generated
// configs are MCO's on both sides. As NEW against a GitOps folder that
// adds a worker MachineConfig the cluster does not run, the cluster's own
// pools, node counts and maxUnavailable are used, as they are as OLD.
func TestImpactMustGatherAsNew(t *testing.T) {
	mg := mustGather(t, "kcs6996487")
	dir := t.TempDir()
	nothing := "no node is drained, restarted or rebooted: no MachineConfigPool's configuration changes\n"
	if r := mainIn(t, dir, "impact", mg, mg); r.code != ExitOK || r.stdout != nothing {
		t.Errorf("impact MG MG: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	gitops := chronyGitOps(t, dir)
	chronyOnCluster(t, "impact GITOPS MG", mainIn(t, dir, "impact", "--format", "json", gitops, mg))

	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("SKIPPED LOUDLY: git is not installed; impact --git of a committed must-gather is not tested")
	}
	repo := t.TempDir()
	copyTree(t, mg, filepath.Join(repo, "clusters", "prod", archivegen.DestDir))
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"commit", "-q", "-m", "must-gather"}} {
		cmd := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	if r := mainIn(t, repo, "impact", "--git", "HEAD"); r.code != ExitOK || r.stdout != nothing {
		t.Errorf("impact --git HEAD of an unchanged must-gather: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestImpactInsightsSampleItself: the Insights sample archive against
// itself changes nothing.
func TestImpactInsightsSampleItself(t *testing.T) {
	sample := insightsSample(t)
	r := mainIn(t, t.TempDir(), "impact", sample, sample)
	if r.code != ExitOK || r.stdout != "no node is drained, restarted or rebooted: no MachineConfigPool's configuration changes\n" {
		t.Errorf("impact of the sample against itself: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestMirrorsMustGather: mirrors reads the registries.conf a must-gather's
// pools run (their rendered configs): the catalog's tag pull meets
// digest-only mirrors of a blocked source. With the worker pool paused
// before the tag mirror set, the master pool's nodes pull it from the
// mirror and the worker pool's cannot, each said with its pool and
// rendered config.
func TestMirrorsMustGather(t *testing.T) {
	mg := mustGather(t, "catalog-digest-only")
	dir := t.TempDir()
	r := mainIn(t, dir, "mirrors", "preview", mg)
	if r.code != ExitOK || !strings.Contains(r.stdout, "pull-from-mirror = 'digest-only'") || !strings.Contains(r.stdout, "blocked = true") {
		t.Errorf("mirrors preview exit %d:\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = mainIn(t, dir, "mirrors", "resolve", mg, "--image", "registry.redhat.io/redhat/redhat-operator-index:v4.16")
	if r.code != ExitOK || !strings.Contains(r.stdout, "skipped: digest-only mirror skipped for a tag reference") || !strings.Contains(r.stdout, "BLOCKED") ||
		!regexp.MustCompile(`(?m)^# /etc/containers/registries.conf as the nodes of pools master, worker run it, read from the rendered configs rendered-master-\w+, rendered-worker-\w+ \(MachineConfigPool status.configuration\)$`).MatchString(r.stdout) {
		t.Errorf("mirrors resolve exit %d:\n%s%s", r.code, r.stdout, r.stderr)
	}

	paused := mustGather(t, "mirrors-pool-paused")
	r = mainIn(t, dir, "mirrors", "resolve", paused, "--image", "registry.redhat.io/redhat/redhat-operator-index:v4.16")
	want := regexp.MustCompile(`(?s)^# /etc/containers/registries.conf as the nodes of pool master run it, read from the rendered config rendered-master-\w+ .*` +
		`1\. mirror\.example\.com:8443/redhat/redhat-operator-index:v4\.16  mirror \(tag-only\).*connected: pulled from the mirrors only.*` +
		`\n# /etc/containers/registries.conf as the nodes of pool worker run it, read from the rendered config rendered-worker-344c2b4eef934c0ea344ef93344c2b4e .*` +
		`the pull FAILS: no mirror serves this reference and the source is blocked\n$`)
	if r.code != ExitOK || !want.MatchString(r.stdout) {
		t.Errorf("mirrors resolve of the paused pool's cluster, exit %d:\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = mainIn(t, dir, "mirrors", "preview", paused)
	if r.code != ExitOK || strings.Count(r.stdout, "# /etc/containers/registries.conf as the nodes of pool ") != 2 || strings.Count(r.stdout, "pull-from-mirror = 'tag-only'") != 1 {
		t.Errorf("mirrors preview of the paused pool's cluster, exit %d:\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestMirrorsInsightsSample: an Insights archive holds no file contents of
// the rendered configs: mirrors computes the file from the cluster's
// mirror objects, and says so.
func TestMirrorsInsightsSample(t *testing.T) {
	sample := insightsSample(t)
	r := mainIn(t, t.TempDir(), "mirrors", "preview", sample)
	if r.code != ExitOK || !strings.Contains(r.stdout, "computed from the cluster's mirror objects as the Machine Config Operator renders them: the state holds no contents of the rendered config") {
		t.Errorf("mirrors preview of the sample, exit %d:\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestMirrorsMustGatherRefused: where MCO would refuse the cluster's
// mirror objects (two policies for one source), it keeps the file every
// node runs: mirrors of a must-gather shows those files, the refusal a
// warning at the entries; of plain manifests it stays an error (exit 2).
func TestMirrorsMustGatherRefused(t *testing.T) {
	dir := t.TempDir()
	mg := filepath.Join(dir, archivegen.DestDir)
	copyTree(t, mustGather(t, "catalog-digest-only"), mg)
	images, err := filepath.Glob(filepath.Join(mg, "quay-io-*"))
	if err != nil || len(images) != 1 {
		t.Fatalf("image folder: %v %v", images, err)
	}
	conflict := "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata:\n  name: idms-conflict\nspec:\n  imageDigestMirrors:\n" +
		"  - source: registry.redhat.io/redhat\n    mirrors: [other.example.com/redhat]\n    mirrorSourcePolicy: AllowContactingSource\n"
	rel, _ := filepath.Rel(dir, images[0])
	write(t, dir, map[string]string{
		filepath.Join(rel, "cluster-scoped-resources", "config.openshift.io", "imagedigestmirrorsets", "idms-conflict.yaml"): conflict,
		"plain/idms.yaml": conflict + "---\n" + strings.Replace(strings.Replace(conflict, "idms-conflict", "idms-other", 1), "AllowContactingSource", "NeverContactSource", 1),
	})
	r := mainIn(t, dir, "mirrors", "preview", mg)
	if r.code != ExitOK || !strings.Contains(r.stdout, "# /etc/containers/registries.conf as the nodes of pools master, worker run it") ||
		!regexp.MustCompile(`idms-conflict\.yaml:7:13: note: the same source here`).MatchString(r.stderr) ||
		!strings.Contains(r.stderr, ": warning: the Machine Config Operator would refuse to render registries.conf: ") {
		t.Errorf("mirrors preview of the must-gather, exit %d:\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := mainIn(t, dir, "mirrors", "preview", "plain"); r.code != ExitFailure || !strings.Contains(r.stderr, ": error: the Machine Config Operator would refuse") {
		t.Errorf("mirrors preview of plain manifests, exit %d:\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestDiagnoseMTUMigrationUnderWay: mtu of a must-gather taken between
// the phases says the migration is under way and what remains (phase 2),
// and --check exits 1 saying so; during phase 2's rollout it names the
// pool still behind.
func TestDiagnoseMTUMigrationUnderWay(t *testing.T) {
	dir := t.TempDir()
	phase1 := mustGather(t, "mtu-migration-phase1")
	r := mainIn(t, dir, "mtu", "--check", phase1)
	if r.code != ExitFindings || r.stderr != "an MTU migration is under way for kcs-7xk2p: phase 2 remains\n" ||
		!strings.Contains(r.stdout, ": the MTU migration 8901 -> 1200 is under way\n") ||
		!strings.Contains(r.stdout, "phase 1 runs on every node\nwhat remains:\n  2. oc patch network.operator.openshift.io cluster --type=merge -p '{\"spec\":{\"defaultNetwork\":{\"ovnKubernetesConfig\":{\"mtu\":1200}},\"migration\":null}}'\n") ||
		strings.Contains(r.stdout+r.stderr, "is due") {
		t.Errorf("mtu --check of phase 1: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = mainIn(t, dir, "mtu", mustGather(t, "mtu-migration-phase2-rolling"))
	if r.code != ExitOK || !regexp.MustCompile(`phase 2 is applied, and pool worker \(2 of 5 nodes updated, on rendered-worker-\w+\) still runs mtu-migration.service\nwhat remains: wait until every MachineConfigPool is Updated`).MatchString(r.stdout) {
		t.Errorf("mtu of phase 2 rolling out: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// TestDiagnoseMTUInFolder: mtu of a folder that holds no site but one
// must-gather plans that must-gather, as lint finds it; with two it says
// to give one, naming them.
func TestDiagnoseMTUInFolder(t *testing.T) {
	dir := t.TempDir()
	copyTree(t, mustGather(t, "kcs6996487"), filepath.Join(dir, "cases", "prod", archivegen.DestDir))
	r := mainIn(t, dir, "mtu", "cases")
	if r.code != ExitOK || !strings.HasPrefix(r.stdout, "cluster kcs-7xk2p (cases/prod/"+archivegen.DestDir) || !strings.Contains(r.stdout, "  target              1200  computed from the links") {
		t.Errorf("mtu of a folder with one must-gather: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	copyTree(t, mustGather(t, "kcs6996487-fixed"), filepath.Join(dir, "cases", "fixed", archivegen.DestDir))
	r = mainIn(t, dir, "mtu", "cases")
	want := "cases: error: no site here, but 2 running clusters' states: cases/fixed/" + archivegen.DestDir + ", cases/prod/" + archivegen.DestDir + "\n" +
		"  = hint: give the folder of the must-gather (or Insights archive) whose plan to print; siteforge mtu takes several PATHs\n"
	if r.code != ExitFailure || r.stdout != "" || !strings.HasPrefix(r.stderr, want) {
		t.Errorf("mtu of a folder with two must-gathers: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
