package registries

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// DropIn is a registries.conf.d drop-in holding [[registry]] tables only. c/image merges a
// drop-in over registries.conf table by table: a table with the prefix of an existing one
// replaces it whole, a new prefix is added (sysregistriesv2 updateWithConfigurationFrom);
// keys the drop-in does not set (unqualified-search-registries, short-name-mode) stay as
// registries.conf has them, which is why the type has no other field.
type DropIn struct {
	Registries []Registry `toml:"registry"`
}

// TOML encodes the drop-in like [Config.TOML].
func (d *DropIn) TOML() ([]byte, error) {
	var buf bytes.Buffer
	enc := toml.NewEncoder(&buf)
	enc.SetIndentTables(true)
	enc.SetIndentSymbol("  ")
	if err := enc.Encode(d); err != nil {
		return nil, fmt.Errorf("encode registries.conf.d drop-in: %w", err)
	}
	return buf.Bytes(), nil
}

// CacheRoute is one upstream a pull-through cache serves, and the cache's mirror location for
// it.
type CacheRoute struct{ Upstream, Mirror string }

// ErrCacheSourceBlocked: a cached upstream is blocked in the node's registries.conf
// (NeverContactSource or blockedRegistries), so before the cache answers no pull can succeed.
var ErrCacheSourceBlocked = errors.New("source blocked under an in-cluster cache")

// ErrCacheUnderWildcard: a cached upstream or a bypassed repository lies under a `*.domain`
// table of the node's registries.conf, whose mirrors cannot be carried to a narrower table.
var ErrCacheUnderWildcard = errors.New("in-cluster cache under a wildcard source")

// CacheDropIn is the drop-in that routes every upstream of routes through its cache mirror
// first, over the node's registries.conf base, and keeps the bypass repositories off the cache.
//
// Each upstream gets a table of its own: the cache mirror (tags and digests), then the mirrors
// the node already had for the upstream (the base table covering it, its mirrors moved to the
// upstream's path), never blocked, so the source stays the last resort. A bypass repository
// under a routed upstream gets a table without the cache: the longest-prefix match of c/image
// (sysregistriesv2 FindRegistry) gives it that table instead of the upstream's, with the
// mirrors the base gave it. A base table that blocks a routed upstream is refused
// (ErrCacheSourceBlocked): the drop-in would unblock it only while the cache answers.
func CacheDropIn(base *Config, routes []CacheRoute, bypass []string) (*DropIn, error) {
	out := &DropIn{}
	for _, r := range routes {
		t, err := carried(base, r.Upstream)
		if err != nil {
			return nil, err
		}
		if t.Blocked {
			return nil, fmt.Errorf("%w: %q is blocked in registries.conf, so it is never contacted while the cache is down", ErrCacheSourceBlocked, r.Upstream)
		}
		t.Mirrors = append([]Mirror{{Location: r.Mirror}}, t.Mirrors...)
		out.Registries = append(out.Registries, t)
	}
	for _, b := range bypass {
		routed := false
		for _, r := range routes {
			if b != r.Upstream && scopeIsNested(b, r.Upstream) {
				routed = true
			}
		}
		if !routed || slices.ContainsFunc(out.Registries, func(t Registry) bool { return t.Location == b }) {
			continue
		}
		t, err := carried(base, b)
		if err != nil {
			return nil, err
		}
		out.Registries = append(out.Registries, t)
	}
	slices.SortStableFunc(out.Registries, func(a, b Registry) int { return strings.Compare(a.Location, b.Location) })
	return out, nil
}

// carried is the table of location loc: the base table that covers it (longest prefix), its
// mirrors moved from that table's location to loc's, with its insecure and blocked flags. A
// mirror-by-digest-only table's mirrors become pull-from-mirror digest-only, so they keep
// serving digests only.
func carried(base *Config, loc string) (Registry, error) {
	out := Registry{Location: loc}
	var match *Registry
	for i := range base.Registries {
		t := &base.Registries[i]
		if scopeIsNested(loc, t.Scope()) && (match == nil || len(t.Scope()) > len(match.Scope())) {
			match = t
		}
	}
	if match == nil {
		return out, nil
	}
	if isWildcardScope(match.Scope()) {
		return out, fmt.Errorf("%w: %q is under %q", ErrCacheUnderWildcard, loc, match.Prefix)
	}
	rest := strings.TrimPrefix(loc, match.Location)
	out.Insecure, out.Blocked = match.Insecure, match.Blocked
	for _, m := range match.Mirrors {
		m.Location += rest
		if match.MirrorByDigestOnly && m.PullFromMirror == "" {
			m.PullFromMirror = PullFromMirrorDigestOnly
		}
		out.Mirrors = append(out.Mirrors, m)
	}
	return out, nil
}
