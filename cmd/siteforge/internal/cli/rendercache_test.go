package cli

import (
	"bytes"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/siteforge/siteforge/internal/digest"
	"github.com/siteforge/siteforge/internal/load"
	"github.com/siteforge/siteforge/internal/output"
)

// The digest cache of render -o and render --check (rendercache.go). Each
// test compares the cached run with the same run with the cache off: the
// cache may only save work, never change an answer.

var fleetSites = []string{"store-0001", "store-0002", "store-0003"}

// TestMain points the render cache at a folder of the run (no test writes
// the user's cache).
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "siteforge-cache-")
	if err != nil {
		panic(err)
	}
	os.Setenv("SITEFORGE_CACHE", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// newCache gives the test an empty render cache of its own.
func newCache(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("SITEFORGE_CACHE", dir)
	return dir
}

// cacheRecords reads the render cache's records: site name -> the paths of
// its records.
func cacheRecords(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	root := filepath.Join(os.Getenv("SITEFORGE_CACHE"), "render")
	paths, _ := filepath.Glob(filepath.Join(root, "*", "*"))
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		if r, err := digest.Decode(b); err == nil {
			out[r.Name] = append(out[r.Name], p)
		}
	}
	return out
}

// cacheRepo copies examples/fleet into a new repository, as repo/fleet,
// with an empty render cache.
func cacheRepo(t *testing.T) string {
	t.Helper()
	newCache(t)
	repo := t.TempDir()
	write(t, repo, map[string]string{".git/HEAD": "ref: refs/heads/main\n"})
	src := "../../../../examples/fleet"
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		write(t, repo, map[string]string{filepath.Join("fleet", rel): string(b)})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return repo
}

var renderLine = regexp.MustCompile(`(?m)^(rendered|unchanged) \S+ -> \S+/([^/\s]+) \(\d+ files\)$`)

// rendered lists the sites a render -o evaluated, and fails when a site is
// neither rendered nor unchanged.
func rendered(t *testing.T, r ran) []string {
	t.Helper()
	if r.code != ExitOK {
		t.Fatalf("render: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	var out []string
	seen := 0
	for _, m := range renderLine.FindAllStringSubmatch(r.stdout, -1) {
		seen++
		if m[1] == "rendered" {
			out = append(out, m[2])
		}
	}
	if seen != len(fleetSites) {
		t.Fatalf("render printed %d site lines, want %d:\n%s", seen, len(fleetSites), r.stdout)
	}
	sort.Strings(out)
	return out
}

// tree reads a folder's files.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[rel] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// withoutCache runs f with the cache off.
func withoutCache(f func()) {
	testCacheOff = true
	defer func() { testCacheOff = false }()
	f()
}

// checkAgrees runs render --check with and without the cache in dir and
// fails when they differ in anything (exit code, files listed, warnings).
func checkAgrees(t *testing.T, dir string, args ...string) ran {
	t.Helper()
	args = append([]string{"render", "--check"}, args...)
	with := mainIn(t, dir, args...)
	var without ran
	withoutCache(func() { without = mainIn(t, dir, args...) })
	if with.code != without.code || with.stdout != without.stdout || with.stderr != without.stderr {
		t.Errorf("%v: the cache changes the answer:\nwith: exit %d\n%s%s\nwithout: exit %d\n%s%s", args,
			with.code, with.stdout, with.stderr, without.code, without.stdout, without.stderr)
	}
	return with
}

// TestRenderCacheReRendersWhatChanged changes each kind of input a site's
// output depends on and checks that exactly the sites it concerns are
// evaluated again, that the output is what a render without the cache
// writes, and that render --check agrees with and without the cache.
func TestRenderCacheReRendersWhatChanged(t *testing.T) {
	appendTo := func(p, text string) func(t *testing.T, repo string) {
		return func(t *testing.T, repo string) {
			f, err := os.OpenFile(filepath.Join(repo, p), os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if _, err := f.WriteString(text); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, tc := range []struct {
		name   string
		change func(t *testing.T, repo string)
		flags  []string
		want   []string // the sites evaluated again
	}{
		{name: "nothing", change: func(*testing.T, string) {}},
		{name: "a fleet default (a comment)", change: appendTo("fleet/defaults.cue", "\n// changed\n"), want: fleetSites},
		{name: "a fleet default (a value)", change: func(t *testing.T, repo string) {
			p := filepath.Join(repo, "fleet/defaults.cue")
			b, _ := os.ReadFile(p)
			nb := bytes.Replace(b, []byte(`"ntp.hub.fleet.example.com"`), []byte(`"ntp2.hub.fleet.example.com"`), 1)
			if bytes.Equal(b, nb) {
				t.Fatal("examples/fleet/defaults.cue has no ntp.hub.fleet.example.com to change")
			}
			os.WriteFile(p, nb, 0o644)
		}, want: fleetSites},
		{name: "a site file", change: appendTo("fleet/sites/store-0001/site.cue", "\n// changed\n"), want: []string{"store-0001"}},
		{name: "a file added to a site folder", change: func(t *testing.T, repo string) {
			write(t, repo, map[string]string{"fleet/sites/store-0003/more.cue": "package site\n"})
		}, want: []string{"store-0003"}},
		{name: "a site file renamed", change: func(t *testing.T, repo string) {
			if err := os.Rename(filepath.Join(repo, "fleet/sites/store-0002/site.yaml"), filepath.Join(repo, "fleet/sites/store-0002/store.yaml")); err != nil {
				t.Fatal(err)
			}
		}, want: []string{"store-0002"}},
		{name: "the binary rebuilt", change: func(t *testing.T, repo string) {
			testBuildIdentity = func() string { return "go-build-id:rebuilt" }
			t.Cleanup(func() { testBuildIdentity = nil })
		}, want: fleetSites},
		{name: "another version", change: func(t *testing.T, repo string) {
			testVersion = func() string { return "v9.9.9" }
			t.Cleanup(func() { testVersion = nil })
		}, want: fleetSites},
		{name: "--strict", change: func(*testing.T, string) {}, flags: []string{"--strict"}, want: fleetSites},
		{name: "the repository root (origins)", change: func(t *testing.T, repo string) {
			load.SetRepoRoot(filepath.Join(repo, "fleet"))
			t.Cleanup(func() { load.SetRepoRoot("") })
		}, want: fleetSites},
	} {
		t.Run(tc.name, func(t *testing.T) {
			repo := cacheRepo(t)
			if got := rendered(t, mainIn(t, repo, "render", "-o", "out", "fleet")); len(got) != len(fleetSites) {
				t.Fatalf("first render evaluated %v, want every site", got)
			}
			tc.change(t, repo)
			args := append([]string{"render", "-o", "out", "fleet"}, tc.flags...)
			if got := rendered(t, mainIn(t, repo, args...)); strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("evaluated again: %v, want %v", got, tc.want)
			}
			withoutCache(func() {
				rendered(t, mainIn(t, repo, append([]string{"render", "-o", "fresh", "fleet"}, tc.flags...)...))
			})
			got, want := tree(t, filepath.Join(repo, "out")), tree(t, filepath.Join(repo, "fresh"))
			if len(got) != len(want) {
				t.Errorf("%d files, a render without the cache writes %d", len(got), len(want))
			}
			for p, b := range want {
				if got[p] != b {
					t.Errorf("%s differs from a render without the cache", p)
				}
			}
			// Now up to date: nothing is evaluated, and --check agrees.
			if got := rendered(t, mainIn(t, repo, args...)); len(got) != 0 {
				t.Errorf("render after render evaluated %v", got)
			}
			if r := checkAgrees(t, repo, append([]string{"-o", "out", "fleet"}, tc.flags...)...); r.code != ExitOK {
				t.Errorf("render --check: exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
		})
	}
}

// TestRenderCacheCheckSeesEditedOutput: a site whose inputs did not change
// but whose folder was edited by hand is reported by render --check exactly
// as without the cache, and render -o writes it again.
func TestRenderCacheCheckSeesEditedOutput(t *testing.T) {
	site := func(repo, name string) string { return filepath.Join(repo, "out", name) }
	for _, tc := range []struct {
		name string
		edit func(t *testing.T, repo string)
		want string // a line of --check's output ("" : up to date)
	}{
		{"edited", func(t *testing.T, repo string) {
			write(t, site(repo, "store-0001"), map[string]string{"kustomization.yaml": "resources: []\n"})
		}, "stale out/store-0001/kustomization.yaml"},
		{"one byte appended", func(t *testing.T, repo string) {
			p := filepath.Join(site(repo, "store-0002"), "kustomization.yaml")
			b, _ := os.ReadFile(p)
			os.WriteFile(p, append(b, '\n'), 0o644)
		}, "stale out/store-0002/kustomization.yaml"},
		{"added", func(t *testing.T, repo string) {
			write(t, site(repo, "store-0002"), map[string]string{"mirroring/extra.yaml": "kind: ConfigMap\n"})
		}, "extra out/store-0002/mirroring/extra.yaml"},
		{"added, hidden", func(t *testing.T, repo string) {
			write(t, site(repo, "store-0002"), map[string]string{".gitkeep": ""})
		}, "extra out/store-0002/.gitkeep"},
		{"deleted", func(t *testing.T, repo string) {
			if err := os.Remove(filepath.Join(site(repo, "store-0003"), "kustomization.yaml")); err != nil {
				t.Fatal(err)
			}
		}, "missing out/store-0003/kustomization.yaml"},
		{"a link to the same bytes", func(t *testing.T, repo string) {
			p := filepath.Join(site(repo, "store-0001"), "kustomization.yaml")
			b, _ := os.ReadFile(p)
			os.WriteFile(filepath.Join(repo, "copy.yaml"), b, 0o644)
			os.Remove(p)
			if err := os.Symlink(filepath.Join(repo, "copy.yaml"), p); err != nil {
				t.Fatal(err)
			}
		}, "stale out/store-0001/kustomization.yaml"},
		{"the folder replaced by a file", func(t *testing.T, repo string) {
			os.RemoveAll(site(repo, "store-0003"))
			os.WriteFile(site(repo, "store-0003"), []byte("x"), 0o644)
		}, "extra out/store-0003"},
		{"the folder removed", func(t *testing.T, repo string) {
			os.RemoveAll(site(repo, "store-0003"))
		}, "missing out/store-0003/kustomization.yaml"},
		{"edited and put back", func(t *testing.T, repo string) {
			p := filepath.Join(site(repo, "store-0001"), "kustomization.yaml")
			b, _ := os.ReadFile(p)
			os.WriteFile(p, []byte("x"), 0o644)
			os.WriteFile(p, b, 0o644)
		}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			repo := cacheRepo(t)
			rendered(t, mainIn(t, repo, "render", "-o", "out", "fleet"))
			tc.edit(t, repo)
			r := checkAgrees(t, repo, "-o", "out", "fleet")
			switch {
			case tc.want == "" && r.code != ExitOK:
				t.Errorf("render --check: exit %d, want 0\n%s", r.code, r.stdout)
			case tc.want != "" && (r.code != ExitFindings || !strings.Contains(r.stdout, tc.want+"\n")):
				t.Errorf("render --check: exit %d, want 1 and %q\n%s", r.code, tc.want, r.stdout)
			}
			if tc.want == "" || strings.Contains(tc.name, "file") {
				return // render does not replace a file it did not write
			}
			if strings.Contains(tc.want, "extra") {
				// render leaves an extra file where it is; it
				// writes nothing else (not evaluated or not)
				return
			}
			edited := strings.Split(tc.want, "/")[1]
			if got := rendered(t, mainIn(t, repo, "render", "-o", "out", "fleet")); strings.Join(got, " ") != edited {
				t.Errorf("render evaluated %v, want %s", got, edited)
			}
			if r := checkAgrees(t, repo, "-o", "out", "fleet"); r.code != ExitOK {
				t.Errorf("render --check after render: exit %d\n%s", r.code, r.stdout)
			}
		})
	}
}

// TestRenderCacheIgnoresBadRecords: a record that is damaged, foreign or
// does not describe its folder is never trusted: the site is rendered, and
// its record written again.
func TestRenderCacheIgnoresBadRecords(t *testing.T) {
	// the record of a site in the cache (one: each test has a cache of its own)
	rec := func(_, name string) string {
		if r := cacheRecords(t)[name]; len(r) == 1 {
			return r[0]
		}
		t.Fatalf("no single record of %s in the cache: %v", name, cacheRecords(t))
		return ""
	}
	edit := func(f func(r *digest.Record)) func(t *testing.T, repo string) {
		return func(t *testing.T, repo string) {
			b, _ := os.ReadFile(rec(repo, "store-0001"))
			r, err := digest.Decode(b)
			if err != nil {
				t.Fatal(err)
			}
			f(&r)
			if err := os.WriteFile(rec(repo, "store-0001"), r.Encode(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	replace := func(f func(b []byte) []byte) func(t *testing.T, repo string) {
		return func(t *testing.T, repo string) {
			b, _ := os.ReadFile(rec(repo, "store-0001"))
			if err := os.WriteFile(rec(repo, "store-0001"), f(b), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, tc := range []struct {
		name   string
		damage func(t *testing.T, repo string)
	}{
		{"garbage", replace(func([]byte) []byte { return []byte("\x00\xff not json") })},
		{"empty", replace(func([]byte) []byte { return nil })},
		{"truncated", replace(func(b []byte) []byte { return b[:len(b)/2] })},
		{"an unknown field", replace(func(b []byte) []byte { return bytes.Replace(b, []byte(`{`), []byte(`{"trust":true,`), 1) })},
		{"another format", replace(func(b []byte) []byte { return bytes.Replace(b, []byte(digest.Format), []byte(digest.Format+"x"), 1) })},
		{"two records in one file", replace(func(b []byte) []byte { return append(b, b...) })},
		{"another digest of the inputs", edit(func(r *digest.Record) { r.Inputs = strings.Repeat("0", 64) })},
		{"a wrong file hash", edit(func(r *digest.Record) { r.Files["kustomization.yaml"] = strings.Repeat("0", 64) })},
		{"a file left out", edit(func(r *digest.Record) { delete(r.Files, "kustomization.yaml") })},
		{"a file too many", edit(func(r *digest.Record) { r.Files["more.yaml"] = digest.FileHash(nil) })},
		{"another site's record", func(t *testing.T, repo string) {
			b, _ := os.ReadFile(rec(repo, "store-0002"))
			os.WriteFile(rec(repo, "store-0001"), b, 0o644)
		}},
		{"a record in the site's folder", func(t *testing.T, repo string) {
			// what older releases read: an extra file now, never a record
			b, _ := os.ReadFile(rec(repo, "store-0001"))
			os.Remove(rec(repo, "store-0001"))
			os.WriteFile(filepath.Join(repo, "out", "store-0001", ".siteforge-digest"), b, 0o644)
		}},
		{"another name", edit(func(r *digest.Record) { r.Name = "store-0009" })},
		{"a link to a good record", func(t *testing.T, repo string) {
			p := rec(repo, "store-0001")
			os.Rename(p, filepath.Join(repo, "saved"))
			os.Symlink(filepath.Join(repo, "saved"), p)
		}},
		{"a folder", func(t *testing.T, repo string) {
			p := rec(repo, "store-0001")
			os.Remove(p)
			os.Mkdir(p, 0o755)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			repo := cacheRepo(t)
			rendered(t, mainIn(t, repo, "render", "-o", "out", "fleet"))
			tc.damage(t, repo)
			// the records are not in the output: the folder is up to
			// date, unless a file was put there
			r := checkAgrees(t, repo, "-o", "out", "fleet")
			if tc.name == "a record in the site's folder" {
				if r.code != ExitFindings || !strings.Contains(r.stdout, "extra out/store-0001/.siteforge-digest\n") {
					t.Errorf("render --check: exit %d, want 1 and the record file extra\n%s%s", r.code, r.stdout, r.stderr)
				}
			} else if r.code != ExitOK {
				t.Errorf("render --check: exit %d\n%s%s", r.code, r.stdout, r.stderr)
			}
			// render --check rendered the site, and wrote its record
			// again: damage it again for render
			tc.damage(t, repo)
			if got := rendered(t, mainIn(t, repo, "render", "-o", "out", "fleet")); strings.Join(got, " ") != "store-0001" {
				t.Errorf("evaluated %v, want store-0001 (its record is not to be trusted)", got)
			}
			if got := rendered(t, mainIn(t, repo, "render", "-o", "out", "fleet")); len(got) != 0 {
				t.Errorf("the record was not written again: evaluated %v", got)
			}
		})
	}
}

// TestRenderCacheWarningsReplayed: a site that is not evaluated prints the
// warnings its render printed (checkAgrees compares stderr).
func TestRenderCacheWarningsReplayed(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, map[string]string{"lab/site.yaml": hardSite})
	if r := mainIn(t, dir, "render", "-o", "out", "lab"); r.code != ExitOK || !strings.Contains(r.stderr, "[RND002]") {
		t.Fatalf("render: exit %d, want 0 and RND002 warnings\n%s", r.code, r.stderr)
	}
	r := checkAgrees(t, dir, "-o", "out", "lab")
	if r.code != ExitOK || !strings.Contains(r.stderr, "[RND002]") {
		t.Errorf("render --check: exit %d, want 0 and the RND002 warnings\n%s", r.code, r.stderr)
	}
	first := mainIn(t, dir, "render", "-o", "out", "lab")
	if !strings.HasPrefix(first.stdout, "unchanged ") || !strings.Contains(first.stderr, "[RND002]") {
		t.Errorf("render of an unchanged site: want it unchanged, with its warnings:\n%s%s", first.stdout, first.stderr)
	}
	// --strict is another digest: the warnings are errors, nothing written.
	if r := mainIn(t, dir, "render", "--strict", "-o", "out", "lab"); r.code != ExitFailure {
		t.Errorf("render --strict of a site with warnings: exit %d, want 2\n%s", r.code, r.stdout)
	}
}

// TestRenderCacheConcurrentRenders: renders of two versions of a fleet run
// at once into one folder; whichever wins, the cache holds a record of the
// files each site folder holds, and
// render --check of either version agrees with and without the cache.
func TestRenderCacheConcurrentRenders(t *testing.T) {
	a, b := cacheRepo(t), cacheRepo(t)
	p := filepath.Join(b, "fleet/defaults.cue")
	src, _ := os.ReadFile(p)
	os.WriteFile(p, bytes.Replace(src, []byte(`"ntp.hub.fleet.example.com"`), []byte(`"ntp2.hub.fleet.example.com"`), 1), 0o644)
	out := filepath.Join(t.TempDir(), "out")
	var wg sync.WaitGroup
	for i := 0; i < 6; i++ {
		fleet := filepath.Join(a, "fleet")
		if i%2 == 1 {
			fleet = filepath.Join(b, "fleet")
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			var o, e bytes.Buffer
			// A render that kept a folder another render replaced
			// meanwhile fails, writing nothing (output.ErrReplaced).
			code := Main([]string{"render", "-o", out, fleet}, strings.NewReader(""), &o, &e)
			if code != ExitOK && !(code == ExitFailure && strings.Contains(e.String(), "changed during this render")) {
				t.Errorf("render %s: exit %d\n%s", fleet, code, e.String())
			}
		}()
	}
	wg.Wait()
	// Whichever render won, the cache holds a record of the files each
	// folder holds (records are facts about inputs, not about a folder).
	records := cacheRecords(t)
	for _, name := range fleetSites {
		found := false
		for _, p := range records[name] {
			b, _ := os.ReadFile(p)
			if r, err := digest.Decode(b); err == nil && output.Unchanged(out, name, r.Files) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: no record in the cache describes the folder's files", name)
		}
	}
	var codes []int
	for _, repo := range []string{a, b} {
		// the path as the renders named it (the hub finisher's
		// annotations name the path as given)
		codes = append(codes, checkAgrees(t, repo, "-o", out, filepath.Join(repo, "fleet")).code)
	}
	// Commits do not interleave: the folder is one version or the other.
	if (codes[0] == ExitOK) == (codes[1] == ExitOK) {
		t.Errorf("render --check of the two versions: exit %v, want one up to date", codes)
	}
}

// genuineRecord is the record render wrote for site name: in the site's
// folder (where older releases kept it) or in the cache.
func genuineRecord(t *testing.T, repo, name string) digest.Record {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repo, "out", name, ".siteforge-digest"))
	if err != nil {
		paths := cacheRecords(t)[name]
		if len(paths) != 1 {
			t.Fatalf("no record of %s", name)
		}
		b, err = os.ReadFile(paths[0])
	}
	r, err := digest.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestRenderCacheForgedRecord (issue 25, defect 7): a commit that edits a
// rendered file and writes a record of the edited bytes into the site's
// folder does not pass render --check, with the cache that rendered the
// folder or with an empty one (a CI runner), and render writes the site
// again.
func TestRenderCacheForgedRecord(t *testing.T) {
	for _, freshCache := range []bool{false, true} {
		t.Run(map[bool]string{false: "the cache that rendered it", true: "an empty cache"}[freshCache], func(t *testing.T) {
			repo := cacheRepo(t)
			rendered(t, mainIn(t, repo, "render", "-o", "out", "fleet"))
			want := tree(t, filepath.Join(repo, "out", "store-0001"))
			r := genuineRecord(t, repo, "store-0001")
			p := filepath.Join(repo, "out", "store-0001", "kustomization.yaml")
			edited := append([]byte(want["kustomization.yaml"]), "  - extra.yaml\n"...)
			write(t, filepath.Dir(p), map[string]string{"kustomization.yaml": string(edited), "extra.yaml": "kind: ConfigMap\n"})
			r.Files["kustomization.yaml"] = digest.FileHash(edited)
			r.Files["extra.yaml"] = digest.FileHash([]byte("kind: ConfigMap\n"))
			if err := os.WriteFile(filepath.Join(repo, "out", "store-0001", ".siteforge-digest"), r.Encode(), 0o644); err != nil {
				t.Fatal(err)
			}
			if freshCache {
				newCache(t)
			}
			c := checkAgrees(t, repo, "-o", "out", "fleet")
			if c.code != ExitFindings || !strings.Contains(c.stdout, "stale out/store-0001/kustomization.yaml\n") ||
				!strings.Contains(c.stdout, "extra out/store-0001/extra.yaml\n") {
				t.Errorf("render --check with a forged record: exit %d, want 1 and the edited files\n%s%s", c.code, c.stdout, c.stderr)
			}
			if got := rendered(t, mainIn(t, repo, "render", "-o", "out", "fleet")); strings.Join(got, " ") != "store-0001" {
				t.Errorf("render evaluated %v, want store-0001", got)
			}
			got := tree(t, filepath.Join(repo, "out", "store-0001"))
			if len(got) != len(want) || got["kustomization.yaml"] != want["kustomization.yaml"] {
				t.Errorf("render kept the edited folder: %d files", len(got))
			}
			if c := checkAgrees(t, repo, "-o", "out", "fleet"); c.code != ExitOK {
				t.Errorf("render --check after render: exit %d\n%s", c.code, c.stdout)
			}
		})
	}
}

// TestRenderCacheDefaultsEditedDuringRender (issue 25, defect 8): the fleet
// defaults are edited while a render reads its inputs, and the edit is
// undone afterwards. Every site's output is rendered from the bytes its
// record digests: render --check agrees with and without the cache and
// finds the output up to date, and render leaves it.
func TestRenderCacheDefaultsEditedDuringRender(t *testing.T) {
	repo := cacheRepo(t)
	p := filepath.Join(repo, "fleet", "defaults.cue")
	orig, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	edit := bytes.Replace(orig, []byte(`"ntp.hub.fleet.example.com"`), []byte(`"ntp2.hub.fleet.example.com"`), 1)
	if bytes.Equal(orig, edit) {
		t.Fatal("examples/fleet/defaults.cue has no ntp.hub.fleet.example.com to change")
	}
	var once sync.Once
	testHookInputRead = func(f string) {
		if f == filepath.Join("fleet", "defaults.cue") || f == p {
			once.Do(func() { os.WriteFile(p, edit, 0o644) })
		}
	}
	r := mainIn(t, repo, "render", "-o", "out", "fleet")
	testHookInputRead = nil
	rendered(t, r)
	os.WriteFile(p, orig, 0o644) // the edit undone
	if c := checkAgrees(t, repo, "-o", "out", "fleet"); c.code != ExitOK {
		t.Errorf("render --check after the edit was undone: exit %d, want 0 (the output is of the bytes recorded)\n%s", c.code, c.stdout)
	}
	withoutCache(func() { rendered(t, mainIn(t, repo, "render", "-o", "fresh", "fleet")) })
	got, want := tree(t, filepath.Join(repo, "out")), tree(t, filepath.Join(repo, "fresh"))
	for f, b := range want {
		if got[f] != b {
			t.Errorf("%s is not what the defaults render", f)
		}
	}
}

// TestRenderCacheOnlyWhereNoCommitWrites: a cache folder a commit or
// another user could write (inside the repository, the output folder, or
// writable by others) is not used: every site renders and no record is
// written there.
func TestRenderCacheOnlyWhereNoCommitWrites(t *testing.T) {
	for _, tc := range []struct {
		name  string
		cache func(repo string) string
	}{
		{"in the repository", func(repo string) string { return filepath.Join(repo, ".cache") }},
		{"in the output folder", func(repo string) string { return filepath.Join(repo, "out", ".cache") }},
		{"writable by others", func(repo string) string {
			d := filepath.Join(t.TempDir(), "shared")
			os.MkdirAll(filepath.Join(d, "render"), 0o777)
			os.Chmod(filepath.Join(d, "render"), 0o777)
			return d
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			repo := cacheRepo(t)
			cache := tc.cache(repo)
			t.Setenv("SITEFORGE_CACHE", cache)
			cacheNotUsed(t, repo, cache)
			checkAgrees(t, repo, "-o", "out", "fleet")
		})
	}
}

// cacheNotUsed renders fleet in dir into out twice and fails when the
// second run did not evaluate every site or the cache folder got records.
func cacheNotUsed(t *testing.T, dir, cache string) {
	t.Helper()
	rendered(t, mainIn(t, dir, "render", "-o", "out", "fleet"))
	if got := rendered(t, mainIn(t, dir, "render", "-o", "out", "fleet")); len(got) != len(fleetSites) {
		t.Errorf("render evaluated %v, want every site (the cache is not to be used)", got)
	}
	if n := len(cacheRecords(t)); n != 0 {
		t.Errorf("%d records written in %s", n, cache)
	}
}

// TestRenderCacheFreshFolder: a render into a new (or empty) folder
// evaluates every site, whatever the records say, and leaves the records
// of an earlier render of the same inputs as they are (not written again);
// a render into the first folder again evaluates none.
func TestRenderCacheFreshFolder(t *testing.T) {
	repo := cacheRepo(t)
	if got := rendered(t, mainIn(t, repo, "render", "fleet", "-o", "out1")); !slices.Equal(got, fleetSites) {
		t.Fatalf("first render evaluated %v, want %v", got, fleetSites)
	}
	inodes := func() map[string]uint64 {
		m := map[string]uint64{}
		for name, paths := range cacheRecords(t) {
			for _, p := range paths {
				fi, err := os.Stat(p)
				if err != nil {
					t.Fatal(err)
				}
				m[name+" "+p] = fi.Sys().(*syscall.Stat_t).Ino
			}
		}
		return m
	}
	before := inodes()
	if len(before) != len(fleetSites) {
		t.Fatalf("%d records, want %d", len(before), len(fleetSites))
	}
	if err := os.Mkdir(filepath.Join(repo, "out3"), 0o755); err != nil {
		t.Fatal(err)
	}
	var decoded atomic.Int32
	testHookRecordDecoded = func() { decoded.Add(1) }
	defer func() { testHookRecordDecoded = nil }()
	for _, out := range []string{"out2", "out3"} {
		if got := rendered(t, mainIn(t, repo, "render", "fleet", "-o", out)); !slices.Equal(got, fleetSites) {
			t.Fatalf("render into %s evaluated %v, want %v", out, got, fleetSites)
		}
		if n := decoded.Load(); n != 0 {
			t.Fatalf("render into %s decoded %d records: none can be a hit there", out, n)
		}
		if a, b := tree(t, filepath.Join(repo, "out1")), tree(t, filepath.Join(repo, out)); !maps.Equal(a, b) {
			t.Fatalf("%s differs from out1", out)
		}
		if after := inodes(); !maps.Equal(before, after) {
			t.Fatalf("render into %s wrote the records again:\n%v\n%v", out, before, after)
		}
	}
	if got := rendered(t, mainIn(t, repo, "render", "fleet", "-o", "out1")); len(got) != 0 {
		t.Fatalf("render into out1 again evaluated %v, want none", got)
	}
	if n := decoded.Load(); n != int32(len(fleetSites)) {
		t.Fatalf("render into out1 again decoded %d records, want %d", n, len(fleetSites))
	}
}

// TestRenderCacheNotInLinkedRepository: a cache folder inside the git
// work tree an input reaches through a symbolic link (the fleet named by
// a link from a folder outside any repository) is not used either.
func TestRenderCacheNotInLinkedRepository(t *testing.T) {
	repo := cacheRepo(t)
	work := t.TempDir()
	if err := os.Symlink(filepath.Join(repo, "fleet"), filepath.Join(work, "fleet")); err != nil {
		t.Fatal(err)
	}
	cache := filepath.Join(repo, ".cache")
	t.Setenv("SITEFORGE_CACHE", cache)
	cacheNotUsed(t, work, cache)
	// the same cache folder, the fleet not reached through the repository:
	// used
	other := t.TempDir()
	tree := tree(t, filepath.Join(repo, "fleet"))
	for p, b := range tree {
		write(t, other, map[string]string{filepath.Join("fleet", p): b})
	}
	rendered(t, mainIn(t, other, "render", "-o", "out", "fleet"))
	if got := rendered(t, mainIn(t, other, "render", "-o", "out", "fleet")); len(got) != 0 {
		t.Errorf("render evaluated %v, want none (the cache is usable)", got)
	}
}
