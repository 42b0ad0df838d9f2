package pools

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
