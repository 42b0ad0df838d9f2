// Package suggest finds the intended word for a typo ("did you mean ...?").
package suggest

import (
	"fmt"
	"strings"
)

// Nearest returns the candidate closest to name when it is close enough to
// be a typo: the same word in another case, or a small edit distance (2, or
// 3 for names of 9 or more characters). Ties go to the earlier candidate.
func Nearest(name string, candidates []string) string {
	best, bestD := "", 1<<30
	limit := 2
	if len(name) >= 9 {
		limit = 3
	}
	lower := strings.ToLower(name)
	for _, c := range candidates {
		if strings.EqualFold(c, name) {
			return c
		}
		lc := strings.ToLower(c)
		if len(lower)-len(lc) > limit || len(lc)-len(lower) > limit {
			continue // the distance is at least the difference in length
		}
		if d := Distance(lower, lc); d < bestD {
			best, bestD = c, d
		}
	}
	if bestD <= limit {
		return best
	}
	return ""
}

// Distance is the Levenshtein distance between a and b, in bytes.
func Distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// Hint is the hint for a reference to a name the site does not define:
// `did you mean "worker"? ` when one of known is close enough (Nearest),
// followed by the known names, `known pools: master, worker` (what is
// "pools").
func Hint(name string, known []string, what string) string {
	names := strings.Join(known, ", ")
	if len(known) == 0 {
		names = "none"
	}
	list := "known " + what + ": " + names
	if n := Nearest(name, known); n != "" {
		return fmt.Sprintf("did you mean %q? %s", n, list)
	}
	return list
}
