// Package digest is what render records, per site, of everything the site's
// output depends on, so that a site whose inputs did not change is not
// evaluated again (render and render --check). A record is a cache, never a
// source of truth: it is kept in the user's cache directory, never in the
// output (which a commit writes); one that does not decode strictly, is not
// at its digest's path, or was written by another build of siteforge is
// ignored, and a record is used only after the files it describes are
// hashed again and found unchanged (internal/output.Unchanged).
package digest

import (
	"bytes"
	"crypto/sha256"
	"debug/elf"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"
	"path"
	"strings"
	"sync"

	"github.com/siteforge/siteforge/internal/diag"
)

// Format names the record's layout; a record of another format is ignored.
const Format = "siteforge.dev/render-digest/v1"

// MaxRecordSize bounds what is read of a record: a site's record lists its
// output files (a few hundred at most) and its render warnings.
const MaxRecordSize = 4 << 20

// Record is what render keeps of a site in the user's cache: what its
// inputs render to.
type Record struct {
	Format string `json:"format"`
	// Inputs is the digest of everything the output depends on (Hasher).
	Inputs string `json:"inputs"`
	// Name is the site's name: the folder of the output the record describes.
	Name string `json:"name"`
	// NamePos is where the site wrote its name (the duplicate-name check
	// of a run names it).
	NamePos diag.Position `json:"namePos"`
	// Files are the site's output files: slash path -> FileHash.
	Files map[string]string `json:"files"`
	// Warnings and Suppressed are the render's warnings, printed again when
	// the site is not evaluated.
	Warnings   diag.List `json:"warnings"`
	Suppressed diag.List `json:"suppressed"`
}

// Encode is the record's bytes (deterministic: map keys are sorted).
func (r Record) Encode() []byte {
	r.Format = Format
	b, err := json.Marshal(r)
	if err != nil {
		panic(err) // plain strings, ints and maps: cannot fail
	}
	return append(b, '\n')
}

// Decode reads a record strictly: unknown fields, another format, a digest or
// a file hash that is not one, a path that is not a clean relative path, or
// trailing data make it an error (the caller then ignores the record).
func Decode(b []byte) (Record, error) {
	var r Record
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return Record{}, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return Record{}, errors.New("data after the record")
	}
	switch {
	case r.Format != Format:
		return Record{}, fmt.Errorf("format %q, not %q", r.Format, Format)
	case !isHash(r.Inputs):
		return Record{}, errors.New("inputs is not a digest")
	case r.Name == "":
		return Record{}, errors.New("no site name")
	case len(r.Files) == 0:
		return Record{}, errors.New("no files")
	}
	for p, h := range r.Files {
		if p == "" || path.IsAbs(p) || path.Clean(p) != p || p == ".." || strings.HasPrefix(p, "../") || strings.Contains(p, `\`) {
			return Record{}, fmt.Errorf("file %q is not a clean relative path", p)
		}
		if !isHash(h) {
			return Record{}, fmt.Errorf("file %q: not a hash", p)
		}
	}
	return r, nil
}

func isHash(s string) bool {
	if len(s) != 2*sha256.Size {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil && strings.ToLower(s) == s
}

// FileHash is the hash a record keeps of an output file.
func FileHash(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// Hasher digests a sequence of labelled fields. Each field is written with
// its label and length, so two different sequences never give one stream
// ("ab"+"c" and "a"+"bc" differ).
type Hasher struct{ h hash.Hash }

// NewHasher starts a digest.
func NewHasher() *Hasher {
	h := &Hasher{h: sha256.New()}
	h.Add("digest", []byte(Format))
	return h
}

// Add writes one field.
func (h *Hasher) Add(label string, value []byte) {
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(label)))
	h.h.Write(n[:])
	io.WriteString(h.h, label)
	binary.BigEndian.PutUint64(n[:], uint64(len(value)))
	h.h.Write(n[:])
	h.h.Write(value)
}

// AddString writes one string field.
func (h *Hasher) AddString(label, value string) { h.Add(label, []byte(value)) }

// Sum is the digest, hex.
func (h *Hasher) Sum() string { return hex.EncodeToString(h.h.Sum(nil)) }

var (
	exeOnce sync.Once
	exeID   string
	exeErr  error
)

// Executable identifies the running binary, once per process: its Go build
// ID when it has one, else the SHA-256 of its bytes. The Go build ID ends
// with the hash of the linked binary's content (cmd/go/internal/work,
// buildid.go: "actionID/contentID"; read by `go tool buildid`), so any
// rebuild that changes the binary changes it, including the checkout
// builds whose version is "0.0.0-devel". A binary linked with
// -ldflags=-buildid= has none and is hashed whole.
func Executable() (string, error) {
	exeOnce.Do(func() {
		p, err := os.Executable()
		if err != nil {
			exeErr = err
			return
		}
		exeID, exeErr = FileIdentity(p)
	})
	return exeID, exeErr
}

// FileIdentity is Executable for the binary at p.
func FileIdentity(p string) (string, error) {
	if id := goBuildID(p); id != "" {
		return "go-build-id:" + id, nil
	}
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

// goBuildID reads the Go build ID note of an ELF binary (section
// .note.go.buildid, owner "Go", written by cmd/link's addgonote); "" when
// there is none.
func goBuildID(p string) string {
	f, err := elf.Open(p)
	if err != nil {
		return ""
	}
	defer f.Close()
	s := f.Section(".note.go.buildid")
	if s == nil {
		return ""
	}
	data, err := s.Data()
	if err != nil || len(data) < 16 {
		return ""
	}
	order := f.ByteOrder
	namesz, descsz := order.Uint32(data[0:]), order.Uint32(data[4:])
	nameEnd := 12 + int(namesz)
	descStart := 12 + (int(namesz)+3)&^3
	if namesz != 4 || nameEnd > len(data) || string(data[12:nameEnd]) != "Go\x00\x00" ||
		descStart+int(descsz) > len(data) {
		return ""
	}
	id := string(data[descStart : descStart+int(descsz)])
	// An ID without its content part identifies nothing.
	if !strings.Contains(id, "/") {
		return ""
	}
	return id
}
