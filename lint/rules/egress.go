package rules

import (
	"encoding/json"
	"fmt"
	"net"
	"sort"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/siteforge/siteforge/internal/cluster/egressip"
	"github.com/siteforge/siteforge/internal/cluster/nodes"
	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/lint"
)

// EGR rules: EgressIP objects (k8s.ovn.org/v1) in plain manifests, checked
// with the same code the egress generator refuses a site with
// (generators/egress Check). A site's EgressIPs never reach the lints broken:
// `siteforge render` refuses them first, so these rules read plain
// manifests. What they know about the cluster comes from the set: the
// install-config (platform, networks, VIPs), the Network config, and Node
// objects when the set holds them (a cluster export: addresses, the
// egress-assignable label, the primary subnet and cloud capacity the nodes
// report).

const (
	egrSiteNote = " Sites: `siteforge render` applies the same checks to egress.egressIPs and refuses the site, so the rule reads plain manifests."
	egrSetNote  = " What the cluster looks like comes from the set: install-config.yaml (platform, networking, VIPs), the Network config, and Node objects when the set holds them."
)

func init() {
	egr := []*lint.Rule{
		{ID: "EGR001", Name: "egress-ip-not-hostable", Severity: lint.Error,
			Summary: "an egress IP is outside the primary subnet of every node that may host it",
			Rationale: "On clouds (cloud-network-config-controller assigns the address to the node's primary NIC) and with OpenShift SDN, an egress IP is " +
				"hostable only on a node whose primary interface subnet contains it (docs \"Configuring an egress IP address\"; OVN-K egressip controller); OVN-Kubernetes never assigns one " +
				"outside, and the EgressIP stays unassigned. The subnets are the assignable Node objects' primary subnets " +
				"(k8s.ovn.org/node-primary-ifaddr) when the set holds Nodes, else the install-config's networking.machineNetwork; without either the " +
				"rule is skipped." + egrSetNote + egrSiteNote,
			Fix: "Use a free address of an assignable node's primary subnet, or label nodes of the address's subnet k8s.ovn.org/egress-assignable."},
		{ID: "EGR002", Name: "egress-ip-outside-known-subnets", Severity: lint.Warning,
			Summary: "an egress IP is outside every machine network (off-cloud: only a secondary interface could host it)",
			Rationale: "Off-cloud, OVN-Kubernetes hosts an egress IP on a node whose primary interface (br-ex) subnet contains it, or on a secondary " +
				"interface whose subnet does (docs \"Configuring an egress IP address\"; OVN-K egressip controller). The install-config and Node objects describe primary subnets only, so an " +
				"address outside all of them works only if assignable nodes have a secondary interface in its subnet; else it is never assigned. " +
				"Without networking.machineNetwork or Node objects the rule is skipped." + egrSetNote + egrSiteNote,
			Fix: "Use an address of the machine network, or suppress with the secondary network that holds it as the reason."},
		{ID: "EGR003", Name: "egress-ip-reserved-address", Severity: lint.Error,
			Summary: "an egress IP is not an address, or is a node IP, a VIP, a subnet's network/broadcast address, or inside the cluster or service network",
			Rationale: "OVN-Kubernetes rejects an egress IP that is not an IP (event InvalidEgressIP) or equals a node's address (EgressIPConflict); " +
				"one equal to the API or ingress VIP breaks the VIP keepalived floats; one inside the cluster (pod) or service network is not a " +
				"node-network address at all (docs \"Configuring an egress IP address\"; OVN-K egressip controller)." + egrSetNote + egrSiteNote,
			Fix: "Use a free host address of the node subnet: not a node IP, a VIP, the network or broadcast address, nor a pod or service address."},
		{ID: "EGR004", Name: "egress-ip-duplicate", Severity: lint.Error,
			Summary: "the same egress IP is in two EgressIP objects, or twice in one",
			Rationale: "An address may be in one EgressIP object only, once: OVN-Kubernetes refuses the second with event UnsupportedRequest and " +
				"assigns neither predictably (docs \"Configuring an egress IP address\"; OVN-K egressip controller)." + egrSiteNote,
			Fix: "Keep the address in one EgressIP object; give the other object its own address."},
		{ID: "EGR005", Name: "egress-ip-address-families", Severity: lint.Error,
			Summary: "an EgressIP mixes IPv4 and IPv6 before 4.16, or a dual-stack pair is split over two objects",
			Rationale: "One EgressIP object holds IPv4 and IPv6 addresses together only from OpenShift 4.16 (docs \"Configuring dual-stack networking " +
				"for an EgressIP object\", OCPBUGS-59964); before, an object holds one family. On no release may a dual-stack pair be split over two " +
				"objects selecting the same pods (docs \"Configuring an egress IP address\"; OVN-K egressip controller). The release is the site's cluster.version, --ocp-version, or " +
				"the release the set states (docs/rules.md \"The release of plain manifests\": a ClusterVersion, the ClusterImageSet of a ClusterInstance or AgentClusterInstall, an ImageSetConfiguration); when unknown, the one-object rule is skipped." + egrSiteNote,
			Fix: "Before 4.16 keep one family per EgressIP; from 4.16 put a dual-stack pair in one object."},
		{ID: "EGR006", Name: "egress-ip-not-enough-nodes", Severity: lint.Error,
			Summary: "no node may host egress IPs, or an EgressIP has more addresses than nodes able to host them",
			Rationale: "OVN-Kubernetes assigns egress IPs only to nodes labelled k8s.ovn.org/egress-assignable, and puts at most one address of an " +
				"object on a node: N addresses need N labelled nodes that can host them (event NoMatchingNodeFound). " +
				"Counted over the Node objects of the set (a cluster export); without Nodes the rule is skipped." + egrSiteNote,
			Fix: "Label more nodes of the addresses' subnets k8s.ovn.org/egress-assignable, or use fewer addresses per object."},
		{ID: "EGR007", Name: "egress-ip-over-cloud-capacity", Severity: lint.Error,
			Summary: "the egress IPs do not fit in the cloud's per-node capacity",
			Rationale: "On clouds each node can hold a limited number of extra addresses: Azure 256 per NIC (its own address included), GCP 100 alias " +
				"ranges, OpenStack 10 allowed address pairs per port, AWS per instance type (cloud-network-config-controller pkg/cloudprovider). " +
				"The nodes report what is left in cloud.network.openshift.io/egress-ipconfig; the platform's table is used where they do not " +
				"(AWS only through the annotation). Counted over the Node objects of the set; without Nodes the rule is skipped." + egrSiteNote,
			Fix: "Label more nodes k8s.ovn.org/egress-assignable, or use fewer egress IPs."},
	}
	checks := map[string]func(lint.Set, *lint.Reporter){}
	for _, r := range egr {
		checks[r.ID] = egrCheck(r.ID)
	}
	lint.RegisterFamily("v1alpha1", checks, egr)
}

// egrRuleOf gives each kind of problem its rule.
func egrRuleOf(p egressip.Problem, c egressip.Cluster) string {
	switch p.Kind {
	case egressip.NotHostable:
		if c.PrimaryOnly {
			return "EGR001"
		}
		return "EGR002"
	case egressip.InvalidIP, egressip.NodeIP, egressip.VIPAddress, egressip.ReservedNetwork, egressip.NetworkAddress:
		return "EGR003"
	case egressip.DuplicateIP:
		return "EGR004"
	case egressip.MixedFamilies, egressip.SplitDualStack:
		return "EGR005"
	case egressip.NoAssignableNode, egressip.TooFewNodes:
		return "EGR006"
	case egressip.OverCapacity:
		return "EGR007"
	}
	return ""
}

// egrFix is the lint's fix for each kind of problem (the generator's hints
// speak of site fields).
var egrFix = map[egressip.ProblemKind]string{
	egressip.InvalidIP:        "write an IPv4 or IPv6 address",
	egressip.DuplicateIP:      "remove the repeated address",
	egressip.NodeIP:           "use a free address of the node subnet",
	egressip.VIPAddress:       "use a free address of the node subnet",
	egressip.ReservedNetwork:  "egress IPs are node-network addresses: use a free address of the node subnet",
	egressip.NoAssignableNode: "label the nodes that may host egress IPs " + platform.EgressAssignableLabel + `=""` + " before creating the EgressIP",
	egressip.NotHostable:      "use a free address of an assignable node's subnet",
	egressip.NetworkAddress:   "use a host address of the subnet",
	egressip.MixedFamilies:    "keep one address family per EgressIP on this release",
	egressip.SplitDualStack:   "put the IPv4 and IPv6 addresses of a pair in one EgressIP (4.16 and later)",
	egressip.TooFewNodes:      "label more nodes of the addresses' subnets " + platform.EgressAssignableLabel + ", or use fewer addresses",
	egressip.OverCapacity:     "label more nodes " + platform.EgressAssignableLabel + ", or use fewer egress IPs",
}

func egrCheck(id string) func(lint.Set, *lint.Reporter) {
	return func(set lint.Set, r *lint.Reporter) {
		if set.Site != nil {
			return // refused at render (see the rationale)
		}
		eips := set.Kind(egressip.GroupVersion.String(), "EgressIP")
		if len(eips) == 0 {
			return
		}
		objs := make([]egressip.Object, len(eips))
		for i, o := range eips {
			var e egressip.EgressIP
			_ = o.DecodeLoose(&e)
			objs[i] = egressip.Object{Name: o.Name, IPs: e.Spec.EgressIPs, NamespaceSelector: &e.Spec.NamespaceSelector, PodSelector: e.Spec.PodSelector}
		}
		facts := plainClusterOf(set)
		c := facts.egressCluster(objs)
		for _, p := range egressip.Check(c, objs) {
			if egrRuleOf(p, c) != id {
				continue
			}
			o := eips[0]
			path := []string{"spec", "egressIPs"}
			if p.Object >= 0 {
				o = eips[p.Object]
			}
			if p.IP >= 0 {
				path = append(path, fmt.Sprint(p.IP))
			}
			r.Object(o, p.Message+": "+egrFix[p.Kind], path...)
		}
	}
}

// plainCluster is what a set of plain manifests says about its cluster.
type plainCluster struct {
	installConfig *manifests.Object
	// platform is the install-config platform section's key (baremetal,
	// aws, ...), else the Nodes' provider.
	name, baseDomain, platform, networkType           string
	machineNetworks, clusterNetworks, serviceNetworks []string
	apiVIPs, ingressVIPs                              []string
	// computeReplicas is the worker compute pool's replicas, controlPlane
	// the control plane's; nil when the install-config does not say.
	computeReplicas, controlPlaneReplicas *int
	nodes                                 []plainNode
	minor                                 platform.OCPMinor
	minorFrom                             string
}

// plainNode is a Node object of the set.
type plainNode struct {
	obj     *manifests.Object
	name    string
	labels  map[string]string
	addrs   []string
	primary []*net.IPNet // k8s.ovn.org/node-primary-ifaddr, else the machine network holding the address
	// capacity is the egress IP capacity the node reports (0: not
	// reported).
	capacity int
}

// plainClusterOf reads the set's install-config, Network config, Node
// objects and release.
func plainClusterOf(set lint.Set) plainCluster {
	var c plainCluster
	c.minor, c.minorFrom = set.Minor, set.MinorFrom
	if ics := manifests.InstallConfigs(set.Objects); len(ics) > 0 {
		ic := ics[0]
		c.installConfig = ic.Obj
		c.name, c.baseDomain = ic.Metadata.Name, ic.BaseDomain
		c.platform = ic.Platform
		c.apiVIPs, c.ingressVIPs = ic.APIVIPs, ic.IngressVIPs
		c.networkType = ic.Networking.NetworkType
		for _, n := range ic.Networking.MachineNetwork {
			c.machineNetworks = append(c.machineNetworks, n.CIDR)
		}
		for _, n := range ic.Networking.ClusterNetwork {
			c.clusterNetworks = append(c.clusterNetworks, n.CIDR)
		}
		c.serviceNetworks = ic.Networking.ServiceNetwork
		if p := ic.Pool(platform.MachineConfigRoleWorker); p != nil {
			c.computeReplicas = p.Replicas
		}
		if ic.ControlPlane != nil {
			c.controlPlaneReplicas = ic.ControlPlane.Replicas
		}
	}
	if len(c.clusterNetworks)+len(c.serviceNetworks) == 0 {
		for _, n := range set.Kind(manifests.GroupConfig, "Network") {
			var cfg struct {
				Spec struct {
					NetworkType    string `json:"networkType"`
					ClusterNetwork []struct {
						CIDR string `json:"cidr"`
					} `json:"clusterNetwork"`
					ServiceNetwork []string `json:"serviceNetwork"`
				} `json:"spec"`
			}
			if n.Name != "cluster" || n.DecodeLoose(&cfg) != nil {
				continue
			}
			for _, cn := range cfg.Spec.ClusterNetwork {
				c.clusterNetworks = append(c.clusterNetworks, cn.CIDR)
			}
			c.serviceNetworks = cfg.Spec.ServiceNetwork
			if c.networkType == "" {
				c.networkType = cfg.Spec.NetworkType
			}
		}
	}
	if c.networkType == "" {
		c.networkType = platform.OVNKubernetes
	}
	machine := nodes.ParseCIDRs(c.machineNetworks)
	for _, o := range set.Kind("v1", "Node") {
		var doc struct {
			Metadata struct {
				Labels      map[string]string `json:"labels"`
				Annotations map[string]string `json:"annotations"`
			} `json:"metadata"`
			Spec struct {
				ProviderID string `json:"providerID"`
			} `json:"spec"`
			Status struct {
				Addresses []struct {
					Type    string `json:"type"`
					Address string `json:"address"`
				} `json:"addresses"`
			} `json:"status"`
		}
		if o.DecodeLoose(&doc) != nil {
			continue
		}
		n := plainNode{obj: o, name: o.Name, labels: doc.Metadata.Labels}
		for _, a := range doc.Status.Addresses {
			if a.Type == "InternalIP" || a.Type == "ExternalIP" {
				n.addrs = append(n.addrs, a.Address)
			}
		}
		var ifaddr struct{ IPv4, IPv6 string }
		if json.Unmarshal([]byte(doc.Metadata.Annotations[platform.NodePrimaryIfAddrAnnotation]), &ifaddr) == nil {
			for _, a := range []string{ifaddr.IPv4, ifaddr.IPv6} {
				if _, sub, err := net.ParseCIDR(a); err == nil {
					n.primary = append(n.primary, sub)
				}
			}
		}
		var cloud []struct {
			IfAddr   struct{ IPv4, IPv6 string }  `json:"ifaddr"`
			Capacity struct{ IPv4, IPv6, IP int } `json:"capacity"`
		}
		if json.Unmarshal([]byte(doc.Metadata.Annotations[platform.EgressCloudCapacityAnnotation]), &cloud) == nil && len(cloud) > 0 {
			if n.primary == nil {
				n.primary = nodes.ParseCIDRs(egrNonEmpty(cloud[0].IfAddr.IPv4, cloud[0].IfAddr.IPv6))
			}
			n.capacity = max(cloud[0].Capacity.IP, cloud[0].Capacity.IPv4+cloud[0].Capacity.IPv6)
		}
		if n.primary == nil {
			n.primary = nodes.Containing(machine, n.addrs...)
		}
		if c.platform == "" {
			c.platform = nodeProviderPlatform(doc.Spec.ProviderID)
		}
		c.nodes = append(c.nodes, n)
	}
	return c
}

func nodeProviderPlatform(id string) string {
	scheme, _, ok := strings.Cut(id, "://")
	if !ok {
		return ""
	}
	return platform.NodeProviderPlatforms[scheme]
}

func egrNonEmpty(xs ...string) []string {
	var out []string
	for _, x := range xs {
		if x != "" {
			out = append(out, x)
		}
	}
	return out
}

// egressCluster is what the EgressIP rules know of the set's cluster.
func (c plainCluster) egressCluster(objs []egressip.Object) egressip.Cluster {
	out := egressip.Cluster{
		Platform: c.platform, Minor: c.minor, MinorFrom: c.minorFrom,
		ClusterNetworks: c.clusterNetworks, ServiceNetworks: c.serviceNetworks,
		NodeIPs: map[string]string{}, VIPs: map[string]string{},
		PrimaryOnly: platform.EgressPrimaryOnly(c.platform, c.networkType),
	}
	for _, v := range c.apiVIPs {
		out.VIPs[egressip.Normalize(v)] = "the API VIP"
	}
	for _, v := range c.ingressVIPs {
		out.VIPs[egressip.Normalize(v)] = "the ingress VIP"
	}
	total := 0
	for _, o := range objs {
		total += len(o.IPs)
	}
	if len(c.nodes) > 0 {
		out.HostsKnown = true
		out.HostsName = "the assignable nodes (Node objects labelled " + platform.EgressAssignableLabel + ")"
		for _, n := range c.nodes {
			for _, a := range n.addrs {
				out.NodeIPs[egressip.Normalize(a)] = "node " + n.name
			}
			if _, ok := n.labels[platform.EgressAssignableLabel]; !ok {
				continue
			}
			if len(n.primary) == 0 {
				out.HostsKnown = false // where the node can host addresses is unknown
			}
			out.Hosts.Hosts = append(out.Hosts.Hosts, egressip.Host{Node: n.name, Subnets: n.primary, Primary: n.primary, Capacity: n.capacity})
		}
		return out
	}
	if machine := nodes.ParseCIDRs(c.machineNetworks); len(machine) > 0 {
		// The nodes are unknown: stand-ins in the machine networks, as
		// many as there are addresses, so only the subnets are judged.
		out.HostsKnown = true
		out.HostsName = "the machine networks (install-config networking.machineNetwork)"
		out.Hosts = egressip.HostSet{Hosts: egressip.StandIns("", machine, total), Unknown: []string{"machine network"}}
	}
	return out
}

// nodesMatching lists the Node objects a node selector (as pod nodeSelector
// labels) matches.
func (c plainCluster) nodesMatching(sel map[string]string) []plainNode {
	var out []plainNode
	for _, n := range c.nodes {
		if nodes.Matches(&metav1.LabelSelector{MatchLabels: sel}, n.labels) {
			out = append(out, n)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}
