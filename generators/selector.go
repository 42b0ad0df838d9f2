package generators

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/siteforge/siteforge/internal/site"
)

// LabelSelector converts a site label selector to the Kubernetes type (a
// copy); nil stays nil.
func LabelSelector(sel *site.LabelSelector) *metav1.LabelSelector {
	if sel == nil {
		return nil
	}
	out := &metav1.LabelSelector{}
	if len(sel.MatchLabels) > 0 {
		out.MatchLabels = map[string]string{}
		for k, v := range sel.MatchLabels {
			out.MatchLabels[k] = v
		}
	}
	for _, r := range sel.MatchExpressions {
		out.MatchExpressions = append(out.MatchExpressions, metav1.LabelSelectorRequirement{
			Key: r.Key, Operator: metav1.LabelSelectorOperator(r.Operator), Values: append([]string(nil), r.Values...),
		})
	}
	return out
}
