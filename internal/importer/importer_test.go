package importer

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/siteforge/siteforge/internal/upstream"
)

const twoClusters = `apiVersion: ran.openshift.io/v1
kind: SiteConfig
metadata:
  name: two
  namespace: two
spec:
  baseDomain: example.com
  pullSecretRef:
    name: ps
  clusterImageSetNameRef: openshift-4.18
  sshPublicKey: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDlGLc2V2M4TMQ1p9 core
  clusters:
  - clusterName: a
    networkType: OVNKubernetes
    machineNetwork:
    - cidr: 10.0.0.0/24
    clusterLabels:
      common: true
      site: a
    holdInstallation: true
    unknownField: 1
    nodes:
    - hostName: a0
      bmcAddress: redfish-virtualmedia://10.0.9.1/redfish/v1/Systems/1
      bmcCredentialsName:
        name: a0-bmc
      bootMACAddress: "52:54:00:00:00:01"
  - clusterName: b
    networkType: OVNKubernetes
    clusterImageSetNameRef: openshift-4.19
    machineNetwork:
    - cidr: 10.0.1.0/24
    clusterLabels:
      common: true
      site: b
    nodes:
    - hostName: b0
      bmcAddress: redfish-virtualmedia://10.0.9.2/redfish/v1/Systems/1
      bmcCredentialsName:
        name: b0-bmc
      bootMACAddress: "52:54:00:00:00:02"
`

// clusterInstanceHead starts a test ClusterInstance s1 (release 4.18), up to
// the fields of its spec each test adds.
const clusterInstanceHead = `apiVersion: siteconfig.open-cluster-management.io/v1alpha1
kind: ClusterInstance
metadata:
  name: s1
  namespace: s1
spec:
  clusterName: s1
  baseDomain: example.com
  pullSecretRef:
    name: ps
  clusterImageSetNameRef: openshift-4.18
`

// oneMasterSpec ends the spec of a test ClusterInstance: its machine
// network, the bundled templates and one master node.
const oneMasterSpec = `  machineNetwork:
  - cidr: 10.0.0.0/24
  templateRefs:
  - name: ai-cluster-templates-v1
    namespace: open-cluster-management
  nodes:
  - hostName: n0
    role: master
    bmcAddress: redfish-virtualmedia://10.0.9.1/redfish/v1/Systems/1
    bmcCredentialsName:
      name: n0-bmc
    bootMACAddress: "52:54:00:00:00:01"
    templateRefs:
    - name: ai-node-templates-v1
      namespace: open-cluster-management
`

// sno is the install-config of a single-node agent or none install.
const sno = "apiVersion: v1\nbaseDomain: example.com\nmetadata:\n  name: lab\ncontrolPlane:\n  name: master\n  replicas: 1\nnetworking:\n  machineNetwork:\n  - cidr: 10.0.0.0/24\nplatform:\n  none: {}\n"

// writeFiles writes files (path relative to dir: text) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// warningLines are a site's warnings, one "file:line:col message" a line
// (the file's base name).
func warningLines(s *Site) string {
	var msgs []string
	for _, w := range s.Warnings {
		msgs = append(msgs, filepath.Base(w.Pos.File)+":"+w.Pos.String()[len(w.Pos.File)+1:]+" "+w.Message)
	}
	return strings.Join(msgs, "\n")
}

func writeInput(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestFleetFactoring: two clusters become a fleet whose defaults hold what
// both share, and each site only what is its own.
func TestFleetFactoring(t *testing.T) {
	res, errs := Import([]string{writeInput(t, "sc.yaml", twoClusters)}, Options{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	files, err := res.Files("yaml")
	if err != nil {
		t.Fatal(err)
	}
	var defaults, a map[string]any
	if err := yaml.Unmarshal(files["defaults.yaml"], &defaults); err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(files["sites/a/site.yaml"], &a); err != nil {
		t.Fatal(err)
	}
	wantDefaults := map[string]any{
		"apiVersion": "siteforge.dev/v1alpha1", "kind": "Site",
		"cluster": map[string]any{"baseDomain": "example.com", "installMethod": "assisted", "lifecycle": "install", "platform": "none"},
		"install": map[string]any{"hub": map[string]any{"pullSecretRef": "ps", "clusterLabels": map[string]any{"common": "true"}},
			"sshKey": "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIDlGLc2V2M4TMQ1p9 core"},
		"network": map[string]any{"type": "OVNKubernetes"},
		"pools":   map[string]any{"master": map[string]any{"uplinkInterface": "eno1", "uplinkMTU": float64(1500)}},
	}
	if !reflect.DeepEqual(defaults, wantDefaults) {
		t.Errorf("defaults:\n%s", files["defaults.yaml"])
	}
	if a["name"] != "a" || a["kind"] != nil || a["cluster"].(map[string]any)["version"] != "4.18" {
		t.Errorf("site a:\n%s", files["sites/a/site.yaml"])
	}
	// the warnings are positioned in the SiteConfig and listed in the site
	var msgs []string
	for _, w := range res.Sites[0].Warnings {
		msgs = append(msgs, w.Pos.String()+" "+w.Message)
	}
	all := strings.Join(msgs, "\n")
	for _, want := range []string{"sc.yaml:21:5 spec.clusters.0.unknownField is not imported"} {
		if !strings.Contains(all, want) {
			t.Errorf("no warning %q in:\n%s", want, all)
		}
	}
	if !strings.Contains(string(files["sites/a/site.yaml"]), "unknownField is not imported") {
		t.Errorf("the site file does not list its warnings:\n%s", files["sites/a/site.yaml"])
	}
	// a ClusterInstance field the site carries as written: site a's own
	if hub, _ := a["install"].(map[string]any)["hub"].(map[string]any); hub["holdInstallation"] != true {
		t.Errorf("site a: install.hub.holdInstallation not imported:\n%s", files["sites/a/site.yaml"])
	}
}

// TestImportRefusesTwice: a cluster imported twice is an error.
func TestImportRefusesTwice(t *testing.T) {
	p := writeInput(t, "sc.yaml", twoClusters)
	if _, errs := Import([]string{p, p}, Options{}); len(errs) == 0 || !strings.Contains(errs.Error(), "imported twice") {
		t.Fatalf("errors %v", errs)
	}
}

// TestClusterInstanceWarnings: what a ClusterInstance holds beyond a site is
// named, at its key: an unknown field, a label, a ConfigMap not among the
// inputs; a ConfigMap among them is kept verbatim.
func TestClusterInstanceWarnings(t *testing.T) {
	dir := t.TempDir()
	ci := `apiVersion: siteconfig.open-cluster-management.io/v1alpha1
kind: ClusterInstance
metadata:
  name: s1
  namespace: s1
  labels:
    team: edge
spec:
  clusterName: s1
  baseDomain: example.com
  pullSecretRef:
    name: ps
  clusterImageSetNameRef: img4.17.3-x86-64
  caBundleRef:
    name: ca
  extraManifestsRefs:
  - name: found
  - name: missing
` + oneMasterSpec
	cm := `apiVersion: v1
kind: ConfigMap
metadata:
  name: found
  namespace: s1
data:
  99-extra.yaml: |
    apiVersion: v1
    kind: Namespace
    metadata:
      name: extra
`
	writeFiles(t, dir, map[string]string{"ci.yaml": ci, "cm.yaml": cm})
	res, errs := Import([]string{dir}, Options{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	s := res.Sites[0]
	all := warningLines(s)
	for _, want := range []string{
		"ci.yaml:7:5 label team of the ClusterInstance has no place",
		"ci.yaml:14:3 spec.caBundleRef is not imported",
		"ci.yaml:18:5 ConfigMap missing of extraManifestsRefs is not among the inputs",
		"cm.yaml:7:3 extra manifest 99-extra.yaml of ConfigMap found is kept verbatim in extra-manifests/99-extra.yaml",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("no warning %q in:\n%s", want, all)
		}
	}
	if got := string(s.Extra["extra-manifests/99-extra.yaml"]); !strings.Contains(got, "name: extra") {
		t.Errorf("extra manifest %q", got)
	}
	if v := s.Data["cluster"].(map[string]any)["version"]; v != "4.17" {
		t.Errorf("version %v, want 4.17 from the ClusterImageSet name", v)
	}
}

// TestImportRefusesNamelessCluster: a cluster without a name cannot be a
// site: an error at the cluster.
func TestImportRefusesNamelessCluster(t *testing.T) {
	p := writeInput(t, "sc.yaml", strings.Replace(twoClusters, "clusterName: b", "clusterName: \"\"", 1))
	_, errs := Import([]string{p}, Options{})
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "sc.yaml:28:18:") || !strings.Contains(errs[0].Message, "cannot name a site") {
		t.Fatalf("errors %v", errs)
	}
}

// TestInstallDirSecretsNotCopied: a day-0 manifest holding a Secret, or a
// credential, is named and not copied; another is kept verbatim.
func TestInstallDirSecretsNotCopied(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"install-config.yaml":     sno,
		"openshift/secret.yaml":   "apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n  namespace: openshift-config\nstringData:\n  value: opaque\n",
		"openshift/proxy.yaml":    "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  url: http://user:pass@proxy.example.com:3128\n",
		"openshift/99-plain.yaml": "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: plain\n",
	}
	writeFiles(t, dir, files)
	res, errs := Import([]string{dir}, Options{Release: "4.18"})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	s := res.Sites[0]
	if _, ok := s.Extra["extra-manifests/99-plain.yaml"]; !ok || len(s.Extra) != 1 {
		t.Errorf("kept %v, want only 99-plain.yaml", sortedKeys(s.Extra))
	}
	n := 0
	for _, w := range s.Warnings {
		if strings.Contains(w.Message, "not copied (siteforge never copies a secret)") {
			n++
		}
	}
	if n != 2 {
		t.Errorf("%d warnings about secrets, want 2: %v", n, s.Warnings)
	}
}

// TestBMCAddressCredentialNotCopied: a BMC address with a password in it is
// left out, with a warning, and the password is in no file.
func TestBMCAddressCredentialNotCopied(t *testing.T) {
	bmcAddressLeftOut(t, "redfish-virtualmedia://admin:s3cr3tpass@10.0.9.1/", "s3cr3tpass", "the BMC password")
}

// TestBMCAddressUserNotCopied: a BMC address with a user name and no
// password (redfish://admin@host) is left out with a warning too, as vet
// refuses it (internal/load: user-info in a BMC address), rather than
// imported into a site vet refuses.
func TestBMCAddressUserNotCopied(t *testing.T) {
	bmcAddressLeftOut(t, "redfish-virtualmedia://bmcadmin@10.0.9.1/", "bmcadmin@", "the BMC address with its user-info")
}

// bmcAddressLeftOut imports twoClusters with the first BMC address replaced
// by address: no written file holds secret (what), and the site warns that
// the address holds a credential.
func bmcAddressLeftOut(t *testing.T, address, secret, what string) {
	t.Helper()
	p := writeInput(t, "sc.yaml", strings.Replace(twoClusters, "redfish-virtualmedia://10.0.9.1/", address, 1))
	res, errs := Import([]string{p}, Options{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	files, err := res.Files("yaml")
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range files {
		if strings.Contains(string(b), secret) {
			t.Errorf("%s holds %s", name, what)
		}
	}
	found := false
	for _, w := range res.Sites[0].Warnings {
		found = found || strings.Contains(w.Message, "bmcAddress holds a credential")
	}
	if !found {
		t.Error("no warning about the BMC address")
	}
}

// pullSecretMachineConfig is a MachineConfig writing a pull secret to the
// kubelet's config.json through an Ignition data: URL source (compression
// "" or "gzip").
func pullSecretMachineConfig(name, source, compression string) string {
	comp := ""
	if compression != "" {
		comp = "\n          compression: " + compression
	}
	return `apiVersion: machineconfiguration.openshift.io/v1
kind: MachineConfig
metadata:
  name: ` + name + `
  labels:
    machineconfiguration.openshift.io/role: master
spec:
  config:
    ignition:
      version: 3.2.0
    storage:
      files:
      - path: /var/lib/kubelet/config.json
        mode: 420
        overwrite: true
        contents:` + comp + `
          source: ` + source + "\n"
}

// TestMachineConfigPullSecretNotCopied reproduces the audit's leak: a
// MachineConfig that writes a pull secret to /var/lib/kubelet/config.json
// as an Ignition data: URL (base64, percent-encoded, gzip-compressed), in
// an installation folder and in an extra-manifests ConfigMap of a
// ClusterInstance, was kept verbatim in extra-manifests/ (the line check
// saw no credential in the URL). Each is named in a warning and never
// written; no file of the import holds the secret in any encoding.
func TestMachineConfigPullSecretNotCopied(t *testing.T) {
	const auth = "dXNlcjpodW50ZXIyaHVudGVyMg==" // user:hunter2hunter2
	pullSecret := `{"auths":{"quay.io":{"auth":"` + auth + `","email":"x@example.com"}}}`
	b64 := base64.StdEncoding.EncodeToString([]byte(pullSecret))
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(pullSecret))
	zw.Close()
	gz64 := base64.StdEncoding.EncodeToString(gz.Bytes())
	mcs := map[string]string{
		"99-base64.yaml": pullSecretMachineConfig("99-base64", "data:;base64,"+b64, ""),
		"99-urlenc.yaml": pullSecretMachineConfig("99-urlenc", "data:,"+url.PathEscape(pullSecret), ""),
		"99-gzip.yaml":   pullSecretMachineConfig("99-gzip", "data:;base64,"+gz64, "gzip"),
		// the same shape, writing no credential: kept
		"99-harmless.yaml": strings.Replace(pullSecretMachineConfig("99-harmless", "data:,server%20ntp.example.com", ""),
			"/var/lib/kubelet/config.json", "/etc/chrony.d/x.conf", 1),
	}
	secretBytes := []string{auth, b64, gz64, url.PathEscape(pullSecret)[:40], "hunter2"}

	// an installation folder
	dir := t.TempDir()
	files := map[string]string{"install-config.yaml": sno}
	for name, mc := range mcs {
		files["openshift/"+name] = mc
	}
	writeFiles(t, dir, files)
	// a ClusterInstance with the same MachineConfigs in its extra-manifests ConfigMap
	hubDir := t.TempDir()
	cm := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: extra\n  namespace: s1\ndata:\n"
	for _, name := range sortedKeys(mcs) {
		cm += "  " + name + ": |\n"
		for _, l := range strings.Split(strings.TrimSuffix(mcs[name], "\n"), "\n") {
			cm += "    " + l + "\n"
		}
	}
	ci := clusterInstanceHead + `  extraManifestsRefs:
  - name: extra
` + oneMasterSpec
	writeFiles(t, hubDir, map[string]string{"ci.yaml": ci, "cm.yaml": cm})

	for _, in := range []string{dir, hubDir} {
		res, errs := Import([]string{in}, Options{Release: "4.18"})
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		s := res.Sites[0]
		if got := sortedKeys(s.Extra); len(got) != 1 || got[0] != "extra-manifests/99-harmless.yaml" {
			t.Errorf("%s: kept %v, want only extra-manifests/99-harmless.yaml", filepath.Base(in), got)
		}
		for _, name := range []string{"99-base64.yaml", "99-urlenc.yaml", "99-gzip.yaml"} {
			found := false
			for _, w := range s.Warnings {
				found = found || strings.Contains(w.Message, name) &&
					strings.Contains(w.Message, "holds the kubelet's copy of the global pull secret (/var/lib/kubelet/config.json): not copied")
			}
			if !found {
				t.Errorf("%s: no warning naming %s as a credential: %v", filepath.Base(in), name, s.Warnings)
			}
		}
		out, err := res.Files("yaml")
		if err != nil {
			t.Fatal(err)
		}
		for name, b := range out {
			for _, secret := range secretBytes {
				if bytes.Contains(b, []byte(secret)) {
					t.Errorf("%s: %s holds the pull secret (%.12s...)", filepath.Base(in), name, secret)
				}
			}
		}
	}
}

// TestClusterInstanceFieldsAsWritten: the ClusterInstance fields a site
// carries are imported as written (install, install.hub, a node's hub),
// but for what vet would refuse or what holds a credential: each of those
// is left out with a warning at its field, and no file holds it.
func TestClusterInstanceFieldsAsWritten(t *testing.T) {
	ci := clusterInstanceHead + `  cpuPartitioningMode: AllNodes
  cpuArchitecture: s390x
  holdInstallation: true
  proxy:
    httpProxy: http://admin:hunter2@proxy.example.com:3128
  installConfigOverrides: '{"capabilities": {"baselineCapabilitySet": "None"}}'
  ignitionConfigOverride: '{"storage": {"files": [{"path": "/root/.docker/config.json", "contents": {"source": "data:,x"}}]}}'
  suppressedManifests: [KlusterletAddonConfig]
  diskEncryption:
    type: nbde
    tang:
    - url: http://tang.example.com:7500
      thumbprint: abc
` + oneMasterSpec + `    nodeLabels:
      node-role.kubernetes.io/master-du: ""
    installerArgs: --append-karg nosmt
    automatedCleaningMode: metadata
    ironicInspect: disabled
    extraAnnotations:
      BareMetalHost:
        example.com/rack: r1
`
	res, errs := Import([]string{writeInput(t, "ci.yaml", ci)}, Options{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	s := res.Sites[0]
	install := s.Data["install"].(map[string]any)
	hub := install["hub"].(map[string]any)
	node := s.Data["pools"].(map[string]any)["master"].(map[string]any)["nodes"].([]any)[0].(map[string]any)
	for what, got := range map[string]any{
		"cpuPartitioningMode": install["cpuPartitioningMode"], "holdInstallation": hub["holdInstallation"],
		"installConfigOverrides": hub["installConfigOverrides"], "suppressedManifests": hub["suppressedManifests"],
		"diskEncryption.type": hub["diskEncryption"].(map[string]any)["type"],
		"node nodeLabels":     node["hub"].(map[string]any)["nodeLabels"], "node automatedCleaningMode": node["hub"].(map[string]any)["automatedCleaningMode"],
		"node ironicInspect": node["hub"].(map[string]any)["ironicInspect"], "node extraAnnotations": node["hub"].(map[string]any)["extraAnnotations"],
	} {
		if got == nil {
			t.Errorf("%s not imported", what)
		}
	}
	for _, key := range []string{"proxy", "cpuArchitecture", "ignitionConfigOverride"} {
		if install[key] != nil || hub[key] != nil {
			t.Errorf("%s imported, want it left out", key)
		}
	}
	if node["hub"].(map[string]any)["installerArgs"] != nil {
		t.Error("installerArgs that are no JSON imported")
	}
	all := warningLines(s)
	for _, want := range []string{
		"ci.yaml:13:3 cpuArchitecture \"s390x\" is not imported: the ClusterInstance takes one of [x86_64 aarch64 multi]",
		"ci.yaml:15:3 proxy holds a credential (user-info in a URL): left out",
		"ci.yaml:18:3 ignitionConfigOverride holds registry credentials (/root/.docker/config.json): left out",
		"ci.yaml:42:5 installerArgs is not a valid JSON document: the siteconfig operator refuses the ClusterInstance: left out",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("no warning %q in:\n%s", want, all)
		}
	}
	files, err := res.Files("yaml")
	if err != nil {
		t.Fatal(err)
	}
	for name, b := range files {
		if strings.Contains(string(b), "hunter2") || strings.Contains(string(b), ".docker/config.json\", \"contents") {
			t.Errorf("%s holds a credential", name)
		}
	}
}

// TestInstallConfigSharedFields: install-config cpuPartitioningMode and
// proxy are imported into install, as the ClusterInstance's are.
func TestInstallConfigSharedFields(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"install-config.yaml": sno + "cpuPartitioningMode: AllNodes\nproxy:\n  httpProxy: http://proxy.example.com:3128\n  noProxy: .example.com\n"})
	res, errs := Import([]string{dir}, Options{Release: "4.18"})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	install := res.Sites[0].Data["install"].(map[string]any)
	want := map[string]any{"httpProxy": "http://proxy.example.com:3128", "noProxy": ".example.com"}
	if install["cpuPartitioningMode"] != "AllNodes" || !reflect.DeepEqual(install["proxy"], want) {
		t.Errorf("install %v", install)
	}
}

// TestProxyUserInfo: a proxy URL with user-info, a password or not, is left
// out with a warning; a proxy whose host name holds a word such as auth is
// no credential (credential.Find's key-name heuristic took it for one).
func TestProxyUserInfo(t *testing.T) {
	for _, tc := range []struct {
		proxy upstream.Proxy
		kept  bool
	}{
		{upstream.Proxy{HTTPProxy: "http://user:hunter2@proxy.example.com:3128"}, false},
		{upstream.Proxy{HTTPSProxy: "https://user@proxy.example.com:3128"}, false},
		{upstream.Proxy{HTTPProxy: "http://auth.example.com:3128", HTTPSProxy: "http://token-proxy.example.com:3128", NoProxy: ".example.com"}, true},
	} {
		var warnings []string
		got := proxyOf(&tc.proxy, func(msg, hint string) { warnings = append(warnings, msg) })
		if kept := got != nil; kept != tc.kept || kept == (len(warnings) > 0) {
			t.Errorf("%+v: imported %v, warnings %q", tc.proxy, got, warnings)
		}
	}
}
