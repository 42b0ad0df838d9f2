package network

import (
	"fmt"

	"github.com/siteforge/siteforge/internal/cluster/mtu"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/site"
)

// runbook writes network/sdn-migration-runbook.md.
func (m *sdnMigration) runbook(s *site.Site) []byte {
	r := newRunbook(s, fmt.Sprintf("Migration of %s from OpenShift SDN to OVN-Kubernetes (%s)", s.Name, m.mode))

	r.p("The procedure of the OpenShift docs \"Migrating from the OpenShift SDN network plugin\", with this site's values. " +
		"Do not script it end to end: run each step, and check its result before the next.")
	r.h2("Versions")
	r.table([]string{"release", "OpenShift SDN"}, [][]string{
		{platform.SDNOfflineMigrationSince.String(), "offline migration supported"},
		{platform.SDNDeprecatedSince.String(), "deprecated"},
		{platform.SDNNotInstallableSince.String(), "not installable; live migration in CNO"},
		{platform.SDNLiveMigrationDocumentedSince.String(), "live migration documented; Upgradeable=False while SDN runs: migrate before upgrading"},
		{platform.SDNRemovedSince.String(), "removed: CNO rejects the network type"},
	})
	r.p("This cluster runs %s. Update it to the latest %s z-stream first, so that every migration fix applies.", s.Cluster.Version, m.minor)

	r.h2("MTU")
	switch {
	case m.mode == site.MigrationLive && m.current != nil:
		r.p("The live migration keeps one overlay MTU for both plugins while they run side by side, so it lowers the cluster "+
			"MTU by %d itself: %d -> %d (OVN-Kubernetes needs %d bytes of overhead where OpenShift SDN needed %d). Nothing to set.",
			liveMTUDrop, *m.current, m.ovnMTU, platform.GeneveOverhead, platform.VXLANOverhead)
	case m.mode == site.MigrationLive:
		r.p("The live migration lowers the cluster MTU by %d itself (OVN-Kubernetes needs %d bytes of overhead where OpenShift SDN "+
			"needed %d). Set `mtu.current` in the site to see the resulting value here.", liveMTUDrop, platform.GeneveOverhead, platform.VXLANOverhead)
	default:
		was := "the SDN MTU"
		if m.current != nil {
			was = fmt.Sprint(*m.current)
		}
		r.p("An OpenShift SDN cluster runs at node MTU - %d; OVN-Kubernetes needs node MTU - %d, so the MTU must drop. "+
			"Step 2 sets it explicitly (the automatic value would come from one node's uplink only): %s -> %d, the smallest "+
			"link overlay traffic crosses (%s, %d bytes) minus %d. The Geneve port stays at its default %d (it must differ from "+
			"the VXLAN port %d).",
			platform.VXLANOverhead, platform.GeneveOverhead, was, m.ovnMTU, mtu.LinkNames(m.ovn.BindingLinks()), m.ovn.Smallest,
			m.ovn.Overhead, platform.GenevePortDefault, platform.VXLANPortDefault)
	}

	r.h2("Reboots")
	var rows [][]string
	total, known := 0, true
	for _, name := range s.PoolNames() {
		pool := s.Pools[name]
		n := pool.Size()
		count, cost := fmt.Sprint(n), "2 per node"
		if n < 0 {
			known, count = false, "unknown"
		} else {
			total += 2 * n
			cost = fmt.Sprintf("%d (2 per node)", 2*n)
		}
		if m.mode == site.MigrationLive {
			rows = append(rows, []string{name, pool.MachineConfigPool(), count, "1 (MTU)", "1 (plugin switch)", cost})
		} else {
			rows = append(rows, []string{name, pool.MachineConfigPool(), count, "1 (step 1, rolling)", "1 (step 3, every node by hand)", cost})
		}
	}
	r.table([]string{"pool", "MachineConfigPool", "nodes", "first", "second", "reboots"}, rows)
	if known {
		r.p("In all: %d node reboots.", total)
	}
	if m.mode == site.MigrationLive {
		m.liveSteps(s, r)
	} else {
		m.offlineSteps(s, r)
	}
	r.h2("Afterwards")
	r.p("Set `network.type: \"OVNKubernetes\"` in the site, remove `networkMigration`, set `mtu.current` to the new MTU and render again.")
	return r.Bytes()
}

func (m *sdnMigration) liveSteps(s *site.Site, r *runbook) {
	r.h2("0. Before you start")
	r.p("The live migration refuses to start (NetworkTypeMigrationInProgress False with a message) on a cluster with any of "+
		"the following. siteforge checked what the site describes: the cluster, service and machine networks do not overlap "+
		"OVN-Kubernetes' internal subnets (%s, %s, %s). Check the rest on the cluster:",
		platform.OVNJoinSubnetV4, platform.OVNTransitSubnetV4, masqueradeV4(s))
	r.sh(
		"oc get network.operator cluster -o jsonpath='{.spec.defaultNetwork.openshiftSDNConfig.mode}{\"\\n\"}'   # not Multitenant",
		fmt.Sprintf("oc get pods -A -o json | jq -r '.items[] | select(.metadata.annotations // {} | has(\"%s\")) | .metadata.namespace + \"/\" + .metadata.name'   # no egress router pods (CNO refuses any pod with the annotation, whatever its value)", platform.EgressRouterAnnotation),
		"oc get network.operator cluster -o jsonpath='{.spec.migration}{\"\\n\"}'   # empty: no MTU migration in progress",
		"oc get co; oc get mcp   # everything Available, every pool Updated",
	)
	r.p("Hosted control planes (HyperShift) are not supported. Multicast and egress IPs stop working while both plugins run.")
	st := m.steps[0]
	r.h2("1. Start the live migration")
	r.sh(st.command())
	r.p("(JSON: `%s`; on one line: `oc patch %s %s --type=merge -p '%s'`)", st.jsonPath(), st.resource, platform.ConfigSingletonName, compactJSON(st.patch))
	r.p("CNO sets the routable MTU (one rolling reboot of every pool), deploys OVN-Kubernetes next to OpenShift SDN, switches every " +
		"node (a second rolling reboot), then removes OpenShift SDN and spec.migration itself. Follow it and wait for the end:")
	r.sh(
		"oc get network.config cluster -o jsonpath='{range .status.conditions[*]}{.type}={.status} {.reason}{\"\\n\"}{end}'",
		fmt.Sprintf("oc wait network.config cluster --for=condition=%s=False --timeout=%s", platform.NetworkTypeMigrationCondition, waitTimeout(s, 2)),
		fmt.Sprintf("oc get network.config cluster -o jsonpath='{.status.conditions[?(@.type==\"%s\")].reason}{\"\\n\"}'   # NetworkTypeMigrationCompleted", platform.NetworkTypeMigrationCondition),
		"oc get network.config cluster -o jsonpath='{.status.networkType} {.status.clusterNetworkMTU}{\"\\n\"}'",
	)
}

func (m *sdnMigration) offlineSteps(s *site.Site, r *runbook) {
	r.p("The offline migration takes the cluster network down between step 3 and the end of the reboots.")
	r.h2("0. Before you start")
	r.sh(
		"oc get network.config cluster -o yaml > cluster-openshift-sdn.yaml   # for a rollback",
		"oc get network.operator cluster -o jsonpath='{.spec.migration}{\"\\n\"}'   # empty: no MTU migration in progress",
		"oc get co; oc get nodes; oc get mcp   # everything Available and Ready, every pool Updated",
	)
	r.p("siteforge checked that the cluster, service and machine networks do not overlap OVN-Kubernetes' internal subnets (%s, %s, %s).",
		platform.OVNJoinSubnetV4, platform.OVNTransitSubnetV4, masqueradeV4(s))

	s1, s2, s3, s4 := m.steps[0], m.steps[1], m.steps[2], m.steps[3]
	r.h2("1. Prepare the nodes, 2. set the OVN-Kubernetes MTU")
	r.sh(s1.command(), s2.command())
	r.p("(JSON: `%s`, `%s`)", s1.jsonPath(), s2.jsonPath())
	r.p("MCO rolls every pool (the nodes get `configure-ovs.sh OVNKubernetes`). Wait for it:")
	r.sh(
		waitRolloutStarted,
		waitPools(s),
		"oc describe node | egrep \"hostname|machineconfig\"   # state Done, currentConfig == desiredConfig",
		"oc get machineconfig $(oc get mcp worker -o jsonpath='{.spec.configuration.name}') -o yaml | grep ExecStart   # configure-ovs.sh OVNKubernetes",
	)
	r.h2("3. Switch the network type")
	r.sh(s3.command(), "oc -n openshift-multus rollout status daemonset/multus")
	r.p("Now reboot every node (the network is down until they are back). `oc debug` needs the pod network, so go through the machine-config-daemon pods:")
	r.sh(
		"oc get pod -n openshift-machine-config-operator -l k8s-app=machine-config-daemon \\",
		"  -o jsonpath='{range .items[*]}{.metadata.name} {.spec.nodeName}{\"\\n\"}{end}' |",
		"while read -r pod node; do",
		"  until oc rsh -n openshift-machine-config-operator \"$pod\" chroot /rootfs shutdown -r +1; do",
		"    echo \"cannot reboot $node, retrying\"; sleep 3",
		"  done",
		"done",
	)
	r.sh(
		"oc get network.config cluster -o jsonpath='{.status.networkType} {.status.clusterNetworkMTU}{\"\\n\"}'   # OVNKubernetes "+fmt.Sprint(m.ovnMTU),
		"oc get nodes; oc get co",
	)
	r.h2("4. Clean up")
	r.sh(s4.command(), "oc delete namespace openshift-sdn")
}

// masqueradeV4 is the IPv4 masquerade subnet OVN-Kubernetes reserves on the
// release the migration runs on.
func masqueradeV4(s *site.Site) string {
	v4, _ := platform.OVNDefaultMasqueradeSubnets(migrationMinor(s))
	return v4
}
