package rules

import (
	configv1 "github.com/openshift/api/config/v1"
	operatorv1 "github.com/openshift/api/operator/v1"

	"github.com/siteforge/siteforge/lint"
)

func init() {
	lint.RegisterFamily("v1alpha1", nil, []*lint.Rule{
		{
			ID:       "NET001",
			Name:     "network-cidr-overlap",
			Severity: lint.Error,
			Summary:  "cluster, service and machine networks overlap each other or OVN-Kubernetes' internal subnets",
			Rationale: "Pod (clusterNetwork), service (serviceNetwork) and node (machineNetwork) addresses must be disjoint, and with OVN-Kubernetes none of " +
				"them may overlap the subnets OVN-Kubernetes reserves for itself: the join subnet (100.64.0.0/16), the transit switch subnet " +
				"(100.88.0.0/16) and the masquerade subnet (169.254.0.0/17 on new installs) by default (api operator/v1 " +
				"OVNKubernetesConfig ipv4/ipv6 internalJoinSubnet and internalTransitSwitchSubnet, gatewayConfig internalMasqueradeSubnet; " +
				"CNO defaultV4MasqueradeSubnet). Overlapping traffic is misrouted: the cluster installs but pods " +
				"cannot reach the nodes or services behind the overlapping range. A join subnet set in install-config " +
				"(networking.ovnKubernetesConfig.ipv4.internalJoinSubnet) replaces the default one, and the installer refuses networks that overlap it " +
				"(openshift/installer pkg/types/validation/installconfig.go validateOVNIPv4InternalJoinSubnet, validateNetworkNotOverlapDefaultOVNSubnets). " +
				"The same holds for a ClusterInstance and for each cluster of a ZTP SiteConfig (reported at the SiteConfig's line): assisted-service " +
				"writes their networks into the cluster's install-config, and the installer refuses the overlaps (validateNetworking: " +
				"validateClusterNetwork \"cluster network must not overlap with service network\", validateServiceNetwork \"service network must not " +
				"overlap with any of the machine networks\").",
			Fix: "Renumber the network (install-config networking, a ClusterInstance's or SiteConfig cluster's networks, Network.config spec, or the site's network block). When the overlap is with an " +
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
				"removed in 4.17, where CNO rejects it with `unsupported network type \"OpenShiftSDN\"` (4.14-4.17 release notes; CNO). " +
				"Plain manifests without a known release (--ocp-version) are judged by the latest release.",
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
				"`cluster` together with a spec.networkType that differs from status.networkType (CNO from 4.15, documented from 4.16). " +
				"CNO validates it only then, and not while NetworkTypeMigrationInProgress is True. It refuses a target other than " +
				"OVNKubernetes or OpenShiftSDN. Leaving OpenShift SDN (status.networkType OpenShiftSDN; a manifest without status that asks " +
				"for OVNKubernetes is taken as that), it refuses SDN Multitenant mode, a cluster or service network that overlaps an " +
				"OVN-Kubernetes internal subnet or internal subnets that overlap each other (join 100.64.0.0/16, transit switch " +
				"100.88.0.0/16, masquerade 169.254.169.0/29 up to 4.16 and 169.254.0.0/17 from 4.17, unless the operator config moves them; " +
				"an unknown release is judged as 4.16, the last with OpenShift SDN), and any pod annotated " +
				"pod.network.openshift.io/assign-macvlan (egress router pods; siteforge also reports workload pod templates, whose pods carry " +
				"the annotation). CNO reports the first blocker; siteforge reports all it can see (openshift/cluster-network-operator " +
				"pkg/network/cluster_config.go ValidateLiveMigration and validateOVNKubernetesCIDROverlap, pkg/network/ovn_kubernetes.go " +
				"defaultV4MasqueradeSubnet; docs \"Limited live migration to the OVN-Kubernetes network plugin\"). HyperShift clusters are " +
				"refused too, which plain manifests do not show.",
			Fix: "Switch the SDN to NetworkPolicy mode (or use the offline migration), move the overlapping network or OVN-Kubernetes' internal " +
				"subnets first, remove egress router pods, target OVNKubernetes, and upgrade to 4.16 before starting a live migration.",
			Check: checkLiveMigration,
		},
		{
			ID:       "NET004",
			Name:     "geneve-port-is-vxlan",
			Severity: lint.Error,
			Summary:  "ovnKubernetesConfig.genevePort is the VXLAN port 4789",
			Rationale: "UDP 4789 is the VXLAN port: OpenShift SDN's default vxlanPort (CNO fillOpenShiftSDNDefaults) and the port of most " +
				"hypervisor and cloud overlays. A Geneve tunnel on it collides with VXLAN traffic, on the nodes during an SDN migration and on " +
				"the underlay (docs \"Migrating from the OpenShift SDN network plugin\"; CNO). OVN-Kubernetes' default is 6081.",
			Fix:   "Remove genevePort to use the default 6081, or choose another free UDP port.",
			Check: checkGenevePort,
		},
	})
}

// The apiVersions of the network objects.
var (
	operatorNetworkAPIVersion = operatorv1.GroupVersion.String() // operator.openshift.io/v1
	configNetworkAPIVersion   = configv1.GroupVersion.String()   // config.openshift.io/v1
)
