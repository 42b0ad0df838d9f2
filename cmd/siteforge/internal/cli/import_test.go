package cli

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/siteforge/siteforge/generators/hub"
	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/upstream"
)

// sharedZTP is ../shared/upstream/ztp from the repository root (the ZTP
// example SiteConfigs and the siteconfig-converter's samples); tests that
// read it skip loudly without it.
func sharedZTP(t *testing.T) string {
	t.Helper()
	dir := filepath.Join("..", "..", "..", "..", "..", "shared", "upstream", "ztp")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("SKIPPED: %s is absent: the import of the upstream SiteConfigs is not tested (the shared upstream data lives in ../shared from the repository root)", dir)
	}
	return dir
}

// ztpSiteConfigs lists every SiteConfig v1 file under the shared ZTP tree.
func ztpSiteConfigs(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(p) != ".yaml" {
			return err
		}
		objs, _ := manifests.ReadFile(p)
		if slices.ContainsFunc(objs, manifests.IsSiteConfig) {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 10 {
		t.Fatalf("found %d SiteConfigs under %s, want the examples and the converter's samples", len(out), root)
	}
	return out
}

// sampleDefects are the upstream SiteConfigs whose clusters siteforge
// refuses for defects of the input itself: the site imports (exit 0) and
// vet reports exactly these errors, rule and field (lint of the SiteConfig
// reports the install and network checks at the SiteConfig's line as
// well).
var sampleDefects = map[string][]string{
	// one master and two workers: assisted refuses a single control-plane
	// node with workers
	"comprehensive-siteconfig.yaml": {"INS004 pools"},
	// serviceNetwork 192.168.1.0/24 inside clusterNetwork 192.168.0.0/16
	"test-mno-siteconfig.yaml": {"NET001 site.yaml:44:5"},
	// ztp/ran-crd's example CR (ran-crd/site-config-cr-ex.yaml) is a
	// placeholder: clusterImageSetNameRef openshift-v4.8.0 names a release
	// siteforge does not install (4.10 or later); pullSecret-name and
	// bmcCredentialsSecret-Name are no Secret names (Kubernetes names are
	// lower case: the API server refuses them); NTP.server1 is a host name
	// in upper case, which the schema refuses (it takes host names in lower
	// case)
	"site-config-cr-ex.yaml": {"INP002 cluster.version", "INP002 install.hub.pullSecretRef", "INP002 install.ntpSources[0]",
		"INP002 pools.master.nodes[0].bmc.credentialsSecret"},
}

// vetErrors runs vet --format json on dir: its exit code and its errors as
// "RULE path" (a lint rule's, which names no site field: "RULE
// file:line:col", the file relative to dir), sorted.
func vetErrors(t *testing.T, dir string) (int, []string) {
	t.Helper()
	code, stdout, _ := runCLI(t, "vet", "--format", "json", dir)
	var out struct {
		Diagnostics []struct {
			Severity, Rule, Path, File string
			Line, Column               int
		}
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("vet --format json: %v\n%s", err, stdout)
	}
	var errs []string
	for _, d := range out.Diagnostics {
		switch {
		case d.Severity != "error":
		case d.Path != "":
			errs = append(errs, d.Rule+" "+d.Path)
		default:
			rel, _ := filepath.Rel(dir, d.File)
			errs = append(errs, fmt.Sprintf("%s %s:%d:%d", d.Rule, filepath.ToSlash(rel), d.Line, d.Column))
		}
	}
	sort.Strings(errs)
	return code, errs
}

// importedSSHKey is install.sshKey of the one site imported into dir.
func importedSSHKey(t *testing.T, dir string) string {
	t.Helper()
	m, _ := readData(t, filepath.Join(dir, "site.yaml")).(map[string]any)
	in, _ := m["install"].(map[string]any)
	k, _ := in["sshKey"].(string)
	return k
}

func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Main(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// TestImportZTPSiteConfigs: every SiteConfig of the ZTP examples, of the
// siteconfig-converter's samples and of ztp/ran-crd imports (exit 0) with
// the SSH key its importSSHKeys entry says, its sites vet clean (but for
// the samples' own defects, exactly the errors sampleDefects lists), and
// render gives one ClusterInstance per SiteConfig cluster equal to the
// converter's (manifests.SiteConfigClusters: openshift-kni/cnf-features-deploy
// ztp/tools/siteconfig-converter convert.go convertClusterToClusterInstance)
// but for the documented exceptions (docs/hub.md, normalizeConverted), and
// holding every value the converter's own tests assert for the sample
// (converterExpectations, from its convert_test.go).
func TestImportZTPSiteConfigs(t *testing.T) {
	root := sharedZTP(t)
	checked := map[string]bool{}
	for _, file := range ztpSiteConfigs(t, root) {
		t.Run(filepath.Base(file), func(t *testing.T) {
			sample := filepath.Base(file)
			tmp := t.TempDir()
			in := filepath.Join(tmp, "in")
			code, _, stderr := runCLI(t, "import", file, "-o", in)
			if code != ExitOK {
				t.Fatalf("import: exit %d\n%s", code, stderr)
			}
			key, ok := importSSHKeys[sample]
			if !ok {
				t.Fatalf("no importSSHKeys entry for %s", sample)
			}
			if got := importedSSHKey(t, in); got != key {
				t.Errorf("install.sshKey %q, want %q", got, key)
			}
			code, errs := vetErrors(t, in)
			if want, ok := sampleDefects[sample]; ok {
				if code != ExitFailure || !slices.Equal(errs, want) {
					t.Fatalf("vet: exit %d with errors %q, want exit 2 with exactly %q (the sample's defects)", code, errs, want)
				}
				// lint of the SiteConfig reports the same install and
				// network defects, under the same rule (the site's own
				// schema errors, INP002, are the import's)
				_, stdout, _ := runCLI(t, "lint", file)
				for _, e := range want {
					if rule := strings.Fields(e)[0]; rule != "INP002" && !strings.Contains(stdout, "["+rule+"]") {
						t.Errorf("lint of the SiteConfig does not report %s:\n%s", rule, stdout)
					}
				}
				return
			}
			if code != ExitOK {
				t.Fatalf("vet: exit %d: %q", code, errs)
			}
			out := filepath.Join(tmp, "out")
			if code, _, stderr := runCLI(t, "render", in, "-o", out); code != ExitOK {
				t.Fatalf("render: exit %d\n%s", code, stderr)
			}
			objs, dl := manifests.ReadFile(file)
			if len(dl) > 0 {
				t.Fatal(dl)
			}
			for _, o := range objs {
				if !manifests.IsSiteConfig(o) {
					continue
				}
				clusters, err := manifests.SiteConfigClusters(o)
				if err != nil {
					t.Fatal(err)
				}
				for _, c := range clusters {
					var want upstream.ClusterInstance
					if err := c.CI.Obj.Decode(&want); err != nil {
						t.Fatal(err)
					}
					got := readClusterInstance(t, filepath.Join(out, want.Spec.ClusterName, hub.ClusterInstancePath))
					if e, ok := converterExpectations[sample]; ok {
						checkConverterExpectations(t, sample, e, got)
						checked[sample] = true
					}
					normalizeConverted(&want, got, key)
					normalizeRendered(got)
					if !reflect.DeepEqual(asData(t, want.Spec), asData(t, got.Spec)) {
						t.Errorf("cluster %s: rendered ClusterInstance spec differs from the converter's\nconverter: %s\nrendered:  %s", want.Spec.ClusterName, asYAML(t, want.Spec), asYAML(t, got.Spec))
					}
				}
			}
		})
	}
	for sample := range converterExpectations {
		if !checked[sample] {
			t.Errorf("the converter's expectations for %s were not checked: sample not found or not rendered", sample)
		}
	}
}

// normalizeConverted applies to the converter's ClusterInstance the
// documented exceptions of the import (docs/hub.md, "What the import does
// not keep"): what siteforge writes where the input leaves a field empty,
// what a site cannot say, and the order it lists the nodes in. Each is
// unavoidable, and TestImportNormalizations shows each one is needed.
// sshKey is the sample's SSH key as the site keeps it (importSSHKeys), ""
// when it is no key.
func normalizeConverted(want, got *upstream.ClusterInstance, sshKey string) {
	s := &want.Spec
	// an SSH "key" that is no key (the samples' "ssh-rsa AAAA...") is left
	// out, with a warning: install.sshKey takes only a public key (the
	// installers refuse anything else)
	s.SSHPublicKey = sshKey
	for i := range s.Nodes {
		// a role the converter leaves empty is the CRD's default, master:
		// a site's pools say the role of every node, written out
		s.Nodes[i].Role = s.Nodes[i].RoleOrDefault()
	}
	// a single node has no VIPs ("Not applicable to Single Node OpenShift"):
	// the site leaves them out, with a warning
	if len(s.Nodes) == 1 {
		s.ApiVIPs, s.IngressVIPs = nil, nil
	}
	// where the input leaves them to the operator, siteforge writes the
	// networkType, clusterNetwork and serviceNetwork (the schema's
	// defaults, the installers' own), the platformType (assisted-service's
	// choice: None for one node, else BareMetal), the clusterType (SNO for
	// one control-plane node, else HighlyAvailable) and a machineNetwork
	// from a node's address (with a warning): the site is explicit where
	// the ClusterInstance may be silent
	if s.NetworkType == "" {
		s.NetworkType = got.Spec.NetworkType
	}
	if len(s.ClusterNetwork) == 0 {
		s.ClusterNetwork = got.Spec.ClusterNetwork
	}
	if len(s.ServiceNetwork) == 0 {
		s.ServiceNetwork = got.Spec.ServiceNetwork
	}
	if s.PlatformType == "" {
		s.PlatformType = got.Spec.PlatformType
	}
	if s.ClusterType == "" {
		s.ClusterType = got.Spec.ClusterType
	}
	if len(s.MachineNetwork) == 0 {
		s.MachineNetwork = got.Spec.MachineNetwork
	}
	// the extra manifests: the converter's extra-manifests-cm is built from
	// the SiteConfig's extraManifests (the ZTP plugin's folders, not read
	// here); siteforge names its own day-0 ConfigMaps
	s.ExtraManifestsRefs = nil
	// siteforge lists the master nodes first (its pools, masters first)
	sort.SliceStable(s.Nodes, func(i, j int) bool {
		return s.Nodes[i].RoleOrDefault() == "master" && s.Nodes[j].RoleOrDefault() != "master"
	})
}

// normalizeRendered drops from a rendered ClusterInstance what siteforge
// adds of its own: the extra-manifests ConfigMaps of its day-0 manifests.
func normalizeRendered(got *upstream.ClusterInstance) {
	got.Spec.ExtraManifestsRefs = nil
}

func readClusterInstance(t *testing.T, file string) *upstream.ClusterInstance {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var ci upstream.ClusterInstance
	if err := yaml.UnmarshalStrict(b, &ci); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return &ci
}

// asData is v as JSON-decoded data (maps, lists, strings, numbers).
func asData(t *testing.T, v any) any {
	t.Helper()
	b, err := yaml.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := yaml.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func asYAML(t *testing.T, v any) string {
	t.Helper()
	b, err := yaml.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// readData reads a YAML file as data.
func readData(t *testing.T, file string) any {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := yaml.Unmarshal(b, &out); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return out
}

// TestImportRoundTrip: every bundled example that installs renders, its
// rendered install or hub folder imports (as YAML or CUE sites; the fleet's
// three hub folders as one fleet), and the imported site renders
// the same install-config, agent-config and ClusterInstance, as data. The
// one exception is the ClusterInstance's siteforge.dev/source annotation,
// which names the site rendered.
func TestImportRoundTrip(t *testing.T) {
	examples := []struct {
		name, example, release, format string
		folders                        []string // rendered folders imported together
		files                          []string // compared, relative to each site's output
		// add is CUE appended to files of a copy of the example (unified
		// in): the install fields the examples leave out
		add map[string]string
	}{
		{"agent-sno", "agent-sno", "4.18", "yaml", []string{"sno-edge/install"}, []string{"install/install-config.yaml", "install/agent-config.yaml"}, nil},
		{"disconnected-quay-cache", "disconnected-quay-cache", "4.16", "yaml", []string{"lab-disconnected/install"}, []string{"install/install-config.yaml", "install/agent-config.yaml"}, nil},
		{"aws-local-zones-ipi", "aws-local-zones-ipi", "4.16", "cue", []string{"aws-local-zones-ipi/install"}, []string{"install/install-config.yaml"}, nil},
		{"fleet", "fleet", "", "cue", []string{"store-0001/hub", "store-0002/hub", "store-0003/hub"}, []string{hub.ClusterInstancePath}, nil},
		// install-config cpuPartitioningMode and proxy (installer
		// pkg/types/installconfig.go InstallConfig CPUPartitioning, Proxy)
		{"agent-sno with cpuPartitioningMode and proxy", "agent-sno", "4.18", "yaml", []string{"sno-edge/install"}, []string{"install/install-config.yaml", "install/agent-config.yaml"},
			map[string]string{"site.cue": installShared}},
		// every ClusterInstance field a site carries as written
		{"fleet with every ClusterInstance field", "fleet", "", "yaml", []string{"store-0001/hub", "store-0002/hub", "store-0003/hub"}, []string{hub.ClusterInstancePath},
			map[string]string{"sites/store-0003/site.cue": installShared + hubFields}},
	}
	for _, ex := range examples {
		t.Run(ex.name, func(t *testing.T) {
			tmp := t.TempDir()
			first, in, second := filepath.Join(tmp, "first"), filepath.Join(tmp, "in"), filepath.Join(tmp, "second")
			src := filepath.Join("..", "..", "..", "..", "examples", ex.example)
			if len(ex.add) > 0 {
				src = filepath.Join(tmp, "example")
				if err := os.CopyFS(src, os.DirFS(filepath.Join("..", "..", "..", "..", "examples", ex.example))); err != nil {
					t.Fatal(err)
				}
				for f, text := range ex.add {
					b, err := os.ReadFile(filepath.Join(src, f))
					if err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(filepath.Join(src, f), append(b, text...), 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			if code, _, stderr := runCLI(t, "render", src, "-o", first); code != ExitOK {
				t.Fatalf("render: exit %d\n%s", code, stderr)
			}
			for f := range ex.add {
				if !strings.Contains(string(readFileT(t, filepath.Join(first, strings.Split(ex.folders[len(ex.folders)-1], "/")[0], ex.files[0]))), "cpuPartitioningMode: AllNodes") {
					t.Fatalf("%s: the fields added to %s are not rendered", ex.files[0], f)
				}
			}
			args := []string{"import", "-o", in, "--format", ex.format}
			if ex.release != "" {
				args = append(args, "--release", ex.release)
			}
			for _, f := range ex.folders {
				args = append(args, filepath.Join(first, f))
			}
			if code, _, stderr := runCLI(t, args...); code != ExitOK {
				t.Fatalf("import: exit %d\n%s", code, stderr)
			}
			if code, _, stderr := runCLI(t, "render", in, "-o", second); code != ExitOK {
				t.Fatalf("render of the import: exit %d\n%s", code, stderr)
			}
			for _, f := range ex.folders {
				siteName := strings.Split(f, "/")[0]
				for _, file := range ex.files {
					a, b := readData(t, filepath.Join(first, siteName, file)), readData(t, filepath.Join(second, siteName, file))
					dropSource(a)
					dropSource(b)
					if !reflect.DeepEqual(a, b) {
						t.Errorf("%s/%s differs after the round trip\nfirst:  %s\nsecond: %s", siteName, file, asYAML(t, a), asYAML(t, b))
					}
				}
			}
		})
	}
}

// installShared are the install fields every installer renders
// (install-config and ClusterInstance), as CUE added to a site.
const installShared = `
install: cpuPartitioningMode: "AllNodes"
install: proxy: {httpProxy: "http://proxy.example.com:3128", httpsProxy: "https://proxy.example.com:3129", noProxy: ".example.com,10.0.0.0/8"}
`

// hubFields are the ClusterInstance fields a hub site carries as written:
// install.hub's and a node's hub section, as CUE added to store-0003 (one
// node).
const hubFields = `
install: hub: {
	cpuArchitecture:        "x86_64"
	holdInstallation:       true
	installConfigOverrides: "{\"capabilities\": {\"baselineCapabilitySet\": \"None\", \"additionalEnabledCapabilities\": [\"NodeTuning\", \"OperatorLifecycleManager\", \"Ingress\"]}}"
	ignitionConfigOverride: "{\"ignition\": {\"version\": \"3.2.0\"}}"
	extraAnnotations: ManagedCluster: "example.com/owner": "stores"
	suppressedManifests: ["KlusterletAddonConfig"]
	diskEncryption: {type: "nbde", tang: [{url: "http://tang.example.com:7500", thumbprint: "1c3wJKh6TQKTghTjWgS4MlIXtGk"}]}
}
pools: master: nodes: [{
	hub: {
		nodeLabels: "node-role.kubernetes.io/master-du": ""
		installerArgs:          "[\"--append-karg\", \"nosmt\"]"
		ignitionConfigOverride: "{\"ignition\": {\"version\": \"3.2.0\"}}"
		automatedCleaningMode:  "metadata"
		ironicInspect:          "disabled"
		extraAnnotations: BareMetalHost: "example.com/rack": "r1"
		suppressedManifests: ["NMStateConfig"]
	}
}]
`

func readFileT(t *testing.T, file string) []byte {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// dropSource removes metadata.annotations["siteforge.dev/source"].
func dropSource(v any) {
	m, _ := v.(map[string]any)
	md, _ := m["metadata"].(map[string]any)
	if a, ok := md["annotations"].(map[string]any); ok {
		delete(a, "siteforge.dev/source")
		if len(a) == 0 {
			delete(md, "annotations")
		}
	}
}

// TestImportRefusesBadInput: an input that cannot be read exits 2 and
// writes nothing; so does an output folder that is not empty.
func TestImportRefusesBadInput(t *testing.T) {
	tmp := t.TempDir()
	bad := filepath.Join(tmp, "bad.yaml")
	if err := os.WriteFile(bad, []byte("apiVersion: ran.openshift.io/v1\nkind: SiteConfig\nspec: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(tmp, "out")
	code, _, stderr := runCLI(t, "import", bad, "-o", out)
	if code != ExitFailure || !strings.Contains(stderr, "bad.yaml:") {
		t.Fatalf("exit %d, want 2 with the file's position\n%s", code, stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Fatal("the output folder was written for a bad input")
	}
	entries, _ := os.ReadDir(tmp)
	if len(entries) != 1 {
		t.Fatalf("left behind: %v", entries)
	}

	good := filepath.Join("..", "..", "..", "..", "examples", "agent-sno")
	first := filepath.Join(tmp, "first")
	if code, _, stderr := runCLI(t, "render", good, "-o", first); code != ExitOK {
		t.Fatal(stderr)
	}
	if code, _, _ := runCLI(t, "import", filepath.Join(first, "sno-edge", "install"), "-o", first); code != ExitFailure {
		t.Fatalf("import into a folder that is not empty: exit %d, want 2", code)
	}
}

// TestImportNeverCopiesSecrets: the pull secret of an install-config is not
// copied, nor a day-0 MachineConfig that writes it as an Ignition data: URL,
// and a SiteConfig's secrets stay names.
func TestImportNeverCopiesSecrets(t *testing.T) {
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "install")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	const secret = `{"auths":{"quay.io":{"auth":"c2VjcmV0OnNlY3JldA=="}}}`
	ic := "apiVersion: v1\nbaseDomain: example.com\nmetadata:\n  name: lab\ncontrolPlane:\n  name: master\n  replicas: 1\ncompute:\n- name: worker\n  replicas: 0\nnetworking:\n  networkType: OVNKubernetes\n  machineNetwork:\n  - cidr: 10.0.0.0/24\nplatform:\n  none: {}\npullSecret: '" + secret + "'\n"
	if err := os.WriteFile(filepath.Join(dir, "install-config.yaml"), []byte(ic), 0o644); err != nil {
		t.Fatal(err)
	}
	// the same pull secret written by a day-0 MachineConfig, base64 in an
	// Ignition data: URL (the audit's leak: it was kept verbatim)
	mc := "apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfig\nmetadata:\n  name: 99-pull\n  labels:\n    machineconfiguration.openshift.io/role: master\nspec:\n  config:\n    ignition:\n      version: 3.2.0\n    storage:\n      files:\n      - path: /var/lib/kubelet/config.json\n        contents:\n          source: data:;base64," +
		base64.StdEncoding.EncodeToString([]byte(secret)) + "\n"
	if err := os.MkdirAll(filepath.Join(dir, "openshift"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "openshift", "99-pull.yaml"), []byte(mc), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(tmp, "out")
	code, stdout, stderr := runCLI(t, "import", dir, "-o", out)
	if code != ExitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "pullSecret is not imported") {
		t.Errorf("no warning about the pull secret:\n%s", stderr)
	}
	if !strings.Contains(stderr, "day-0 manifest openshift/99-pull.yaml holds the kubelet's copy of the global pull secret (/var/lib/kubelet/config.json): not copied") {
		t.Errorf("no warning about the MachineConfig writing the pull secret:\n%s", stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "extra-manifests", "99-pull.yaml")); err == nil {
		t.Error("the MachineConfig writing the pull secret was copied")
	}
	err := filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if bytes.Contains(b, []byte("c2VjcmV0")) || bytes.Contains(b, []byte(base64.StdEncoding.EncodeToString([]byte(secret))[:24])) {
			t.Errorf("%s holds the pull secret", p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(stdout+stderr, "c2VjcmV0") || strings.Contains(stdout+stderr, base64.StdEncoding.EncodeToString([]byte(secret))[:24]) {
		t.Error("the pull secret was printed")
	}
}

// TestImportZTPExampleFleet: the ZTP example's siteconfig folder (three
// SiteConfigs, a KlusterletAddonConfig override, a kustomization) imports
// as one fleet whose defaults hold what the three clusters share, and the
// fleet vets clean; the override is named in a warning.
func TestImportZTPExampleFleet(t *testing.T) {
	dir := filepath.Join(sharedZTP(t), "example", "siteconfig")
	out := filepath.Join(t.TempDir(), "fleet")
	code, stdout, stderr := runCLI(t, "import", dir, "-o", out)
	if code != ExitOK {
		t.Fatalf("import: exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stdout, "3 sites written") || !strings.Contains(stderr, "KlusterletAddonConfig") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", stdout, stderr)
	}
	for _, f := range []string{"defaults.yaml", "sites/example-sno/site.yaml", "sites/example-3node/site.yaml", "sites/example-standard/site.yaml"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	if code, _, stderr := runCLI(t, "vet", out); code != ExitOK {
		t.Fatalf("vet: exit %d\n%s", code, stderr)
	}
}

// TestImportNeverIntoAnInput: the output folder may not be, or lie in, an
// input folder.
func TestImportNeverIntoAnInput(t *testing.T) {
	tmp := t.TempDir()
	first := filepath.Join(tmp, "first")
	if code, _, stderr := runCLI(t, "render", filepath.Join("..", "..", "..", "..", "examples", "agent-sno"), "-o", first); code != ExitOK {
		t.Fatal(stderr)
	}
	in := filepath.Join(first, "sno-edge", "install")
	code, _, stderr := runCLI(t, "import", in, "-o", filepath.Join(in, "imported"))
	if code != ExitFailure || !strings.Contains(stderr, "output directory") {
		t.Fatalf("exit %d, want 2\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(in, "imported")); err == nil {
		t.Fatal("written into the input")
	}
}

// TestImportClusterInstanceExamples: the siteconfig operator's example
// ClusterInstances (../shared/upstream/siteconfig, from stolostron/siteconfig)
// import, vet clean, and render the same ClusterInstance spec but for the
// documented exceptions (normalizeConverted).
func TestImportClusterInstanceExamples(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "..", "..", "shared", "upstream", "siteconfig")
	files, _ := filepath.Glob(filepath.Join(dir, "*example*.yaml"))
	if len(files) == 0 {
		t.Skipf("SKIPPED: no ClusterInstance examples in %s: the import of ClusterInstances is not checked against them (the shared upstream data lives in ../shared from the repository root)", dir)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			tmp := t.TempDir()
			in, out := filepath.Join(tmp, "in"), filepath.Join(tmp, "out")
			if code, _, stderr := runCLI(t, "import", file, "-o", in); code != ExitOK {
				t.Fatalf("import: exit %d\n%s", code, stderr)
			}
			if code, _, stderr := runCLI(t, "vet", in); code != ExitOK {
				t.Fatalf("vet: exit %d\n%s", code, stderr)
			}
			if code, _, stderr := runCLI(t, "render", in, "-o", out); code != ExitOK {
				t.Fatalf("render: exit %d\n%s", code, stderr)
			}
			// the input holds fields a site has no place for (caBundleRef):
			// read loosely; the rendered one strictly
			b, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			want := &upstream.ClusterInstance{}
			if err := yaml.Unmarshal(b, want); err != nil {
				t.Fatal(err)
			}
			got := readClusterInstance(t, filepath.Join(out, want.Spec.ClusterName, hub.ClusterInstancePath))
			// every example's sshPublicKey is the placeholder "ssh-rsa
			// AAAA...", no key: the site has none
			if want.Spec.SSHPublicKey != "ssh-rsa AAAA..." {
				t.Fatalf("sshPublicKey %q: not the placeholder this test expects", want.Spec.SSHPublicKey)
			}
			normalizeConverted(want, got, "")
			normalizeRendered(got)
			if !reflect.DeepEqual(asData(t, want.Spec), asData(t, got.Spec)) {
				t.Errorf("rendered ClusterInstance spec differs from the input\ninput:    %s\nrendered: %s", asYAML(t, want.Spec), asYAML(t, got.Spec))
			}
		})
	}
}
