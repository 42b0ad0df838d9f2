package platform

import (
	"strconv"
	"strings"
)

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
// default kernel (MCO pkg/daemon/update.go canonicalizeKernelType, later
// pkg/helpers CanonicalizeKernelType). 64k-pages only from
// KernelType64kPagesSince.
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

// MergeMachineConfigs and the daemon's diff, by release (MCO
// pkg/controller/common/helpers.go MergeMachineConfigs, pkg/daemon/update.go
// newMachineConfigDiff and canonicalizeKernelType on each release branch).
const (
	// KernelArgsConcatenatedSince: MergeMachineConfigs concatenates the
	// configs' kernel arguments; release-4.12 and release-4.13 skip an
	// argument already present (InSlice). Removed by commit d5cdfe4e9
	// "Fix OCPBUGS-19708", first in release-4.14.
	KernelArgsConcatenatedSince OCPMinor = 14
	// KernelType64kPagesSince: the 64k-pages kernel type exists; before,
	// MergeMachineConfigs sets the kernel type only for realtime and
	// canonicalizeKernelType maps anything but realtime to default
	// (release-4.14 helpers.go and update.go; commit ca0f40781 "Add
	// kernel-64k extension", first in release-4.15). So before it a
	// 64k-pages config runs the default kernel and kernel-devel is allowed
	// with it.
	KernelType64kPagesSince OCPMinor = 15
	// MergeCompressionResetSince: MergeMachineConfigs sets each merged
	// file's unset compression to "" before ign3.Merge and unsets it after
	// (ignitionMergeSetFilesDefaultCompression and
	// ignitionMergeUnsetFilesDefaultCompression; commit ca4fcd9e2
	// "OCPBUGS-55327: Bugfix Ignition compression merge", first in
	// release-4.20); before, a plain ign3.Merge keeps an earlier file's
	// compression when a later file at the same path sets none.
	MergeCompressionResetSince OCPMinor = 20
	// OSImageURLSkipsGeneratedSince: MergeMachineConfigs ignores the
	// osImageURL of the MachineConfigs MCO generates
	// (GeneratedByControllerAnnotation) (release-4.21 commit 3a5e33899
	// "MCO-2017: Backport OSImageStreams to 4.21", on main commit 9d52d684f
	// "MCO-1961: Rework MC's OSImageURL merge logic"); before, the last
	// non-empty osImageURL of any config wins.
	OSImageURLSkipsGeneratedSince OCPMinor = 21
)

// Ignition spec versions MCO parses (pkg/controller/common/helpers.go
// IgnParseWrapper and ParseAndConvertConfig): spec 2 up to 2.2 (ignition
// config/v2_2 Parse, converted to spec 3) on every release, and spec 3 up
// to:
//   - 3.2 in release-4.12 (v3_2 Parse, then v3_1, v3_0: "Supported spec
//     versions: 2.2, 3.0, 3.1, 3.2");
//   - 3.4 from release-4.13 (v3_4 ParseCompatibleVersion; commit b747693b5
//     "Add ignition 3.4 support, still default to 3.2");
//   - 3.5 from release-4.19 (v3_5 ParseCompatibleVersion; commit 995bf2614
//     "Rework controller and server to support ign to 3.5").
//
// Any other version (2.3, 2.4, a newer 3.x, an experimental version) fails
// the render: "parsing Ignition config failed: unknown version".
const (
	IgnitionSpec2Max             = 2 // the last 2.x minor MCO parses (2.2)
	IgnitionSpec34Since OCPMinor = 13
	IgnitionSpec35Since OCPMinor = 19
)

// IgnitionSpecSupport is what a release's MCO does with a MachineConfig's
// Ignition spec version.
type IgnitionSpecSupport int

const (
	IgnitionSpecParsed      IgnitionSpecSupport = iota // spec 3 MCO parses
	IgnitionSpecConverted                              // spec 2.0-2.2: MCO converts it to spec 3
	IgnitionSpecUnsupported                            // the render fails
)

// ignitionSpec3Max is the last spec 3.x minor release's MCO parses.
func ignitionSpec3Max(release OCPMinor) int {
	switch {
	case release >= IgnitionSpec35Since:
		return 5
	case release >= IgnitionSpec34Since:
		return 4
	}
	return 2
}

// MCOIgnitionSpec classifies an Ignition spec version ("3.4.0") for
// release's MCO; an unparsable version is IgnitionSpecUnsupported.
func MCOIgnitionSpec(version string, release OCPMinor) IgnitionSpecSupport {
	parts := strings.Split(version, ".")
	if len(parts) != 3 {
		return IgnitionSpecUnsupported
	}
	var n [3]int
	for i, p := range parts {
		v, err := strconv.Atoi(p) // a pre-release ("3.6.0-experimental") fails here
		if err != nil || v < 0 {
			return IgnitionSpecUnsupported
		}
		n[i] = v
	}
	switch {
	case n[0] == 2 && n[1] <= IgnitionSpec2Max:
		return IgnitionSpecConverted
	case n[0] == 3 && n[1] <= ignitionSpec3Max(release):
		return IgnitionSpecParsed
	}
	return IgnitionSpecUnsupported
}

// MCOIgnitionSpecs lists the spec versions release's MCO parses, as its
// error message does ("2.2, 3.0, 3.1, 3.2").
func MCOIgnitionSpecs(release OCPMinor) string {
	out := "2." + strconv.Itoa(IgnitionSpec2Max)
	for m := 0; m <= ignitionSpec3Max(release); m++ {
		out += ", 3." + strconv.Itoa(m)
	}
	return out
}

// IgnitionKargsMovedRelease is the one release whose MCO moves the Ignition
// kernelArguments into the MachineConfig's: MergeMachineConfigs appends
// each config's kernelArguments.shouldExist to the kernel arguments
// (skipping those present) and refuses shouldNotExist
// (ExtractIgnitionKargsFor4_13: "Error downgrading KernelArguments"), and
// IgnParseWrapper strips the section (down-translation to spec 3.2), so the
// daemon never sees it (release-4.13 helpers.go; commit 8bef69da9 "Add
// ignition kargs to MachineConfig on downgrade"). release-4.12 cannot parse
// a spec with the section (3.3+); from release-4.14 the daemon refuses a
// change of it (reconcilable: "ignition kargs section contains changes").
const IgnitionKargsMovedRelease OCPMinor = 13

// The core user, by release (MCO pkg/daemon/update.go reconcilable and
// verifyUserFields; pkg/controller/common/reconcile.go from 4.16).
const (
	// CorePasswordHashSince: verifyUserFields accepts a core password hash;
	// release-4.12 accepts core with one or more SSH keys and nothing else
	// (commit de59bd288 "set passwordhash enabled, udpated
	// verifyUserFields", first in release-4.13).
	CorePasswordHashSince OCPMinor = 13
	// CoreUserRemovableSince: a rendered config without users (core's SSH
	// keys removed entirely) is accepted; release-4.12 and release-4.13
	// refuse it ("user core may not be deleted"; commit c3f5e62d7 "Deleting
	// SSH keys / password hashes should not degrade MachineConfigPool /
	// node", first in release-4.14).
	CoreUserRemovableSince OCPMinor = 14
)

// MCONamespace is the Machine Config Operator's namespace (MCO
// pkg/controller/common/constants.go MCONamespace).
const MCONamespace = "openshift-machine-config-operator"

// RegistryDrainOverrideConfigMap is the ConfigMap (in MCONamespace) whose
// presence makes the daemon skip the registries.conf drain: "Drain was
// skipped for this image registry update due to the configmap ... being
// present" (MCO pkg/daemon/update.go hasImageRegistryDrainOverrideConfigMap,
// read by pkg/daemon/drain.go isDrainRequired and, from 4.17,
// isDrainRequiredForNodeDisruptionActions; constants
// ImageRegistryDrainOverrideConfigmap). Added by commit 40b716505 "daemon:
// allow the user to override drains on IR changes" on release-4.14 (main
// 0f4daa308), removed by commit 32f976778 "Remove all code related to the
// Image Registry workaround Config Map", first absent in release-4.20.
const RegistryDrainOverrideConfigMap = "image-registry-override-drain"

// RegistryDrainOverride[Since,Until) are the releases that read
// RegistryDrainOverrideConfigMap. Support exception only (commit
// 40b716505).
const (
	RegistryDrainOverrideSince OCPMinor = 14
	RegistryDrainOverrideUntil OCPMinor = 20
)

// LegacyCrioActionOrderedSince: a CRI-O reload file no longer overrides
// a CRI-O restart file before it ("Don't override a restart CRIO action",
// commit 84ec414dd "daemon: add check for reload crio action", first in
// release-4.16). In release-4.14 and release-4.15
// calculatePostConfigChangeActionFromFileDiffs sets the action per file in
// the order of CalculateConfigFileDiffs (removed files, then added and
// changed ones, each in Go map order), so with a restart and a reload file
// MCO restarts or only reloads CRI-O.
const LegacyCrioActionOrderedSince OCPMinor = 16
