package platform

// Node labels the cluster sets itself. They are what a router's node selector
// and a MachineConfigPool's node selector can match.
const (
	// NodeRolePrefix prefixes a node's role labels: kubelet sets
	// node-role.kubernetes.io/worker on every node running the worker
	// MachineConfigs (custom pools inherit them), the installer
	// node-role.kubernetes.io/master on the control plane.
	NodeRolePrefix  = "node-role.kubernetes.io/" // MCO templates kubelet.service --node-labels; docs "Creating a custom machine config pool"
	MasterRoleLabel = NodeRolePrefix + "master"
	WorkerRoleLabel = NodeRolePrefix + "worker"
	// RemoteWorkerLabel marks the remote workers baremetal IPI detects from
	// 4.13; the router Deployment of every IngressController gets a required
	// node affinity NotIn [""] on it unless the cluster's default placement is
	// ControlPlane.
	RemoteWorkerLabel = "node.openshift.io/remote-worker" // CIO pkg/operator/controller names.go RemoteWorkerLabel; deployment.go desiredRouterDeployment
	// OSLabel is set by kubelet on every node; the router's default node
	// selector uses it.
	OSLabel      = "kubernetes.io/os" // CIO deployment.go desiredRouterDeployment default nodeSelector
	OSLabelValue = "linux"
	// ZoneLabel is the well-known topology label (the cloud provider sets it).
	ZoneLabel = "topology.kubernetes.io/zone" // k8s.io/api core/v1 LabelTopologyZone
	// NamespaceNameLabel is the label every namespace carries with its own
	// name (a namespace selector can match one namespace by it).
	NamespaceNameLabel = "kubernetes.io/metadata.name" // kube-apiserver NamespaceDefaultLabelName (NamespaceDefaultLabelName admission)
)

// AWS edge compute (Local Zone and Wavelength Zone) machines carry the
// edge role label and a NoSchedule taint, so only workloads that tolerate
// it run there: the installer's edge MachineSets set both
// (openshift/installer pkg/asset/machines/aws/machinesets.go MachineSets:
// label node-role.kubernetes.io/edge, taint node-role.kubernetes.io/edge
// NoSchedule), and the docs' MachineSet for a Local Zone added on day 2
// does the same (docs "Creating a compute machine set in AWS Local Zones").
const (
	EdgeRoleLabel   = NodeRolePrefix + "edge"
	EdgeTaintKey    = EdgeRoleLabel
	EdgeTaintEffect = "NoSchedule"
)

// MasterTaintKey is the control-plane NoSchedule taint. The MCO node
// controller removes it (and adds the worker role label) while the
// Scheduler config says mastersSchedulable: true.
const MasterTaintKey = MasterRoleLabel // MCO pkg/controller/node makeMasterNodeSchedulable / makeMasterNodeUnSchedulable

// PoolSelectorLabelFormat is the label MCO's own pools carry, that
// KubeletConfig and ContainerRuntimeConfig select pools by
// (machineConfigPoolSelector).
const PoolSelectorLabelFormat = "pools.operator.machineconfiguration.openshift.io/%s" // MCO install manifests (master/worker pools); docs "Creating a KubeletConfig CR"

// BuiltinPools are the MachineConfigPools MCO creates on every cluster
// (openshift/machine-config-operator manifests/master.machineconfigpool.yaml,
// manifests/worker.machineconfigpool.yaml).
var BuiltinPools = []string{MachineConfigRoleMaster, MachineConfigRoleWorker}

// MachineConfigRoleArbiter is the arbiter pool and its MachineConfig role:
// MCO ships it (manifests/arbiter.machineconfigpool.yaml: labels
// machineconfiguration.openshift.io/mco-built-in and
// pools.operator.machineconfiguration.openshift.io/arbiter, machineConfigSelector
// role arbiter, nodeSelector node-role.kubernetes.io/arbiter) and creates it
// only on a HighlyAvailableArbiter control plane (pkg/operator/sync.go
// syncMachineConfigPools skips it otherwise).
const MachineConfigRoleArbiter = "arbiter" // MCO pkg/controller/common/constants.go MachineConfigPoolArbiter

// BuiltinPool reports whether MCO counts a pool named name as its own, not a
// custom pool: master, worker and arbiter (MCO
// pkg/controller/common/helpers.go IsCustomPool). A custom pool's rules (it
// inherits the worker configs, it stays off the control plane, a node
// matches one) do not apply to them.
func BuiltinPool(name string) bool {
	return name == MachineConfigRoleMaster || name == MachineConfigRoleWorker || name == MachineConfigRoleArbiter
}

// keepalivedPlatforms run keepalived static pods for the API and ingress
// VIPs (on-prem IPI, and agent/assisted installs on them with VIPs): the
// platforms where a remote node in another L2 subnet must not run keepalived.
var keepalivedPlatforms = map[string]bool{ // MCO templates/*/on-prem (baremetal, vsphere, openstack, nutanix keepalived static pods)
	"baremetal": true, "vsphere": true, "openstack": true, "nutanix": true,
}

// KeepalivedPlatform reports whether platform (schema and install-config
// spelling) floats the API and ingress VIPs with keepalived when the cluster
// has VIPs.
func KeepalivedPlatform(platform string) bool { return keepalivedPlatforms[platform] }

// The manual remote-worker method (docs "Configuring network components to
// run on the control plane", baremetal IPI before 4.13): an empty keepalived
// static pod manifest stops keepalived on the remote nodes.
const (
	KeepalivedManifestPath = "/etc/kubernetes/manifests/keepalived.yaml" // docs: MachineConfig 50-worker-fix-ipi-rwn, storage.files path
	KeepalivedManifestMode = 0o644                                       // docs: the same file entry, mode 0644
	// KeepalivedFixNameFormat names the MachineConfig after the pool it is
	// for, MCO style (NN-<role>-<purpose>): the docs' 50-worker-fix-ipi-rwn
	// is role worker; here the role is the remote pool's own.
	KeepalivedFixNameFormat = "50-%s-fix-ipi-rwn"
)

// SchedulerManifestName is the file the installer writes the Scheduler
// config singleton to; the docs set mastersSchedulable: true in it.
const SchedulerManifestName = "cluster-scheduler-02-config.yml" // installer pkg/asset/manifests/scheduler.go
