package installcheck

import (
	"fmt"
	"strconv"

	"github.com/siteforge/siteforge/internal/platform"
)

// What the siteconfig operator refuses in a ClusterInstance beyond the
// installers' checks: its CRD's VIP counts and its control-plane rules for
// the arbiter. Both apply to hub installs (Facts.HubHosts) only.

// hubVIPCount: a ClusterInstance holds at most two API and two ingress
// VIPs (platform.ClusterInstanceMaxVIPs, the CRD's maxItems); the hub
// refuses the object with more, whatever the addresses.
func (c *checker) hubVIPCount() {
	if !c.f.HubHosts {
		return
	}
	for _, vs := range []struct {
		what string
		vals []Value
	}{{"API", c.f.APIVIPs}, {"ingress", c.f.IngressVIPs}} {
		if n := len(vs.vals); n > platform.ClusterInstanceMaxVIPs {
			c.add(CheckVIP, vs.vals[platform.ClusterInstanceMaxVIPs].Key, nil,
				fmt.Sprintf("%d %s VIPs: a ClusterInstance takes at most %d (siteconfig CRD maxItems), so the hub refuses it", n, vs.what, platform.ClusterInstanceMaxVIPs),
				"keep one VIP per IP family (an IPv4 and an IPv6 address for a dual-stack cluster)")
		}
	}
}

// hubControlPlane: the siteconfig operator's rules on a ClusterInstance's
// arbiter (stolostron/siteconfig api/v1alpha1 clusterinstance_validation.go
// validateControlPlaneAgentCount): arbiter agents only with clusterType
// HighlyAvailableArbiter ("arbiter agents can only be used with
// HighlyAvailableArbiter cluster-type"), and that type with at least one
// arbiter and two control-plane agents ("highly available arbiter
// cluster-type must have at least 1 arbiter agent and 2 control-plane
// agents").
func (c *checker) hubControlPlane() {
	f := c.f
	if !f.HubHosts {
		return
	}
	masters, arbiters := 0, 0
	for _, h := range f.Hosts {
		switch h.Role {
		case RoleMaster:
			masters++
		case RoleArbiter:
			arbiters++
		}
	}
	if f.ClusterType.V != platform.ClusterTypeHighlyAvailableArbiter {
		typ := "not written"
		if f.ClusterType.V != "" {
			typ = strconv.Quote(f.ClusterType.V)
		}
		for _, h := range f.Hosts {
			if h.Role == RoleArbiter {
				c.add(CheckControlPlane, h.Key, nil,
					fmt.Sprintf("node %s is an arbiter but clusterType is %s: the siteconfig operator takes arbiter agents only with clusterType %s", h.Name, typ, platform.ClusterTypeHighlyAvailableArbiter),
					"set clusterType: "+platform.ClusterTypeHighlyAvailableArbiter+" (two or more control-plane nodes and the arbiter), or give the node role master or worker")
			}
		}
		return
	}
	if arbiters < 1 || masters < 2 {
		c.add(CheckControlPlane, f.ClusterType.Key, nil,
			fmt.Sprintf("clusterType %s with %d control-plane and %d arbiter nodes: the siteconfig operator requires at least 2 control-plane nodes and 1 arbiter",
				platform.ClusterTypeHighlyAvailableArbiter, masters, arbiters),
			"add the missing control-plane or arbiter nodes (role master, role arbiter), or use clusterType HighlyAvailable or SNO without an arbiter")
	}
}
