package rules

import "strings"

// indent puts every line of s under n spaces (an object inside a List).
func indent(s string, n int) string {
	pad := strings.Repeat(" ", n)
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = pad + l
	}
	return strings.Join(lines, "\n") + "\n"
}

// listOf wraps objects in a List, as `oc get -o yaml` exports them.
func listOf(objs ...string) string {
	out := "apiVersion: v1\nkind: List\nmetadata:\n  resourceVersion: \"\"\nitems:\n"
	for _, o := range objs {
		body := indent(o, 2)
		out += "- " + strings.TrimPrefix(body, "  ")
	}
	return out
}

func init() {
	ruleCases = append(ruleCases,
		// INP001: a file that does not parse is a finding; the others are
		// still linted (the ING002 of the other file is the second case's).
		ruleCase{rule: "INP001", name: "stray ~ line", files: map[string]string{
			"icsp.yaml": "apiVersion: operator.openshift.io/v1alpha1\nkind: ImageContentSourcePolicy\nmetadata:\n  name: ubi8repo\n~\n"},
			want: []string{"icsp.yaml:5:1: error: syntax error"}},
		ruleCase{rule: "INP001", name: "valid YAML and JSON", files: map[string]string{
			"ic.yaml": ingControllerYAML("edge", "domain: apps-edge.example.com"),
			"cm.json": `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}}`}},
		ruleCase{rule: "ING002", name: "broken file next to a real problem", files: map[string]string{
			"broken.yaml": "a: [\n", "ic.yaml": ingControllerYAML("edge", "domain: Apps_Edge.example.com")},
			want: []string{"ic.yaml:7:11: error: IngressController edge: domain must be a DNS-1123 subdomain"}},

		// INP003: templates are said, not parsed into noise or errors.
		ruleCase{rule: "INP003", name: "Jinja install-config", files: map[string]string{
			"install-config.yaml": "{% if not cluster_networks %}\napiVersion: v1\n{% endif %}\n"},
			want: []string{"install-config.yaml:1:1: info: the file is a template"}},
		ruleCase{rule: "INP003", name: "placeholder that parses as YAML", files: map[string]string{
			"ic.yaml": ingControllerYAML("default", "replicas: {{ replicas }}")},
			want: []string{"ic.yaml:7:13: info: IngressController openshift-ingress-operator/default holds a template placeholder"}},
		ruleCase{rule: "INP003", name: "template by extension", files: map[string]string{
			"icsp.yml.j2": "apiVersion: operator.openshift.io/v1alpha1\nkind: ImageContentSourcePolicy\nmetadata:\n  name: {{ name }}\n"},
			want: []string{"icsp.yml.j2:4:9: info: icsp.yml.j2 is a Jinja template"}},
		ruleCase{rule: "INP003", name: "shell heredoc", files: map[string]string{
			"agent-config.yaml": " cat << EOF > ./ocp/agent-config.yaml\napiVersion: v1alpha1\nrendezvousIP: 192.168.0.116\nEOF\n"},
			want: []string{"agent-config.yaml:1:2: info: the file is a shell heredoc"}},
		ruleCase{rule: "INP003", name: "quoted placeholders are values, not templates", files: map[string]string{
			"appset.yaml": "apiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata:\n  name: sites\nspec:\n  template:\n    metadata:\n      name: '{{name}}'\n",
			"rule.yaml":   "apiVersion: monitoring.coreos.com/v1\nkind: PrometheusRule\nmetadata:\n  name: r\nspec:\n  groups:\n  - name: g\n    rules:\n    - alert: A\n      annotations:\n        description: Pod {{ $labels.pod }} is down\n"}},
		ruleCase{rule: "INP003", name: "Helm chart", files: map[string]string{
			"charts/app/Chart.yaml":             "apiVersion: v2\nname: app\nversion: 0.1.0\n",
			"charts/app/templates/ingress.yaml": "apiVersion: operator.openshift.io/v1\nkind: IngressController\nmetadata:\n  name: {{ .Release.Name }}\nspec:\n  domain: Bad_Domain\n"},
			want: []string{"charts/app/Chart.yaml:1:1: info: Helm chart app: its templates are not linted"}},

		// INP004: the same object twice. Identical copies are read once
		// (so ING003 does not see a controller conflict with itself);
		// differing copies are a finding.
		ruleCase{rule: "INP004", name: "same controller, two contents", files: map[string]string{
			"a.yaml": ingControllerYAML("external-router", "domain: apps-x.example.com"),
			"b.yaml": ingControllerYAML("external-router", "domain: apps-x.example.com", "replicas: 2")},
			want: []string{"b.yaml:1:1: warning: IngressController openshift-ingress-operator/external-router is defined again here, differently from a.yaml:1:1"}},
		ruleCase{rule: "INP004", name: "identical copy", files: map[string]string{
			"a.yaml":      ingControllerYAML("external-router", "domain: apps-x.example.com"),
			"a copy.yaml": "# a comment\n" + ingControllerYAML("external-router", "domain:   apps-x.example.com")}},
		ruleCase{rule: "ING003", name: "identical copy is not a second controller", files: map[string]string{
			"a.yaml":      ingControllerYAML("external-router", "domain: apps-x.example.com"),
			"a copy.yaml": ingControllerYAML("external-router", "domain: apps-x.example.com")}},
		ruleCase{rule: "INP004", name: "day-0 manifest changed on day 2", files: map[string]string{
			"manifests/cluster-network-03-config.yml": strings.Replace(networkManifest, "%MTU%", "8901", 1),
			"day2/network.yaml":                       strings.Replace(networkManifest, "%MTU%", "1200", 1)}},

		// Lists are unwrapped: the IngressController inside is linted at
		// its own line.
		ruleCase{rule: "ING002", name: "IngressController in a List", files: map[string]string{
			"router-internal.yaml": listOf(ingControllerYAML("sharded", "domain: <apps-sharded.basedomain.example.net>"))},
			want: []string{"router-internal.yaml:12:13: error: IngressController sharded: domain must be a DNS-1123 subdomain"}},
		// Files without an extension that hold objects are read.
		ruleCase{rule: "ING002", name: "extensionless manifest", files: map[string]string{
			"my-router": ingControllerYAML("edge", "domain: Apps_Edge.example.com"),
			"README":    "This folder holds the routers.\n\nkubectl apply -f my-router\n"},
			want: []string{"my-router:7:11: error: IngressController edge: domain must be a DNS-1123 subdomain"}},
	)
}
