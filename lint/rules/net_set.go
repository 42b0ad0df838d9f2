package rules

import (
	"encoding/json"
	"net/netip"
	"strings"

	operatorv1 "github.com/openshift/api/operator/v1"

	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/lint"
)

// ---------------------------------------------------------------- what a plain set says about its network

// netSet is what a set of plain manifests says about the cluster network:
// its install-config, Network.config and Network.operator objects, the
// NetworkManager MTU keyfiles of its MachineConfigs, and the platform.
type netSet struct {
	set       lint.Set
	installs  []*manifests.InstallConfigFile
	configs   []*networkConfigDoc
	operators []*operatorNetworkDoc
	keyfiles  []manifests.MTUKeyfile
	// platform is the install-config platform key or the Infrastructure
	// platform type, lower-case ("aws", "gcp", "azure", ...); "" unknown.
	platform string
}

// networkConfigDoc is config.openshift.io/v1 Network.
type networkConfigDoc struct {
	obj      *manifests.Object
	Metadata struct {
		Annotations map[string]string `json:"annotations"`
	} `json:"metadata"`
	Spec struct {
		NetworkType    string                `json:"networkType"`
		ClusterNetwork []manifests.CIDREntry `json:"clusterNetwork"`
		ServiceNetwork []string              `json:"serviceNetwork"`
	} `json:"spec"`
	Status struct {
		ClusterNetworkMTU int    `json:"clusterNetworkMTU"`
		NetworkType       string `json:"networkType"`
		Conditions        []struct {
			Type   string `json:"type"`
			Status string `json:"status"`
		} `json:"conditions"`
	} `json:"status"`
}

// liveMigration reports whether the object carries the live network type
// migration annotation.
func (c *networkConfigDoc) liveMigration() bool {
	_, ok := c.Metadata.Annotations[platform.NetworkTypeMigrationAnnotation]
	return ok
}

// liveMigrationValidated reports whether CNO validates a live migration for
// the object: the annotation is set, spec.networkType names a target that
// differs from status.networkType, and no migration is in progress
// (NetworkTypeMigrationInProgress True). CNO validates nothing otherwise
// ("If the migration is completed or is already progressing do not run the
// validation"; CNO pkg/network/cluster_config.go ValidateLiveMigration, and
// pkg/controller/operconfig/cluster.go, which calls it only when
// spec.networkType != status.networkType). A manifest without status (the
// usual GitOps case) is judged as a requested migration.
func (c *networkConfigDoc) liveMigrationValidated() bool {
	if !c.liveMigration() || c.Spec.NetworkType == "" || c.Spec.NetworkType == c.Status.NetworkType {
		return false
	}
	for _, cond := range c.Status.Conditions {
		if cond.Type == platform.NetworkTypeMigrationCondition && cond.Status == "True" {
			return false
		}
	}
	return true
}

// liveMigrationSource is the network type a live migration leaves:
// status.networkType when the object records it, else the other of the two
// types CNO migrates between (a manifest without status that asks for
// OVNKubernetes is the documented SDN -> OVN-Kubernetes migration; one that
// asks for OpenShiftSDN is its rollback).
func (c *networkConfigDoc) liveMigrationSource() string {
	switch {
	case c.Status.NetworkType != "":
		return c.Status.NetworkType
	case c.Spec.NetworkType == platform.OVNKubernetes:
		return platform.OpenShiftSDN
	case c.Spec.NetworkType == platform.OpenShiftSDN:
		return platform.OVNKubernetes
	}
	return ""
}

// operatorNetworkDoc is operator.openshift.io/v1 Network: a full object or
// a patch of one (the MTU migration phases).
type operatorNetworkDoc struct {
	obj  *manifests.Object
	Spec struct {
		ClusterNetwork []manifests.CIDREntry `json:"clusterNetwork"`
		ServiceNetwork []string              `json:"serviceNetwork"`
		DefaultNetwork struct {
			Type string        `json:"type"`
			OVN  *ovnConfigDoc `json:"ovnKubernetesConfig"`
			SDN  *sdnConfigDoc `json:"openshiftSDNConfig"`
		} `json:"defaultNetwork"`
		Migration *struct {
			NetworkType string `json:"networkType"`
			Mode        string `json:"mode"`
			MTU         *struct {
				Network *mtuFromTo `json:"network"`
				Machine *mtuFromTo `json:"machine"`
			} `json:"mtu"`
		} `json:"migration"`
	} `json:"spec"`
	// migrationKey: spec.migration is written, null included (phase 2 of
	// an MTU migration writes `migration: null`).
	migrationKey bool
}

type ovnConfigDoc struct {
	MTU         *int `json:"mtu"`
	GenevePort  *int `json:"genevePort"`
	IPsecConfig *struct {
		Mode string `json:"mode"`
	} `json:"ipsecConfig"`
	V4InternalSubnet string               `json:"v4InternalSubnet"`
	V6InternalSubnet string               `json:"v6InternalSubnet"`
	IPv4             *ovnInternalSubnets  `json:"ipv4"`
	IPv6             *ovnInternalSubnets  `json:"ipv6"`
	GatewayConfig    *ovnGatewayConfigDoc `json:"gatewayConfig"`
}

type ovnInternalSubnets struct {
	InternalJoinSubnet          string `json:"internalJoinSubnet"`
	InternalTransitSwitchSubnet string `json:"internalTransitSwitchSubnet"`
}

type ovnGatewayConfigDoc struct {
	IPv4 struct {
		InternalMasqueradeSubnet string `json:"internalMasqueradeSubnet"`
	} `json:"ipv4"`
	IPv6 struct {
		InternalMasqueradeSubnet string `json:"internalMasqueradeSubnet"`
	} `json:"ipv6"`
}

type sdnConfigDoc struct {
	MTU       *int   `json:"mtu"`
	Mode      string `json:"mode"`
	VXLANPort *int   `json:"vxlanPort"`
}

type mtuFromTo struct {
	From *int `json:"from"`
	To   *int `json:"to"`
}

// networkType is the network type the object configures: defaultNetwork.type,
// else the type whose config it carries; "" when it says nothing.
func (o *operatorNetworkDoc) networkType() string {
	dn := o.Spec.DefaultNetwork
	switch {
	case dn.Type != "":
		return dn.Type
	case dn.OVN != nil && dn.SDN == nil:
		return platform.OVNKubernetes
	case dn.SDN != nil && dn.OVN == nil:
		return platform.OpenShiftSDN
	}
	return ""
}

// mtu returns the defaultNetwork mtu the object sets and its field path.
func (o *operatorNetworkDoc) mtu() (*int, []string) {
	dn := o.Spec.DefaultNetwork
	switch {
	case dn.OVN != nil && dn.OVN.MTU != nil:
		return dn.OVN.MTU, []string{"spec", "defaultNetwork", "ovnKubernetesConfig", "mtu"}
	case dn.SDN != nil && dn.SDN.MTU != nil:
		return dn.SDN.MTU, []string{"spec", "defaultNetwork", "openshiftSDNConfig", "mtu"}
	}
	return nil, nil
}

// ipsecFull reports whether the object enables IPsec in mode Full (an
// ipsecConfig with an empty mode counts as Full: CNO GetIPsecMode).
func (o *operatorNetworkDoc) ipsecFull() bool {
	ovn := o.Spec.DefaultNetwork.OVN
	return ovn != nil && ovn.IPsecConfig != nil && platform.IPsecModeIsFull(true, ovn.IPsecConfig.Mode)
}

// mtuMigration returns spec.migration.mtu in ValidateMTUChange's terms, or
// nil when the object carries none (phase 1 carries one).
func (o *operatorNetworkDoc) mtuMigration() *platform.MTUMigration {
	m := o.Spec.Migration
	if m == nil || m.MTU == nil {
		return nil
	}
	var out platform.MTUMigration
	if n := m.MTU.Network; n != nil {
		out.NetworkFrom, out.NetworkTo = n.From, n.To
	}
	if n := m.MTU.Machine; n != nil {
		out.MachineFrom, out.MachineTo = n.From, n.To
	}
	return &out
}

// finalizesMigration reports whether the object is phase 2 of a migration:
// it writes `migration: null`.
func (o *operatorNetworkDoc) finalizesMigration() bool {
	return o.migrationKey && o.Spec.Migration == nil
}

// offlineTypeMigration reports whether the object requests a networkType
// migration in a mode other than Live (the CEL rule's condition).
func (o *operatorNetworkDoc) offlineTypeMigration() bool {
	m := o.Spec.Migration
	return m != nil && m.NetworkType != "" && m.Mode != string(operatorv1.LiveNetworkMigrationMode)
}

// readNetSet decodes the network objects of a set. Objects that do not
// decode are skipped: the schema rules report them.
// Computed once per set: shared by the rules, never changed.
func readNetSet(set lint.Set) *netSet {
	return lint.Fact(set, factNetSet, func() *netSet { return newNetSet(set) })
}

func newNetSet(set lint.Set) *netSet {
	ns := &netSet{set: set, installs: manifests.InstallConfigs(set.Objects)}
	for _, mc := range machineConfigs(set) {
		ns.keyfiles = append(ns.keyfiles, manifests.MTUKeyfiles(mc)...)
	}
	for _, ic := range ns.installs {
		if ns.platform == "" {
			ns.platform = ic.Platform
		}
	}
	for _, o := range set.Objects {
		switch {
		case o.Kind == "Network" && o.APIVersion == configNetworkAPIVersion:
			c := &networkConfigDoc{obj: o}
			if o.DecodeLoose(c) == nil {
				// CNO copies spec.networkType into the operator config's
				// defaultNetwork.type and canonicalises that (status is
				// CNO's own, always canonical)
				c.Spec.NetworkType = platform.CanonicalNetworkType(c.Spec.NetworkType)
				ns.configs = append(ns.configs, c)
			}
		case o.Kind == "Network" && o.APIVersion == operatorNetworkAPIVersion:
			n := &operatorNetworkDoc{obj: o}
			if o.DecodeLoose(n) != nil {
				continue
			}
			n.Spec.DefaultNetwork.Type = platform.CanonicalNetworkType(n.Spec.DefaultNetwork.Type)
			var keys struct {
				Spec map[string]json.RawMessage `json:"spec"`
			}
			if o.DecodeLoose(&keys) == nil {
				_, n.migrationKey = keys.Spec["migration"]
			}
			ns.operators = append(ns.operators, n)
		}
	}
	if ns.platform == "" {
		for _, o := range set.Kind(configNetworkAPIVersion, "Infrastructure") {
			var infra struct {
				Spec struct {
					PlatformSpec struct {
						Type string `json:"type"`
					} `json:"platformSpec"`
				} `json:"spec"`
				Status struct {
					PlatformStatus struct {
						Type string `json:"type"`
					} `json:"platformStatus"`
				} `json:"status"`
			}
			if o.DecodeLoose(&infra) == nil {
				for _, t := range []string{infra.Spec.PlatformSpec.Type, infra.Status.PlatformStatus.Type} {
					if t != "" && ns.platform == "" {
						ns.platform = strings.ToLower(t)
					}
				}
			}
		}
	}
	return ns
}

// networkType is the set's network type: the operator config's, else the
// install-config's, else Network.config's (outside a requested live
// migration, whose spec.networkType is the target); OVN-Kubernetes when
// nothing says.
func (ns *netSet) networkType() string {
	for _, o := range ns.operators {
		if t := o.networkType(); t != "" {
			return t
		}
	}
	for _, ic := range ns.installs {
		if ic.Networking.NetworkType != "" {
			return ic.Networking.NetworkType
		}
	}
	for _, c := range ns.configs {
		if c.Spec.NetworkType != "" && !c.liveMigrationValidated() {
			return c.Spec.NetworkType
		}
	}
	return platform.OVNKubernetes
}

// anyIPv6 reports whether any clusterNetwork CIDR of the set is IPv6
// (install-config networking.clusterNetwork, Network.config or
// Network.operator spec.clusterNetwork): the MTU floor is then MinMTUIPv6.
func (ns *netSet) anyIPv6() bool {
	var cidrs []manifests.CIDREntry
	for _, ic := range ns.installs {
		for _, c := range ic.Networking.ClusterNetwork {
			cidrs = append(cidrs, manifests.CIDREntry{CIDR: c.CIDR})
		}
	}
	for _, c := range ns.configs {
		cidrs = append(cidrs, c.Spec.ClusterNetwork...)
	}
	for _, o := range ns.operators {
		cidrs = append(cidrs, o.Spec.ClusterNetwork...)
	}
	for _, c := range cidrs {
		if isIPv6CIDR(c.CIDR) {
			return true
		}
	}
	return false
}

func isIPv6CIDR(cidr string) bool {
	p, err := netip.ParsePrefix(cidr)
	return err == nil && p.Addr().Is6() && !p.Addr().Is4In6()
}

// ipsecFull reports whether an operator config of the set enables IPsec Full.
func (ns *netSet) ipsecFull() bool {
	for _, o := range ns.operators {
		if o.ipsecFull() {
			return true
		}
	}
	return false
}

// appliedMTU is Network.config status.clusterNetworkMTU, the MTU the
// cluster applies now, when the set records it.
func (ns *netSet) appliedMTU() (int, *networkConfigDoc, bool) {
	for _, c := range ns.configs {
		if c.Status.ClusterNetworkMTU > 0 {
			return c.Status.ClusterNetworkMTU, c, true
		}
	}
	return 0, nil, false
}

// typeMigration reports whether the set migrates the network type (an
// operator spec.migration.networkType, or the live migration annotation).
func (ns *netSet) typeMigration() bool {
	for _, o := range ns.operators {
		if o.Spec.Migration != nil && o.Spec.Migration.NetworkType != "" {
			return true
		}
	}
	for _, c := range ns.configs {
		if c.liveMigration() {
			return true
		}
	}
	return false
}

// ---------------------------------------------------------------- NetworkManager MTU keyfiles

// knownKeyfiles are the keyfiles whose MTU could be read.
func (ns *netSet) knownKeyfiles() []manifests.MTUKeyfile {
	var out []manifests.MTUKeyfile
	for _, k := range ns.keyfiles {
		if k.MTU > 0 {
			out = append(out, k)
		}
	}
	return out
}

// smallestKeyfile is the keyfile with the smallest MTU, if any.
func (ns *netSet) smallestKeyfile() (manifests.MTUKeyfile, bool) {
	var best manifests.MTUKeyfile
	found := false
	for _, k := range ns.knownKeyfiles() {
		if !found || k.MTU < best.MTU {
			best, found = k, true
		}
	}
	return best, found
}
