package fsread

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

func TestFile(t *testing.T) {
	dir := t.TempDir()
	reg := filepath.Join(dir, "a.yaml")
	os.WriteFile(reg, []byte("hello"), 0o644)
	if b, err := File(reg, 5); err != nil || string(b) != "hello" {
		t.Errorf("regular file: %q %v", b, err)
	}
	// sizes around the read buffer's: empty, at the limit, over it by one
	big := bytes.Repeat([]byte("0123456789abcdef"), 40000)
	for _, n := range []int{0, 1, 511, 512, 513, 4096, len(big)} {
		p := filepath.Join(dir, fmt.Sprintf("%d.yaml", n))
		os.WriteFile(p, big[:n], 0o644)
		if b, err := File(p, int64(n)); err != nil || !bytes.Equal(b, big[:n]) {
			t.Errorf("%d bytes at the limit: %d bytes, %v", n, len(b), err)
		}
		if b, err := FileNoFollow(p, int64(n)+100); err != nil || !bytes.Equal(b, big[:n]) {
			t.Errorf("%d bytes under the limit: %d bytes, %v", n, len(b), err)
		}
		if n > 0 {
			if _, err := File(p, int64(n-1)); !errors.As(err, new(*TooLargeError)) {
				t.Errorf("%d bytes, limit %d: %v", n, n-1, err)
			}
		}
	}
	var tl *TooLargeError
	if _, err := File(reg, 4); !errors.As(err, &tl) || tl.Size != 5 {
		t.Errorf("over the limit by stat: %v", err)
	}
	// stat says 0, the file has more: bounded by bytes read
	if _, err := File("/proc/self/status", 10); !errors.As(err, &tl) || tl.Size != 0 {
		t.Errorf("/proc file: %v", err)
	}
	var nr *NotRegularError
	zero := filepath.Join(dir, "zero.yaml")
	os.Symlink("/dev/zero", zero)
	if _, err := File(zero, 1<<20); !errors.As(err, &nr) || Describe(err) != "not a regular file: it is a character device" {
		t.Errorf("link to /dev/zero: %v", err)
	}
	fifo := filepath.Join(dir, "fifo.yaml")
	if err := unix.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan error)
	go func() { _, err := File(fifo, 10); done <- err }()
	select {
	case err := <-done:
		if !errors.As(err, &nr) || !strings.Contains(err.Error(), "named pipe") {
			t.Errorf("FIFO: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("reading a FIFO blocked")
	}
	if _, err := File(dir, 10); !errors.As(err, &nr) {
		t.Errorf("directory: %v", err)
	}
	link := filepath.Join(dir, "link.yaml")
	os.Symlink(reg, link)
	if _, err := File(link, 10); err != nil {
		t.Errorf("link to a regular file: %v", err)
	}
	if _, err := FileNoFollow(link, 10); !errors.As(err, &nr) {
		t.Errorf("FileNoFollow through a link: %v", err)
	}
}

func TestConfine(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	os.MkdirAll(filepath.Join(root, "sites", "a"), 0o755)
	os.WriteFile(filepath.Join(outside, "x"), nil, 0o644)
	os.Symlink(outside, filepath.Join(root, "out"))
	os.Symlink(filepath.Join(root, "sites"), filepath.Join(root, "in"))
	for p, want := range map[string]string{
		"sites/a":          "",
		"in/a":             "",
		"sites/../sites/a": "",
		"/etc/passwd":      "is an absolute path",
		"../x":             "leaves the kustomization root",
		"sites/../../x":    "leaves the kustomization root",
		"out/x":            "resolves (through a symbolic link) outside",
		"nothere":          "no such file",
	} {
		_, err := Confine(root, p)
		switch {
		case want == "" && err != nil:
			t.Errorf("%s: %v", p, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("%s: %v, want %q", p, err, want)
		}
	}
}

// TestConfineWithin: a path relative to a folder inside the bound (a
// kustomization inside its git work tree) may climb to anywhere in the
// bound, and no further, as written or through a symbolic link.
func TestConfineWithin(t *testing.T) {
	repo := t.TempDir()
	outside := t.TempDir()
	os.MkdirAll(filepath.Join(repo, "sites", "a"), 0o755)
	os.MkdirAll(filepath.Join(repo, "clusters", "a"), 0o755)
	os.WriteFile(filepath.Join(outside, "x"), nil, 0o644)
	os.Symlink(outside, filepath.Join(repo, "sites", "out"))
	base := filepath.Join(repo, "clusters", "a")
	for p, want := range map[string]string{
		"../../sites/a":          "",
		"../../sites/../sites/a": "",
		".":                      "",
		"../../../" + filepath.Base(outside) + "/x": "leaves the repository",
		"../../sites/out/x":                         "resolves (through a symbolic link) outside the repository",
		filepath.Join(outside, "x"):                 "is an absolute path",
		"../../nothere":                             "no such file",
	} {
		got, err := ConfineWithin(repo, "the repository", base, p)
		switch {
		case want == "" && err != nil:
			t.Errorf("%s: %v", p, err)
		case want == "" && got != filepath.Join(base, p):
			t.Errorf("%s: resolved to %s, want %s", p, got, filepath.Join(base, p))
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("%s: %v, want %q", p, err, want)
		}
	}
}
