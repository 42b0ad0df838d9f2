package egress

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	networkv1 "github.com/openshift/api/network/v1"
	"sigs.k8s.io/yaml"

	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/internal/_fidelity"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/load"
	"github.com/siteforge/siteforge/internal/site"
)

// TestMain registers the OpenShift SDN kinds with the fidelity checker: their
// CRDs are byte-for-byte copies of github.com/openshift/api (the version in
// go.mod) network/v1/zz_generated.crd-manifests/002_hostsubnets.crd.yaml and
// 003_netnamespaces.crd.yaml, kept in testdata/.
func TestMain(m *testing.M) {
	for kind, file := range map[string]string{"HostSubnet": "002_hostsubnets.crd.yaml", "NetNamespace": "003_netnamespaces.crd.yaml"} {
		crd, err := os.ReadFile(filepath.Join("testdata", file))
		if err != nil {
			panic(err)
		}
		newObj := func() any { return &networkv1.HostSubnet{} }
		if kind == "NetNamespace" {
			newObj = func() any { return &networkv1.NetNamespace{} }
		}
		if err := fidelity.Register(networkv1.GroupVersion.WithKind(kind), newObj, crd); err != nil {
			panic(err)
		}
	}
	os.Exit(m.Run())
}

func node(name, ip string) site.Node { return site.Node{Name: name, IP: ip} }

// baseSite: baremetal 4.14 OVN-Kubernetes, main subnet 10.10.0.0/24 (with
// IPv6 fd00:10::/64), remote subnet 10.20.0.0/24; workers and remote workers
// assignable.
func baseSite() *site.Site {
	w := []site.Node{node("w0", "10.10.0.21"), node("w1", "10.10.0.22"), node("w2", "10.10.0.23")}
	for i := range w {
		w[i].IPv6 = fmt.Sprintf("fd00:10::2%d", i+1)
	}
	return &site.Site{
		Name:   "t",
		Source: "site.cue",
		Cluster: site.Cluster{Name: "t", BaseDomain: "example.com", Version: "4.14", Platform: "baremetal",
			InstallMethod: "ipi", Lifecycle: "running"},
		Network: site.Network{Type: "OVNKubernetes",
			ClusterNetwork: []site.ClusterNetwork{{CIDR: "10.128.0.0/14", HostPrefix: 23}},
			ServiceNetwork: []string{"172.30.0.0/16"},
			MachineNetwork: []string{"10.10.0.0/24", "10.20.0.0/24", "fd00:10::/64"},
			APIVIPs:        []string{"10.10.0.5"}, IngressVIPs: []string{"10.10.0.6"}},
		Pools: map[string]site.Pool{
			"master": {Name: "master", Role: site.RoleMaster, Placement: "plain", Nodes: []site.Node{node("m0", "10.10.0.11"), node("m1", "10.10.0.12"), node("m2", "10.10.0.13")}},
			"worker": {Name: "worker", Role: site.RoleWorker, Placement: "plain", Nodes: w},
			"remote": {Name: "remote", Role: site.RoleCustom, Placement: "remote", Subnets: []string{"10.20.0.0/24"},
				Nodes: []site.Node{node("r0", "10.20.0.11"), node("r1", "10.20.0.12"), node("r2", "10.20.0.13")}},
		},
		Egress: &site.Egress{AssignablePools: []string{"worker", "remote"}, EgressIPs: map[string]site.EgressIP{}},
	}
}

func eip(ips ...string) site.EgressIP {
	return site.EgressIP{IPs: ips, NamespaceSelector: site.LabelSelector{MatchLabels: map[string]string{"egress": "x"}}}
}

func generate(t *testing.T, s *site.Site) ([]generators.Artifact, error) {
	t.Helper()
	return Generate(testContext(s), s)
}

func expectDiag(t *testing.T, err error, want string) {
	t.Helper()
	dl, ok := err.(diag.List)
	if !ok {
		t.Fatalf("got %v, want a diag.List containing %q", err, want)
	}
	if !strings.Contains(dl.Error(), want) {
		t.Errorf("diagnostics lack %q:\n%v", want, dl)
	}
}

// checkArtifacts runs every EgressIP through the fidelity checker, and every
// SDN patch applied to a HostSubnet or NetNamespace as the SDN creates it.
func checkArtifacts(t *testing.T, arts []generators.Artifact) {
	t.Helper()
	patch := regexp.MustCompile(`(?m)^oc patch (hostsubnet|netnamespace) (\S+) --type=merge -p '(.*)'$`)
	for _, a := range arts {
		if a.Role == generators.Resource {
			b, err := generators.EncodeObject(a.Object, "test")
			if err != nil {
				t.Fatal(err)
			}
			if err := fidelity.Check(b); err != nil {
				t.Errorf("%s: %v\n%s", a.Path, err, b)
			}
			continue
		}
		for _, m := range patch.FindAllStringSubmatch(string(a.Data), -1) {
			obj := map[string]any{"apiVersion": "network.openshift.io/v1", "metadata": map[string]any{"name": m[2]}}
			if m[1] == "hostsubnet" {
				obj["kind"], obj["host"], obj["hostIP"], obj["subnet"] = "HostSubnet", m[2], "10.10.0.21", "10.128.2.0/23"
			} else {
				obj["kind"], obj["netname"], obj["netid"] = "NetNamespace", m[2], 42
			}
			var p map[string]any
			if err := json.Unmarshal([]byte(m[3]), &p); err != nil {
				t.Fatalf("%s: patch %s: %v", a.Path, m[3], err)
			}
			for k, v := range p {
				obj[k] = v
			}
			b, _ := yaml.Marshal(obj)
			if err := fidelity.Check(b); err != nil {
				t.Errorf("%s: %s %s patched: %v\n%s", a.Path, m[1], m[2], err, b)
			}
		}
	}
}

func TestEgressIPRules(t *testing.T) {
	for _, tc := range []struct {
		name    string
		mutate  func(s *site.Site)
		wantErr string // "" passes
	}{
		{"pass: one address per subnet", func(s *site.Site) {
			s.Egress.EgressIPs["a"] = eip("10.10.0.200")
			s.Egress.EgressIPs["b"] = eip("10.20.0.200")
		}, ""},
		{"fail: not an IP", func(s *site.Site) { s.Egress.EgressIPs["a"] = eip("10.10.0.300") }, `"10.10.0.300" is not an IP address (OVN-K InvalidEgressIP)`},
		{"fail: outside every assignable subnet", func(s *site.Site) { s.Egress.EgressIPs["a"] = eip("192.168.7.10") }, "192.168.7.10 is outside every subnet of the assignable pools"},
		{"fail: in a subnet only non-assignable nodes have", func(s *site.Site) {
			s.Egress.AssignablePools = []string{"remote"}
			s.Egress.EgressIPs["a"] = eip("10.10.0.200")
		}, "10.10.0.200 is outside every subnet of the assignable pools"},
		{"fail: a node's address", func(s *site.Site) { s.Egress.EgressIPs["a"] = eip("10.10.0.12") }, "10.10.0.12 is the address of node m1 (pool master) (OVN-K EgressIPConflict)"},
		{"fail: the ingress VIP", func(s *site.Site) { s.Egress.EgressIPs["a"] = eip("10.10.0.6") }, "10.10.0.6 is the ingress VIP"},
		{"fail: the API VIP", func(s *site.Site) { s.Egress.EgressIPs["a"] = eip("10.10.0.5") }, "10.10.0.5 is the API VIP"},
		{"fail: in the cluster network", func(s *site.Site) { s.Egress.EgressIPs["a"] = eip("10.128.0.5") }, "10.128.0.5 is inside the cluster network 10.128.0.0/14"},
		{"fail: in the service network", func(s *site.Site) { s.Egress.EgressIPs["a"] = eip("172.30.0.10") }, "172.30.0.10 is inside the service network 172.30.0.0/16"},
		{"fail: broadcast address", func(s *site.Site) { s.Egress.EgressIPs["a"] = eip("10.10.0.255") }, "10.10.0.255 is the network or broadcast address of 10.10.0.0/24"},
		{"fail: same address in two objects", func(s *site.Site) {
			s.Egress.EgressIPs["a"] = eip("10.10.0.200")
			s.Egress.EgressIPs["b"] = eip("10.10.0.200")
		}, `10.10.0.200 is already an egress IP of EgressIP a`},
		// OVN-K reads an object's addresses as a set (clustermanager
		// egressip_controller.go validateEgressIPSpec): a repeat inside one
		// object is dropped, not refused
		{"pass: same address twice in one object", func(s *site.Site) { s.Egress.EgressIPs["a"] = eip("10.10.0.200", "10.10.0.200") }, ""},
		{"fail: same address in two objects", func(s *site.Site) {
			s.Egress.EgressIPs["a"] = eip("10.10.0.200")
			s.Egress.EgressIPs["b"] = eip("10.10.0.200")
		}, "already an egress IP of EgressIP a"},
		{"pass: as many addresses as nodes", func(s *site.Site) { s.Egress.EgressIPs["a"] = eip("10.20.0.200", "10.20.0.201", "10.20.0.202") }, ""},
		{"fail: more addresses than nodes", func(s *site.Site) {
			s.Egress.EgressIPs["a"] = eip("10.20.0.200", "10.20.0.201", "10.20.0.202", "10.20.0.203")
		}, `EgressIP "a" has 4 addresses but only 3 can be placed`},
		{"pass: addresses in two subnets, one object", func(s *site.Site) {
			s.Egress.EgressIPs["a"] = eip("10.10.0.200", "10.20.0.200")
		}, ""},
		{"fail: IPv4 and IPv6 in one object before 4.16", func(s *site.Site) { s.Egress.EgressIPs["a"] = eip("10.10.0.200", "fd00:10::200") },
			`EgressIP "a" mixes IPv4 and IPv6 addresses: one object holds both families from OpenShift 4.16`},
		{"pass: IPv4 and IPv6 in one object from 4.16", func(s *site.Site) {
			s.Cluster.Version = "4.16"
			s.Egress.EgressIPs["a"] = eip("10.10.0.200", "fd00:10::200")
		}, ""},
		{"fail: dual-stack pair split over two objects", func(s *site.Site) {
			s.Cluster.Version = "4.16"
			s.Egress.EgressIPs["a"] = eip("10.10.0.200")
			s.Egress.EgressIPs["b"] = eip("fd00:10::200")
		}, `EgressIPs "a" and "b" select the same pods, one with IPv4 and one with IPv6 addresses`},
		{"pass: IPv4 and IPv6 objects selecting different pods", func(s *site.Site) {
			s.Egress.EgressIPs["a"] = eip("10.10.0.200")
			b := eip("fd00:10::200")
			b.NamespaceSelector.MatchLabels = map[string]string{"egress": "y"}
			s.Egress.EgressIPs["b"] = b
		}, ""},
		{"fail: AWS control plane assignable", func(s *site.Site) {
			s.Cluster.Platform, s.Network.APIVIPs, s.Network.IngressVIPs = "aws", nil, nil
			s.Egress.AssignablePools = []string{"master", "worker"}
			s.Egress.EgressIPs["a"] = eip("10.10.0.200")
		}, `pool "master" is the control plane: on AWS control-plane nodes cannot host egress IPs`},
		{"pass: AWS compute assignable", func(s *site.Site) {
			s.Cluster.Platform, s.Network.APIVIPs, s.Network.IngressVIPs = "aws", nil, nil
			s.Egress.EgressIPs["a"] = eip("10.10.0.200")
		}, ""},
		{"pass: bare metal, secondary subnet of the pool", func(s *site.Site) {
			r := s.Pools["remote"]
			r.Subnets = []string{"10.20.0.0/24", "10.30.0.0/24"}
			s.Pools["remote"] = r
			s.Egress.EgressIPs["a"] = eip("10.30.0.200")
		}, ""},
		// OVN-K (ovn-org/ovn-kubernetes go-controller/pkg/clustermanager/
		// egressip_controller.go assignEgressIPs) considers only the nodes
		// that have an address on a secondary host network when any node
		// has: the workers, whose primary subnet holds 10.10.0.200-201, are
		// not candidates once r0 has 10.10.0.0/24 as a secondary network.
		{"fail: a secondary network narrows the nodes to those that have it", func(s *site.Site) {
			r := s.Pools["remote"]
			r.Nodes = r.Nodes[:1]
			r.Subnets = []string{"10.20.0.0/24", "10.10.0.0/24"}
			s.Pools["remote"] = r
			s.Egress.EgressIPs["a"] = eip("10.10.0.200", "10.10.0.201")
		}, `EgressIP "a" has 2 addresses but only 1 can be placed`},
		{"pass: the same addresses on the workers' primary subnet", func(s *site.Site) {
			r := s.Pools["remote"]
			r.Nodes = r.Nodes[:1]
			s.Pools["remote"] = r
			s.Egress.EgressIPs["a"] = eip("10.10.0.200", "10.10.0.201")
		}, ""},
		{"fail: cloud, secondary subnet of the pool", func(s *site.Site) {
			s.Cluster.Platform, s.Network.APIVIPs, s.Network.IngressVIPs = "azure", nil, nil
			r := s.Pools["remote"]
			r.Subnets = []string{"10.20.0.0/24", "10.30.0.0/24"}
			s.Pools["remote"] = r
			s.Egress.EgressIPs["a"] = eip("10.30.0.200")
		}, "an egress IP must be inside the subnet of a node's primary interface (on azure no other)"},
		{"pass: OpenStack capacity (10 per port)", func(s *site.Site) {
			openstackOneNode(s, 10)
		}, ""},
		{"fail: OpenStack capacity exceeded", func(s *site.Site) {
			openstackOneNode(s, 11)
		}, "11 egress IPs do not fit on the assignable nodes: openstack allows 10 allowed address pairs per Neutron port"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := baseSite()
			tc.mutate(s)
			arts, err := generate(t, s)
			if tc.wantErr != "" {
				expectDiag(t, err, tc.wantErr)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			checkArtifacts(t, arts)
		})
	}
}

// openstackOneNode leaves one assignable node and n one-address objects.
func openstackOneNode(s *site.Site, n int) {
	s.Cluster.Platform = "openstack"
	r := s.Pools["remote"]
	r.Nodes = r.Nodes[:1]
	s.Pools["remote"] = r
	s.Egress.AssignablePools = []string{"remote"}
	for i := 0; i < n; i++ {
		s.Egress.EgressIPs[fmt.Sprintf("e%02d", i)] = eip(fmt.Sprintf("10.20.0.%d", 100+i))
	}
}

func TestUnlistedNodes(t *testing.T) {
	s := baseSite()
	four := 4
	r := s.Pools["remote"]
	r.Nodes, r.Count = nil, &four
	s.Pools["remote"] = r
	s.Egress.EgressIPs["a"] = eip("10.20.0.200", "10.20.0.201", "10.20.0.202", "10.20.0.203")
	arts, err := generate(t, s)
	if err != nil {
		t.Fatal(err)
	}
	script := string(arts[len(arts)-1].Data)
	for _, w := range []string{"# pool remote (4 nodes (count, not listed))", "oc label node <node> k8s.ovn.org/egress-assignable= --overwrite", "MachineSet"} {
		if !strings.Contains(script, w) {
			t.Errorf("label script lacks %q:\n%s", w, script)
		}
	}
	s.Egress.EgressIPs["a"] = eip("10.20.0.200", "10.20.0.201", "10.20.0.202", "10.20.0.203", "10.20.0.204")
	_, err = generate(t, s)
	expectDiag(t, err, `has 5 addresses but only 4 can be placed`)
}

func TestOpenShiftSDN(t *testing.T) {
	sdn := func() *site.Site {
		s := baseSite()
		s.Network.Type = "OpenShiftSDN"
		s.Network.MachineNetwork = []string{"10.10.0.0/24", "10.20.0.0/24"}
		return s
	}
	byName := func(ip string, ns ...string) site.EgressIP {
		e := eip(ip)
		e.NamespaceSelector = site.LabelSelector{MatchExpressions: []site.Requirement{{Key: "kubernetes.io/metadata.name", Operator: "In", Values: ns}}}
		return e
	}
	t.Run("pass", func(t *testing.T) {
		s := sdn()
		s.Egress.EgressIPs["a"] = byName("10.10.0.200", "app2", "app1")
		s.Egress.EgressIPs["b"] = byName("10.20.0.200", "app3")
		arts, err := generate(t, s)
		if err != nil {
			t.Fatal(err)
		}
		if len(arts) != 1 || arts[0].Path != sdnScriptPath {
			t.Fatalf("artifacts %v", arts)
		}
		script := string(arts[0].Data)
		for _, w := range []string{
			`oc patch hostsubnet w0 --type=merge -p '{"egressCIDRs":["10.10.0.0/24"]}'`,
			`oc patch hostsubnet r2 --type=merge -p '{"egressCIDRs":["10.20.0.0/24"]}'`,
			"oc patch netnamespace app1 --type=merge -p '{\"egressIPs\":[\"10.10.0.200\"]}'\noc patch netnamespace app2",
			`oc patch netnamespace app3 --type=merge -p '{"egressIPs":["10.20.0.200"]}'`,
		} {
			if !strings.Contains(script, w) {
				t.Errorf("script lacks %q:\n%s", w, script)
			}
		}
		checkArtifacts(t, arts)
	})
	for _, tc := range []struct {
		name string
		e    site.EgressIP
		want string
	}{
		{"two addresses", byName("10.10.0.200", "app1"), "OpenShift SDN's automatic assignment gives a namespace one egress IP"},
		{"pod selector", func() site.EgressIP {
			e := byName("10.10.0.200", "app1")
			e.PodSelector = &site.LabelSelector{MatchLabels: map[string]string{"app": "x"}}
			return e
		}(), "it has no pod selector"},
		{"namespaces by label", eip("10.10.0.200"), "the namespace selector must name namespaces"},
	} {
		t.Run("fail: "+tc.name, func(t *testing.T) {
			s := sdn()
			if tc.name == "two addresses" {
				tc.e.IPs = append(tc.e.IPs, "10.10.0.201")
			}
			s.Egress.EgressIPs["a"] = tc.e
			_, err := generate(t, s)
			expectDiag(t, err, tc.want)
		})
	}
}

func TestRemoteWorkersExample(t *testing.T) {
	res := load.Load([]string{filepath.Join("..", "..", "examples", "remote-workers")})
	if len(res.Diagnostics) > 0 {
		t.Fatalf("example does not load:\n%v", res.Diagnostics)
	}
	arts, err := generate(t, res.Sites[0])
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	byPath := map[string]generators.Artifact{}
	for _, a := range arts {
		paths = append(paths, a.Path)
		byPath[a.Path] = a
	}
	sort.Strings(paths)
	want := "egress/egressip-main-subnet.yaml egress/egressip-remote-subnet.yaml egress/label-egress-assignable-nodes.sh"
	if got := strings.Join(paths, " "); got != want {
		t.Fatalf("outputs %s, want %s", got, want)
	}
	checkArtifacts(t, arts)
	main, _ := generators.EncodeObject(byPath["egress/egressip-main-subnet.yaml"].Object, "x")
	for _, w := range []string{"apiVersion: k8s.ovn.org/v1", "kind: EgressIP", "- 10.10.0.200", "egress: main"} {
		if !strings.Contains(string(main), w) {
			t.Errorf("main-subnet EgressIP lacks %q:\n%s", w, main)
		}
	}
	script := string(byPath[labelScriptPath].Data)
	for _, n := range []string{"worker-0", "worker-1", "worker-2", "remote-worker-0", "remote-worker-1", "remote-worker-2"} {
		if !strings.Contains(script, "oc label node "+n+" k8s.ovn.org/egress-assignable= --overwrite\n") {
			t.Errorf("label script misses %s:\n%s", n, script)
		}
	}
	if strings.Contains(script, "master-0") {
		t.Errorf("masters labelled assignable:\n%s", script)
	}
}

// testContext is the render context of s (its cluster.version parsed).
func testContext(s *site.Site) *generators.Context {
	ctx, err := generators.NewContext(s, generators.Options{})
	if err != nil {
		panic(err)
	}
	return ctx
}
