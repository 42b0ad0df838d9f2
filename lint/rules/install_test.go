package rules

import (
	"fmt"
	"strings"
)

// Fixtures of the INS family: an agent install (install-config +
// agent-config of one cluster) and a hub install (ClusterInstance).

const insInstallConfig = `apiVersion: v1
baseDomain: example.com
metadata:
  name: lab
controlPlane:
  name: master
  replicas: 3
compute:
- name: worker
  replicas: 0
networking:
  networkType: OVNKubernetes
  machineNetwork:
  - cidr: 192.168.10.0/24
platform:
  baremetal:
    apiVIPs: [192.168.10.5]
    ingressVIPs: [192.168.10.6]
`

const insAgentConfig = `apiVersion: v1beta1
kind: AgentConfig
metadata:
  name: lab
rendezvousIP: 192.168.10.10
hosts:
- hostname: m0
  role: master
  interfaces:
  - name: eno1
    macAddress: 52:54:00:00:00:10
  networkConfig:
    interfaces:
    - name: eno1
      type: ethernet
      state: up
      ipv4:
        enabled: true
        address:
        - ip: 192.168.10.10
          prefix-length: 24
- hostname: m1
  role: master
  interfaces:
  - name: eno1
    macAddress: 52:54:00:00:00:11
  networkConfig:
    interfaces:
    - name: eno1
      type: ethernet
      state: up
      ipv4:
        enabled: true
        address:
        - ip: 192.168.10.11
          prefix-length: 24
- hostname: w0
  role: worker
  interfaces:
  - name: eno1
    macAddress: 52:54:00:00:00:20
  networkConfig:
    interfaces:
    - name: eno1
      type: ethernet
      state: up
      ipv4:
        enabled: true
        address:
        - ip: 192.168.10.20
          prefix-length: 24
`

const insClusterInstance = `apiVersion: siteconfig.open-cluster-management.io/v1alpha1
kind: ClusterInstance
metadata:
  name: site1
  namespace: site1
spec:
  clusterName: site1
  baseDomain: example.com
  clusterImageSetNameRef: openshift-4.16
  pullSecretRef:
    name: pull-secret
  platformType: None
  machineNetwork:
  - cidr: 10.1.0.0/24
  templateRefs:
  - name: ai-cluster-templates-v1
    namespace: open-cluster-management
  nodes:
  - hostName: sno1
    role: master
    bmcAddress: redfish-virtualmedia+https://10.0.0.1/redfish/v1/Systems/1
    bmcCredentialsName:
      name: sno1-bmc
    bootMACAddress: 52:54:00:00:01:10
    templateRefs:
    - name: ai-node-templates-v1
      namespace: open-cluster-management
    nodeNetwork:
      interfaces:
      - name: eno1
        macAddress: 52:54:00:00:01:10
      config:
        interfaces:
        - name: eno1
          type: ethernet
          state: up
          ipv4:
            enabled: true
            address:
            - ip: 10.1.0.10
              prefix-length: 24
`

// insCI is a bare-metal ClusterInstance of clusterType with the given VIP
// lines and one node per role (named role-i, as the nodes of the siteconfig
// operator's api/v1alpha1 clusterinstance_validation_test.go
// validateControlPlaneAgentCount cases).
func insCI(clusterType, vips string, roles ...string) map[string]string {
	ci := `apiVersion: siteconfig.open-cluster-management.io/v1alpha1
kind: ClusterInstance
metadata:
  name: site2
  namespace: site2
spec:
  clusterName: site2
  baseDomain: example.com
  clusterImageSetNameRef: openshift-4.20
  pullSecretRef:
    name: pull-secret
  clusterType: ` + clusterType + `
  platformType: BareMetal
  machineNetwork:
  - cidr: 10.1.0.0/24
  - cidr: fd00:1::/64
` + vips + `  templateRefs:
  - name: ai-cluster-templates-v1
    namespace: open-cluster-management
  nodes:
`
	n := map[string]int{}
	for i, r := range roles {
		ci += fmt.Sprintf("  - hostName: %s-%d\n    role: %s\n    bmcAddress: redfish-virtualmedia+https://10.0.0.%d/redfish/v1/Systems/1\n    bmcCredentialsName:\n      name: %s-%d-bmc\n    bootMACAddress: 52:54:00:00:02:%02d\n",
			r, n[r], r, 10+i, r, n[r], 10+i)
		n[r]++
	}
	return map[string]string{"clusterinstance.yaml": ci}
}

const insCIVIPs = "  apiVIPs: [10.1.0.5]\n  ingressVIPs: [10.1.0.6]\n"

func insAgent(icFrom, icTo, acFrom, acTo string) map[string]string {
	return map[string]string{
		"install-config.yaml": strings.Replace(insInstallConfig, icFrom, icTo, 1),
		"agent-config.yaml":   strings.Replace(insAgentConfig, acFrom, acTo, 1),
	}
}

func insHub(from, to string) map[string]string {
	return map[string]string{"clusterinstance.yaml": strings.Replace(insClusterInstance, from, to, 1)}
}

// insIBI is the ClusterInstance fixture with the image-based templates.
func insIBI(from, to string) map[string]string {
	ci := strings.ReplaceAll(insClusterInstance, "name: ai-", "name: ibi-")
	return map[string]string{"clusterinstance.yaml": strings.Replace(ci, from, to, 1)}
}

const insIBIWorker = `  - hostName: w1
    role: worker
    bmcAddress: redfish-virtualmedia+https://10.0.0.2/redfish/v1/Systems/1
    bmcCredentialsName:
      name: w1-bmc
    bootMACAddress: 52:54:00:00:01:20
    templateRefs:
    - name: ibi-node-templates-v1
      namespace: open-cluster-management
`

func init() {
	ruleCases = append(ruleCases,
		// INS001
		ruleCase{rule: "INS001", name: "API VIP outside the machine network", files: insAgent("apiVIPs: [192.168.10.5]", "apiVIPs: [10.0.0.5]", "", ""),
			want: []string{"install-config.yaml:17:15: error: API VIP 10.0.0.5 is not inside a machine network (192.168.10.0/24)"}},
		ruleCase{rule: "INS001", name: "ingress VIP on a node's IP", files: insAgent("ingressVIPs: [192.168.10.6]", "ingressVIPs: [192.168.10.11]", "", ""),
			want: []string{"install-config.yaml:18:19: error: ingress VIP 192.168.10.11 is node m1's IP"}},
		ruleCase{rule: "INS001", name: "broadcast address", files: insAgent("ingressVIPs: [192.168.10.6]", "ingressVIPs: [192.168.10.255]", "", ""),
			want: []string{"is the broadcast address of machine network 192.168.10.0/24"}},
		ruleCase{rule: "INS001", name: "API VIP equal to the ingress VIP", files: insAgent("apiVIPs: [192.168.10.5]", "apiVIPs: [192.168.10.6]", "", ""),
			want: []string{"install-config.yaml:17:15: error: API VIP 192.168.10.6 is also an ingress VIP"}},
		ruleCase{rule: "INS001", name: "user-managed load balancer: equal VIPs outside the network", files: insAgent("    apiVIPs: [192.168.10.5]\n    ingressVIPs: [192.168.10.6]\n",
			"    loadBalancer: {type: UserManaged}\n    apiVIPs: [10.0.0.5]\n    ingressVIPs: [10.0.0.5]\n", "", "")},
		ruleCase{rule: "INS001", name: "VIPs of the machine network", files: insAgent("", "", "", "")},
		// installer pkg/types/validation/installconfig_test.go invalid_apivips_both_ipv4 and the "foobar" VIP
		ruleCase{rule: "INS001", name: "two API VIPs of one family", files: insAgent("apiVIPs: [192.168.10.5]", "apiVIPs: [192.168.10.5, 192.168.10.7]", "", ""),
			want: []string{"install-config.yaml:17:29: error: two api VIPs of one IP family (192.168.10.5, 192.168.10.7): the installer refuses them"}},
		ruleCase{rule: "INS001", name: "a VIP that is not an IP", files: insAgent("ingressVIPs: [192.168.10.6]", "ingressVIPs: [foobar]", "", ""),
			want: []string{"install-config.yaml:18:19: error: ingress VIP \"foobar\" is not an IP address: the installer refuses it (\"foobar\" is not a valid IP)"}},
		ruleCase{rule: "INS001", name: "dual-stack API VIPs", files: map[string]string{
			"install-config.yaml": strings.NewReplacer("apiVIPs: [192.168.10.5]", "apiVIPs: [192.168.10.5, \"fd00::5\"]",
				"  - cidr: 192.168.10.0/24\n", "  - cidr: 192.168.10.0/24\n  - cidr: fd00::/64\n").Replace(insInstallConfig),
			"agent-config.yaml": insAgentConfig}},
		// stolostron/siteconfig api/v1alpha1 clusterinstance_types.go ApiVIPs,
		// IngressVIPs: +kubebuilder:validation:MaxItems=2
		ruleCase{rule: "INS001", name: "siteconfig CRD: three API VIPs", files: insCI("HighlyAvailable", "  apiVIPs: [10.1.0.5, 10.1.0.7, fd00:1::5]\n  ingressVIPs: [10.1.0.6]\n", "master", "master", "master"),
			want: []string{"clusterinstance.yaml:17:33: error: 3 API VIPs: a ClusterInstance takes at most 2 (siteconfig CRD maxItems), so the hub refuses it"}},
		ruleCase{rule: "INS001", name: "siteconfig CRD: a dual-stack pair of VIPs", files: insCI("HighlyAvailable", "  apiVIPs: [10.1.0.5, fd00:1::5]\n  ingressVIPs: [10.1.0.6, fd00:1::6]\n", "master", "master", "master")},
		// INS002
		ruleCase{rule: "INS002", name: "MAC of two hosts", files: insAgent("", "", "macAddress: 52:54:00:00:00:11", "macAddress: 52:54:00:00:00:10"),
			want: []string{"agent-config.yaml:26:17: error: MAC 52:54:00:00:00:10 of node m1 is also m0's"}},
		ruleCase{rule: "INS002", name: "IP of two hosts", files: insAgent("", "", "ip: 192.168.10.11", "ip: 192.168.10.10"),
			want: []string{"agent-config.yaml:35:15: error: IP 192.168.10.10 of node m1 is also m0's"}},
		ruleCase{rule: "INS002", name: "distinct hosts", files: insAgent("", "", "", "")},
		// INS003
		ruleCase{rule: "INS003", name: "machine network with host bits", files: insHub("cidr: 10.1.0.0/24", "cidr: 10.1.0.1/24"),
			want: []string{"clusterinstance.yaml:14:11: error: machineNetwork 10.1.0.1/24 has host bits set: the installer refuses it (invalid network address. got 10.1.0.1/24, expecting 10.1.0.0/24)"}},
		ruleCase{rule: "INS003", name: "network address", files: insHub("", "")},
		// INS004
		ruleCase{rule: "INS004", name: "single node on baremetal (hub)", files: insHub("platformType: None", "platformType: BareMetal"),
			want: []string{"clusterinstance.yaml:12:17: error: a single-node cluster (1 control-plane node, no workers) on platform baremetal: the assisted service installs one only on platform none or external"}},
		ruleCase{rule: "INS004", name: "platform none with VIPs", files: insHub("platformType: None", "platformType: None\n  apiVIPs: [10.1.0.5]"),
			want: []string{"clusterinstance.yaml:13:13: error: platform none takes no VIPs, but 10.1.0.5 is one"}},
		ruleCase{rule: "INS004", name: "single node on platform none", files: insHub("", "")},
		// installer pkg/asset/agent/installconfig.go validateSNOConfiguration
		ruleCase{rule: "INS004", name: "agent single node with workers", files: map[string]string{
			"install-config.yaml": strings.NewReplacer("  replicas: 3\n", "  replicas: 1\n", "  replicas: 0\n", "  replicas: 2\n",
				"  baremetal:\n    apiVIPs: [192.168.10.5]\n    ingressVIPs: [192.168.10.6]\n", "  none: {}\n").Replace(insInstallConfig),
			"agent-config.yaml": insAgentConfig},
			want: []string{"install-config.yaml:9:1: error: a single control-plane node with 2 workers: the agent-based installer installs a single node only without workers"}},
		ruleCase{rule: "INS004", name: "agent single node without workers", files: map[string]string{
			"install-config.yaml": strings.NewReplacer("  replicas: 3\n", "  replicas: 1\n",
				"  baremetal:\n    apiVIPs: [192.168.10.5]\n    ingressVIPs: [192.168.10.6]\n", "  none: {}\n").Replace(insInstallConfig),
			"agent-config.yaml": insAgentConfig}},
		// INS005
		ruleCase{rule: "INS005", name: "rendezvousIP of a worker", files: insAgent("", "", "rendezvousIP: 192.168.10.10", "rendezvousIP: 192.168.10.20"),
			want: []string{"agent-config.yaml:5:15: error: rendezvousIP 192.168.10.20 is worker w0's IP"}},
		ruleCase{rule: "INS005", name: "rendezvousIP of no host", files: insAgent("", "", "rendezvousIP: 192.168.10.10", "rendezvousIP: 192.168.10.99"),
			want: []string{"agent-config.yaml:5:15: error: rendezvousIP 192.168.10.99 is no control-plane host's IP (m0 192.168.10.10, m1 192.168.10.11)"}},
		ruleCase{rule: "INS005", name: "rendezvousIP of a master", files: insAgent("", "", "", "")},
		// INS006
		ruleCase{rule: "INS006", name: "two control-plane nodes, no arbiter", files: insAgent("replicas: 3", "replicas: 2", "", ""),
			want: []string{"install-config.yaml:7:13: error: 2 control-plane nodes: the agent-based installer accepts 1, 3, 4 or 5 on the latest release"}},
		ruleCase{rule: "INS006", name: "two control-plane nodes with an arbiter", files: insAgent("replicas: 3", "replicas: 2\narbiter:\n  name: arbiter\n  replicas: 1", "", "")},
		ruleCase{rule: "INS006", name: "four control-plane nodes on 4.16", files: map[string]string{
			"clusterinstance.yaml": strings.Replace(insClusterInstance, "platformType: None", "platformType: BareMetal", 1) +
				"  - {hostName: m2, bmcAddress: redfish://a, bmcCredentialsName: {name: b2}, bootMACAddress: \"52:54:00:00:02:02\"}\n" +
				"  - {hostName: m3, bmcAddress: redfish://b, bmcCredentialsName: {name: b3}, bootMACAddress: \"52:54:00:00:02:03\"}\n" +
				"  - {hostName: m4, bmcAddress: redfish://c, bmcCredentialsName: {name: b4}, bootMACAddress: \"52:54:00:00:02:04\"}\n",
			"clusterimageset.yaml": "apiVersion: hive.openshift.io/v1\nkind: ClusterImageSet\nmetadata:\n  name: openshift-4.16\nspec:\n  releaseImage: quay.io/openshift-release-dev/ocp-release:4.16.3-x86_64\n",
		}, want: []string{"clusterinstance.yaml:19:3: error: 4 control-plane nodes: the assisted service accepts 1 or 3 on 4.16 (4 and 5 from 4.18)"}},
		ruleCase{rule: "INS006", name: "three control-plane nodes", files: insAgent("", "", "", "")},
		// stolostron/siteconfig api/v1alpha1 clusterinstance_validation.go
		// validateControlPlaneAgentCount, its test cases in
		// clusterinstance_validation_test.go
		ruleCase{rule: "INS006", name: "siteconfig: HighlyAvailableArbiter with an arbiter and 2 masters", files: insCI("HighlyAvailableArbiter", insCIVIPs, "master", "master", "arbiter")},
		ruleCase{rule: "INS006", name: "siteconfig: HighlyAvailableArbiter with less than 2 masters", files: insCI("HighlyAvailableArbiter", insCIVIPs, "master", "arbiter"),
			want: []string{"clusterinstance.yaml:12:16: error: clusterType HighlyAvailableArbiter with 1 control-plane and 1 arbiter nodes: the siteconfig operator requires at least 2 control-plane nodes and 1 arbiter"}},
		ruleCase{rule: "INS006", name: "siteconfig: HighlyAvailableArbiter without arbiter nodes", files: insCI("HighlyAvailableArbiter", insCIVIPs, "master", "master"),
			want: []string{"clusterType HighlyAvailableArbiter with 2 control-plane and 0 arbiter nodes"}},
		ruleCase{rule: "INS006", name: "siteconfig: SNO with an arbiter", files: insCI("SNO", "", "master", "arbiter"),
			want: []string{`clusterinstance.yaml:27:5: error: node arbiter-0 is an arbiter but clusterType is "SNO": the siteconfig operator takes arbiter agents only with clusterType HighlyAvailableArbiter`}},
		ruleCase{rule: "INS006", name: "siteconfig: HighlyAvailable with an arbiter", files: insCI("HighlyAvailable", insCIVIPs, "master", "master", "master", "arbiter"),
			want: []string{`node arbiter-0 is an arbiter but clusterType is "HighlyAvailable"`}},
		// INS007
		ruleCase{rule: "INS007", name: "node without a BMC credentials Secret", files: insHub("    bmcCredentialsName:\n      name: sno1-bmc\n", "    bmcCredentialsName:\n      name: \"\"\n"),
			want: []string{"clusterinstance.yaml:23:7: error: node sno1 names no BMC credentials Secret"}},
		ruleCase{rule: "INS007", name: "node without BMC nor boot MAC", files: insHub("    bmcAddress: redfish-virtualmedia+https://10.0.0.1/redfish/v1/Systems/1\n    bmcCredentialsName:\n      name: sno1-bmc\n    bootMACAddress: 52:54:00:00:01:10\n", ""),
			want: []string{"clusterinstance.yaml:19:5: error: node sno1 has no BMC", "clusterinstance.yaml:19:5: error: node sno1 has no boot MAC"}},
		ruleCase{rule: "INS007", name: "BMC named", files: insHub("", "")},
		// INS008
		ruleCase{rule: "INS008", name: "ethernet interface that is no NIC of the host", files: insHub("        - name: eno1\n          type: ethernet", "        - name: eth7\n          type: ethernet"),
			want: []string{"clusterinstance.yaml:34:17: error: ethernet interface eth7 in node sno1's networkConfig is not one of its NICs (eno1)"}},
		ruleCase{rule: "INS008", name: "VLAN on an unknown base interface", files: insHub("          type: ethernet\n", "          type: ethernet\n        - name: bond0.100\n          type: vlan\n          vlan: {base-iface: bond0, id: 100}\n"),
			want: []string{"VLAN base interface bond0 in node sno1's networkConfig"}},
		ruleCase{rule: "INS008", name: "interfaces not a list", files: insHub("        interfaces:\n        - name: eno1\n          type: ethernet\n          state: up\n          ipv4:\n            enabled: true\n            address:\n            - ip: 10.1.0.10\n              prefix-length: 24\n", "        interfaces: eno1\n"),
			want: []string{"networkConfig.interfaces of node sno1 is not a list"}},
		ruleCase{rule: "INS008", name: "NICs of the host", files: insHub("", "")},
		// INS009
		ruleCase{rule: "INS009", name: "image-based with VIPs on bare metal", files: insIBI("platformType: None", "platformType: BareMetal\n  apiVIPs: [10.1.0.5]"),
			want: []string{"clusterinstance.yaml:13:13: error: an image-based install configures no VIPs, but 10.1.0.5 is one"}},
		ruleCase{rule: "INS009", name: "image-based with a worker", files: insIBI("    nodeNetwork:", insIBIWorker+"    nodeNetwork:"),
			want: []string{"error: an image-based install installs a single node without workers, not with 1"}},
		ruleCase{rule: "INS009", name: "image-based on vSphere", files: insIBI("platformType: None", "platformType: VSphere"),
			want: []string{`clusterinstance.yaml:12:17: error: platform "vsphere" cannot be installed by an image-based install`}},
		ruleCase{rule: "INS009", name: "assisted templates: not image-based", files: insHub("platformType: None", "platformType: None\n  apiVIPs: [10.1.0.5]"),
			want: nil},
		ruleCase{rule: "INS009", name: "image-based single node", files: insIBI("", "")},
		// INS003: openshift/installer pkg/types/validation/installconfig.go
		// validateNetworking, validateNetworkingIPVersion; test "overlapping
		// service network validation" in installconfig_test.go
		ruleCase{rule: "INS003", name: "installer: overlapping service networks", files: insAgent("  machineNetwork:", "  serviceNetwork:\n  - 13.0.0.0/16\n  - 13.0.2.0/24\n  machineNetwork:", "", ""),
			want: []string{
				"install-config.yaml:15:5: error: 2 IPv4 service networks: the installer refuses them (only one service network can be specified)",
				"install-config.yaml:15:5: error: serviceNetwork 13.0.2.0/24 overlaps serviceNetwork 13.0.0.0/16: the installer refuses it (service network must not overlap with service network 0)"}},
		ruleCase{rule: "INS003", name: "installer: one service network per family", files: insAgent("  machineNetwork:", "  serviceNetwork:\n  - 13.0.0.0/16\n  - fd02::/112\n  machineNetwork:\n  - cidr: fd00::/64", "", "")},
		// INS003: openshift/installer pkg/types/validation/installconfig.go
		// validateNetworking / validateMachineNetwork, validateClusterNetwork;
		// tests "overlapping machine network and machine network" (13.0.0.0/16,
		// 13.0.2.0/24) and "overlapping cluster network and cluster network"
		// (12.0.0.0/16, 12.0.3.0/24) in installconfig_test.go
		ruleCase{rule: "INS003", name: "installer: machine networks overlapping each other", files: insAgent("  - cidr: 192.168.10.0/24\n", "  - cidr: 192.168.10.0/24\n  - cidr: 192.168.10.128/25\n", "", ""),
			want: []string{"error: machineNetwork 192.168.10.128/25 overlaps machineNetwork 192.168.10.0/24: the installer refuses it (machine network must not overlap with machine network 0)"}},
		ruleCase{rule: "INS003", name: "installer: cluster networks overlapping each other", files: insAgent("  machineNetwork:", "  clusterNetwork:\n  - cidr: 12.0.0.0/16\n    hostPrefix: 25\n  - cidr: 12.0.3.0/24\n    hostPrefix: 25\n  machineNetwork:", "", ""),
			want: []string{"error: clusterNetwork 12.0.3.0/24 overlaps clusterNetwork 12.0.0.0/16: the installer refuses it (cluster network must not overlap with cluster network 0)"}},
		ruleCase{rule: "INS003", name: "installer: disjoint machine and cluster networks", files: insAgent("  machineNetwork:", "  clusterNetwork:\n  - cidr: 12.0.0.0/16\n    hostPrefix: 25\n  - cidr: 12.1.0.0/16\n    hostPrefix: 25\n  machineNetwork:", "", "")},
		// INS003: openshift/installer pkg/types/validation/installconfig.go
		// validateClusterNetwork; tests "cluster network host prefix too
		// large", "cluster network host prefix unset", "multiple cluster
		// network host prefix different" in installconfig_test.go
		ruleCase{rule: "INS003", name: "installer: hostPrefix larger than the cluster network", files: insAgent("  machineNetwork:", "  clusterNetwork:\n  - cidr: 192.168.1.0/24\n    hostPrefix: 23\n  machineNetwork:", "", ""),
			want: []string{"install-config.yaml:15:17: error: hostPrefix 23 of clusterNetwork 192.168.1.0/24 is shorter than its /24: the installer refuses it (cluster network host subnetwork prefix must not be larger size than CIDR 192.168.1.0/24)"}},
		ruleCase{rule: "INS003", name: "installer: hostPrefix unset with OVNKubernetes", files: insAgent("  machineNetwork:", "  clusterNetwork:\n  - cidr: 192.168.1.0/24\n  machineNetwork:", "", ""),
			want: []string{"install-config.yaml:14:11: error: hostPrefix 0 of clusterNetwork 192.168.1.0/24 is shorter than its /24"}},
		ruleCase{rule: "INS003", name: "installer: IPv4 hostPrefixes differ", files: insAgent("  machineNetwork:", "  clusterNetwork:\n  - cidr: 10.128.0.0/14\n    hostPrefix: 23\n  - cidr: fd01::/48\n    hostPrefix: 64\n  - cidr: 192.168.2.0/24\n    hostPrefix: 30\n  serviceNetwork: [172.30.0.0/16, fd02::/112]\n  machineNetwork:\n  - cidr: fd00::/64", "", ""),
			want: []string{"install-config.yaml:19:17: error: hostPrefix 30 of clusterNetwork 192.168.2.0/24 differs from 23 of clusterNetwork 10.128.0.0/14: the installer refuses it (cluster network host subnetwork prefix must be the same value for IPv4 networks)"}},
		ruleCase{rule: "INS003", name: "installer: one hostPrefix per family", files: insAgent("  machineNetwork:", "  clusterNetwork:\n  - cidr: 10.128.0.0/14\n    hostPrefix: 23\n  - cidr: fd01::/48\n    hostPrefix: 64\n  - cidr: 10.132.0.0/14\n    hostPrefix: 23\n  serviceNetwork: [172.30.0.0/16, fd02::/112]\n  machineNetwork:\n  - cidr: fd00::/64", "", "")},
		// INS001: openshift/installer pkg/types/validation/installconfig.go
		// validateAPIAndIngressVIPs; tests "baremetal API VIP set to an
		// incorrect IP Family", "baremetal Ingress VIP set to an incorrect IP
		// Family" in installconfig_test.go (ffd0:: on IPv4-primary dual stack)
		ruleCase{rule: "INS001", name: "installer: API VIP not of the primary family", files: insAgent("  - cidr: 192.168.10.0/24\nplatform:\n  baremetal:\n    apiVIPs: [192.168.10.5]", "  - cidr: 192.168.10.0/24\n  - cidr: fd00::/64\n  serviceNetwork: [172.30.0.0/16, fd02::/112]\nplatform:\n  baremetal:\n    apiVIPs: [fd00::5]", "", ""),
			want: []string{"install-config.yaml:19:15: error: api VIP fd00::5 is IPv6 but the first machine network 192.168.10.0/24, the dual-stack cluster's primary family, is IPv4: the installer refuses it (VIP for the API must be of the same IP family with machine network's primary IP Family for dual-stack IPv4/IPv6)"}},
		ruleCase{rule: "INS001", name: "installer: VIPs of the primary family on dual stack", files: insAgent("  - cidr: 192.168.10.0/24\n", "  - cidr: 192.168.10.0/24\n  - cidr: fd00::/64\n  serviceNetwork: [172.30.0.0/16, fd02::/112]\n", "", "")},

		// NET001 on a ClusterInstance: the installer refuses overlapping
		// networks in the install-config assisted-service writes from it
		// (openshift/installer pkg/types/validation/installconfig.go
		// validateClusterNetwork "cluster network must not overlap with
		// service network %d", validateServiceNetwork "service network must
		// not overlap with any of the machine networks",
		// validateNetworkNotOverlapDefaultOVNSubnets "must not overlap with
		// OVNKubernetes default internal subnet")
		ruleCase{rule: "NET001", name: "ClusterInstance: service network inside the cluster network", files: map[string]string{
			"ci.yaml": strings.Replace(insClusterInstance, "  machineNetwork:\n", "  clusterNetwork:\n  - cidr: 192.168.0.0/16\n    hostPrefix: 23\n  serviceNetwork:\n  - cidr: 192.168.1.0/24\n  machineNetwork:\n", 1),
		}, want: []string{"ci.yaml:17:11: error: serviceNetwork 192.168.1.0/24 overlaps clusterNetwork 192.168.0.0/16"}},
		ruleCase{rule: "NET001", name: "ClusterInstance: service network over OVN-Kubernetes' join subnet", files: map[string]string{
			"ci.yaml": strings.Replace(insClusterInstance, "  machineNetwork:\n", "  serviceNetwork:\n  - cidr: 100.64.0.0/16\n  machineNetwork:\n", 1),
		}, want: []string{"ci.yaml:14:11: error: serviceNetwork 100.64.0.0/16 overlaps"}},
		ruleCase{rule: "NET001", name: "ClusterInstance: disjoint networks", files: map[string]string{
			"ci.yaml": strings.Replace(insClusterInstance, "  machineNetwork:\n", "  clusterNetwork:\n  - cidr: 10.128.0.0/14\n    hostPrefix: 23\n  serviceNetwork:\n  - cidr: 172.30.0.0/16\n  machineNetwork:\n", 1),
		}},

		// INS022, from stolostron/siteconfig api/v1alpha1
		// clusterinstance_validation_test.go validateClusterInstanceJSONFields
		ruleCase{rule: "INS022", name: "invalid installConfigOverrides JSON (siteconfig test: should fail for invalid InstallConfigOverrides JSON)", files: map[string]string{
			"ci.yaml": strings.Replace(insClusterInstance, "  clusterName: site1\n", "  clusterName: site1\n  installConfigOverrides: '{invalid_json}'\n  ignitionConfigOverride: '[1, 2,]'\n", 1),
		}, want: []string{
			"ci.yaml:8:27: error: installConfigOverrides is not a valid JSON document",
			"ci.yaml:9:27: error: ignitionConfigOverride is not a valid JSON document",
		}},
		ruleCase{rule: "INS022", name: "node installerArgs in YAML flow syntax (siteconfig test: should return false for non-JSON characters)", files: map[string]string{
			"ci.yaml": strings.Replace(insClusterInstance, "  - hostName: sno1\n", "  - hostName: sno1\n    installerArgs: '{key: value}'\n", 1),
		}, want: []string{"ci.yaml:20:20: error: installerArgs of node sno1 is not a valid JSON document"}},
		// valid JSON of the wrong shape: assisted-service merges the
		// overrides as objects, coreos-installer takes a list of strings
		ruleCase{rule: "INS022", name: "overrides that are no JSON object, installerArgs that are no list of strings", files: map[string]string{
			"ci.yaml": strings.Replace(strings.Replace(insClusterInstance, "  clusterName: site1\n", "  clusterName: site1\n  installConfigOverrides: '[1]'\n", 1),
				"  - hostName: sno1\n", "  - hostName: sno1\n    installerArgs: '{\"append-karg\": \"nosmt\"}'\n", 1),
		}, want: []string{
			"ci.yaml:8:27: error: installConfigOverrides is not a JSON object",
			"ci.yaml:21:20: error: installerArgs of node sno1 is not a JSON list of strings",
		}},
		ruleCase{rule: "INS022", name: "valid JSON strings (siteconfig test: should pass for valid JSON strings)", files: map[string]string{
			"ci.yaml": strings.Replace(strings.Replace(insClusterInstance, "  clusterName: site1\n", "  clusterName: site1\n  installConfigOverrides: '{}'\n  ignitionConfigOverride: '{}'\n", 1),
				"  - hostName: sno1\n", "  - hostName: sno1\n    installerArgs: '[\"--append-karg\", \"nameserver=198.51.100.0\", \"-n\"]'\n    ignitionConfigOverride: '{}'\n", 1),
		}},

		// INS002: openshift/installer pkg/asset/agent/agentconfig/agenthosts.go
		// validateHostInterfaces through pkg/validate/validate.go MAC; MACs
		// from tests "invalid_multicast_mac" and "valid_both_macs_specified"
		// in pkg/types/baremetal/validation/platform_test.go
		ruleCase{rule: "INS002", name: "installer: multicast host MAC", files: insAgent("", "", "macAddress: 52:54:00:00:00:10", "macAddress: 7D:CE:E3:29:35:6F"),
			want: []string{`agent-config.yaml:11:17: error: MAC "7D:CE:E3:29:35:6F" of node m0 is not a unicast EUI-48 address (expected unicast mac address, found multicast): the agent-based installer refuses it`}},
		ruleCase{rule: "INS002", name: "installer: host MAC of eight octets", files: insAgent("", "", "macAddress: 52:54:00:00:00:10", "macAddress: 52:54:00:00:00:10:00:01"),
			want: []string{`agent-config.yaml:11:17: error: MAC "52:54:00:00:00:10:00:01" of node m0 is not a unicast EUI-48 address (invalid MAC address): the agent-based installer refuses it`}},
		ruleCase{rule: "INS002", name: "installer: unicast host MAC", files: insAgent("", "", "macAddress: 52:54:00:00:00:10", "macAddress: CA:FE:CA:FE:CA:FE")},
		// INS010: openshift/installer pkg/asset/agent/agentconfig/agenthosts.go
		// validateRoles; test "host-roles-have-incorrect-values" in
		// agent_config_test.go
		ruleCase{rule: "INS010", name: "installer: host-roles-have-incorrect-values", files: insAgent("", "", "- hostname: m0\n  role: master", "- hostname: m0\n  role: invalid-role"),
			want: []string{`agent-config.yaml:8:9: error: role "invalid-role" of host m0 is neither master nor worker: the agent-based installer refuses it (host role has incorrect value. Role must either be 'master' or 'worker')`}},
		ruleCase{rule: "INS010", name: "installer: master and worker roles", files: insAgent("", "", "", "")},
		// INS010: openshift/installer pkg/asset/agent/agentconfig/agenthosts.go
		// validateHostRootDeviceHints, pkg/types/baremetal/validation
		// ValidateHostRootDeviceHints; device names from metal3's tests
		// "invalidRootDeviceHintByUUID", "invalidRootDeviceHintNoPath"
		ruleCase{rule: "INS010", name: "installer: root device hint by UUID", files: insAgent("", "", "- hostname: m0\n", "- hostname: m0\n  rootDeviceHints:\n    deviceName: /dev/disk/by-uuid/cdaacd50-3a4c-421c-91c0-fe9ba7b8b2f1\n"),
			want: []string{`agent-config.yaml:9:17: error: rootDeviceHints.deviceName "/dev/disk/by-uuid/cdaacd50-3a4c-421c-91c0-fe9ba7b8b2f1" of host m0: the agent-based installer refuses it (Device Name of root device hint must be path in /dev/ or /dev/disk/by-path/)`}},
		ruleCase{rule: "INS010", name: "installer: root device hint without /dev", files: insAgent("", "", "- hostname: m0\n", "- hostname: m0\n  rootDeviceHints:\n    deviceName: sda\n"),
			want: []string{`agent-config.yaml:9:17: error: rootDeviceHints.deviceName "sda" of host m0: the agent-based installer refuses it (Device Name of root device hint must be a /dev/ path)`}},
		ruleCase{rule: "INS010", name: "installer: root device hints in /dev and /dev/disk/by-path", files: insAgent("", "", "- hostname: m0\n", "- hostname: m0\n  rootDeviceHints:\n    deviceName: /dev/disk/by-path/pci-0000:01:00.0-nvme-1\n- hostname: m9\n  rootDeviceHints:\n    deviceName: /dev/sda\n  interfaces:\n  - name: eno1\n    macAddress: 52:54:00:00:00:19\n")},
		// INS006: openshift/installer pkg/types/baremetal/validation/platform.go
		// validateHostsCount (hosts without a role fill the control plane
		// first), run by ValidateHosts on installer-provisioned bare metal
		ruleCase{rule: "INS006", name: "installer: one baremetal host for three control-plane replicas", files: map[string]string{
			"install-config.yaml": strings.Replace(insInstallConfig, "    ingressVIPs: [192.168.10.6]\n", "    ingressVIPs: [192.168.10.6]\n    hosts:\n    - name: m0\n      role: master\n      bootMACAddress: 52:54:00:00:00:10\n", 1),
		}, want: []string{"install-config.yaml:20:5: error: 3 control-plane replicas but platform.baremetal.hosts has 1 host(s) for them: the installer refuses it (not enough hosts found (1) to support all the configured ControlPlane replicas (3))"}},
		ruleCase{rule: "INS006", name: "installer: a host without a role fills the control plane", files: map[string]string{
			"install-config.yaml": strings.Replace(insInstallConfig, "    ingressVIPs: [192.168.10.6]\n", "    ingressVIPs: [192.168.10.6]\n    hosts:\n    - name: m0\n      role: master\n      bootMACAddress: 52:54:00:00:00:10\n    - name: m1\n      role: master\n      bootMACAddress: 52:54:00:00:00:11\n    - name: m2\n      bootMACAddress: 52:54:00:00:00:12\n", 1),
		}},
		// INS002 on install-config hosts an agent install takes
		// (pkg/asset/agent/agentconfig/agenthosts.go getInstallConfigDefaults,
		// then validateHostInterfaces); MAC from "invalid_multicast_mac"
		ruleCase{rule: "INS002", name: "installer: multicast bootMACAddress of an agent install's install-config host", files: map[string]string{
			"install-config.yaml": strings.Replace(insInstallConfig, "    ingressVIPs: [192.168.10.6]\n", "    ingressVIPs: [192.168.10.6]\n    hosts:\n    - name: m0\n      role: master\n      bootMACAddress: 7D:CE:E3:29:35:6F\n", 1),
			"agent-config.yaml":   "apiVersion: v1beta1\nkind: AgentConfig\nmetadata:\n  name: lab\nrendezvousIP: 192.168.10.10\n",
		}, want: []string{`install-config.yaml:22:23: error: MAC "7D:CE:E3:29:35:6F" of node m0 is not a unicast EUI-48 address (expected unicast mac address, found multicast): the agent-based installer refuses it`}},
		// an agent install does not check platform.baremetal.hosts against
		// the replicas (ValidatePlatform: agentBasedInstallation)
		ruleCase{rule: "INS006", name: "installer: agent install with fewer install-config hosts", files: map[string]string{
			"install-config.yaml": strings.Replace(insInstallConfig, "    ingressVIPs: [192.168.10.6]\n", "    ingressVIPs: [192.168.10.6]\n    hosts:\n    - name: m0\n      role: master\n      bootMACAddress: 52:54:00:00:00:10\n", 1),
			"agent-config.yaml":   insAgentConfig,
		}},
	)
}
