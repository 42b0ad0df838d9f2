package ingress

import (
	"maps"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	operatorv1 "github.com/openshift/api/operator/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"

	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/internal/_fidelity"
	"github.com/siteforge/siteforge/internal/cluster/routing"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/load"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/site"
)

func nodeList(prefix, subnet string, n int) []site.Node {
	var out []site.Node
	for i := 0; i < n; i++ {
		out = append(out, site.Node{Name: prefix + "-" + string(rune('0'+i)), IP: subnet + string(rune('1'+i))})
	}
	return out
}

// baseSite is a 4.14 baremetal IPI site (remote workers detected
// automatically, no manual method) with four pools:
//
//	master  role master                  3 nodes
//	worker  role worker   site=a         3 nodes
//	infra   custom        site=a tier=infra   2 nodes
//	edge    custom        site=b         3 nodes
func baseSite() *site.Site {
	return &site.Site{
		Name:   "t",
		Source: "site.cue",
		Cluster: site.Cluster{Name: "t", BaseDomain: "example.com", Version: "4.14", Platform: "baremetal",
			InstallMethod: "ipi", Lifecycle: "running"},
		Network: site.Network{Type: "OVNKubernetes", MachineNetwork: []string{"10.10.0.0/24", "10.20.0.0/24"},
			APIVIPs: []string{"10.10.0.5"}, IngressVIPs: []string{"10.10.0.6"}},
		Pools: map[string]site.Pool{
			"master": {Name: "master", Role: site.RoleMaster, Placement: "plain", Nodes: nodeList("m", "10.10.0.1", 3)},
			"worker": {Name: "worker", Role: site.RoleWorker, Placement: "plain", Nodes: nodeList("w", "10.10.0.2", 3), Labels: map[string]string{"site": "a"}},
			"infra":  {Name: "infra", Role: site.RoleCustom, Placement: "plain", Nodes: nodeList("i", "10.10.0.3", 2), Labels: map[string]string{"site": "a", "tier": "infra"}},
			"edge":   {Name: "edge", Role: site.RoleCustom, Placement: "plain", Subnets: []string{"10.20.0.0/24"}, Nodes: nodeList("e", "10.20.0.1", 3), Labels: map[string]string{"site": "b"}},
		},
		Ingress: &site.Ingress{Shards: map[string]site.Shard{}},
	}
}

func shard(mod func(*site.Shard)) site.Shard {
	sh := site.Shard{
		Domain:             "apps-x.t.example.com",
		RouteSelector:      &site.LabelSelector{MatchLabels: map[string]string{"type": "x"}},
		EndpointPublishing: platform.PublishingHostNetwork,
		ExcludeFromDefault: true,
		Pools:              []string{"edge"},
		Ports:              &site.Ports{HTTP: 8080, HTTPS: 8443, Stats: 1937},
	}
	if mod != nil {
		mod(&sh)
	}
	return sh
}

func sel(labels map[string]string, exprs ...site.Requirement) *site.LabelSelector {
	return &site.LabelSelector{MatchLabels: labels, MatchExpressions: exprs}
}

func req(key, op string, values ...string) site.Requirement {
	return site.Requirement{Key: key, Operator: op, Values: values}
}

// renderSite renders the site with every generator the test binary links
// (ingress and pools).
func renderSite(t *testing.T, s *site.Site) (*generators.Output, error) {
	t.Helper()
	return generators.Render(s, generators.Options{})
}

func mustRender(t *testing.T, s *site.Site) *generators.Output {
	t.Helper()
	out, err := renderSite(t, s)
	if err != nil {
		t.Fatalf("render: %v", err)
	}
	checkFidelity(t, out)
	return out
}

// checkFidelity runs every Resource and every YAML File through the
// fidelity checker.
func checkFidelity(t *testing.T, out *generators.Output) {
	t.Helper()
	for _, p := range out.Paths() {
		if p == generators.KustomizationFile || !(strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) {
			continue
		}
		if err := fidelity.Check(out.Files[p]); err != nil {
			t.Errorf("%s: %v\n%s", p, err, out.Files[p])
		}
	}
}

func expectDiag(t *testing.T, err error, want ...string) {
	t.Helper()
	dl, ok := err.(diag.List)
	if !ok {
		t.Fatalf("got %v, want a diag.List containing %q", err, want)
	}
	for _, w := range want {
		if !strings.Contains(dl.Error(), w) {
			t.Errorf("diagnostics lack %q:\n%v", w, dl)
		}
	}
}

func TestPlacementTranslation(t *testing.T) {
	const refusedNotIn = `failed to build router deployment: ingresscontroller "x" has invalid spec.nodePlacement.nodeSelector: operator "NotIn" cannot be converted into the old label selector format`
	for _, tc := range []struct {
		name      string
		pools     []string
		selector  *site.LabelSelector
		want      string // the emitted matchLabels, as "k=v,..."
		wantPools string
		refused   string
	}{
		{name: "matchLabels kept", selector: sel(map[string]string{"tier": "infra"}), want: "tier=infra", wantPools: "infra"},
		{name: "In with one value becomes matchLabels", selector: sel(nil, req("site", "In", "b")), want: "site=b", wantPools: "edge"},
		{name: "In with several values translated", selector: sel(nil, req("site", "In", "a", "b")), want: "node-role.kubernetes.io/worker=", wantPools: "edge,infra,worker"},
		{name: "NotIn translated", selector: sel(map[string]string{"site": "a"}, req("tier", "NotIn", "gpu")), want: "site=a", wantPools: "infra,worker"},
		{name: "NotIn refused: no label is carried by exactly its pools", selector: sel(map[string]string{"site": "a"}, req("tier", "NotIn", "infra")),
			refused: refusedNotIn + "; it selects the nodes of pools worker"},
		{name: "Exists translated", selector: sel(nil, req("tier", "Exists")), want: "node-role.kubernetes.io/infra=", wantPools: "infra"},
		{name: "DoesNotExist translated (masters, tolerated)", selector: sel(nil, req("site", "DoesNotExist")), want: "node-role.kubernetes.io/master=", wantPools: "master"},
		{name: "DoesNotExist refused when it matches no pool", selector: sel(nil, req("kubernetes.io/os", "DoesNotExist")),
			refused: `operator "DoesNotExist" cannot be converted into the old label selector format; it matches no pool of the site`},
		{name: "Exists translated to the role label", selector: sel(nil, req("site", "Exists")), want: "node-role.kubernetes.io/worker=", wantPools: "edge,infra,worker"},
		{name: "Exists refused when no exact label", selector: sel(nil, req("site", "Exists"), req("tier", "DoesNotExist")),
			refused: `operator "Exists" cannot be converted into the old label selector format; it selects the nodes of pools edge, worker`},
		{name: "In with several values refused", selector: sel(nil, req("tier", "In", "x", "y")),
			refused: `operator "In" without a single value cannot be converted into the old label selector format`},
		{name: "pools: one custom pool", pools: []string{"edge"}, want: "node-role.kubernetes.io/edge=", wantPools: "edge"},
		{name: "pools: common pool label", pools: []string{"worker", "infra"}, want: "site=a", wantPools: "infra,worker"},
		{name: "pools: no exact label", pools: []string{"infra", "edge"}, refused: "no label is carried by the nodes of pools edge, infra and by no other pool"},
		{name: "pools: worker alone is not exact next to custom pools", pools: []string{"worker"}, refused: "no label is carried by the nodes of pools worker"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := baseSite()
			s.Ingress.Shards["x"] = shard(func(sh *site.Shard) {
				sh.Pools, sh.NodeSelector = tc.pools, tc.selector
				sh.Replicas = new(int)
				*sh.Replicas = 1
			})
			out, err := renderSite(t, s)
			if tc.refused != "" {
				expectDiag(t, err, tc.refused)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			checkFidelity(t, out)
			m := routing.NewModel(s, 14)
			var p routing.Placement
			if tc.pools != nil {
				p, _ = m.ByPools("x", tc.pools, "")
			} else {
				p, _, _ = m.BySelector("x", tc.selector, "")
			}
			var kv []string
			for _, k := range slices.Sorted(maps.Keys(p.Selector.MatchLabels)) {
				kv = append(kv, k+"="+p.Selector.MatchLabels[k])
			}
			if got := strings.Join(kv, ","); got != tc.want {
				t.Errorf("matchLabels %s, want %s", got, tc.want)
			}
			if got := strings.Join(p.Pools, ","); got != tc.wantPools {
				t.Errorf("pools %s, want %s", got, tc.wantPools)
			}
			obj := string(out.Files["ingress/ingresscontroller-x.yaml"])
			if strings.Contains(obj, "matchExpressions") && strings.Contains(obj, "nodeSelector:\n      matchExpressions") {
				t.Errorf("node selector with matchExpressions emitted:\n%s", obj)
			}
			if tc.wantPools == "master" && !strings.Contains(obj, "key: node-role.kubernetes.io/master") {
				t.Errorf("router on masters without the master toleration:\n%s", obj)
			}
		})
	}
}

func TestReplicaBounds(t *testing.T) {
	for _, tc := range []struct {
		name     string
		pools    []string
		replicas int // 0: unset
		wantErr  string
		wantWarn string
	}{
		{name: "replicas = eligible nodes", pools: []string{"edge"}, replicas: 3},
		{name: "replicas > eligible nodes", pools: []string{"edge"}, replicas: 4, wantErr: "4 HostNetwork router replicas need 4 nodes (each binds the host ports), but shard \"x\" can run on 3"},
		{name: "default replicas fit", pools: []string{"infra"}},
		// the operator's default counts as replicas written (ING006, as lint)
		{name: "default replicas do not fit: refused", pools: []string{"solo"}, wantErr: "2 HostNetwork router replicas need 2 nodes (each binds the host ports), but shard \"x\" can run on 1 (pool solo (1 node: s-0)) (replicas defaults to 2) (set replicas to 1 or less, or place the shard on more nodes) [ING006]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := baseSite()
			s.Pools["solo"] = site.Pool{Name: "solo", Role: site.RoleCustom, Placement: "plain", Nodes: nodeList("s", "10.10.0.4", 1)}
			s.Ingress.Shards["x"] = shard(func(sh *site.Shard) {
				sh.Pools = tc.pools
				if tc.replicas > 0 {
					sh.Replicas = &tc.replicas
				}
			})
			out, err := renderSite(t, s)
			if tc.wantErr != "" {
				expectDiag(t, err, tc.wantErr)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			checkFidelity(t, out)
			if got := out.Warnings.Error(); tc.wantWarn != "" && !strings.Contains(got, tc.wantWarn) || tc.wantWarn == "" && got != "" {
				t.Errorf("warnings %q, want %q", got, tc.wantWarn)
			}
		})
	}
}

func TestPortBounds(t *testing.T) {
	for _, tc := range []struct {
		name    string
		shards  map[string]site.Shard
		wantErr string
	}{
		{name: "standard ports on nodes the default router also uses", shards: map[string]site.Shard{
			"x": shard(func(sh *site.Shard) { sh.Ports = nil }),
		}, wantErr: `HostNetwork routers "default" and "x" both run on pools edge and bind host port 80 (HTTP of "x", HTTP of "default"), 443`},
		{name: "other ports on shared nodes", shards: map[string]site.Shard{
			"x": shard(nil),
		}},
		{name: "standard ports on nodes of their own", shards: map[string]site.Shard{
			"x": shard(func(sh *site.Shard) { sh.Ports, sh.Pools = nil, []string{"master"} }),
		}},
		{name: "two shards, same ports, same nodes", shards: map[string]site.Shard{
			"x": shard(nil),
			"y": shard(func(sh *site.Shard) {
				sh.Domain = "apps-y.t.example.com"
				sh.RouteSelector.MatchLabels = map[string]string{"type": "y"}
			}),
		}, wantErr: `HostNetwork routers "x" and "y" both run on pools edge and bind host port 8080`},
		{name: "ports of one router not unique", shards: map[string]site.Shard{
			"x": shard(func(sh *site.Shard) { sh.Ports = &site.Ports{HTTP: 8080, HTTPS: 8080, Stats: 1937} }),
		}, wantErr: "the specified HTTPS, HTTP and Stats ports 8080, 8080, 1937 are not unique"},
		{name: "LoadBalancerService shards bind no host port", shards: map[string]site.Shard{
			"x": shard(func(sh *site.Shard) { sh.Ports = nil; sh.EndpointPublishing = platform.PublishingLoadBalancerService }),
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := baseSite()
			s.Ingress.Shards = tc.shards
			out, err := renderSite(t, s)
			if tc.wantErr != "" {
				expectDiag(t, err, tc.wantErr)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			checkFidelity(t, out)
		})
	}
}

func TestDomainChecks(t *testing.T) {
	long := strings.Repeat("a", 60)
	for _, tc := range []struct {
		name, shardName, domain, wantErr string
	}{
		{"fine", "x", "apps-x.t.example.com", ""},
		{"default controller's domain", "x", "apps.t.example.com", `domain apps.t.example.com is already the domain of IngressController "default"`},
		{"longer than 244", "x", strings.Join([]string{long, long, long, long, "com"}, "."), "more than the 244 an IngressController accepts"},
		{"label longer than 63", "x", strings.Repeat("b", 64) + ".example.com", "more than 63"},
		{"canonical host longer than 253", strings.Repeat("n", 40), strings.Join([]string{long, long, long, strings.Repeat("c", 40), "example.com"}, "."), "cannot exceed 253 characters"},
		{"not DNS-1123", "x", "Apps_X.example.com", "domain must be a DNS-1123 subdomain"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := baseSite()
			s.Ingress.Shards[tc.shardName] = shard(func(sh *site.Shard) { sh.Domain = tc.domain })
			out, err := renderSite(t, s)
			if tc.wantErr != "" {
				expectDiag(t, err, tc.wantErr)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			checkFidelity(t, out)
		})
	}
	t.Run("two shards, one domain", func(t *testing.T) {
		s := baseSite()
		s.Ingress.Shards["x"] = shard(nil)
		s.Ingress.Shards["y"] = shard(func(sh *site.Shard) { sh.Pools = []string{"master"} })
		_, err := renderSite(t, s)
		expectDiag(t, err, `domain apps-x.t.example.com is already the domain of IngressController "x"`)
	})
}

func TestDefaultExclusions(t *testing.T) {
	for _, tc := range []struct {
		name    string
		shards  map[string]site.Shard
		want    []string
		wantErr string
	}{
		{name: "matchLabels -> NotIn", shards: map[string]site.Shard{"x": shard(nil)},
			want: []string{"routeSelector:\n    matchExpressions:\n    - key: type\n      operator: NotIn\n      values:\n      - x\n"}},
		{name: "two shards on one key merge into one NotIn", shards: map[string]site.Shard{
			"x": shard(nil),
			"y": shard(func(sh *site.Shard) {
				sh.Domain, sh.Pools, sh.Ports = "apps-y.t.example.com", []string{"master"}, nil
				sh.RouteSelector = sel(nil, req("type", "In", "y", "z"))
			}),
		}, want: []string{"- key: type\n      operator: NotIn\n      values:\n      - x\n      - \"y\"\n      - z\n"}},
		{name: "Exists -> DoesNotExist; namespaceSelector", shards: map[string]site.Shard{
			"x": shard(func(sh *site.Shard) {
				sh.RouteSelector, sh.NamespaceSelector = nil, sel(nil, req("shard.example.com/x", "Exists"))
			}),
		}, want: []string{"namespaceSelector:\n    matchExpressions:\n    - key: shard.example.com/x\n      operator: DoesNotExist\n"}},
		{name: "excludeFromDefault false", shards: map[string]site.Shard{
			"x": shard(func(sh *site.Shard) { sh.ExcludeFromDefault = false }),
		}},
		{name: "NotIn refused", shards: map[string]site.Shard{
			"x": shard(func(sh *site.Shard) { sh.RouteSelector = sel(nil, req("type", "NotIn", "public")) }),
		}, wantErr: "would exclude the platform's own routes"},
		{name: "two requirements refused", shards: map[string]site.Shard{
			"x": shard(func(sh *site.Shard) { sh.NamespaceSelector = sel(map[string]string{"zone": "b"}) }),
		}, wantErr: "selects routes with 2 requirements (ANDed)"},
		{name: "platform namespaces refused", shards: map[string]site.Shard{
			"x": shard(func(sh *site.Shard) {
				sh.RouteSelector, sh.NamespaceSelector = nil, sel(nil, req("kubernetes.io/metadata.name", "In", "openshift-console"))
			}),
		}, wantErr: "a label of the platform's own namespaces"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := baseSite()
			s.Ingress.Shards = tc.shards
			out, err := renderSite(t, s)
			if tc.wantErr != "" {
				expectDiag(t, err, tc.wantErr)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			checkFidelity(t, out)
			file, ok := out.Files[defaultPath]
			if len(tc.want) == 0 {
				if ok {
					t.Errorf("default controller file without anything to change:\n%s", file)
				}
				return
			}
			for _, w := range tc.want {
				if !strings.Contains(string(file), w) {
					t.Errorf("default controller lacks\n%s\nin:\n%s", w, file)
				}
			}
		})
	}
}

func TestRemoteWorkersVersionGates(t *testing.T) {
	remote := func(version string) *site.Site {
		s := baseSite()
		s.Cluster.Version = version
		e := s.Pools["edge"]
		e.Placement = "remote"
		s.Pools["edge"] = e
		s.Ingress.Shards["x"] = shard(func(sh *site.Shard) { sh.Ports = nil })
		return s
	}
	t.Run("4.12: shard on remote workers, default router pinned to the masters", func(t *testing.T) {
		out := mustRender(t, remote("4.12"))
		file := string(out.Files[defaultPath])
		for _, w := range []string{"node-role.kubernetes.io/master: \"\"", "the manual remote-worker method", "operator: NotIn"} {
			if !strings.Contains(file, w) {
				t.Errorf("default controller lacks %q:\n%s", w, file)
			}
		}
		if _, ok := out.Files["pools/machineconfig-50-edge-fix-ipi-rwn.yaml"]; !ok {
			t.Errorf("no keepalived fix on 4.12: %v", out.Paths())
		}
	})
	t.Run("4.13: routers never run on detected remote workers", func(t *testing.T) {
		_, err := renderSite(t, remote("4.13"))
		expectDiag(t, err, `no node can run the routers of shard "x"`, "node.openshift.io/remote-worker")
	})
	t.Run("4.12: default router on a remote pool breaks the ingress VIP", func(t *testing.T) {
		s := remote("4.12")
		s.Ingress.Default = &site.DefaultIngress{Pools: []string{"edge"}}
		_, err := renderSite(t, s)
		expectDiag(t, err, `the default router would run on remote pool "edge"`)
	})
	t.Run("4.13: default router pinned to detected remote workers", func(t *testing.T) {
		s := remote("4.13")
		s.Ingress.Shards = nil
		s.Ingress.Default = &site.DefaultIngress{Pools: []string{"edge"}}
		_, err := renderSite(t, s)
		expectDiag(t, err, "no node can run the default router")
	})
	t.Run("default router outside the VIP subnet", func(t *testing.T) {
		s := baseSite()
		s.Ingress.Default = &site.DefaultIngress{Pools: []string{"edge"}}
		_, err := renderSite(t, s)
		expectDiag(t, err, "do not contain the ingress VIP 10.10.0.6")
	})
}

func TestSelectorOnUndescribedLabels(t *testing.T) {
	s := baseSite()
	s.Ingress.Shards["x"] = shard(func(sh *site.Shard) {
		sh.Pools, sh.NodeSelector = nil, sel(map[string]string{"rack": "r1"})
	})
	out := mustRender(t, s)
	if w := out.Warnings.Error(); !strings.Contains(w, "matches no pool of the site") {
		t.Errorf("warnings %q", w)
	}
	if !strings.Contains(string(out.Files["ingress/ingresscontroller-x.yaml"]), "rack: r1") {
		t.Errorf("selector not kept:\n%s", out.Files["ingress/ingresscontroller-x.yaml"])
	}
}

func TestDNSNote(t *testing.T) {
	s := baseSite()
	s.Ingress.Shards["x"] = shard(func(sh *site.Shard) { three := 3; sh.Replicas = &three })
	out := mustRender(t, s)
	note := string(out.Files["ingress/dns-x.md"])
	for _, w := range []string{"`*.apps-x.t.example.com` | A | 10.20.0.11, 10.20.0.12, 10.20.0.13", "Every eligible node runs a router", "No VIP serves a shard"} {
		if !strings.Contains(note, w) {
			t.Errorf("DNS note lacks %q:\n%s", w, note)
		}
	}
	// On AWS there are no VIPs: the note does not speak of them.
	aws := baseSite()
	aws.Cluster.Platform, aws.Cluster.InstallMethod = "aws", "ipi"
	aws.Network.APIVIPs, aws.Network.IngressVIPs = nil, nil
	aws.Ingress.Shards["x"] = shard(func(sh *site.Shard) {
		sh.Domain, sh.Ports = "apps-x.other.example.org", nil
		sh.EndpointPublishing = platform.PublishingLoadBalancerService
	})
	if note := string(mustRender(t, aws).Files["ingress/dns-x.md"]); note == "" || strings.Contains(note, "VIP") {
		t.Errorf("DNS note on AWS (domain outside the base domain) missing or speaks of VIPs:\n%s", note)
	}
	s.Cluster.Platform = "aws"
	s.Network.APIVIPs, s.Network.IngressVIPs = nil, nil
	s.Ingress.Shards["x"] = shard(func(sh *site.Shard) { sh.EndpointPublishing, sh.Ports = platform.PublishingLoadBalancerService, nil })
	if out := mustRender(t, s); out.Files["ingress/dns-x.md"] != nil {
		t.Errorf("DNS note for a LoadBalancerService on AWS under the base domain")
	}
}

func TestRemoteWorkersExample(t *testing.T) {
	res := load.Load([]string{filepath.Join("..", "..", "examples", "remote-workers")})
	if len(res.Diagnostics) > 0 {
		t.Fatalf("example does not load:\n%v", res.Diagnostics)
	}
	s := res.Sites[0]
	out, err := generators.Render(s, generators.Options{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	checkFidelity(t, out)
	var ingress []string
	for _, p := range out.Paths() {
		if strings.HasPrefix(p, "ingress/") {
			ingress = append(ingress, p)
		}
	}
	sort.Strings(ingress)
	want := "ingress/cluster-ingress-default-ingresscontroller.yaml ingress/dns-remote.md ingress/ingresscontroller-remote.yaml"
	if got := strings.Join(ingress, " "); got != want {
		t.Fatalf("ingress outputs %s, want %s", got, want)
	}
	shardYAML := string(out.Files["ingress/ingresscontroller-remote.yaml"])
	for _, w := range []string{"domain: apps-remote.remote-workers.corp.example.com", "node-role.kubernetes.io/remote-worker: \"\"", "replicas: 2", "type: HostNetwork"} {
		if !strings.Contains(shardYAML, w) {
			t.Errorf("shard lacks %q:\n%s", w, shardYAML)
		}
	}
	def := string(out.Files[defaultPath])
	for _, w := range []string{"node-role.kubernetes.io/master: \"\"", "key: type\n      operator: NotIn\n      values:\n      - remote"} {
		if !strings.Contains(def, w) {
			t.Errorf("default controller lacks %q:\n%s", w, def)
		}
	}
	again, err := generators.Render(s, generators.Options{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	for p, b := range out.Files {
		if string(again.Files[p]) != string(b) {
			t.Errorf("%s differs between two renders", p)
		}
	}
}

// TestTaintedPoolTolerations: a router placed on tainted nodes tolerates
// their taints, or its pods stay Pending. AWS Local and Wavelength Zone
// pools carry node-role.kubernetes.io/edge:NoSchedule by default (the
// installer's edge MachineSets, installer pkg/asset/machines/aws
// machinesets.go); a site's own taints replace the default; [] means none;
// PreferNoSchedule needs no toleration.
func TestTaintedPoolTolerations(t *testing.T) {
	edgeSite := func(taints []site.Taint) *site.Site {
		s := baseSite()
		s.Cluster.Platform, s.Cluster.InstallMethod, s.Cluster.Region = "aws", "ipi", "us-east-1"
		s.Network.APIVIPs, s.Network.IngressVIPs = nil, nil
		e := s.Pools["edge"]
		e.Placement, e.Zone, e.Taints = site.PlacementAWSLocalZone, "us-east-1-nyc-1a", taints
		s.Pools["edge"] = e
		s.Ingress.Shards["x"] = shard(nil)
		return s
	}
	tolerations := func(t *testing.T, s *site.Site) []corev1.Toleration {
		t.Helper()
		out := mustRender(t, s)
		var ic operatorv1.IngressController
		if err := yaml.Unmarshal(out.Files["ingress/ingresscontroller-x.yaml"], &ic); err != nil || ic.Spec.NodePlacement == nil {
			t.Fatalf("ingresscontroller-x.yaml: %v\n%s", err, out.Files["ingress/ingresscontroller-x.yaml"])
		}
		return ic.Spec.NodePlacement.Tolerations
	}
	edge := corev1.Toleration{Key: "node-role.kubernetes.io/edge", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule}
	if got := tolerations(t, edgeSite(nil)); !reflect.DeepEqual(got, []corev1.Toleration{edge}) {
		t.Errorf("Local Zone pool: tolerations %+v, want the edge taint's", got)
	}
	if got := tolerations(t, edgeSite([]site.Taint{})); len(got) != 0 {
		t.Errorf("taints: [] : tolerations %+v, want none", got)
	}
	own := []site.Taint{{Key: "dedicated", Value: "edge", Effect: "NoExecute"}, {Key: "soft", Effect: "PreferNoSchedule"}}
	want := []corev1.Toleration{{Key: "dedicated", Operator: corev1.TolerationOpEqual, Value: "edge", Effect: corev1.TaintEffectNoExecute}}
	if got := tolerations(t, edgeSite(own)); !reflect.DeepEqual(got, want) {
		t.Errorf("own taints: tolerations %+v, want %+v", got, want)
	}
	// A pool without taints: no toleration.
	s := edgeSite(nil)
	s.Ingress.Shards["x"] = shard(func(sh *site.Shard) { sh.Pools = []string{"infra"} })
	if got := tolerations(t, s); len(got) != 0 {
		t.Errorf("infra pool: tolerations %+v, want none", got)
	}
}
