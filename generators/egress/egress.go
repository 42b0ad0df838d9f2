// Package egress renders the site's egress IPs: EgressIP objects
// (k8s.ovn.org/v1) and the node labels that make nodes assignable for
// OVN-Kubernetes, or the HostSubnet / NetNamespace patches that are their
// OpenShift SDN equivalent. Every address is checked at render time against
// the rules OVN-Kubernetes applies when it assigns it (checks.go), at the
// user's position.
package egress

import (
	"bytes"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/generators/pools"
	"github.com/siteforge/siteforge/internal/cluster/egressip"
	"github.com/siteforge/siteforge/internal/cluster/nodes"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/site"
)

// Name is the generator's stable name.
const Name = "egress"

// Generate checks the site's egress IPs and renders them.
func Generate(ctx *generators.Context, s *site.Site) ([]generators.Artifact, error) {
	if s.Egress == nil || len(s.Egress.EgressIPs) == 0 && len(s.Egress.AssignablePools) == 0 {
		return nil, nil
	}
	minor := ctx.Minor
	objs := objects(s)
	sdn := s.Network.Type == openShiftSDN
	// OpenShift SDN, like the clouds, hosts an egress IP only on the node's
	// primary interface.
	primaryOnly := platform.EgressPrimaryOnly(s.Cluster.Platform, s.Network.Type)
	diags := check(s, minor, objs, primaryOnly)
	if sdn {
		diags = append(diags, sdnChecks(s, objs)...)
	}
	if len(diags) > 0 {
		return nil, diags.Sort()
	}
	if sdn {
		script := sdnScript(s, objs, egressip.BuildHosts(s, true, 0))
		return []generators.Artifact{{Path: sdnScriptPath, Role: generators.File, Data: script, Comment: "#",
			Origin: []diag.Position{s.Positions.Of("egress"), s.Positions.Of("network.type")}}}, nil
	}

	var arts []generators.Artifact
	for _, o := range objs {
		arts = append(arts, generators.Artifact{
			Path:   fmt.Sprintf(objectPathFormat, o.name),
			Role:   generators.Resource,
			Object: egressIP(o),
			Origin: []diag.Position{s.Positions.Of(o.path)},
		})
	}
	if script := labelScript(s); script != nil {
		arts = append(arts, generators.Artifact{Path: labelScriptPath, Role: generators.File, Data: script, Comment: "#",
			Origin: []diag.Position{s.Positions.Of("egress.assignablePools")}})
	}
	return arts, nil
}

// egressIP builds an EgressIP object.
func egressIP(o object) *egressip.EgressIP {
	return &egressip.EgressIP{
		TypeMeta:   metav1.TypeMeta{APIVersion: egressip.GroupVersion.String(), Kind: "EgressIP"},
		ObjectMeta: metav1.ObjectMeta{Name: o.name},
		Spec: egressip.EgressIPSpec{
			EgressIPs:         append([]string(nil), o.eip.IPs...),
			NamespaceSelector: *nodes.LabelSelector(&o.eip.NamespaceSelector),
			PodSelector:       nodes.LabelSelector(o.eip.PodSelector),
		},
	}
}

// labelScript labels the assignable pools' nodes k8s.ovn.org/egress-assignable,
// the way each pool's nodes are managed; nil without assignable pools.
func labelScript(s *site.Site) []byte {
	names := egressip.AssignablePools(s)
	if len(names) == 0 {
		return nil
	}
	var b bytes.Buffer
	b.WriteString("# Nodes that may host egress IPs. Run with sh BEFORE applying the EgressIP objects\n")
	fmt.Fprintf(&b, "# (%s): OVN-Kubernetes assigns an address only to nodes labelled\n", fmt.Sprintf(objectPathFormat, "*"))
	fmt.Fprintf(&b, "# %s when the object is created.\n", platform.EgressAssignableLabel)
	b.WriteString("set -eu\n")
	for _, name := range names {
		pools.WriteLabelCommands(&b, s, name, map[string]string{platform.EgressAssignableLabel: ""})
	}
	return b.Bytes()
}
