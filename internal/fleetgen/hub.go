package fleetgen

import (
	"fmt"
	"os"
	"path/filepath"
)

// hubDefaults are the defaults of a fleet of stores installed from a hub
// (as examples/fleet): single-node stores on bare metal, disconnected
// through the hub's Quay cache, labelled for the hub's placements with
// their fleet, release, region and store.
const hubDefaults = `// Synthetic hub-installed fleet defaults (siteforge fleetgen).
package site

import "regexp"

apiVersion: "siteforge.dev/v1alpha1"
kind:       "Site"
name:       string
cluster: {
	baseDomain:    *"fleet.example.com" | string
	version:       *"4.16" | string
	platform:      "none"
	installMethod: "assisted"
	connectivity:  "disconnected"
	lifecycle:     "install"
}
network: type: "OVNKubernetes"
pools: [string]: {
	uplinkInterface: *"eno1" | string
	uplinkMTU:       *1500 | int
}
let minor = regexp.FindSubmatch(#"^(4\.[0-9]+)"#, cluster.version)[1]
install: {
	ntpSources: ["ntp.hub.fleet.example.com"]
	hub: {
		pullSecretRef:   "assisted-deployment-pull-secret"
		clusterImageSet: "openshift-" + minor
		clusterLabels: {
			fleet:   "stores"
			release: minor
			store:   name
		}
	}
}
mirroring: {
	quayCache: {
		host: "quay.hub.fleet.example.com:8443"
		orgs: {
			"registry-redhat-io": "registry.redhat.io"
			"ocp4-mirror":        "quay.io/openshift-release-dev"
		}
		policy: "AllowContactingSource"
	}
	additionalTrustedCA: configMap: "registry-cas"
	defaultCatalogs: ["redhat-operators", "certified-operators"]
}
`

// WriteHub creates a fleet of n stores installed from a hub in dir (every
// 20th store a canary on the next release; 8 regions, each with its own
// time servers in a MachineConfig; every 50th store with a MachineConfig of
// its own, which only a site policy can deliver): dir/defaults.cue and
// dir/sites/store-NNNNN/site.cue. With acm, the fleet delivers day 2
// through the hub (delivery: acm: {}) and each store carries its region as
// a cluster label. The same arguments always give the same bytes.
func WriteHub(dir string, n int, acm bool) error {
	if err := os.MkdirAll(filepath.Join(dir, "sites"), 0o755); err != nil {
		return err
	}
	defaults := hubDefaults
	if acm {
		defaults += "\ndelivery: acm: {}\n"
	}
	if err := os.WriteFile(filepath.Join(dir, "defaults.cue"), []byte(defaults), 0o644); err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("store-%05d", i)
		d := filepath.Join(dir, "sites", name)
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(d, "site.cue"), []byte(HubSite(i)), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// HubSite returns store i of WriteHub.
func HubSite(i int) string {
	a, b := 10+i/250%200, i%250
	net := fmt.Sprintf("10.%d.%d", a, b)
	version := ""
	if i%20 == 19 {
		version = "cluster: version: \"4.17\"\n"
	}
	region := i % 8
	own := ""
	if i%50 == 7 {
		own = fmt.Sprintf(`machineConfigs: "99-master-store-motd": {
	pool: "master"
	butane: """
		storage:
		  files:
		    - path: /etc/motd
		      mode: 0644
		      overwrite: true
		      contents:
		        inline: |
		          store-%05d
		"""
}
`, i)
	}
	return fmt.Sprintf(`package site

name: %[1]q
%[2]sinstall: hub: clusterLabels: region: "region-%[3]d"
network: machineNetwork: ["%[4]s.0/24"]
pools: master: nodes: [{
	name:    "sno-0"
	ip:      "%[4]s.11"
	bootMAC: "b8:ca:3a:%02[5]x:%02[6]x:11"
	bmc: {
		address:           "redfish-virtualmedia+https://10.%[7]d.%[6]d.11/redfish/v1/Systems/System.Embedded.1"
		credentialsSecret: "sno-0-bmc"
	}
	rootDeviceHints: deviceName: "/dev/disk/by-path/pci-0000:18:00.0-scsi-0:2:0:0"
}]
machineConfigs: "99-master-chrony": {
	pool: "master"
	butane: """
		storage:
		  files:
		    - path: /etc/chrony.conf
		      mode: 0644
		      overwrite: true
		      contents:
		        inline: |
		          server ntp.region-%[3]d.fleet.example.com iburst
		"""
}
`, fmt.Sprintf("store-%05d", i), version, region, net, a, b, 110+i/250%100) + own
}
