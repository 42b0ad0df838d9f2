package rules

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/lint"
)

// ---------------------------------------------------------------- MCF008

// checkPoolDegradedByFlagged: on a running cluster, a degraded pool whose
// MachineConfigs (those its machineConfigSelector takes) include one
// another rule reports an error on.
func checkPoolDegradedByFlagged(set lint.Set, found []lint.Finding, r *lint.Reporter) {
	st := liveState(set)
	if st == nil {
		return
	}
	flagged := map[string][]lint.Finding{} // MachineConfig name -> its errors
	for _, f := range found {
		if f.Severity == lint.Error && f.Resource != nil && f.Resource.Kind == mcfConfigKind {
			flagged[f.Resource.Name] = append(flagged[f.Resource.Name], f)
		}
	}
	if len(flagged) == 0 {
		return
	}
	mcs := machineConfigs(set)
	for _, p := range st.Pools {
		if !p.True(platform.PoolConditionDegraded) {
			continue
		}
		cond := platform.PoolConditionDegraded
		for _, t := range []string{platform.PoolConditionRenderDegraded, platform.PoolConditionNodeDegraded} {
			if p.True(t) {
				cond = t
				break
			}
		}
		for _, mc := range mcs {
			fs, ok := flagged[mc.Obj.Name]
			if !ok {
				continue
			}
			if sel := p.MCP.Spec.MachineConfigSelector; sel == nil || !manifests.SelectorMatches(sel, mc.Labels) {
				continue
			}
			slices.SortFunc(fs, func(a, b lint.Finding) int { return a.Pos.Compare(b.Pos) })
			f := fs[0]
			i := p.ConditionIndex(cond)
			r.Object(p.Obj, fmt.Sprintf("pool %s is degraded (%s: %q), and its MachineConfig %s is one siteforge reports: %s [%s] at %s; fix that MachineConfig and MCO renders the pool again",
				p.Obj.Name, cond, diag.Clean(p.Condition(cond).Message), mc.Obj.Name, f.Message, f.Rule, f.Pos),
				"status", "conditions", strconv.Itoa(i), "message")
		}
	}
}
