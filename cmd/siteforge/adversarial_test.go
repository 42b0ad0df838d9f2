package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/siteforge/siteforge/cmd/siteforge/internal/cli"
)

const validSite = `apiVersion: siteforge.dev/v1alpha1
kind: Site
name: lab
cluster:
  baseDomain: example.com
  version: "4.16"
  platform: baremetal
  installMethod: agent
  lifecycle: install
network:
  machineNetwork: [192.168.0.0/24]
pools:
  master:
    uplinkInterface: eno1
    uplinkMTU: 1500
`

func aliasBomb() string {
	var b strings.Builder
	b.WriteString(`a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]` + "\n")
	prev := "a"
	for _, n := range []string{"b", "c", "d", "e", "f", "g", "h", "i"} {
		fmt.Fprintf(&b, "%s: &%s [%s]\n", n, n, strings.TrimSuffix(strings.Repeat("*"+prev+",", 9), ","))
		prev = n
	}
	return b.String()
}

// TestAdversarialInputs: hostile or broken input gets exit 2 and a clear,
// positioned message, in bounded time, and never a panic.
func TestAdversarialInputs(t *testing.T) {
	t.Setenv("SITEFORGE_CACHE", t.TempDir()) // render's records: not the user's cache
	cases := []struct {
		name  string
		files map[string]string // relative path -> content; "->" prefix makes a symlink
		args  []string          // after "vet"; default: the first file
		code  int
		want  string
	}{
		{name: "YAML alias bomb", files: map[string]string{"site.yaml": aliasBomb()},
			code: 2, want: "site.yaml:6:17: error: syntax error: aliases expand the document to more than 4194304 bytes"},
		{name: "YAML nested 50000 deep", files: map[string]string{"site.yaml": "a: " + strings.Repeat("[", 50000) + strings.Repeat("]", 50000)},
			code: 2, want: "exceeded max depth of 10000"},
		{name: "CUE nested 50000 deep", files: map[string]string{"site.cue": "x: " + strings.Repeat("{a: ", 50000) + "1" + strings.Repeat("}", 50000)},
			code: 2, want: "expression exceeds maximum nesting depth of 10000"},
		{name: "multi-megabyte file", files: map[string]string{"site.yaml": validSite + "# " + strings.Repeat("x", 5<<20) + "\n"},
			code: 2, want: "site.yaml:1:1: error: file is 5243165 bytes, larger than the 4194304-byte limit for site inputs"},
		{name: "NUL bytes", files: map[string]string{"site.yaml": validSite + "x: \x00\n"},
			code: 2, want: "site.yaml:16:4: error: not text: NUL byte at offset"},
		{name: "invalid UTF-8", files: map[string]string{"site.yaml": "name: caf\xe9\n"},
			code: 2, want: "site.yaml:1:10: error: not UTF-8 text: invalid byte 0xe9"},
		{name: "BOM", files: map[string]string{"site.yaml": "\ufeff" + validSite}, code: 0},
		{name: "CRLF", files: map[string]string{"site.yaml": strings.ReplaceAll(validSite, "\n", "\r\n")}, code: 0},
		{name: "CRLF with an error keeps positions", files: map[string]string{"site.yaml": strings.ReplaceAll(strings.Replace(validSite, "uplinkMTU: 1500", "uplinkMTU: 15", 1), "\n", "\r\n")},
			code: 2, want: "site.yaml:15:16: error: pools.master.uplinkMTU: 15 is out of range"},
		{name: "CUE cycle", files: map[string]string{"site.cue": "a: b\nb: a\n"},
			code: 2, want: `site.cue:1:1: error: field "a" is not allowed`},
		{name: "CUE self reference", files: map[string]string{"site.cue": "name: name + \"x\"\n"},
			code: 2, want: "site.cue:1:"},
		{name: "import of a package that does not exist", files: map[string]string{"site.cue": "import \"example.com/nothere\"\nname: nothere.x\n"},
			code: 2, want: "site.cue:1:8: error:"},
		{name: "symlink loop in a fleet", files: map[string]string{
			"fleet/defaults.cue": "package site\n", "fleet/sites/a": "->.."},
			args: []string{"fleet"}, code: 2, want: "fleet/sites/a: error: site folder is a symbolic link back into the fleet"},
		{name: "symlink to itself in a fleet", files: map[string]string{
			"fleet/defaults.cue": "package site\n", "fleet/sites/b": "->b"},
			args: []string{"fleet"}, code: 2, want: "fleet/sites/b: error: symbolic link does not resolve (a loop, or a missing target)"},
		{name: "site name escaping the output folder", files: map[string]string{"site.yaml": strings.Replace(validSite, "name: lab", `name: "../etc"`, 1)},
			code: 2, want: `site.yaml:3:7: error: name: "../etc" is not valid`},
		{name: "site name with a slash", files: map[string]string{"site.yaml": strings.Replace(validSite, "name: lab", `name: "a/b"`, 1)},
			code: 2, want: `"a/b" is not valid`},
		{name: "duplicate site names in a fleet", files: map[string]string{
			"fleet/defaults.cue":   "package site\n",
			"fleet/sites/a/s.yaml": validSite, "fleet/sites/b/s.yaml": validSite},
			args: []string{"fleet"}, code: 2, want: `site name "lab" is already used by fleet/sites/a/s.yaml:3:7`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			first := ""
			for name, content := range tc.files {
				p := filepath.Join(dir, name)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if target, ok := strings.CutPrefix(content, "->"); ok {
					if err := os.Symlink(target, p); err != nil {
						t.Fatal(err)
					}
					continue
				}
				if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
				first = name
			}
			t.Chdir(dir)
			args := tc.args
			if args == nil {
				args = []string{first}
			}
			for _, verb := range [][]string{{"vet"}, {"render", "-o", "out"}} {
				var stdout, stderr bytes.Buffer
				start := time.Now()
				code := cli.Main(append(verb, args...), nil, &stdout, &stderr)
				if d := time.Since(start); d > 20*time.Second {
					t.Errorf("%s took %v", verb[0], d)
				}
				if code != tc.code {
					t.Fatalf("%s exited %d, want %d; stderr:\n%s", verb[0], code, tc.code, stderr.String())
				}
				if tc.want != "" && !strings.Contains(stderr.String(), tc.want) {
					t.Errorf("%s stderr lacks %q:\n%s", verb[0], tc.want, trim(stderr.String()))
				}
				if strings.Contains(stderr.String(), "internal error") || strings.Contains(stderr.String(), "panic") {
					t.Errorf("%s: %s", verb[0], trim(stderr.String()))
				}
				if tc.code != 0 {
					if _, err := os.Stat("out"); err == nil {
						t.Errorf("a failed render wrote output")
					}
				}
			}
		})
	}
}

func trim(s string) string {
	if len(s) > 2000 {
		return s[:2000] + "..."
	}
	return s
}
