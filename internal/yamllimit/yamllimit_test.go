package yamllimit

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestCheckAliases(t *testing.T) {
	big := strings.Repeat("x", 1<<20)
	var bomb strings.Builder
	fmt.Fprintf(&bomb, "a: &a %s\nb: [", big)
	for i := 0; i < 3000; i++ {
		bomb.WriteString("*a, ")
	}
	bomb.WriteString("*a]\n")
	var ae *AliasError
	if err := CheckAliases([]byte(bomb.String()), 4<<20); !errors.As(err, &ae) || ae.Line != 2 {
		t.Errorf("1 MB string aliased 3000 times: %v", err)
	}
	// the billion laughs, by nodes
	lol := "a: &a [x, x, x, x, x, x, x, x, x]\n"
	prev := "a"
	for _, n := range []string{"b", "c", "d", "e", "f", "g", "h", "i"} {
		lol += fmt.Sprintf("%s: &%s [%s]\n", n, n, strings.TrimSuffix(strings.Repeat("*"+prev+",", 9), ","))
		prev = n
	}
	if err := CheckAliases([]byte(lol), 4<<20); !errors.As(err, &ae) {
		t.Errorf("billion laughs: %v", err)
	}
	// ordinary anchors pass
	ok := "defaults: &d {mtu: 1500, iface: eno1}\npools:\n  a: *d\n  b: *d\n"
	if err := CheckAliases([]byte(ok), 4<<20); err != nil {
		t.Errorf("ordinary aliases: %v", err)
	}
	// a later document is checked too
	if err := CheckAliases([]byte("a: 1\n---\n"+bomb.String()), 4<<20); !errors.As(err, &ae) {
		t.Errorf("bomb in the second document: %v", err)
	}
}
