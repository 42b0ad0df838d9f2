package generators

import (
	"bytes"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	yaml2 "go.yaml.in/yaml/v2"
	yaml3 "go.yaml.in/yaml/v3"
	"sigs.k8s.io/yaml"
)

// sameAsYAMLv2 checks blockYAML against go.yaml.in/yaml/v2's Marshal of the
// same map: where blockYAML writes, the bytes are the library's. It
// returns whether blockYAML wrote.
func sameAsYAMLv2(t *testing.T, what string, m map[string]any) bool {
	t.Helper()
	got, ok := blockYAML(m)
	if !ok {
		return false
	}
	want, err := yaml2.Marshal(m)
	if err != nil {
		t.Fatalf("%s: yaml.v2: %v", what, err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s:\n got %q\nwant %q", what, got, want)
	}
	return true
}

// TestBlockYAMLGolden: every object of the golden files (what the
// generators write, read back as ToMap reads an object) is written by
// blockYAML as yaml.v2 writes it, and most of them by blockYAML.
func TestBlockYAMLGolden(t *testing.T) {
	var docs, written int
	err := filepath.WalkDir(filepath.Join("..", "golden"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".yaml") {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		dec := yaml3.NewDecoder(bytes.NewReader(b))
		for i := 0; ; i++ {
			var n yaml3.Node
			if dec.Decode(&n) != nil {
				break
			}
			doc, err := yaml3.Marshal(&n)
			if err != nil {
				return err
			}
			j, err := yaml.YAMLToJSON(doc)
			if err != nil {
				return err
			}
			m, ok := decodeJSON(t, string(j))
			if !ok {
				continue
			}
			docs++
			if sameAsYAMLv2(t, fmt.Sprintf("%s #%d", p, i), typeNumbers(m).(map[string]any)) {
				written++
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if docs < 100 || written*10 < docs*8 {
		t.Fatalf("blockYAML wrote %d of %d golden objects: the fast path is not taken", written, docs)
	}
	if testing.Verbose() {
		t.Logf("blockYAML wrote %d of %d golden objects", written, docs)
	}
}

// yamlAtoms are the strings random values are made of: plain ones and
// every kind blockYAML must leave to the library or quote.
var yamlAtoms = []string{
	"a", "name", "b9", "x-y", "x.y", "x_y", "/etc/x", "_x", "a/b:c", "a:b", "a: b", "a:", "a #b", "a#b", "#a",
	"yes", "Yes", "no", "y", "n", "on", "off", "true", "False", "null", "NULL", "~", "", " ", "a b", "a  b",
	"1", "10", "01", "0x1F", "1e3", "1.5", "4.16", "1.2.3", "10.0.0.1", "10.0.0.0/24", "3h", "1_000", "12:30",
	"2006-01-02", "2006-01-02 15:04:05", "-a", "- a", "-1", "+1", ".5", ".inf", "<<", "?a", "? a", "!a", "&a",
	"*a", "%a", "@a", "`a", "'a'", "\"a\"", "[a]", "{a}", "a,b", "|", ">", "a\nb", "a\tb", "café", "a\x7fb",
	"---", "...", "a0", "a00", "a010", "a9", "a10", "0a", "00", "9", "A", "Z", "Ä",
}

// randomYAMLValue is a random JSON value of the kinds ToMap gives after
// typeNumbers, at most depth deep.
func randomYAMLValue(r *rand.Rand, depth int) any {
	switch k := r.IntN(12); {
	case k < 2 && depth > 0:
		m := map[string]any{}
		for range r.IntN(5) {
			m[randomYAMLString(r)] = randomYAMLValue(r, depth-1)
		}
		return m
	case k < 4 && depth > 0:
		l := make([]any, r.IntN(4))
		for i := range l {
			l[i] = randomYAMLValue(r, depth-1)
		}
		return l
	case k < 5:
		return []any{int(r.Int64N(1 << 40)), int64(-r.Int64N(1 << 40)), uint64(1<<63 + r.Uint64N(1<<62)), r.IntN(2) == 0, nil, 1.5}[r.IntN(6)]
	default:
		return randomYAMLString(r)
	}
}

// plainAtoms are strings most objects are made of.
var plainAtoms = []string{"name", "apiVersion", "v1", "worker", "10.0.0.1", "quay.io/x/y", "a b c", "machineconfiguration.openshift.io/role"}

func randomYAMLString(r *rand.Rand) string {
	atom := func() string {
		if r.IntN(4) > 0 {
			return plainAtoms[r.IntN(len(plainAtoms))]
		}
		return yamlAtoms[r.IntN(len(yamlAtoms))]
	}
	s := atom()
	switch r.IntN(8) {
	case 0:
		s += " " + atom()
	case 1:
		s += atom()
	case 2:
		// long: around yaml.v2's fold width of 80 columns
		s = strings.Repeat(s+" ", 100)[:60+r.IntN(40)]
	case 3:
		s = strings.Repeat("x", 120+r.IntN(20)) // around a simple key's 128 bytes
	}
	return s
}

// TestBlockYAMLIsYAMLv2: on random values built from tricky strings,
// numbers, nesting and key sets, blockYAML writes what yaml.v2 writes (or
// leaves the value to it), and writes a good share of them.
func TestBlockYAMLIsYAMLv2(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n, written := 20000, 0
	if testing.Short() {
		n = 3000
	}
	for i := range n {
		m := map[string]any{}
		for range 1 + r.IntN(4) {
			m[randomYAMLString(r)] = randomYAMLValue(r, 4)
		}
		if sameAsYAMLv2(t, fmt.Sprintf("value %d: %#v", i, m), m) {
			written++
		}
	}
	if written*10 < n {
		t.Fatalf("blockYAML wrote %d of %d random values: too few to compare", written, n)
	}
	if testing.Verbose() {
		t.Logf("blockYAML wrote %d of %d random values", written, n)
	}
}

// TestPlainStyle: the strings blockYAML writes plain, quoted, or leaves to
// the library, each as yaml.v2 writes it in a mapping.
func TestPlainStyle(t *testing.T) {
	for s, want := range map[string]scalarStyle{
		"name": stylePlain, "10.0.0.1": stylePlain, "10.0.0.0/24": stylePlain, "/etc/x": stylePlain, "3h": stylePlain,
		"a: b": styleSingle, "a:": styleSingle, "a #b": styleSingle, "*": styleSingle, "#a": styleSingle, "'a'": styleOther,
		"a: 'b'": styleOther, "it's": stylePlain, ":a": styleOther, "?": styleOther, "- a": styleOther, ".5": styleOther, "": styleQuoted, "1": styleQuoted, "4.16": styleQuoted,
		"0644": styleQuoted, "09": styleQuoted, "4.": styleOther, "1.2.3": stylePlain, "94:40:c9:02:02:11": styleOther, " a": styleOther, "a\nb": styleOther,
		"1e5": styleOther, "0x1F": styleOther, "2006-01-02": styleOther, "12:30": styleOther, "-a": styleOther,
		"yes": styleQuoted, "Off": styleQuoted, "null": styleQuoted,
	} {
		if got := plainStyle(s); got != want {
			t.Errorf("plainStyle(%q) = %d, want %d", s, got, want)
		}
		m := map[string]any{"k": s}
		wrote := sameAsYAMLv2(t, fmt.Sprintf("%q", s), m)
		if wrote != (want != styleOther) {
			t.Errorf("%q: blockYAML wrote it %v", s, wrote)
		}
	}
}
