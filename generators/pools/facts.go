package pools

// Site vocabulary (schema/siteforge.cue) this package branches on.
const (
	placementRemote   = "remote"    // schema #Pool.placement
	platformBareMetal = "baremetal" // schema #Cluster.platform; platform.RemoteWorkerAutoDetectPlatform is its api config/v1 spelling "BareMetal"
	installIPI        = "ipi"       // schema #Cluster.installMethod
	lifecycleInstall  = "install"   // schema #Cluster.lifecycle
)

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
)

// MasterTaintKey is the control-plane NoSchedule taint. The MCO node
// controller removes it (and adds the worker role label) while the
// Scheduler config says mastersSchedulable: true.
const MasterTaintKey = MasterRoleLabel // MCO pkg/controller/node makeMasterNodeSchedulable / makeMasterNodeUnSchedulable

// MachineConfigPool conventions.
const (
	// machineConfigRoleLabel selects a pool's MachineConfigs.
	machineConfigRoleLabel = "machineconfiguration.openshift.io/role" // MCO; platform.MachineConfigRoleLabel
	// poolSelectorLabelFormat is the label MCO's own pools carry, that
	// KubeletConfig and ContainerRuntimeConfig select pools by
	// (machineConfigPoolSelector).
	poolSelectorLabelFormat = "pools.operator.machineconfiguration.openshift.io/%s" // MCO install manifests (master/worker pools); docs "Creating a KubeletConfig CR"
)

// The manual remote-worker method (docs "Configuring network components to
// run on the control plane", baremetal IPI before 4.13): an empty keepalived
// static pod manifest stops keepalived on the remote nodes.
const (
	keepalivedManifestPath = "/etc/kubernetes/manifests/keepalived.yaml" // docs: MachineConfig 50-worker-fix-ipi-rwn, storage.files path
	keepalivedManifestMode = 0o644                                       // docs: the same file entry, mode 0644
	// keepalivedFixNameFormat names the MachineConfig after the pool it is
	// for, MCO style (NN-<role>-<purpose>): the docs' 50-worker-fix-ipi-rwn
	// is role worker; here the role is the remote pool's own.
	keepalivedFixNameFormat = "50-%s-fix-ipi-rwn"
)

// Scheduler config: the singleton the installer writes as
// manifests/cluster-scheduler-02-config.yml.
const (
	schedulerName         = "cluster"                         // api config/v1 Scheduler: singleton named "cluster"
	schedulerManifestName = "cluster-scheduler-02-config.yml" // installer pkg/asset/manifests/scheduler.go; docs: set mastersSchedulable: true in it
)

// Output paths (inside the site's output folder).
const (
	dir             = "pools"
	schedulerPath   = dir + "/" + schedulerManifestName
	labelScriptPath = dir + "/label-nodes.sh"
)

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
