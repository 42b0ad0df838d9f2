package egress

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"sort"

	networkv1 "github.com/openshift/api/network/v1"

	"github.com/siteforge/siteforge/internal/cluster/egressip"
	"github.com/siteforge/siteforge/internal/cluster/nodes"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/site"
)

// OpenShift SDN (4.16 and older) has no EgressIP object. Its automatic
// egress IP assignment (docs "Configuring automatically assigned egress IP
// addresses for a namespace") sets:
//   - HostSubnet <node> egressCIDRs: the ranges a node may host egress IPs
//     from (its primary subnet);
//   - NetNamespace <namespace> egressIPs: the namespace's egress IP, ONE
//     address ("Using multiple IP addresses is not supported").
// Both objects exist already (the SDN creates one per node and per
// namespace), so siteforge writes merge patches, built from the
// network.openshift.io/v1 types. SDN selects namespaces by name, not by
// label, and pods not at all, and is IPv4 only.

// hostSubnetPatch is the part of a HostSubnet the patch sets.
type hostSubnetPatch struct {
	EgressCIDRs []networkv1.HostSubnetEgressCIDR `json:"egressCIDRs"`
}

// netNamespacePatch is the part of a NetNamespace the patch sets.
type netNamespacePatch struct {
	EgressIPs []networkv1.NetNamespaceEgressIP `json:"egressIPs"`
}

// namespaceNames returns the namespaces a selector names: matchLabels on
// kubernetes.io/metadata.name, or one In expression on it, and nothing else.
func namespaceNames(sel site.LabelSelector) ([]string, bool) {
	switch {
	case len(sel.MatchLabels) == 1 && len(sel.MatchExpressions) == 0:
		if v, ok := sel.MatchLabels[platform.NamespaceNameLabel]; ok {
			return []string{v}, true
		}
	case len(sel.MatchLabels) == 0 && len(sel.MatchExpressions) == 1:
		if r := sel.MatchExpressions[0]; r.Key == platform.NamespaceNameLabel && r.Operator == "In" && len(r.Values) > 0 {
			names := append([]string(nil), r.Values...)
			sort.Strings(names)
			return names, true
		}
	}
	return nil, false
}

// sdnChecks applies what OpenShift SDN cannot express.
func sdnChecks(s *site.Site, objs []object) diag.List {
	var out diag.List
	at := func(path, msg, hint string) {
		out = append(out, diag.Diagnostic{Pos: s.Positions.Of(path), Path: path, Message: msg, Hint: hint})
	}
	owner := map[string]string{}
	for _, o := range objs {
		if len(o.ips) != 1 {
			at(o.path+".ips", fmt.Sprintf("EgressIP %q has %d addresses: OpenShift SDN's automatic assignment gives a namespace one egress IP", o.name, len(o.ips)),
				"use one address per EgressIP on OpenShift SDN, or migrate to OVN-Kubernetes")
		}
		for i, ip := range o.ips {
			if ip != nil && ip.To4() == nil {
				at(o.ipPath(i), fmt.Sprintf("%s is IPv6: OpenShift SDN is IPv4 only", ip), "use an IPv4 address")
			}
		}
		if o.eip.PodSelector != nil {
			at(o.path+".podSelector", "OpenShift SDN assigns egress IPs to whole namespaces: it has no pod selector", "remove podSelector, or migrate to OVN-Kubernetes")
		}
		names, ok := namespaceNames(o.eip.NamespaceSelector)
		if !ok {
			at(o.path+".namespaceSelector", "OpenShift SDN assigns egress IPs per namespace by name (NetNamespace): the namespace selector must name namespaces",
				fmt.Sprintf("select them with matchLabels: {%q: <namespace>} or %s In [<namespaces>]", platform.NamespaceNameLabel, platform.NamespaceNameLabel))
			continue
		}
		for _, ns := range names {
			if prev, dup := owner[ns]; dup {
				at(o.path+".namespaceSelector", fmt.Sprintf("namespace %s is already selected by EgressIP %q: a NetNamespace has one egress IP", ns, prev),
					"select each namespace in one EgressIP")
				continue
			}
			owner[ns] = o.name
		}
	}
	return out
}

// sdnScript writes the HostSubnet and NetNamespace patches.
func sdnScript(s *site.Site, objs []object, hs egressip.HostSet) []byte {
	var ips []net.IP
	for _, o := range objs {
		ips = append(ips, o.ips...)
	}
	var b bytes.Buffer
	b.WriteString("# OpenShift SDN egress IPs, automatic assignment (docs \"Configuring automatically assigned\n")
	b.WriteString("# egress IP addresses for a namespace\"): HostSubnet egressCIDRs say which nodes may host\n")
	b.WriteString("# which addresses, NetNamespace egressIPs give each namespace its address. Run with sh.\n")
	b.WriteString("set -eu\n")
	for _, name := range egressip.AssignablePools(s) {
		p := s.Pools[name]
		fmt.Fprintf(&b, "\n# pool %s (%s): HostSubnet egressCIDRs (the node's primary subnet)\n", name, nodes.SizeString(p))
		for _, h := range hs.Hosts {
			if h.Pool != name || h.Node == "" {
				continue
			}
			var cidrs []networkv1.HostSubnetEgressCIDR
			for _, n := range h.Primary {
				for _, ip := range ips {
					if ip != nil && n.Contains(ip) {
						cidrs = append(cidrs, networkv1.HostSubnetEgressCIDR(n.String()))
						break
					}
				}
			}
			if len(cidrs) == 0 {
				fmt.Fprintf(&b, "# %s: no egress IP is in its primary subnet; nothing to set\n", h.Node)
				continue
			}
			fmt.Fprintf(&b, "oc patch hostsubnet %s --type=merge -p '%s'\n", h.Node, mustJSON(hostSubnetPatch{EgressCIDRs: cidrs}))
		}
		if len(p.Nodes) == 0 {
			fmt.Fprintf(&b, "# The site lists no nodes of this pool: patch the HostSubnet of each of them (same name as the node)\n")
			fmt.Fprintf(&b, "# with the egressCIDRs of its primary subnet among %s.\n", joinCIDRs(nodes.ParseCIDRs(p.Subnets), s.Network.MachineNetwork))
		}
	}
	for _, o := range objs {
		names, _ := namespaceNames(o.eip.NamespaceSelector)
		fmt.Fprintf(&b, "\n# EgressIP %s\n", o.name)
		var eips []networkv1.NetNamespaceEgressIP
		for _, text := range o.eip.IPs {
			eips = append(eips, networkv1.NetNamespaceEgressIP(text))
		}
		for _, ns := range names {
			fmt.Fprintf(&b, "oc patch netnamespace %s --type=merge -p '%s'\n", ns, mustJSON(netNamespacePatch{EgressIPs: eips}))
		}
	}
	return b.Bytes()
}

func joinCIDRs(pool []*net.IPNet, machine []string) string {
	if len(pool) == 0 {
		return fmt.Sprint(machine)
	}
	var out []string
	for _, n := range pool {
		out = append(out, n.String())
	}
	return fmt.Sprint(out)
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic("egress: encode patch: " + err.Error())
	}
	return string(b)
}
