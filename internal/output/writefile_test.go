package output

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// TestWriteFileAsOSWriteFile: writeFile leaves what os.WriteFile leaves:
// the bytes, a longer file before it truncated, an empty file, the same
// mode under the same umask, and a *fs.PathError saying what is missing.
func TestWriteFileAsOSWriteFile(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name   string
		before []byte
		data   []byte
		perm   uint32
	}{
		{"new", nil, []byte("kind: ConfigMap\n"), 0o644},
		{"shorter", []byte("a much longer file than what replaces it\n"), []byte("short\n"), 0o644},
		{"empty", []byte("x"), nil, 0o600},
		{"large", nil, make([]byte, 3<<20), 0o755},
	} {
		ours, theirs := filepath.Join(dir, "ours-"+tc.name), filepath.Join(dir, "theirs-"+tc.name)
		if tc.before != nil {
			for _, p := range []string{ours, theirs} {
				if err := os.WriteFile(p, tc.before, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
		if err := writeFile(ours, tc.data, tc.perm); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if err := os.WriteFile(theirs, tc.data, fs.FileMode(tc.perm)); err != nil {
			t.Fatal(err)
		}
		a, _ := os.ReadFile(ours)
		b, _ := os.ReadFile(theirs)
		if string(a) != string(b) {
			t.Errorf("%s: %d bytes written, os.WriteFile %d", tc.name, len(a), len(b))
		}
		ai, _ := os.Stat(ours)
		bi, _ := os.Stat(theirs)
		if ai.Mode() != bi.Mode() {
			t.Errorf("%s: mode %v, os.WriteFile %v", tc.name, ai.Mode(), bi.Mode())
		}
	}
	err := writeFile(filepath.Join(dir, "missing", "f"), []byte("x"), 0o644)
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe.Op != "open" || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("into a missing folder: %v, want an open *fs.PathError for a missing file", err)
	}
}
