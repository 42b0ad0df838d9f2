package butane

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/siteforge/siteforge/internal/diag"
)

// uncached translates cfg with the cache emptied before and after.
func uncached(t *testing.T, cfg Config, version string) *Result {
	t.Helper()
	cache.reset()
	defer cache.reset()
	res, err := Build(cfg, version)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestBuildCacheKey: every input that changes the MachineConfig misses the
// cache (the library translates again) and gets what an uncached
// translation gives; the same input again is served from the cache, with
// the same result.
func TestBuildCacheKey(t *testing.T) {
	base := chronyConfig()
	variants := map[string]struct {
		cfg     Config
		version string
	}{
		"base":            {base, "4.16.3"},
		"body":            {Config{Name: base.Name, Role: base.Role, Body: bytes.Replace(base.Body, []byte("ntp1"), []byte("ntp2"), 1), Origin: base.Origin}, "4.16.3"},
		"spec version":    {base, "4.14.1"},
		"name":            {Config{Name: "99-worker-chrony-2", Role: base.Role, Body: base.Body, Origin: base.Origin}, "4.16.3"},
		"role":            {Config{Name: base.Name, Role: "infra", Body: base.Body, Origin: base.Origin}, "4.16.3"},
		"labels":          {Config{Name: base.Name, Role: base.Role, Labels: map[string]string{"team": "a"}, Body: base.Body, Origin: base.Origin}, "4.16.3"},
		"label value":     {Config{Name: base.Name, Role: base.Role, Labels: map[string]string{"team": "b"}, Body: base.Body, Origin: base.Origin}, "4.16.3"},
		"generated body":  {Config{Name: base.Name, Role: base.Role, Body: base.Body, Origin: Origin{Path: mcPath}}, "4.16.3"},
		"trailing spaces": {Config{Name: base.Name, Role: base.Role, Body: append(bytes.TrimSuffix(base.Body, []byte("\n")), []byte(" \n")...), Origin: base.Origin}, "4.16.3"},
	}
	want := map[string]*Result{}
	for name, v := range variants {
		want[name] = uncached(t, v.cfg, v.version)
	}
	cache.reset()
	defer cache.reset()
	seen := map[string]bool{}
	for _, round := range []string{"first", "second"} {
		for _, name := range []string{"base", "body", "spec version", "name", "role", "labels", "label value", "generated body", "trailing spaces"} {
			v := variants[name]
			before := translations.Load()
			got, err := Build(v.cfg, v.version)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			key := string(got.Butane)
			translated := translations.Load() != before
			if translated == seen[key] {
				t.Errorf("%s round: %s: translated %v, already seen %v: a changed input must miss the cache, the same one hit it", round, name, translated, seen[key])
			}
			seen[key] = true
			if !reflect.DeepEqual(got, want[name]) {
				t.Errorf("%s round: %s: cached result differs from an uncached translation:\n%s\nwant\n%s", round, name, mcYAML(t, got), mcYAML(t, want[name]))
			}
		}
	}
	// the generated body differs from the snippet only in its origin: the
	// MachineConfig is the same translation
	if !bytes.Equal(mcYAML(t, want["generated body"]), mcYAML(t, want["base"])) {
		t.Error("the origin changed the MachineConfig")
	}
}

// TestBuildCacheCopies: a caller changing its result changes no other
// caller's.
func TestBuildCacheCopies(t *testing.T) {
	cache.reset()
	defer cache.reset()
	want := uncached(t, chronyConfig(), "4.16.3")
	for i := 0; i < 3; i++ { // translated and kept, then served twice
		res, err := Build(chronyConfig(), "4.16.3")
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(res, want) {
			t.Fatalf("build %d: a change to one result reached the next:\n%s", i, mcYAML(t, res))
		}
		res.Object["metadata"].(map[string]any)["name"] = "changed"
		res.Object["spec"].(map[string]any)["config"].(map[string]any)["storage"].(map[string]any)["files"].([]any)[0] = "changed"
	}
}

// TestBuildCacheFindings: a translation with findings is not kept (they
// are at the caller's positions): the same body at another origin reports
// at its own.
func TestBuildCacheFindings(t *testing.T) {
	cache.reset()
	defer cache.reset()
	body := []byte("systemd:\n  units:\n    - name: noop.service\n      enabled: true\n      contents: |\n        [Service]\n        ExecStart=/bin/true\n")
	for _, line := range []int{10, 40} {
		origin := Origin{Pos: diag.Position{File: "site.yaml", Line: line, Col: 13}, Path: mcPath, Snippet: true}
		res, err := Build(Config{Name: "99-worker-noop", Role: "worker", Body: body, Origin: origin}, "4.16")
		if err != nil {
			t.Fatal(err)
		}
		// body line 5: user line line+5
		if len(res.Warnings) != 1 || res.Warnings[0].Pos.Line != line+5 {
			t.Errorf("origin line %d: warnings %v, want one at line %d", line, res.Warnings, line+5)
		}
	}
}

// TestBuildCacheConcurrent: render workers build at once (go test -race).
func TestBuildCacheConcurrent(t *testing.T) {
	cache.reset()
	defer cache.reset()
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				cfg := chronyConfig()
				cfg.Name = fmt.Sprintf("99-worker-%d", i%5)
				res, err := Build(cfg, "4.16.3")
				if err != nil {
					t.Error(err)
					return
				}
				if got := res.Object["metadata"].(map[string]any)["name"]; got != cfg.Name {
					t.Errorf("got %v, want %s", got, cfg.Name)
				}
				res.Object["metadata"].(map[string]any)["name"] = "mine"
			}
		}()
	}
	wg.Wait()
}

// TestBuildCacheBounded: the cache never holds more than its bound.
func TestBuildCacheBounded(t *testing.T) {
	cache.reset()
	defer cache.reset()
	for i := 0; i < maxCachedTranslations+3; i++ {
		cfg := Config{Name: fmt.Sprintf("99-x-%d", i), Role: "worker", Body: []byte("storage:\n  files: []\n")}
		if _, err := Build(cfg, "4.16.3"); err != nil {
			t.Fatal(err)
		}
	}
	cache.mu.Lock()
	n := len(cache.entries)
	cache.mu.Unlock()
	if n == 0 || n > maxCachedTranslations {
		t.Errorf("cache holds %d translations, bound %d", n, maxCachedTranslations)
	}
}

// TestBuildCacheStillChecks: a body kept from a generated origin is still
// checked for secrets when a user's snippet holds it; a body that failed
// its checks is never kept.
func TestBuildCacheStillChecks(t *testing.T) {
	cache.reset()
	defer cache.reset()
	body := []byte("storage:\n  files:\n    - path: /var/lib/kubelet/config.json\n      mode: 0600\n      contents:\n        inline: x\n")
	if _, err := Build(Config{Name: "99-worker-x", Role: "worker", Body: body, Origin: Origin{Path: mcPath}}, "4.16"); err != nil {
		t.Fatalf("generated body: %v", err)
	}
	snippet := Config{Name: "99-worker-x", Role: "worker", Body: body, Origin: yamlOrigin}
	for i := 0; i < 2; i++ {
		if _, err := Build(snippet, "4.16"); err == nil || !strings.Contains(err.Error(), "site.yaml:") {
			t.Errorf("snippet holding a pull secret path: err %v", err)
		}
	}
	bad := Config{Name: "99-worker-y", Role: "worker", Body: []byte("storage:\n  files:\n    - path: /etc/x\n---\n"), Origin: yamlOrigin}
	for i := 0; i < 2; i++ {
		if _, err := Build(bad, "4.16"); err == nil || !strings.Contains(err.Error(), "document marker") {
			t.Errorf("build %d of a body with a document marker: err %v", i, err)
		}
	}
}

// TestScalar: the remembered encodings are yaml.v3's.
func TestScalar(t *testing.T) {
	for _, s := range []string{"worker", "99-worker-chrony", "true", "yes", "1", "0644", "a: b", "", "~", "null", "x\ny", "node-role.kubernetes.io/worker"} {
		for i := 0; i < 2; i++ {
			b, err := yaml.Marshal(s)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := scalar(s), strings.TrimSuffix(string(b), "\n"); got != want {
				t.Errorf("scalar(%q) = %q, want %q", s, got, want)
			}
		}
	}
}
