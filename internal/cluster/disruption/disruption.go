// Package disruption computes what the Machine Config Operator (MCO) does to
// the nodes of a pool when the pool's rendered MachineConfig changes: merge
// the pool's MachineConfigs as MCO renders them (Merge), then compare two
// rendered configs change by change (Compare), each change with the action
// MCO takes and why. Pure computation: no I/O, no cluster access.
//
// The sources, all in openshift/machine-config-operator:
//
//	pkg/controller/common/helpers.go  MergeMachineConfigs, CalculateConfigFileDiffs,
//	                                  GetChangedConfigUnitsByType, FindClosestFilePolicyPathMatch
//	pkg/controller/common/reconcile.go isConfigReconcilable (what MCO refuses)
//	pkg/daemon/update.go              newMachineConfigDiff, calculatePostConfigChangeAction,
//	                                  calculatePostConfigChangeActionFromMCDiffs,
//	                                  calculatePostConfigChangeNodeDisruptionAction(FromMCDiffs)
//	pkg/daemon/drain.go               isDrainRequired(ForNodeDisruptionActions),
//	                                  isSafeContainerRegistryConfChanges
//	pkg/apihelpers/apihelpers.go      defaultClusterPolicies, MergeClusterPolicies
//
// The release-dependent facts (paths, default policies, gates) are in
// internal/platform (disruption.go).
//
// What this package cannot see, and so does not model: the
// machine-config-daemon-force file on a node (forces a reboot), a node's
// actual FIPS state, on-cluster layering (OCL) images, the release's default
// OS image (a release upgrade reboots every node anyway), and a cluster whose
// TechPreview feature set turns NodeDisruptionPolicy on in 4.16. Not
// modelled either: the ConfigMap image-registry-override-drain unless the
// caller sets NodeDisruptionPolicy.RegistryDrainOverride; in 4.13 the
// down-translation of every config to Ignition spec 3.2, which fails on
// spec 3.3/3.4 fields other than kernelArguments; and before 4.17 MCO's
// order-sensitive comparison of the units list (newMachineConfigDiff:
// reflect.DeepEqual of systemd.units), where siteforge compares units by
// name, so a reorder alone is no change here and a reboot there.
package disruption

// Action is what MCO does to each node of a pool, in increasing order of
// disruption. A pool's action is the maximum of its changes' actions.
type Action int

const (
	// None: the files are written, nothing is restarted.
	None Action = iota
	// Reload: a service is reloaded (systemctl reload): CRI-O unless the
	// Reason names another unit (a NodeDisruptionPolicy may name any), or a
	// systemd daemon-reload. Workloads keep running.
	Reload
	// Restart: a service is restarted: CRI-O unless the Reason names another
	// unit. Workloads keep running.
	Restart
	// Drain: each node is cordoned and drained (its pods evicted), then the
	// services are reloaded or restarted, then it is uncordoned; no reboot.
	Drain
	// Reboot: each node is drained and rebooted.
	Reboot
)

var actionNames = [...]string{"none", "reload", "restart", "drain", "reboot"}

// String is the action's name in siteforge's reports: "none", "reload",
// "restart", "drain" or "reboot".
func (a Action) String() string {
	if a < None || a > Reboot {
		return "unknown"
	}
	return actionNames[a]
}

// MarshalText writes the action's name (JSON reports).
func (a Action) MarshalText() ([]byte, error) { return []byte(a.String()), nil }

// Change is one difference between two rendered configs and what MCO does
// for it.
type Change struct {
	// Path names what changed: a file path, a systemd unit name, or one of
	// "osImageURL", "kernelArguments", "extensions", "kernelType", "fips",
	// "sshKeys" (the core user's SSH keys and password hash), or an Ignition
	// section MCO refuses to change ("storage.disks", "passwd.users", ...).
	Path   string
	Action Action
	Reason string
	// Refused: MCO refuses the new rendered config (it is not reconcilable
	// in place): the pool degrades and no node is updated. Action is None
	// for a refused change; the pool's other changes are not applied either.
	Refused bool
}

// PoolAction is the action MCO takes on each node of the pool: the maximum
// over the changes (None without changes or when a change is refused).
func PoolAction(changes []Change) Action {
	a := None
	for _, c := range changes {
		if c.Refused {
			return None
		}
		a = max(a, c.Action)
	}
	return a
}

// Refused reports whether MCO refuses the update (see Change.Refused).
func Refused(changes []Change) bool {
	for _, c := range changes {
		if c.Refused {
			return true
		}
	}
	return false
}
