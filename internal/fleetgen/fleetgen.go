// Package fleetgen writes a synthetic fleet of realistic sites for
// benchmarks (`make fleet N=... OUT=...`). It is not part of the siteforge
// command: its main package builds only with the fleetgen build tag.
package fleetgen

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// defaults are the fleet-wide values, as a platform team would write them:
// defaults (*) that sites override.
const defaults = `// Synthetic fleet defaults (siteforge fleetgen).
package site

apiVersion: "siteforge.dev/v1alpha1"
kind:       "Site"
cluster: {
	baseDomain:    *"fleet.example.com" | string
	version:       *"4.16" | string
	platform:      *"baremetal" | string
	installMethod: *"agent" | string
	connectivity:  *"disconnected" | "connected"
	lifecycle:     *"install" | string
}
network: type: *"OVNKubernetes" | string
pools: [string]: {
	uplinkInterface: *"eno1" | string
	uplinkMTU:       *1500 | int
}
mirroring: {
	quayCache: {
		host: *"quay.hub.fleet.example.com:8443" | string
		orgs: {
			"registry-redhat-io": "registry.redhat.io"
			"ocp4-mirror":        "quay.io/openshift-release-dev"
		}
		policy: *"NeverContactSource" | "AllowContactingSource"
	}
	additionalTrustedCA: configMap: *"registry-cas" | string
	catalogs: "redhat-operators": image: *"registry.redhat.io/redhat/redhat-operator-index:v4.16" | string
}
`

// Write creates dir/defaults.cue and dir/sites/site-NNNNN/site.cue for n
// sites. The same n always gives the same bytes.
func Write(dir string, n int) error {
	if err := os.MkdirAll(filepath.Join(dir, "sites"), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "defaults.cue"), []byte(defaults), 0o644); err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("site-%05d", i)
		d := filepath.Join(dir, "sites", name)
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(d, "site.cue"), []byte(Site(i)), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Site returns site i: the kind cycles through the examples' features
// (AWS edge pool, disconnected bare metal with a cache, remote workers with a
// shard and EgressIPs, single node), the addresses follow from i.
func Site(i int) string {
	a, b := 10+i/250%200, i%250 // 10.a.b.0/24 unique per site
	net := fmt.Sprintf("10.%d.%d", a, b)
	var s strings.Builder
	fmt.Fprintf(&s, "package site\n\nname: %q\n", fmt.Sprintf("site-%05d", i))
	switch i % 4 {
	case 0: // AWS with a Local Zone edge pool, running, MTU migration pending
		fmt.Fprintf(&s, `cluster: {platform: "aws", region: "us-east-1", installMethod: "ipi", connectivity: "connected", lifecycle: "running"}
network: machineNetwork: ["%[1]s.0/24"]
pools: {
	master: {placement: "region", uplinkInterface: "ens5", uplinkMTU: 9001, count: 3}
	worker: {placement: "region", uplinkInterface: "ens5", uplinkMTU: 9001, count: 3}
	edge: {role: "worker", placement: "aws-local-zone", zone: "us-east-1-nyc-1a", uplinkInterface: "ens5", uplinkMTU: 9001, count: 2}
}
mtu: {current: 8901, machine: 9001}
`, net)
	case 1: // disconnected bare metal through the fleet cache, chrony
		fmt.Fprintf(&s, `network: {
	machineNetwork: ["%[1]s.0/24"]
	apiVIPs: ["%[1]s.5"]
	ingressVIPs: ["%[1]s.6"]
}
pools: {
	master: nodes: [{name: "master-0", ip: "%[1]s.11"}, {name: "master-1", ip: "%[1]s.12"}, {name: "master-2", ip: "%[1]s.13"}]
	worker: nodes: [{name: "worker-0", ip: "%[1]s.21"}, {name: "worker-1", ip: "%[1]s.22"}]
}
machineConfigs: "99-worker-chrony": {
	pool: "worker"
	butane: """
		storage:
		  files:
		    - path: /etc/chrony.conf
		      mode: 0644
		      overwrite: true
		      contents:
		        inline: |
		          server ntp.%[2]s.fleet.example.com iburst
		"""
}
`, net, fmt.Sprintf("s%d", i))
	case 2: // remote workers, a shard and EgressIPs
		remote := fmt.Sprintf("10.%d.%d", 210+i/250%40, b)
		fmt.Fprintf(&s, `// 4.12: before bare-metal IPI auto-detects remote workers (a shard may
		// run on them, with the manual keepalived fix)
		cluster: {installMethod: "ipi", version: "4.12", connectivity: "connected"}
network: {
	machineNetwork: ["%[1]s.0/24", "%[2]s.0/24"]
	apiVIPs: ["%[1]s.5"]
	ingressVIPs: ["%[1]s.6"]
}
pools: {
	master: nodes: [{name: "master-0", ip: "%[1]s.11"}, {name: "master-1", ip: "%[1]s.12"}, {name: "master-2", ip: "%[1]s.13"}]
	worker: nodes: [{name: "worker-0", ip: "%[1]s.21"}, {name: "worker-1", ip: "%[1]s.22"}]
	"remote-worker": {
		role: "custom"
		placement: "remote"
		subnets: ["%[2]s.0/24"]
		nodes: [{name: "rw-0", ip: "%[2]s.11"}, {name: "rw-1", ip: "%[2]s.12"}]
		labels: "node-role.kubernetes.io/remote-worker": ""
	}
}
paths: [{between: ["remote-worker", "master"], mtu: 1400}, {between: ["remote-worker", "worker"], mtu: 1400}]
ingress: {
	default: pools: ["master"]
	shards: remote: {
		domain: "apps-remote.site-%05[3]d.fleet.example.com"
		pools: ["remote-worker"]
		routeSelector: matchLabels: type: "remote"
		replicas: 2
	}
}
egress: {
	assignablePools: ["worker", "remote-worker"]
	egressIPs: {
		"main-subnet": {ips: ["%[1]s.200"], namespaceSelector: matchLabels: egress: "main"}
		"remote-subnet": {ips: ["%[2]s.200"], namespaceSelector: matchLabels: egress: "remote"}
	}
}
`, net, remote, i)
	default: // single node
		fmt.Fprintf(&s, `cluster: platform: "none"
network: machineNetwork: ["%[1]s.0/24"]
pools: master: nodes: [{name: "sno-0", ip: "%[1]s.11"}]
`, net)
	}
	return s.String()
}
