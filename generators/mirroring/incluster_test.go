package mirroring

import (
	"bytes"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	ign3types "github.com/coreos/ignition/v2/config/v3_5/types"
	configv1 "github.com/openshift/api/config/v1"
	mcfgv1 "github.com/openshift/api/machineconfiguration/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/siteforge/siteforge/internal/cluster/disruption"
	"github.com/siteforge/siteforge/internal/cluster/incluster"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/ignition"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/registries"
	"github.com/siteforge/siteforge/internal/ruleid"
	"github.com/siteforge/siteforge/internal/site"
)

const (
	inClusterExample = "../../examples/remote-quay-in-cluster"
	exampleCache     = "quay-quay-registry.apps.store-0042.stores.example.com"
	workerCacheMC    = "mirroring/machineconfig-99-worker-siteforge-in-cluster-cache.yaml"
)

func inClusterSite(t *testing.T) *site.Site {
	t.Helper()
	return loadExample(t, inClusterExample)[0]
}

// endpoints lists "mirror|source location" of the endpoints a node contacts, in order.
func endpoints(r registries.Resolution) []string {
	var out []string
	for _, e := range r.Attempts() {
		kind := "source"
		if e.Mirror && !e.Source {
			kind = "mirror"
		}
		out = append(out, kind+" "+e.Reference)
	}
	return out
}

func resolveAfter(t *testing.T, conf, dropIn []byte, ref string) registries.Resolution {
	t.Helper()
	r, err := registries.ResolveWithDropIn(conf, dropIn, ref)
	if err != nil {
		t.Fatalf("resolve %s with the drop-in: %v", ref, err)
	}
	return r
}

// TestInClusterCacheExample: the drop-in of the example loads in containers/image over the
// nodes' registries.conf and resolves the cached images through the cache with the source as
// fallback, and keeps the payload and the cache's own images off the cache.
func TestInClusterCacheExample(t *testing.T) {
	out := render(t, inClusterSite(t))
	conf, dropIn := out.Files[workerPreview], out.Files[InClusterCacheDropInPreview]
	if conf == nil || dropIn == nil {
		t.Fatalf("missing %s or %s: %v", workerPreview, InClusterCacheDropInPreview, out.Paths())
	}
	if err := registries.LoadWithDropIn(conf, dropIn); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		ref         string
		before, now []string
	}{
		{"registry.redhat.io/ubi9/ubi:9.4",
			[]string{"source registry.redhat.io/ubi9/ubi:9.4"},
			[]string{"mirror " + exampleCache + "/registry-redhat-io/ubi9/ubi:9.4", "source registry.redhat.io/ubi9/ubi:9.4"}},
		{"quay.io/prometheus/node-exporter@sha256:" + strings.Repeat("a", 64),
			[]string{"source quay.io/prometheus/node-exporter@sha256:" + strings.Repeat("a", 64)},
			[]string{"mirror " + exampleCache + "/quay-io/prometheus/node-exporter@sha256:" + strings.Repeat("a", 64), "source quay.io/prometheus/node-exporter@sha256:" + strings.Repeat("a", 64)}},
		// the cache's own image, and the release payload: never through the cache
		{"registry.redhat.io/quay/quay-rhel8:v3.12.0",
			[]string{"source registry.redhat.io/quay/quay-rhel8:v3.12.0"},
			[]string{"source registry.redhat.io/quay/quay-rhel8:v3.12.0"}},
		{"quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:" + strings.Repeat("b", 64),
			[]string{"source quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:" + strings.Repeat("b", 64)},
			[]string{"source quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:" + strings.Repeat("b", 64)}},
	} {
		if got := endpoints(resolve(t, conf, tc.ref)); !slices.Equal(got, tc.before) {
			t.Errorf("%s before the cache answers: %v, want %v", tc.ref, got, tc.before)
		}
		if got := endpoints(resolveAfter(t, conf, dropIn, tc.ref)); !slices.Equal(got, tc.now) {
			t.Errorf("%s once the cache answers: %v, want %v", tc.ref, got, tc.now)
		}
	}
	// The MachineConfigs carry the same drop-in, the script and the units.
	for _, pool := range platform.BuiltinPools {
		mc := decode[mcfgv1.MachineConfig](t, out, "mirroring/machineconfig-99-"+pool+"-siteforge-in-cluster-cache.yaml")
		ign := mcIgnition(t, mc)
		files := map[string]string{}
		for _, f := range ign.Storage.Files {
			compression := ""
			if f.Contents.Compression != nil {
				compression = *f.Contents.Compression
			}
			data, err := ignition.Contents(*f.Contents.Source, compression, 1<<20)
			if err != nil {
				t.Fatal(err)
			}
			files[f.Path] = string(data)
		}
		if files[inClusterCacheDropInCopy] == "" || !strings.Contains(string(dropIn), files[inClusterCacheDropInCopy][strings.Index(files[inClusterCacheDropInCopy], "[[registry]]"):]) {
			t.Errorf("%s: %s is not the drop-in of %s", pool, inClusterCacheDropInCopy, InClusterCacheDropInPreview)
		}
		if files[inClusterCacheScript] != inClusterCacheScriptFor(inClusterSite(t)) {
			t.Errorf("%s: %s is not the script", pool, inClusterCacheScript)
		}
		var units []string
		for _, u := range ign.Systemd.Units {
			units = append(units, u.Name)
		}
		if want := []string{inClusterCacheCleanup, inClusterCacheCheckUnit, inClusterCacheTimer}; !slices.Equal(units, want) {
			t.Errorf("%s: units %v, want %v", pool, units, want)
		}
	}
}

func mcIgnition(t *testing.T, mc mcfgv1.MachineConfig) ign3types.Config {
	t.Helper()
	r, err := disruption.Merge([]mcfgv1.MachineConfig{mc}, platform.LatestMinor)
	if err != nil {
		t.Fatalf("%s: %v", mc.Name, err)
	}
	return r.Ignition
}

// TestInClusterCacheKeepsTheNodesMirrors: an upstream the site also mirrors outside the cluster
// keeps that mirror after the cache, moved to each narrower table, and digest-only stays
// digest-only.
func TestInClusterCacheKeepsTheNodesMirrors(t *testing.T) {
	s := loadSpec(t, siteSpec{version: "4.18", install: "ipi", connectivity: "connected", lifecycle: "running", mirroring: `  sources:
    registry.redhat.io:
      mirrors: [mirror.example.com/rh]
  inClusterCache:
    host: cache.apps.c.example.com
    orgs: {rh: registry.redhat.io}
    bootstrapImages: [registry.redhat.io/quay]
`})
	out := render(t, s)
	conf, dropIn := out.Files[workerPreview], out.Files[InClusterCacheDropInPreview]
	for ref, want := range map[string][]string{
		"registry.redhat.io/ubi9/ubi@sha256:" + strings.Repeat("c", 64): {
			"mirror cache.apps.c.example.com/rh/ubi9/ubi@sha256:" + strings.Repeat("c", 64),
			"mirror mirror.example.com/rh/ubi9/ubi@sha256:" + strings.Repeat("c", 64),
			"source registry.redhat.io/ubi9/ubi@sha256:" + strings.Repeat("c", 64)},
		"registry.redhat.io/ubi9/ubi:9.4": { // the IDMS mirror is digest-only: skipped for a tag
			"mirror cache.apps.c.example.com/rh/ubi9/ubi:9.4",
			"source registry.redhat.io/ubi9/ubi:9.4"},
		"registry.redhat.io/quay/quay-rhel8@sha256:" + strings.Repeat("d", 64): {
			"mirror mirror.example.com/rh/quay/quay-rhel8@sha256:" + strings.Repeat("d", 64),
			"source registry.redhat.io/quay/quay-rhel8@sha256:" + strings.Repeat("d", 64)},
	} {
		if got := endpoints(resolveAfter(t, conf, dropIn, ref)); !slices.Equal(got, want) {
			t.Errorf("%s: %v, want %v", ref, got, want)
		}
	}
}

// TestInClusterCacheOwnImages: without bootstrapImages, a cache the Quay operator runs keeps
// the images of the operator, its catalog and its QuayRegistry's pods off itself, Red Hat Quay's
// and Project Quay's alike; a cache run otherwise routes only what bootstrapImages leaves out
// (MIR023 refuses it without them).
func TestInClusterCacheOwnImages(t *testing.T) {
	cache := func(deployedBy string) string {
		return "  inClusterCache:\n    host: cache.apps.c.example.com\n    deployedBy: " + deployedBy + "\n    orgs: {rh: registry.redhat.io, q: quay.io, hub: docker.io}\n"
	}
	own := []string{
		"registry.redhat.io/quay/quay-operator-rhel9:v3.16.0",
		"registry.redhat.io/quay/quay-rhel8:v3.12.0",
		"registry.redhat.io/quay/clair-rhel9:v3.16.0",
		"registry.redhat.io/rhel8/postgresql-13:1",
		"registry.redhat.io/rhel9/redis-7:1",
		"registry.redhat.io/redhat/redhat-operator-index:v4.18",
		"registry.redhat.io/redhat/community-operator-index:v4.18",
		"quay.io/projectquay/quay-operator:v3.15.0",
		"quay.io/projectquay/quay:v3.15.0",
		"quay.io/sclorg/postgresql-15-c9s:latest",
		"docker.io/centos/postgresql-10-centos7:latest",
	}
	for _, tc := range []struct {
		deployedBy string
		viaCache   bool
	}{{"quay-operator", false}, {"other", true}} {
		s := loadSpec(t, siteSpec{version: "4.18", install: "ipi", connectivity: "connected", lifecycle: "running", mirroring: cache(tc.deployedBy)})
		out := render(t, s)
		conf, dropIn := out.Files[workerPreview], out.Files[InClusterCacheDropInPreview]
		for _, ref := range own {
			first := endpoints(resolveAfter(t, conf, dropIn, ref))[0]
			if via := strings.HasPrefix(first, "mirror cache.apps.c.example.com/"); via != tc.viaCache {
				t.Errorf("deployedBy %s: %s is pulled first from %s", tc.deployedBy, ref, first)
			}
		}
		// a workload's image still goes through the cache
		if first := endpoints(resolveAfter(t, conf, dropIn, "registry.redhat.io/ubi9/ubi:9.4"))[0]; !strings.HasPrefix(first, "mirror cache.apps.c.example.com/rh/") {
			t.Errorf("deployedBy %s: ubi9 is pulled first from %s", tc.deployedBy, first)
		}
	}
}

// TestInClusterCacheRefusals: a blocked source whose mirror runs in the cluster (MIR022), worded
// for each case, at the line that blocks the source; addresses or organizations the cache cannot
// use.
func TestInClusterCacheRefusals(t *testing.T) {
	cache := "  inClusterCache:\n    host: cache.apps.c.example.com\n    orgs: {rh: registry.redhat.io, q: quay.io}\n"
	const mir022 = ruleid.NeverContactSourceThroughInClusterMirror
	for _, tc := range []struct {
		name, mirroring, path, rule string
		msgs                        []string
	}{
		{"NeverContactSource on a cached upstream mirrored outside the cluster", cache + "  sources:\n    registry.redhat.io:\n      mirrors: [mirror.example.com/rh]\n      policy: NeverContactSource\n",
			`mirroring.sources."registry.redhat.io".policy`, mir022, []string{"covers registry.redhat.io, and the in-cluster cache cache.apps.c.example.com caches it (organization rh): a Quay proxy-cache organization fetches from its upstream itself", `Not a bootstrap deadlock ("mirror.example.com/rh" outside the cluster serves it while the cache is down), but a contradiction`}},
		{"NeverContactSource through the cache host", cache + "  sources:\n    docker.io:\n      mirrors: [cache.apps.c.example.com/dockerhub]\n      policy: NeverContactSource\n",
			`mirroring.sources."docker.io".policy`, mir022, []string{`source docker.io (policy NeverContactSource) is mirrored at "cache.apps.c.example.com/dockerhub", the in-cluster cache (mirroring.inClusterCache.host), a workload of this cluster: a bootstrap deadlock:`}},
		{"NeverContactSource through the cache host and a mirror outside", cache + "  sources:\n    docker.io:\n      mirrors: [cache.apps.c.example.com/dockerhub, mirror.example.com/hub]\n      policy: NeverContactSource\n",
			`mirroring.sources."docker.io".policy`, mir022, []string{`the in-cluster cache (mirroring.inClusterCache.host), a workload of this cluster: no deadlock, as "mirror.example.com/hub" outside the cluster serves it;`}},
		{"blocked cached upstream without a mirror", cache + "  blockedRegistries: [quay.io]\n",
			"mirroring.blockedRegistries[0]", mir022, []string{"blockedRegistries quay.io blocks quay.io, which the in-cluster cache cache.apps.c.example.com caches, and no mirror outside the cluster serves it: while the cache is down no node can pull anything under quay.io, the cache's own images included: a bootstrap deadlock"}},
		{"a Quay cache at the same host with NeverContactSource", cache + "  quayCache:\n    host: cache.apps.c.example.com\n    policy: NeverContactSource\n    orgs: {hub: docker.io}\n",
			"mirroring.quayCache.policy", mir022, []string{"bootstrap deadlock"}},
		{"two organizations for one upstream", "  inClusterCache:\n    host: cache.apps.c.example.com\n    orgs: {a: registry.redhat.io, b: registry.redhat.io}\n",
			"mirroring.inClusterCache.orgs.b", "", []string{"cached by organization"}},
		// Without an in-cluster cache: the mirrors the cluster serves itself.
		{"NeverContactSource through a Service, no in-cluster cache", "  sources:\n    registry.redhat.io:\n      mirrors: [quay.quay.svc:5000/rh]\n      policy: NeverContactSource\n",
			`mirroring.sources."registry.redhat.io".policy`, mir022, []string{`is mirrored at "quay.quay.svc:5000/rh", a cluster DNS name, which the node's resolver does not know: a bootstrap deadlock:`}},
		{"NeverContactSource through a host under the site's apps domain", "  sources:\n    quay.io:\n      mirrors: [quay-quay-registry.apps.test.example.com/quay-io]\n      policy: NeverContactSource\n",
			`mirroring.sources."quay.io".policy`, mir022, []string{"under apps.test.example.com (the site's cluster name and baseDomain), the cluster's own ingress domain", "a bootstrap deadlock"}},
		{"blocked source mirrored at a ClusterIP", "  sources:\n    quay.io:\n      mirrors: [172.30.9.9/quay-io]\n  blockedRegistries: [quay.io]\n",
			"mirroring.blockedRegistries[0]", mir022, []string{`blockedRegistries quay.io blocks quay.io, which is mirrored at "172.30.9.9/quay-io", a Service ClusterIP (in 172.30.0.0/16, network.serviceNetwork)`, "a bootstrap deadlock"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := loadSpec(t, siteSpec{version: "4.18", install: "ipi", connectivity: "connected", lifecycle: "running", mirroring: tc.mirroring})
			_, err := Generate(testContext(s), s)
			dl, ok := err.(diag.List)
			if !ok || len(dl) != 1 {
				t.Fatalf("want one diagnostic, got %v", err)
			}
			d := dl[0]
			if d.Path != tc.path || d.Rule != tc.rule || d.Pos != s.Positions.Of(tc.path) {
				t.Errorf("got %s [%s] at %v, want %s [%s]", d.Path, d.Rule, d.Pos, tc.path, tc.rule)
			}
			for _, m := range tc.msgs {
				if !strings.Contains(d.Message, m) {
					t.Errorf("message %q lacks %q", d.Message, m)
				}
			}
		})
	}
	// Before 4.13 NeverContactSource has no effect (RND005 says so): nothing is blocked.
	s := loadSpec(t, siteSpec{version: "4.12", install: "ipi", connectivity: "connected", lifecycle: "running",
		mirroring: "  sources:\n    registry.redhat.io:\n      mirrors: [quay.quay.svc:5000/rh]\n      policy: NeverContactSource\n"})
	if _, err := Generate(testContext(s), s); err != nil {
		t.Errorf("4.12: %v", err)
	}
}

// TestBlockedSourceAsItsOwnMirror: a blocked source listed as its own mirror next to a mirror
// the cluster serves itself is a bootstrap deadlock, as lint says of the same mirror set
// (lint/rules MIR022 case "blocked source listed as its own mirror"): blocked, the source serves
// nothing, so it is no mirror outside the cluster.
func TestBlockedSourceAsItsOwnMirror(t *testing.T) {
	s := loadSpec(t, siteSpec{version: "4.18", install: "ipi", connectivity: "connected", lifecycle: "running",
		mirroring: "  sources:\n    quay.io:\n      mirrors: [172.30.9.9/quay-io, quay.io]\n  blockedRegistries: [quay.io]\n"})
	_, err := Generate(testContext(s), s)
	dl, ok := err.(diag.List)
	if !ok || len(dl) != 1 {
		t.Fatalf("want one diagnostic, got %v", err)
	}
	d := dl[0]
	if d.Path != "mirroring.blockedRegistries[0]" || d.Rule != ruleid.NeverContactSourceThroughInClusterMirror {
		t.Errorf("got %s [%s], want mirroring.blockedRegistries[0] [%s]", d.Path, d.Rule, ruleid.NeverContactSourceThroughInClusterMirror)
	}
	if want := `which is mirrored at "172.30.9.9/quay-io", a Service ClusterIP (in 172.30.0.0/16, network.serviceNetwork), which answers only once the cluster network is up: ` + incluster.Deadlock; !strings.Contains(d.Message, want) || strings.Contains(d.Message, "no deadlock") {
		t.Errorf("message %q, want it to say %q", d.Message, want)
	}
}

// TestInClusterCacheDisruption: adding the MachineConfig reboots each node of the pool once
// (files and units without a node disruption policy), which is what `siteforge impact` says.
func TestInClusterCacheDisruption(t *testing.T) {
	s := inClusterSite(t)
	out := render(t, s)
	mc := decode[mcfgv1.MachineConfig](t, out, workerCacheMC)
	minor, err := s.Minor()
	if err != nil {
		t.Fatal(err)
	}
	before, err := disruption.Merge(nil, minor)
	if err != nil {
		t.Fatal(err)
	}
	after, err := disruption.Merge([]mcfgv1.MachineConfig{mc}, minor)
	if err != nil {
		t.Fatal(err)
	}
	if got := disruption.PoolAction(disruption.Compare(before, after, nil, minor)); got != disruption.Reboot {
		t.Errorf("adding %s: %v, want a reboot", mc.Name, got)
	}
}

// ---------------------------------------------------------------- the script and units

// scriptFile writes the example's script into dir and returns its path.
func scriptFile(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "siteforge-cache-mirror")
	if err := os.WriteFile(p, []byte(inClusterCacheScriptFor(inClusterSite(t))), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func need(t *testing.T, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("SKIPPED: %s is not installed (make tools installs it on Debian as root: apt-get install -y shellcheck systemd curl)", tool)
		}
	}
}

// TestInClusterCacheScript runs the script against a local registry API answering 200 (the
// drop-in appears, CRI-O is reloaded once), 200 again (nothing changes), 401 (still an answer),
// then 503 (the drop-in disappears, CRI-O is reloaded), and remove.
func TestInClusterCacheScript(t *testing.T) {
	need(t, "bash", "curl")
	var status atomic.Int32
	var paths atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		paths.Store(r.URL.Path)
		w.WriteHeader(int(status.Load()))
	}))
	defer srv.Close()
	dir := t.TempDir()
	script := scriptFile(t, dir)
	source := filepath.Join(dir, "source.conf")
	if err := os.WriteFile(source, []byte("[[registry]]\n  location = \"registry.redhat.io\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dropIn := filepath.Join(dir, "registries.conf.d", "99-siteforge-in-cluster-cache.conf")
	reloads := filepath.Join(dir, "reloads")
	run := func(mode string) {
		t.Helper()
		cmd := exec.Command("bash", script, mode)
		cmd.Env = append(os.Environ(),
			"SITEFORGE_CACHE_URL="+srv.URL+platform.RegistryAPIBasePath,
			"SITEFORGE_CA_DIRS="+filepath.Join(dir, "no-certs"),
			"SITEFORGE_DROPIN="+dropIn,
			"SITEFORGE_DROPIN_SOURCE="+source,
			"SITEFORGE_RELOAD_CRIO=echo reload >> '"+reloads+"'",
		)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", mode, err, out)
		}
	}
	state := func(step string, present bool, wantReloads int) {
		t.Helper()
		data, err := os.ReadFile(dropIn)
		switch {
		case present && err != nil:
			t.Fatalf("%s: no drop-in: %v", step, err)
		case present && !bytes.Equal(data, mustRead(t, source)):
			t.Fatalf("%s: the drop-in is not the source file", step)
		case !present && err == nil:
			t.Fatalf("%s: the drop-in is still there", step)
		}
		got := 0
		if b, err := os.ReadFile(reloads); err == nil {
			got = strings.Count(string(b), "reload")
		}
		if got != wantReloads {
			t.Fatalf("%s: %d CRI-O reloads, want %d", step, got, wantReloads)
		}
	}
	status.Store(http.StatusOK)
	run("check")
	if p, _ := paths.Load().(string); p != platform.RegistryAPIBasePath {
		t.Errorf("probed %q, want %s", p, platform.RegistryAPIBasePath)
	}
	state("200", true, 1)
	run("check")
	state("200 again", true, 1)
	status.Store(http.StatusUnauthorized)
	run("check")
	state("401", true, 1)
	status.Store(http.StatusServiceUnavailable)
	run("check")
	state("503", false, 2)
	run("check")
	state("503 again", false, 2)
	status.Store(http.StatusOK)
	run("check")
	state("200 after 503", true, 3)
	run("remove")
	state("remove", false, 4)
	srv.Close()
	run("check") // nothing listens: no answer
	state("server gone", false, 4)
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestInClusterCacheScriptShellcheck(t *testing.T) {
	need(t, "shellcheck")
	out, err := exec.Command("shellcheck", "--shell=bash", "--severity=style", scriptFile(t, t.TempDir())).CombinedOutput()
	if err != nil {
		t.Fatalf("shellcheck: %v\n%s", err, out)
	}
}

// TestInClusterCacheUnitsVerify runs systemd-analyze verify on the units, the script at its
// place under a scratch root.
func TestInClusterCacheUnitsVerify(t *testing.T) {
	need(t, "systemd-analyze")
	root := t.TempDir()
	bin := filepath.Join(root, filepath.Dir(inClusterCacheScript))
	units := filepath.Join(root, "etc/systemd/system")
	for _, d := range []string{bin, units} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, inClusterCacheScript), []byte(inClusterCacheScriptFor(inClusterSite(t))), 0o755); err != nil {
		t.Fatal(err)
	}
	// The host's system units (targets such as sysinit.target, timers.target) under the root.
	const systemUnits = "/usr/lib/systemd/system"
	if err := os.MkdirAll(filepath.Join(root, filepath.Dir(systemUnits)), 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("cp", "-a", systemUnits, filepath.Join(root, systemUnits)).CombinedOutput(); err != nil {
		t.Skipf("SKIPPED: the host's systemd units (%s) cannot be copied under a scratch root: %v %s", systemUnits, err, out)
	}
	var paths []string
	for _, u := range inClusterCacheUnits(inClusterSite(t).Mirroring.InClusterCache) {
		p := filepath.Join(units, u.Name)
		if err := os.WriteFile(p, []byte(u.Contents), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	cmd := exec.Command("systemd-analyze", append([]string{"verify", "--man=no", "--root=" + root}, paths...)...)
	cmd.Env = append(os.Environ(), "SYSTEMD_LOG_LEVEL=warning")
	out, err := cmd.CombinedOutput()
	if err != nil || len(bytes.TrimSpace(out)) > 0 {
		t.Fatalf("systemd-analyze verify: %v\n%s", err, out)
	}
}

// TestInClusterCacheCA: the example gives the cache's CA under its host: siteforge renders the
// ConfigMap in openshift-config (one key per host, ":" as "..") and image.config naming it,
// which MCO turns into /etc/docker/certs.d/<host>/ca.crt; a value that is not PEM certificates
// is refused at its key.
func TestInClusterCacheCA(t *testing.T) {
	s := inClusterSite(t)
	out := render(t, s)
	cm := decode[corev1.ConfigMap](t, out, "mirroring/configmap-registry-cas.yaml")
	if cm.Namespace != platform.AdditionalTrustedCANamespace || len(cm.Data) != 1 || !strings.Contains(cm.Data[exampleCache], "-----BEGIN CERTIFICATE-----") {
		t.Errorf("ConfigMap %s/%s data %v", cm.Namespace, cm.Name, slices.Collect(maps.Keys(cm.Data)))
	}
	img := decode[configv1.Image](t, out, "mirroring/image-cluster.yaml")
	if img.Spec.AdditionalTrustedCA.Name != cm.Name {
		t.Errorf("image.config additionalTrustedCA %q, want %q", img.Spec.AdditionalTrustedCA.Name, cm.Name)
	}

	pemOf := func(host string) string { return s.Mirroring.AdditionalTrustedCA.Certificates[host] }
	indent := func(text string) string {
		return "        " + strings.ReplaceAll(strings.TrimSuffix(text, "\n"), "\n", "\n        ") + "\n"
	}
	for _, tc := range []struct{ name, value, want string }{
		{"a port", indent(pemOf(exampleCache)), ""},
		{"not a certificate", indent("-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----"), "the CA for registry.example.com:8443 is not PEM certificates: certificate 1:"},
		{"text after it", indent(pemOf(exampleCache) + "junk -----BEGIN CERTIFICATE-----"), "text after the last certificate"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := loadSpec(t, siteSpec{version: "4.18", install: "ipi", connectivity: "connected", lifecycle: "running",
				mirroring: "  additionalTrustedCA:\n    configMap: registry-cas\n    certificates:\n      \"registry.example.com:8443\": |\n" + tc.value})
			out, err := Generate(testContext(s), s)
			path := `mirroring.additionalTrustedCA.certificates."registry.example.com:8443"`
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				for _, a := range out {
					if a.Path == "mirroring/configmap-registry-cas.yaml" {
						if data := a.Object.(*corev1.ConfigMap).Data; data["registry.example.com..8443"] == "" {
							t.Errorf("keys %v, want registry.example.com..8443", slices.Collect(maps.Keys(data)))
						}
						return
					}
				}
				t.Fatal("no ConfigMap")
			}
			dl, ok := err.(diag.List)
			if !ok || len(dl) != 1 || dl[0].Path != path || dl[0].Pos != s.Positions.Of(path) || !strings.Contains(dl[0].Message, tc.want) {
				t.Fatalf("got %v, want %q at %s", err, tc.want, path)
			}
		})
	}
}
