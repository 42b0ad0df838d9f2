package network

import (
	"fmt"

	operatorv1 "github.com/openshift/api/operator/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/internal/cluster/mtu"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/ruleid"
	"github.com/siteforge/siteforge/internal/site"
)

// day0Network is the operator Network configuration an install-time site
// hands the installer: install/manifests/cluster-network-03-config.yml with
// the planned cluster MTU. Install-time MTU detection probes the
// default-route link of one node only, so the installer writes this file
// itself for AWS edge pools (1200/1250); siteforge writes it for every
// topology, with the MTU the links actually allow.
func day0Network(s *site.Site, minor platform.OCPMinor, p mtu.Plan) (*operatorv1.Network, diag.List) {
	mtu := uint32(p.Target)
	n := &operatorv1.Network{
		TypeMeta:   metav1.TypeMeta{APIVersion: operatorv1.GroupVersion.String(), Kind: "Network"},
		ObjectMeta: metav1.ObjectMeta{Name: platform.ConfigSingletonName},
		Spec: operatorv1.NetworkSpec{
			OperatorSpec:   operatorv1.OperatorSpec{ManagementState: operatorv1.Managed},
			ServiceNetwork: append([]string(nil), s.Network.ServiceNetwork...),
			DefaultNetwork: operatorv1.DefaultNetworkDefinition{Type: operatorv1.NetworkType(p.NetworkType)},
		},
	}
	for _, cn := range s.Network.ClusterNetwork {
		n.Spec.ClusterNetwork = append(n.Spec.ClusterNetwork, operatorv1.ClusterNetworkEntry{CIDR: cn.CIDR, HostPrefix: uint32(cn.HostPrefix)})
	}
	switch p.NetworkType {
	case platform.OpenShiftSDN:
		if minor >= platform.SDNNotInstallableSince {
			d := s.At("network.type",
				fmt.Sprintf("OpenShift SDN cannot be installed from OpenShift %s; cluster.version is %s", platform.SDNNotInstallableSince, s.Cluster.Version),
				`install with network.type: "OVNKubernetes"`)
			d.Rule = ruleid.SDNUnsupportedVersion
			return nil, diag.List{d}
		}
		n.Spec.DefaultNetwork.OpenShiftSDNConfig = &operatorv1.OpenShiftSDNConfig{Mode: operatorv1.SDNModeNetworkPolicy, MTU: &mtu}
	default:
		ovn := &operatorv1.OVNKubernetesConfig{MTU: &mtu}
		if s.Network.IPsec != platform.IPsecModeDisabled {
			switch {
			case minor < platform.IPsecModeSince && s.Network.IPsec == platform.IPsecModeFull:
				ovn.IPsecConfig = &operatorv1.IPsecConfig{} // pre-4.15: present and empty means Full
			case minor < platform.IPsecModeSince:
				return nil, diag.List{s.At("network.ipsec", fmt.Sprintf("IPsec mode %q needs OpenShift %s or later; cluster.version is %s", s.Network.IPsec, platform.IPsecModeSince, s.Cluster.Version),
					`use "Full" (east-west and north-south) or "Disabled"`)}
			default:
				ovn.IPsecConfig = &operatorv1.IPsecConfig{Mode: operatorv1.IPsecMode(s.Network.IPsec)}
			}
		}
		n.Spec.DefaultNetwork.OVNKubernetesConfig = ovn
	}
	return n, nil
}

func day0Artifact(s *site.Site, minor platform.OCPMinor, p mtu.Plan) (generators.Artifact, error) {
	n, dl := day0Network(s, minor, p)
	if dl != nil {
		return generators.Artifact{}, dl
	}
	b, err := encodeObject(n, s.SourceName())
	if err != nil {
		return generators.Artifact{}, fmt.Errorf("encode %s: %w", day0NetworkManifest, err)
	}
	note := fmt.Sprintf("# The operator network configuration for the installer, cluster MTU %d (%s).\n",
		p.Target, day0Why(p))
	var origin []diag.Position
	for _, l := range p.BindingLinks() {
		origin = append(origin, mtu.LinkPos(s, l.Link))
	}
	origin = diag.Unique(append(origin, s.Positions.Of("mtu.target"), s.Positions.Of("network.type"))...)
	return generators.Artifact{Path: day0NetworkManifest, Role: generators.Day0, Data: append([]byte(note), b...), Comment: "#", Origin: origin}, nil
}

func day0Why(p mtu.Plan) string {
	if p.TargetFromSite {
		return "mtu.target"
	}
	return fmt.Sprintf("smallest link %d - %s overhead %d", p.Smallest, p.OverheadName, p.Overhead)
}
