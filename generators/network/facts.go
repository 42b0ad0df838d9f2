package network

import "github.com/siteforge/siteforge/internal/platform"

// Where this generator's outputs go in a site's output folder. Patches,
// runbooks and the NetworkManager MTU MachineConfigs are Files: they are
// applied by hand, in an order, never by `kustomize build | oc apply`.
const (
	mtuPhase1PatchYAML  = "network/mtu-migration-phase1.patch.yaml"
	mtuPhase1PatchJSON  = "network/mtu-migration-phase1.json"
	mtuPhase1Kustomize  = "network/mtu-migration-phase1.kustomize-patch.yaml"
	mtuPhase2PatchYAML  = "network/mtu-migration-phase2.patch.yaml"
	mtuPhase2PatchJSON  = "network/mtu-migration-phase2.json"
	mtuPhase2Kustomize  = "network/mtu-migration-phase2.kustomize-patch.yaml"
	mtuRunbook          = "network/mtu-migration-runbook.md"
	mtuGitObject        = "network/mtu-migration.yaml"          // a Resource: the phase from git (mtu.migration.phase)
	mtuMachineConfigDir = "network/mtu-migration"               // <name>.bu and <name>.yaml per NetworkManager MTU MachineConfig
	day0NetworkManifest = platform.InstallerNetworkManifestName // a Day0 manifest: the install finisher places it
	sdnMigrationDir     = "network/sdn-migration"
	sdnMigrationRunbook = "network/sdn-migration-runbook.md"
	ovsDir              = "network/ovs"
	ovsRunbook          = "network/ovs-flow-idle-timeout.md"
)

// Names of the NetworkManager MTU MachineConfig for a custom pool that does
// not share the worker pool's uplink interface (the documented names cover
// master and worker only: platform.ControlPlaneInterfaceMCName,
// platform.WorkerInterfaceMCName).
const customPoolInterfaceMCNameFormat = "01-%s-interface"

// OVS flow idle timeout MachineConfigs, one per built-in pool (custom pools
// inherit worker's).
const (
	ovsMachineConfigNameFormat = "99-%s-ovs-flow-idle-timeout"
	ovsUnitName                = "ovs-flow-idle-timeout.service"
)
