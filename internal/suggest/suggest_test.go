package suggest

import "testing"

func TestHint(t *testing.T) {
	pools := []string{"edge", "master", "worker"}
	for _, tc := range []struct{ name, want string }{
		{"wroker", `did you mean "worker"? known pools: edge, master, worker`},
		{"Master", `did you mean "master"? known pools: edge, master, worker`},
		{"storage", `known pools: edge, master, worker`},
	} {
		if got := Hint(tc.name, pools, "pools"); got != tc.want {
			t.Errorf("Hint(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
	if got, want := Hint("x", nil, "pools"), "known pools: none"; got != want {
		t.Errorf("Hint with no names = %q, want %q", got, want)
	}
}
