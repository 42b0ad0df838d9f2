package registries

import (
	"regexp"
	"strings"

	"github.com/siteforge/siteforge/internal/platform"
)

var (
	sourceRegexp = regexp.MustCompile(platform.MirrorSourcePattern)
	mirrorRegexp = regexp.MustCompile(platform.MirrorPattern)
)

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
