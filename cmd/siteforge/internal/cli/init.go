package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/spf13/pflag"

	"github.com/siteforge/siteforge/internal/diag"
)

func init() {
	register(&command{
		name:    "init",
		args:    "DIR",
		summary: "write a commented site description that passes vet",
		help: `Creates DIR (which must not exist or be empty) with site.cue, a bare-metal site
to edit. The site is named after DIR when DIR's name is a DNS-1123 label.`,
		flags: func(fs *pflag.FlagSet) func(env, []string) int {
			name := fs.String("name", "", "site name (default: DIR's name)")
			return func(e env, args []string) int {
				if len(args) != 1 {
					fmt.Fprintln(e.stderr, "siteforge init: expected exactly one DIR\nusage: siteforge init DIR")
					return ExitFailure
				}
				chosen, err := initSite(args[0], *name)
				if err != nil {
					fmt.Fprintf(e.stderr, "siteforge init: %s\n", diag.Clean(err.Error()))
					return ExitFailure
				}
				if *name == "" && chosen == defaultSiteName {
					fmt.Fprintf(e.stderr, "siteforge init: note: \"%s\" is not a DNS-1123 label (lowercase letters, digits and '-'), so the site is named %q: change name in site.cue, or run init again with --name\n",
						diag.Clean(filepath.Base(filepath.Clean(args[0]))), chosen)
				}
				fmt.Fprintf(e.stdout, "wrote %s\nnext: edit it, then run: siteforge vet %s\n", diag.SafeLine(filepath.Join(args[0], "site.cue")), diag.Clean(args[0]))
				return ExitOK
			}
		},
	})
}

var dnsLabel = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$`)

// defaultSiteName names a site whose folder's name is not a DNS-1123 label.
const defaultSiteName = "my-site"

// initSite writes the scaffold and returns the site's name.
func initSite(dir, name string) (string, error) {
	if name == "" {
		name = strings.ToLower(filepath.Base(filepath.Clean(dir)))
		if !dnsLabel.MatchString(name) {
			name = defaultSiteName
		}
	}
	if !dnsLabel.MatchString(name) {
		return "", fmt.Errorf("site name \"%s\" is not a DNS-1123 label (lowercase letters, digits and '-', at most 63 characters)", name)
	}
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return "", fmt.Errorf("%s is not empty; init writes only into a new or empty directory", dir)
	} else if err != nil && !os.IsNotExist(err) {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	return name, os.WriteFile(filepath.Join(dir, "site.cue"), []byte(strings.ReplaceAll(siteTemplate, "SITENAME", name)), 0o644)
}

// siteTemplate is the scaffold `init` writes: every section commented, the
// optional ones commented out.
const siteTemplate = `// Site description for siteforge (siteforge.dev/v1alpha1).
// Check it with: siteforge vet <this directory>
// Print the full schema with: siteforge schema
package site

apiVersion: "siteforge.dev/v1alpha1"
kind:       "Site"

// The site name is a DNS-1123 label; it names the output folder.
name: "SITENAME"

cluster: {
	// name defaults to the site name
	baseDomain: "example.com"
	// "4.N" or "4.N.z"
	version: "4.16"
	// aws, azure, gcp, vsphere, baremetal, openstack, nutanix or none
	platform: "baremetal"
	// ipi, upi, agent or assisted
	installMethod: "agent"
	// connected or disconnected
	connectivity: "connected"
	// "install" for a cluster still to be installed (day-0 outputs),
	// "running" for an existing one (day-2 outputs, migrations)
	lifecycle: "install"
}

network: {
	// OVNKubernetes (default) or OpenShiftSDN
	type: "OVNKubernetes"
	// installer defaults, shown here to be changed
	clusterNetwork: [{cidr: "10.128.0.0/14", hostPrefix: 23}]
	serviceNetwork: ["172.30.0.0/16"]
	machineNetwork: ["192.168.10.0/24"]
	apiVIPs: ["192.168.10.5"]
	ingressVIPs: ["192.168.10.6"]
	// Disabled, Full (adds 46 bytes of overlay overhead) or External
	ipsec: "Disabled"
}

// Node pools, keyed by name. role is master, worker, or custom (a
// MachineConfigPool named after the pool that inherits worker).
pools: {
	master: {
		uplinkInterface: "eno1"
		// the MTU of the NIC carrying the default route
		uplinkMTU: 1500
		nodes: [
			{name: "master-0", ip: "192.168.10.10"},
			{name: "master-1", ip: "192.168.10.11"},
			{name: "master-2", ip: "192.168.10.12"},
		]
	}
	worker: {
		uplinkInterface: "eno1"
		uplinkMTU:       1500
		count:           2
	}
}

// Links between pools smaller than their uplinks (a WAN to remote workers,
// an AWS Local Zone at 1300 bytes, ...):
// paths: [{between: ["remote", "master"], mtu: 1400, note: "site VPN"}]

// For a running cluster: the cluster MTU applied now, and the one wanted
// (computed from the pools and paths when absent).
// mtu: {current: 1400, machine: 1500}

// Image mirroring:
// mirroring: {
// 	sources: "registry.redhat.io": {mirrors: ["mirror.example.com:8443/redhat"], serves: "both"}
// 	catalogs: "redhat-operators": image: "registry.redhat.io/redhat/redhat-operator-index:v4.16"
// }

// Ingress shards and EgressIPs:
// ingress: shards: internal: {domain: "apps-internal.example.com", pools: ["worker"], routeSelector: matchLabels: type: "internal"}
// egress: {assignablePools: ["worker"], egressIPs: "finance": {ips: ["192.168.10.200"], namespaceSelector: matchLabels: team: "finance"}}

// Lint suppressions need a reason:
// lint: suppress: [{rule: "MIR001", reason: "catalog pulled through the proxy"}]
`
