package registries

import (
	"regexp"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/siteforge/siteforge/internal/platform"
)

var (
	sourceRegexp = regexp.MustCompile(platform.MirrorSourcePattern)
	mirrorRegexp = regexp.MustCompile(platform.MirrorPattern)
	// the answers for the sources and mirrors seen (a fleet's sites name
	// the same few, and each site's objects are rendered more than once:
	// the backtracking match was 1.3% of a fleet's render CPU)
	sourceMatches, mirrorMatches matchMemo
)

// matchMemo remembers a regexp's answers, for at most maxMemoized strings
// (then it stops remembering).
type matchMemo struct {
	m sync.Map // string: bool
	n atomic.Int32
}

const maxMemoized = 4096

func (c *matchMemo) match(re *regexp.Regexp, s string) bool {
	if v, ok := c.m.Load(s); ok {
		return v.(bool)
	}
	ok := re.MatchString(s)
	if c.n.Load() < maxMemoized {
		c.n.Add(1)
		c.m.Store(s, ok)
	}
	return ok
}

// isWildcardScope reports whether scope is a `*.domain` scope.
func isWildcardScope(scope string) bool {
	return strings.HasPrefix(scope, platform.WildcardScopePrefix)
}

// scopeIsNested reports whether sub (a table scope or a mirror location) lies inside super,
// with MCO's quirks: equal scopes nest; a path nests under its parent path; a host (with any
// port and path) nests under `*.domain` when the host ends with `.domain`.
// Mirrors runtime-utils ScopeIsNestedInsideScope.
func scopeIsNested(sub, super string) bool {
	if sub == super {
		return true
	}
	if len(sub) > len(super) && strings.HasPrefix(sub, super) && sub[len(super)] == '/' {
		return true
	}
	if !isWildcardScope(super) {
		return false
	}
	domain := super[1:] // ".example.com"
	if colon := strings.IndexByte(sub, ':'); colon >= 0 {
		host := sub[:colon]
		return strings.HasSuffix(host, domain) && !strings.Contains(host, "/")
	}
	host, _, _ := strings.Cut(sub, "/")
	return strings.HasSuffix(host, domain)
}

// isValidScope reports whether an image.config insecure/blocked/allowed entry is accepted:
// non-empty, and a `*` only as a leading `*.` followed by no `/`, `@`, `:` or `*`.
// Mirrors runtime-utils IsValidRegistriesConfScope.
func isValidScope(scope string) bool {
	if scope == "" {
		return false
	}
	if !strings.Contains(scope, "*") {
		return true
	}
	return isWildcardScope(scope) && !strings.ContainsAny(scope[len(platform.WildcardScopePrefix):], "/@:*")
}

// ScopeCovers reports whether a registries.conf scope (host[:port][/path] or *.domain) covers
// location: the way MCO nests scopes (runtime-utils ScopeIsNestedInsideScope).
func ScopeCovers(scope, location string) bool { return scopeIsNested(location, scope) }
