package impact

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"

	configv1 "github.com/openshift/api/config/v1"
	machineconfigv1 "github.com/openshift/api/machineconfiguration/v1"
	operatorv1 "github.com/openshift/api/operator/v1"

	"github.com/siteforge/siteforge/internal/cluster/disruption"
	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/platform"
)

func b64(data []byte) string { return base64.StdEncoding.EncodeToString(data) }

// poolChanges is what MCO does on a pool whose MachineConfigs go from
// oldMCs to newMCs (disruption.Compare on the merged configs), each change
// charged to the MachineConfig that sets it.
func poolChanges(oldMCs, newMCs []machineconfigv1.MachineConfig, policy *disruption.NodeDisruptionPolicy, minor platform.OCPMinor) ([]Change, error) {
	if minor == 0 {
		minor = platform.LatestMinor
	}
	oldR, err := disruption.Merge(oldMCs, minor)
	if err != nil {
		return nil, fmt.Errorf("before: %w", err)
	}
	newR, err := disruption.Merge(newMCs, minor)
	if err != nil {
		return nil, fmt.Errorf("after: %w", err)
	}
	var out []Change
	oldFields, newFields := fieldsOf(oldMCs), fieldsOf(newMCs)
	for _, c := range disruption.Compare(oldR, newR, policy, minor) {
		out = append(out, Change{Object: owners(c.Path, oldFields, newFields), Path: c.Path, Action: c.Action, Reason: c.Reason, Refused: c.Refused})
	}
	return out, nil
}

// fieldsOf is what each MachineConfig sets (mcFields), by name.
func fieldsOf(mcs []machineconfigv1.MachineConfig) map[string]map[string]any {
	out := make(map[string]map[string]any, len(mcs))
	for _, mc := range mcs {
		out[mc.Name] = mcFields(mc)
	}
	return out
}

// mcFields is what a MachineConfig sets, by the paths disruption names.
func mcFields(mc machineconfigv1.MachineConfig) map[string]any {
	out := map[string]any{}
	var cfg struct {
		Passwd struct {
			Users []struct {
				Name              string   `json:"name"`
				SSHAuthorizedKeys []string `json:"sshAuthorizedKeys"`
			} `json:"users"`
		} `json:"passwd"`
		Storage struct {
			Files []json.RawMessage `json:"files"`
		} `json:"storage"`
		Systemd struct {
			Units []json.RawMessage `json:"units"`
		} `json:"systemd"`
	}
	if len(mc.Spec.Config.Raw) > 0 {
		_ = json.Unmarshal(mc.Spec.Config.Raw, &cfg)
	}
	for _, f := range cfg.Storage.Files {
		var p struct {
			Path string `json:"path"`
		}
		if json.Unmarshal(f, &p) == nil && p.Path != "" {
			out[p.Path] = string(f)
		}
	}
	for _, u := range cfg.Systemd.Units {
		var p struct {
			Name string `json:"name"`
		}
		if json.Unmarshal(u, &p) == nil && p.Name != "" {
			out[p.Name] = string(u)
		}
	}
	if len(cfg.Passwd.Users) > 0 {
		out["sshKeys"] = cfg.Passwd.Users
	}
	if len(mc.Spec.KernelArguments) > 0 {
		out["kernelArguments"] = mc.Spec.KernelArguments
	}
	if len(mc.Spec.Extensions) > 0 {
		out["extensions"] = mc.Spec.Extensions
	}
	if mc.Spec.KernelType != "" {
		out["kernelType"] = mc.Spec.KernelType
	}
	if mc.Spec.FIPS {
		out["fips"] = true
	}
	if mc.Spec.OSImageURL != "" {
		out["osImageURL"] = mc.Spec.OSImageURL
	}
	return out
}

// owners names the MachineConfigs whose setting of path differs between
// the two sides ("MachineConfig a, MachineConfig b"), from each side's
// fields by MachineConfig name.
func owners(path string, oldFields, newFields map[string]map[string]any) string {
	before, after := map[string]any{}, map[string]any{}
	for name, f := range oldFields {
		if v, ok := f[path]; ok {
			before[name] = v
		}
	}
	for name, f := range newFields {
		if v, ok := f[path]; ok {
			after[name] = v
		}
	}
	var names []string
	for n, v := range after {
		if !reflect.DeepEqual(before[n], v) {
			names = append(names, n)
		}
	}
	for n := range before {
		if _, ok := after[n]; !ok {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for i, n := range names {
		names[i] = "MachineConfig " + n
	}
	return strings.Join(names, ", ")
}

// networkOperator and networkConfig are the two Network "cluster" objects.
func networkOperator(c Cluster) (*operatorv1.Network, *manifests.Object) {
	for _, o := range c.Objects {
		if o.Kind == "Network" && o.APIVersion == manifests.GroupOperatorV1 && o.Name == platform.ConfigSingletonName {
			var n operatorv1.Network
			if o.DecodeLoose(&n) == nil {
				return &n, o
			}
		}
	}
	return nil, nil
}

func networkConfig(c Cluster) *configv1.Network {
	for _, o := range c.Objects {
		if o.Kind == "Network" && o.APIVersion == manifests.GroupConfig && o.Name == platform.ConfigSingletonName {
			var n configv1.Network
			if o.DecodeLoose(&n) == nil {
				// OpenshiftSDN -> OpenShiftSDN is a respelling, not a migration
				n.Spec.NetworkType = platform.CanonicalNetworkType(n.Spec.NetworkType)
				return &n
			}
		}
	}
	return nil
}

// migrationChanges are the network changes outside MachineConfigs that
// roll every pool: a step of an MTU migration (docs "Changing the MTU for
// the cluster network": "After the MCO updates machines in each machine
// config pool, it reboots each node one by one", in both steps), and a
// network type migration.
func migrationChanges(o, n Cluster) []Change {
	var out []Change
	before, _ := networkOperator(o)
	after, _ := networkOperator(n)
	var bm, am *operatorv1.NetworkMigration
	if before != nil {
		bm = before.Spec.Migration
	}
	if after != nil {
		am = after.Spec.Migration
	}
	mtuOf := func(m *operatorv1.NetworkMigration) *operatorv1.MTUMigration {
		if m == nil {
			return nil
		}
		return m.MTU
	}
	switch bmtu, amtu := mtuOf(bm), mtuOf(am); {
	case amtu != nil && !reflect.DeepEqual(bmtu, amtu):
		out = append(out, Change{Object: "Network.operator.openshift.io cluster", Path: "spec.migration.mtu", Action: disruption.Reboot,
			Reason: "an MTU migration starts (or changes its target): the routable MTU goes to every node, and MCO reboots each node of every pool one by one (docs \"Changing the MTU for the cluster network\": \"After the MCO updates machines in each machine config pool, it reboots each node one by one\")"})
	case bmtu != nil && amtu == nil:
		out = append(out, Change{Object: "Network.operator.openshift.io cluster", Path: "spec.migration.mtu", Action: disruption.Reboot,
			Reason: "the MTU migration ends: the final MTU goes to every node, and MCO reboots each node of every pool one by one, a second time (docs \"Changing the MTU for the cluster network\", finalizing the migration: \"After the MCO updates machines in each machine config pool, it reboots each node one by one\")"})
	}
	bc, ac := networkConfig(o), networkConfig(n)
	if bc != nil && ac != nil && bc.Spec.NetworkType != ac.Spec.NetworkType && ac.Spec.NetworkType != "" && bc.Spec.NetworkType != "" {
		out = append(out, Change{Object: "Network.config.openshift.io cluster", Path: "spec.networkType", Action: disruption.Reboot,
			Reason: fmt.Sprintf("the network type changes %s -> %s: a live migration reboots every node of every pool twice (MTU, then the plugin switch); an offline one needs a manual reboot of every node (docs \"Migrating from the OpenShift SDN network plugin\")", bc.Spec.NetworkType, ac.Spec.NetworkType)})
	}
	return out
}
