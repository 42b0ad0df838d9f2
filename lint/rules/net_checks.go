package rules

import (
	"fmt"
	"sort"

	operatorv1 "github.com/openshift/api/operator/v1"

	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/lint"
)

// ---------------------------------------------------------------- NET001

func checkNetworkOverlaps(set lint.Set, r *lint.Reporter) {
	const why = "OVN-Kubernetes routes that range itself, so traffic to it is misrouted"
	if set.Site != nil {
		s := set.Site.Site
		cidrs := siteCIDRs(s)
		crossOverlaps(cidrs, r, s)
		if s.Network.Type == platform.OVNKubernetes {
			ovnOverlaps(cidrs, ovnSubnets(nil), why, r, s)
		}
		return
	}
	ns := readNetSet(set)
	subnets := ovnSubnets(ns.operators)
	for _, ic := range ns.installs {
		cidrs := objectCIDRs(ic.Obj, ic.Networking.ClusterNetwork, ic.Networking.ServiceNetwork, ic.Networking.MachineNetwork, "networking")
		crossOverlaps(cidrs, r, nil)
		if ic.NetworkType() == platform.OVNKubernetes {
			ovnOverlaps(cidrs, subnets, why, r, nil)
		}
	}
	for _, c := range ns.configs {
		cidrs := objectCIDRs(c.obj, c.Spec.ClusterNetwork, c.Spec.ServiceNetwork, nil, "spec")
		crossOverlaps(cidrs, r, nil)
		// a live migration's overlaps are NET003's
		if !c.liveMigration() && (c.Spec.NetworkType == platform.OVNKubernetes || c.Spec.NetworkType == "" && ns.networkType() == platform.OVNKubernetes) {
			ovnOverlaps(cidrs, subnets, why, r, nil)
		}
	}
	for _, o := range ns.operators {
		cidrs := objectCIDRs(o.obj, o.Spec.ClusterNetwork, o.Spec.ServiceNetwork, nil, "spec")
		crossOverlaps(cidrs, r, nil)
		t := o.networkType()
		if t == "" {
			t = ns.networkType()
		}
		if t == platform.OVNKubernetes {
			ovnOverlaps(cidrs, subnets, why, r, nil)
		}
	}
}

// ---------------------------------------------------------------- NET002

func checkSDNVersion(set lint.Set, r *lint.Reporter) {
	minor, release := set.MinorOrLatest()
	if set.Site != nil {
		s := set.Site.Site
		if s.Network.Type != platform.OpenShiftSDN {
			return
		}
		switch {
		case minor >= platform.SDNRemovedSince:
			r.At(s.Name, s.Positions.Of("network.type"), fmt.Sprintf(
				"network.type OpenShiftSDN on %s: OpenShift SDN was removed in %s and CNO rejects it (unsupported network type %q); migrate to OVNKubernetes on %s or earlier (networkMigration) before upgrading",
				release, platform.SDNRemovedSince, platform.OpenShiftSDN, platform.SDNRemovedSince-1))
		case minor >= platform.SDNNotInstallableSince && s.Cluster.Lifecycle == "install":
			r.At(s.Name, s.Positions.Of("network.type"), fmt.Sprintf(
				"network.type OpenShiftSDN cannot be installed on %s (not installable from %s); install with network.type: \"OVNKubernetes\"",
				release, platform.SDNNotInstallableSince))
		}
		return
	}
	ns := readNetSet(set)
	for _, ic := range ns.installs {
		if ic.Networking.NetworkType == platform.OpenShiftSDN && minor >= platform.SDNNotInstallableSince {
			r.Object(ic.Obj, fmt.Sprintf("networkType OpenShiftSDN cannot be installed on %s: new installs cannot choose it from %s (CNO rejects it from %s); set networkType: OVNKubernetes",
				release, platform.SDNNotInstallableSince, platform.SDNRemovedSince), "networking", "networkType")
		}
	}
	if minor < platform.SDNRemovedSince {
		return
	}
	msg := fmt.Sprintf("OpenShift SDN on %s: it was removed in %s and CNO rejects it (unsupported network type %q); migrate to OVNKubernetes on %s or earlier before upgrading",
		release, platform.SDNRemovedSince, platform.OpenShiftSDN, platform.SDNRemovedSince-1)
	for _, c := range ns.configs {
		if c.Spec.NetworkType == platform.OpenShiftSDN {
			r.Object(c.obj, msg, "spec", "networkType")
		}
	}
	for _, o := range ns.operators {
		if o.Spec.DefaultNetwork.Type == platform.OpenShiftSDN {
			r.Object(o.obj, msg, "spec", "defaultNetwork", "type")
		}
	}
}

// ---------------------------------------------------------------- NET003

func checkLiveMigration(set lint.Set, r *lint.Reporter) {
	if set.Site != nil {
		return // the network generator refuses a blocked live migration at the site's fields
	}
	ns := readNetSet(set)
	for _, c := range ns.configs {
		if !c.liveMigration() {
			continue
		}
		started := fmt.Sprintf("the live migration started by %s in %s", platform.NetworkTypeMigrationAnnotation, c.obj.KeyPosOf("metadata", "annotations", platform.NetworkTypeMigrationAnnotation))
		if set.Minor > 0 && set.Minor < platform.SDNLiveMigrationCodeSince {
			r.Object(c.obj, fmt.Sprintf("the live migration needs OpenShift %s or later (documented from %s), this is %s: CNO ignores the annotation; use the offline migration (spec.migration.networkType on Network.operator) or upgrade first",
				platform.SDNLiveMigrationCodeSince, platform.SDNLiveMigrationDocumentedSince, set.MinorIn()),
				"metadata", "annotations", platform.NetworkTypeMigrationAnnotation)
		}
		for _, o := range ns.operators {
			if sdn := o.Spec.DefaultNetwork.SDN; sdn != nil && sdn.Mode == string(operatorv1.SDNModeMultitenant) {
				r.Object(o.obj, fmt.Sprintf("openshiftSDNConfig.mode Multitenant blocks %s: CNO does not live-migrate multitenant isolation; use the offline migration, or move to mode NetworkPolicy first",
					started), "spec", "defaultNetwork", "openshiftSDNConfig", "mode")
			}
		}
		// the cluster and service networks, wherever the set writes them
		var cidrs []namedCIDR
		cidrs = append(cidrs, objectCIDRs(c.obj, c.Spec.ClusterNetwork, c.Spec.ServiceNetwork, nil, "spec")...)
		for _, other := range ns.configs {
			if other != c {
				cidrs = append(cidrs, objectCIDRs(other.obj, other.Spec.ClusterNetwork, other.Spec.ServiceNetwork, nil, "spec")...)
			}
		}
		for _, o := range ns.operators {
			cidrs = append(cidrs, objectCIDRs(o.obj, o.Spec.ClusterNetwork, o.Spec.ServiceNetwork, nil, "spec")...)
		}
		for _, ic := range ns.installs {
			cidrs = append(cidrs, objectCIDRs(ic.Obj, ic.Networking.ClusterNetwork, ic.Networking.ServiceNetwork, nil, "networking")...)
		}
		ovnOverlaps(cidrs, ovnSubnets(ns.operators), started+" is refused on it", r, nil)
	}
}

// ---------------------------------------------------------------- NET004

func checkGenevePort(set lint.Set, r *lint.Reporter) {
	if set.Site != nil {
		return // a site has no genevePort
	}
	ns := readNetSet(set)
	vxlan := map[int]string{platform.VXLANPortDefault: "the VXLAN port (OpenShift SDN's default vxlanPort)"}
	for _, o := range ns.operators {
		if sdn := o.Spec.DefaultNetwork.SDN; sdn != nil && sdn.VXLANPort != nil {
			vxlan[*sdn.VXLANPort] = fmt.Sprintf("the OpenShift SDN vxlanPort in %s", o.obj.PosOf("spec", "defaultNetwork", "openshiftSDNConfig", "vxlanPort"))
		}
	}
	for _, o := range ns.operators {
		ovn := o.Spec.DefaultNetwork.OVN
		if ovn == nil || ovn.GenevePort == nil {
			continue
		}
		if what, ok := vxlan[*ovn.GenevePort]; ok {
			r.Object(o.obj, fmt.Sprintf("genevePort %d is %s: Geneve and VXLAN traffic collide on it; remove genevePort to use the default %d",
				*ovn.GenevePort, what, platform.GenevePortDefault), "spec", "defaultNetwork", "ovnKubernetesConfig", "genevePort")
		}
	}
}

// sortedInts returns the distinct values, sorted.
func sortedInts(vals []int) []int {
	seen := map[int]bool{}
	var out []int
	for _, v := range vals {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	sort.Ints(out)
	return out
}
