package rules

import (
	"fmt"
	"net/netip"
	"sort"

	operatorv1 "github.com/openshift/api/operator/v1"

	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/lint"
)

// ---------------------------------------------------------------- NET001

func checkNetworkOverlaps(set lint.Set, r *lint.Reporter) {
	const why = "OVN-Kubernetes routes that range itself, so traffic to it is misrouted"
	minor, _ := set.MinorOrLatest() // the internal subnets of a new install of that release
	if set.Site != nil {
		s := set.Site.Site
		cidrs := siteCIDRs(s)
		crossOverlaps(cidrs, r, s)
		if s.Network.Type == platform.OVNKubernetes {
			ovnOverlaps(cidrs, ovnSubnets(nil, minor, false), why, r, s)
		}
		return
	}
	ns := readNetSet(set)
	subnets := ovnSubnets(ns.operators, minor, false)
	for _, ic := range ns.installs {
		cidrs := installCIDRs(ic, true)
		crossOverlaps(cidrs, r, nil)
		if ic.NetworkType() == platform.OVNKubernetes {
			ovnOverlaps(cidrs, installOVNSubnets(subnets, ic), why, r, nil)
		}
	}
	// A ClusterInstance, and each cluster of a SiteConfig (positioned in
	// the SiteConfig): assisted-service writes their networks into the
	// cluster's install-config, whose validation refuses the overlaps
	// (openshift/installer pkg/types/validation/installconfig.go
	// validateNetworking: validateClusterNetwork "cluster network must not
	// overlap with service network", validateServiceNetwork "service
	// network must not overlap with any of the machine networks",
	// validateNetworkNotOverlapDefaultOVNSubnets). The networks are another
	// cluster's: OVN-Kubernetes' default subnets, not the set's operator
	// config, and networkType defaults to OVNKubernetes (the CRD's default).
	for _, ci := range manifests.ClusterInstances(set.Objects) {
		cidrs := clusterInstanceCIDRs(ci)
		crossOverlaps(cidrs, r, nil)
		if t := ci.Spec.NetworkType; t == "" || t == platform.OVNKubernetes {
			ovnOverlaps(cidrs, ovnSubnets(nil, minor, false), why, r, nil)
		}
	}
	for _, c := range ns.configs {
		cidrs := objectCIDRs(c.obj, c.Spec.ClusterNetwork, c.Spec.ServiceNetwork, nil, "spec")
		crossOverlaps(cidrs, r, nil)
		// the overlaps of a live migration CNO validates are NET003's
		if !c.liveMigrationValidated() && (c.Spec.NetworkType == platform.OVNKubernetes || c.Spec.NetworkType == "" && ns.networkType() == platform.OVNKubernetes) {
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
			r.Object(ic.Obj, fmt.Sprintf("%s OpenShiftSDN cannot be installed on %s: new installs cannot choose it from %s (CNO rejects it from %s); set networkType: OVNKubernetes",
				ic.Paths.NetworkType, release, platform.SDNNotInstallableSince, platform.SDNRemovedSince), ic.NetworkTypePath()...)
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
		if !c.liveMigrationValidated() {
			continue // no migration requested, or one in progress: CNO validates nothing
		}
		started := fmt.Sprintf("the live migration started by %s in %s", platform.NetworkTypeMigrationAnnotation, c.obj.KeyPosOf("metadata", "annotations", platform.NetworkTypeMigrationAnnotation))
		if set.Minor > 0 && set.Minor < platform.SDNLiveMigrationCodeSince {
			r.Object(c.obj, fmt.Sprintf("the live migration needs OpenShift %s or later (documented from %s), this is %s: CNO ignores the annotation; use the offline migration (spec.migration.networkType on Network.operator) or upgrade first",
				platform.SDNLiveMigrationCodeSince, platform.SDNLiveMigrationDocumentedSince, set.MinorIn()),
				"metadata", "annotations", platform.NetworkTypeMigrationAnnotation)
			continue
		}
		if !platform.LiveMigrationTargetSupported(c.Spec.NetworkType) {
			r.Object(c.obj, fmt.Sprintf("spec.networkType %s: CNO refuses %s (\"network type live migration is only supported for OVNKubernetes and OpenShiftSDN CNI\"); the live migration goes to %s (or back to %s)",
				c.Spec.NetworkType, started, platform.OVNKubernetes, platform.OpenShiftSDN), "spec", "networkType")
			continue // CNO stops at this error
		}
		if c.liveMigrationSource() != platform.OpenShiftSDN {
			continue // CNO checks the rest only when leaving OpenShift SDN
		}
		for _, o := range ns.operators {
			if sdn := o.Spec.DefaultNetwork.SDN; sdn != nil && sdn.Mode == string(operatorv1.SDNModeMultitenant) {
				r.Object(o.obj, fmt.Sprintf("openshiftSDNConfig.mode Multitenant blocks %s: CNO does not live-migrate multitenant isolation; use the offline migration, or move to mode NetworkPolicy first",
					started), "spec", "defaultNetwork", "openshiftSDNConfig", "mode")
			}
		}
		liveMigrationOverlaps(set, ns, c, started, r)
		for _, p := range egressRouterPods(set.Objects) {
			r.Object(p.obj, fmt.Sprintf("%s carries %s: it is an egress router pod, and CNO refuses %s while any pod does (\"Please remove all egress router pods\"); remove it (or its workload) first",
				p.what, platform.EgressRouterAnnotation, started), p.path...)
		}
	}
}

// liveMigrationOverlaps reports what CNO's validateOVNKubernetesCIDROverlap
// refuses: a cluster or service network overlapping an OVN-Kubernetes
// internal subnet, or two internal subnets overlapping each other. The
// internal subnets are the operator config's, else CNO's defaults of the
// release (the masquerade subnet is 169.254.169.0/29 before 4.17); without a
// known release, those of the last release that runs OpenShift SDN.
func liveMigrationOverlaps(set lint.Set, ns *netSet, c *networkConfigDoc, started string, r *lint.Reporter) {
	minor := set.Minor
	if minor == 0 {
		minor = platform.SDNLastMinor
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
		cidrs = append(cidrs, installCIDRs(ic, false)...)
	}
	subnets := ovnSubnets(ns.operators, minor, true)
	ovnOverlaps(cidrs, subnets, started+" is refused on it", r, nil)
	// internal subnets against each other: only a subnet the operator
	// config sets can be moved onto another, so report at that field
	for i, a := range subnets {
		for _, b := range subnets[i+1:] {
			if !a.pfx.Overlaps(b.pfx) || !a.custom && !b.custom {
				continue
			}
			moved := a
			if !moved.custom {
				moved = b
			}
			o, path := operatorSubnetField(ns.operators, moved)
			if o == nil {
				continue
			}
			r.Object(o.obj, fmt.Sprintf("%s overlaps %s: %s is refused on it; move one of them", a, b, started), path...)
		}
	}
}

// operatorSubnetField finds the operator config field that sets an internal
// subnet (the last one written wins, as in ovnSubnets).
func operatorSubnetField(operators []*operatorNetworkDoc, s ovnSubnet) (*operatorNetworkDoc, []string) {
	var found *operatorNetworkDoc
	var path []string
	for _, o := range operators {
		ovn := o.Spec.DefaultNetwork.OVN
		if ovn == nil {
			continue
		}
		try := func(v string, p ...string) {
			if pf, err := netip.ParsePrefix(v); err == nil && pf.Masked() == s.pfx {
				found, path = o, append([]string{"spec", "defaultNetwork", "ovnKubernetesConfig"}, p...)
			}
		}
		try(ovn.V4InternalSubnet, "v4InternalSubnet")
		try(ovn.V6InternalSubnet, "v6InternalSubnet")
		if ovn.IPv4 != nil {
			try(ovn.IPv4.InternalJoinSubnet, "ipv4", "internalJoinSubnet")
			try(ovn.IPv4.InternalTransitSwitchSubnet, "ipv4", "internalTransitSwitchSubnet")
		}
		if ovn.IPv6 != nil {
			try(ovn.IPv6.InternalJoinSubnet, "ipv6", "internalJoinSubnet")
			try(ovn.IPv6.InternalTransitSwitchSubnet, "ipv6", "internalTransitSwitchSubnet")
		}
		if gw := ovn.GatewayConfig; gw != nil {
			try(gw.IPv4.InternalMasqueradeSubnet, "gatewayConfig", "ipv4", "internalMasqueradeSubnet")
			try(gw.IPv6.InternalMasqueradeSubnet, "gatewayConfig", "ipv6", "internalMasqueradeSubnet")
		}
	}
	return found, path
}

// egressRouter is a pod, or a workload's pod template, annotated as an egress
// router.
type egressRouter struct {
	obj  *manifests.Object
	what string
	path []string
}

// egressRouterPods lists the Pods and pod templates that carry
// platform.EgressRouterAnnotation, with any value. CNO lists the cluster's
// Pods (ListAllPodsWithAnnotationKey); a workload's template is reported
// because every pod it creates carries the template's annotations.
func egressRouterPods(objs []*manifests.Object) []egressRouter {
	var out []egressRouter
	for _, o := range objs {
		specPath := podSpecPaths[o.Kind]
		if specPath == nil {
			continue
		}
		metaPath := append(append([]string{}, specPath[:len(specPath)-1]...), "metadata")
		var root map[string]any
		if o.DecodeLoose(&root) != nil {
			continue
		}
		var cur any = root
		for _, k := range append(append([]string{}, metaPath...), "annotations") {
			m, _ := cur.(map[string]any)
			cur = m[k]
		}
		ann, _ := cur.(map[string]any)
		if _, ok := ann[platform.EgressRouterAnnotation]; !ok {
			continue
		}
		what := "Pod " + o.Name
		if o.Kind != "Pod" {
			what = fmt.Sprintf("the pod template of %s %s", o.Kind, o.Name)
		}
		out = append(out, egressRouter{obj: o, what: what, path: append(metaPath, "annotations", platform.EgressRouterAnnotation)})
	}
	return out
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
