package nodes

import (
	"fmt"

	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/site"
)

// The node model: which labels a pool's nodes carry, which pools are remote,
// and whether the site needs the manual remote-worker method.

// IsRemote reports whether a pool's nodes sit outside the VIPs' L2 subnet.
func IsRemote(p site.Pool) bool { return p.Placement == site.PlacementRemote }

// RemotePools lists the pools with placement "remote", sorted.
func RemotePools(s *site.Site) []string {
	var out []string
	for _, name := range s.PoolNames() {
		if IsRemote(s.Pools[name]) {
			out = append(out, name)
		}
	}
	return out
}

// AutoDetectsRemoteWorkers reports whether the cluster detects remote workers
// itself: baremetal IPI from 4.13 labels them node.openshift.io/remote-worker,
// keepalived sleeps there and routers avoid them (docs "Configuring network components to run on the control plane"; CIO names.go RemoteWorkerLabel).
func AutoDetectsRemoteWorkers(s *site.Site, minor platform.OCPMinor) bool {
	return minor >= platform.RemoteWorkerAutoDetectSince &&
		s.Cluster.Platform == site.PlatformBareMetal && s.Cluster.InstallMethod == site.InstallIPI
}

// RunsKeepalived reports whether the cluster floats its API and ingress VIPs
// with keepalived on the nodes (on-prem platforms with VIPs).
func RunsKeepalived(s *site.Site) bool {
	return platform.KeepalivedPlatform(s.Cluster.Platform) && len(s.Network.APIVIPs)+len(s.Network.IngressVIPs) > 0
}

// KeepalivedFixPools lists the remote pools that need the manual method:
// the cluster runs keepalived, and does not detect remote workers itself
// (before 4.13, or not baremetal IPI). Empty when the site needs no fix.
func KeepalivedFixPools(s *site.Site, minor platform.OCPMinor) []string {
	if !RunsKeepalived(s) || AutoDetectsRemoteWorkers(s, minor) {
		return nil
	}
	return RemotePools(s)
}

// MastersSchedulable reports whether siteforge makes the masters schedulable:
// part of the manual method, so that the default router (and the ingress VIP
// with it) runs on the control plane.
func MastersSchedulable(s *site.Site, minor platform.OCPMinor) bool {
	return len(KeepalivedFixPools(s, minor)) > 0
}

// NodeRoleLabel is the role label of a pool's MachineConfigPool
// (node-role.kubernetes.io/<pool>).
func NodeRoleLabel(pool string) string { return platform.NodeRolePrefix + pool }

// NodeLabels returns the labels every node of pool carries, as far as the
// site and the platform say: the OS label, the role labels (kubelet's, the
// custom pool's, and worker on masters made schedulable), the pool's own
// labels, the zone, and the remote-worker label where the cluster sets it.
// Labels a site does not describe are taken to be absent: the site is the
// source of truth for the labels that place workloads.
func NodeLabels(s *site.Site, minor platform.OCPMinor, pool string) map[string]string {
	p := s.Pools[pool]
	out := map[string]string{platform.OSLabel: platform.OSLabelValue}
	switch p.Role {
	case site.RoleMaster:
		out[platform.MasterRoleLabel] = ""
		if MastersSchedulable(s, minor) {
			out[platform.WorkerRoleLabel] = ""
		}
	case site.RoleWorker:
		out[platform.WorkerRoleLabel] = ""
	case site.RoleCustom:
		// Custom pools inherit the worker MachineConfigs, and with them
		// kubelet's worker role label.
		out[platform.WorkerRoleLabel] = ""
		out[NodeRoleLabel(pool)] = ""
	}
	if p.Zone != "" {
		out[platform.ZoneLabel] = p.Zone
	}
	if isAWSEdge(p) {
		out[platform.EdgeRoleLabel] = ""
	}
	if IsRemote(p) && AutoDetectsRemoteWorkers(s, minor) {
		out[platform.RemoteWorkerLabel] = ""
	}
	for k, v := range p.Labels {
		out[k] = v
	}
	return out
}

// Taints are the taints a pool's nodes carry: the site's, or, when the
// site says nothing, the platform's (AWS Local and Wavelength Zone machines:
// platform.EdgeTaintKey NoSchedule).
func Taints(s *site.Site, pool string) []site.Taint {
	p := s.Pools[pool]
	if p.Taints != nil {
		return p.Taints
	}
	if isAWSEdge(p) {
		return []site.Taint{{Key: platform.EdgeTaintKey, Effect: platform.EdgeTaintEffect}}
	}
	return nil
}

func isAWSEdge(p site.Pool) bool {
	return p.Placement == site.PlacementAWSLocalZone || p.Placement == site.PlacementAWSWavelength
}

// DeliveredLabels are the labels siteforge asks the user to put on a pool's
// nodes (label-nodes.sh): a custom pool's role label, which its
// MachineConfigPool selects and nobody else sets. The pools' own labels
// (pools.<pool>.labels) describe the nodes as they are (the installer sets
// some, such as node-role.kubernetes.io/edge on AWS Local Zone machines):
// siteforge relies on them but does not apply them.
func DeliveredLabels(s *site.Site, pool string) map[string]string {
	if s.Pools[pool].Role != site.RoleCustom {
		return nil
	}
	return map[string]string{NodeRoleLabel(pool): ""}
}

// MachineSetManaged reports whether a pool's nodes come from a MachineSet
// (installer-provisioned compute), so a label applied to a node is lost when
// the machine is replaced unless the MachineSet's template carries it too.
func MachineSetManaged(s *site.Site, pool string) bool {
	return s.Cluster.InstallMethod == site.InstallIPI && s.Pools[pool].Role != site.RoleMaster
}

// SizeString describes a pool's size for notes: "3 nodes", "4 nodes (count)",
// "an unknown number of nodes".
func SizeString(p site.Pool) string {
	switch n := p.Size(); {
	case len(p.Nodes) > 0:
		return plural(n, "node")
	case n >= 0:
		return plural(n, "node") + " (count, not listed)"
	}
	return "an unknown number of nodes"
}

func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}
