package archivegen

import (
	"fmt"

	configv1 "github.com/openshift/api/config/v1"
	mcfgv1 "github.com/openshift/api/machineconfiguration/v1"
	operatorv1 "github.com/openshift/api/operator/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/siteforge/siteforge/internal/cluster/egressip"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/upstream"
)

// Scenario is a named must-gather, with what it shows.
type Scenario struct {
	Name, About string
	Build       func() *MustGather
}

// Scenarios are the fixtures of the rules about a running cluster: each
// failing case and the passing case beside it.
var Scenarios = []Scenario{
	{"kcs6996487", "KCS 6996487: an AWS cluster (us-east-1, OVN-Kubernetes) with Local Zone edge nodes and cluster MTU 8901", func() *MustGather {
		return kcs(8901, nil).mustGather()
	}},
	{"kcs6996487-fixed", "the same cluster after the MTU migration to 1200", func() *MustGather {
		return kcs(1200, nil).mustGather()
	}},
	{"mtu-migration-phase1", "the KCS 6996487 cluster with phase 1 of the migration to 1200 rolled out and phase 2 not applied", func() *MustGather {
		return kcs(8901, &operatorv1.MTUMigration{
			Network: &operatorv1.MTUMigrationValues{From: ptr(uint32(8901)), To: ptr(uint32(1200))},
			Machine: &operatorv1.MTUMigrationValues{To: ptr(uint32(9001))},
		}).mustGather()
	}},
	{"mtu-migration-phase2-rolling", "the same cluster with phase 2 applied (cluster MTU 1200), rolling out: three of the five worker nodes still run phase 1's config", func() *MustGather {
		c := kcs(1200, nil)
		c.RollingFrom = &operatorv1.MTUMigration{
			Network: &operatorv1.MTUMigrationValues{From: ptr(uint32(8901)), To: ptr(uint32(1200))},
			Machine: &operatorv1.MTUMigrationValues{To: ptr(uint32(9001))},
		}
		return c.mustGather()
	}},
	{"catalog-digest-only", "a catalog pulled by tag through digest-only mirrors of a blocked registry: its pod in ImagePullBackOff", func() *MustGather {
		return catalogCluster(false).mustGather()
	}},
	{"catalog-tag-mirrored", "the same catalog with a tag mirror: its pod runs", func() *MustGather {
		return catalogCluster(true).mustGather()
	}},
	{"egressip-unassigned", "an EgressIP no node can host: no node is labelled egress-assignable, status.items is empty", func() *MustGather {
		return egressCluster(false).mustGather()
	}},
	{"egressip-assigned", "the same EgressIP on a labelled node, assigned", func() *MustGather {
		return egressCluster(true).mustGather()
	}},
	{"pool-degraded-ignition", "the worker pool RenderDegraded by a MachineConfig of Ignition 3.5.0 on 4.16", func() *MustGather {
		c := base("pools")
		c.UserConfigs = []*mcfgv1.MachineConfig{UserConfig("99-worker-chrony", platform.MachineConfigRoleWorker, "3.5.0", "/etc/chrony.conf", "server 10.0.0.2 iburst\n")}
		c.Degraded = &mcfgv1.MachineConfigPoolCondition{Type: mcfgv1.MachineConfigPoolRenderDegraded, Reason: "",
			Message: `Failed to render configuration for pool worker: parsing Ignition config failed: unknown version. Supported spec versions: 2.2, 3.0, 3.1, 3.2, 3.3, 3.4`}
		return c.mustGather()
	}},
	{"pool-degraded-node", "the worker pool NodeDegraded by a node's disk, with no MachineConfig siteforge flags", func() *MustGather {
		c := base("pools")
		c.UserConfigs = []*mcfgv1.MachineConfig{UserConfig("99-worker-chrony", platform.MachineConfigRoleWorker, "3.4.0", "/etc/chrony.conf", "server 10.0.0.2 iburst\n")}
		c.Degraded = &mcfgv1.MachineConfigPoolCondition{Type: mcfgv1.MachineConfigPoolNodeDegraded, Reason: "1 nodes are reporting degraded status on sync",
			Message: `Node ip-10-0-130-40.ec2.internal is reporting: "failed to write /etc/chrony.conf: no space left on device"`}
		return c.mustGather()
	}},
	{"mirrors-pool-paused", "the catalog's ImageTagMirrorSet added while the worker pool is paused: the masters run the new registries.conf, the workers the old one, and the catalog pod on a worker still fails to pull", func() *MustGather {
		c := catalogCluster(false)
		c.PendingMirrors = []Object{catalogTagMirror()}
		c.Pods[0].Spec.NodeName = c.nodes()[c.Masters].name
		c.Pods[0].Status.HostIP = c.nodes()[c.Masters].ip
		return c.mustGather()
	}},
	{"ingress-default-drops-platform-routes", "a shard for internal routes, and the default IngressController edited to serve only routes labelled type=public: the console, OAuth and canary routes carry no such label", func() *MustGather {
		return shardedCluster(&metav1.LabelSelector{MatchLabels: map[string]string{"type": "public"}}).mustGather()
	}},
	{"ingress-sharded", "the same shard, the default IngressController excluding its routes (type NotIn internal)", func() *MustGather {
		return shardedCluster(&metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{
			{Key: "type", Operator: metav1.LabelSelectorOpNotIn, Values: []string{"internal"}}}}).mustGather()
	}},
}

// fixtureRelease is the release every fixture cluster runs: KCS 6996487's
// (Local Zone edge pools from 4.14), before the MCO accepts Ignition 3.5.0.
const fixtureRelease = "4.16.3"

// base is a plain three-master, three-worker AWS cluster on fixtureRelease.
func base(name string) *Cluster {
	return &Cluster{Name: name, Region: "us-east-1", Version: fixtureRelease, ClusterMTU: 8901, Masters: 3,
		Workers: []string{"us-east-1a", "us-east-1b", "us-east-1c"}}
}

// kcs is KCS 6996487's cluster: two Local Zone edge nodes in the worker
// pool (maxUnavailable 2) beside three workers, at cluster MTU mtu.
func kcs(mtu uint32, migration *operatorv1.MTUMigration) *Cluster {
	c := base("kcs")
	c.ClusterMTU = mtu
	c.EdgeZones = []string{"us-east-1-nyc-1a", "us-east-1-nyc-1a"}
	c.WorkerMaxUnavailable = ptr(intstr.FromInt32(2))
	c.Migration = migration
	return c
}

func (c *Cluster) mustGather() *MustGather {
	m := &MustGather{ImageID: "quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:" + fmt.Sprintf("%064x", []byte(uid(c.Name + c.Version))[:32]),
		Version: "openshift/must-gather\n" + c.Version + "\n", Objects: c.Objects(), Logs: map[string]string{},
		Timestamp: "2026-03-09 16:40:00.000000000 +0000 UTC m=+0.1\n2026-03-09 16:43:12.000000000 +0000 UTC m=+192.3\n"}
	m.Events = map[string][]corev1.Event{"openshift-machine-config-operator": {{
		TypeMeta: typeMeta("v1", "Event"), ObjectMeta: meta("machine-config-daemon.17f2", "openshift-machine-config-operator", nil),
		InvolvedObject: corev1.ObjectReference{Kind: "Node", Name: "ip-10-0-2-100.ec2.internal"}, Reason: "NodeDone", Message: "Setting node ip-10-0-2-100.ec2.internal, currentConfig to " + c.renderedName("master"),
		Type: corev1.EventTypeNormal, Count: 1, FirstTimestamp: installed, LastTimestamp: installed, Source: corev1.EventSource{Component: "machineconfigdaemon"}}}}
	// inspect elides Secrets' data (a container log may still show a
	// credential): the pull secret's content must never be printed
	m.Secrets = map[string][]corev1.Secret{"openshift-config": {{
		TypeMeta: typeMeta("v1", "Secret"), ObjectMeta: meta("pull-secret", "openshift-config", nil), Type: corev1.SecretTypeDockerConfigJson,
		Data: map[string][]byte{corev1.DockerConfigJsonKey: []byte(`{"auths":{"registry.redhat.io":{"auth":"` + FixtureSecret + `"}}}`)}}}}
	for k, v := range c.Logs {
		m.Logs[k] = v
	}
	return m
}

// FixtureSecret is the credential every fixture's pull secret holds; no
// output of siteforge may contain it.
const FixtureSecret = "c2l0ZWZvcmdlLWZpeHR1cmU6bm90LWEtcmVhbC10b2tlbi0xYjJjM2Q0ZQ=="

// catalogCluster mirrors registry.redhat.io by digest only, blocks the
// source, and runs a catalog pulled by tag; tagMirror adds the
// ImageTagMirrorSet that serves it.
func catalogCluster(tagMirror bool) *Cluster {
	c := base("catalog")
	c.ClusterMTU = 8901
	const mirror = catalogMirror
	never := configv1.NeverContactSource
	c.Extra = append(c.Extra, Object{Group: "config.openshift.io", Resource: "imagedigestmirrorsets", Name: "idms-operator-0", Obj: &configv1.ImageDigestMirrorSet{
		TypeMeta: typeMeta("config.openshift.io/v1", "ImageDigestMirrorSet"), ObjectMeta: meta("idms-operator-0", "", nil),
		Spec: configv1.ImageDigestMirrorSetSpec{ImageDigestMirrors: []configv1.ImageDigestMirrors{{Source: "registry.redhat.io/redhat",
			Mirrors: []configv1.ImageMirror{mirror}, MirrorSourcePolicy: never}}}}})
	c.Extra = append(c.Extra, Object{Group: "config.openshift.io", Resource: "operatorhubs", Name: "cluster", Obj: &configv1.OperatorHub{
		TypeMeta: typeMeta("config.openshift.io/v1", "OperatorHub"), ObjectMeta: meta("cluster", "", nil),
		Spec: configv1.OperatorHubSpec{DisableAllDefaultSources: true}}})
	if tagMirror {
		c.Extra = append(c.Extra, catalogTagMirror())
	}
	const name, ns = "cs-redhat-operator-index", platform.MarketplaceNamespace
	image := "registry.redhat.io/redhat/redhat-operator-index:v4.16"
	state := "TRANSIENT_FAILURE"
	if tagMirror {
		state = "READY"
	}
	c.Extra = append(c.Extra, Object{Group: "operators.coreos.com", Resource: "catalogsources", Namespace: ns, Name: name, Obj: &catalogSource{
		CatalogSource: upstream.CatalogSource{TypeMeta: typeMeta("operators.coreos.com/v1alpha1", "CatalogSource"), ObjectMeta: meta(name, ns, nil),
			Spec: upstream.CatalogSourceSpec{SourceType: platform.CatalogSourceTypeGrpc, Image: image, DisplayName: "Red Hat Operators", Publisher: "Red Hat"}},
		Status: upstream.CatalogSourceStatus{GRPCConnectionState: &upstream.GRPCConnectionState{
			Address: name + "." + ns + ".svc:50051", LastObservedState: state, LastConnectTime: gathered}}}})
	pod := name + "-7x9kq"
	p := &corev1.Pod{TypeMeta: typeMeta("v1", "Pod"), ObjectMeta: meta(pod, ns, map[string]string{platform.CatalogPodLabel: name, "olm.pod-spec-hash": "6bd5b7cd7"}),
		Spec: corev1.PodSpec{NodeName: "ip-10-0-2-100.ec2.internal", ServiceAccountName: name,
			Containers: []corev1.Container{{Name: "registry-server", Image: image, Ports: []corev1.ContainerPort{{Name: "grpc", ContainerPort: 50051, Protocol: corev1.ProtocolTCP}}}}},
		Status: corev1.PodStatus{Phase: corev1.PodPending, PodIP: "10.129.0.34", HostIP: "10.0.2.100", StartTime: &gathered,
			Conditions: []corev1.PodCondition{{Type: corev1.ContainersReady, Status: corev1.ConditionFalse, Reason: "ContainersNotReady", Message: "containers with unready status: [registry-server]", LastTransitionTime: gathered}}}}
	status := corev1.ContainerStatus{Name: "registry-server", Image: image, Ready: false, RestartCount: 0,
		State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "ImagePullBackOff",
			Message: `Back-off pulling image "` + image + `"`}}}
	if tagMirror {
		p.Status.Phase = corev1.PodRunning
		p.Status.Conditions[0] = corev1.PodCondition{Type: corev1.ContainersReady, Status: corev1.ConditionTrue, LastTransitionTime: gathered}
		status.Ready, status.Started = true, ptr(true)
		status.ImageID = mirror + "/redhat-operator-index@sha256:" + fmt.Sprintf("%064x", []byte(uid(image))[:32])
		status.State = corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: gathered}}
	}
	p.Status.ContainerStatuses = []corev1.ContainerStatus{status}
	c.Pods = append(c.Pods, p)
	c.Logs = map[string]string{ns + "/" + pod + "/registry-server": "time=\"2026-03-09T16:39:58Z\" level=info msg=\"pulling with Authorization: Basic " + FixtureSecret + "\"\n"}
	return c
}

// catalogTagMirror is the ImageTagMirrorSet that serves the catalog's tag
// pull (catalogCluster).
func catalogTagMirror() Object {
	return Object{Group: "config.openshift.io", Resource: "imagetagmirrorsets", Name: "itms-operator-0", Obj: &configv1.ImageTagMirrorSet{
		TypeMeta: typeMeta("config.openshift.io/v1", "ImageTagMirrorSet"), ObjectMeta: meta("itms-operator-0", "", nil),
		Spec: configv1.ImageTagMirrorSetSpec{ImageTagMirrors: []configv1.ImageTagMirrors{{Source: "registry.redhat.io/redhat",
			Mirrors: []configv1.ImageMirror{catalogMirror}, MirrorSourcePolicy: configv1.NeverContactSource}}}}}
}

// catalogMirror is the mirror registry of catalogCluster.
const catalogMirror = "mirror.example.com:8443/redhat"

// catalogSource is a CatalogSource as a cluster holds it: with its status.
type catalogSource struct {
	upstream.CatalogSource `json:",inline"`
	Status                 upstream.CatalogSourceStatus `json:"status"`
}

// egressCluster has an EgressIP in the workers' subnet; assigned labels a
// worker egress-assignable and records the assignment.
func egressCluster(assigned bool) *Cluster {
	c := base("egress")
	c.EgressAssignable = assigned
	const ip = "10.0.130.200"
	e := &egressip.EgressIP{TypeMeta: typeMeta(egressip.GroupVersion.String(), "EgressIP"), ObjectMeta: meta("egress-prod", "", nil),
		Spec: egressip.EgressIPSpec{EgressIPs: []string{ip},
			NamespaceSelector: metav1.LabelSelector{MatchLabels: map[string]string{"env": "prod"}}},
		Status: &egressip.EgressIPStatus{Items: []egressip.EgressIPStatusItem{}}}
	if assigned {
		nodes := c.nodes()
		e.Status.Items = append(e.Status.Items, egressip.EgressIPStatusItem{Node: nodes[c.Masters].name, EgressIP: ip})
	}
	c.Extra = append(c.Extra, Object{Group: "k8s.ovn.org", Resource: "egressips", Name: e.Name, Obj: e})
	return c
}

// shardedCluster has a router shard "internal" (its own domain, the routes
// labelled type=internal) and the default IngressController's
// routeSelector as given.
func shardedCluster(defaultRoutes *metav1.LabelSelector) *Cluster {
	c := base("ingress")
	c.DefaultRouteSelector = defaultRoutes
	shard := c.IngressController("internal", operatorv1.IngressControllerSpec{Domain: "internal." + c.appsDomain(),
		RouteSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"type": "internal"}}})
	c.Extra = append(c.Extra, Object{Group: "operator.openshift.io", Resource: "ingresscontrollers", Namespace: shard.Namespace, Name: shard.Name, Obj: shard})
	return c
}
