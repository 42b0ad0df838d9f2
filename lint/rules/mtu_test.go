package rules

import (
	"strings"
	"testing"

	"github.com/siteforge/siteforge/internal/load"
	"github.com/siteforge/siteforge/lint"
)

// Fixtures of the MTU family. Plain-manifest cases join the shared table
// (ruleCases); site cases and cases that need a release run in
// TestSiteRuleCases / TestVersionRuleCases.

const operatorNetwork = `apiVersion: operator.openshift.io/v1
kind: Network
metadata:
  name: cluster
spec:
`

const networkConfigStatus = `apiVersion: config.openshift.io/v1
kind: Network
metadata:
  name: cluster
status:
  clusterNetworkMTU: %MTU%
`

// phase1 is a phase 1 patch as a kustomize patch (a full object).
const phase1 = operatorNetwork + `  migration:
    mtu:
      network:
        from: %FROM%
        to: %TO%
      machine:
        to: %MACHINE%
`

// phase2 is a phase 2 patch.
const phase2 = operatorNetwork + `  migration: null
  defaultNetwork:
    ovnKubernetesConfig:
      mtu: %MTU%
`

const installConfigBareMetal = `apiVersion: v1
baseDomain: example.com
metadata:
  name: bm
platform:
  baremetal: {}
networking:
  networkType: OVNKubernetes
  clusterNetwork:
  - cidr: 10.128.0.0/14
    hostPrefix: 23
  serviceNetwork:
  - 172.30.0.0/16
  machineNetwork:
  - cidr: 192.168.10.0/24
`

const installConfigDualStack = `apiVersion: v1
baseDomain: example.com
metadata:
  name: ds
platform:
  baremetal: {}
networking:
  networkType: OVNKubernetes
  clusterNetwork:
  - cidr: 10.128.0.0/14
    hostPrefix: 23
  - cidr: fd01::/48
    hostPrefix: 64
  serviceNetwork:
  - 172.30.0.0/16
  - fd02::/112
`

const installConfigAWS = `apiVersion: v1
baseDomain: example.com
metadata:
  name: aws
platform:
  aws:
    region: us-east-1
networking:
  networkType: OVNKubernetes
`

// keyfileMC is a NetworkManager MTU keyfile MachineConfig as siteforge
// renders it (URL-encoded data URL).
const keyfileMC = `apiVersion: machineconfiguration.openshift.io/v1
kind: MachineConfig
metadata:
  labels:
    machineconfiguration.openshift.io/role: %ROLE%
  name: %NAME%
spec:
  config:
    ignition:
      version: 3.4.0
    storage:
      files:
      - contents:
          source: data:,%5Bconnection-eno1-mtu%5D%0Amatch-device%3Dinterface-name%3Aeno1%0Aethernet.mtu%3D%MTU%%0A
        mode: 384
        overwrite: true
        path: /etc/NetworkManager/conf.d/99-eno1-mtu.conf
`

// keyfileMCGzip is the same, base64-encoded and gzip-compressed as
// Butane writes larger files (ethernet.mtu=9000 on eno1).
const keyfileMCGzip = `apiVersion: machineconfiguration.openshift.io/v1
kind: MachineConfig
metadata:
  labels:
    machineconfiguration.openshift.io/role: worker
  name: 01-worker-interface
spec:
  config:
    ignition:
      version: 3.4.0
    storage:
      files:
      - contents:
          compression: gzip
          source: data:;base64,H4sIAAAAAAAC/xXKMQqAMAwF0L13icRRoScpDiV+aYf+QImeX33zK+YkLLpTQF9lxH2kUcOanHi6IXcG5lUNwjqw/yshGiYRy9fzpqrpBdniawNJAAAA
        mode: 384
        path: /etc/NetworkManager/conf.d/99-eno1-mtu.conf
`

func keyfile(role, name, mtu string) string {
	return strings.NewReplacer("%ROLE%", role, "%NAME%", name, "%MTU%", mtu).Replace(keyfileMC)
}

func sub(tmpl string, kv ...string) string {
	return strings.NewReplacer(kv...).Replace(tmpl)
}

func ovnMTU(mtu string) string {
	return operatorNetwork + "  defaultNetwork:\n    type: OVNKubernetes\n    ovnKubernetesConfig:\n      mtu: " + mtu + "\n"
}

func init() {
	ruleCases = append(ruleCases,
		// MTU001: mixed uplinks (keyfiles), migrations against the edge path
		ruleCase{rule: "MTU001", name: "mixed uplinks, cluster MTU sized for the larger", files: map[string]string{
			"install-config.yaml":      installConfigBareMetal,
			"network.yaml":             ovnMTU("8900"),
			"mc/01-worker.yaml":        keyfile("worker", "01-worker-interface", "9000"),
			"mc/01-control-plane.yaml": keyfile("master", "01-control-plane-interface", "1500"),
		}, want: []string{"network.yaml:9:12: error: cluster MTU 8900 + 100 (Geneve) is larger than the uplink MTU 1500 that MachineConfig 01-control-plane-interface (role master, eno1)"}},
		ruleCase{rule: "MTU001", name: "mixed uplinks, cluster MTU sized for the smaller", files: map[string]string{
			"install-config.yaml":      installConfigBareMetal,
			"network.yaml":             ovnMTU("1400"),
			"mc/01-worker.yaml":        keyfile("worker", "01-worker-interface", "9000"),
			"mc/01-control-plane.yaml": keyfile("master", "01-control-plane-interface", "1500"),
		}},
		ruleCase{rule: "MTU001", name: "edge pool, migration to a value that does not fit", files: map[string]string{
			"install-config.yaml": installConfigEdge,
			"phase1.yaml":         sub(phase1, "%FROM%", "8901", "%TO%", "1400", "%MACHINE%", "9001"),
		}, want: []string{"phase1.yaml:10:13: error: cluster MTU 1400 does not fit the 1300-byte path"}},
		ruleCase{rule: "MTU001", name: "edge pool, day-0 MTU replaced by a migration to 1200", files: map[string]string{
			"install-config.yaml":                     installConfigEdge,
			"manifests/cluster-network-03-config.yml": strings.Replace(networkManifest, "%MTU%", "8901", 1),
			"phase1.yaml":                             sub(phase1, "%FROM%", "8901", "%TO%", "1200", "%MACHINE%", "9001"),
			"phase2.yaml":                             sub(phase2, "%MTU%", "1200"),
		}},

		// MTU002: IPv6 floor
		ruleCase{rule: "MTU002", name: "dual-stack with clusterNetworkMTU 1200", files: map[string]string{
			"install-config.yaml": installConfigDualStack + "  clusterNetworkMTU: 1200\n",
		}, want: []string{`install-config.yaml:17:22: error: install-config networking.clusterNetworkMTU 1200 is below 1280, the minimum when a clusterNetwork is IPv6: CNO rejects it with "invalid MTU 1200"`}},
		ruleCase{rule: "MTU002", name: "dual-stack with 1400", files: map[string]string{
			"install-config.yaml": installConfigDualStack + "  clusterNetworkMTU: 1400\n",
		}},
		ruleCase{rule: "MTU002", name: "IPv4 only with 1200", files: map[string]string{
			"install-config.yaml": installConfigBareMetal + "  clusterNetworkMTU: 1200\n",
		}},
		ruleCase{rule: "MTU002", name: "dual-stack with an AWS edge pool", files: map[string]string{
			"install-config.yaml": installConfigEdge + `  clusterNetwork:
  - cidr: 10.128.0.0/14
    hostPrefix: 23
  - cidr: fd01::/48
    hostPrefix: 64
`,
		}, want: []string{"install-config.yaml:11:9: error: the installer sets cluster MTU 1200 for the AWS edge pool"}},
		ruleCase{rule: "MTU002", name: "dual-stack, a node MTU that leaves less than 1280", files: map[string]string{
			"install-config.yaml": installConfigDualStack,
			"mc/01-worker.yaml":   keyfile("worker", "01-worker-interface", "1300"),
		}, want: []string{"mc/01-worker.yaml:14:19: error: MachineConfig 01-worker-interface (role worker, eno1) sets MTU 1300, which leaves 1200 after 100 bytes of Geneve overhead, below the IPv6 minimum 1280: every node needs MTU >= 1380"}},

		// MTU003: bounds
		ruleCase{rule: "MTU003", name: "mtu above 65536", files: map[string]string{
			"network.yaml": ovnMTU("70000"),
		}, want: []string{`network.yaml:9:12: error: ovnKubernetesConfig.mtu 70000 is outside 576-65536: CNO rejects it with "invalid MTU 70000"`}},
		ruleCase{rule: "MTU003", name: "clusterNetworkMTU below 576", files: map[string]string{
			"install-config.yaml": installConfigBareMetal + "  clusterNetworkMTU: 500\n",
		}, want: []string{`install-config.yaml:16:22: error: install-config networking.clusterNetworkMTU 500 is outside 576-65536: CNO rejects it with "invalid MTU 500"`}},
		ruleCase{rule: "MTU003", name: "mtu 8900", files: map[string]string{
			"network.yaml": ovnMTU("8900"),
		}},

		// MTU004: CNO's migration rules
		ruleCase{rule: "MTU004", name: "network.from is not the applied MTU", files: map[string]string{
			"network-config.yaml": strings.Replace(networkConfigStatus, "%MTU%", "1400", 1),
			"phase1.yaml":         sub(phase1, "%FROM%", "1500", "%TO%", "1300", "%MACHINE%", "1500"),
		}, want: []string{`phase1.yaml:9:15: error: CNO rejects this MTU migration: "invalid Migration.MTU.Network.From(1500) not equal to the currently applied MTU(1400)"; set network.from to 1400, the applied MTU (Network.config status.clusterNetworkMTU in network-config.yaml:6)`}},
		ruleCase{rule: "MTU004", name: "applied MTU from the day-0 manifest", files: map[string]string{
			"manifests/cluster-network-03-config.yml": strings.Replace(networkManifest, "%MTU%", "8901", 1),
			"phase1.yaml": sub(phase1, "%FROM%", "9001", "%TO%", "1200", "%MACHINE%", "9001"),
		}, want: []string{`phase1.yaml:9:15: error: CNO rejects this MTU migration: "invalid Migration.MTU.Network.From(9001) not equal to the currently applied MTU(8901)"; set network.from to 8901, the applied MTU (ovnKubernetesConfig.mtu in manifests/cluster-network-03-config.yml:9)`}},
		ruleCase{rule: "MTU004", name: "machine.to without headroom, IPsec", files: map[string]string{
			"network.yaml": operatorNetwork + "  defaultNetwork:\n    ovnKubernetesConfig:\n      ipsecConfig:\n        mode: Full\n",
			"phase1.yaml":  sub(phase1, "%FROM%", "1400", "%TO%", "1400", "%MACHINE%", "1500"),
		}, want: []string{`phase1.yaml:12:13: error: CNO rejects this MTU migration: "invalid Migration.MTU.Machine.To(1500), has to be at least 1546"; machine.to must carry network.to 1400 plus 146 bytes of Geneve+IPsec overhead: raise machine.to to 1546 if the links carry it, or lower network.to to 1354`}},
		ruleCase{rule: "MTU004", name: "fields missing", files: map[string]string{
			"phase1.yaml": operatorNetwork + "  migration:\n    mtu:\n      network:\n        from: 1400\n        to: 1300\n",
		}, want: []string{`phase1.yaml:8:7: error: CNO rejects this MTU migration: "invalid Migration.MTU, at least one of the required fields is missing"; add machine.to`}},
		ruleCase{rule: "MTU004", name: "network.to below the IPv6 floor", files: map[string]string{
			"install-config.yaml": installConfigDualStack,
			"phase1.yaml":         sub(phase1, "%FROM%", "1400", "%TO%", "1200", "%MACHINE%", "1500"),
		}, want: []string{`phase1.yaml:10:13: error: CNO rejects this MTU migration: "invalid Migration.MTU.Network.To(1200), has to be in range: 1280-65536"; choose a network.to inside the range (the floor is 1280 because a clusterNetwork is IPv6)`}},
		ruleCase{rule: "MTU004", name: "a migration CNO accepts", files: map[string]string{
			"network-config.yaml": strings.Replace(networkConfigStatus, "%MTU%", "1400", 1),
			"phase1.yaml":         sub(phase1, "%FROM%", "1400", "%TO%", "8900", "%MACHINE%", "9000"),
			"phase2.yaml":         sub(phase2, "%MTU%", "8900"),
		}},

		// MTU005: phase 2 and changes without a migration
		ruleCase{rule: "MTU005", name: "phase 2 sets another MTU than network.to", files: map[string]string{
			"phase1.yaml": sub(phase1, "%FROM%", "8901", "%TO%", "1200", "%MACHINE%", "9001"),
			"phase2.yaml": sub(phase2, "%MTU%", "1250"),
		}, want: []string{`phase2.yaml:9:12: error: phase 2 sets ovnKubernetesConfig.mtu 1250, but phase 1 migrates to network.to 1200 (phase1.yaml:10): CNO rejects it with "cannot change ovn-kubernetes MTU without migration"; set ovnKubernetesConfig.mtu: 1200`}},
		ruleCase{rule: "MTU005", name: "phase 2 without an mtu", files: map[string]string{
			"phase1.yaml": sub(phase1, "%FROM%", "8901", "%TO%", "1200", "%MACHINE%", "9001"),
			"phase2.yaml": operatorNetwork + "  migration: null\n",
		}, want: []string{`phase2.yaml:6:14: error: phase 2 removes the migration without setting ovnKubernetesConfig.mtu: the spec keeps the old MTU 8901`}},
		ruleCase{rule: "MTU005", name: "mtu changed without a migration", files: map[string]string{
			"network-config.yaml": strings.Replace(networkConfigStatus, "%MTU%", "8901", 1),
			"network.yaml":        ovnMTU("1200"),
		}, want: []string{`network.yaml:9:12: error: ovnKubernetesConfig.mtu 1200 differs from the applied MTU 8901 (Network.config status.clusterNetworkMTU in network-config.yaml:6): CNO rejects it with "cannot change ovn-kubernetes MTU without migration"`}},
		ruleCase{rule: "MTU005", name: "phase 2 sets network.to", files: map[string]string{
			"network-config.yaml": strings.Replace(networkConfigStatus, "%MTU%", "8901", 1),
			"phase1.yaml":         sub(phase1, "%FROM%", "8901", "%TO%", "1200", "%MACHINE%", "9001"),
			"phase2.yaml":         sub(phase2, "%MTU%", "1200"),
		}},

		// MTU006: no-op
		ruleCase{rule: "MTU006", name: "from equals to", files: map[string]string{
			"phase1.yaml": sub(phase1, "%FROM%", "1400", "%TO%", "1400", "%MACHINE%", "1500"),
		}, want: []string{"phase1.yaml:10:13: warning: this MTU migration moves the cluster MTU from 1400 to 1400, which changes nothing"}},
		ruleCase{rule: "MTU006", name: "a real change", files: map[string]string{
			"phase1.yaml": sub(phase1, "%FROM%", "1400", "%TO%", "1300", "%MACHINE%", "1500"),
		}},

		// MTU007: machine MTU persisted
		ruleCase{rule: "MTU007", name: "jumbo frames without keyfiles", files: map[string]string{
			"phase1.yaml": operatorNetwork + `  migration:
    mtu:
      network: {from: 1400, to: 8900}
      machine: {from: 1500, to: 9000}
`,
			"mc/01-worker.yaml": keyfile("worker", "01-worker-interface", "9000"),
		}, want: []string{"phase1.yaml:9:33: warning: machine.to 9000 changes the uplink MTU from 1500 (machine.from), but machine.to is transient and no MachineConfig of this set persists it for one role: after phase 2 the nodes return to 1500 at the next reboot; add 01-control-plane-interface (role master) writing /etc/NetworkManager/conf.d/99-<iface>-mtu.conf with ethernet.mtu=9000"}},
		ruleCase{rule: "MTU007", name: "jumbo frames with both keyfiles", files: map[string]string{
			"phase1.yaml": operatorNetwork + `  migration:
    mtu:
      network: {from: 1400, to: 8900}
      machine: {from: 1500, to: 9000}
`,
			"mc/01-worker.yaml":        keyfileMCGzip,
			"mc/01-control-plane.yaml": keyfile("master", "01-control-plane-interface", "9000"),
		}},
		ruleCase{rule: "MTU007", name: "a keyfile still pins the old MTU", files: map[string]string{
			"phase1.yaml":              sub(phase1, "%FROM%", "1400", "%TO%", "8900", "%MACHINE%", "9000"),
			"mc/01-worker.yaml":        keyfile("worker", "01-worker-interface", "9000"),
			"mc/01-control-plane.yaml": keyfile("master", "01-control-plane-interface", "1500"),
		}, want: []string{"phase1.yaml:12:13: warning: machine.to 9000 changes the uplink MTU from 1500 (set by MachineConfig 01-control-plane-interface (role master, eno1))"}},
		ruleCase{rule: "MTU007", name: "AWS: machine.to stays at the VPC MTU", files: map[string]string{
			"install-config.yaml": installConfigAWS,
			"phase1.yaml":         sub(phase1, "%FROM%", "8901", "%TO%", "1200", "%MACHINE%", "9001"),
		}},
		ruleCase{rule: "MTU007", name: "AWS: machine.to lowered", files: map[string]string{
			"install-config.yaml": installConfigAWS,
			"phase1.yaml":         sub(phase1, "%FROM%", "8901", "%TO%", "1400", "%MACHINE%", "1500"),
		}, want: []string{"phase1.yaml:12:13: warning: machine.to 1500 changes the uplink MTU from 9001 (the AWS in-VPC MTU)"}},

		// MTU008: IPsec headroom
		ruleCase{rule: "MTU008", name: "IPsec on at the Geneve-sized MTU", files: map[string]string{
			"install-config.yaml": installConfigAWS,
			"network.yaml":        operatorNetwork + "  defaultNetwork:\n    ovnKubernetesConfig:\n      mtu: 8901\n      ipsecConfig:\n        mode: Full\n",
		}, want: []string{"network.yaml:8:12: error: IPsec Full needs 146 bytes of overhead (Geneve 100 + ESP 46), but ovnKubernetesConfig.mtu 8901 leaves only 100 to the uplink MTU 9001 (the AWS in-VPC MTU): lower the cluster MTU to 8855"}},
		ruleCase{rule: "MTU008", name: "day-2 IPsec patch against the applied MTU and keyfiles", files: map[string]string{
			"network-config.yaml": strings.Replace(networkConfigStatus, "%MTU%", "1400", 1),
			"ipsec.yaml":          operatorNetwork + "  defaultNetwork:\n    ovnKubernetesConfig:\n      ipsecConfig: {}\n",
			"mc/01-worker.yaml":   keyfile("worker", "01-worker-interface", "1500"),
		}, want: []string{"ipsec.yaml:8:20: error: IPsec Full needs 146 bytes of overhead (Geneve 100 + ESP 46), but the applied MTU 1400 (network-config.yaml:6) leaves only 100 to the uplink MTU 1500"}},
		ruleCase{rule: "MTU008", name: "IPsec with headroom", files: map[string]string{
			"install-config.yaml": installConfigAWS,
			"network.yaml":        operatorNetwork + "  defaultNetwork:\n    ovnKubernetesConfig:\n      mtu: 8855\n      ipsecConfig:\n        mode: Full\n",
		}},
		ruleCase{rule: "MTU008", name: "IPsec External adds nothing", files: map[string]string{
			"install-config.yaml": installConfigAWS,
			"network.yaml":        operatorNetwork + "  defaultNetwork:\n    ovnKubernetesConfig:\n      mtu: 8901\n      ipsecConfig:\n        mode: External\n",
		}},

		// MTU009: platform ceiling
		ruleCase{rule: "MTU009", name: "GCP node MTU 9000", files: map[string]string{
			"install-config.yaml": strings.Replace(installConfigAWS, "aws:\n    region: us-east-1", "gcp:\n    region: us-east1", 1),
			"mc/01-worker.yaml":   keyfile("worker", "01-worker-interface", "9000"),
		}, want: []string{"mc/01-worker.yaml:14:19: error: the ethernet.mtu of MachineConfig 01-worker-interface (role worker, eno1) 9000 is above 8896, the largest MTU gcp carries"}},
		ruleCase{rule: "MTU009", name: "AWS machine.to 9216", files: map[string]string{
			"install-config.yaml": installConfigAWS,
			"phase1.yaml":         sub(phase1, "%FROM%", "8901", "%TO%", "9116", "%MACHINE%", "9216"),
		}, want: []string{"phase1.yaml:12:13: error: machine.to 9216 is above 9001, the largest MTU aws carries"}},
		ruleCase{rule: "MTU009", name: "GCP node MTU 8896", files: map[string]string{
			"install-config.yaml": strings.Replace(installConfigAWS, "aws:\n    region: us-east-1", "gcp:\n    region: us-east1", 1),
			"mc/01-worker.yaml":   keyfile("worker", "01-worker-interface", "8896"),
		}},

		// MTU010: mixed uplinks at install time without a cluster MTU
		ruleCase{rule: "MTU010", name: "keyfiles 9000 and 1500, no cluster MTU", files: map[string]string{
			"install-config.yaml":                 installConfigBareMetal,
			"openshift/99-worker-mtu.yaml":        keyfile("worker", "01-worker-interface", "9000"),
			"openshift/99-control-plane-mtu.yaml": keyfile("master", "01-control-plane-interface", "1500"),
		}, want: []string{"install-config.yaml:8:3: warning: the MachineConfigs give the nodes different uplink MTUs (MachineConfig 01-control-plane-interface (role master, eno1): 1500, MachineConfig 01-worker-interface (role worker, eno1): 9000) and no cluster MTU is set"}},
		ruleCase{rule: "MTU010", name: "keyfiles 9000 and 1500, cluster MTU 1400", files: map[string]string{
			"install-config.yaml":                     installConfigBareMetal,
			"manifests/cluster-network-03-config.yml": ovnMTU("1400"),
			"openshift/99-worker-mtu.yaml":            keyfile("worker", "01-worker-interface", "9000"),
			"openshift/99-control-plane-mtu.yaml":     keyfile("master", "01-control-plane-interface", "1500"),
		}},

		// MTU011: CEL clash
		ruleCase{rule: "MTU011", name: "offline network type migration with an MTU migration", files: map[string]string{
			"migration.yaml": operatorNetwork + `  migration:
    networkType: OVNKubernetes
    mtu:
      network: {from: 1450, to: 1400}
      machine: {to: 1500}
`,
		}, want: []string{`migration.yaml:7:18: error: spec.migration sets networkType OVNKubernetes in mode Offline (the default) together with mtu: the API server rejects it with "networkType migration in mode other than 'Live' may not be configured at the same time as mtu migration"`}},
		ruleCase{rule: "MTU011", name: "live network type migration with an MTU migration", files: map[string]string{
			"migration.yaml": operatorNetwork + `  migration:
    networkType: OVNKubernetes
    mode: Live
    mtu:
      network: {from: 1450, to: 1400}
      machine: {to: 1500}
`,
		}},

		// MTU013: CNO release-4.16 pkg/controller/clusterconfig/migration.go
		// prepareOperatorConfigForNetworkTypeMigration owns spec.migration
		// during a live migration (the Network.config of net_test.go).
		ruleCase{rule: "MTU013", name: "MTU migration next to a live network type migration", files: map[string]string{
			"network-config.yaml": strings.Replace(liveMigrationConfig, "%SERVICE%", "172.30.0.0/16", 1),
			"phase1.yaml":         sub(phase1, "%FROM%", "1450", "%TO%", "1400", "%MACHINE%", "1500"),
		}, want: []string{`phase1.yaml:8:7: error: spec.migration.mtu is set while the live network type migration started by network.openshift.io/network-type-migration in network-config.yaml:6:5 runs`}},
		ruleCase{rule: "MTU013", name: "MTU migration without a live migration", files: map[string]string{
			"network-config.yaml": strings.Replace(networkConfigStatus, "%MTU%", "1450", 1),
			"phase1.yaml":         sub(phase1, "%FROM%", "1450", "%TO%", "1400", "%MACHINE%", "1500"),
		}},
		ruleCase{rule: "MTU013", name: "live migration after the MTU migration (phase 2)", files: map[string]string{
			"network-config.yaml": strings.Replace(liveMigrationConfig, "%SERVICE%", "172.30.0.0/16", 1),
			"phase2.yaml":         strings.Replace(phase2, "%MTU%", "1400", 1),
		}},

		// MTU012: openshift/installer pkg/types/validation/installconfig_test.go,
		// cases "networking clusterNetworkMTU - ..." (validInstallConfig is AWS).
		ruleCase{rule: "MTU012", name: "installer: invalid for non-aws", files: map[string]string{
			"install-config.yaml": installConfigBareMetal + "  clusterNetworkMTU: 8901\n",
		}, want: []string{`install-config.yaml:16:22: error: networking.clusterNetworkMTU 8901: the installer refuses it ("cluster network MTU is allowed only in AWS deployments"); remove it and set the MTU in the operator Network manifest`}},
		ruleCase{rule: "MTU012", name: "installer: unsupported network type", files: map[string]string{
			"install-config.yaml": strings.Replace(installConfigAWS, "OVNKubernetes", "OpenShiftSDN", 1) + "  clusterNetworkMTU: 8000\n",
		}, want: []string{`install-config.yaml:10:22: error: networking.clusterNetworkMTU 8000: the installer refuses it ("cluster network MTU is not valid with network plugin OpenShiftSDN")`}},
		ruleCase{rule: "MTU012", name: "installer: invalid value lower", files: map[string]string{
			"install-config.yaml": installConfigAWS + "  clusterNetworkMTU: 999\n",
		}, want: []string{`install-config.yaml:10:22: error: networking.clusterNetworkMTU 999: the installer refuses it ("cluster network MTU is lower than the minimum value of 1000"); use 1000..8901 with OVNKubernetes`}},
		ruleCase{rule: "MTU012", name: "installer: invalid jumbo value", files: map[string]string{
			"install-config.yaml": installConfigAWS + "  clusterNetworkMTU: 9002\n",
		}, want: []string{`install-config.yaml:10:22: error: networking.clusterNetworkMTU 9002: the installer refuses it ("cluster network MTU exceeds the maximum value of 9001")`}},
		ruleCase{rule: "MTU012", name: "installer: one above the OVN-Kubernetes limit", files: map[string]string{
			"install-config.yaml": installConfigAWS + "  clusterNetworkMTU: 8902\n",
		}, want: []string{`install-config.yaml:10:22: error: networking.clusterNetworkMTU 8902: the installer refuses it ("cluster network MTU exceeds the maximum value with the network plugin OVNKubernetes of 8901")`}},
		ruleCase{rule: "MTU012", name: "installer: valid high limit ovn", files: map[string]string{
			"install-config.yaml": installConfigAWS + "  clusterNetworkMTU: 8901\n",
		}},
		ruleCase{rule: "MTU012", name: "installer: edge pool value", files: map[string]string{
			"install-config.yaml": installConfigAWS + "  clusterNetworkMTU: 1200\n",
		}},
		ruleCase{rule: "MTU012", name: "installer: network type defaulted to OVNKubernetes", files: map[string]string{
			"install-config.yaml": strings.Replace(installConfigAWS, "  networkType: OVNKubernetes\n", "", 1) + "  clusterNetworkMTU: 1200\n",
		}},
		ruleCase{rule: "MTU012", name: "installer: deprecated type OpenShiftSDN", files: map[string]string{
			"install-config.yaml": strings.Replace(installConfigAWS, "networkType: OVNKubernetes", "type: openshiftsdn", 1) + "  clusterNetworkMTU: 8000\n",
		}, want: []string{`install-config.yaml:10:22: error: networking.clusterNetworkMTU 8000: the installer refuses it ("cluster network MTU is not valid with network plugin OpenShiftSDN")`}},
	)
}

// siteCase is a site fixture linted with one rule.
type siteCase struct {
	rule, name string
	site       string // site.yaml
	want       []string
}

const siteBase = `apiVersion: siteforge.dev/v1alpha1
kind: Site
name: s
cluster:
  baseDomain: example.com
  version: "%VERSION%"
  platform: %PLATFORM%
  installMethod: ipi
  lifecycle: %LIFECYCLE%
`

func siteYAML(version, plat, lifecycle, rest string) string {
	return sub(siteBase, "%VERSION%", version, "%PLATFORM%", plat, "%LIFECYCLE%", lifecycle) + rest
}

const remoteWorkerPools = `pools:
  master: {uplinkInterface: eno1, uplinkMTU: 1500, count: 3}
  remote: {placement: remote, uplinkInterface: eno1, uplinkMTU: 1500, count: 2}
paths:
- between: [remote, master]
  mtu: 1400
`

var siteCases = []siteCase{
	{rule: "MTU001", name: "target too large for the WAN path", site: siteYAML("4.16", "baremetal", "install", `network:
  machineNetwork: [10.0.0.0/24]
`+remoteWorkerPools+`mtu:
  target: 1400
`), want: []string{"site.yaml:19:11: error: cluster MTU 1400 + 100 overhead is larger than the path master <-> remote (remote: remote) (MTU 1400, site: paths[0]): at most 1300 fits"}},
	{rule: "MTU001", name: "target fits the WAN path", site: siteYAML("4.16", "baremetal", "install", `network:
  machineNetwork: [10.0.0.0/24]
`+remoteWorkerPools+`mtu:
  target: 1300
`)},
	{rule: "MTU001", name: "IPsec headroom on the uplink is MTU008's", site: siteYAML("4.16", "baremetal", "install", `network:
  machineNetwork: [10.0.0.0/24]
  ipsec: Full
pools:
  master: {uplinkInterface: eno1, uplinkMTU: 1500, count: 3}
mtu:
  target: 1400
`)},
	{rule: "MTU002", name: "dual-stack with an AWS Local Zone pool", site: siteYAML("4.16", "aws", "install", `network:
  machineNetwork: [10.0.0.0/16]
  clusterNetwork:
  - {cidr: 10.128.0.0/14, hostPrefix: 23}
  - {cidr: "fd01::/48", hostPrefix: 64}
pools:
  master: {placement: region, uplinkInterface: ens5, uplinkMTU: 9001, count: 3}
  edge: {role: worker, placement: aws-local-zone, zone: us-east-1-nyc-1a, uplinkInterface: ens5, uplinkMTU: 9001, count: 1}
`), want: []string{"site.yaml:17:35: error: the path edge <-> master (edge: aws-local-zone us-east-1-nyc-1a) carries 1300 bytes, which leaves 1200 after 100 bytes of Geneve overhead, below the IPv6 minimum 1280"}},
	{rule: "MTU002", name: "dual-stack in the Region only", site: siteYAML("4.16", "aws", "install", `network:
  machineNetwork: [10.0.0.0/16]
  clusterNetwork:
  - {cidr: 10.128.0.0/14, hostPrefix: 23}
  - {cidr: "fd01::/48", hostPrefix: 64}
pools:
  master: {placement: region, uplinkInterface: ens5, uplinkMTU: 9001, count: 3}
`)},
	{rule: "MTU008", name: "IPsec Full with a Geneve-sized target", site: siteYAML("4.16", "baremetal", "install", `network:
  machineNetwork: [10.0.0.0/24]
  ipsec: Full
pools:
  master: {uplinkInterface: eno1, uplinkMTU: 1500, count: 3}
mtu:
  target: 1400
`), want: []string{"site.yaml:16:11: error: cluster MTU 1400 leaves 100 bytes to the uplink of pool master (MTU 1500), but IPsec Full needs 146 (Geneve 100 + ESP 46): set mtu.target to at most 1354"}},
	{rule: "MTU008", name: "IPsec Full with a computed target", site: siteYAML("4.16", "baremetal", "install", `network:
  machineNetwork: [10.0.0.0/24]
  ipsec: Full
pools:
  master: {uplinkInterface: eno1, uplinkMTU: 1500, count: 3}
`)},
	{rule: "MTU009", name: "AWS uplink above 9001", site: siteYAML("4.16", "aws", "install", `network:
  machineNetwork: [10.0.0.0/16]
pools:
  master: {uplinkInterface: ens5, uplinkMTU: 9216, count: 3}
`), want: []string{"site.yaml:13:46: error: pools.master.uplinkMTU 9216 is above 9001, the largest MTU aws carries"}},
	{rule: "MTU009", name: "AWS uplink 9001", site: siteYAML("4.16", "aws", "install", `network:
  machineNetwork: [10.0.0.0/16]
pools:
  master: {uplinkInterface: ens5, uplinkMTU: 9001, count: 3}
`)},
	{rule: "MTU010", name: "mixed uplinks, no target", site: siteYAML("4.16", "baremetal", "install", `network:
  machineNetwork: [10.0.0.0/24]
pools:
  master: {uplinkInterface: eno1, uplinkMTU: 1500, count: 3}
  worker: {uplinkInterface: eno1, uplinkMTU: 9000, count: 3}
`), want: []string{"site.yaml:13:46: warning: the pools' uplinks have different MTUs (master 1500, worker 9000) and mtu.target is not set: install-time detection probes one node's default-route link, and from a 9000 uplink would pick 8900; siteforge computes 1400"}},
	{rule: "MTU010", name: "mixed uplinks, explicit target", site: siteYAML("4.16", "baremetal", "install", `network:
  machineNetwork: [10.0.0.0/24]
pools:
  master: {uplinkInterface: eno1, uplinkMTU: 1500, count: 3}
  worker: {uplinkInterface: eno1, uplinkMTU: 9000, count: 3}
mtu:
  target: 1400
`)},
}

// lintSite loads a site from YAML and lints it with one rule.
func lintSite(t *testing.T, src string, rule string) lint.Result {
	t.Helper()
	l, err := load.New()
	if err != nil {
		t.Fatal(err)
	}
	res := l.LoadSource("site.yaml", []byte(src))
	if len(res.Diagnostics) > 0 || len(res.Sites) != 1 {
		t.Fatalf("site fixture does not load: %v", res.Diagnostics)
	}
	out, err := lint.Run(&lint.Input{Sites: []*lint.Site{{Site: res.Sites[0]}}}, lint.Options{Enable: []string{rule}})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func checkFindings(t *testing.T, res lint.Result, want []string) {
	t.Helper()
	var got []string
	for _, f := range res.Findings {
		got = append(got, f.Pos.String()+": "+f.Severity.String()+": "+f.Message)
	}
	if len(got) != len(want) {
		t.Fatalf("got %d findings, want %d:\n  %s", len(got), len(want), strings.Join(got, "\n  "))
	}
	for i, w := range want {
		if !strings.Contains(got[i], w) {
			t.Errorf("finding %d:\n  %s\nwant it to contain\n  %s", i, got[i], w)
		}
	}
}

func TestSiteRuleCases(t *testing.T) {
	for _, tc := range siteCases {
		t.Run(tc.rule+"/"+tc.name, func(t *testing.T) {
			checkFindings(t, lintSite(t, tc.site, tc.rule), tc.want)
		})
	}
}
