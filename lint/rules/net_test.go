package rules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/siteforge/siteforge/internal/discover"
	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/lint"
)

// Fixtures of the NET family.

const installConfigSDN = `apiVersion: v1
baseDomain: example.com
metadata:
  name: sdn
platform:
  baremetal: {}
networking:
  networkType: OpenShiftSDN
`

const liveMigrationConfig = `apiVersion: config.openshift.io/v1
kind: Network
metadata:
  name: cluster
  annotations:
    network.openshift.io/network-type-migration: ""
spec:
  networkType: OVNKubernetes
  clusterNetwork:
  - cidr: 10.128.0.0/14
    hostPrefix: 23
  serviceNetwork:
  - %SERVICE%
`

const sdnOperatorConfig = `apiVersion: operator.openshift.io/v1
kind: Network
metadata:
  name: cluster
spec:
  defaultNetwork:
    type: OpenShiftSDN
    openshiftSDNConfig:
      mode: %MODE%
`

// cnoLiveMigrationConfig is the Network.config of CNO's
// TestValidClusterConfigLiveMigration (openshift/cluster-network-operator
// pkg/network/cluster_config_test.go, release-4.16: ClusterConfig with
// NetworkType OVNKubernetes, the migration annotation and status.networkType
// OpenShiftSDN). %TYPE% is spec.networkType, %STATUS% the status block.
const cnoLiveMigrationConfig = `apiVersion: config.openshift.io/v1
kind: Network
metadata:
  name: cluster
  annotations:
    network.openshift.io/network-type-migration: ""
spec:
  networkType: %TYPE%
  clusterNetwork:
  - cidr: 10.0.0.0/22
    hostPrefix: 24
  - cidr: 10.2.0.0/22
    hostPrefix: 23
  serviceNetwork:
  - %SERVICE%
status:
%STATUS%
`

// cnoMigration fills cnoLiveMigrationConfig.
func cnoMigration(networkType, service, status string) string {
	return strings.NewReplacer("%TYPE%", networkType, "%SERVICE%", service, "%STATUS%", status).Replace(cnoLiveMigrationConfig)
}

const (
	statusSDN        = "  networkType: OpenShiftSDN"
	statusOVN        = "  networkType: OVNKubernetes"
	statusInProgress = "  networkType: OpenShiftSDN\n  conditions:\n  - type: NetworkTypeMigrationInProgress\n    status: \"True\""
)

// egressRouterPod is CNO's test pod: any value of the annotation counts
// (ListAllPodsWithAnnotationKey checks the key only).
const egressRouterPod = `apiVersion: v1
kind: Pod
metadata:
  name: egress-router
  namespace: egress
  annotations:
    pod.network.openshift.io/assign-macvlan: "true"
spec:
  containers:
  - name: router
    image: registry.redhat.io/openshift4/ose-egress-router@sha256:0000000000000000000000000000000000000000000000000000000000000000
`

const egressRouterDeployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: egress-router
  namespace: egress
spec:
  template:
    metadata:
      annotations:
        pod.network.openshift.io/assign-macvlan: ""
    spec:
      containers:
      - name: router
        image: registry.redhat.io/openshift4/ose-egress-router@sha256:0000000000000000000000000000000000000000000000000000000000000000
`

func init() {
	ruleCases = append(ruleCases,
		// NET001: overlaps
		ruleCase{rule: "NET001", name: "service network inside the cluster network", files: map[string]string{
			"install-config.yaml": strings.Replace(installConfigBareMetal, "  - 172.30.0.0/16", "  - 10.130.0.0/16", 1),
		}, want: []string{"install-config.yaml:13:5: error: serviceNetwork 10.130.0.0/16 overlaps clusterNetwork 10.128.0.0/14: pod, service and node addresses must be disjoint"}},
		ruleCase{rule: "NET001", name: "machine network on the OVN join subnet", files: map[string]string{
			"install-config.yaml": strings.Replace(installConfigBareMetal, "192.168.10.0/24", "100.64.10.0/24", 1),
		}, want: []string{"install-config.yaml:15:11: error: machineNetwork 100.64.10.0/24 overlaps OVN-Kubernetes' internal join subnet 100.64.0.0/16"}},
		ruleCase{rule: "NET001", name: "join subnet moved away", files: map[string]string{
			"install-config.yaml": strings.Replace(installConfigBareMetal, "192.168.10.0/24", "100.64.10.0/24", 1),
			"manifests/cluster-network-03-config.yml": operatorNetwork + `  defaultNetwork:
    ovnKubernetesConfig:
      ipv4:
        internalJoinSubnet: 100.66.0.0/16
`,
		}},
		ruleCase{rule: "NET001", name: "OpenShift SDN does not reserve OVN's subnets", files: map[string]string{
			"install-config.yaml": strings.Replace(strings.Replace(installConfigBareMetal, "192.168.10.0/24", "100.64.10.0/24", 1), "OVNKubernetes", "OpenShiftSDN", 1),
		}},
		ruleCase{rule: "NET001", name: "installer defaults", files: map[string]string{
			"install-config.yaml": installConfigBareMetal,
		}},

		// NET002: OpenShift SDN by release (unknown: the latest)
		ruleCase{rule: "NET002", name: "SDN install-config, release unknown", files: map[string]string{
			"install-config.yaml": installConfigSDN,
		}, want: []string{"install-config.yaml:8:16: error: networkType OpenShiftSDN cannot be installed on the latest OpenShift release (no version known: pass --ocp-version): new installs cannot choose it from 4.15"}},
		ruleCase{rule: "NET002", name: "OVN-Kubernetes install-config", files: map[string]string{
			"install-config.yaml": installConfigBareMetal,
		}},

		// NET003: live migration blockers
		ruleCase{rule: "NET003", name: "service network on the transit switch subnet", files: map[string]string{
			"network-config.yaml": strings.Replace(liveMigrationConfig, "%SERVICE%", "100.88.0.0/16", 1),
		}, want: []string{"network-config.yaml:13:5: error: serviceNetwork 100.88.0.0/16 overlaps OVN-Kubernetes' internal transit switch subnet 100.88.0.0/16: the live migration started by network.openshift.io/network-type-migration in network-config.yaml:6:5 is refused on it"}},
		ruleCase{rule: "NET003", name: "Multitenant SDN", files: map[string]string{
			"network-config.yaml": strings.Replace(liveMigrationConfig, "%SERVICE%", "172.30.0.0/16", 1),
			"network.yaml":        strings.Replace(sdnOperatorConfig, "%MODE%", "Multitenant", 1),
		}, want: []string{"network.yaml:9:13: error: openshiftSDNConfig.mode Multitenant blocks the live migration"}},
		ruleCase{rule: "NET003", name: "NetworkPolicy SDN, default networks", files: map[string]string{
			"network-config.yaml": strings.Replace(liveMigrationConfig, "%SERVICE%", "172.30.0.0/16", 1),
			"network.yaml":        strings.Replace(sdnOperatorConfig, "%MODE%", "NetworkPolicy", 1),
		}},
		// From CNO TestValidClusterConfigLiveMigration (release-4.16):
		ruleCase{rule: "NET003", name: "CNO: migrate to an unsupported cni", files: map[string]string{
			"network-config.yaml": cnoMigration("None", "192.168.0.0/20", statusSDN),
		}, want: []string{`network-config.yaml:8:16: error: spec.networkType None: CNO refuses the live migration started by network.openshift.io/network-type-migration in network-config.yaml:6:5 ("network type live migration is only supported for OVNKubernetes and OpenShiftSDN CNI")`}},
		ruleCase{rule: "NET003", name: "CNO: no error when standalone cluster and migration label applied", files: map[string]string{
			"network-config.yaml": cnoMigration("OVNKubernetes", "192.168.0.0/20", statusSDN),
			"network.yaml":        strings.Replace(sdnOperatorConfig, "%MODE%", "NetworkPolicy", 1),
		}},
		ruleCase{rule: "NET003", name: "CNO: cluster network overlaps v4InternalSubnet", files: map[string]string{
			"network-config.yaml": cnoMigration("OVNKubernetes", "192.168.0.0/20", statusSDN),
			"network.yaml":        operatorNetwork + "  defaultNetwork:\n    type: OpenShiftSDN\n    ovnKubernetesConfig:\n      v4InternalSubnet: 10.2.2.0/24\n",
		}, want: []string{"network-config.yaml:12:11: error: clusterNetwork 10.2.0.0/22 overlaps OVN-Kubernetes' internal join subnet 10.2.2.0/24 (set in the operator config): the live migration started by"}},
		ruleCase{rule: "NET003", name: "CNO: service network overlaps internalTransitSwitchSubnet", files: map[string]string{
			"network-config.yaml": cnoMigration("OVNKubernetes", "192.168.0.0/20", statusSDN),
			"network.yaml":        operatorNetwork + "  defaultNetwork:\n    type: OpenShiftSDN\n    ovnKubernetesConfig:\n      ipv4:\n        internalTransitSwitchSubnet: 192.0.0.0/8\n",
		}, want: []string{"network-config.yaml:15:5: error: serviceNetwork 192.168.0.0/20 overlaps OVN-Kubernetes' internal transit switch subnet 192.0.0.0/8 (set in the operator config)"}},
		ruleCase{rule: "NET003", name: "CNO: service network overlaps the default v6 transit switch subnet", files: map[string]string{
			"network-config.yaml": strings.Replace(cnoMigration("OVNKubernetes", "fd97::/48", statusSDN),
				"  - cidr: 10.0.0.0/22\n    hostPrefix: 24\n  - cidr: 10.2.0.0/22\n    hostPrefix: 23\n", "  - cidr: fd00:1234::/48\n    hostPrefix: 64\n", 1),
		}, want: []string{"network-config.yaml:13:5: error: serviceNetwork fd97::/48 overlaps OVN-Kubernetes' internal transit switch subnet fd97::/64"}},
		ruleCase{rule: "NET003", name: "CNO: egress router pod", files: map[string]string{
			"network-config.yaml": cnoMigration("OVNKubernetes", "192.168.0.0/20", statusSDN),
			"pod.yaml":            egressRouterPod,
		}, want: []string{`pod.yaml:7:46: error: Pod egress-router carries pod.network.openshift.io/assign-macvlan: it is an egress router pod, and CNO refuses the live migration`}},
		ruleCase{rule: "NET003", name: "egress router deployment", files: map[string]string{
			"network-config.yaml": cnoMigration("OVNKubernetes", "192.168.0.0/20", statusSDN),
			"deploy.yaml":         egressRouterDeployment,
		}, want: []string{`deploy.yaml:10:50: error: the pod template of Deployment egress-router carries pod.network.openshift.io/assign-macvlan`}},
		// internal subnets against each other (the pairwise loop of
		// validateOVNKubernetesCIDROverlap)
		ruleCase{rule: "NET003", name: "join subnet moved onto the transit switch subnet", files: map[string]string{
			"network-config.yaml": cnoMigration("OVNKubernetes", "192.168.0.0/20", statusSDN),
			"network.yaml":        operatorNetwork + "  defaultNetwork:\n    type: OpenShiftSDN\n    ovnKubernetesConfig:\n      ipv4:\n        internalJoinSubnet: 100.88.0.0/24\n",
		}, want: []string{"network.yaml:10:29: error: OVN-Kubernetes' internal join subnet 100.88.0.0/24 (set in the operator config) overlaps OVN-Kubernetes' internal transit switch subnet 100.88.0.0/16: the live migration started by"}},
		// CNO validates nothing when spec.networkType == status.networkType
		// ("If the migration is completed or is already progressing do not
		// run the validation"), nor while NetworkTypeMigrationInProgress is
		// True, and checks the SDN blockers only when leaving OpenShift SDN.
		ruleCase{rule: "NET003", name: "CNO: spec equals status, blockers present", files: map[string]string{
			"network-config.yaml": cnoMigration("OVNKubernetes", "100.88.0.0/16", statusOVN),
			"pod.yaml":            egressRouterPod,
		}},
		ruleCase{rule: "NET003", name: "CNO: migration in progress, blockers present", files: map[string]string{
			"network-config.yaml": cnoMigration("OVNKubernetes", "100.88.0.0/16", statusInProgress),
			"pod.yaml":            egressRouterPod,
		}},
		ruleCase{rule: "NET003", name: "rollback to OpenShift SDN, SDN blockers not checked", files: map[string]string{
			"network-config.yaml": cnoMigration("OpenShiftSDN", "100.88.0.0/16", statusOVN),
			"network.yaml":        strings.Replace(sdnOperatorConfig, "%MODE%", "Multitenant", 1),
			"pod.yaml":            egressRouterPod,
		}},
		ruleCase{rule: "NET003", name: "unknown release: the 4.16 masquerade subnet", files: map[string]string{
			"network-config.yaml": cnoMigration("OVNKubernetes", "169.254.100.0/24", statusSDN),
		}},
		ruleCase{rule: "NET003", name: "egress router pod without a migration", files: map[string]string{
			"pod.yaml": egressRouterPod,
		}},

		// NET004: genevePort
		ruleCase{rule: "NET004", name: "genevePort 4789", files: map[string]string{
			"network.yaml": operatorNetwork + "  defaultNetwork:\n    ovnKubernetesConfig:\n      genevePort: 4789\n",
		}, want: []string{"network.yaml:8:19: error: genevePort 4789 is the VXLAN port (OpenShift SDN's default vxlanPort): Geneve and VXLAN traffic collide on it; remove genevePort to use the default 6081"}},
		ruleCase{rule: "NET004", name: "genevePort 6081", files: map[string]string{
			"network.yaml": operatorNetwork + "  defaultNetwork:\n    ovnKubernetesConfig:\n      genevePort: 6081\n",
		}},

		// install-config networking.ovnKubernetesConfig, from openshift/installer
		// pkg/types/validation/installconfig_test.go TestValidateInstallConfig
		ruleCase{rule: "NET001", name: "machine network overlapping the install-config join subnet (installer test: overlapping machine network and user-provided IPv4 InternalJoinSubnet)", files: map[string]string{
			"install-config.yaml": installConfigBareMetal + installJoinSubnetYAML("192.168.0.0/16"),
		}, want: []string{"install-config.yaml:15:11: error: machineNetwork 192.168.10.0/24 overlaps OVN-Kubernetes' internal join subnet 192.168.0.0/16 (set in install-config)"}},
		ruleCase{rule: "NET001", name: "install-config moves the join subnet off the machine network", files: map[string]string{
			"install-config.yaml": strings.Replace(installConfigBareMetal, "192.168.10.0/24", "100.64.10.0/24", 1) + installJoinSubnetYAML("100.66.0.0/16"),
		}},
		ruleCase{rule: "NET005", name: "join subnet too small (installer test: user-provided IPv4 InternalJoinSubnet too small)", files: map[string]string{
			"install-config.yaml": installConfigBareMetal + installJoinSubnetYAML("100.64.0.0/24"),
		}, want: []string{"install-config.yaml:18:27: error: internalJoinSubnet 100.64.0.0/24 has room for 253 nodes, but the IPv4 cluster networks can have 512"}},
		ruleCase{rule: "NET005", name: "join subnet with host bits (installer test: invalid user-provided IPv4 InternalJoinSubnet)", files: map[string]string{
			"install-config.yaml": installConfigBareMetal + installJoinSubnetYAML("100.66.2.0/16"),
		}, want: []string{"install-config.yaml:18:27: error: internalJoinSubnet 100.66.2.0/16 is not a network address: the installer expects 100.66.0.0/16"}},
		ruleCase{rule: "NET005", name: "ovnKubernetesConfig without OVN-Kubernetes", files: map[string]string{
			"install-config.yaml": strings.Replace(installConfigBareMetal, "OVNKubernetes", "OpenShiftSDN", 1) + installJoinSubnetYAML("100.66.0.0/16"),
		}, want: []string{"install-config.yaml:8:16: error: networking.ovnKubernetesConfig is set with networkType OpenShiftSDN"}},
		ruleCase{rule: "NET005", name: "join subnet large enough", files: map[string]string{
			"install-config.yaml": installConfigBareMetal + installJoinSubnetYAML("100.64.0.0/22"),
		}},

		// install-config proxy addresses, from openshift/installer
		// pkg/types/validation/installconfig.go validateIPProxy and
		// installconfig_test.go TestValidateInstallConfig
		ruleCase{rule: "NET006", name: "proxy in the install-config join subnet (installer test: HTTPProxy overlapping with user-provided IPv4 Internal Join Subnet)", files: map[string]string{
			"install-config.yaml": installConfigBareMetal + installJoinSubnetYAML("100.64.0.0/16") + "proxy:\n  httpProxy: http://100.64.1.2:3030\n",
		}, want: []string{"install-config.yaml:20:14: error: proxy http://100.64.1.2:3030 is inside the OVN-Kubernetes join subnet 100.64.0.0/16 set in networking.ovnKubernetesConfig"}},
		ruleCase{rule: "NET006", name: "https proxy in the cluster and service networks", files: map[string]string{
			"install-config.yaml": installConfigBareMetal + "proxy:\n  httpProxy: http://10.128.0.1:3128\n  httpsProxy: https://172.30.0.9:3128\n",
		}, want: []string{
			"install-config.yaml:17:14: error: proxy http://10.128.0.1:3128 is inside clusterNetwork 10.128.0.0/14",
			"install-config.yaml:18:15: error: proxy https://172.30.0.9:3128 is inside serviceNetwork 172.30.0.0/16",
		}},
		ruleCase{rule: "NET006", name: "proxy in the default join subnet, which the installer does not check", files: map[string]string{
			"install-config.yaml": installConfigBareMetal + "proxy:\n  httpProxy: http://100.64.1.2:3030\n  httpsProxy: http://proxy.example.com:3128\n",
		}},
	)

	siteCases = append(siteCases,
		// CNO's default masquerade subnet is 169.254.169.0/29 up to
		// release-4.16 and 169.254.0.0/17 from release-4.17
		// (pkg/network/ovn_kubernetes.go defaultV4MasqueradeSubnet).
		siteCase{rule: "NET001", name: "service network on the OVN masquerade subnet", site: siteYAML("4.17", "baremetal", "install", `network:
  machineNetwork: [10.0.0.0/24]
  serviceNetwork: [169.254.0.0/16]
pools:
  master: {uplinkInterface: eno1, uplinkMTU: 1500, count: 3}
`), want: []string{"site.yaml:12:20: error: serviceNetwork 169.254.0.0/16 overlaps OVN-Kubernetes' internal masquerade subnet 169.254.0.0/17"}},
		siteCase{rule: "NET001", name: "service network on the 4.16 masquerade subnet", site: siteYAML("4.16", "baremetal", "install", `network:
  machineNetwork: [10.0.0.0/24]
  serviceNetwork: [169.254.0.0/16]
pools:
  master: {uplinkInterface: eno1, uplinkMTU: 1500, count: 3}
`), want: []string{"site.yaml:12:20: error: serviceNetwork 169.254.0.0/16 overlaps OVN-Kubernetes' internal masquerade subnet 169.254.169.0/29"}},
		siteCase{rule: "NET001", name: "service network beside the 4.16 masquerade subnet", site: siteYAML("4.16", "baremetal", "install", `network:
  machineNetwork: [10.0.0.0/24]
  serviceNetwork: [169.254.100.0/24]
pools:
  master: {uplinkInterface: eno1, uplinkMTU: 1500, count: 3}
`)},
		siteCase{rule: "NET001", name: "pool subnet inside the cluster network", site: siteYAML("4.16", "baremetal", "install", `network:
  machineNetwork: [10.0.0.0/8]
pools:
  master: {uplinkInterface: eno1, uplinkMTU: 1500, count: 3, subnets: [10.128.1.0/24]}
`), want: []string{
			"site.yaml:11:20: error: machineNetwork 10.0.0.0/8 overlaps clusterNetwork 10.128.0.0/14",
			"site.yaml:13:72: error: subnet of pool master 10.128.1.0/24 overlaps clusterNetwork 10.128.0.0/14",
		}},
		siteCase{rule: "NET001", name: "disjoint networks", site: siteYAML("4.16", "baremetal", "install", `network:
  machineNetwork: [10.0.0.0/24]
pools:
  master: {uplinkInterface: eno1, uplinkMTU: 1500, count: 3, subnets: [10.0.0.0/25]}
`)},
		siteCase{rule: "NET002", name: "running SDN on 4.17", site: siteYAML("4.17", "baremetal", "running", `network:
  type: OpenShiftSDN
  machineNetwork: [10.0.0.0/24]
pools:
  master: {uplinkInterface: eno1, uplinkMTU: 1500, count: 3}
`), want: []string{`site.yaml:11:9: error: network.type OpenShiftSDN on OpenShift 4.17 (from the site's cluster.version): OpenShift SDN was removed in 4.17 and CNO rejects it (unsupported network type "OpenShiftSDN")`}},
		siteCase{rule: "NET002", name: "running SDN on 4.16", site: siteYAML("4.16", "baremetal", "running", `network:
  type: OpenShiftSDN
  machineNetwork: [10.0.0.0/24]
pools:
  master: {uplinkInterface: eno1, uplinkMTU: 1500, count: 3}
`)},
	)
}

// versionCase is a plain-manifest fixture linted for a known release
// (--ocp-version).
type versionCase struct {
	rule, name string
	minor      platform.OCPMinor
	files      map[string]string
	want       []string
}

var versionCases = []versionCase{
	{rule: "NET002", name: "SDN install-config on 4.15", minor: 15, files: map[string]string{"install-config.yaml": installConfigSDN},
		want: []string{"install-config.yaml:8:16: error: networkType OpenShiftSDN cannot be installed on OpenShift 4.15 (from --ocp-version)"}},
	{rule: "NET002", name: "SDN install-config on 4.14", minor: 14, files: map[string]string{"install-config.yaml": installConfigSDN}},
	{rule: "NET002", name: "SDN operator config on 4.17", minor: 17, files: map[string]string{"network.yaml": strings.Replace(sdnOperatorConfig, "%MODE%", "NetworkPolicy", 1)},
		want: []string{`network.yaml:7:11: error: OpenShift SDN on OpenShift 4.17 (from --ocp-version): it was removed in 4.17 and CNO rejects it (unsupported network type "OpenShiftSDN")`}},
	{rule: "NET002", name: "SDN operator config on 4.16", minor: 16, files: map[string]string{"network.yaml": strings.Replace(sdnOperatorConfig, "%MODE%", "NetworkPolicy", 1)}},
	// CNO's deprecated spelling OpenshiftSDN (CNO pkg/apis/networkoperator/v1
	// NetworkTypeDeprecatedOpenshiftSDN) is OpenShift SDN: CNO
	// pkg/network/render.go DeprecatedCanonicalize matches the type without
	// case before Validate refuses it, in Network.operator and in the
	// spec.networkType MergeClusterConfig copies from Network.config.
	{rule: "NET002", name: "CNO: operator config spelled OpenshiftSDN on 4.17", minor: 17, files: map[string]string{"network.yaml": strings.Replace(strings.Replace(sdnOperatorConfig, "%MODE%", "NetworkPolicy", 1), "type: OpenShiftSDN", "type: "+platform.DeprecatedOpenshiftSDN, 1)},
		want: []string{`network.yaml:7:11: error: OpenShift SDN on OpenShift 4.17 (from --ocp-version): it was removed in 4.17 and CNO rejects it (unsupported network type "OpenShiftSDN")`}},
	{rule: "NET002", name: "CNO: Network.config spelled OpenshiftSDN on 4.17", minor: 17, files: map[string]string{"network-config.yaml": "apiVersion: config.openshift.io/v1\nkind: Network\nmetadata:\n  name: cluster\nspec:\n  networkType: OpenshiftSDN\n"},
		want: []string{`network-config.yaml:6:16: error: OpenShift SDN on OpenShift 4.17 (from --ocp-version): it was removed in 4.17`}},
	{rule: "NET002", name: "CNO: operator config spelled ovnkubernetes on 4.17", minor: 17, files: map[string]string{"network.yaml": strings.Replace(strings.Replace(sdnOperatorConfig, "%MODE%", "NetworkPolicy", 1), "type: OpenShiftSDN", "type: ovnkubernetes", 1)}},
	{rule: "NET003", name: "live migration on 4.14", minor: 14, files: map[string]string{"network-config.yaml": strings.Replace(liveMigrationConfig, "%SERVICE%", "172.30.0.0/16", 1)},
		want: []string{"network-config.yaml:6:50: error: the live migration needs OpenShift 4.15 or later (documented from 4.16), this is 4.14 (from --ocp-version)"}},
	{rule: "NET003", name: "live migration on 4.16", minor: 16, files: map[string]string{"network-config.yaml": strings.Replace(liveMigrationConfig, "%SERVICE%", "172.30.0.0/16", 1)}},
	// the masquerade subnet ValidateLiveMigration checks: CNO release-4.16
	// defaultV4MasqueradeSubnet 169.254.169.0/29, release-4.17 169.254.0.0/17
	{rule: "NET003", name: "service network on the 4.16 masquerade subnet", minor: 16, files: map[string]string{"network-config.yaml": cnoMigration("OVNKubernetes", "169.254.169.0/28", statusSDN)},
		want: []string{"network-config.yaml:15:5: error: serviceNetwork 169.254.169.0/28 overlaps OVN-Kubernetes' internal masquerade subnet 169.254.169.0/29: the live migration started by"}},
	{rule: "NET003", name: "service network beside the 4.16 masquerade subnet", minor: 16, files: map[string]string{"network-config.yaml": cnoMigration("OVNKubernetes", "169.254.100.0/24", statusSDN)}},
	{rule: "NET003", name: "service network inside the 4.17 masquerade subnet", minor: 17, files: map[string]string{"network-config.yaml": cnoMigration("OVNKubernetes", "169.254.100.0/24", statusSDN)},
		want: []string{"network-config.yaml:15:5: error: serviceNetwork 169.254.100.0/24 overlaps OVN-Kubernetes' internal masquerade subnet 169.254.0.0/17: the live migration started by"}},
	// GetMasqueradeSubnet (release-4.15 to release-4.18) assigns
	// gatewayConfig.ipv6.internalMasqueradeSubnet to its IPv4 result, so
	// ValidateLiveMigration compares it with the default IPv6 one.
	{rule: "NET003", name: "CNO: IPv6 masquerade subnet in the IPv4 slot", minor: 16, files: map[string]string{
		"network-config.yaml": cnoMigration("OVNKubernetes", "192.168.0.0/20", statusSDN),
		"network.yaml":        operatorNetwork + "  defaultNetwork:\n    type: OpenShiftSDN\n    ovnKubernetesConfig:\n      gatewayConfig:\n        ipv6:\n          internalMasqueradeSubnet: fd69::/112\n",
	}, want: []string{"network.yaml:11:37: error: OVN-Kubernetes' internal masquerade subnet fd69::/112 (set in the operator config) overlaps OVN-Kubernetes' internal masquerade subnet fd69::/125"}},
}

func TestVersionRuleCases(t *testing.T) {
	for _, tc := range versionCases {
		t.Run(tc.rule+"/"+tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, content := range tc.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			t.Chdir(dir)
			found := discover.Paths([]string{"."}, discover.Options{})
			// one set: loose manifests, or one installation folder (a
			// fixture holding install-config.yaml)
			objs := found.Loose
			if len(found.Clusters) == 1 && len(objs) == 0 {
				objs = found.Clusters[0].Objects
			}
			if len(found.Problems) > 0 || len(found.Clusters) > 1 || len(found.Clusters) == 1 && len(found.Loose) > 0 {
				t.Fatalf("fixture does not read as one set: %+v", found)
			}
			res, err := lint.Run(&lint.Input{Objects: objs, Minor: tc.minor}, lint.Options{Enable: []string{tc.rule}})
			if err != nil {
				t.Fatal(err)
			}
			checkFindings(t, res, tc.want)
		})
	}
}

// TestDeprecatedInstallConfigNetworking: an install-config written with the
// deprecated networking fields gets the same findings as one written with
// their replacements, at the deprecated field (openshift/installer
// pkg/types/conversion/installconfig.go convertNetworking, test
// TestConvertInstallConfig "old networking").
func TestDeprecatedInstallConfigNetworking(t *testing.T) {
	const head = "apiVersion: v1\nbaseDomain: example.com\nmetadata:\n  name: old\nplatform:\n  baremetal: {}\nnetworking:\n"
	rules := []string{"NET001", "NET002", "NET003", "MTU002", "MTU003", "MTU012"}
	for _, tc := range []struct {
		name          string
		current, old  string
		wantAtOldKeys []string // positions of the deprecated fields' findings
	}{
		{"OpenShift SDN on 4.15",
			"  networkType: OpenShiftSDN\n",
			"  type: OpenShiftSDN\n",
			[]string{"install-config.yaml:8:9: error: type OpenShiftSDN cannot be installed on OpenShift 4.15"}},
		{"machine network on the join subnet, service network inside the cluster network",
			"  clusterNetwork:\n  - cidr: 10.128.0.0/14\n    hostPrefix: 23\n  serviceNetwork:\n  - 10.130.0.0/16\n  machineNetwork:\n  - cidr: 100.64.10.0/24\n",
			"  clusterNetworks:\n  - cidr: 10.128.0.0/14\n    hostSubnetLength: 9\n  serviceCIDR: 10.130.0.0/16\n  machineCIDR: 100.64.10.0/24\n",
			[]string{
				"install-config.yaml:11:16: error: serviceNetwork 10.130.0.0/16 overlaps clusterNetwork 10.128.0.0/14",
				"install-config.yaml:12:16: error: machineNetwork 100.64.10.0/24 overlaps OVN-Kubernetes' internal join subnet 100.64.0.0/16",
			}},
		{"IPv6 cluster network with clusterNetworkMTU 1200",
			"  clusterNetwork:\n  - cidr: fd01::/48\n    hostPrefix: 64\n  serviceNetwork:\n  - fd02::/112\n  clusterNetworkMTU: 1200\n",
			"  clusterNetworks:\n  - cidr: fd01::/48\n    hostPrefix: 64\n  serviceCIDR: fd02::/112\n  clusterNetworkMTU: 1200\n",
			[]string{
				"install-config.yaml:12:22: error: install-config networking.clusterNetworkMTU 1200 is below 1280",
				"install-config.yaml:12:22: error: networking.clusterNetworkMTU 1200: the installer refuses it",
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run := func(networking string) []lint.Finding {
				t.Helper()
				objs, d := manifests.ReadBytes("install-config.yaml", []byte(head+networking))
				if len(d) > 0 {
					t.Fatal(d)
				}
				res, err := lint.Run(&lint.Input{Objects: objs, Minor: 15}, lint.Options{Enable: rules})
				if err != nil {
					t.Fatal(err)
				}
				return res.Findings
			}
			cur, old := run(tc.current), run(tc.old)
			if len(old) == 0 {
				t.Fatal("the deprecated fields got no finding")
			}
			// the same findings, told with the field as written
			norm := strings.NewReplacer("type OpenShiftSDN", "networkType OpenShiftSDN")
			summary := func(fs []lint.Finding) []string {
				var out []string
				for _, f := range fs {
					out = append(out, f.Rule+" "+norm.Replace(f.Message))
				}
				return out
			}
			if c, o := summary(cur), summary(old); strings.Join(c, "\n") != strings.Join(o, "\n") {
				t.Errorf("findings differ:\ncurrent fields:\n  %s\ndeprecated fields:\n  %s", strings.Join(c, "\n  "), strings.Join(o, "\n  "))
			}
			checkFindingsAt(t, old, tc.wantAtOldKeys)
		})
	}
}

// checkFindingsAt compares findings with "file:line:col: severity: message"
// prefixes, in order.
func checkFindingsAt(t *testing.T, fs []lint.Finding, want []string) {
	t.Helper()
	if len(fs) != len(want) {
		var got []string
		for _, f := range fs {
			got = append(got, f.Pos.String()+": "+f.Severity.String()+": "+f.Message)
		}
		t.Fatalf("got %d findings, want %d:\n  %s", len(fs), len(want), strings.Join(got, "\n  "))
	}
	for i, f := range fs {
		if got := f.Pos.String() + ": " + f.Severity.String() + ": " + f.Message; !strings.HasPrefix(got, want[i]) {
			t.Errorf("finding %d:\n  %s\nwant prefix\n  %s", i, got, want[i])
		}
	}
}

// installJoinSubnetYAML is networking.ovnKubernetesConfig.ipv4.internalJoinSubnet,
// to append to an install-config ending in its networking section.
func installJoinSubnetYAML(cidr string) string {
	return "  ovnKubernetesConfig:\n    ipv4:\n      internalJoinSubnet: " + cidr + "\n"
}
