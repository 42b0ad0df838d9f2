package rules

import (
	"encoding/json"
	"fmt"
	"net/netip"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"cuelang.org/go/cue"
	configv1 "github.com/openshift/api/config/v1"
	operatorv1 "github.com/openshift/api/operator/v1"

	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/site"
	"github.com/siteforge/siteforge/lint"
)

func init() {
	for _, r := range []*lint.Rule{
		{
			ID:       "NET001",
			Name:     "network-cidr-overlap",
			Severity: lint.Error,
			Summary:  "cluster, service and machine networks overlap each other or OVN-Kubernetes' internal subnets",
			Rationale: "Pod (clusterNetwork), service (serviceNetwork) and node (machineNetwork) addresses must be disjoint, and with OVN-Kubernetes none of " +
				"them may overlap the subnets OVN-Kubernetes reserves for itself: the join subnet (100.64.0.0/16), the transit switch subnet " +
				"(100.88.0.0/16) and the masquerade subnet (169.254.0.0/17 on new installs) by default (api operator/v1 " +
				"OVNKubernetesConfig ipv4/ipv6 internalJoinSubnet and internalTransitSwitchSubnet, gatewayConfig internalMasqueradeSubnet; " +
				"CNO defaultV4MasqueradeSubnet; networking.md section 3). Overlapping traffic is misrouted: the cluster installs but pods " +
				"cannot reach the nodes or services behind the overlapping range.",
			Fix: "Renumber the network (install-config networking, Network.config spec, or the site's network block). When the overlap is with an " +
				"OVN-Kubernetes internal subnet on an existing cluster, move the internal subnet instead (ovnKubernetesConfig.ipv4.internalJoinSubnet, " +
				".internalTransitSwitchSubnet, gatewayConfig.ipv4.internalMasqueradeSubnet).",
			Check: checkNetworkOverlaps,
		},
		{
			ID:       "NET002",
			Name:     "openshift-sdn-unsupported-version",
			Severity: lint.Error,
			Summary:  "OpenShift SDN on a release that cannot install it (4.15+) or rejects it (4.17+)",
			Rationale: "OpenShift SDN is deprecated from 4.14, cannot be chosen for new installs from 4.15, sets Upgradeable=False in 4.16 and is " +
				"removed in 4.17, where CNO rejects it with `unsupported network type \"OpenShiftSDN\"` (4.14-4.17 release notes; networking.md " +
				"section 3). Plain manifests without a known release (--ocp-version) are judged by the latest release.",
			Fix: "Install with networkType OVNKubernetes. A running SDN cluster must migrate to OVN-Kubernetes (offline, or live from 4.15) " +
				"before it is upgraded to 4.17: set networkMigration in the site and `siteforge render` writes the patches and the runbook.",
			Check: checkSDNVersion,
		},
		{
			ID:       "NET003",
			Name:     "live-migration-blocked",
			Severity: lint.Error,
			Summary:  "a live SDN to OVN-Kubernetes migration that CNO refuses to start",
			Rationale: "The limited live migration is started by the annotation network.openshift.io/network-type-migration on Network.config " +
				"`cluster` together with spec.networkType OVNKubernetes (CNO from 4.15, documented from 4.16). CNO refuses it on OpenShift SDN in " +
				"Multitenant mode and when the cluster or service network overlaps OVN-Kubernetes' internal subnets (join 100.64.0.0/16, transit " +
				"switch 100.88.0.0/16, masquerade 169.254.0.0/17 by default); it is also blocked on HyperShift and with egress router pods " +
				"(docs \"Limited live migration to the OVN-Kubernetes network plugin\"; networking.md section 3).",
			Fix: "Switch the SDN to NetworkPolicy mode (or use the offline migration), move the overlapping network or OVN-Kubernetes' internal " +
				"subnets first, and upgrade to 4.16 before starting a live migration.",
			Check: checkLiveMigration,
		},
		{
			ID:       "NET004",
			Name:     "geneve-port-is-vxlan",
			Severity: lint.Error,
			Summary:  "ovnKubernetesConfig.genevePort is the VXLAN port 4789",
			Rationale: "UDP 4789 is the VXLAN port: OpenShift SDN's default vxlanPort (CNO fillOpenShiftSDNDefaults) and the port of most " +
				"hypervisor and cloud overlays. A Geneve tunnel on it collides with VXLAN traffic, on the nodes during an SDN migration and on " +
				"the underlay (networking.md section 3: genevePort != 4789). OVN-Kubernetes' default is 6081.",
			Fix:   "Remove genevePort to use the default 6081, or choose another free UDP port.",
			Check: checkGenevePort,
		},
	} {
		r.Since = "v1alpha1"
		lint.Register(r)
	}
}

// The apiVersions of the network objects.
var (
	operatorNetworkAPIVersion = operatorv1.GroupVersion.String() // operator.openshift.io/v1
	configNetworkAPIVersion   = configv1.GroupVersion.String()   // config.openshift.io/v1
)

// ---------------------------------------------------------------- what a plain set says about its network

// netSet is what a set of plain manifests says about the cluster network:
// its install-config, Network.config and Network.operator objects, the
// NetworkManager MTU keyfiles of its MachineConfigs, and the platform.
type netSet struct {
	set       lint.Set
	installs  []*manifests.InstallConfig
	configs   []*networkConfigDoc
	operators []*operatorNetworkDoc
	keyfiles  []mtuKeyfile
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
		ClusterNetworkMTU int `json:"clusterNetworkMTU"`
	} `json:"status"`
}

// liveMigration reports whether the object starts a live network type
// migration.
func (c *networkConfigDoc) liveMigration() bool {
	_, ok := c.Metadata.Annotations[platform.NetworkTypeMigrationAnnotation]
	return ok
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

// mtuKeyfile is a NetworkManager keyfile that persists an interface MTU,
// written by a MachineConfig (docs "Changing the cluster network MTU").
type mtuKeyfile struct {
	obj   *manifests.Object
	role  string // MachineConfigPool role label
	iface string
	mtu   int // ethernet.mtu; 0 when the content cannot be read
	path  []string
}

func (k mtuKeyfile) String() string {
	if k.role == "" {
		return fmt.Sprintf("MachineConfig %s (%s)", k.obj.Name, k.iface)
	}
	return fmt.Sprintf("MachineConfig %s (role %s, %s)", k.obj.Name, k.role, k.iface)
}

// readNetSet decodes the network objects of a set. Objects that do not
// decode are skipped: the schema rules report them.
func readNetSet(set lint.Set) *netSet {
	ns := &netSet{set: set, installs: manifests.InstallConfigs(set.Objects)}
	for _, mc := range manifests.MachineConfigs(set.Objects) {
		ns.keyfiles = append(ns.keyfiles, mtuKeyfiles(mc)...)
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
				ns.configs = append(ns.configs, c)
			}
		case o.Kind == "Network" && o.APIVersion == operatorNetworkAPIVersion:
			n := &operatorNetworkDoc{obj: o}
			if o.DecodeLoose(n) != nil {
				continue
			}
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
// install-config's, else Network.config's (outside a live migration, whose
// spec.networkType is the target); OVN-Kubernetes when nothing says.
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
		if c.Spec.NetworkType != "" && !c.liveMigration() {
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
		cidrs = append(cidrs, ic.Networking.ClusterNetwork...)
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

// nmMTUKeyfilePattern matches platform.NMMTUKeyfilePathFormat; the group is
// the interface.
var nmMTUKeyfilePattern = regexp.MustCompile("^" + strings.Replace(regexp.QuoteMeta(platform.NMMTUKeyfilePathFormat), "%s", "(.+)", 1) + "$")

// mtuKeyfiles lists the NetworkManager MTU keyfiles a MachineConfig writes.
func mtuKeyfiles(mc *manifests.MachineConfig) []mtuKeyfile {
	var out []mtuKeyfile
	for i, f := range mc.Config.Storage.Files {
		m := nmMTUKeyfilePattern.FindStringSubmatch(f.Path)
		if m == nil {
			continue
		}
		k := mtuKeyfile{obj: mc.Obj, role: mc.Role, iface: m[1],
			path: []string{"spec", "config", "storage", "files", strconv.Itoa(i), "contents", "source"}}
		if data, err := f.Data(maxKeyfileSize); err == nil {
			k.mtu = keyfileMTU(string(data))
		}
		out = append(out, k)
	}
	return out
}

// maxKeyfileSize bounds what is decompressed from a keyfile's contents.
const maxKeyfileSize = 1 << 20

// keyfileMTU reads ethernet.mtu from a NetworkManager keyfile; 0 if absent.
func keyfileMTU(text string) int {
	for _, line := range strings.Split(text, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "ethernet.mtu="); ok {
			if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil {
				return n
			}
		}
	}
	return 0
}

// knownKeyfiles are the keyfiles whose MTU could be read.
func (ns *netSet) knownKeyfiles() []mtuKeyfile {
	var out []mtuKeyfile
	for _, k := range ns.keyfiles {
		if k.mtu > 0 {
			out = append(out, k)
		}
	}
	return out
}

// smallestKeyfile is the keyfile with the smallest MTU, if any.
func (ns *netSet) smallestKeyfile() (mtuKeyfile, bool) {
	var best mtuKeyfile
	found := false
	for _, k := range ns.knownKeyfiles() {
		if !found || k.mtu < best.mtu {
			best, found = k, true
		}
	}
	return best, found
}

// ---------------------------------------------------------------- CIDRs

// namedCIDR is one address block and where it is written.
type namedCIDR struct {
	kind string // "clusterNetwork", "serviceNetwork", "machineNetwork", "pool subnet"
	cidr string
	pfx  netip.Prefix
	// For plain manifests: the object and field path; for sites: the site
	// field path.
	obj  *manifests.Object
	path []string
	site string
}

func (c namedCIDR) String() string { return c.kind + " " + c.cidr }

// ovnSubnet is an internal subnet of OVN-Kubernetes.
type ovnSubnet struct {
	name string
	pfx  netip.Prefix
	// custom: set in the operator config rather than the default.
	custom bool
}

// ovnSubnets returns OVN-Kubernetes' internal subnets for the set: the
// defaults, replaced by what an operator config of the set sets.
func ovnSubnets(operators []*operatorNetworkDoc) []ovnSubnet {
	v4 := []string{platform.OVNJoinSubnetV4, platform.OVNTransitSubnetV4, platform.OVNMasqueradeSubnetV4}
	v6 := []string{platform.OVNJoinSubnetV6, platform.OVNTransitSubnetV6, platform.OVNMasqueradeSubnetV6}
	custom4, custom6 := make([]bool, 3), make([]bool, 3)
	set := func(vals []string, custom []bool, i int, v string) {
		if v != "" {
			vals[i], custom[i] = v, true
		}
	}
	for _, o := range operators {
		ovn := o.Spec.DefaultNetwork.OVN
		if ovn == nil {
			continue
		}
		set(v4, custom4, 0, ovn.V4InternalSubnet)
		set(v6, custom6, 0, ovn.V6InternalSubnet)
		if ovn.IPv4 != nil {
			set(v4, custom4, 0, ovn.IPv4.InternalJoinSubnet)
			set(v4, custom4, 1, ovn.IPv4.InternalTransitSwitchSubnet)
		}
		if ovn.IPv6 != nil {
			set(v6, custom6, 0, ovn.IPv6.InternalJoinSubnet)
			set(v6, custom6, 1, ovn.IPv6.InternalTransitSwitchSubnet)
		}
		if gw := ovn.GatewayConfig; gw != nil {
			set(v4, custom4, 2, gw.IPv4.InternalMasqueradeSubnet)
			set(v6, custom6, 2, gw.IPv6.InternalMasqueradeSubnet)
		}
	}
	var out []ovnSubnet
	for i, d := range platform.OVNInternalSubnets {
		for _, s := range []struct {
			cidr   string
			custom bool
		}{{v4[i], custom4[i]}, {v6[i], custom6[i]}} {
			if p, err := netip.ParsePrefix(s.cidr); err == nil {
				out = append(out, ovnSubnet{name: d.Name, pfx: p.Masked(), custom: s.custom})
			}
		}
	}
	return out
}

func (s ovnSubnet) String() string {
	if s.custom {
		return fmt.Sprintf("OVN-Kubernetes' internal %s %s (set in the operator config)", s.name, s.pfx)
	}
	return fmt.Sprintf("OVN-Kubernetes' internal %s %s", s.name, s.pfx)
}

// objectCIDRs lists the address blocks one plain object declares.
func objectCIDRs(o *manifests.Object, cluster []manifests.CIDREntry, service []string, machine []manifests.CIDREntry, prefix ...string) []namedCIDR {
	var out []namedCIDR
	add := func(kind, cidr string, path ...string) {
		p, err := netip.ParsePrefix(cidr)
		if err != nil {
			return // not a CIDR: the API rejects it
		}
		out = append(out, namedCIDR{kind: kind, cidr: cidr, pfx: p.Masked(), obj: o, path: append(append([]string{}, prefix...), path...)})
	}
	for i, c := range cluster {
		add("clusterNetwork", c.CIDR, "clusterNetwork", strconv.Itoa(i), "cidr")
	}
	for i, c := range service {
		add("serviceNetwork", c, "serviceNetwork", strconv.Itoa(i))
	}
	for i, c := range machine {
		add("machineNetwork", c.CIDR, "machineNetwork", strconv.Itoa(i), "cidr")
	}
	return out
}

// siteCIDRs lists a site's address blocks with their field paths.
func siteCIDRs(s *site.Site) []namedCIDR {
	var out []namedCIDR
	add := func(kind, cidr string, sels ...cue.Selector) {
		p, err := netip.ParsePrefix(cidr)
		if err != nil {
			return // the schema checks CIDRs
		}
		out = append(out, namedCIDR{kind: kind, cidr: cidr, pfx: p.Masked(), site: cue.MakePath(sels...).String()})
	}
	for i, c := range s.Network.ClusterNetwork {
		add("clusterNetwork", c.CIDR, cue.Str("network"), cue.Str("clusterNetwork"), cue.Index(i), cue.Str("cidr"))
	}
	for i, c := range s.Network.ServiceNetwork {
		add("serviceNetwork", c, cue.Str("network"), cue.Str("serviceNetwork"), cue.Index(i))
	}
	for i, c := range s.Network.MachineNetwork {
		add("machineNetwork", c, cue.Str("network"), cue.Str("machineNetwork"), cue.Index(i))
	}
	for _, name := range s.PoolNames() {
		for i, c := range s.Pools[name].Subnets {
			add("subnet of pool "+name, c, cue.Str("pools"), cue.Str(name), cue.Str("subnets"), cue.Index(i))
		}
	}
	return out
}

// isPoolSubnet: pool subnets are carved out of the machine network, so they
// are only compared with the cluster and service networks.
func (c namedCIDR) isPoolSubnet() bool { return strings.HasPrefix(c.kind, "subnet of pool") }

// report reports a finding at the block.
func (c namedCIDR) report(r *lint.Reporter, s *site.Site, msg string) {
	if c.obj != nil {
		r.Object(c.obj, msg, c.path...)
		return
	}
	r.At(s.Name, s.Positions.Of(c.site), msg)
}

// crossOverlaps reports blocks of different kinds that overlap (cluster vs
// service vs machine; pool subnets vs cluster and service).
func crossOverlaps(cidrs []namedCIDR, r *lint.Reporter, s *site.Site) {
	for i, a := range cidrs {
		for _, b := range cidrs[i+1:] {
			if a.kind == b.kind || (a.isPoolSubnet() || a.kind == "machineNetwork") && (b.isPoolSubnet() || b.kind == "machineNetwork") {
				continue
			}
			if a.pfx.Overlaps(b.pfx) {
				b.report(r, s, fmt.Sprintf("%s overlaps %s: pod, service and node addresses must be disjoint, or traffic to the overlapping range is misrouted; renumber one of them",
					b, a))
			}
		}
	}
}

// ovnOverlaps reports blocks that overlap OVN-Kubernetes' internal subnets.
func ovnOverlaps(cidrs []namedCIDR, subnets []ovnSubnet, why string, r *lint.Reporter, s *site.Site) {
	for _, c := range cidrs {
		for _, o := range subnets {
			if c.pfx.Overlaps(o.pfx) {
				c.report(r, s, fmt.Sprintf("%s overlaps %s: %s; renumber the %s, or move the internal subnet in the operator config (ovnKubernetesConfig ipv4/ipv6, gatewayConfig)",
					c, o, why, c.kind))
			}
		}
	}
}

// ---------------------------------------------------------------- NET001

func checkNetworkOverlaps(in *lint.Input, r *lint.Reporter) {
	const why = "OVN-Kubernetes routes that range itself, so traffic to it is misrouted"
	for _, set := range in.Sets() {
		if set.Site != nil {
			s := set.Site.Site
			cidrs := siteCIDRs(s)
			crossOverlaps(cidrs, r, s)
			if s.Network.Type == platform.OVNKubernetes {
				ovnOverlaps(cidrs, ovnSubnets(nil), why, r, s)
			}
			continue
		}
		ns := readNetSet(set)
		subnets := ovnSubnets(ns.operators)
		for _, ic := range ns.installs {
			cidrs := objectCIDRs(ic.Obj, ic.Networking.ClusterNetwork, ic.Networking.ServiceNetwork, ic.Networking.MachineNetwork, "networking")
			crossOverlaps(cidrs, r, nil)
			if ic.NetworkType() == platform.OVNKubernetes {
				ovnOverlaps(cidrs, subnets, why, r, nil)
			}
		}
		for _, c := range ns.configs {
			cidrs := objectCIDRs(c.obj, c.Spec.ClusterNetwork, c.Spec.ServiceNetwork, nil, "spec")
			crossOverlaps(cidrs, r, nil)
			// a live migration's overlaps are NET003's
			if !c.liveMigration() && (c.Spec.NetworkType == platform.OVNKubernetes || c.Spec.NetworkType == "" && ns.networkType() == platform.OVNKubernetes) {
				ovnOverlaps(cidrs, subnets, why, r, nil)
			}
		}
		for _, o := range ns.operators {
			cidrs := objectCIDRs(o.obj, o.Spec.ClusterNetwork, o.Spec.ServiceNetwork, nil, "spec")
			crossOverlaps(cidrs, r, nil)
			t := o.networkType()
			if t == "" {
				t = ns.networkType()
			}
			if t == platform.OVNKubernetes {
				ovnOverlaps(cidrs, subnets, why, r, nil)
			}
		}
	}
}

// ---------------------------------------------------------------- NET002

func checkSDNVersion(in *lint.Input, r *lint.Reporter) {
	for _, set := range in.Sets() {
		minor, release := set.MinorOrLatest()
		if set.Site != nil {
			s := set.Site.Site
			if s.Network.Type != platform.OpenShiftSDN {
				continue
			}
			switch {
			case minor >= platform.SDNRemovedSince:
				r.At(s.Name, s.Positions.Of("network.type"), fmt.Sprintf(
					"network.type OpenShiftSDN on %s: OpenShift SDN was removed in %s and CNO rejects it (unsupported network type %q); migrate to OVNKubernetes on %s or earlier (networkMigration) before upgrading",
					release, platform.SDNRemovedSince, platform.OpenShiftSDN, platform.SDNRemovedSince-1))
			case minor >= platform.SDNNotInstallableSince && s.Cluster.Lifecycle == "install":
				r.At(s.Name, s.Positions.Of("network.type"), fmt.Sprintf(
					"network.type OpenShiftSDN cannot be installed on %s (not installable from %s); install with network.type: \"OVNKubernetes\"",
					release, platform.SDNNotInstallableSince))
			}
			continue
		}
		ns := readNetSet(set)
		for _, ic := range ns.installs {
			if ic.Networking.NetworkType == platform.OpenShiftSDN && minor >= platform.SDNNotInstallableSince {
				r.Object(ic.Obj, fmt.Sprintf("networkType OpenShiftSDN cannot be installed on %s: new installs cannot choose it from %s (CNO rejects it from %s); set networkType: OVNKubernetes",
					release, platform.SDNNotInstallableSince, platform.SDNRemovedSince), "networking", "networkType")
			}
		}
		if minor < platform.SDNRemovedSince {
			continue
		}
		msg := fmt.Sprintf("OpenShift SDN on %s: it was removed in %s and CNO rejects it (unsupported network type %q); migrate to OVNKubernetes on %s or earlier before upgrading",
			release, platform.SDNRemovedSince, platform.OpenShiftSDN, platform.SDNRemovedSince-1)
		for _, c := range ns.configs {
			if c.Spec.NetworkType == platform.OpenShiftSDN {
				r.Object(c.obj, msg, "spec", "networkType")
			}
		}
		for _, o := range ns.operators {
			if o.Spec.DefaultNetwork.Type == platform.OpenShiftSDN {
				r.Object(o.obj, msg, "spec", "defaultNetwork", "type")
			}
		}
	}
}

// ---------------------------------------------------------------- NET003

func checkLiveMigration(in *lint.Input, r *lint.Reporter) {
	for _, set := range in.Sets() {
		if set.Site != nil {
			continue // the network generator refuses a blocked live migration at the site's fields
		}
		ns := readNetSet(set)
		for _, c := range ns.configs {
			if !c.liveMigration() {
				continue
			}
			started := fmt.Sprintf("the live migration started by %s in %s", platform.NetworkTypeMigrationAnnotation, c.obj.KeyPosOf("metadata", "annotations", platform.NetworkTypeMigrationAnnotation))
			if set.Minor > 0 && set.Minor < platform.SDNLiveMigrationCodeSince {
				r.Object(c.obj, fmt.Sprintf("the live migration needs OpenShift %s or later (documented from %s), this is %s: CNO ignores the annotation; use the offline migration (spec.migration.networkType on Network.operator) or upgrade first",
					platform.SDNLiveMigrationCodeSince, platform.SDNLiveMigrationDocumentedSince, set.Minor),
					"metadata", "annotations", platform.NetworkTypeMigrationAnnotation)
			}
			for _, o := range ns.operators {
				if sdn := o.Spec.DefaultNetwork.SDN; sdn != nil && sdn.Mode == string(operatorv1.SDNModeMultitenant) {
					r.Object(o.obj, fmt.Sprintf("openshiftSDNConfig.mode Multitenant blocks %s: CNO does not live-migrate multitenant isolation; use the offline migration, or move to mode NetworkPolicy first",
						started), "spec", "defaultNetwork", "openshiftSDNConfig", "mode")
				}
			}
			// the cluster and service networks, wherever the set writes them
			var cidrs []namedCIDR
			cidrs = append(cidrs, objectCIDRs(c.obj, c.Spec.ClusterNetwork, c.Spec.ServiceNetwork, nil, "spec")...)
			for _, other := range ns.configs {
				if other != c {
					cidrs = append(cidrs, objectCIDRs(other.obj, other.Spec.ClusterNetwork, other.Spec.ServiceNetwork, nil, "spec")...)
				}
			}
			for _, o := range ns.operators {
				cidrs = append(cidrs, objectCIDRs(o.obj, o.Spec.ClusterNetwork, o.Spec.ServiceNetwork, nil, "spec")...)
			}
			for _, ic := range ns.installs {
				cidrs = append(cidrs, objectCIDRs(ic.Obj, ic.Networking.ClusterNetwork, ic.Networking.ServiceNetwork, nil, "networking")...)
			}
			ovnOverlaps(cidrs, ovnSubnets(ns.operators), started+" is refused on it", r, nil)
		}
	}
}

// ---------------------------------------------------------------- NET004

func checkGenevePort(in *lint.Input, r *lint.Reporter) {
	for _, set := range in.Sets() {
		if set.Site != nil {
			continue // a site has no genevePort
		}
		ns := readNetSet(set)
		vxlan := map[int]string{platform.VXLANPortDefault: "the VXLAN port (OpenShift SDN's default vxlanPort)"}
		for _, o := range ns.operators {
			if sdn := o.Spec.DefaultNetwork.SDN; sdn != nil && sdn.VXLANPort != nil {
				vxlan[*sdn.VXLANPort] = fmt.Sprintf("the OpenShift SDN vxlanPort in %s", o.obj.PosOf("spec", "defaultNetwork", "openshiftSDNConfig", "vxlanPort"))
			}
		}
		for _, o := range ns.operators {
			ovn := o.Spec.DefaultNetwork.OVN
			if ovn == nil || ovn.GenevePort == nil {
				continue
			}
			if what, ok := vxlan[*ovn.GenevePort]; ok {
				r.Object(o.obj, fmt.Sprintf("genevePort %d is %s: Geneve and VXLAN traffic collide on it; remove genevePort to use the default %d",
					*ovn.GenevePort, what, platform.GenevePortDefault), "spec", "defaultNetwork", "ovnKubernetesConfig", "genevePort")
			}
		}
	}
}

// sortedInts returns the distinct values, sorted.
func sortedInts(vals []int) []int {
	seen := map[int]bool{}
	var out []int
	for _, v := range vals {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	sort.Ints(out)
	return out
}
