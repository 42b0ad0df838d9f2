package manifests

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

// SelectorMatches reports whether sel matches the label set as the API
// server's label selectors do (apimachinery LabelSelectorAsSelector:
// matchLabels and matchExpressions); a selector that does not parse matches
// nothing, a nil one everything.
func SelectorMatches(sel *metav1.LabelSelector, set map[string]string) bool {
	if sel == nil {
		return true
	}
	s, err := metav1.LabelSelectorAsSelector(sel)
	if err != nil {
		return false
	}
	return s.Matches(labels.Set(set))
}
