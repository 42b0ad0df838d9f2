package rules

import (
	"github.com/siteforge/siteforge/lint"
)

func init() {
	lint.RegisterFamily("v1alpha1", nil, []*lint.Rule{
		{
			ID:       "MTU001",
			Name:     "cluster-mtu-exceeds-path",
			Severity: lint.Error,
			Summary:  "the cluster MTU plus the overlay overhead is larger than the smallest link overlay traffic crosses",
			Rationale: "The cluster (overlay) MTU must be at most the smallest MTU of any link overlay traffic crosses, over ALL pools, minus the overlay overhead " +
				"(OVN-Kubernetes 100, +46 with IPsec Full; OpenShift SDN 50; CNO getOVNEncapOverhead). AWS carries only 1300 bytes between a Local Zone or " +
				"Wavelength Zone instance and the Region, so a cluster with an edge compute pool needs 1200 (OVN-K) / 1250 (SDN), which the installer " +
				"writes itself only when no MTU is given (openshift/installer pkg/asset/manifests/network.go). Larger packets are dropped: KCS 6996487 " +
				"shows `net/http: TLS handshake timeout` pulling from the internal registry on Local Zone nodes. The same holds for a WAN path to " +
				"remote workers (site paths) and for pools whose uplinks differ (NetworkManager MTU keyfiles of MachineConfigs): the smallest decides. " +
				"When only the 46 IPsec bytes are missing on an uplink, MTU008 reports it. On a running cluster's state (a must-gather or an " +
				"Insights archive) the MTU the cluster applies, Network.config status.clusterNetworkMTU (CNO StatusFromOperatorConfig), is " +
				"checked against its AWS edge nodes (the edge role the installer's edge MachineSets set, or a Local or Wavelength Zone in " +
				"topology.kubernetes.io/zone), and the finding names them with the two-phase migration the cluster's plan gives.",
			Fix: "Set the cluster MTU to the smallest link MTU minus the overhead (1200 for OVN-Kubernetes with an AWS edge pool). On a running " +
				"cluster this is an MTU migration: `siteforge render` writes both phases and the runbook; `siteforge mtu MUST-GATHER` prints the " +
				"plan of a running cluster from its state.",
			Check: checkClusterMTU,
		},
		{
			ID:       "MTU002",
			Name:     "cluster-mtu-below-ipv6-floor",
			Severity: lint.Error,
			Summary:  "a cluster MTU, or a node MTU minus the overlay overhead, below 1280 on a cluster with an IPv6 cluster network",
			Rationale: "IPv6 needs links of at least 1280 bytes (RFC 8200), so CNO raises the cluster MTU floor from 576 to 1280 as soon as any clusterNetwork " +
				"CIDR is IPv6, single- or dual-stack (CNO validateOVNKubernetes and isOVNKubernetesChangeSafe, message `invalid MTU %d`). Every node " +
				"then needs an uplink of at least 1380 bytes (1426 with IPsec Full). The installer's AWS edge pool MTU 1200 is illegal there, so an " +
				"IPv6 or dual-stack OVN-Kubernetes cluster cannot have a Local Zone pool (CNO getOVNEncapOverhead and validateOVNKubernetes; docs \"Changing the cluster network MTU\").",
			Fix: "Raise the cluster MTU to at least 1280 and the node MTUs to at least 1380 (1426 with IPsec), or keep the cluster network IPv4-only. " +
				"Links that carry less (an AWS Local Zone path) cannot be part of an IPv6 cluster.",
			Check: checkIPv6Floor,
		},
		{
			ID:       "MTU003",
			Name:     "cluster-mtu-out-of-range",
			Severity: lint.Error,
			Summary:  "a cluster MTU outside 576..65536, which CNO rejects as invalid",
			Rationale: "CNO accepts a cluster MTU (ovnKubernetesConfig.mtu, openshiftSDNConfig.mtu, and install-config networking.clusterNetworkMTU " +
				"that the installer copies there) only between 576 (RFC 791) and 65536 (CNO pkg/network/mtu.go; validateOVNKubernetes / " +
				"validateOpenShiftSDN, message `invalid MTU %d`). The operator goes Degraded with InvalidOperatorConfig and applies nothing.",
			Fix:   "Use a value inside the range: the smallest link MTU minus the overlay overhead (`siteforge mtu` prints it for a site).",
			Check: checkMTURange,
		},
		{
			ID:       "MTU004",
			Name:     "mtu-migration-rejected",
			Severity: lint.Error,
			Summary:  "an MTU migration (spec.migration.mtu) that CNO rejects",
			Rationale: "CNO checks spec.migration.mtu of Network.operator.openshift.io `cluster` (isOVNKubernetesChangeSafe / isOpenShiftSDNChangeSafe): " +
				"network.from, network.to and machine.to are required; network.from must equal the applied MTU (Network.config " +
				"status.clusterNetworkMTU); network.to and machine.to must lie in 576-65536 (1280-65536 with an IPv6 cluster network); machine.to " +
				"must be at least network.to plus the overlay overhead (100 Geneve, 146 with IPsec Full, 50 VXLAN). A rejected migration leaves " +
				"the operator Degraded (\"Not applying unsafe configuration change\") and nothing rolls (CNO isOVNKubernetesChangeSafe; docs \"Changing the cluster network MTU\"). The messages " +
				"are CNO's own, from siteforge's offline copy of its verdict.",
			Fix: "Correct the field the message names. network.from is `oc get network.config cluster -o jsonpath='{.status.clusterNetworkMTU}'`; " +
				"`siteforge render` of a site with mtu.current writes a migration CNO accepts.",
			Check: checkMTUMigration,
		},
		{
			ID:       "MTU005",
			Name:     "mtu-change-without-migration",
			Severity: lint.Error,
			Summary:  "the cluster MTU changes outside a migration, or phase 2 does not set network.to",
			Rationale: "Outside spec.migration CNO refuses any change of the cluster MTU: `cannot change ovn-kubernetes MTU without migration` " +
				"(`cannot change openshift-sdn mtu without migration`; CNO isOVNKubernetesChangeSafe / isOpenShiftSDNChangeSafe). Once phase 1 " +
				"is reconciled the applied MTU is network.to, so phase 2 (`migration: null`) must set the mtu to exactly network.to: any other " +
				"value, or no value (the spec keeps the old MTU), is that same rejection (CNO isOVNKubernetesChangeSafe; docs \"Changing the cluster network MTU\").",
			Fix:   "Change the MTU with the two-phase migration; in phase 2 set ovnKubernetesConfig.mtu (openshiftSDNConfig.mtu) to phase 1's network.to.",
			Check: checkMTUWithoutMigration,
		},
		{
			ID:       "MTU006",
			Name:     "mtu-migration-no-op",
			Severity: lint.Warning,
			Summary:  "an MTU migration whose network.from equals network.to",
			Rationale: "CNO has no `to != from` check: a migration to the same MTU is accepted, and both phases still roll every MachineConfigPool, " +
				"a reboot of every node per phase, for nothing (CNO isOVNKubernetesChangeSafe; docs \"Changing the cluster network MTU\").",
			Fix:   "Remove the migration, or set network.to to the MTU you want.",
			Check: checkMTUNoOp,
		},
		{
			ID:       "MTU007",
			Name:     "machine-mtu-not-persisted",
			Severity: lint.Warning,
			Summary:  "an MTU migration changes the machine MTU and nothing persists it",
			Rationale: "machine.to is transient: mtu-migration.sh sets it on each boot during the migration and is gone after phase 2. To keep a new " +
				"hardware MTU on NetworkManager platforms, the docs (\"Changing the cluster network MTU\") apply two MachineConfigs between the " +
				"phases, 01-control-plane-interface (role master) and 01-worker-interface (role worker), each writing " +
				"/etc/NetworkManager/conf.d/99-<iface>-mtu.conf with ethernet.mtu=<machine.to> (alternatives: DHCP option 26, kernel " +
				"arguments). Without them the nodes return to the old MTU at the next reboot while the cluster MTU expects the new one.",
			Fix: "Add the two NetworkManager keyfile MachineConfigs (`siteforge render` writes them with the migration), or make DHCP or the kernel " +
				"command line carry the new MTU. Custom pools that do not inherit worker need their own.",
			Check: checkMachineMTUPersisted,
		},
		{
			ID:       "MTU008",
			Name:     "ipsec-without-mtu-headroom",
			Severity: lint.Error,
			Summary:  "IPsec Full is enabled with a cluster MTU that leaves fewer than 146 bytes to the uplink",
			Rationale: "IPsec mode Full (an ipsecConfig with an empty mode counts as Full) adds the 46-byte ESP header to the 100-byte Geneve overhead " +
				"(CNO getOVNEncapOverhead). A cluster sized for Geneve alone (uplink - 100) drops full-size packets once IPsec is on; CNO does NOT " +
				"check it when IPsec is enabled on day 2, only the docs do (CNO getOVNEncapOverhead and validateOVNKubernetes; docs \"Changing the cluster network MTU\"). The uplink is known from NetworkManager MTU " +
				"keyfiles, the site's pools, or the platform default (AWS 9001 inside a VPC, Azure 1500).",
			Fix:   "Lower the cluster MTU to the uplink MTU minus 146 (an MTU migration on a running cluster) before enabling IPsec, or raise the uplinks.",
			Check: checkIPsecHeadroom,
		},
		{
			ID:       "MTU009",
			Name:     "machine-mtu-above-platform-max",
			Severity: lint.Error,
			Summary:  "a node (machine) MTU above what the cloud platform carries",
			Rationale: "Cloud networks have a hard maximum frame size: AWS 9001 inside a VPC (AWS EC2 docs \"Network maximum transmission unit\"), " +
				"Google Cloud 8896 (VPC docs \"Maximum transmission unit\"), Azure 9000 with MANA NICs (1500 by default). " +
				"A larger machine MTU makes the NIC send frames the network drops, and a cluster MTU planned from it does not fit either.",
			Fix:   "Use at most the platform's maximum for the uplink (uplinkMTU, mtu.machine, machine.to or the keyfile's ethernet.mtu).",
			Check: checkPlatformMaxMTU,
		},
		{
			ID:       "MTU010",
			Name:     "mixed-uplinks-without-cluster-mtu",
			Severity: lint.Warning,
			Summary:  "node uplinks have different MTUs and the install sets no cluster MTU",
			Rationale: "At install time CNO probes the default-route link of ONE node and sets the cluster MTU from it; it never changes later. With " +
				"uplinks of different MTUs it can pick a value that only the larger ones carry (CNO getOVNEncapOverhead and validateOVNKubernetes; docs \"Changing the cluster network MTU\"). The cluster MTU must then " +
				"be set explicitly, in the operator Network manifest the installer takes (manifests/cluster-network-03-config.yml).",
			Fix: "Set the cluster MTU explicitly: the smallest uplink MTU minus the overlay overhead. For a site, set mtu.target or copy the " +
				"rendered install/manifests/cluster-network-03-config.yml into the installer's manifests.",
			Check: checkMixedUplinks,
		},
		{
			ID:       "MTU011",
			Name:     "network-type-and-mtu-migration",
			Severity: lint.Error,
			Summary:  "an offline network type migration and an MTU migration in the same spec.migration",
			Rationale: "The Network.operator CRD rejects spec.migration with both mtu and a networkType in a mode other than Live: `networkType migration " +
				"in mode other than 'Live' may not be configured at the same time as mtu migration` (openshift/api operator/v1 NetworkMigration " +
				"XValidation). The patch never reaches CNO.",
			Fix:   "Run the MTU migration to its end first, then the network type migration (the offline migration to OVN-Kubernetes sets the MTU itself).",
			Check: checkTypeAndMTUMigration,
		},
		{
			ID:       "MTU013",
			Name:     "mtu-migration-during-live-type-migration",
			Severity: lint.Error,
			Summary:  "an MTU migration in git next to a live network type migration",
			Rationale: "During a live network type migration (Network.config annotated network.openshift.io/network-type-migration) CNO's " +
				"cluster config controller writes Network.operator spec.migration itself: mode Live and networkType, then the routable MTU " +
				"as spec.migration.mtu, then nothing once the migration ends (openshift/cluster-network-operator release-4.16 " +
				"pkg/controller/clusterconfig/migration.go prepareOperatorConfigForNetworkTypeMigration, applied server-side as " +
				"\"clusterconfig\"). A spec.migration.mtu from git is overwritten by CNO and written back by every sync (Argo CD forces " +
				"conflicts), so the two migrations fight over the same field. The CRD allows the combination (mode Live), CNO's procedure " +
				"does not (docs \"Migrating from the OpenShift SDN network plugin\": no MTU migration in progress).",
			Fix: "Finish the MTU migration first (phase 2 applied, spec.migration gone), then start the live migration, which lowers the " +
				"cluster MTU by 50 itself; or drop the MTU migration from git until the live migration is over.",
			Check: checkMTUMigrationDuringLiveMigration,
		},
		{
			ID:       "MTU014",
			Name:     "mtu-migration-unfinished",
			Severity: lint.Warning,
			Summary:  "a running cluster's MTU migration stopped halfway: phase 1 not on every node, phase 2 not applied, or phase 2 not on every node",
			Rationale: "An MTU migration is two phases, each rolled out by every MachineConfigPool (docs \"Changing the cluster network MTU\"): phase 1 " +
				"sets Network.operator spec.migration.mtu, and MCO renders mtu-migration.service into every pool's config (machine-config-operator " +
				"templates/common/_base/units/mtu-migration.service.yaml, CNI_TARGET_MTU network.to, TARGET_MTU machine.to), which sets temporary " +
				"MTUs at each boot; phase 2, once every pool is updated, removes spec.migration and sets the new MTU, and MCO renders the " +
				"configs without the unit. Until phase 2 has reached every node, the cluster MTU (Network.config status.clusterNetworkMTU, " +
				"CNO StatusFromOperatorConfig) is still the old one. Read from a running cluster's state: spec.migration against each pool's " +
				"status (its rendered config, status.configuration, and how many machines are updated) and the rendered configs themselves.",
			Fix: "Phase 1 behind: wait for the pools, or fix the one that is degraded (MCF008 names a config siteforge flags) or paused. Phase 1 " +
				"everywhere: apply phase 2 (the finding gives the patch). Phase 2 behind: wait for the pools, or fix the one that is degraded.",
			Check: checkMTUMigrationUnfinished,
		},
		{
			ID:       "MTU012",
			Name:     "install-config-cluster-mtu-refused",
			Severity: lint.Error,
			Summary:  "install-config networking.clusterNetworkMTU that the installer refuses",
			Rationale: "networking.clusterNetworkMTU is the installer's own field and the installer checks it before CNO sees it: it is " +
				"allowed only on platform aws, must lie in 1000..9001 (9001 is the AWS in-VPC MTU; below 1000 performance collapses, " +
				"OCPBUGS-11098), is valid only with networkType OVNKubernetes, and with OVN-Kubernetes is at most 8901 (9001 minus the " +
				"100-byte Geneve overhead). The first failing check is the installer's error and `openshift-install` stops " +
				"(openshift/installer pkg/types/validation/installconfig.go validateNetworkingClusterNetworkMTU). CNO's own range " +
				"576..65536 (MTU003) applies after it.",
			Fix: "On AWS with OVN-Kubernetes use a value in 1000..8901 (1200 with a Local Zone / Wavelength Zone edge pool). On " +
				"other platforms remove it and set the MTU in the operator Network manifest (manifests/cluster-network-03-config.yml, " +
				"ovnKubernetesConfig.mtu).",
			Check: checkInstallerClusterMTU,
		},
	})
}
