package platform

// Node disruption facts: what the Machine Config Operator (MCO) does to a
// pool's nodes when the pool's rendered MachineConfig changes. Sources are in
// openshift/machine-config-operator (MCO below):
//
//	pkg/controller/common/helpers.go   MergeMachineConfigs (the rendered config)
//	pkg/daemon/update.go               calculatePostConfigChangeAction and
//	                                   calculatePostConfigChangeActionFromMCDiffs
//	                                   (before NodeDisruptionPolicy),
//	                                   calculatePostConfigChangeNodeDisruptionAction
//	pkg/daemon/drain.go                isDrainRequired, isSafeContainerRegistryConfChanges
//	pkg/apihelpers/apihelpers.go       defaultClusterPolicies, MergeClusterPolicies
//	pkg/daemon/constants/constants.go  the paths
//
// and the docs "Using node disruption policies to minimize disruption from
// machine config changes".

// NodeDisruptionPolicySince is the first release whose MCO decides the
// post-update action from the NodeDisruptionPolicy (MachineConfiguration
// "cluster", the defaults merged with spec.nodeDisruptionPolicy). The
// feature gate NodeDisruptionPolicy is TechPreviewNoUpgrade only in 4.16 and
// on by default from 4.17 (openshift/api features/features.go
// FeatureGateNodeDisruptionPolicy as vendored by MCO release-4.16 and
// release-4.17); from release-4.20 MCO no longer checks the gate
// (pkg/daemon/update.go update: `if !firstBoot`).
const NodeDisruptionPolicySince OCPMinor = 17

// MachineConfigurationName is the one MachineConfiguration MCO reads.
const MachineConfigurationName = "cluster" // MCO pkg/controller/common constants.go MCOOperatorKnobsObjectName

// Paths MCO's post-update rules name.
const (
	KubeletCABundlePath      = "/etc/kubernetes/kubelet-ca.crt"                                                       // MCO pkg/daemon/daemon.go caBundleFilePath
	KubeletAuthFilePath      = "/var/lib/kubelet/config.json"                                                         // MCO constants.KubeletAuthFile (the pull secret)
	InternalRegistryAuthPath = "/etc/mco/internal-registry-pull-secret.json"                                          // MCO release-4.14/4.15 pkg/daemon/rpm-ostree.go imageRegistryAuthFile
	NMStateConfigDir         = "/etc/nmstate/openshift"                                                               // MCO constants.OpenShiftNMStateConfigDir
	GPGNoRebootPath          = "/etc/machine-config-daemon/no-reboot/containers-gpg.pub"                              // MCO constants.GPGNoRebootPath
	ContainerPolicyPath      = "/etc/containers/policy.json"                                                          // MCO constants.ContainerRegistryPolicyPath
	SigstoreRegistriesDir    = "/etc/containers/registries.d"                                                         // MCO constants.SigstoreRegistriesConfigDir
	CrioPoliciesDir          = "/etc/crio/policies"                                                                   // MCO constants.CrioPoliciesDir
	UserCABundlePath         = "/etc/pki/ca-trust/source/anchors/openshift-config-user-ca-bundle.crt"                 // MCO constants.UserCABundlePath
	CredentialProvidersDir   = "/etc/kubernetes/credential-providers"                                                 // MCO constants.KubernetesCredentialProvidersDir
	KubeletCrioCredProvider  = "/etc/systemd/system/kubelet.service.d/40-kubelet-crio-image-credential-provider.conf" // MCO constants.KubeletCrioImageCredProviderConfPath
	IRIRegistryConfigPath    = "/etc/iri-registry"                                                                    // MCO constants.IRIRegistryConfigPath
	IRILoadImageScriptPath   = "/usr/local/bin/load-registry-image.sh"                                                // MCO constants.IRILoadImageScriptPath
	IRIRootCAPath            = "/etc/pki/ca-trust/source/anchors/iri-root-ca.crt"                                     // MCO constants.IRIRootCAPath
	MCDForceFilePath         = "/run/machine-config-daemon-force"                                                     // MCO constants.MachineConfigDaemonForceFile (MCO refuses a config that writes it)
)

// Services MCO's default policies act on.
const (
	CrioService          = "crio.service"                   // MCO constants.CRIOServiceName
	KubeletService       = "kubelet.service"                // MCO apihelpers defaultClusterPolicies
	UpdateCATrustService = "coreos-update-ca-trust.service" // MCO constants.UpdateCATrustServiceName
	IRIRegistryService   = "iri-registry.service"           // MCO constants.IRIRegistryServiceName
)

// MCO's kernel types (MachineConfig spec.kernelType); anything else is the
// default kernel (MCO pkg/helpers CanonicalizeKernelType).
const (
	KernelTypeDefault  = "default"   // MCO pkg/controller/common constants.go KernelTypeDefault
	KernelTypeRealtime = "realtime"  // KernelTypeRealtime
	KernelType64kPages = "64k-pages" // KernelType64kPages
	// KernelDevelExtension is refused with a non-default kernel
	// (MergeMachineConfigs).
	KernelDevelExtension = "kernel-devel"
	// CoreUser is the only user whose SSH keys and password hash MCO
	// updates in place (pkg/controller/common reconcile.go verifyUserFields).
	CoreUser = "core" // MCO constants.CoreUserName
)

// GeneratedByControllerAnnotation marks the MachineConfigs MCO generates:
// their osImageURL does not override the release's OS image
// (MergeMachineConfigs).
const GeneratedByControllerAnnotation = "machineconfiguration.openshift.io/generated-by-controller-version" // MCO constants.go GeneratedByControllerVersionAnnotationKey

// CustomPoolConfigsLastSince is the first release whose MergeMachineConfigs
// merges the worker-role MachineConfigs first and the others (a custom
// pool's own) after, each group sorted by name, so that a custom pool's
// config wins over the worker one; before, all were sorted by name together
// (MCO release-4.14 vs release-4.15 pkg/controller/common/helpers.go
// MergeMachineConfigs).
const CustomPoolConfigsLastSince OCPMinor = 15

// The post-update action MCO takes before NodeDisruptionPolicy
// (calculatePostConfigChangeActionFromMCDiffs, called
// calculatePostConfigChangeActionFromFileDiffs before 4.16), by release.
const (
	// LegacyUserCARestartSince: the user CA bundle restarts CRI-O (release-4.14
	// filesPostConfigChangeActionRestartCrio); before, it reboots.
	LegacyUserCARestartSince OCPMinor = 14
	// LegacyInternalRegistryAuth[Since,Until): the internal registry pull
	// secret takes no action (release-4.14 and release-4.15
	// filesPostConfigChangeActionNone imageRegistryAuthFile; gone in 4.16).
	LegacyInternalRegistryAuthSince OCPMinor = 14
	LegacyInternalRegistryAuthUntil OCPMinor = 16
	// LegacyDirectoryRulesSince: files directly in registries.d reload
	// CRI-O and files directly in the NMState dir take no action
	// (release-4.16 dirsPostConfigChangeActionReloadCrio and
	// directoriesPostConfigChangeActionNone; absent in release-4.15).
	LegacyDirectoryRulesSince OCPMinor = 16
)

// Node disruption action types (api operator/v1
// NodeDisruptionPolicyStatusActionType). "Special" is MCO's own action for
// registries.conf: reload CRI-O, and drain unless the change is safe.
const (
	NDPActionReboot       = "Reboot"       // api operator/v1 RebootStatusAction
	NDPActionDrain        = "Drain"        // DrainStatusAction
	NDPActionReload       = "Reload"       // ReloadStatusAction
	NDPActionRestart      = "Restart"      // RestartStatusAction
	NDPActionDaemonReload = "DaemonReload" // DaemonReloadStatusAction
	NDPActionNone         = "None"         // NoneStatusAction
	NDPActionSpecial      = "Special"      // SpecialStatusAction (MCO only; users cannot set it)
)

// NDPAction is one action of a node disruption policy; Service is the unit a
// Reload or Restart acts on.
type NDPAction struct{ Type, Service string }

// NDPDefault is one of MCO's default policies: a file path (or directory: it
// covers every file below it) or, when Unit is set, a systemd unit, with the
// releases that have it.
type NDPDefault struct {
	Path, Unit string
	Actions    []NDPAction
	Since      OCPMinor
}

// Releases that added default policies after NodeDisruptionPolicySince.
const (
	// NDPCrioPoliciesSince: /etc/crio/policies reloads CRI-O (in
	// defaultClusterPolicies from release-4.18; absent in release-4.17).
	NDPCrioPoliciesSince OCPMinor = 18
	// NDPCredentialProviderSince: the kubelet credential providers and the
	// InternalReleaseImage registry defaults are on MCO main after
	// release-4.21 branched (absent from release-4.21
	// defaultClusterPolicies): first in 4.22.
	NDPCredentialProviderSince OCPMinor = 22
)

var (
	reloadCrio     = NDPAction{NDPActionReload, CrioService}
	restartKubelet = NDPAction{NDPActionRestart, KubeletService}
	restartIRI     = NDPAction{NDPActionRestart, IRIRegistryService}
	restartCATrust = NDPAction{NDPActionRestart, UpdateCATrustService}
)

// ndpDefaults are MCO's default cluster policies, in MCO's order (MCO
// pkg/apihelpers/apihelpers.go defaultClusterPolicies; the SSH key default
// is NDPDefaultSSHKey). The kubelet CA bundle has no default policy: MCO
// no longer writes it through a MachineConfig since 4.14 (templates), so a
// MachineConfig that does reboots.
var ndpDefaults = []NDPDefault{
	{Path: KubeletAuthFilePath, Actions: []NDPAction{{Type: NDPActionNone}}, Since: NodeDisruptionPolicySince},
	{Path: GPGNoRebootPath, Actions: []NDPAction{reloadCrio}, Since: NodeDisruptionPolicySince},
	{Path: ContainerPolicyPath, Actions: []NDPAction{reloadCrio}, Since: NodeDisruptionPolicySince},
	{Path: RegistriesConfPath, Actions: []NDPAction{{Type: NDPActionSpecial}}, Since: NodeDisruptionPolicySince},
	{Path: SigstoreRegistriesDir, Actions: []NDPAction{reloadCrio}, Since: NodeDisruptionPolicySince},
	{Path: CrioPoliciesDir, Actions: []NDPAction{reloadCrio}, Since: NDPCrioPoliciesSince},
	{Path: NMStateConfigDir, Actions: []NDPAction{{Type: NDPActionNone}}, Since: NodeDisruptionPolicySince},
	{Path: UserCABundlePath, Actions: []NDPAction{restartCATrust, {NDPActionRestart, CrioService}}, Since: NodeDisruptionPolicySince},
	{Path: CredentialProvidersDir, Actions: []NDPAction{restartKubelet}, Since: NDPCredentialProviderSince},
	{Path: KubeletCrioCredProvider, Actions: []NDPAction{{Type: NDPActionDaemonReload}, restartKubelet}, Since: NDPCredentialProviderSince},
	{Path: IRIRegistryConfigPath, Actions: []NDPAction{restartIRI}, Since: NDPCredentialProviderSince},
	{Path: IRILoadImageScriptPath, Actions: []NDPAction{restartIRI}, Since: NDPCredentialProviderSince},
	{Path: IRIRootCAPath, Actions: []NDPAction{restartCATrust}, Since: NDPCredentialProviderSince},
	{Unit: IRIRegistryService, Actions: []NDPAction{{Type: NDPActionDaemonReload}, restartIRI}, Since: NDPCredentialProviderSince},
}

// NDPDefaults returns MCO's default file and unit policies of a release, in
// MCO's order (nil before NodeDisruptionPolicySince).
func NDPDefaults(minor OCPMinor) []NDPDefault {
	var out []NDPDefault
	if minor < NodeDisruptionPolicySince {
		return nil
	}
	for _, d := range ndpDefaults {
		if minor >= d.Since {
			d.Actions = append([]NDPAction(nil), d.Actions...)
			out = append(out, d)
		}
	}
	return out
}

// NDPDefaultSSHKey is the default SSH key policy: no action
// (defaultClusterPolicies SSHKey).
func NDPDefaultSSHKey() []NDPAction { return []NDPAction{{Type: NDPActionNone}} }

// LegacyRule is MCO's post-update action for a file before
// NodeDisruptionPolicy.
type LegacyRule int

const (
	LegacyReboot      LegacyRule = iota // any file not listed
	LegacyNone                          // filesPostConfigChangeActionNone, directoriesPostConfigChangeActionNone
	LegacyReloadCrio                    // filesPostConfigChangeActionReloadCrio, dirsPostConfigChangeActionReloadCrio
	LegacyRestartCrio                   // filesPostConfigChangeActionRestartCrio
)

// LegacyFileRule is the action MCO's calculatePostConfigChangeActionFromMCDiffs
// (FromFileDiffs before 4.16) of release minor takes for a changed file at
// path. Directory rules match files directly in the directory
// (filepath.Dir(path) == dir), not deeper.
func LegacyFileRule(path, dir string, minor OCPMinor) LegacyRule {
	switch path {
	case KubeletCABundlePath, KubeletAuthFilePath:
		return LegacyNone
	case InternalRegistryAuthPath:
		if minor >= LegacyInternalRegistryAuthSince && minor < LegacyInternalRegistryAuthUntil {
			return LegacyNone
		}
	case RegistriesConfPath, GPGNoRebootPath, ContainerPolicyPath:
		return LegacyReloadCrio
	case UserCABundlePath:
		if minor >= LegacyUserCARestartSince {
			return LegacyRestartCrio
		}
	}
	if minor >= LegacyDirectoryRulesSince {
		switch dir {
		case SigstoreRegistriesDir:
			return LegacyReloadCrio
		case NMStateConfigDir:
			return LegacyNone
		}
	}
	return LegacyReboot
}

// IrreconcilableOverridesSince is the first release whose MCO honours
// MachineConfiguration spec.irreconcilableValidationOverrides.storage
// (Disks, FileSystems, Raid: such changes are then accepted and apply to new
// nodes only) by default: the feature gate IrreconcilableMachineConfig is
// TechPreviewNoUpgrade in 4.20 and 4.21 and in Default on MCO main after
// release-4.21 (openshift/api features/features.go as vendored by MCO;
// pkg/controller/common/reconcile.go isConfigReconcilable).
const IrreconcilableOverridesSince OCPMinor = 22

// PoolMaxUnavailableDefault is how many nodes of a MachineConfigPool MCO
// updates at once when spec.maxUnavailable is unset; a percentage is of the
// pool's nodes, rounded down, and at least 1 (MCO
// pkg/controller/node/node_controller.go maxUnavailable;
// openshift/api machineconfiguration/v1 MachineConfigPoolSpec.MaxUnavailable
// "Defaults to 1").
const PoolMaxUnavailableDefault = 1

// PullFromMirrorDrainCheckSince is the first release whose MCO decides a
// registries.conf drain by each mirror's pull-from-mirror = "digest-only"
// (allDigestOnlyMirror); release 4.12 looks at the registry's
// mirror-by-digest-only instead (machine-config-operator release-4.12 and
// release-4.13 pkg/daemon/drain.go isSafeContainerRegistryConfChanges).
const PullFromMirrorDrainCheckSince OCPMinor = 13
