package disruption

import (
	"fmt"
	"path/filepath"
	"strings"

	opv1 "github.com/openshift/api/operator/v1"

	"github.com/siteforge/siteforge/internal/platform"
)

// NodeDisruptionPolicy is what siteforge reads of the MachineConfiguration
// "cluster": the user's node disruption policies (spec.nodeDisruptionPolicy),
// which MCO merges over its defaults from platform.NodeDisruptionPolicySince,
// and the storage sections MCO is told to accept
// (spec.irreconcilableValidationOverrides.storage, from
// platform.IrreconcilableOverridesSince); and, set by the caller, whether
// the cluster has the ConfigMap platform.RegistryDrainOverrideConfigMap in
// platform.MCONamespace.
type NodeDisruptionPolicy struct {
	User            opv1.NodeDisruptionPolicyConfig
	StorageOverride []opv1.IrreconcilableValidationOverridesStorage
	// RegistryDrainOverride: the ConfigMap image-registry-override-drain
	// exists in openshift-machine-config-operator. From
	// platform.RegistryDrainOverrideSince until
	// platform.RegistryDrainOverrideUntil MCO then never drains for a
	// registries.conf change (a support-exception workaround); other
	// releases ignore it. ReadNodeDisruptionPolicy does not set it: the
	// ConfigMap is another object; a caller that has only the ConfigMap
	// passes &NodeDisruptionPolicy{RegistryDrainOverride: true}.
	RegistryDrainOverride bool
}

// hasUserPolicy reports whether the cluster sets node disruption policies
// of its own (which releases before platform.NodeDisruptionPolicySince
// ignore).
func (p *NodeDisruptionPolicy) hasUserPolicy() bool {
	return p != nil && (len(p.User.Files) > 0 || len(p.User.Units) > 0 || len(p.User.SSHKey.Actions) > 0)
}

// ReadNodeDisruptionPolicy takes the policy of a MachineConfiguration. MCO
// reads only the one named "cluster" (pkg/controller/common
// MCOOperatorKnobsObjectName); another name is an error.
func ReadNodeDisruptionPolicy(mc *opv1.MachineConfiguration) (*NodeDisruptionPolicy, error) {
	if mc.Name != platform.MachineConfigurationName {
		return nil, fmt.Errorf("MachineConfiguration %q is ignored: MCO reads only %q", mc.Name, platform.MachineConfigurationName)
	}
	return &NodeDisruptionPolicy{
		User:            *mc.Spec.NodeDisruptionPolicy.DeepCopy(),
		StorageOverride: append([]opv1.IrreconcilableValidationOverridesStorage(nil), mc.Spec.IrreconcilableValidationOverrides.Storage...),
	}, nil
}

// policyEntry is one merged policy: its actions and whether it is the
// user's or MCO's default.
type policyEntry struct {
	key     string // path or unit name
	actions []platform.NDPAction
	user    bool
}

// clusterPolicies are MCO's defaults merged with the user's
// (status.nodeDisruptionPolicyStatus.clusterPolicies).
type clusterPolicies struct {
	files, units []policyEntry
	ssh          policyEntry
}

// mergePolicies merges the user's policies over MCO's defaults of release
// minor as MCO's MergeClusterPolicies does (pkg/apihelpers/apihelpers.go): a
// user file policy with the path of a default replaces it, others are
// appended; the same for units by name; the user's SSH key policy replaces
// the default when it has actions.
func mergePolicies(p *NodeDisruptionPolicy, minor platform.OCPMinor) clusterPolicies {
	var cp clusterPolicies
	for _, d := range platform.NDPDefaults(minor) {
		e := policyEntry{key: d.Path, actions: d.Actions}
		if d.Unit != "" {
			e.key = d.Unit
			cp.units = append(cp.units, e)
		} else {
			cp.files = append(cp.files, e)
		}
	}
	cp.ssh = policyEntry{key: "sshkey", actions: platform.NDPDefaultSSHKey()}
	if p == nil {
		return cp
	}
	// MCO looks the user's entry up among the defaults only (the defaults
	// are the first entries of the merged list, in order).
	var defaultKeys []string
	put := func(list []policyEntry, defaults int, e policyEntry) []policyEntry {
		for i := 0; i < defaults; i++ {
			if defaultKeys[i] == e.key {
				list[i] = e
				return list
			}
		}
		return append(list, e)
	}
	nf := len(cp.files)
	for _, f := range cp.files {
		defaultKeys = append(defaultKeys, f.key)
	}
	for _, f := range p.User.Files {
		cp.files = put(cp.files, nf, policyEntry{key: f.Path, actions: specActions(f.Actions), user: true})
	}
	nu := len(cp.units)
	defaultKeys = defaultKeys[:0]
	for _, u := range cp.units {
		defaultKeys = append(defaultKeys, u.key)
	}
	for _, u := range p.User.Units {
		cp.units = put(cp.units, nu, policyEntry{key: string(u.Name), actions: specActions(u.Actions), user: true})
	}
	if len(p.User.SSHKey.Actions) > 0 {
		cp.ssh = policyEntry{key: "sshkey", actions: specActions(p.User.SSHKey.Actions), user: true}
	}
	return cp
}

// specActions converts the user's actions as MCO's
// convertSpecActiontoStatusAction does.
func specActions(in []opv1.NodeDisruptionPolicySpecAction) []platform.NDPAction {
	out := make([]platform.NDPAction, 0, len(in))
	for _, a := range in {
		x := platform.NDPAction{Type: string(a.Type)}
		switch a.Type {
		case opv1.ReloadSpecAction:
			if a.Reload != nil {
				x.Service = string(a.Reload.ServiceName)
			}
		case opv1.RestartSpecAction:
			if a.Restart != nil {
				x.Service = string(a.Restart.ServiceName)
			}
		case opv1.DaemonReloadSpecAction, opv1.DrainSpecAction, opv1.NoneSpecAction, opv1.RebootSpecAction:
		default:
			// MCO: "guarded by API validation", falls back to Reboot.
			x.Type = platform.NDPActionReboot
		}
		out = append(out, x)
	}
	return out
}

// closestFile finds the policy of a changed file as MCO's
// FindClosestFilePolicyPathMatch does: the policy whose path equals the
// file's or is a directory above it, the longest such path winning (the
// first of equal length).
func closestFile(path string, files []policyEntry) (policyEntry, bool) {
	best, found := policyEntry{}, false
	for _, f := range files {
		if path == f.key || isSubdirectory(f.key, path) {
			if !found || len(f.key) > len(best.key) {
				best, found = f, true
			}
		}
	}
	return best, found
}

// isSubdirectory is MCO's IsSubdirectory (pkg/controller/common
// helpers.go): target is below dir.
func isSubdirectory(dir, target string) bool {
	return strings.HasPrefix(filepath.Clean(target), filepath.Clean(dir)+string(filepath.Separator))
}

// actionOf is the Action of a list of policy actions (their maximum) and
// their description. Special is the registries.conf action; the caller
// handles it.
func actionOf(actions []platform.NDPAction) (Action, string) {
	a := None
	var parts []string
	for _, x := range actions {
		switch x.Type {
		case platform.NDPActionNone:
			parts = append(parts, "no action")
		case platform.NDPActionReload:
			a = max(a, Reload)
			parts = append(parts, "reload "+x.Service)
		case platform.NDPActionDaemonReload:
			a = max(a, Reload)
			parts = append(parts, "systemd daemon-reload")
		case platform.NDPActionRestart:
			a = max(a, Restart)
			parts = append(parts, "restart "+x.Service)
		case platform.NDPActionDrain:
			a = max(a, Drain)
			parts = append(parts, "drain")
		case platform.NDPActionSpecial:
			a = max(a, Reload)
			parts = append(parts, "reload "+platform.CrioService)
		default:
			a = max(a, Reboot)
			parts = append(parts, "reboot")
		}
	}
	return a, strings.Join(parts, ", ")
}
