package rules

import (
	"strconv"
	"strings"

	configv1 "github.com/openshift/api/config/v1"

	"github.com/siteforge/siteforge/internal/cluster/installcheck"
	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/lint"
)

// The INS family: the install checks (internal/cluster/installcheck) on the
// install objects of plain manifests: install-config.yaml, agent-config.yaml
// (an install-config and an agent-config of one cluster are checked
// together) and siteconfig ClusterInstances. Sites get the same checks at
// vet and render (internal/load), so a site's own objects are not checked
// again here.

const insPlain = " Checked on install-config.yaml, agent-config.yaml (with the install-config of the same cluster) and ClusterInstance manifests; sites get the same check at `siteforge vet` and render."

func init() {
	checks := map[string]func(lint.Set, *lint.Reporter){}
	for _, check := range installcheck.Checks {
		checks[check.Rule()] = func(set lint.Set, r *lint.Reporter) {
			for _, f := range installFindings(set) {
				if f.Check == check {
					k := f.Key.(*insKey)
					r.Object(k.obj, f.Message, append(append([]string{}, k.path...), f.Sub...)...)
				}
			}
		}
	}
	lint.RegisterFamily("v1alpha1", checks, []*lint.Rule{
		{ID: "INS001", Name: "install-vip-address", Severity: lint.Error,
			Summary: "an API or ingress VIP outside the machine networks, on a network or broadcast address, on a node's IP, or shared by API and ingress; a single VIP not of a dual-stack cluster's primary IP family; more than two of either in a ClusterInstance",
			Rationale: "The installer requires the VIPs inside a machine network on baremetal, OpenStack and oVirt (vSphere: with the agent-based installer) and refuses an API VIP that is also an ingress VIP, unless the load balancer is user-managed " +
				"(openshift/installer pkg/types/validation/installconfig.go validateVIPsForPlatform, validateAPIAndIngressVIPs: \"IP expected to be in one of the machine networks\", \"VIP for API must not be one of the Ingress VIPs\"); on a dual-stack cluster a single VIP must be of the first machine network's family " +
				"(\"VIP for the API must be of the same IP family with machine network's primary IP Family for dual-stack IPv4/IPv6\": validateAPIAndIngressVIPs, tests \"baremetal API VIP set to an incorrect IP Family\" in installconfig_test.go). " +
				"The assisted service requires every VIP inside a machine network and refuses its broadcast address and an address a host uses " +
				"(openshift/assisted-service internal/network/machine_network_cidr.go VerifyVipWithSingleMachineNetwork). The network address of an IPv4 machine network and the subnet-router anycast address of an IPv6 one (RFC 4291 2.6.1) belong to no host either: keepalived cannot hold them. " +
				"A ClusterInstance holds at most two API and two ingress VIPs (stolostron/siteconfig api/v1alpha1 clusterinstance_types.go ApiVIPs, IngressVIPs: +kubebuilder:validation:MaxItems=2), so the hub refuses one with more; a site installed from a hub is refused at vet and render." + insPlain,
			Fix: "Use a free host address of a machine network for each VIP, a different one for the API and the ingress, and none a node has; at most one VIP of each IP family."},
		{ID: "INS002", Name: "install-duplicate-address", Severity: lint.Error,
			Summary: "two hosts with one IP or MAC, a host listing a MAC or interface name twice, or an agent host MAC that is not a unicast EUI-48 address",
			Rationale: "The agent-based installer refuses a MAC used by two hosts (\"duplicate MAC address found\": openshift/installer pkg/asset/agent/agentconfig/agenthosts.go validateHostInterfaces); the assisted service requires a host's MACs and interface names to be unique " +
				"(pkg/staticnetworkconfig/generator.go validateMacInterfaceName) and holds hosts whose addresses collide (internal/host/validator.go noIPCollisionsInNetwork). A host is recognised by its MACs: a copied MAC gives one host another's config. " +
				"The agent-based installer also refuses a host interface MAC (and the bootMACAddress of an install-config platform.baremetal.hosts entry, which becomes the host's interface when agent-config lists no hosts) that is not six octets with the multicast bit clear " +
				"(validateHostInterfaces and getInstallConfigDefaults, through pkg/validate/validate.go MAC: \"expected unicast mac address, found multicast\"; test \"invalid_multicast_mac\" in pkg/types/baremetal/validation/platform_test.go)." + insPlain,
			Fix: "Copy each host's MACs from its own NICs (six octets such as 52:54:00:12:34:56), and give each host its own address."},
		{ID: "INS003", Name: "install-cidr-host-bits", Severity: lint.Error,
			Summary: "a machine, cluster or service network written with host bits set (10.0.0.5/24 for 10.0.0.0/24); machine, cluster or service networks overlapping another of their kind; service networks more than one on IPv4, or other than one per family on dual stack; a cluster network hostPrefix shorter than its CIDR, negative, not 64 on IPv6, or different across IPv4 cluster networks",
			Rationale: "The installer refuses a network whose address has host bits: \"invalid network address. got 10.0.0.5/24, expecting 10.0.0.0/24\" (openshift/installer pkg/validate/validate.go SubnetCIDR, from pkg/types/validation/installconfig.go validateNetworking); " +
				"the assisted service likewise (\"is not a valid network CIDR\": internal/network/cidr_validations.go verifySubnetCIDR). " +
				"It refuses a machine, cluster or service network overlapping an earlier one of its kind (\"machine network must not overlap with machine network 0\", \"cluster network must not overlap with cluster network 0\", \"service network must not overlap with service network 0\": validateNetworking, validateMachineNetwork, validateClusterNetwork; tests \"overlapping machine network and machine network\", \"overlapping cluster network and cluster network\"), a second service network on an IPv4 cluster (\"only one service network can be specified\") " +
				"and a dual-stack cluster without exactly one IPv4 and one IPv6 service network (validateNetworkingIPVersion; test \"overlapping service network validation\" in installconfig_test.go). " +
				"With OVN-Kubernetes (whose nodes each get a hostPrefix-sized subnet of the cluster network) or a hostPrefix written, it refuses a hostPrefix shorter than the cluster network's prefix or unset (\"cluster network host subnetwork prefix must not be larger size than CIDR\"), a negative one, one other than 64 on IPv6, " +
				"and IPv4 cluster networks with different hostPrefixes (\"must be the same value for IPv4 networks\"): validateClusterNetwork, tests \"cluster network host prefix too large\", \"cluster network host prefix unset\", \"multiple cluster network host prefix different\"." + insPlain,
			Fix: "Write the network address the message gives; give the services one network, or one IPv4 and one IPv6 on a dual-stack cluster; give every IPv4 cluster network one hostPrefix (23 by default) at least its own prefix length, and IPv6 ones 64."},
		{ID: "INS004", Name: "install-single-node-platform", Severity: lint.Error,
			Summary: "VIPs with platform none, a single-node cluster on a platform other than none or external, or a single control-plane node with workers",
			Rationale: "Platform none has no VIPs: its install-config section has no VIP fields (openshift/installer pkg/types/none/platform.go), and the assisted service refuses VIPs with user-managed networking " +
				"(internal/cluster/validations/validations.go ValidateVIPsWereNotSetUserManagedNetworking). A cluster of one control-plane node and no workers is installed only on platform none or external, by the agent-based installer " +
				"(pkg/asset/agent/installconfig.go validateSNOConfiguration: \"Only platform none and external supports 1 ControlPlane and 0 Compute nodes\") and by the assisted service (ValidateControlPlaneCountWithPlatform: \"Single node cluster is not supported alongside %s platform\"); " +
				"docs \"Installing OpenShift on a single node\". One control-plane node takes no workers: \"Total number of compute replicas must be 0 when controlPlane.replicas is 1\" (validateSNOConfiguration); " +
				"\"Single-node clusters must have a single control plane node and no workers\" (openshift/assisted-service internal/cluster/validator.go)." + insPlain,
			Fix: "For a single node: platform none (platformType None in a ClusterInstance), no VIPs and no workers (add them after the installation). For VIPs: platform baremetal with three or more control-plane nodes."},
		{ID: "INS005", Name: "install-rendezvous-host", Severity: lint.Error,
			Summary: "the agent-based installer's rendezvousIP is a worker's address, or no control-plane host's",
			Rationale: "The rendezvous host runs the assisted service the other hosts register with; it must be a control-plane host (\"The rendezvousIP must be assigned to a control plane host\": openshift/installer pkg/asset/agent/agentconfig/agenthosts.go validateRendezvousIPNotWorker; " +
				"docs \"Preparing to install with the Agent-based Installer\"). An address no host has leaves the hosts waiting for a service nobody runs; it is reported when every control-plane host has a static address of the rendezvousIP's family, so that a host on DHCP is not taken for a missing one." + insPlain,
			Fix: "Set rendezvousIP to the static address of a control-plane host."},
		{ID: "INS006", Name: "install-control-plane-size", Severity: lint.Error,
			Summary: "a control-plane size the agent-based installer or the assisted service does not install on the release, or a ClusterInstance arbiter outside clusterType HighlyAvailableArbiter (or that type without an arbiter and 2 control-plane nodes), or fewer install-config platform.baremetal.hosts than an installer-provisioned bare-metal cluster's replicas",
			Rationale: "1 or 3 control-plane nodes before 4.18; 1, 3, 4 or 5 from 4.18 (openshift/installer docs/user/agent/control-plane-replicas.md; openshift/assisted-service internal/common/common.go MinimumVersionForNonStandardHAOCPControlPlane, " +
				"internal/bminventory/inventory.go validateHighAvailabilityWithControlPlaneCount). Two only as a two-node cluster with an arbiter (4.19) or with fencing (4.20) (MinimumVersionForArbiterClusters, MinimumVersionForTwoNodesWithFencing). " +
				"Plain manifests without a known release are judged by the latest release. " +
				"The siteconfig operator takes arbiter nodes only in a ClusterInstance of clusterType HighlyAvailableArbiter, and that type only with at least 1 arbiter and 2 control-plane nodes " +
				"(stolostron/siteconfig api/v1alpha1 clusterinstance_validation.go validateControlPlaneAgentCount: \"arbiter agents can only be used with HighlyAvailableArbiter cluster-type\", " +
				"\"highly available arbiter cluster-type must have at least 1 arbiter agent and 2 control-plane agents\"); sites have no arbiter. " +
				"An installer-provisioned bare-metal install (not agent-based, MachineAPI capability on) needs a platform.baremetal.hosts entry for every control-plane and compute replica, hosts without a role filling the control plane first: " +
				"\"not enough hosts found (%v) to support all the configured ControlPlane replicas (%v)\" (openshift/installer pkg/types/baremetal/validation/platform.go validateHostsCount, from ValidateHosts); the hosts are read as pkg/types/baremetal/platform.go Host." + insPlain,
			Fix: "Use a supported number of control-plane nodes, declare the arbiter (install-config arbiter, ClusterInstance clusterType HighlyAvailableArbiter) or fencing of a two-node cluster, or install a release that accepts the size."},
		{ID: "INS007", Name: "install-bmc-credentials", Severity: lint.Error,
			Summary: "a ClusterInstance node without a BMC, a BMC credentials Secret name or a boot MAC",
			Rationale: "The siteconfig operator registers each node as a BareMetalHost: bmcAddress, bmcCredentialsName (the Secret with keys username and password) and bootMACAddress are required " +
				"(stolostron/siteconfig api/v1alpha1 clusterinstance_types.go NodeSpec). The Secret is created on the hub out of band; the ClusterInstance only names it." + insPlain,
			Fix: "Give every node bmcAddress, bmcCredentialsName.name and bootMACAddress, and create the Secret in the cluster's namespace on the hub."},
		{ID: "INS008", Name: "install-nmstate-interfaces", Severity: lint.Error,
			Summary: "a host's NMState config that is malformed or names an interface the host does not have",
			Rationale: "A host's networkConfig is an NMState document whose interfaces are a list of mappings with a name. The assisted service maps ethernet interfaces and bond ports to NICs by the host's MAC-to-name list " +
				"and refuses a name that is neither mapped nor a physical NIC name (\"mac-interface mapping for interface %s is missing and not a physical interface\": openshift/assisted-service pkg/staticnetworkconfig/generator.go validateInterfaceNamesExistenceYAML; " +
				"predictable names as man systemd.net-naming-scheme). VLAN base interfaces, bridge ports and route next-hop interfaces must be NICs of the host or interfaces the config defines." + insPlain,
			Fix: "List each NIC the config uses in the host's interfaces (name and macAddress), or use the names the host has."},
		{ID: "INS009", Name: "install-image-based-shape", Severity: lint.Error,
			Summary: "an image-based ClusterInstance (ibi- templates) with more than one node, workers, VIPs, or a platform other than bare metal or none",
			Rationale: "The siteconfig operator's image-based templates render ImageClusterInstall as a node-level template named after the cluster, with the node's one hostname and one bareMetalHostRef, so a second node renders a second ImageClusterInstall of the same name; " +
				"no image-based template reads apiVIPs or ingressVIPs; the ClusterDeployment is written with platform none and the host is a BareMetalHost driven by its BMC " +
				"(stolostron/siteconfig internal/templates/image-based-installer/template.go ImageClusterInstall, ClusterDeployment, BareMetalHost). The image-based install operator installs single-node OpenShift from a seed image (docs \"Image-based installation for single-node OpenShift\")." + insPlain,
			Fix: "Install one control-plane node without workers and without VIPs (the node's IP answers for the API and ingress), on bare metal; use the assisted templates (ai-cluster-templates-v1) for a multi-node cluster."},
		{ID: "INS010", Name: "install-agent-host", Severity: lint.Error,
			Summary: "an agent-config host whose role is neither master nor worker, or whose rootDeviceHints deviceName is not a device in /dev or /dev/disk/by-path",
			Rationale: "The agent-based installer assigns each host listed in agent-config the role written, and accepts only master and worker (or none, for the assisted service to assign): " +
				"\"host role has incorrect value. Role must either be 'master' or 'worker'\" (openshift/installer pkg/asset/agent/agentconfig/agenthosts.go validateRoles; test \"host-roles-have-incorrect-values\" in agent_config_test.go). " +
				"It takes a root device hint deviceName only as a /dev path of a device directly in /dev or in /dev/disk/by-path: \"Device Name of root device hint must be a /dev/ path\", \"... must be path in /dev/ or /dev/disk/by-path/\" " +
				"(validateHostRootDeviceHints through pkg/types/baremetal/validation/platform.go ValidateHostRootDeviceHints; the same rule as metal3's BareMetalHost validation, tests \"invalidRootDeviceHintByUUID\" and \"invalidRootDeviceHintNoPath\" in metal3-io/baremetal-operator), so /dev/disk/by-id names are refused." + insPlain,
			Fix: "Write role: master or role: worker, or leave the role out; name the disk /dev/sda or /dev/disk/by-path/..., or pick it by wwn or serialNumber."},
	})
}

// insKey is where a value of an install object is: the object and the field
// path inside it.
type insKey struct {
	obj  *manifests.Object
	path []string
}

func insVal(v string, o *manifests.Object, path ...string) installcheck.Value {
	return installcheck.Value{V: v, Key: &insKey{o, path}}
}

// installFindings are the install checks' findings on the set's plain
// install objects, computed once per set.
func installFindings(set lint.Set) []installcheck.Finding {
	return lint.Fact(set, factInstall, func() []installcheck.Finding {
		var out []installcheck.Finding
		for _, f := range installFacts(set) {
			out = append(out, installcheck.Run(f)...)
		}
		return out
	})
}

// installFacts describes each cluster the set's install objects install.
func installFacts(set lint.Set) []*installcheck.Facts {
	objs := set.Objects
	if set.Site != nil {
		// the site's own objects were checked at load; only the plain
		// manifests given with it are read here
		extra := map[*manifests.Object]bool{}
		for _, o := range set.Site.Extra {
			extra[o] = true
		}
		objs = nil
		for _, o := range set.Objects {
			if extra[o] {
				objs = append(objs, o)
			}
		}
	}
	ics, acs := manifests.InstallConfigs(objs), manifests.AgentConfigs(objs)
	var out []*installcheck.Facts
	if len(ics) == 1 && len(acs) == 1 {
		f := installConfigFacts(ics[0], set.Minor)
		f.Method = installcheck.MethodAgent
		agentConfigFacts(f, acs[0])
		if len(f.Hosts) == 0 {
			// the agent installer takes install-config's hosts when
			// agent-config lists none (installer pkg/asset/agent/agentconfig
			// agenthosts.go getInstallConfigDefaults)
			f.Hosts = f.InstallHosts
		}
		out = append(out, f)
	} else {
		for _, ic := range ics {
			out = append(out, installConfigFacts(ic, set.Minor))
		}
		for _, ac := range acs {
			f := &installcheck.Facts{Method: installcheck.MethodAgent, Minor: set.Minor, ControlPlane: -1, Workers: -1}
			agentConfigFacts(f, ac)
			out = append(out, f)
		}
	}
	for _, ci := range manifests.ClusterInstances(objs) {
		out = append(out, clusterInstanceFacts(ci, set.Minor))
	}
	return out
}

func installConfigFacts(ic *manifests.InstallConfigFile, minor platform.OCPMinor) *installcheck.Facts {
	o := ic.Obj
	f := &installcheck.Facts{
		Platform: ic.Platform, PlatformKey: &insKey{o, []string{"platform"}},
		Method: installcheck.MethodOther, Minor: minor, NetworkType: ic.NetworkType(),
		UserManagedLB: ic.LoadBalancerType == "UserManaged",
		ControlPlane:  -1, Workers: -1,
		TwoNode: ic.Arbiter != nil || ic.ControlPlane != nil && len(ic.ControlPlane.Fencing) > 0,
	}
	if ic.PlatformKey != "" {
		f.PlatformKey = &insKey{o, []string{"platform", ic.PlatformKey}}
	}
	n := ic.Networking
	for i, c := range n.MachineNetwork {
		f.CIDRs = append(f.CIDRs, installcheck.CIDR{Kind: "machineNetwork", Value: insVal(c.CIDR, o, ic.MachineNetworkPath(i)...)})
	}
	for i, c := range n.ClusterNetwork {
		hp := insVal("", o, ic.ClusterNetworkPath(i)...)
		if c.HostPrefix != 0 {
			hp = insVal(strconv.Itoa(int(c.HostPrefix)), o, "networking", ic.Paths.ClusterNetwork, strconv.Itoa(i), "hostPrefix")
		}
		f.CIDRs = append(f.CIDRs, installcheck.CIDR{Kind: "clusterNetwork", Value: insVal(c.CIDR, o, ic.ClusterNetworkPath(i)...), HostPrefix: hp})
	}
	for i, c := range n.ServiceNetwork {
		f.CIDRs = append(f.CIDRs, installcheck.CIDR{Kind: "serviceNetwork", Value: insVal(c, o, ic.ServiceNetworkPath(i)...)})
	}
	vipPath := func(key string, i int) []string {
		if strings.HasSuffix(key, "s") {
			return []string{"platform", ic.PlatformKey, key, strconv.Itoa(i)}
		}
		return []string{"platform", ic.PlatformKey, key}
	}
	for i, v := range ic.APIVIPs {
		f.APIVIPs = append(f.APIVIPs, insVal(v, o, vipPath(ic.APIVIPKey, i)...))
	}
	for i, v := range ic.IngressVIPs {
		f.IngressVIPs = append(f.IngressVIPs, insVal(v, o, vipPath(ic.IngressVIPKey, i)...))
	}
	f.MachineAPI = manifests.CapabilityOff([]*manifests.Object{o}, configv1.ClusterVersionCapabilityMachineAPI) == ""
	if bm := ic.InstallConfig.Platform.BareMetal; bm != nil && len(bm.Hosts) > 0 {
		f.InstallHostsKey = &insKey{o, []string{"platform", ic.PlatformKey, "hosts"}}
		for i, h := range bm.Hosts {
			at := func(p ...string) []string {
				return append([]string{"platform", ic.PlatformKey, "hosts", strconv.Itoa(i)}, p...)
			}
			host := installcheck.Host{Name: h.Name, Role: h.Role, Key: &insKey{o, at()}, BootMAC: insVal(h.BootMACAddress, o, at("bootMACAddress")...)}
			if host.Name == "" {
				host.Name = "hosts[" + strconv.Itoa(i) + "]"
			}
			if h.Role != "" {
				host.RoleKey = &insKey{o, at("role")}
			}
			f.InstallHosts = append(f.InstallHosts, host)
		}
	}
	if cp := ic.ControlPlane; cp != nil && cp.Replicas != nil {
		f.ControlPlane, f.ControlPlaneKey = int(*cp.Replicas), &insKey{o, []string{"controlPlane", "replicas"}}
	}
	workers := 0
	for _, c := range ic.Compute {
		if c.Replicas == nil {
			workers = -1
			break
		}
		workers += int(*c.Replicas)
	}
	if len(ic.Compute) > 0 {
		f.Workers, f.WorkersKey = workers, &insKey{o, []string{"compute"}}
	}
	return f
}

// agentConfigFacts adds an agent-config's hosts and rendezvousIP.
func agentConfigFacts(f *installcheck.Facts, ac *manifests.AgentConfigFile) {
	o := ac.Obj
	if ac.RendezvousIP != "" {
		f.RendezvousIP = insVal(ac.RendezvousIP, o, "rendezvousIP")
	}
	for i, h := range ac.Hosts {
		at := func(p ...string) []string { return append([]string{"hosts", strconv.Itoa(i)}, p...) }
		host := installcheck.Host{Name: h.Hostname, Role: h.Role, Key: &insKey{o, at()}}
		if h.Role != "" {
			host.RoleKey = &insKey{o, at("role")}
		}
		if h.RootDeviceHints != nil {
			host.RootDeviceName = insVal(h.RootDeviceHints.DeviceName, o, at("rootDeviceHints", "deviceName")...)
		}
		if host.Name == "" {
			host.Name = "hosts[" + strconv.Itoa(i) + "]"
		}
		for j, in := range h.Interfaces {
			host.Interfaces = append(host.Interfaces, installcheck.Interface{
				Name: insVal(in.Name, o, at("interfaces", strconv.Itoa(j), "name")...),
				MAC:  insVal(in.MacAddress, o, at("interfaces", strconv.Itoa(j), "macAddress")...),
			})
		}
		if h.NetworkConfig != nil {
			host.NetworkConfig, host.NetworkConfigKey = h.NetworkConfig, &insKey{o, at("networkConfig")}
			for _, a := range manifests.NMStateAddresses(h.NetworkConfig) {
				host.IPs = append(host.IPs, insVal(a.IP, o, append(at("networkConfig"), a.Path...)...))
			}
		}
		f.Hosts = append(f.Hosts, host)
	}
}

func clusterInstanceFacts(ci *manifests.ClusterInstanceObject, minor platform.OCPMinor) *installcheck.Facts {
	o, spec := ci.Obj, &ci.Spec
	f := &installcheck.Facts{
		Platform: strings.ToLower(spec.PlatformType), PlatformKey: &insKey{o, []string{"spec", "platformType"}},
		Method: installcheck.MethodAssisted, Minor: minor, HubHosts: true,
		TwoNode:         spec.ClusterType == platform.ClusterTypeHighlyAvailableArbiter,
		ClusterType:     insVal(spec.ClusterType, o, "spec", "clusterType"),
		ControlPlaneKey: &insKey{o, []string{"spec", "nodes"}}, WorkersKey: &insKey{o, []string{"spec", "nodes"}},
	}
	for _, t := range spec.TemplateRefs {
		if strings.HasPrefix(t.Name, platform.ImageBasedTemplatePrefix) {
			f.Method = installcheck.MethodImage
		}
	}
	for i, c := range spec.MachineNetwork {
		f.CIDRs = append(f.CIDRs, installcheck.CIDR{Kind: "machineNetwork", Value: insVal(c.CIDR, o, "spec", "machineNetwork", strconv.Itoa(i), "cidr")})
	}
	for i, c := range spec.ClusterNetwork {
		f.CIDRs = append(f.CIDRs, installcheck.CIDR{Kind: "clusterNetwork", Value: insVal(c.CIDR, o, "spec", "clusterNetwork", strconv.Itoa(i), "cidr")})
	}
	for i, c := range spec.ServiceNetwork {
		f.CIDRs = append(f.CIDRs, installcheck.CIDR{Kind: "serviceNetwork", Value: insVal(c.CIDR, o, "spec", "serviceNetwork", strconv.Itoa(i), "cidr")})
	}
	for i, v := range spec.ApiVIPs {
		f.APIVIPs = append(f.APIVIPs, insVal(v, o, "spec", "apiVIPs", strconv.Itoa(i)))
	}
	for i, v := range spec.IngressVIPs {
		f.IngressVIPs = append(f.IngressVIPs, insVal(v, o, "spec", "ingressVIPs", strconv.Itoa(i)))
	}
	f.ControlPlane, f.Workers = -1, -1
	if len(spec.Nodes) > 0 {
		f.ControlPlane, f.Workers = 0, 0
	}
	for i, n := range spec.Nodes {
		at := func(p ...string) []string { return append([]string{"spec", "nodes", strconv.Itoa(i)}, p...) }
		role := n.RoleOrDefault()
		switch role {
		case installcheck.RoleMaster:
			f.ControlPlane++
		case installcheck.RoleWorker:
			f.Workers++
		default: // arbiter
			f.TwoNode = true
		}
		h := installcheck.Host{Name: n.HostName, Role: role, Key: &insKey{o, at()}}
		if h.Name == "" {
			h.Name = "nodes[" + strconv.Itoa(i) + "]"
		}
		h.BootMAC = insVal(n.BootMACAddress, o, at("bootMACAddress")...)
		if n.BootMACAddress == "" {
			h.BootMAC.Key = &insKey{o, at()}
		}
		if n.BmcAddress != "" || n.BmcCredentialsName != nil {
			h.BMC = &installcheck.BMC{Key: &insKey{o, at("bmcCredentialsName")}}
			if n.BmcCredentialsName != nil {
				h.BMC.CredentialsName = insVal(n.BmcCredentialsName.Name, o, at("bmcCredentialsName", "name")...)
			}
		}
		if nn := n.NodeNetwork; nn != nil {
			for j, in := range nn.Interfaces {
				h.Interfaces = append(h.Interfaces, installcheck.Interface{
					Name: insVal(in.Name, o, at("nodeNetwork", "interfaces", strconv.Itoa(j), "name")...),
					MAC:  insVal(in.MacAddress, o, at("nodeNetwork", "interfaces", strconv.Itoa(j), "macAddress")...),
				})
			}
			if nn.Config != nil {
				h.NetworkConfig, h.NetworkConfigKey = nn.Config, &insKey{o, at("nodeNetwork", "config")}
				for _, a := range manifests.NMStateAddresses(nn.Config) {
					h.IPs = append(h.IPs, insVal(a.IP, o, append(at("nodeNetwork", "config"), a.Path...)...))
				}
			}
		}
		f.Hosts = append(f.Hosts, h)
	}
	return f
}
