package rules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/siteforge/siteforge/generators"
	_ "github.com/siteforge/siteforge/generators/all" // a site is linted with its rendered objects, as the CLI does
	"github.com/siteforge/siteforge/internal/load"
	"github.com/siteforge/siteforge/lint"
)

// ingController renders an IngressController named name with the given spec
// lines (indented two spaces under spec:).
func ingControllerYAML(name string, spec ...string) string {
	out := "apiVersion: operator.openshift.io/v1\nkind: IngressController\nmetadata:\n  name: " + name + "\n  namespace: openshift-ingress-operator\nspec:\n"
	for _, l := range spec {
		out += "  " + l + "\n"
	}
	return out
}

// ingInstallConfigBM is a bare-metal install-config: 3 masters, workers as
// given, machine network 10.10.0.0/24 with the VIPs.
func ingInstallConfigBM(workers string) string {
	return `apiVersion: v1
baseDomain: example.com
metadata:
  name: c
platform:
  baremetal:
    apiVIPs: [10.10.0.5]
    ingressVIPs: [10.10.0.6]
controlPlane:
  name: master
  replicas: 3
compute:
- name: worker
  replicas: ` + workers + `
networking:
  networkType: OVNKubernetes
  machineNetwork:
  - cidr: 10.10.0.0/24
  clusterNetwork:
  - cidr: 10.128.0.0/14
    hostPrefix: 23
  serviceNetwork: [172.30.0.0/16]
`
}

func init() {
	notIn := []string{"domain: apps-edge.example.com", "nodePlacement:", "  nodeSelector:", "    matchExpressions:",
		"    - key: node-role.kubernetes.io/edge", "      operator: NotIn", `      values: [""]`}
	matchLabels := []string{"domain: apps-edge.example.com", "nodePlacement:", "  nodeSelector:", "    matchLabels:", `      node-role.kubernetes.io/edge: ""`}
	shard := []string{"domain: apps-edge.c.example.com", "routeSelector:", "  matchLabels:", "    type: edge"}
	hostNetworkShard := append(append([]string(nil), shard...), "endpointPublishingStrategy:", "  type: HostNetwork")
	ruleCases = append(ruleCases,
		ruleCase{rule: "ING001", name: "NotIn node selector", files: map[string]string{"ic.yaml": ingControllerYAML("edge", notIn...)},
			want: []string{`ic.yaml:12:19: error: failed to build router deployment: ingresscontroller "edge" has invalid spec.nodePlacement.nodeSelector: operator "NotIn" cannot be converted into the old label selector format`}},
		ruleCase{rule: "ING001", name: "In with two values", files: map[string]string{"ic.yaml": ingControllerYAML("edge",
			"nodePlacement:", "  nodeSelector:", "    matchExpressions:", "    - key: zone", "      operator: In", "      values: [a, b]")},
			want: []string{`ic.yaml:12:17: error: failed to build router deployment: ingresscontroller "edge" has invalid spec.nodePlacement.nodeSelector: operator "In" without a single value cannot be converted`}},
		ruleCase{rule: "ING001", name: "matchLabels node selector", files: map[string]string{"ic.yaml": ingControllerYAML("edge", matchLabels...)}},

		ruleCase{rule: "ING002", name: "domain not DNS-1123", files: map[string]string{"ic.yaml": ingControllerYAML("edge", "domain: Apps_Edge.example.com")},
			want: []string{"ic.yaml:7:11: error: IngressController edge: domain must be a DNS-1123 subdomain"}},
		ruleCase{rule: "ING002", name: "canonical hostname too long", files: map[string]string{"ic.yaml": ingControllerYAML(strings.Repeat("n", 60),
			"domain: "+strings.Repeat("a", 60)+"."+strings.Repeat("b", 60)+"."+strings.Repeat("c", 60)+".example.com")},
			want: []string{"The combined 'router-' + metadata.name + '.' + .spec.domain cannot exceed 253 characters"}},
		ruleCase{rule: "ING002", name: "valid domain", files: map[string]string{"ic.yaml": ingControllerYAML("edge", "domain: apps-edge.example.com")}},

		// the operator admits only the controllers of its namespace
		// (cluster-ingress-operator controller.go validate, InNamespace)
		ruleCase{rule: "ING003", name: "a controller outside openshift-ingress-operator takes no domain", files: map[string]string{
			"a.yaml": ingControllerYAML("a", "domain: apps-x.example.com"),
			"b.yaml": strings.Replace(ingControllerYAML("b", "domain: apps-x.example.com"), "namespace: openshift-ingress-operator", "namespace: my-ingress", 1)}},
		ruleCase{rule: "ING003", name: "two shards, one domain", files: map[string]string{
			"a.yaml": ingControllerYAML("a", "domain: apps-x.example.com"), "b.yaml": ingControllerYAML("b", "domain: apps-x.example.com")},
			want: []string{`b.yaml:7:11: error: IngressController b: domain apps-x.example.com is already the domain of IngressController "a"`}},
		ruleCase{rule: "ING003", name: "shard with the cluster's apps domain", files: map[string]string{
			"install-config.yaml": ingInstallConfigBM("3"), "ic.yaml": ingControllerYAML("a", "domain: apps.c.example.com")},
			want: []string{`ic.yaml:7:11: error: IngressController a: domain apps.c.example.com is already the domain of IngressController "default"`}},
		ruleCase{rule: "ING003", name: "distinct domains", files: map[string]string{
			"install-config.yaml": ingInstallConfigBM("3"), "a.yaml": ingControllerYAML("a", "domain: apps-a.c.example.com"),
			"b.yaml": ingControllerYAML("b", "domain: apps-b.c.example.com")}},

		// CIO controller.go setDefaultDomain gives a controller without spec.domain the Ingress
		// config's domain; validateDomainUniqueness refuses a second controller (other UID) with it.
		ruleCase{rule: "ING003", name: "default and shard both without domain", files: map[string]string{
			"default.yaml": ingControllerYAML("default", "replicas: 2"), "external.yaml": ingControllerYAML("external-router", "routeSelector:", "  matchLabels:", "    router: external")},
			want: []string{`external.yaml:7:3: error: IngressController external-router has no spec.domain, so the operator gives it the cluster ingress domain (ingress.config.openshift.io cluster spec.domain), which IngressController "default" has too: the operator admits only one controller per domain, and this one gets Admitted=False ("conflicts with: default")`}},
		ruleCase{rule: "ING003", name: "shard without domain, default with the Ingress config's domain", files: map[string]string{
			"ingress.yaml": "apiVersion: config.openshift.io/v1\nkind: Ingress\nmetadata:\n  name: cluster\nspec:\n  domain: apps.c.example.com\n",
			"default.yaml": ingControllerYAML("default", "domain: apps.c.example.com"), "shard.yaml": ingControllerYAML("shard", "replicas: 1")},
			want: []string{`shard.yaml:7:3: error: IngressController shard has no spec.domain, so the operator gives it the cluster ingress domain apps.c.example.com, which IngressController "default" has too`}},
		ruleCase{rule: "ING003", name: "shard without domain, default not in the set (the operator creates it)", files: map[string]string{
			"shard.yaml": ingControllerYAML("shard", "replicas: 1")},
			want: []string{`shard.yaml:7:3: error: IngressController shard has no spec.domain, so the operator gives it the cluster ingress domain (ingress.config.openshift.io cluster spec.domain), which IngressController "default" has too`}},
		ruleCase{rule: "ING003", name: "a shard read before the default takes the cluster domain: the shard is refused, not the default", files: map[string]string{
			"ingress.yaml": "apiVersion: config.openshift.io/v1\nkind: Ingress\nmetadata:\n  name: cluster\nspec:\n  domain: apps.c.example.com\n",
			"a.yaml":       ingControllerYAML("apps", "domain: apps.c.example.com"), "default.yaml": ingControllerYAML("default", "replicas: 2")},
			want: []string{`a.yaml:7:11: error: IngressController apps: domain apps.c.example.com is already the domain of IngressController "default"`}},
		ruleCase{rule: "ING003", name: "the same shard in two files", files: map[string]string{
			"default.yaml": ingControllerYAML("default", "replicas: 2"),
			"a.yaml":       ingControllerYAML("external-router", "domain: external-apps.c.example.com"),
			"a copy.yaml":  ingControllerYAML("external-router", "domain: external-apps.c.example.com")}},
		ruleCase{rule: "ING003", name: "the same default in two files, without domain", files: map[string]string{
			"default.yaml": ingControllerYAML("default", "replicas: 2"), "default-copy.yaml": ingControllerYAML("default", "replicas: 2")}},
		ruleCase{rule: "ING003", name: "default with its own domain, shard without, cluster domain unknown", files: map[string]string{
			"default.yaml": ingControllerYAML("default", "domain: apps.custom.example.com"), "shard.yaml": ingControllerYAML("shard", "replicas: 1")}},

		ruleCase{rule: "ING004", name: "default without exclusion", files: map[string]string{
			"default.yaml": ingControllerYAML("default", "replicas: 2"), "edge.yaml": ingControllerYAML("edge", shard...)},
			want: []string{`default.yaml:7:3: warning: the default IngressController does not exclude the routes of shard "edge" (routeSelector type=edge)`}},
		ruleCase{rule: "ING004", name: "default excludes with NotIn", files: map[string]string{
			"default.yaml": ingControllerYAML("default", "routeSelector:", "  matchExpressions:", "  - {key: type, operator: NotIn, values: [edge]}"),
			"edge.yaml":    ingControllerYAML("edge", shard...)}},
		ruleCase{rule: "ING004", name: "default not in the set", files: map[string]string{"edge.yaml": ingControllerYAML("edge", shard...)}},

		ruleCase{rule: "ING005", name: "matchLabels on the default", files: map[string]string{
			"default.yaml": ingControllerYAML("default", "routeSelector:", "  matchLabels:", "    type: public")},
			want: []string{"default.yaml:8:5: error: the default IngressController's routeSelector type=public rejects the platform's routes openshift-console/console, openshift-authentication/oauth-openshift, openshift-ingress-canary/canary"}},
		ruleCase{rule: "ING005", name: "default excluding openshift namespaces", files: map[string]string{
			"default.yaml": ingControllerYAML("default", "namespaceSelector:", "  matchExpressions:",
				"  - {key: kubernetes.io/metadata.name, operator: NotIn, values: [openshift-authentication]}")},
			want: []string{"rejects the namespaces of the platform's routes openshift-authentication/oauth-openshift"}},
		ruleCase{rule: "ING005", name: "default with NotIn exclusion", files: map[string]string{
			"default.yaml": ingControllerYAML("default", "routeSelector:", "  matchExpressions:", "  - {key: type, operator: NotIn, values: [edge]}")}},

		ruleCase{rule: "ING006", name: "two default replicas, one worker", files: map[string]string{
			"install-config.yaml": ingInstallConfigBM("1"), "edge.yaml": ingControllerYAML("edge", hostNetworkShard...)},
			want: []string{"edge.yaml:7:3: error: IngressController edge has 2 HostNetwork replicas (the operator's default) but its node selector kubernetes.io/os=linux,node-role.kubernetes.io/worker= matches 1 node(s) (install-config compute replicas)"}},
		ruleCase{rule: "ING006", name: "replicas over the labelled Node objects", files: map[string]string{
			"edge.yaml":  ingControllerYAML("edge", append(append([]string(nil), hostNetworkShard...), "replicas: 3", "nodePlacement:", "  nodeSelector:", "    matchLabels:", `      node-role.kubernetes.io/edge: ""`)...),
			"nodes.yaml": ingNodeYAML("e0", "10.10.0.31", "node-role.kubernetes.io/edge") + "---\n" + ingNodeYAML("e1", "10.10.0.32", "node-role.kubernetes.io/edge") + "---\n" + ingNodeYAML("w0", "10.10.0.21")},
			want: []string{"edge.yaml:13:13: error: IngressController edge has 3 HostNetwork replicas (spec.replicas) but its node selector node-role.kubernetes.io/edge= matches 2 node(s) (Node objects of the set)"}},
		ruleCase{rule: "ING006", name: "one replica, one worker", files: map[string]string{
			"install-config.yaml": ingInstallConfigBM("1"), "edge.yaml": ingControllerYAML("edge", append(hostNetworkShard, "replicas: 1")...)}},

		ruleCase{rule: "ING007", name: "shard on the default router's nodes and ports", files: map[string]string{
			"install-config.yaml": ingInstallConfigBM("3"), "edge.yaml": ingControllerYAML("edge", shard...)},
			want: []string{`edge.yaml:7:3: error: HostNetwork routers "default" and "edge" both run on the nodes kubernetes.io/os=linux,node-role.kubernetes.io/worker= selects and bind host port 80 (HTTP of "edge", HTTP of "default"), 443 (HTTPS of "edge", HTTPS of "default"), 1936 (stats of "edge", stats of "default")`}},
		ruleCase{rule: "ING007", name: "ports not unique", files: map[string]string{
			"edge.yaml": ingControllerYAML("edge", "endpointPublishingStrategy:", "  type: HostNetwork", "  hostNetwork: {httpPort: 8080, httpsPort: 8080, statsPort: 1937}")},
			want: []string{"edge.yaml:9:18: error: IngressController edge: the specified HTTPS, HTTP and Stats ports 8080, 8080, 1937 are not unique"}},
		ruleCase{rule: "ING007", name: "shard on its own ports", files: map[string]string{
			"install-config.yaml": ingInstallConfigBM("3"),
			"edge.yaml":           ingControllerYAML("edge", append(shard, "endpointPublishingStrategy:", "  type: HostNetwork", "  hostNetwork: {httpPort: 8080, httpsPort: 8443, statsPort: 1937}")...)}},

		ruleCase{rule: "ING008", name: "default router on the remote workers", files: map[string]string{
			"install-config.yaml": ingInstallConfigBM("3"),
			"default.yaml":        ingControllerYAML("default", "nodePlacement:", "  nodeSelector:", "    matchLabels:", `      node.openshift.io/remote-worker: ""`)},
			want: []string{"default.yaml:9:7: error: the default router's node selector node.openshift.io/remote-worker= selects the remote workers"}},
		ruleCase{rule: "ING008", name: "default router on workers of another subnet", files: map[string]string{
			"install-config.yaml": ingInstallConfigBM("3"),
			"nodes.yaml":          ingNodeYAML("w0", "10.10.0.21", "node-role.kubernetes.io/worker") + "---\n" + ingNodeYAML("w9", "10.20.0.21", "node-role.kubernetes.io/worker")},
			want: []string{"install-config.yaml:8:18: error: the default router's node selector kubernetes.io/os=linux,node-role.kubernetes.io/worker= matches nodes outside the ingress VIP 10.10.0.6's subnet: w9"}},
		ruleCase{rule: "ING008", name: "default router on the masters", files: map[string]string{
			"install-config.yaml": ingInstallConfigBM("3"),
			"default.yaml":        ingControllerYAML("default", "nodePlacement:", "  nodeSelector:", "    matchLabels:", `      node-role.kubernetes.io/master: ""`),
			"nodes.yaml":          ingNodeYAML("m0", "10.10.0.11", "node-role.kubernetes.io/master") + "---\n" + ingNodeYAML("w9", "10.20.0.21", "node-role.kubernetes.io/worker")}},
	)
}

// ingNodeYAML is a Node object with an InternalIP, the OS label and the given
// labels (value ""), plus extra annotation lines.
func ingNodeYAML(name, ip string, labels ...string) string {
	out := "apiVersion: v1\nkind: Node\nmetadata:\n  name: " + name + "\n  labels:\n    kubernetes.io/os: linux\n"
	for _, l := range labels {
		out += "    " + l + `: ""` + "\n"
	}
	return out + "status:\n  addresses:\n  - type: InternalIP\n    address: " + ip + "\n"
}

// ingSiteYAML is a bare-metal site: masters and workers in 10.10.0.0/24 with
// the VIPs, and a pool "far" of two workers in 10.20.0.0/24 (not marked
// remote), plus extra top-level YAML.
const ingSiteYAML = `apiVersion: siteforge.dev/v1alpha1
kind: Site
name: s
cluster:
  baseDomain: example.com
  version: "4.16"
  platform: baremetal
  installMethod: agent
  lifecycle: running
network:
  machineNetwork: [10.10.0.0/24, 10.20.0.0/24]
  apiVIPs: [10.10.0.5]
  ingressVIPs: [10.10.0.6]
pools:
  master:
    uplinkInterface: eno1
    uplinkMTU: 1500
    nodes:
    - {name: m0, ip: 10.10.0.11}
    - {name: m1, ip: 10.10.0.12}
    - {name: m2, ip: 10.10.0.13}
  worker:
    uplinkInterface: eno1
    uplinkMTU: 1500
    nodes:
    - {name: w0, ip: 10.10.0.21}
`

// ingLintSite loads and renders a site and lints it with the rules given.
func ingLintSite(t *testing.T, content string, enable ...string) []string {
	t.Helper()
	dir := t.TempDir()
	p := filepath.Join(dir, "site.yaml")
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	res := load.Load([]string{p})
	if len(res.Diagnostics) > 0 {
		t.Fatalf("site does not load: %v", res.Diagnostics)
	}
	s := res.Sites[0]
	o, err := generators.Render(s, generators.Options{})
	if err != nil {
		t.Fatalf("site does not render: %v", err)
	}
	objs, origin, err := o.Objects()
	if err != nil {
		t.Fatal(err)
	}
	ls := &lint.Site{Site: s, Objects: objs, Origin: origin}
	out, err := lint.Run(&lint.Input{Sites: []*lint.Site{ls}}, lint.Options{Enable: enable})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range out.Findings {
		got = append(got, f.Pos.String()+": "+f.Severity.String()+": "+f.Message+" ["+f.Rule+"]")
	}
	return got
}

// TestSiteRouters: what a site leaves to the operator, judged.
func TestSiteRouters(t *testing.T) {
	far := `  far:
    role: custom
    uplinkInterface: eno1
    uplinkMTU: 1500
    nodes:
    - {name: f0, ip: 10.20.0.21}
    - {name: f1, ip: 10.20.0.22}
`
	for _, tc := range []struct {
		name, site string
		rules      []string
		want       []string
	}{
		{"one worker: two default replicas do not fit", ingSiteYAML, []string{"ING006"},
			[]string{`error: router "default" gets the operator's default of 2 HostNetwork replicas, but can run on 1 node(s) (pools worker)`}},
		{"default placement reaches a pool off the VIP's subnet", ingSiteYAML + far, []string{"ING008"},
			[]string{`site.yaml:27:3: error: the default router would run on pool "far", whose nodes f0, f1 sit in subnets 10.20.0.0/24, which do not contain the ingress VIP 10.10.0.6`}},
		{"default pinned to the masters", ingSiteYAML + far + "ingress:\n  default:\n    pools: [master]\n", []string{"ING006", "ING008"}, nil},
		{"shard served by the default router too", ingSiteYAML + `ingress:
  default: {pools: [master]}
  shards:
    edge:
      domain: apps-edge.s.example.com
      pools: [worker]
      replicas: 1
      routeSelector: {matchLabels: {type: edge}}
      ports: {http: 8080, https: 8443, stats: 1937}
      excludeFromDefault: false
`, []string{"ING004"}, []string{`site.yaml:36:27: warning: shard "edge" has excludeFromDefault: false`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ingLintSite(t, tc.site, tc.rules...)
			if len(got) != len(tc.want) {
				t.Fatalf("got %d findings, want %d:\n  %s", len(got), len(tc.want), strings.Join(got, "\n  "))
			}
			for i, w := range tc.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("finding %d:\n  %s\nwant it to contain\n  %s", i, got[i], w)
				}
			}
		})
	}
}
