package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra/doc"
)

// TestManPages: the command tree makes one man page per command (what
// make man writes with cobra/doc), each with its name, synopsis and
// flags, and the same bytes twice for a fixed date.
func TestManPages(t *testing.T) {
	date := time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC)
	gen := func() string {
		dir := t.TempDir()
		root := Command()
		root.DisableAutoGenTag = true
		if err := doc.GenManTree(root, &doc.GenManHeader{Title: "SITEFORGE", Section: "1", Date: &date}, dir); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	a, b := gen(), gen()
	for name := range commands {
		page := "siteforge-" + name + ".1"
		got, err := os.ReadFile(filepath.Join(a, page))
		if err != nil {
			t.Errorf("no man page for %s: %v", name, err)
			continue
		}
		for _, want := range []string{".SH NAME", ".SH SYNOPSIS", "siteforge " + name} {
			if !strings.Contains(string(got), want) {
				t.Errorf("%s has no %q", page, want)
			}
		}
		again, _ := os.ReadFile(filepath.Join(b, page))
		if string(again) != string(got) {
			t.Errorf("%s differs between two runs", page)
		}
	}
	for _, page := range []string{"siteforge.1", "siteforge-completion-bash.1"} {
		if _, err := os.Stat(filepath.Join(a, page)); err != nil {
			t.Errorf("no %s: %v", page, err)
		}
	}
}
