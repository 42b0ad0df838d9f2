package platform

import "strings"

// Argo CD facts for objects siteforge hands to Argo CD as partial objects of
// an existing cluster singleton (the MTU migration from git). Argo CD is not
// OpenShift, but these are facts siteforge relies on, written once here with
// their sources.
const (
	// ArgoCDSyncOptionsAnnotation carries per-resource sync options,
	// comma-separated (Argo CD docs "Sync Options").
	ArgoCDSyncOptionsAnnotation = "argocd.argoproj.io/sync-options"
	// ArgoCDCompareOptionsAnnotation carries per-resource compare options
	// (Argo CD docs "Compare Options").
	ArgoCDCompareOptionsAnnotation = "argocd.argoproj.io/compare-options"

	// ArgoCDServerSideApply makes Argo CD apply the resource with
	// `kubectl apply --server-side --force-conflicts` (Argo CD docs "Sync
	// Options", Server-Side Apply; argoproj/argo-cd
	// gitops-engine/pkg/utils/kube/resource_ops.go newApplyOptions sets
	// ForceConflicts = serverSideApply). A partial object then patches an
	// existing resource, and a field the previous apply owned and this one
	// leaves out is removed when no other manager owns it (Kubernetes docs
	// "Server-Side Apply", field management).
	ArgoCDServerSideApply = "ServerSideApply=true"
	// ArgoCDNoPrune keeps Argo CD from deleting the resource when it leaves
	// git (Argo CD docs "Sync Options", No Prune Resources). Read from the
	// live object when the resource is no longer in git.
	ArgoCDNoPrune = "Prune=false"
	// ArgoCDNoDelete keeps the resource when the Application is deleted
	// (Argo CD docs "Sync Options", No Resource Deletion).
	ArgoCDNoDelete = "Delete=false"
	// ArgoCDIgnoreExtraneous keeps a resource that left git (and is not
	// pruned) from making the Application OutOfSync (Argo CD docs "Compare
	// Options"; argoproj/argo-cd controller/state.go CompareAppState reads
	// it from the live object when the resource needs pruning).
	ArgoCDIgnoreExtraneous = "IgnoreExtraneous"

	// ArgoCDFieldManager is the server-side apply field manager of Argo CD's
	// application controller (Argo CD docs "Sync Options", Client-Side Apply
	// Migration: "Argo CD's server-side apply manager (argocd-controller)").
	ArgoCDFieldManager = "argocd-controller"
)

// ArgoCDSingletonSyncOptions are the sync options of a partial object of a
// cluster singleton that siteforge hands to Argo CD: applied server-side,
// never pruned and never deleted with the Application (deleting
// Network.operator "cluster" would take the cluster network down).
func ArgoCDSingletonSyncOptions() string {
	return strings.Join([]string{ArgoCDServerSideApply, ArgoCDNoPrune, ArgoCDNoDelete}, ",")
}

// CNOOperConfigFieldManager is the field manager CNO applies the defaulted
// operator Network spec with. CNO clears spec.migration before it applies
// ("It shouldn't own .Spec.Migration as it is not modifying it anywhere"),
// so spec.migration is owned only by whoever set it, and a server-side apply
// by that manager that leaves it out removes it
// (openshift/cluster-network-operator pkg/controller/operconfig/cluster.go
// UpdateOperConfig). CNO does own the defaulted mtu: phase 2 takes it over
// with --force-conflicts.
const CNOOperConfigFieldManager = "operconfig"

// CNOLiveMigrationFieldManager is the field manager CNO's cluster config
// controller applies Network.operator with; during a live network type
// migration it writes spec.migration itself (mode Live, networkType, and the
// routable MTU as spec.migration.mtu) and removes it at the end
// (openshift/cluster-network-operator release-4.16
// pkg/controller/clusterconfig/migration.go
// prepareOperatorConfigForNetworkTypeMigration; clusterconfig_controller.go
// applies it as "clusterconfig").
const CNOLiveMigrationFieldManager = "clusterconfig"

// What a Config Management Plugin's generate command gets from Argo CD's
// cmp-server sidecar (Argo CD docs "Config Management Plugins": "Using
// environment variables in your plugin"). The generate command runs in the
// Application's source folder of a copy of the repository
// (argoproj/argo-cd cmpserver/plugin/plugin.go generateManifestGeneric and
// runCommand: cmd.Dir is the work directory joined with the app's path).
const (
	// ArgoCDPluginEnvPrefix prefixes every variable of an Application's
	// spec.source.plugin.env before the plugin's commands see it
	// (argoproj/argo-cd reposerver/repository/repository.go getPluginEnvs:
	// "ARGOCD_ENV_%s=%s").
	ArgoCDPluginEnvPrefix = "ARGOCD_ENV_"
	// ArgoCDAppSourcePathEnv is the Application's source path, relative to
	// the repository root, in the build environment a plugin's generate
	// command runs in (argoproj/argo-cd reposerver/repository/repository.go
	// getEnvs / newEnv: ARGOCD_APP_SOURCE_PATH = q.ApplicationSource.Path;
	// docs "Build Environment").
	ArgoCDAppSourcePathEnv = "ARGOCD_APP_SOURCE_PATH"
	// ArgoCDExecTimeoutDefault is how long the cmp-server lets a plugin
	// command run before it terminates its process group, unless the
	// sidecar sets ARGOCD_EXEC_TIMEOUT (docs "Config Management Plugins";
	// argoproj/argo-cd util/exec/exec.go reads ARGOCD_EXEC_TIMEOUT).
	ArgoCDExecTimeoutDefault = "90s"
)
