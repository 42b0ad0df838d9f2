package cli

import (
	"path/filepath"
	"strconv"
	"sync"

	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/digest"
	"github.com/siteforge/siteforge/internal/fsread"
	"github.com/siteforge/siteforge/internal/load"
	"github.com/siteforge/siteforge/internal/output"
	"github.com/siteforge/siteforge/schema"
)

// The digest cache of render -o and render --check -o: each rendered site
// folder holds a record (output.RecordName, internal/digest) of the digest
// of everything its output depends on and of the hash of each file render
// wrote. A site whose digest matches a record, and whose folder still holds
// exactly the recorded files, is not evaluated: render leaves its folder as
// it is, and render --check has nothing to report for it. Anything else
// (no record, a record that does not decode, another build of siteforge,
// a changed input, a hand-edited, added or removed output file) renders the
// site as before.

// testBuildIdentity and testVersion, set by tests, stand for the running
// binary's identity (a rebuild) and its version (a release).
var (
	testBuildIdentity func() string
	testVersion       func() string
)

// testCacheOff, set by tests, renders every site (the answer the cache must
// agree with).
var testCacheOff bool

// renderCache is the records of one output directory and what a run's
// digests share.
type renderCache struct {
	dir string
	// base is the digest prefix every site of the run shares: the build,
	// the schema, the flags.
	base []byte
	// byInputs: records by their inputs digest (digests found in two
	// folders are dropped: a copied folder is trusted in neither).
	byInputs map[string]digest.Record
	// inputs[i] is unit i's digest ("" when it could not be computed).
	inputs []string

	mu    sync.Mutex
	files map[string]fileSum // path as given -> its hash, read once (fleet defaults)
}

type fileSum struct {
	sum string
	ok  bool
}

// newRenderCache reads dir's records for a run over units; nil when the
// running binary cannot be identified (then every site renders and no
// record is written).
func newRenderCache(dir string, units []load.Unit, opts generators.Options) *renderCache {
	if testCacheOff {
		return nil
	}
	var build string
	if testBuildIdentity != nil {
		build = testBuildIdentity()
	} else {
		id, err := digest.Executable()
		if err != nil {
			return nil
		}
		build = id
	}
	version := Version()
	if testVersion != nil {
		version = testVersion()
	}
	h := digest.NewHasher()
	h.AddString("version", version)
	h.AddString("build", build)
	h.AddString("schema", digest.FileHash(schema.Source))
	h.AddString("strict", strconv.FormatBool(opts.Strict))
	c := &renderCache{dir: dir, base: []byte(h.Sum()), byInputs: map[string]digest.Record{},
		inputs: make([]string, len(units)), files: map[string]fileSum{}}
	dup := map[string]bool{}
	for folder, b := range output.ReadRecords(dir) {
		r, err := digest.Decode(b)
		if err != nil || r.Name != folder {
			continue // not a record of this folder: ignored
		}
		if _, ok := c.byInputs[r.Inputs]; ok || dup[r.Inputs] {
			delete(c.byInputs, r.Inputs)
			dup[r.Inputs] = true
			continue
		}
		c.byInputs[r.Inputs] = r
	}
	return c
}

// unitDigest is the digest of everything unit u's output depends on: the
// run's base, the path the output names the site by (load.Origin: the
// repository root, or the one an adapter set), and each input file (fleet
// defaults first) by the path given, its absolute path and its bytes, read
// as load reads them. ok is false when a file cannot be read.
func (c *renderCache) unitDigest(u load.Unit) (string, bool) {
	h := digest.NewHasher()
	h.Add("base", c.base)
	h.AddString("source", u.Source())
	h.AddString("origin", load.Origin(u.Source()))
	files, _ := load.InputPaths([]load.Unit{u})
	for _, f := range files {
		abs, err := filepath.Abs(f)
		if err != nil {
			return "", false
		}
		sum, ok := c.fileSum(f)
		if !ok {
			return "", false
		}
		h.AddString("file", f)
		h.AddString("abs", abs)
		h.AddString("sum", sum)
	}
	return h.Sum(), true
}

// fileSum hashes a file once per run: the fleet defaults are in every
// unit. A file that changes during the run is seen by each unit as
// load reads it no earlier than this: a record then holds the older
// digest, and the next run renders the site again.
func (c *renderCache) fileSum(f string) (string, bool) {
	c.mu.Lock()
	s, seen := c.files[f]
	c.mu.Unlock()
	if seen {
		return s.sum, s.ok
	}
	b, err := fsread.File(f, load.MaxFileSize)
	s = fileSum{ok: err == nil}
	if s.ok {
		s.sum = digest.FileHash(b)
	}
	c.mu.Lock()
	c.files[f] = s
	c.mu.Unlock()
	return s.sum, s.ok
}

// cacheHit is a site the run does not evaluate: its record, and the
// identity of the folder found unchanged (output.Stage.Keep).
type cacheHit struct {
	digest.Record
	folder uint64
}

// lookup computes unit i's digest and returns the record that lets the site
// go unevaluated: same digest, and its folder holds exactly the recorded
// files. Call before loading the unit.
func (c *renderCache) lookup(i int, u load.Unit) (cacheHit, bool) {
	d, ok := c.unitDigest(u)
	if !ok {
		return cacheHit{}, false
	}
	c.inputs[i] = d
	r, ok := c.byInputs[d]
	if !ok {
		return cacheHit{}, false
	}
	// The folder's identity first: if another render swaps it while it is
	// read, the commit sees a different folder and fails.
	ino, ok := output.FolderID(c.dir, r.Name)
	if !ok || !output.Unchanged(c.dir, r.Name, r.Files) {
		return cacheHit{}, false
	}
	return cacheHit{Record: r, folder: ino}, true
}

// record is the record to write with unit i's rendered output; nil when
// the unit's digest is unknown.
func (c *renderCache) record(i int, o *generators.Output) []byte {
	if c == nil || c.inputs[i] == "" {
		return nil
	}
	r := digest.Record{Inputs: c.inputs[i], Name: o.Site.Name, NamePos: o.Site.Positions.Of("name"),
		Files: make(map[string]string, len(o.Files)), Warnings: o.Warnings, Suppressed: o.Suppressed}
	for p, b := range o.Files {
		r.Files[p] = digest.FileHash(b)
	}
	if r.Warnings == nil {
		r.Warnings = diag.List{}
	}
	if r.Suppressed == nil {
		r.Suppressed = diag.List{}
	}
	return r.Encode()
}
