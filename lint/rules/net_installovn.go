package rules

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/lint"
)

// install-config networking.ovnKubernetesConfig as the installer validates
// it (openshift/installer pkg/types/validation/installconfig.go
// validateOVNKubernetesConfig and validateOVNIPv4InternalJoinSubnet; its
// only field is ipv4.internalJoinSubnet, pkg/types/installconfig.go
// IPv4OVNKubernetesConfig: any other key is INS021's). Its overlaps with the
// install-config's networks are NET001's (installOVNSubnets); the rest is
// NET005. A site cannot set the join subnet: siteforge writes none.

func init() {
	lint.RegisterFamily("v1alpha1", nil, []*lint.Rule{
		{
			ID:       "NET005",
			Name:     "install-ovn-config-refused",
			Severity: lint.Error,
			Summary:  "install-config networking.ovnKubernetesConfig the installer refuses: without OVNKubernetes, or an internalJoinSubnet that is not an IPv4 network address or too small for the cluster networks' nodes",
			Rationale: "The installer validates networking.ovnKubernetesConfig (openshift/installer pkg/types/validation/installconfig.go validateOVNKubernetesConfig, " +
				"tests in installconfig_test.go \"invalid user-provided IPv4 InternalJoinSubnet\" and \"user-provided IPv4 InternalJoinSubnet too small\"): it \"may only be " +
				"specified with the OVNKubernetes networkType\"; ipv4.internalJoinSubnet must be a CIDR (an ipnet.IPNet: anything else fails to decode the file) whose " +
				"address is the network address (validate.SubnetCIDR: \"invalid network address\"); and it must hold one address per node the IPv4 cluster networks can " +
				"have, 2^(hostPrefix - prefix length) summed over them, plus three (isV4NodeSubnetLargeEnough, the check CNO makes in pkg/network/ovn_kubernetes.go). " +
				"The field is IPv4: the operator Network CRD the installer copies it into refuses anything but an IPv4 CIDR (api operator/v1 " +
				"IPv4OVNKubernetesConfig.internalJoinSubnet, \"Subnet must be in a valid IPv4 CIDR format\"). Its overlaps with the cluster, machine and service " +
				"networks are NET001's.",
			Fix: "Remove ovnKubernetesConfig for another network type; write the join subnet as an IPv4 network address (100.65.0.0/16) large enough for the " +
				"cluster's nodes, or leave it out for the default 100.64.0.0/16.",
			Check: checkInstallOVNConfig,
		},
	})
}

// installJoinSubnet is an install-config's ipv4.internalJoinSubnet as
// written ("" when not), with its field path.
func installJoinSubnet(ic *manifests.InstallConfigFile) (string, []string) {
	ovn := ic.Networking.OVNKubernetesConfig
	if ovn == nil || ovn.IPv4 == nil || ovn.IPv4.InternalJoinSubnet == "" {
		return "", nil
	}
	return ovn.IPv4.InternalJoinSubnet, []string{"networking", "ovnKubernetesConfig", "ipv4", "internalJoinSubnet"}
}

// installOVNSubnets are the internal subnets an install-config's networks
// must not overlap: a join subnet the install-config sets replaces the
// IPv4 one (the installer checks the networks against the defaults except
// a join subnet the install-config sets, validateNetworkNotOverlapDefaultOVNSubnets,
// and checks that one against them, validateOVNIPv4InternalJoinSubnet:
// installconfig_test.go "overlapping machine network and user-provided IPv4
// InternalJoinSubnet"; it passes it on to the operator Network config).
func installOVNSubnets(subnets []ovnSubnet, ic *manifests.InstallConfigFile) []ovnSubnet {
	v, _ := installJoinSubnet(ic)
	p, err := netip.ParsePrefix(v)
	if err != nil || !p.Addr().Is4() {
		return subnets // NET005's
	}
	out := append([]ovnSubnet(nil), subnets...)
	join := platform.OVNInternalSubnets[0].Name
	for i, s := range out {
		if s.name == join && s.pfx.Addr().Is4() {
			out[i] = ovnSubnet{name: join, pfx: p.Masked(), custom: true, where: "install-config"}
		}
	}
	return out
}

func checkInstallOVNConfig(set lint.Set, r *lint.Reporter) {
	for _, ic := range manifests.InstallConfigs(plainInstallObjects(set)) {
		if ic.Networking.OVNKubernetesConfig == nil {
			continue
		}
		if t := ic.NetworkType(); t != platform.OVNKubernetes {
			r.Object(ic.Obj, fmt.Sprintf("networking.ovnKubernetesConfig is set with networkType %s: the installer accepts it only with OVNKubernetes", t),
				ic.NetworkTypePath()...)
		}
		v, path := installJoinSubnet(ic)
		if v == "" {
			continue
		}
		p, err := netip.ParsePrefix(v)
		switch {
		case err != nil:
			r.Object(ic.Obj, fmt.Sprintf("internalJoinSubnet %q is not a CIDR: the installer cannot decode install-config.yaml", v), path...)
			continue
		case !p.Addr().Is4():
			r.Object(ic.Obj, fmt.Sprintf("internalJoinSubnet %s is not IPv4: the operator Network config takes only an IPv4 CIDR here", v), path...)
			continue
		case p.Addr().IsUnspecified():
			r.Object(ic.Obj, fmt.Sprintf("internalJoinSubnet %s: the installer requires an address (\"address must be specified\")", v), path...)
			continue
		case p.Masked() != p:
			r.Object(ic.Obj, fmt.Sprintf("internalJoinSubnet %s is not a network address: the installer expects %s", v, p.Masked()), path...)
			continue
		}
		nodes, ok := v4ClusterNodes(ic)
		if room := 1<<(32-p.Bits()) - 3; ok && nodes >= room {
			r.Object(ic.Obj, fmt.Sprintf("internalJoinSubnet %s has room for %d nodes, but the IPv4 cluster networks can have %d: the installer refuses a join subnet not large enough for them",
				v, room, nodes), path...)
		}
	}
}

// v4ClusterNodes is how many nodes the install-config's IPv4 cluster
// networks can have (installer isV4NodeSubnetLargeEnough); !ok when a
// hostPrefix is smaller than its network's prefix length (that the
// installer reports on the cluster network) or a CIDR does not parse.
func v4ClusterNodes(ic *manifests.InstallConfigFile) (int, bool) {
	n := 0
	for _, c := range ic.Networking.ClusterNetwork {
		p, err := netip.ParsePrefix(strings.TrimSpace(c.CIDR))
		if err != nil {
			return 0, false
		}
		if !p.Addr().Is4() {
			continue
		}
		if int(c.HostPrefix) < p.Bits() || c.HostPrefix > 32 {
			return 0, false
		}
		n += 1 << (int(c.HostPrefix) - p.Bits())
	}
	return n, true
}
