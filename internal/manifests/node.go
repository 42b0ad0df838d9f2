package manifests

import (
	"encoding/json"
	"net"

	corev1 "k8s.io/api/core/v1"

	"github.com/siteforge/siteforge/internal/platform"
)

// Node is a Node object of a set: a cluster export (`oc get nodes -o
// yaml`), whose annotations say where OVN-Kubernetes lets the node host
// egress IPs, or a hand-written Node with labels and addresses only.
type Node struct {
	Obj        *Object
	Name       string
	Labels     map[string]string
	ProviderID string
	// Addresses are status.addresses of type InternalIP and ExternalIP.
	Addresses []string
	// PrimaryIfAddr is platform.NodePrimaryIfAddrAnnotation: the primary
	// interface's addresses, each with its prefix (IP is the node's
	// address, not the network's); nil when absent or unreadable.
	PrimaryIfAddr []*net.IPNet
	// HostCIDRs is platform.NodeHostCIDRsAnnotation, each entry with its
	// prefix; HasHostCIDRs says the annotation is there and every entry
	// reads (OVN-K refuses the whole annotation over one bad entry:
	// ParseNodeHostCIDRsDropNetMask, makeCIDRs).
	HostCIDRs    []*net.IPNet
	HasHostCIDRs bool
	// HasCloudConfig says the node carries
	// platform.EgressCloudCapacityAnnotation (only CNCC writes it, on
	// clouds); Cloud is its first entry, as OVN-K reads it (nil when the
	// annotation is absent, empty or unreadable).
	HasCloudConfig bool
	Cloud          *CloudEgressConfig
	// CurrentConfig and DesiredConfig are the rendered MachineConfigs the
	// node's Machine Config Daemon runs and is moving to
	// (platform.MCOCurrentConfigAnnotation, MCODesiredConfigAnnotation);
	// "" when the node does not say.
	CurrentConfig, DesiredConfig string

	primaryText, hostText []string // the annotations' entries as written
}

// CloudEgressConfig is the first entry of a node's
// cloud.network.openshift.io/egress-ipconfig annotation.
type CloudEgressConfig struct {
	// Subnets are ifaddr's ipv4 and ipv6 networks: the primary NIC's
	// subnet(s), where the cloud lets the node hold egress IPs.
	Subnets  []*net.IPNet
	Capacity platform.EgressCapacity
}

// Nodes reads the Node objects (v1) among objs. The one reader of Node.
func Nodes(objs []*Object) []*Node {
	var out []*Node
	for _, o := range objs {
		if o.Kind != "Node" || o.APIVersion != "v1" {
			continue
		}
		var doc corev1.Node
		if o.DecodeLoose(&doc) != nil {
			continue
		}
		n := &Node{Obj: o, Name: o.Name, Labels: doc.Labels, ProviderID: doc.Spec.ProviderID}
		for _, a := range doc.Status.Addresses {
			if a.Type == corev1.NodeInternalIP || a.Type == corev1.NodeExternalIP {
				n.Addresses = append(n.Addresses, a.Address)
			}
		}
		ann := doc.Annotations
		n.CurrentConfig, n.DesiredConfig = ann[platform.MCOCurrentConfigAnnotation], ann[platform.MCODesiredConfigAnnotation]
		// OVN-K util.GetNodeIfAddrAnnotation: {"ipv4":"a/p","ipv6":"a/p"}.
		var ifaddr struct {
			IPv4 string `json:"ipv4"`
			IPv6 string `json:"ipv6"`
		}
		if v, ok := ann[platform.NodePrimaryIfAddrAnnotation]; ok && json.Unmarshal([]byte(v), &ifaddr) == nil {
			n.primaryText, n.PrimaryIfAddr = ipNets(ifaddr.IPv4, ifaddr.IPv6)
		}
		// OVN-K util.ParseNodeHostCIDRsList: a JSON list of "a/p".
		var hosts []string
		if v, ok := ann[platform.NodeHostCIDRsAnnotation]; ok && json.Unmarshal([]byte(v), &hosts) == nil {
			text, nets := ipNets(hosts...)
			if len(nets) == len(hosts) {
				n.hostText, n.HostCIDRs, n.HasHostCIDRs = text, nets, true
			}
		}
		// OVN-K util.ParseCloudEgressIPConfig: the first entry; a capacity
		// key that is absent stays unlimited.
		if v, ok := ann[platform.EgressCloudCapacityAnnotation]; ok {
			n.HasCloudConfig = true
			var cfg []struct {
				IfAddr struct {
					IPv4 string `json:"ipv4"`
					IPv6 string `json:"ipv6"`
				} `json:"ifaddr"`
				Capacity struct {
					IPv4 *int `json:"ipv4"`
					IPv6 *int `json:"ipv6"`
					IP   *int `json:"ip"`
				} `json:"capacity"`
			}
			if json.Unmarshal([]byte(v), &cfg) == nil && len(cfg) > 0 {
				c := cfg[0]
				_, nets := ipNets(c.IfAddr.IPv4, c.IfAddr.IPv6)
				cloud := &CloudEgressConfig{Capacity: platform.EgressCapacityOf(c.Capacity.IPv4, c.Capacity.IPv6, c.Capacity.IP)}
				for _, a := range nets {
					cloud.Subnets = append(cloud.Subnets, &net.IPNet{IP: a.IP.Mask(a.Mask), Mask: a.Mask})
				}
				n.Cloud = cloud
			}
		}
		out = append(out, n)
	}
	return out
}

// ipNets parses "address/prefix" entries, skipping empty ones, keeping the
// address (not the network) in each IPNet; text are the entries parsed.
func ipNets(entries ...string) (text []string, nets []*net.IPNet) {
	for _, e := range entries {
		if e == "" {
			continue
		}
		ip, n, err := net.ParseCIDR(e)
		if err != nil {
			continue
		}
		text = append(text, e)
		nets = append(nets, &net.IPNet{IP: ip, Mask: n.Mask})
	}
	return text, nets
}

// PrimarySubnets are the networks of the node's primary interface
// addresses (node-primary-ifaddr): off-cloud, where OVN-K hosts egress IPs
// on the OVN network (util.GetNodeEIPConfig, ParseNodePrimaryIfAddr).
func (n *Node) PrimarySubnets() []*net.IPNet { return networks(n.PrimaryIfAddr) }

// HostAddresses are the host-cidrs addresses without their prefix: what an
// egress IP may not equal (OVN-K util.ParseNodeHostCIDRsDropNetMask).
func (n *Node) HostAddresses() []net.IP {
	var out []net.IP
	for _, a := range n.HostCIDRs {
		out = append(out, a.IP)
	}
	return out
}

// SecondaryHostNetworks are the networks of the node's host-cidrs entries
// other than its primary interface addresses (the exact entries of
// node-primary-ifaddr are removed, as OVN-K
// util.ParseNodeHostCIDRsExcludeOVNNetworks does), of global unicast
// addresses only (util.GetSecondaryHostNetworkContainingIP). OVN-K needs
// node-primary-ifaddr to read them at all, so a node without it has none;
// ok is false when either annotation is missing.
func (n *Node) SecondaryHostNetworks() (nets []*net.IPNet, ok bool) {
	if !n.HasHostCIDRs || len(n.PrimaryIfAddr) == 0 {
		return nil, false
	}
	for i, a := range n.HostCIDRs {
		primary := false
		for _, p := range n.primaryText {
			if p == n.hostText[i] {
				primary = true
			}
		}
		if primary || !platform.EgressSecondaryHostNetwork(a.IP) {
			continue
		}
		nets = append(nets, networks([]*net.IPNet{a})...)
	}
	return nets, true
}

// networks are the networks of addresses with prefixes, without repeats.
func networks(addrs []*net.IPNet) []*net.IPNet {
	var out []*net.IPNet
	seen := map[string]bool{}
	for _, a := range addrs {
		n := &net.IPNet{IP: a.IP.Mask(a.Mask), Mask: a.Mask}
		if !seen[n.String()] {
			seen[n.String()] = true
			out = append(out, n)
		}
	}
	return out
}
