package nodes

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func req(key string, op metav1.LabelSelectorOperator, values ...string) metav1.LabelSelectorRequirement {
	return metav1.LabelSelectorRequirement{Key: key, Operator: op, Values: values}
}

func exprs(rs ...metav1.LabelSelectorRequirement) *metav1.LabelSelector {
	return &metav1.LabelSelector{MatchExpressions: rs}
}

func TestDisjoint(t *testing.T) {
	shard := &metav1.LabelSelector{MatchLabels: map[string]string{"type": "remote"}}
	for _, tc := range []struct {
		name string
		a, b *metav1.LabelSelector
		want bool
	}{
		{"NotIn the value", exprs(req("type", metav1.LabelSelectorOpNotIn, "remote")), shard, true},
		{"NotIn another value", exprs(req("type", metav1.LabelSelectorOpNotIn, "other")), shard, false},
		{"NotIn split over two requirements", exprs(req("k", metav1.LabelSelectorOpNotIn, "a"), req("k", metav1.LabelSelectorOpNotIn, "b")), exprs(req("k", metav1.LabelSelectorOpIn, "a", "b")), true},
		{"DoesNotExist", exprs(req("type", metav1.LabelSelectorOpDoesNotExist)), shard, true},
		{"Exists and DoesNotExist", exprs(req("k", metav1.LabelSelectorOpExists)), exprs(req("k", metav1.LabelSelectorOpDoesNotExist)), true},
		{"In disjoint values", exprs(req("k", metav1.LabelSelectorOpIn, "a")), exprs(req("k", metav1.LabelSelectorOpIn, "b")), true},
		{"other key", exprs(req("other", metav1.LabelSelectorOpNotIn, "remote")), shard, false},
		{"nil matches everything", nil, shard, false},
		{"both NotIn", exprs(req("k", metav1.LabelSelectorOpNotIn, "a")), exprs(req("k", metav1.LabelSelectorOpNotIn, "b")), false},
	} {
		if got := Disjoint(tc.a, tc.b); got != tc.want {
			t.Errorf("%s: Disjoint = %v, want %v", tc.name, got, tc.want)
		}
		if got := Disjoint(tc.b, tc.a); got != tc.want {
			t.Errorf("%s: Disjoint (swapped) = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestCovers(t *testing.T) {
	role := &metav1.LabelSelector{MatchLabels: map[string]string{"node-role.kubernetes.io/infra": ""}}
	narrower := &metav1.LabelSelector{MatchLabels: map[string]string{"node-role.kubernetes.io/infra": "", "zone": "a"}}
	asExpr := exprs(req("node-role.kubernetes.io/infra", metav1.LabelSelectorOpIn, ""))
	other := &metav1.LabelSelector{MatchLabels: map[string]string{"node-role.kubernetes.io/edge": ""}}
	for _, tc := range []struct {
		name string
		a, b *metav1.LabelSelector
		want bool
	}{
		{"identical", role, role, true},
		{"subset", role, narrower, true},
		{"superset", narrower, role, false},
		{"matchLabels as In", role, asExpr, true},
		{"other label", role, other, false},
		{"nil covers all", nil, role, true},
	} {
		if got := Covers(tc.a, tc.b); got != tc.want {
			t.Errorf("%s: Covers = %v, want %v", tc.name, got, tc.want)
		}
	}
}
