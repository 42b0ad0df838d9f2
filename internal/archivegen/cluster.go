package archivegen

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"time"

	configv1 "github.com/openshift/api/config/v1"
	mcfgv1 "github.com/openshift/api/machineconfiguration/v1"
	operatorv1 "github.com/openshift/api/operator/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	k8stypes "k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/registries"
)

// The clock of every synthetic cluster: objects are created at installed,
// and the must-gather is taken at gathered.
var (
	installed = metav1.NewTime(time.Date(2026, 3, 2, 9, 14, 0, 0, time.UTC))
	gathered  = metav1.NewTime(time.Date(2026, 3, 9, 16, 40, 0, 0, time.UTC))
)

func typeMeta(apiVersion, kind string) metav1.TypeMeta {
	return metav1.TypeMeta{APIVersion: apiVersion, Kind: kind}
}

func meta(name, namespace string, labels map[string]string) metav1.ObjectMeta {
	return metav1.ObjectMeta{Name: name, Namespace: namespace, Labels: labels, CreationTimestamp: installed,
		UID: uid(namespace + "/" + name), ResourceVersion: fmt.Sprint(10000 + len(name)*37 + len(namespace))}
}

// uid is a stable UID for a name (the fixtures must not change run to run).
func uid(s string) k8stypes.UID {
	h := uint64(1469598103934665603)
	for _, c := range []byte(s) {
		h = (h ^ uint64(c)) * 1099511628211
	}
	return k8stypes.UID(fmt.Sprintf("%08x-%04x-4%03x-a%03x-%012x", uint32(h), uint16(h>>32), uint16(h>>44)&0xfff, uint16(h>>20)&0xfff, h&0xffffffffffff))
}

// Cluster describes a synthetic AWS cluster (OVN-Kubernetes) before it is
// turned into objects.
type Cluster struct {
	Name, Region, Version string
	// ClusterMTU is the applied cluster MTU (Network.config
	// status.clusterNetworkMTU, the operator's ovnKubernetesConfig.mtu).
	ClusterMTU uint32
	Masters    int
	// Workers are the worker nodes' zones, EdgeZones the Local Zone
	// nodes' zones (worker pool, edge role).
	Workers, EdgeZones []string
	// WorkerMaxUnavailable is the worker pool's spec.maxUnavailable (nil:
	// MCO's default).
	WorkerMaxUnavailable *intstr.IntOrString
	// Migration is Network.operator spec.migration.mtu (phase 1 applied),
	// nil when no migration runs.
	Migration *operatorv1.MTUMigration
	// RollingFrom is, with phase 2 applied (Migration nil), phase 1's
	// migration, whose rendered config the worker pool's nodes still run
	// but the first two: phase 2 is rolling out there.
	RollingFrom *operatorv1.MTUMigration
	// UserConfigs are the users' MachineConfigs.
	UserConfigs []*mcfgv1.MachineConfig
	// Degraded, when set, degrades the worker pool with this condition
	// type and message.
	Degraded *mcfgv1.MachineConfigPoolCondition
	// EgressAssignable labels the first worker k8s.ovn.org/egress-assignable.
	EgressAssignable bool
	// PendingMirrors are mirror objects (like Extra) created last: the
	// master pool runs the registries.conf MCO renders with them, while the
	// worker pool is paused (spec.paused) and its nodes still run the
	// rendered config from before them.
	PendingMirrors []Object
	// DefaultRouteSelector is the default IngressController's
	// spec.routeSelector (nil: none, the operator's default).
	DefaultRouteSelector *metav1.LabelSelector
	// Extra are more objects (mirror sets, catalogs, EgressIPs, ...).
	Extra []Object
	// Pods are more pods, with their logs (namespace/pod/container).
	Pods []*corev1.Pod
	Logs map[string]string
}

// node is one node of the cluster.
type node struct {
	name, zone, role, pool, ip string
	edge                       bool
}

func (c *Cluster) nodes() []node {
	var out []node
	zones := []string{c.Region + "a", c.Region + "b", c.Region + "c"}
	for i := 0; i < c.Masters; i++ {
		out = append(out, node{role: "master", pool: "master", zone: zones[i%3], ip: fmt.Sprintf("10.0.%d.%d", 16*(i%3)+2, 100+i)})
	}
	for i, z := range c.Workers {
		out = append(out, node{role: "worker", pool: "worker", zone: z, ip: fmt.Sprintf("10.0.%d.%d", 16*(i%3)+130, 40+i)})
	}
	for i, z := range c.EdgeZones {
		out = append(out, node{role: "worker", pool: "worker", zone: z, edge: true, ip: fmt.Sprintf("10.0.%d.%d", 208+i, 20+i)})
	}
	for i := range out {
		parts := strings.Split(out[i].ip, ".")
		out[i].name = fmt.Sprintf("ip-10-0-%s-%s.ec2.internal", parts[2], parts[3])
	}
	return out
}

// renderedName is the rendered config of a pool, as MCO names it
// (rendered-<pool>-<hash of the configs>).
func (c *Cluster) renderedName(pool string) string {
	return c.renderedNameOf(pool, c.Migration != nil, true)
}

// runningName is the rendered config a pool's nodes run (its
// status.configuration): the one of phase 1 while phase 2 rolls out, the
// one from before PendingMirrors on the paused worker pool.
func (c *Cluster) runningName(pool string) string {
	return c.renderedNameOf(pool, c.runningMigration(pool) != nil, !c.pending(pool))
}

// runningMigration is the MTU migration the rendered config a pool's
// nodes run carries.
func (c *Cluster) runningMigration(pool string) *operatorv1.MTUMigration {
	if c.RollingFrom != nil && pool == platform.MachineConfigRoleWorker {
		return c.RollingFrom
	}
	return c.Migration
}

// pending reports whether a pool's nodes do not run PendingMirrors yet
// (the worker pool, paused).
func (c *Cluster) pending(pool string) bool {
	return len(c.PendingMirrors) > 0 && pool == platform.MachineConfigRoleWorker
}

func (c *Cluster) renderedNameOf(pool string, migrating, withPending bool) string {
	key := fmt.Sprintf("%s/%d/%v", pool, c.ClusterMTU, migrating)
	for _, mc := range c.UserConfigs {
		key += "/" + mc.Name
	}
	if withPending {
		for _, o := range c.PendingMirrors {
			key += "/" + o.Name
		}
	}
	return fmt.Sprintf("rendered-%s-%s", pool, strings.ReplaceAll(string(uid(key)), "-", "")[:32])
}

// releaseImage is the release payload the cluster runs.
func (c *Cluster) releaseImage() string {
	return "quay.io/openshift-release-dev/ocp-release@sha256:" + strings.Repeat("4e", 32)
}

// registriesConf is the registries.conf MCO renders from the cluster's
// mirror objects and image.config (with PendingMirrors or without), as
// siteforge's reproduction of MCO renders it (internal/registries); written
// false when MCO writes none and the nodes keep the template of
// 01-<role>-container-runtime.
func (c *Cluster) registriesConf(withPending bool) (data []byte, written bool) {
	minor, err := platform.ParseOCPMinor(c.Version)
	if err != nil {
		panic(err)
	}
	in := registries.Input{Minor: int(minor), ReleaseImage: c.releaseImage()}
	objs := c.Extra
	if withPending {
		objs = append(append([]Object{}, objs...), c.PendingMirrors...)
	}
	for _, o := range objs {
		switch x := o.Obj.(type) {
		case *configv1.ImageDigestMirrorSet:
			in.DigestMirrorSets = append(in.DigestMirrorSets, *x)
		case *configv1.ImageTagMirrorSet:
			in.TagMirrorSets = append(in.TagMirrorSets, *x)
		case *configv1.Image:
			in.Image = x
		}
	}
	conf, err := registries.Render(in)
	if err != nil {
		panic(fmt.Sprintf("archivegen: MCO would refuse the fixture's mirror objects: %v", err))
	}
	data, err = conf.TOML()
	if err != nil {
		panic(err)
	}
	return data, conf.Written
}

// Objects turns the description into the cluster's objects.
func (c *Cluster) Objects() []Object {
	var out []Object
	add := func(group, resource string, obj any) {
		m := objectMeta(obj)
		out = append(out, Object{Group: group, Resource: resource, Namespace: m.Namespace, Name: m.Name, Obj: obj})
	}
	mtu := c.ClusterMTU
	cn := []configv1.ClusterNetworkEntry{{CIDR: "10.128.0.0/14", HostPrefix: 23}}
	sn := []string{"172.30.0.0/16"}
	netCfg := &configv1.Network{TypeMeta: typeMeta("config.openshift.io/v1", "Network"), ObjectMeta: meta("cluster", "", nil),
		Spec:   configv1.NetworkSpec{ClusterNetwork: cn, ServiceNetwork: sn, NetworkType: platform.OVNKubernetes},
		Status: configv1.NetworkStatus{ClusterNetwork: cn, ServiceNetwork: sn, NetworkType: platform.OVNKubernetes, ClusterNetworkMTU: int(mtu)}}
	netCfg.Generation = 2
	if m := c.Migration; m != nil {
		netCfg.Status.Migration = &configv1.NetworkMigration{MTU: &configv1.MTUMigration{
			Network: (*configv1.MTUMigrationValues)(m.Network), Machine: (*configv1.MTUMigrationValues)(m.Machine)}}
	}
	add("config.openshift.io", "networks", netCfg)

	genevePort := uint32(6081)
	op := &operatorv1.Network{TypeMeta: typeMeta("operator.openshift.io/v1", "Network"), ObjectMeta: meta("cluster", "", nil),
		Spec: operatorv1.NetworkSpec{
			OperatorSpec:   operatorv1.OperatorSpec{ManagementState: operatorv1.Managed},
			ClusterNetwork: []operatorv1.ClusterNetworkEntry{{CIDR: "10.128.0.0/14", HostPrefix: 23}}, ServiceNetwork: sn,
			DefaultNetwork: operatorv1.DefaultNetworkDefinition{Type: operatorv1.NetworkTypeOVNKubernetes,
				OVNKubernetesConfig: &operatorv1.OVNKubernetesConfig{MTU: &mtu, GenevePort: &genevePort}},
		},
		Status: operatorv1.NetworkStatus{OperatorStatus: operatorv1.OperatorStatus{ObservedGeneration: 3, ReadyReplicas: 0,
			Conditions: []operatorv1.OperatorCondition{
				{Type: "Available", Status: operatorv1.ConditionTrue, LastTransitionTime: installed},
				{Type: "Degraded", Status: operatorv1.ConditionFalse, LastTransitionTime: installed},
				{Type: "Progressing", Status: operatorv1.ConditionFalse, LastTransitionTime: installed},
			}}},
	}
	if c.Migration != nil {
		op.Spec.Migration = &operatorv1.NetworkMigration{MTU: c.Migration}
	}
	add("operator.openshift.io", "networks", op)

	add("config.openshift.io", "infrastructures", &configv1.Infrastructure{TypeMeta: typeMeta("config.openshift.io/v1", "Infrastructure"),
		ObjectMeta: meta("cluster", "", nil),
		Spec:       configv1.InfrastructureSpec{PlatformSpec: configv1.PlatformSpec{Type: configv1.AWSPlatformType, AWS: &configv1.AWSPlatformSpec{}}},
		Status: configv1.InfrastructureStatus{InfrastructureName: c.Name + "-7xk2p", Platform: configv1.AWSPlatformType,
			PlatformStatus:       &configv1.PlatformStatus{Type: configv1.AWSPlatformType, AWS: &configv1.AWSPlatformStatus{Region: c.Region}},
			APIServerURL:         "https://api." + c.Name + ".example.com:6443",
			APIServerInternalURL: "https://api-int." + c.Name + ".example.com:6443",
			ControlPlaneTopology: configv1.HighlyAvailableTopologyMode, InfrastructureTopology: configv1.HighlyAvailableTopologyMode,
			CPUPartitioning: configv1.CPUPartitioningNone}})

	image := c.releaseImage()
	minor := c.Version[:strings.LastIndexByte(c.Version, '.')]
	add("config.openshift.io", "clusterversions", &configv1.ClusterVersion{TypeMeta: typeMeta("config.openshift.io/v1", "ClusterVersion"),
		ObjectMeta: meta("version", "", nil),
		Spec:       configv1.ClusterVersionSpec{ClusterID: configv1.ClusterID(uid(c.Name)), Channel: "stable-" + minor},
		Status: configv1.ClusterVersionStatus{
			Desired: configv1.Release{Version: c.Version, Image: image, Channels: []string{"stable-" + minor}},
			History: []configv1.UpdateHistory{{State: configv1.CompletedUpdate, StartedTime: installed, CompletionTime: &installed, Version: c.Version, Image: image}},
			Conditions: []configv1.ClusterOperatorStatusCondition{
				{Type: configv1.OperatorAvailable, Status: configv1.ConditionTrue, LastTransitionTime: installed, Message: "Done applying " + c.Version},
				{Type: configv1.OperatorProgressing, Status: configv1.ConditionFalse, LastTransitionTime: installed, Message: "Cluster version is " + c.Version},
			}}})

	nodes := c.nodes()
	for i, n := range nodes {
		updated := i < c.Masters+2 // phase 2 reached the first two workers (RollingFrom)
		add(platform.MustGatherCoreGroup, "nodes", c.node(n, i == len(nodes)-len(c.EdgeZones)-len(c.Workers) && c.EgressAssignable, updated))
	}
	for _, pool := range platform.BuiltinPools {
		add("machineconfiguration.openshift.io", "machineconfigpools", c.pool(pool, nodes))
		for _, mc := range c.baseConfigs(pool) {
			add("machineconfiguration.openshift.io", "machineconfigs", mc)
		}
	}
	for _, mc := range c.UserConfigs {
		add("machineconfiguration.openshift.io", "machineconfigs", mc)
	}
	add("config.openshift.io", "ingresses", &configv1.Ingress{TypeMeta: typeMeta("config.openshift.io/v1", "Ingress"), ObjectMeta: meta("cluster", "", nil),
		Spec: configv1.IngressSpec{Domain: c.appsDomain()}})
	add("operator.openshift.io", "ingresscontrollers", c.IngressController(platform.IngressDefaultControllerName, operatorv1.IngressControllerSpec{RouteSelector: c.DefaultRouteSelector}))
	for _, p := range c.Pods {
		add(platform.MustGatherCoreGroup, "pods", p)
	}
	return append(append(out, c.Extra...), c.PendingMirrors...)
}

// appsDomain is the cluster's ingress domain (the installer's
// apps.<cluster>.<base domain>).
func (c *Cluster) appsDomain() string {
	return "apps." + c.Name + ".example.com"
}

// IngressController is an IngressController of the cluster with its status,
// as the ingress operator keeps it: admitted, its domain spec.domain or,
// without one, the Ingress config's (cluster-ingress-operator
// pkg/operator/controller/ingress controller.go setDefaultDomain), published
// through a load balancer (AWS).
func (c *Cluster) IngressController(name string, spec operatorv1.IngressControllerSpec) *operatorv1.IngressController {
	spec.HTTPEmptyRequestsPolicy = operatorv1.HTTPEmptyRequestsPolicyRespond
	domain := spec.Domain
	if domain == "" {
		domain = c.appsDomain()
	}
	return &operatorv1.IngressController{TypeMeta: typeMeta("operator.openshift.io/v1", "IngressController"),
		ObjectMeta: meta(name, platform.IngressOperatorNamespace, nil), Spec: spec,
		Status: operatorv1.IngressControllerStatus{AvailableReplicas: 2, Selector: "ingresscontroller.operator.openshift.io/deployment-ingresscontroller=" + name,
			Domain: domain, EndpointPublishingStrategy: &operatorv1.EndpointPublishingStrategy{Type: operatorv1.LoadBalancerServiceStrategyType},
			Conditions: []operatorv1.OperatorCondition{{Type: "Admitted", Status: operatorv1.ConditionTrue, LastTransitionTime: installed}}}}
}

func objectMeta(obj any) metav1.ObjectMeta {
	if o, ok := obj.(metav1.ObjectMetaAccessor); ok {
		return *o.GetObjectMeta().(*metav1.ObjectMeta)
	}
	panic(fmt.Sprintf("archivegen: %T has no metadata", obj))
}

func (c *Cluster) node(n node, egress, updated bool) *corev1.Node {
	labels := map[string]string{
		"beta.kubernetes.io/arch": "amd64", "beta.kubernetes.io/os": "linux",
		"kubernetes.io/arch": "amd64", "kubernetes.io/hostname": strings.TrimSuffix(n.name, ".ec2.internal"), platform.OSLabel: platform.OSLabelValue,
		"node.kubernetes.io/instance-type": "m6i.xlarge", "node.openshift.io/os_id": "rhcos",
		"topology.kubernetes.io/region": c.Region, platform.ZoneLabel: n.zone,
		"failure-domain.beta.kubernetes.io/region": c.Region, "failure-domain.beta.kubernetes.io/zone": n.zone,
		platform.NodeRolePrefix + n.role: "",
	}
	var taints []corev1.Taint
	if n.role == "master" {
		taints = append(taints, corev1.Taint{Key: platform.MasterTaintKey, Effect: corev1.TaintEffectNoSchedule})
		labels[platform.NodeRolePrefix+"control-plane"] = ""
	}
	if n.edge {
		// the installer's edge MachineSets (platform.EdgeRoleLabel)
		labels[platform.EdgeRoleLabel] = ""
		labels["machine.openshift.io/zone-type"] = string(platform.AWSLocalZone)
		labels["machine.openshift.io/zone-group"] = strings.TrimSuffix(n.zone, "a")
		labels["node.kubernetes.io/instance-type"] = "c5d.2xlarge"
		taints = append(taints, corev1.Taint{Key: platform.EdgeTaintKey, Effect: corev1.TaintEffectNoSchedule})
	}
	if egress {
		labels[platform.EgressAssignableLabel] = ""
	}
	subnet := n.ip[:strings.LastIndexByte(n.ip, '.')]
	prefix := subnet + ".0/20"
	if n.edge {
		prefix = subnet + ".0/24"
	}
	rendered, current := c.renderedName(n.pool), c.renderedName(n.pool)
	switch {
	case c.pending(n.pool):
		// a paused pool's nodes are given no new config
		rendered, current = c.runningName(n.pool), c.runningName(n.pool)
	case !updated:
		current = c.runningName(n.pool)
	}
	obj := &corev1.Node{TypeMeta: typeMeta("v1", "Node"), ObjectMeta: meta(n.name, "", labels),
		Spec: corev1.NodeSpec{ProviderID: fmt.Sprintf("aws:///%s/i-0%015x", n.zone, []byte(uid(n.name))[:8]), Taints: taints},
		Status: corev1.NodeStatus{
			Capacity: corev1.ResourceList{}, Allocatable: corev1.ResourceList{},
			Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue, Reason: "KubeletReady",
				Message: "kubelet is posting ready status", LastHeartbeatTime: gathered, LastTransitionTime: installed}},
			Addresses: []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: n.ip}, {Type: corev1.NodeHostName, Address: n.name},
				{Type: corev1.NodeInternalDNS, Address: n.name}},
			NodeInfo: corev1.NodeSystemInfo{KernelVersion: "5.14.0-427.26.1.el9_4.x86_64", OSImage: "Red Hat Enterprise Linux CoreOS 416.94",
				ContainerRuntimeVersion: "cri-o://1.29.6", KubeletVersion: "v1.29.6+aba1e8d", OperatingSystem: "linux", Architecture: "amd64"},
		},
	}
	obj.Annotations = map[string]string{
		platform.MCOCurrentConfigAnnotation: current, platform.MCODesiredConfigAnnotation: rendered, platform.MCOStateAnnotation: "Done",
		platform.NodeHostCIDRsAnnotation:     fmt.Sprintf(`["%s/%s"]`, n.ip, prefix[strings.IndexByte(prefix, '/')+1:]),
		platform.NodePrimaryIfAddrAnnotation: fmt.Sprintf(`{"ipv4":"%s/%s"}`, n.ip, prefix[strings.IndexByte(prefix, '/')+1:]),
		platform.EgressCloudCapacityAnnotation: fmt.Sprintf(`[{"interface":"eni-0%015x","ifaddr":{"ipv4":"%s"},"capacity":{"ipv4":14,"ipv6":15}}]`,
			[]byte(uid(n.name + "eni"))[:8], prefix),
		"volumes.kubernetes.io/controller-managed-attach-detach": "true",
	}
	return obj
}

// pool is a built-in MachineConfigPool with its status: every node
// updated to the rendered config, or degraded as c.Degraded says.
func (c *Cluster) pool(name string, nodes []node) *mcfgv1.MachineConfigPool {
	count := int32(0)
	for _, n := range nodes {
		if n.pool == name {
			count++
		}
	}
	rendered := c.renderedName(name)
	var sources []corev1.ObjectReference
	for _, mc := range c.baseConfigs(name) {
		if !strings.HasPrefix(mc.Name, platform.RenderedMachineConfigPrefix) {
			sources = append(sources, corev1.ObjectReference{APIVersion: "machineconfiguration.openshift.io/v1", Kind: "MachineConfig", Name: mc.Name})
		}
	}
	for _, mc := range c.UserConfigs {
		if mc.Labels[platform.MachineConfigRoleLabel] == name {
			sources = append(sources, corev1.ObjectReference{APIVersion: "machineconfiguration.openshift.io/v1", Kind: "MachineConfig", Name: mc.Name})
		}
	}
	cfg := mcfgv1.MachineConfigPoolStatusConfiguration{ObjectReference: corev1.ObjectReference{Name: rendered}, Source: sources}
	running := cfg
	running.Name = c.runningName(name)
	p := &mcfgv1.MachineConfigPool{TypeMeta: typeMeta("machineconfiguration.openshift.io/v1", "MachineConfigPool"),
		ObjectMeta: meta(name, "", map[string]string{"machineconfiguration.openshift.io/mco-built-in": "", fmt.Sprintf(platform.PoolSelectorLabelFormat, name): ""}),
		Spec: mcfgv1.MachineConfigPoolSpec{
			MachineConfigSelector: &metav1.LabelSelector{MatchLabels: map[string]string{platform.MachineConfigRoleLabel: name}},
			NodeSelector:          &metav1.LabelSelector{MatchLabels: map[string]string{platform.NodeRolePrefix + name: ""}},
			Configuration:         cfg,
		},
		Status: mcfgv1.MachineConfigPoolStatus{ObservedGeneration: 4, Configuration: running,
			MachineCount: count, UpdatedMachineCount: count, ReadyMachineCount: count},
	}
	if name == platform.MachineConfigRoleWorker {
		p.Spec.MaxUnavailable = c.WorkerMaxUnavailable
	}
	cond := func(t mcfgv1.MachineConfigPoolConditionType, s corev1.ConditionStatus, reason, msg string) mcfgv1.MachineConfigPoolCondition {
		return mcfgv1.MachineConfigPoolCondition{Type: t, Status: s, LastTransitionTime: installed, Reason: reason, Message: msg}
	}
	p.Status.Conditions = []mcfgv1.MachineConfigPoolCondition{
		cond(mcfgv1.MachineConfigPoolUpdated, corev1.ConditionTrue, "", "All nodes are updated with "+rendered),
		cond(mcfgv1.MachineConfigPoolUpdating, corev1.ConditionFalse, "", ""),
		cond(mcfgv1.MachineConfigPoolNodeDegraded, corev1.ConditionFalse, "", ""),
		cond(mcfgv1.MachineConfigPoolRenderDegraded, corev1.ConditionFalse, "", ""),
		cond(mcfgv1.MachineConfigPoolDegraded, corev1.ConditionFalse, "", ""),
	}
	switch {
	case c.pending(name):
		// paused with a new rendered config: no node is given it
		// (MCO pkg/controller/node: a paused pool is not updated)
		p.Spec.Paused = true
		p.Status.UpdatedMachineCount, p.Status.ReadyMachineCount = 0, 0
		for i := range p.Status.Conditions {
			if p.Status.Conditions[i].Type == mcfgv1.MachineConfigPoolUpdated {
				p.Status.Conditions[i] = cond(mcfgv1.MachineConfigPoolUpdated, corev1.ConditionFalse, "", "")
			}
		}
	case running.Name != rendered:
		// phase 2 rolls out: two nodes updated, one at a time
		p.Status.UpdatedMachineCount, p.Status.ReadyMachineCount, p.Status.UnavailableMachineCount = 2, count-1, 1
		for i := range p.Status.Conditions {
			switch p.Status.Conditions[i].Type {
			case mcfgv1.MachineConfigPoolUpdated:
				p.Status.Conditions[i] = cond(mcfgv1.MachineConfigPoolUpdated, corev1.ConditionFalse, "", "")
			case mcfgv1.MachineConfigPoolUpdating:
				p.Status.Conditions[i] = cond(mcfgv1.MachineConfigPoolUpdating, corev1.ConditionTrue, "", "All nodes are updating to MachineConfig "+rendered)
			}
		}
	}
	if d := c.Degraded; d != nil && name == platform.MachineConfigRoleWorker {
		for i := range p.Status.Conditions {
			switch p.Status.Conditions[i].Type {
			case d.Type:
				p.Status.Conditions[i] = cond(d.Type, corev1.ConditionTrue, d.Reason, d.Message)
			case mcfgv1.MachineConfigPoolDegraded:
				p.Status.Conditions[i] = cond(mcfgv1.MachineConfigPoolDegraded, corev1.ConditionTrue, "", d.Message)
			case mcfgv1.MachineConfigPoolUpdated:
				p.Status.Conditions[i] = cond(mcfgv1.MachineConfigPoolUpdated, corev1.ConditionFalse, "", "")
			}
		}
		if d.Type == mcfgv1.MachineConfigPoolNodeDegraded {
			p.Status.DegradedMachineCount = 1
		}
	}
	return p
}

// baseConfigs are the configs MCO generates for a role: 00-<role>,
// 01-<role>-kubelet (both write kubelet.service, as MCO's templates do),
// 01-<role>-container-runtime (the registries.conf template),
// 99-<role>-generated-registries when the mirror objects make MCO write
// registries.conf, and the pool's rendered config, which merges every
// source (the registries.conf its nodes run) and, during an MTU migration,
// carries platform.MCOUnitMTUMigration; with the rendered config the
// pool's nodes still run when it is another.
func (c *Cluster) baseConfigs(role string) []*mcfgv1.MachineConfig {
	kubelet := unit{Name: "kubelet.service", Enabled: true, Contents: "[Unit]\nDescription=Kubernetes Kubelet\n[Service]\nExecStart=/usr/bin/kubelet\n"}
	base := []unit{{Name: "crio.service", Enabled: true}, kubelet}
	owner := metav1.OwnerReference{APIVersion: "machineconfiguration.openshift.io/v1", Kind: "ControllerConfig", Name: "machine-config-controller",
		UID: uid("controllerconfig"), Controller: ptr(true), BlockOwnerDeletion: ptr(true)}
	generated := func(name string, units []unit, files []file, owner metav1.OwnerReference, labels map[string]string) *mcfgv1.MachineConfig {
		mc := &mcfgv1.MachineConfig{TypeMeta: typeMeta("machineconfiguration.openshift.io/v1", "MachineConfig"), ObjectMeta: meta(name, "", labels)}
		mc.Annotations = map[string]string{platform.MCOGeneratedAnnotation: "f1c9a3d0e2b4c6a8f0e1d2c3b4a5968778695a4b", "machineconfiguration.openshift.io/release-image-version": c.Version}
		mc.OwnerReferences = []metav1.OwnerReference{owner}
		mc.Spec.Config = ignition(units, files)
		return mc
	}
	// the registries.conf template (MCO templates/*/01-*-container-runtime/_base/files/container-registries.yaml),
	// and the file MCO generates from the mirror objects over it
	// (99-<role>-generated-registries: pkg/controller/container-runtime-config
	// container_runtime_config_controller.go syncImageConfig); the rendered
	// config holds the last of them
	template := []file{registriesFile(fmt.Sprintf("unqualified-search-registries = ['%s']\n", strings.Join(platform.DefaultUnqualifiedSearchRegistries(), "', '")))}
	nodeFile := func(withPending bool) []file {
		if data, written := c.registriesConf(withPending); written {
			return []file{registriesFile(string(data))}
		}
		return template
	}
	roleLabel := map[string]string{platform.MachineConfigRoleLabel: role}
	withMigration := func(m *operatorv1.MTUMigration) []unit {
		rendered := append([]unit{}, base...)
		if m == nil {
			return rendered
		}
		env := ""
		if m.Machine != nil && m.Machine.To != nil {
			env += fmt.Sprintf("Environment=%s=%d\n", platform.MCOMTUMigrationMachineEnv, *m.Machine.To)
		}
		if m.Network != nil && m.Network.To != nil {
			env += fmt.Sprintf("Environment=%s=%d\n", platform.MCOMTUMigrationNetworkEnv, *m.Network.To)
		}
		return append(rendered, unit{Name: platform.MCOUnitMTUMigration, Enabled: true,
			Contents: "[Unit]\nDescription=Configures interfaces and routes with temporary MTUs during MTU migration\n[Service]\nType=oneshot\nEnvironment=NETWORK_TYPE=OVNKubernetes\n" + env + "ExecStart=/usr/local/bin/mtu-migration.sh\n"})
	}
	poolOwner := metav1.OwnerReference{APIVersion: "machineconfiguration.openshift.io/v1", Kind: "MachineConfigPool", Name: role,
		UID: uid("/" + role), Controller: ptr(true), BlockOwnerDeletion: ptr(true)}
	out := []*mcfgv1.MachineConfig{
		generated("00-"+role, base, nil, owner, roleLabel),
		generated("01-"+role+"-container-runtime", nil, template, owner, roleLabel),
		generated("01-"+role+"-kubelet", []unit{kubelet}, nil, owner, roleLabel),
	}
	if data, written := c.registriesConf(true); written {
		out = append(out, generated(fmt.Sprintf(platform.RegistriesMachineConfigNameFormat, role), nil, []file{registriesFile(string(data))}, owner, roleLabel))
	}
	out = append(out, generated(c.renderedName(role), withMigration(c.Migration), nodeFile(true), poolOwner, nil))
	if running := c.runningName(role); running != c.renderedName(role) {
		out = append(out, generated(running, withMigration(c.runningMigration(role)), nodeFile(!c.pending(role)), poolOwner, nil))
	}
	return out
}

// unit is an Ignition systemd unit.
type unit struct {
	Name     string `json:"name"`
	Enabled  bool   `json:"enabled"`
	Contents string `json:"contents,omitempty"`
}

// file is an Ignition storage.files entry.
type file struct {
	Path      string `json:"path"`
	Mode      int    `json:"mode"`
	Overwrite bool   `json:"overwrite"`
	Contents  struct {
		Source string `json:"source"`
	} `json:"contents"`
}

// registriesFile is platform.RegistriesConfPath with content, as MCO
// writes its files (mode 0644, a base64 data URL).
func registriesFile(content string) file {
	f := file{Path: platform.RegistriesConfPath, Mode: 0o644, Overwrite: true}
	f.Contents.Source = "data:text/plain;charset=utf-8;base64," + base64.StdEncoding.EncodeToString([]byte(content))
	return f
}

// ignition is an Ignition 3.4.0 config of systemd units and files (the
// version MCO renders from 4.14).
func ignition(units []unit, files []file) runtime.RawExtension {
	cfg := map[string]any{"ignition": map[string]any{"version": "3.4.0"}}
	if len(units) > 0 {
		cfg["systemd"] = map[string]any{"units": units}
	}
	if len(files) > 0 {
		cfg["storage"] = map[string]any{"files": files}
	}
	raw, _ := json.Marshal(cfg)
	return runtime.RawExtension{Raw: raw}
}

// UserConfig is a user's MachineConfig writing one file, with the Ignition
// version given.
func UserConfig(name, role, ignitionVersion, path, content string) *mcfgv1.MachineConfig {
	mc := &mcfgv1.MachineConfig{TypeMeta: typeMeta("machineconfiguration.openshift.io/v1", "MachineConfig"),
		ObjectMeta: meta(name, "", map[string]string{platform.MachineConfigRoleLabel: role})}
	raw, _ := json.Marshal(map[string]any{"ignition": map[string]any{"version": ignitionVersion}, "storage": map[string]any{"files": []any{
		map[string]any{"path": path, "mode": 0o644, "overwrite": true, "contents": map[string]any{"source": "data:," + url.PathEscape(content)}},
	}}})
	mc.Spec.Config = runtime.RawExtension{Raw: raw}
	return mc
}

func ptr[T any](v T) *T { return &v }
