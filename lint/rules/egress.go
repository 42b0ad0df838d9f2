package rules

import (
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
// objects when the set holds them (a cluster export, read by
// manifests.Nodes: the egress-assignable label, and the annotations OVN-K
// reads: the primary subnet, the host-cidrs addresses and secondary host
// networks, the cloud subnet and capacity).

const (
	egrSiteNote = " Sites: `siteforge render` applies the same checks to egress.egressIPs and refuses the site, so the rule reads plain manifests."
	egrSetNote  = " What the cluster looks like comes from the set: install-config.yaml (platform, networking, VIPs), the Network config, and Node objects when the set holds them."
)

func init() {
	egr := []*lint.Rule{
		{ID: "EGR001", Name: "egress-ip-not-hostable", Severity: lint.Error,
			Summary: "no assignable node can host an egress IP: it is outside every network where the nodes may hold it",
			Rationale: "OVN-Kubernetes assigns an egress IP only to a labelled node with a network holding it: on clouds the primary NIC subnet that " +
				"cloud-network-config-controller reports in cloud.network.openshift.io/egress-ipconfig, and no other; off-cloud the subnet of " +
				"k8s.ovn.org/node-primary-ifaddr or a secondary host network of k8s.ovn.org/host-cidrs; with OpenShift SDN the primary subnet " +
				"(ovn-org/ovn-kubernetes go-controller/pkg/util/node_annotations.go GetNodeEIPConfig, GetEgressIPNetwork, " +
				"GetSecondaryHostNetworkContainingIP). An address no assignable node can host is never assigned: OVN-K records event " +
				"NoMatchingNodeFound (\"No matching nodes found, which can host any of the egress IPs\"), or UnassignedRequest when other " +
				"addresses of the object are assigned, and leaves it out of the EgressIP's status (go-controller/pkg/clustermanager/" +
				"egressip_controller.go assignEgressIPs). The networks come from the set's Node objects (their annotations); without Nodes, on " +
				"clouds, from the install-config's networking.machineNetwork; off-cloud without k8s.ovn.org/host-cidrs see EGR002." + egrSetNote + egrSiteNote,
			Fix: "Use a free address of an assignable node's network, or label nodes of the address's network k8s.ovn.org/egress-assignable."},
		{ID: "EGR002", Name: "egress-ip-outside-known-subnets", Severity: lint.Warning,
			Summary: "an egress IP is outside every known primary subnet, and the nodes' secondary host networks are unknown",
			Rationale: "Off-cloud, OVN-Kubernetes hosts an egress IP on a node whose primary interface (br-ex) subnet contains it, or on one of the " +
				"node's secondary host networks, listed in its k8s.ovn.org/host-cidrs annotation (ovn-org/ovn-kubernetes go-controller/pkg/util/" +
				"node_annotations.go GetEgressIPNetwork, GetSecondaryHostNetworkContainingIP). When the set does not say the secondary networks " +
				"(no Node objects, only install-config networking.machineNetwork, or assignable Nodes without k8s.ovn.org/host-cidrs), an address " +
				"outside the primary subnets works only if assignable nodes have a secondary interface in its subnet; else it is never assigned. " +
				"With the annotation on every assignable Node, EGR001 decides instead." + egrSetNote + egrSiteNote,
			Fix: "Use an address of the machine network, or suppress with the secondary network that holds it as the reason."},
		{ID: "EGR003", Name: "egress-ip-reserved-address", Severity: lint.Error,
			Summary: "an egress IP is not an address, or is a node's address, a VIP, a subnet's network/broadcast address, or inside the cluster or service network",
			Rationale: "OVN-Kubernetes rejects an egress IP that is not an IP (event InvalidEgressIP), and one equal to any address of any node, secondary " +
				"interfaces included: it compares it with every entry of every node's k8s.ovn.org/host-cidrs, records event EgressIPConflict and " +
				"assigns no further address of the object (ovn-org/ovn-kubernetes go-controller/pkg/clustermanager/egressip_controller.go " +
				"isEgressIPAddrConflict, assignEgressIPs). Nodes without the annotation are compared by status.addresses. One equal to the API or " +
				"ingress VIP breaks the VIP keepalived floats; one inside the cluster (pod) or service network is not a node-network address at " +
				"all (docs \"Configuring an egress IP address\")." + egrSetNote + egrSiteNote,
			Fix: "Use a free host address of the node subnet: not a node IP, a VIP, the network or broadcast address, nor a pod or service address."},
		{ID: "EGR004", Name: "egress-ip-duplicate", Severity: lint.Error,
			Summary: "the same egress IP is in two EgressIP objects",
			Rationale: "An address may be in one EgressIP object only: OVN-Kubernetes refuses the second with event UnsupportedRequest and " +
				"assigns neither predictably (docs \"Configuring an egress IP address\"; OVN-K egressip controller). A repeat inside one object is " +
				"harmless: OVN-K reads an object's addresses as a set (ovn-org/ovn-kubernetes go-controller/pkg/clustermanager/egressip_controller.go " +
				"validateEgressIPSpec)." + egrSiteNote,
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
				"object on a node: N addresses need N labelled nodes that can host them (event NoMatchingNodeFound). Once it places an " +
				"address on a secondary host network it considers only that network's nodes for the object's other addresses, reading them in " +
				"no fixed order, so an object mixing networks may leave addresses unassigned on some runs (ovn-org/ovn-kubernetes " +
				"go-controller/pkg/clustermanager/egressip_controller.go assignEgressIPs; event UnassignedRequest). " +
				"Counted over the Node objects of the set (a cluster export); without Nodes the rule is skipped." + egrSiteNote,
			Fix: "Label more nodes of the addresses' subnets k8s.ovn.org/egress-assignable, or use fewer addresses per object."},
		{ID: "EGR007", Name: "egress-ip-over-cloud-capacity", Severity: lint.Error,
			Summary: "the egress IPs do not fit in the nodes' cloud capacity (per family and in total)",
			Rationale: "On clouds each node holds a limited number of egress IPs, in up to three limits that OVN-Kubernetes checks each on its own " +
				"before it assigns an address to a node: ipv4 for its IPv4 egress IPs, ipv6 for its IPv6 ones, ip for all of them together, of " +
				"every EgressIP object (ovn-org/ovn-kubernetes go-controller/pkg/clustermanager/egressip_controller.go assignEgressIPs, " +
				"getIPFamilyAllocationCount). The node reports them in cloud.network.openshift.io/egress-ipconfig, a key absent being no limit " +
				"(go-controller/pkg/util/node_annotations.go ParseCloudEgressIPConfig): AWS per family, from the instance type; Azure, GCP and " +
				"OpenStack one ip total, 256 per NIC with the node's own address, 100 alias ranges, 10 allowed address pairs per port " +
				"(cloud-network-config-controller pkg/cloudprovider), the table used for nodes that report nothing. Counted over the Node " +
				"objects of the set; without Nodes the rule is skipped. An object with addresses of both families is counted as if it could " +
				"put one of each on a node, so what the rule reports cannot fit." + egrSiteNote,
			Fix: "Label more nodes k8s.ovn.org/egress-assignable, or use fewer egress IPs."},
	}
	checks := map[string]func(lint.Set, *lint.Reporter){}
	for _, r := range egr {
		checks[r.ID] = egrCheck(r.ID)
	}
	egr = append(egr, &lint.Rule{ID: "EGR008", Name: "egress-ip-unassigned", Severity: lint.Error,
		Summary: "a running cluster's EgressIP has an address no node holds (status.items does not list it)",
		Rationale: "OVN-Kubernetes' cluster manager assigns each address of an EgressIP to a node that may host it and records the " +
			"assignment in status.items, one item per address (ovn-org/ovn-kubernetes go-controller/pkg/clustermanager/egressip_controller.go " +
			"assignEgressIPs; go-controller/pkg/crd/egressip/v1/types.go EgressIPStatus). An address with no item is held by no node: " +
			"the selected pods leave the cluster with their node's address, and firewalls that expect the egress IP drop them. Read " +
			"from a running cluster's state. The finding states that fact and names the findings of the EgressIP rules (over the cluster's " +
			"own nodes) that say why, by rule and field, without repeating them: no node labelled k8s.ovn.org/egress-assignable (EGR006), " +
			"an address outside every subnet the labelled nodes can host (EGR001), a node's address or one used twice (EGR003, EGR004), " +
			"the cloud's capacity (EGR007).",
		Fix: "Fix what the named finding says (label nodes k8s.ovn.org/egress-assignable, use an address of their subnet, free capacity); when " +
			"none is named, read the EgressIP's events and the ovnkube-control-plane logs."})
	checks["EGR008"] = checkEgressUnassigned
	lint.RegisterFamily("v1alpha1", checks, egr)
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
	egressip.NotHostable:      "use a free address of an assignable node's network, or label nodes of the address's network " + platform.EgressAssignableLabel,
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
		e := egressChecked(set)
		if e == nil {
			return
		}
		for _, p := range e.problems {
			if egressip.RuleOf(p, e.cluster) != id {
				continue
			}
			o, path := egrProblemAt(e.eips, p)
			r.Object(o, p.Message+": "+egrFix[p.Kind], path...)
		}
	}
}

// egressIPs is what the EGR rules read of a set's EgressIPs: the objects
// and their documents, the cluster they are checked against
// (plainClusterOf) and the problems egressip.Check finds.
type egressIPs struct {
	eips     []*manifests.Object
	docs     []egressip.EgressIP
	cluster  egressip.Cluster
	problems []egressip.Problem
}

// egressChecked checks the set's EgressIPs once per set, for every EGR
// rule (shared, never changed); nil when the set holds none.
func egressChecked(set lint.Set) *egressIPs {
	return lint.Fact(set, factEgress, func() *egressIPs {
		eips := set.Kind(egressip.GroupVersion.String(), "EgressIP")
		if len(eips) == 0 {
			return nil
		}
		e := &egressIPs{eips: eips, docs: make([]egressip.EgressIP, len(eips))}
		objs := make([]egressip.Object, len(eips))
		for i, o := range eips {
			_ = o.DecodeLoose(&e.docs[i])
			d := &e.docs[i]
			objs[i] = egressip.Object{Name: o.Name, IPs: d.Spec.EgressIPs, NamespaceSelector: &d.Spec.NamespaceSelector, PodSelector: d.Spec.PodSelector}
		}
		e.cluster = plainClusterOf(set).egressCluster(objs)
		e.problems = egressip.Check(e.cluster, objs)
		return e
	})
}

// egrProblemAt is where the EGR rules report a problem: the EgressIP it is
// about (the first for a problem of the whole set), at spec.egressIPs or
// the address.
func egrProblemAt(eips []*manifests.Object, p egressip.Problem) (*manifests.Object, []string) {
	o, path := eips[0], []string{"spec", "egressIPs"}
	if p.Object >= 0 {
		o = eips[p.Object]
	}
	if p.IP >= 0 {
		path = append(path, fmt.Sprint(p.IP))
	}
	return o, path
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

// plainNode is a Node object of the set (manifests.Nodes).
type plainNode struct {
	*manifests.Node
	obj    *manifests.Object
	name   string
	labels map[string]string
	addrs  []string
	// primary are the subnets of the node's primary interface:
	// k8s.ovn.org/node-primary-ifaddr, else the egress-ipconfig ifaddr,
	// else the machine network holding the node's address.
	primary []*net.IPNet
	// primaryGuessed says primary comes from the machine network, not
	// from the node's annotations.
	primaryGuessed bool
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
			c.computeReplicas = intOf(p.Replicas)
		}
		if ic.ControlPlane != nil {
			c.controlPlaneReplicas = intOf(ic.ControlPlane.Replicas)
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
				c.networkType = platform.CanonicalNetworkType(cfg.Spec.NetworkType)
			}
		}
	}
	if c.networkType == "" {
		c.networkType = platform.OVNKubernetes
	}
	machine := nodes.ParseCIDRs(c.machineNetworks)
	for _, mn := range manifests.Nodes(set.Objects) {
		n := plainNode{Node: mn, obj: mn.Obj, name: mn.Name, labels: mn.Labels, addrs: mn.Addresses, primary: mn.PrimarySubnets()}
		if n.primary == nil && mn.Cloud != nil {
			n.primary = mn.Cloud.Subnets
		}
		if n.primary == nil {
			n.primary, n.primaryGuessed = nodes.Containing(machine, n.addrs...), true
		}
		if c.platform == "" {
			c.platform = nodeProviderPlatform(mn.ProviderID)
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

// egressCluster is what the EgressIP rules know of the set's cluster.
//
// With Node objects, as OVN-Kubernetes reads them: an egress IP may not
// equal any address of any node's k8s.ovn.org/host-cidrs (its
// status.addresses where the annotation is absent); a labelled node hosts
// egress IPs in, on a cloud, the subnet of cloud.network.openshift.io/
// egress-ipconfig up to its capacity, and off-cloud its primary subnet
// (k8s.ovn.org/node-primary-ifaddr) and its secondary host networks
// (k8s.ovn.org/host-cidrs) without a limit (ovn-org/ovn-kubernetes
// go-controller/pkg/util/node_annotations.go GetNodeEIPConfig,
// GetEgressIPNetwork; clustermanager/egressip_controller.go
// isEgressIPAddrConflict). Without Nodes, the install-config's machine
// networks stand for the nodes' primary subnets.
func (c plainCluster) egressCluster(objs []egressip.Object) egressip.Cluster {
	hasCloudConfig := false
	for _, n := range c.nodes {
		hasCloudConfig = hasCloudConfig || n.HasCloudConfig
	}
	cloud := platform.EgressCloudNodes(c.platform, hasCloudConfig)
	out := egressip.Cluster{
		Platform: c.platform, Minor: c.minor, MinorFrom: c.minorFrom,
		ClusterNetworks: c.clusterNetworks, ServiceNetworks: c.serviceNetworks,
		NodeIPs: map[string]string{}, VIPs: map[string]string{},
		PrimaryOnly: cloud || platform.EgressPrimaryOnly(c.platform, c.networkType),
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
		out.SecondaryKnown = !out.PrimaryOnly
		out.HostsName = "the assignable nodes (Node objects labelled " + platform.EgressAssignableLabel + ")"
		for _, n := range c.nodes {
			if n.HasHostCIDRs {
				for _, a := range n.HostAddresses() {
					out.NodeIPs[a.String()] = "node " + n.name + " (" + platform.NodeHostCIDRsAnnotation + ")"
				}
			} else {
				for _, a := range n.addrs {
					out.NodeIPs[egressip.Normalize(a)] = "node " + n.name
				}
			}
		}
		for _, n := range c.nodes {
			if _, ok := n.labels[platform.EgressAssignableLabel]; !ok {
				continue
			}
			h := egressip.Host{Node: n.name, Primary: n.primary}
			switch {
			case cloud && n.Cloud != nil:
				// The cloud's subnet and capacity, nothing else
				// (util.ParseCloudEgressIPConfig).
				h.Primary = n.Cloud.Subnets
				capc := n.Cloud.Capacity
				h.Capacity = &capc
			case !out.PrimaryOnly && !n.primaryGuessed:
				secondary, ok := n.SecondaryHostNetworks()
				h.Subnets = append(append([]*net.IPNet(nil), h.Primary...), secondary...)
				out.SecondaryKnown = out.SecondaryKnown && ok
			default:
				out.SecondaryKnown = false
			}
			if h.Subnets == nil {
				h.Subnets = h.Primary
			}
			if len(h.Primary) == 0 {
				out.HostsKnown = false // where the node can host addresses is unknown
			}
			out.Hosts.Hosts = append(out.Hosts.Hosts, h)
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
		if manifests.SelectorMatches(&metav1.LabelSelector{MatchLabels: sel}, n.labels) {
			out = append(out, n)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// intOf is *p as an int, or nil (a pool's replicas, an int64 in the
// installer's MachinePool).
func intOf(p *int64) *int {
	if p == nil {
		return nil
	}
	v := int(*p)
	return &v
}
