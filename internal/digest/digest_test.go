package digest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/siteforge/siteforge/internal/diag"
)

func record() Record {
	return Record{Inputs: strings.Repeat("ab", 32), Name: "lab", NamePos: diag.Position{File: "lab/site.yaml", Line: 3, Col: 7},
		Files:    map[string]string{"kustomization.yaml": FileHash([]byte("k")), "mirroring/a.yaml": FileHash(nil)},
		Warnings: diag.List{{Pos: diag.Position{File: "lab/site.yaml", Line: 9, Col: 1}, Message: "m", Hint: "h", Rule: "RND002"}}}
}

func TestRecordRoundTrip(t *testing.T) {
	r := record()
	b := r.Encode()
	if !bytes.Equal(b, r.Encode()) {
		t.Fatal("Encode is not deterministic")
	}
	got, err := Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if got.Inputs != r.Inputs || got.Name != r.Name || got.NamePos != r.NamePos || len(got.Files) != 2 ||
		got.Files["mirroring/a.yaml"] != r.Files["mirroring/a.yaml"] || len(got.Warnings) != 1 || got.Warnings[0] != r.Warnings[0] {
		t.Errorf("round trip: %+v, want %+v", got, r)
	}
}

// TestDecodeRefuses: every record that is not exactly one well-formed
// record of this format is an error (and the caller ignores it).
func TestDecodeRefuses(t *testing.T) {
	good := string(record().Encode())
	for name, b := range map[string]string{
		"empty":          "",
		"garbage":        "\x00\x01",
		"truncated":      good[:len(good)/2],
		"unknown field":  strings.Replace(good, `{`, `{"trusted":true,`, 1),
		"other format":   strings.Replace(good, Format, "siteforge.dev/render-digest/v0", 1),
		"no format":      strings.Replace(good, `"format":"`+Format+`",`, "", 1),
		"short digest":   strings.Replace(good, strings.Repeat("ab", 32), "abab", 1),
		"upper digest":   strings.Replace(good, strings.Repeat("ab", 32), strings.Repeat("AB", 32), 1),
		"no name":        strings.Replace(good, `"name":"lab"`, `"name":""`, 1),
		"no files":       `{"format":"` + Format + `","inputs":"` + strings.Repeat("ab", 32) + `","name":"lab","files":{}}`,
		"bad file hash":  strings.Replace(good, FileHash([]byte("k")), "k", 1),
		"absolute path":  strings.Replace(good, `"kustomization.yaml"`, `"/etc/passwd"`, 1),
		"parent path":    strings.Replace(good, `"kustomization.yaml"`, `"../x.yaml"`, 1),
		"unclean path":   strings.Replace(good, `"kustomization.yaml"`, `"a/../kustomization.yaml"`, 1),
		"two records":    good + good,
		"trailing bytes": good + "x",
	} {
		if b == good {
			t.Fatalf("%s: the case does not change the record", name)
		}
		if _, err := Decode([]byte(b)); err == nil {
			t.Errorf("%s: decoded", name)
		}
	}
}

// TestHasherFraming: fields are framed, so moving bytes from one field to
// the next, or a label to a value, changes the digest.
func TestHasherFraming(t *testing.T) {
	sum := func(kv ...string) string {
		h := NewHasher()
		for i := 0; i < len(kv); i += 2 {
			h.AddString(kv[i], kv[i+1])
		}
		return h.Sum()
	}
	seen := map[string]string{}
	for name, s := range map[string]string{
		"ab,c":      sum("f", "ab", "f", "c"),
		"a,bc":      sum("f", "a", "f", "bc"),
		"abc":       sum("f", "abc"),
		"label":     sum("fa", "bc"),
		"none":      sum(),
		"empty":     sum("f", ""),
		"two empty": sum("f", "", "f", ""),
	} {
		if other, ok := seen[s]; ok {
			t.Errorf("%s and %s give one digest", name, other)
		}
		seen[s] = name
	}
	if sum("f", "x") != sum("f", "x") {
		t.Error("not deterministic")
	}
}

// TestExecutableIsTheGoBuildID: the running binary (this test) is
// identified by its Go build ID, as `go tool buildid` reads it.
func TestExecutableIsTheGoBuildID(t *testing.T) {
	id, err := Executable()
	if err != nil {
		t.Fatal(err)
	}
	gobin := filepath.Join(os.Getenv("GOROOT"), "bin", "go")
	if _, err := os.Stat(gobin); err != nil {
		if gobin, err = exec.LookPath("go"); err != nil {
			t.Skip("no go command to read the build ID with (go tool buildid); Executable returned " + id)
		}
	}
	exe, _ := os.Executable()
	out, err := exec.Command(gobin, "tool", "buildid", exe).Output()
	if err != nil {
		t.Skipf("go tool buildid %s: %v", exe, err)
	}
	if want := "go-build-id:" + strings.TrimSpace(string(out)); id != want {
		t.Errorf("Executable() = %q, want %q", id, want)
	}
}

// TestFileIdentityWithoutBuildID: a binary without a Go build ID is
// identified by its bytes: one byte changes it.
func TestFileIdentityWithoutBuildID(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	os.WriteFile(a, []byte("#!/bin/sh\necho a\n"), 0o755)
	os.WriteFile(b, []byte("#!/bin/sh\necho b\n"), 0o755)
	ia, err := FileIdentity(a)
	if err != nil {
		t.Fatal(err)
	}
	ib, _ := FileIdentity(b)
	if !strings.HasPrefix(ia, "sha256:") || ia == ib {
		t.Errorf("identities %q and %q", ia, ib)
	}
}
