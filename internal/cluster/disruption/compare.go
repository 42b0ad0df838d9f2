package disruption

import (
	"bytes"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"

	ign3types "github.com/coreos/ignition/v2/config/v3_5/types"
	opv1 "github.com/openshift/api/operator/v1"

	"github.com/siteforge/siteforge/internal/ignition"
	"github.com/siteforge/siteforge/internal/platform"
)

// Compare lists what MCO does to each node of a pool whose rendered config
// goes from old to new on release minor (platform.LatestMinor when unknown),
// with the cluster's NodeDisruptionPolicy (nil: none in the input; MCO's
// defaults apply). The pool's action is PoolAction of the result; no change
// means no update.
//
// The order of MCO's decision (pkg/daemon/update.go update):
//  1. A change MCO cannot apply in place is refused (reconcile.go
//     isConfigReconcilable): Refused changes only.
//  2. osImageURL, kernel arguments, extensions and kernel type reboot
//     (newMachineConfigDiff; calculatePostConfigChangeAction and
//     calculatePostConfigChangeNodeDisruptionAction).
//  3. From platform.NodeDisruptionPolicySince, files (by the closest policy
//     path), units (by name) and SSH keys take the merged policy's actions,
//     a file or unit without a policy reboots
//     (calculatePostConfigChangeNodeDisruptionActionFromMCDiffs); before it,
//     any unit change reboots and files follow calculatePostConfigChangeActionFromMCDiffs.
//  4. A registries.conf change that reloads CRI-O drains first unless it is
//     safe (drain.go isDrainRequired, isSafeContainerRegistryConfChanges).
//
// Files and units are compared as written, after the merge (MCO
// CalculateConfigFileDiffs and GetChangedConfigUnitsByType:
// reflect.DeepEqual of the whole entry): the same contents in another
// encoding, compression, mode or owner is a change.
func Compare(old, new Rendered, policy *NodeDisruptionPolicy, minor platform.OCPMinor) []Change {
	refused, accepted := refusals(old, new, policy, minor)
	if len(refused) > 0 {
		return refused
	}
	out := accepted
	if old.OSImageURL != new.OSImageURL {
		out = append(out, Change{Path: "osImageURL", Action: Reboot,
			Reason: "the OS image changes: MCO rebases the OS and reboots (pkg/daemon/update.go newMachineConfigDiff osUpdate)"})
	}
	if !(len(old.KernelArguments) == 0 && len(new.KernelArguments) == 0) && !slices.Equal(old.KernelArguments, new.KernelArguments) {
		out = append(out, Change{Path: "kernelArguments", Action: Reboot,
			Reason: "the kernel arguments change (order included): MCO reboots (newMachineConfigDiff kargs)"})
	}
	if !(len(old.Extensions) == 0 && len(new.Extensions) == 0) && !slices.Equal(old.Extensions, new.Extensions) {
		out = append(out, Change{Path: "extensions", Action: Reboot,
			Reason: "the RHCOS extensions change: MCO layers them with rpm-ostree and reboots (newMachineConfigDiff extensions)"})
	}
	if ok, nk := canonicalKernel(old.KernelType, minor), canonicalKernel(new.KernelType, minor); ok != nk {
		out = append(out, Change{Path: "kernelType", Action: Reboot,
			Reason: fmt.Sprintf("the kernel type changes from %s to %s: MCO switches kernels and reboots (newMachineConfigDiff kernelType)", ok, nk)})
	}

	ndp := minor >= platform.NodeDisruptionPolicySince
	var cp clusterPolicies
	if ndp {
		cp = mergePolicies(policy, minor)
	}
	drainOverride := registryDrainOverride(policy, minor)
	fileStart := len(out)
	for _, path := range changedFiles(old.Ignition, new.Ignition) {
		var c Change
		if ndp {
			c = policyFileChange(path, cp, old.Ignition, new.Ignition, minor, drainOverride)
		} else {
			c = legacyFileChange(path, minor, policy.hasUserPolicy(), drainOverride, old.Ignition, new.Ignition)
		}
		c.Reason += sameContentsNote(path, old.Ignition, new.Ignition)
		out = append(out, c)
	}
	if !ndp {
		crioActionOrder(out[fileStart:], old.Ignition, new.Ignition, minor)
	}
	for _, unit := range changedUnits(old.Ignition, new.Ignition) {
		if !ndp {
			out = append(out, Change{Path: unit, Action: Reboot,
				Reason: "a systemd unit changes: MCO reboots (pkg/daemon/update.go calculatePostConfigChangeAction: units)" + legacyNote(policy.hasUserPolicy())})
			continue
		}
		c := Change{Path: unit, Action: Reboot,
			Reason: "a systemd unit without a NodeDisruptionPolicy changes: MCO reboots (calculatePostConfigChangeNodeDisruptionActionFromMCDiffs)"}
		for _, u := range cp.units {
			if u.key == unit {
				a, what := actionOf(u.actions)
				c.Action, c.Reason = a, fmt.Sprintf("%s NodeDisruptionPolicy for unit %s: %s", owner(u.user), unit, what)
				break
			}
		}
		out = append(out, c)
	}
	if !reflect.DeepEqual(old.Ignition.Passwd, new.Ignition.Passwd) {
		if ndp {
			a, what := actionOf(cp.ssh.actions)
			out = append(out, Change{Path: "sshKeys", Action: a,
				Reason: fmt.Sprintf("the core user's SSH keys or password hash change: %s NodeDisruptionPolicy for sshkey: %s", owner(cp.ssh.user), what)})
		} else {
			what := "SSH keys or password hash"
			if minor < platform.CorePasswordHashSince {
				what = "SSH keys"
			}
			out = append(out, Change{Path: "sshKeys", Action: None,
				Reason: "the core user's " + what + " change: MCO writes them with no action (calculatePostConfigChangeAction)" + legacyNote(policy.hasUserPolicy())})
		}
	}
	return out
}

func owner(user bool) string {
	if user {
		return "the cluster's"
	}
	return "MCO's default"
}

// legacyNote tells, where the input has a policy, that the release ignores it.
func legacyNote(hasPolicy bool) string {
	if !hasPolicy {
		return ""
	}
	return fmt.Sprintf("; the NodeDisruptionPolicy is ignored before %s", platform.NodeDisruptionPolicySince)
}

// canonicalKernel is MCO's canonicalizeKernelType of release minor: realtime,
// 64k-pages (from platform.KernelType64kPagesSince) or default.
func canonicalKernel(k string, minor platform.OCPMinor) string {
	if k == platform.KernelTypeRealtime || (k == platform.KernelType64kPages && minor >= platform.KernelType64kPagesSince) {
		return k
	}
	return platform.KernelTypeDefault
}

// registryDrainOverride reports whether the daemon of release minor skips
// the registries.conf drain: the cluster has the ConfigMap
// platform.RegistryDrainOverrideConfigMap and the release reads it.
func registryDrainOverride(p *NodeDisruptionPolicy, minor platform.OCPMinor) bool {
	return p != nil && p.RegistryDrainOverride && minor >= platform.RegistryDrainOverrideSince && minor < platform.RegistryDrainOverrideUntil
}

// crioActionOrder corrects the CRI-O restart of the files of a release
// whose MCO sets the action per file in its diff order
// (calculatePostConfigChangeActionFromFileDiffs before
// platform.LegacyCrioActionOrderedSince): the last CRI-O file of
// CalculateConfigFileDiffs' order decides between restart and reload. That
// order is the removed files, then the added and changed ones, each in Go
// map order: when the last group holding a CRI-O file holds only reload
// files MCO only reloads, when it holds both MCO may do either (siteforge
// keeps the restart and says so). A reboot file makes the whole update a
// reboot and ends the loop, so it is left alone.
func crioActionOrder(files []Change, oldIgn, newIgn ign3types.Config, minor platform.OCPMinor) {
	if minor < platform.LegacyUserCARestartSince || minor >= platform.LegacyCrioActionOrderedSince {
		return
	}
	type group struct{ reload, restart []string }
	var removed, rest group
	for _, c := range files {
		if c.Action == Reboot {
			return
		}
		g := &rest
		if _, ok := findFile(newIgn, c.Path); !ok {
			g = &removed
		}
		switch platform.LegacyFileRule(c.Path, filepath.Dir(c.Path), minor) {
		case platform.LegacyReloadCrio:
			g.reload = append(g.reload, c.Path)
		case platform.LegacyRestartCrio:
			g.restart = append(g.restart, c.Path)
		}
	}
	last := rest
	if len(rest.reload)+len(rest.restart) == 0 {
		last = removed
	}
	if len(removed.restart)+len(rest.restart) == 0 || len(last.reload) == 0 {
		return
	}
	const src = " (pkg/daemon/update.go calculatePostConfigChangeActionFromFileDiffs: the action of the last CRI-O file in CalculateConfigFileDiffs' order, removed files first, each group in Go map order)"
	for i := range files {
		if platform.LegacyFileRule(files[i].Path, filepath.Dir(files[i].Path), minor) != platform.LegacyRestartCrio {
			continue
		}
		if len(last.restart) == 0 {
			files[i].Action = Reload
			files[i].Reason += fmt.Sprintf("; but in %s MCO takes the action of the last CRI-O file, and %s comes after it: MCO only reloads CRI-O", minor, last.reload[0]) + src
		} else {
			files[i].Reason += fmt.Sprintf("; in %s MCO may only reload CRI-O instead, when %s comes after it", minor, strings.Join(last.reload, ", ")) + src
		}
	}
}

// policyFileChange is a changed file's action from the merged policies.
func policyFileChange(path string, cp clusterPolicies, oldIgn, newIgn ign3types.Config, minor platform.OCPMinor, drainOverride bool) Change {
	p, ok := closestFile(path, cp.files)
	if !ok {
		return Change{Path: path, Action: Reboot,
			Reason: "a file without a NodeDisruptionPolicy changes: MCO reboots (pkg/daemon/update.go calculatePostConfigChangeNodeDisruptionActionFromMCDiffs)"}
	}
	a, what := actionOf(p.actions)
	where := path
	if p.key != path {
		where = p.key + "/"
	}
	c := Change{Path: path, Action: a, Reason: fmt.Sprintf("%s NodeDisruptionPolicy for %s: %s", owner(p.user), where, what)}
	if slices.ContainsFunc(p.actions, func(x platform.NDPAction) bool { return x.Type == platform.NDPActionSpecial }) {
		registriesDrain(&c, oldIgn, newIgn, minor, drainOverride)
	}
	return c
}

// legacyFileChange is a changed file's action before NodeDisruptionPolicy.
func legacyFileChange(path string, minor platform.OCPMinor, hasPolicy, drainOverride bool, oldIgn, newIgn ign3types.Config) Change {
	const src = " (pkg/daemon/update.go calculatePostConfigChangeActionFromMCDiffs)"
	c := Change{Path: path}
	switch platform.LegacyFileRule(path, filepath.Dir(path), minor) {
	case platform.LegacyNone:
		c.Action, c.Reason = None, "MCO writes it with no action"+src
	case platform.LegacyReloadCrio:
		c.Action, c.Reason = Reload, "MCO reloads CRI-O (systemctl reload crio)"+src
		if path == platform.RegistriesConfPath {
			registriesDrain(&c, oldIgn, newIgn, minor, drainOverride)
		}
	case platform.LegacyRestartCrio:
		c.Action, c.Reason = Restart, "MCO restarts CRI-O (systemctl restart crio)"+src
	default:
		c.Action, c.Reason = Reboot, "the file is not on MCO's list of files it applies without a reboot: MCO reboots"+src
	}
	c.Reason += legacyNote(hasPolicy)
	return c
}

// registriesDrain turns a registries.conf reload into a drain unless the
// change is safe in MCO's sense or the cluster overrides the drain
// (platform.RegistryDrainOverrideConfigMap; MCO checks it first).
func registriesDrain(c *Change, oldIgn, newIgn ign3types.Config, minor platform.OCPMinor, override bool) {
	if override {
		c.Reason += fmt.Sprintf("; the ConfigMap %s/%s exists: MCO skips the drain whatever the change (pkg/daemon/drain.go isDrainRequired: \"This may not be a safe change\")", platform.MCONamespace, platform.RegistryDrainOverrideConfigMap)
		return
	}
	safe, why, err := safeRegistriesChange(oldIgn, newIgn, minor)
	switch {
	case err != nil:
		c.Action = Drain
		c.Reason += fmt.Sprintf("; MCO cannot read registries.conf to decide on the drain (%v): the update fails on each node (pkg/daemon/drain.go isSafeContainerRegistryConfChanges)", err)
	case safe:
		c.Reason += "; the change is safe (only digest-only mirrors or registries added, search list only appended): no drain (pkg/daemon/drain.go isSafeContainerRegistryConfChanges)"
	default:
		c.Action = max(c.Action, Drain)
		c.Reason += "; MCO drains each node first: " + why + " (pkg/daemon/drain.go isSafeContainerRegistryConfChanges)"
	}
}

// sameContentsNote says when a changed file writes the same bytes as before.
func sameContentsNote(path string, oldIgn, newIgn ign3types.Config) string {
	of, ok1 := findFile(oldIgn, path)
	nf, ok2 := findFile(newIgn, path)
	if !ok1 || !ok2 {
		return ""
	}
	ob, err1 := fileBytes(of)
	nb, err2 := fileBytes(nf)
	if err1 != nil || err2 != nil || !bytes.Equal(ob, nb) {
		return ""
	}
	return "; the contents are the same, the entry differs (encoding, compression, mode or owner): MCO compares entries as written (pkg/controller/common/helpers.go CalculateConfigFileDiffs)"
}

func findFile(c ign3types.Config, path string) (ign3types.File, bool) {
	for _, f := range c.Storage.Files {
		if f.Path == path {
			return f, true
		}
	}
	return ign3types.File{}, false
}

func fileBytes(f ign3types.File) ([]byte, error) {
	if f.Contents.Source == nil {
		return nil, nil
	}
	comp := ""
	if f.Contents.Compression != nil {
		comp = *f.Contents.Compression
	}
	return ignition.Contents(*f.Contents.Source, comp, maxRegistriesConf)
}

// changedFiles lists the paths added, removed or changed, sorted (MCO
// CalculateConfigFileDiffs; a later entry at the same path wins, as in its
// map).
func changedFiles(oldIgn, newIgn ign3types.Config) []string {
	return changedKeys(oldIgn.Storage.Files, newIgn.Storage.Files, func(f ign3types.File) string { return f.Path })
}

// changedUnits lists the unit names added, removed or changed (drop-ins
// included), sorted (MCO GetChangedConfigUnitsByType).
func changedUnits(oldIgn, newIgn ign3types.Config) []string {
	return changedKeys(oldIgn.Systemd.Units, newIgn.Systemd.Units, func(u ign3types.Unit) string { return u.Name })
}

// changedKeys lists the keys of the entries added, removed or changed
// between two lists (the later entry of a key wins), sorted.
func changedKeys[T any](old, new []T, key func(T) string) []string {
	o, n := map[string]T{}, map[string]T{}
	for _, x := range old {
		o[key(x)] = x
	}
	for _, x := range new {
		n[key(x)] = x
	}
	var out []string
	for k := range o {
		if _, ok := n[k]; !ok {
			out = append(out, k)
		}
	}
	for k, x := range n {
		if ox, ok := o[k]; !ok || !reflect.DeepEqual(ox, x) {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// refusals are the changes MCO does not apply in place
// (pkg/controller/common/reconcile.go isConfigReconcilable, the render
// controller's and the daemon's check), and the storage changes the
// cluster's irreconcilableValidationOverrides accepts.
func refusals(old, new Rendered, policy *NodeDisruptionPolicy, minor platform.OCPMinor) (refused, accepted []Change) {
	const src = " (pkg/controller/common/reconcile.go isConfigReconcilable)"
	var out []Change
	refuse := func(path, why string) {
		out = append(out, Change{Path: path, Action: None, Refused: true, Reason: "MCO refuses the new rendered config: " + why + src + "; the pool degrades and no node is updated"})
	}
	oi, ni := old.Ignition, new.Ignition
	if !reflect.DeepEqual(oi.Passwd, ni.Passwd) {
		if !reflect.DeepEqual(oi.Passwd.Groups, ni.Passwd.Groups) {
			refuse("passwd.groups", "the passwd groups change")
		} else if !reflect.DeepEqual(oi.Passwd.Users, ni.Passwd.Users) {
			if minor < platform.CoreUserRemovableSince && len(oi.Passwd.Users) > 0 && len(ni.Passwd.Users) == 0 {
				refuse("passwd.users", "user core may not be deleted (every user, the core user's SSH keys with it, is removed)")
			}
			for _, u := range ni.Passwd.Users {
				if u.Name != platform.CoreUser {
					refuse("passwd.users", fmt.Sprintf("user %q is not %q, the only user MCO updates", u.Name, platform.CoreUser))
					break
				}
			}
			if len(out) == 0 && len(ni.Passwd.Users) > 0 {
				if why := coreUserProblem(ni.Passwd.Users[len(ni.Passwd.Users)-1], minor); why != "" {
					refuse("passwd.users", why)
				}
			}
		}
	}
	if !reflect.DeepEqual(oi.KernelArguments, ni.KernelArguments) {
		refuse("ignition.kernelArguments", "the Ignition kernelArguments section changes (use the MachineConfig's spec.kernelArguments)")
	}
	overridden := func(s opv1.IrreconcilableValidationOverridesStorage) bool {
		return policy != nil && minor >= platform.IrreconcilableOverridesSince && slices.Contains(policy.StorageOverride, s)
	}
	storage := []struct {
		path     string
		changed  bool
		override opv1.IrreconcilableValidationOverridesStorage
	}{
		{"storage.disks", !reflect.DeepEqual(oi.Storage.Disks, ni.Storage.Disks), opv1.IrreconcilableValidationOverridesStorageDisks},
		{"storage.filesystems", !reflect.DeepEqual(oi.Storage.Filesystems, ni.Storage.Filesystems), opv1.IrreconcilableValidationOverridesStorageFileSystems},
		{"storage.raid", !reflect.DeepEqual(oi.Storage.Raid, ni.Storage.Raid), opv1.IrreconcilableValidationOverridesStorageRaid},
	}
	for _, s := range storage {
		switch {
		case !s.changed:
		case overridden(s.override):
			accepted = append(accepted, Change{Path: s.path, Action: None,
				Reason: fmt.Sprintf("the %s section changes and MachineConfiguration spec.irreconcilableValidationOverrides.storage accepts %s: existing nodes keep their storage, only new nodes get it%s", s.path, s.override, src)})
		default:
			refuse(s.path, "the Ignition "+strings.TrimPrefix(s.path, "storage.")+" section changes")
		}
	}
	if !reflect.DeepEqual(oi.Storage.Directories, ni.Storage.Directories) {
		refuse("storage.directories", "the Ignition directories section changes")
	}
	if !reflect.DeepEqual(oi.Storage.Links, ni.Storage.Links) && len(ni.Storage.Links) != 0 {
		refuse("storage.links", "the Ignition links section changes")
	}
	for _, f := range ni.Storage.Files {
		if len(f.Append) > 0 {
			refuse(f.Path, "the file uses append, which MCO cannot apply again in place")
			break
		}
		if f.Path == platform.MCDForceFilePath {
			refuse(f.Path, "a MachineConfig cannot create "+f.Path)
			break
		}
	}
	if old.FIPS != new.FIPS {
		refuse("fips", "FIPS changes: MCO refuses to modify FIPS on a running cluster")
	}
	return out, accepted
}

// coreUserProblem is MCO's verifyUserFields: the last user must be core
// with SSH keys or a password hash, and nothing else; before
// platform.CorePasswordHashSince with SSH keys, and nothing else (a
// password hash included).
func coreUserProblem(u ign3types.PasswdUser, minor platform.OCPMinor) string {
	if minor < platform.CorePasswordHashSince {
		if u.Name != platform.CoreUser || len(u.SSHAuthorizedKeys) == 0 {
			return "the passwd user must be core with one or more SSH keys"
		}
		u.Name, u.SSHAuthorizedKeys = "", nil
		if !reflect.DeepEqual(u, ign3types.PasswdUser{}) {
			return fmt.Sprintf("the core user changes beyond its SSH keys (a password hash is accepted from %s)", platform.CorePasswordHashSince)
		}
		return ""
	}
	if u.Name != platform.CoreUser || (u.PasswordHash == nil && len(u.SSHAuthorizedKeys) == 0) {
		return "the passwd user must be core with one or more SSH keys or a password hash"
	}
	u.Name, u.SSHAuthorizedKeys, u.PasswordHash = "", nil, nil
	if !reflect.DeepEqual(u, ign3types.PasswdUser{}) {
		return "the core user changes beyond its SSH keys and password hash"
	}
	return ""
}
