package rules

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

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

		// NET004: genevePort
		ruleCase{rule: "NET004", name: "genevePort 4789", files: map[string]string{
			"network.yaml": operatorNetwork + "  defaultNetwork:\n    ovnKubernetesConfig:\n      genevePort: 4789\n",
		}, want: []string{"network.yaml:8:19: error: genevePort 4789 is the VXLAN port (OpenShift SDN's default vxlanPort): Geneve and VXLAN traffic collide on it; remove genevePort to use the default 6081"}},
		ruleCase{rule: "NET004", name: "genevePort 6081", files: map[string]string{
			"network.yaml": operatorNetwork + "  defaultNetwork:\n    ovnKubernetesConfig:\n      genevePort: 6081\n",
		}},
	)

	siteCases = append(siteCases,
		siteCase{rule: "NET001", name: "service network on the OVN masquerade subnet", site: siteYAML("4.16", "baremetal", "install", `network:
  machineNetwork: [10.0.0.0/24]
  serviceNetwork: [169.254.0.0/16]
pools:
  master: {uplinkInterface: eno1, uplinkMTU: 1500, count: 3}
`), want: []string{"site.yaml:12:20: error: serviceNetwork 169.254.0.0/16 overlaps OVN-Kubernetes' internal masquerade subnet 169.254.0.0/17"}},
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
	{rule: "NET003", name: "live migration on 4.14", minor: 14, files: map[string]string{"network-config.yaml": strings.Replace(liveMigrationConfig, "%SERVICE%", "172.30.0.0/16", 1)},
		want: []string{"network-config.yaml:6:50: error: the live migration needs OpenShift 4.15 or later (documented from 4.16), this is 4.14 (from --ocp-version)"}},
	{rule: "NET003", name: "live migration on 4.16", minor: 16, files: map[string]string{"network-config.yaml": strings.Replace(liveMigrationConfig, "%SERVICE%", "172.30.0.0/16", 1)}},
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
			objs, diags := manifests.ReadPaths([]string{"."})
			if len(diags) > 0 {
				t.Fatalf("fixture does not read: %v", diags)
			}
			res, err := lint.Run(&lint.Input{Objects: objs, Minor: tc.minor}, lint.Options{Enable: []string{tc.rule}})
			if err != nil {
				t.Fatal(err)
			}
			checkFindings(t, res, tc.want)
		})
	}
}
