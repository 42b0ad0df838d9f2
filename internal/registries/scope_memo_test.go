package registries

import (
	"fmt"
	"testing"
)

// TestMatchMemo: the remembered answers are the regexp's, for strings it
// accepts and refuses, seen once or again, before and after the memo is
// full.
func TestMatchMemo(t *testing.T) {
	var memo matchMemo
	cases := []string{"quay.io", "quay.io/ocp", "registry.example.com:5000/a/b", "Quay.io", "quay.io/", "", "a b", "*.example.com", "quay.io@sha256:x"}
	for round := range 3 {
		for _, s := range cases {
			if got, want := memo.match(mirrorRegexp, s), mirrorRegexp.MatchString(s); got != want {
				t.Fatalf("round %d: %q: %v, the regexp says %v", round, s, got, want)
			}
		}
		for i := range maxMemoized { // fills it: later strings are matched each time
			s := fmt.Sprintf("r%d.example.com/x%d", round, i)
			if !memo.match(mirrorRegexp, s) {
				t.Fatalf("%q refused", s)
			}
		}
	}
	if n := memo.n.Load(); n != maxMemoized {
		t.Fatalf("%d strings remembered, want the bound %d", n, maxMemoized)
	}
}
