package rules

import (
	"fmt"
	"slices"
	"strings"

	"github.com/siteforge/siteforge/internal/cluster/egressip"
	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/lint"
)

// ---------------------------------------------------------------- EGR008

// checkEgressUnassigned: on a running cluster, each address of an
// EgressIP that its status.items assigns to no node, with why: the
// problems the EgressIP rules find for it (egressip.Check over the
// cluster's own nodes), or none found.
func checkEgressUnassigned(set lint.Set, r *lint.Reporter) {
	if !set.Live {
		return
	}
	e := egressChecked(set)
	if e == nil {
		return
	}
	eips, docs, c, problems := e.eips, e.docs, e.cluster, e.problems
	for i, o := range eips {
		st := docs[i].Status
		if st == nil {
			continue // no status: not what the cluster did
		}
		assigned := map[string]string{}
		for _, it := range st.Items {
			assigned[egressip.Normalize(it.EgressIP)] = it.Node
		}
		for j, ip := range docs[i].Spec.EgressIPs {
			if _, ok := assigned[egressip.Normalize(ip)]; ok {
				continue
			}
			// the reasons are the other EGR rules' findings: named, not
			// repeated
			var why []string
			for _, p := range problems {
				if (p.Object == i || p.Object < 0) && (p.IP == j || p.IP < 0) {
					id := egressip.RuleOf(p, c)
					at, path := egrProblemAt(eips, p)
					where := manifests.UserPath(path)
					if at != o {
						where = "EgressIP " + at.Name + " " + where
					}
					ref := fmt.Sprintf("%s (%s) at %s", id, lint.Lookup(id).Name, where)
					if !slices.Contains(why, ref) {
						why = append(why, ref)
					}
				}
			}
			reason := "siteforge finds no reason in this state: the events of the EgressIP and the logs of ovnkube-control-plane (openshift-ovn-kubernetes) say why"
			if len(why) > 0 {
				reason = "why: the finding " + strings.Join(why, ", the finding ")
			}
			r.Object(o, fmt.Sprintf("egress IP %s is assigned to no node (status.items does not list it): the selected pods leave the cluster with their node's address; %s", ip, reason), "status")
		}
	}
}
