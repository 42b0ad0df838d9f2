package discover

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	mcfgv1 "github.com/openshift/api/machineconfiguration/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/siteforge/siteforge/internal/archivegen"
	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/platform"
)

// kinds lists a cluster's objects as "Kind ns/name", sorted.
func kinds(objs []*manifests.Object) []string {
	var out []string
	for _, o := range objs {
		out = append(out, o.Kind+" "+o.Namespace+"/"+o.Name)
	}
	slices.Sort(out)
	return out
}

// scenario is the archivegen scenario of that name.
func scenario(t *testing.T, name string) archivegen.Scenario {
	t.Helper()
	for _, s := range archivegen.Scenarios {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no archivegen scenario %q", name)
	return archivegen.Scenario{}
}

// TestMustGatherIsOneCluster: the folder `oc adm must-gather` writes is one
// cluster, apart from the repository beside it; only the kinds the rules
// read are read (no Secret, event, log or namespace), a rendered config no
// pool or node uses is not read, only catalog pods are, and an object
// inspect writes twice (ClusterVersion, in its List and on its own) is read
// once, from its own file.
func TestMustGatherIsOneCluster(t *testing.T) {
	dir := t.TempDir()
	mg := scenario(t, "catalog-digest-only").Build()
	old := archivegen.UserConfig("rendered-worker-0123456789abcdef0123456789abcdef", "", "3.4.0", "/etc/old", "old\n")
	mg.Objects = append(mg.Objects, archivegen.Object{Group: "machineconfiguration.openshift.io", Resource: "machineconfigs", Name: old.Name, Obj: old})
	dns := &corev1.Pod{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"}, ObjectMeta: metav1.ObjectMeta{Name: "dns-default-x", Namespace: "openshift-dns"}}
	mg.Objects = append(mg.Objects, archivegen.Object{Group: "core", Resource: "pods", Namespace: dns.Namespace, Name: dns.Name, Obj: dns})
	img, err := mg.Write(filepath.Join(dir, archivegen.DestDir))
	if err != nil {
		t.Fatal(err)
	}
	write(t, dir, map[string]string{"repo/cm.yaml": cmNamed("beside")})

	res := Paths([]string{dir}, Options{})
	if len(res.Problems) > 0 {
		t.Fatalf("problems: %v", res.Problems)
	}
	if got := kinds(res.Loose); !slices.Equal(got, []string{"ConfigMap /beside"}) {
		t.Errorf("loose objects %v, want the repository's ConfigMap only", got)
	}
	if len(res.Clusters) != 1 {
		t.Fatalf("%d clusters, want the must-gather", len(res.Clusters))
	}
	c := res.Clusters[0]
	if c.What != MustGather || !c.Live() || c.Root != filepath.Join(dir, archivegen.DestDir) {
		t.Errorf("cluster %s at %s", c.What, c.Root)
	}
	got := kinds(c.Objects)
	for _, want := range []string{"CatalogSource openshift-marketplace/cs-redhat-operator-index", "ClusterVersion /version",
		"Pod openshift-marketplace/cs-redhat-operator-index-7x9kq", "Network /cluster", "Infrastructure /cluster",
		"MachineConfigPool /worker", "Node /ip-10-0-2-100.ec2.internal", "IngressController openshift-ingress-operator/default",
		"ImageDigestMirrorSet /idms-operator-0", "OperatorHub /cluster"} {
		if !slices.Contains(got, want) {
			t.Errorf("%s not read", want)
		}
	}
	for _, o := range c.Objects {
		switch {
		case o.Kind == "Secret" || o.Kind == "Event" || o.Kind == "Namespace" || o.Kind == "List":
			t.Errorf("%s read from %s", o.ID(), o.File)
		case o.Name == old.Name:
			t.Errorf("the rendered config no pool uses was read")
		case o.Kind == "Pod" && o.Namespace != platform.MarketplaceNamespace:
			t.Errorf("%s read: not a catalog pod", o.ID())
		case o.Kind == "ClusterVersion" && !strings.HasSuffix(o.File, filepath.Join("clusterversions", "version.yaml")):
			t.Errorf("ClusterVersion read from %s, not its own file", o.File)
		case !strings.HasPrefix(o.File, img):
			t.Errorf("%s read from %s, outside the image folder", o.ID(), o.File)
		}
	}
	if n := strings.Count(strings.Join(got, "\n"), "Network /cluster"); n != 2 {
		t.Errorf("%d Network objects, want config and operator", n)
	}

	// the image folder alone is the same cluster
	res = Paths([]string{img}, Options{})
	if len(res.Clusters) != 1 || res.Clusters[0].What != MustGather || !slices.Equal(kinds(res.Clusters[0].Objects), got) {
		t.Errorf("the image folder is read differently: %v", kinds(res.Clusters[0].Objects))
	}
}

// TestNamespacesFolderIsNoMustGather: a repository's own namespaces/
// folder (kustomize overlays per namespace) is not a must-gather; an
// inspect folder of namespaces only has its timestamp file.
func TestNamespacesFolderIsNoMustGather(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{
		"namespaces/team-a/cm.yaml": cmNamed("a"),
		"config/version.json":       "{}",
	})
	res := Paths([]string{dir}, Options{})
	if len(res.Clusters) != 0 || len(res.Loose) != 1 {
		t.Errorf("clusters %v, loose %v", res.Clusters, kinds(res.Loose))
	}
	write(t, dir, map[string]string{"inspect/timestamp": "", "inspect/namespaces/openshift-dns/core/pods.yaml": "apiVersion: v1\nkind: List\nitems: []\n"})
	res = Paths([]string{filepath.Join(dir, "inspect")}, Options{})
	if len(res.Clusters) != 1 || res.Clusters[0].What != MustGather {
		t.Errorf("an oc adm inspect folder of namespaces is not a must-gather: %v", res.Clusters)
	}
}

// TestInsightsArchive: the Insights operator's documented sample archive is
// one cluster; its objects carry no apiVersion and kind, their path says
// what they are; a ClusterOperator's operator config is named by its path.
// No Secret is read (config/secrets/), nor anything but the kinds read.
func TestInsightsArchive(t *testing.T) {
	sample := filepath.Join("..", "..", "..", "shared", "upstream", "insights", "archive-sample")
	if _, err := os.Stat(filepath.Join(sample, "config", "version.json")); err != nil {
		t.Skipf("SKIPPED: the Insights operator's sample archive is not beside the repository (%v): the Insights archive reader is not tested against it", err)
	}
	res := Paths([]string{sample}, Options{})
	if len(res.Problems) > 0 || len(res.Loose) > 0 || len(res.Sites) > 0 {
		t.Fatalf("problems %v, loose %v, sites %v", res.Problems, kinds(res.Loose), res.Sites)
	}
	if len(res.Clusters) != 1 || res.Clusters[0].What != InsightsArchive || !res.Clusters[0].Live() {
		t.Fatalf("clusters %v", res.Clusters)
	}
	got := kinds(res.Clusters[0].Objects)
	for _, want := range []string{"ClusterVersion /version", "Network /cluster", "Infrastructure /cluster", "MachineConfigPool /worker",
		"Node /worker-0.imeixner20210707.lab.upshift.rdu2.redhat.com", "IngressController openshift-ingress-operator/default",
		"MachineConfig /00-master", "InstallConfig /dev.rhrmo-dev.20.11.2022"} {
		if !slices.Contains(got, want) {
			t.Errorf("%s not read: %v", want, got)
		}
	}
	for _, o := range res.Clusters[0].Objects {
		if o.Kind == "Secret" || strings.Contains(filepath.ToSlash(o.File), "/secrets/") {
			t.Errorf("%s read from %s", o.ID(), o.File)
		}
		if o.Kind == "MachineConfig" && strings.HasPrefix(o.Name, platform.RenderedMachineConfigPrefix) {
			var mc mcfgv1.MachineConfig
			if o.DecodeLoose(&mc) != nil {
				t.Errorf("%s does not decode", o.ID())
			}
		}
	}
}

// TestMustGatherImagesAreOneCluster: `oc adm must-gather --image A --image
// B` writes one image folder per image beside the timestamp: they are the
// same cluster, each object read once.
func TestMustGatherImagesAreOneCluster(t *testing.T) {
	dir := filepath.Join(t.TempDir(), archivegen.DestDir)
	first, err := archivegen.Scenarios[0].Build().Write(dir)
	if err != nil {
		t.Fatal(err)
	}
	second := archivegen.Scenarios[0].Build()
	second.ImageID = "registry.redhat.io/openshift4/ose-must-gather-rhel9@sha256:" + strings.Repeat("0f", 32)
	if _, err := second.Write(dir); err != nil {
		t.Fatal(err)
	}
	res := Paths([]string{dir}, Options{})
	if len(res.Clusters) != 1 || len(res.Problems) > 0 {
		t.Fatalf("clusters %v, problems %v", res.Clusters, res.Problems)
	}
	one := Paths([]string{first}, Options{})
	if got, want := kinds(res.Clusters[0].Objects), kinds(one.Clusters[0].Objects); !slices.Equal(got, want) {
		t.Errorf("two image folders read as\n%v\nwant each object once:\n%v", got, want)
	}
}

// TestRenderedInUse: the rendered configs read of a must-gather are those
// its pools name and those its nodes' Machine Config Daemons run or move to
// (the currentConfig and desiredConfig annotations), and the cluster's
// state holds the same ones (manifests.RenderedInUse, for both).
func TestRenderedInUse(t *testing.T) {
	dir := t.TempDir()
	mg := scenario(t, "catalog-digest-only").Build()
	const (
		current = "rendered-worker-11111111111111111111111111111111"
		desired = "rendered-worker-22222222222222222222222222222222"
		unused  = "rendered-worker-33333333333333333333333333333333"
	)
	for _, name := range []string{current, desired, unused} {
		mc := archivegen.UserConfig(name, "", "3.4.0", "/etc/"+name, "x\n")
		mg.Objects = append(mg.Objects, archivegen.Object{Group: "machineconfiguration.openshift.io", Resource: "machineconfigs", Name: name, Obj: mc})
	}
	annotated := ""
	for _, o := range mg.Objects {
		if n, ok := o.Obj.(*corev1.Node); ok && annotated == "" {
			n.Annotations[platform.MCOCurrentConfigAnnotation], n.Annotations[platform.MCODesiredConfigAnnotation] = current, desired
			annotated = n.Name
		}
	}
	if annotated == "" {
		t.Fatal("the scenario has no Node")
	}
	if _, err := mg.Write(filepath.Join(dir, archivegen.DestDir)); err != nil {
		t.Fatal(err)
	}
	res := Paths([]string{dir}, Options{})
	if len(res.Problems) > 0 || len(res.Clusters) != 1 {
		t.Fatalf("problems %v, %d clusters", res.Problems, len(res.Clusters))
	}
	objs := res.Clusters[0].Objects
	read := map[string]bool{}
	for _, o := range objs {
		if o.Kind == "MachineConfig" {
			read[o.Name] = true
		}
	}
	st := manifests.ReadState(objs)
	for name, want := range map[string]bool{current: true, desired: true, unused: false} {
		if read[name] != want {
			t.Errorf("%s read: %v, want %v (node %s annotates %s and %s)", name, read[name], want, annotated, current, desired)
		}
		if _, ok := st.Rendered[name]; ok != want {
			t.Errorf("%s in the state's rendered configs: %v, want %v", name, ok, want)
		}
	}
	for _, p := range st.Pools {
		for _, name := range []string{p.MCP.Spec.Configuration.Name, p.MCP.Status.Configuration.Name} {
			if !read[name] || st.Rendered[name] == nil {
				t.Errorf("pool %s's %s: read %v, in the state %v", p.Obj.Name, name, read[name], st.Rendered[name] != nil)
			}
		}
	}
}
