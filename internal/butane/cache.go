package butane

import (
	"sync"

	"github.com/siteforge/siteforge/internal/jsonval"
)

// The Butane library's translation is a pure function of the .bu document
// (variant, spec version, metadata and body, all in the bytes Build
// composes) and translateOptions, which never change: a fleet's sites
// translate the same bodies again and again (the same chrony snippet, the
// same generated units), so a clean translation is kept, keyed by the whole
// document. Only translations without findings are kept: Butane's findings
// are mapped to the caller's Origin, which the key does not hold. Callers get
// copies, so a caller changing its Result cannot change another's.

// maxCachedTranslations and maxCachedBytes bound the cache; when either is
// reached the cache starts again empty (a fleet of distinct bodies then
// costs what it cost without a cache, and memory stays bounded).
const (
	maxCachedTranslations = 512
	maxCachedBytes        = 16 << 20
)

type translation struct {
	obj map[string]any
}

type translationCache struct {
	mu      sync.Mutex
	entries map[string]translation
	bytes   int
}

var cache translationCache

// lookup returns a copy of the translation of document bu, if kept.
func (c *translationCache) lookup(bu []byte) (map[string]any, bool) {
	c.mu.Lock()
	t, ok := c.entries[string(bu)]
	c.mu.Unlock()
	if !ok {
		return nil, false
	}
	return jsonval.Copy(t.obj).(map[string]any), true
}

// store keeps a copy of the translation of document bu, whose YAML from
// Butane was yamlSize bytes.
func (c *translationCache) store(bu []byte, obj map[string]any, yamlSize int) {
	size := 2*len(bu) + 3*yamlSize // the key, and about the map
	if size > maxCachedBytes/8 {
		return
	}
	t := translation{obj: jsonval.Copy(obj).(map[string]any)}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil || len(c.entries) >= maxCachedTranslations || c.bytes+size > maxCachedBytes {
		c.entries = map[string]translation{}
		c.bytes = 0
	}
	if _, ok := c.entries[string(bu)]; !ok {
		c.entries[string(bu)] = t
		c.bytes += size
	}
}

// reset empties the cache (tests).
func (c *translationCache) reset() {
	c.mu.Lock()
	c.entries = nil
	c.bytes = 0
	c.mu.Unlock()
}
