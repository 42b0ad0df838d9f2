package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/digest"
	"github.com/siteforge/siteforge/internal/fsread"
	"github.com/siteforge/siteforge/internal/load"
	"github.com/siteforge/siteforge/internal/output"
	"github.com/siteforge/siteforge/schema"
)

// The digest cache of render -o and render --check -o. A record
// (internal/digest) says: these inputs (the exact bytes the loader read,
// the siteforge build, the schema, the flags) render to these files, with
// these hashes. Records live in the user's cache directory (CacheEnv, else
// os.UserCacheDir()/siteforge), as the Go build cache does, never in the
// output folder: GitOps repositories commit the rendered output, so a
// record there could be written by any commit, and a forged one (an edited
// file and its new hash) would vouch for manifests the site does not
// produce. A record is written only by a run that rendered the site. A site
// whose digest has a record, and whose folder holds exactly the recorded
// files, is not evaluated: render leaves its folder as it is, and render
// --check has nothing to report for it. Anything else (no record, one that
// does not decode, another build, a changed input, a hand-edited, added or
// removed output file) renders the site as before.

// CacheEnv names the environment variable that sets the cache directory
// (tests, CI jobs that keep a cache between runs); "off" turns the cache
// off.
const CacheEnv = "SITEFORGE_CACHE"

// Bounds of the cache directory: a record not used for cacheMaxAge is
// removed by the first render or render --check of a day (cacheTrimEvery),
// as are the temporary files of runs killed while writing a record.
const (
	cacheMaxAge    = 5 * 24 * time.Hour
	cacheTrimEvery = 24 * time.Hour
	cacheTouchAge  = time.Hour // a record used is marked used at most this often
	cacheTmpAge    = time.Hour
	cacheTmpPrefix = ".tmp-"
	cacheTrimFile  = "trimmed"
)

// testBuildIdentity and testVersion, set by tests, stand for the running
// binary's identity (a rebuild) and its version (a release).
var (
	testBuildIdentity func() string
	testVersion       func() string
)

// testCacheOff, set by tests, renders every site (the answer the cache must
// agree with).
var testCacheOff bool

// testHookInputRead, set by tests, runs after each input file is read (a
// file edited there is not what the run loads).
var testHookInputRead func(path string)

// testHookRecordDecoded, set by tests, runs before lookup decodes a record.
var testHookRecordDecoded func()

// renderCache is the records of one user cache and what a run's digests
// share.
type renderCache struct {
	// out is the output directory; root the folder of the records.
	out, root string
	// base is the digest prefix every site of the run shares: the build,
	// the schema, the flags.
	base []byte
	// inputs[i] is unit i's digest ("" when it could not be computed).
	inputs []string
	// found[i] is the hash of the record of unit i's digest found in the
	// cache, if any: a render that writes the same record again leaves it.
	found []string
	// origins is the run's (load.Origins), shared with its loaders.
	origins *load.Origins
	// fresh: the output directory held no site folder when the run
	// started (a render into a new folder), so no record can be a hit:
	// lookup only hashes them (found).
	fresh bool
}

// cacheRoot is the folder of render's records, "" when there is none.
func cacheRoot() string {
	dir := os.Getenv(CacheEnv)
	if dir == "off" {
		return ""
	}
	if dir == "" {
		user, err := os.UserCacheDir()
		if err != nil {
			return ""
		}
		dir = filepath.Join(user, "siteforge")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	return filepath.Join(abs, "render")
}

// newRenderCache opens the user's records for a run over units writing
// to out; nil when there is no usable cache directory or the running
// binary cannot be identified (then every site renders and no record is
// written).
func newRenderCache(out string, units []load.Unit, opts generators.Options) *renderCache {
	if testCacheOff {
		return nil
	}
	root := cacheRoot()
	origins := load.NewOrigins()
	if root == "" || !cacheDirOK(root, out, units, origins) {
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
	trimCache(root)
	return &renderCache{out: out, root: root, base: []byte(h.Sum()), origins: origins,
		inputs: make([]string, len(units)), found: make([]string, len(units)), fresh: noSiteFolders(out)}
}

// noSiteFolders reports whether dir does not exist or is a directory (not
// a link) holding nothing but render stages (output.StagePrefix, this
// run's among them): no site folder is there to be found unchanged.
func noSiteFolders(dir string) bool {
	fi, err := os.Lstat(dir)
	if err != nil || !fi.IsDir() {
		return errors.Is(err, fs.ErrNotExist)
	}
	f, err := os.Open(dir)
	if err != nil {
		return false
	}
	defer f.Close()
	for {
		names, err := f.Readdirnames(64)
		for _, n := range names {
			if !strings.HasPrefix(n, output.StagePrefix) {
				return false
			}
		}
		if err != nil {
			return err == io.EOF
		}
	}
}

// cacheDirOK creates root (0700) and tells whether records there can be
// trusted: a folder of the user's that no one else can write, and not
// where a commit writes: not the output or inside it, not among the inputs,
// not inside the Git work tree of the output or of an input. The work
// trees are looked up in the run's origins (a fleet's sites share their
// folders above them).
func cacheDirOK(root, out string, units []load.Unit, origins *load.Origins) bool {
	files, dirs := load.InputPaths(units)
	dirs = append(dirs, out)
	if output.CheckNotInput(root, files, dirs) != nil {
		return false
	}
	if err := os.MkdirAll(root, 0o700); err != nil {
		return false
	}
	fi, err := os.Lstat(root)
	if err != nil || !fi.IsDir() || fi.Mode().Perm()&0o022 != 0 {
		return false
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); !ok || int(st.Uid) != os.Getuid() {
		return false
	}
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		return false
	}
	parents := map[string]string{} // folder: its path with links resolved
	for _, d := range dirs {
		abs, err := filepath.Abs(d)
		if err != nil {
			return false
		}
		abs = resolvedDir(abs, parents)
		if wt := origins.WorkTree(abs); wt != "" && fsread.Within(wt, real) {
			return false
		}
	}
	return true
}

// resolvedDir is filepath.EvalSymlinks(abs) (abs itself where that fails),
// its parent's resolved once in parents: the sites of a fleet are siblings.
func resolvedDir(abs string, parents map[string]string) string {
	parent := filepath.Dir(abs)
	if parent != abs {
		if fi, err := os.Lstat(abs); err == nil && fi.Mode()&fs.ModeSymlink == 0 {
			rp, ok := parents[parent]
			if !ok {
				var err error
				if rp, err = filepath.EvalSymlinks(parent); err != nil {
					rp = ""
				}
				parents[parent] = rp
			}
			if rp != "" {
				return filepath.Join(rp, filepath.Base(abs))
			}
		}
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r
	}
	return abs
}

// runInputs reads the input files of a run's units: a file shared by the
// sites (fleet defaults) once per run, a site's own files once per site.
// Each site is loaded from the bytes read, and digested from the same
// bytes: a file edited during the run is either wholly in a site's
// output and its digest, or in neither.
type runInputs struct {
	mu     sync.Mutex
	shared map[string]*sharedInput
}

type sharedInput struct {
	once sync.Once
	in   *inputFile
}

// inputFile is one file as read: its bytes and their hash, or the error.
type inputFile struct {
	b   []byte
	sum string
	err error
}

// unitInputs are a unit's files as read for it.
type unitInputs map[string]*inputFile

func newRunInputs() *runInputs { return &runInputs{shared: map[string]*sharedInput{}} }

// read reads unit u's files.
func (r *runInputs) read(u load.Unit) unitInputs {
	files := unitInputs{}
	for _, f := range u.Files() {
		if _, ok := files[f]; ok {
			continue
		}
		if !u.Shared(f) {
			files[f] = readInputFile(u, f)
			continue
		}
		r.mu.Lock()
		s, ok := r.shared[f]
		if !ok {
			s = &sharedInput{}
			r.shared[f] = s
		}
		r.mu.Unlock()
		s.once.Do(func() { s.in = readInputFile(u, f) })
		files[f] = s.in
	}
	return files
}

// readInputFile reads unit u's file f (from disk, or what was read from
// standard input).
func readInputFile(u load.Unit, f string) *inputFile {
	b, err := u.Read(f)
	in := &inputFile{b: b, err: err}
	if err == nil {
		in.sum = digest.FileHash(b)
	}
	if testHookInputRead != nil {
		testHookInputRead(f)
	}
	return in
}

// reader gives the loader the bytes read (it must not read a file again).
func (files unitInputs) reader() load.ReadFunc {
	return func(name string) ([]byte, error) {
		in, ok := files[name]
		if !ok {
			return nil, fmt.Errorf("%s is not among the site's inputs read", name)
		}
		return in.b, in.err
	}
}

// unitDigest is the digest of everything unit u's output depends on: the
// run's base, the path the output names the site by (load.Origin: the
// repository root, or the one an adapter set), and each input file (fleet
// defaults first) by the path given, its absolute path and the hash of the
// bytes the site is loaded from. ok is false when a file could not be read.
func (c *renderCache) unitDigest(u load.Unit, files unitInputs) (string, bool) {
	h := digest.NewHasher()
	h.Add("base", c.base)
	h.AddString("source", u.Source())
	h.AddString("origin", c.origins.Origin(u.Source()))
	for _, f := range u.Files() {
		abs, err := filepath.Abs(f)
		in := files[f]
		if err != nil || in == nil || in.err != nil {
			return "", false
		}
		h.AddString("file", f)
		h.AddString("abs", abs)
		h.AddString("sum", in.sum)
	}
	return h.Sum(), true
}

// entry is the path of the record of digest d.
func (c *renderCache) entry(d string) string { return filepath.Join(c.root, d[:2], d) }

// cacheHit is a site the run does not evaluate: its record, and the
// identity of the folder found unchanged (output.Stage.Keep).
type cacheHit struct {
	digest.Record
	folder uint64
}

// lookup computes unit i's digest from its files as read and returns the
// record that lets the site go unevaluated: the record of that digest, and
// the site's folder holds exactly the recorded files.
func (c *renderCache) lookup(i int, u load.Unit, files unitInputs) (cacheHit, bool) {
	d, ok := c.unitDigest(u, files)
	if !ok {
		return cacheHit{}, false
	}
	c.inputs[i] = d
	p := c.entry(d)
	b, err := fsread.FileNoFollow(p, digest.MaxRecordSize)
	if err != nil {
		return cacheHit{}, false
	}
	if c.fresh {
		c.found[i] = digest.FileHash(b)
		return cacheHit{}, false
	}
	if testHookRecordDecoded != nil {
		testHookRecordDecoded()
	}
	r, err := digest.Decode(b)
	if err != nil || r.Inputs != d {
		return cacheHit{}, false
	}
	c.found[i] = digest.FileHash(b)
	// The folder's identity first: if another render swaps it while it is
	// read, the commit sees a different folder and fails.
	ino, ok := output.FolderID(c.out, r.Name)
	if !ok || !output.Unchanged(c.out, r.Name, r.Files) {
		return cacheHit{}, false
	}
	touch(p)
	return cacheHit{Record: r, folder: ino}, true
}

// touch marks the record at p used (the trim keeps it), at most once per
// cacheTouchAge.
func touch(p string) {
	if fi, err := os.Lstat(p); err == nil && time.Since(fi.ModTime()) > cacheTouchAge {
		now := time.Now()
		_ = os.Chtimes(p, now, now)
	}
}

// store writes the record of unit i's rendered output (the files render
// writes, hashed from the output itself, never from a folder). Records are
// written whole (a temporary file renamed); a record that cannot be written
// only costs a render later.
func (c *renderCache) store(i int, o *generators.Output) {
	if c == nil || c.inputs[i] == "" {
		return
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
	b := r.Encode()
	p := c.entry(r.Inputs)
	if digest.FileHash(b) == c.found[i] {
		touch(p) // the record is there (the folder was not)
		return
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return
	}
	f, err := os.CreateTemp(filepath.Dir(p), cacheTmpPrefix)
	if err != nil {
		return
	}
	_, werr := f.Write(b)
	if cerr := f.Close(); werr != nil || cerr != nil {
		_ = os.Remove(f.Name())
		return
	}
	if os.Rename(f.Name(), p) != nil {
		// something else at the record's path (an empty folder): replace it
		_ = os.Remove(p)
		if os.Rename(f.Name(), p) != nil {
			_ = os.Remove(f.Name())
		}
	}
}

// trimCache removes, at most once per cacheTrimEvery, the records not used
// for cacheMaxAge and the temporary files of killed runs older than
// cacheTmpAge. Errors leave the files where they are.
func trimCache(root string) {
	mark := filepath.Join(root, cacheTrimFile)
	if fi, err := os.Stat(mark); err == nil && time.Since(fi.ModTime()) < cacheTrimEvery {
		return
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return
	}
	if err := os.WriteFile(mark, nil, 0o600); err != nil {
		return
	}
	now := time.Now()
	_ = os.Chtimes(mark, now, now)
	subdirs, err := os.ReadDir(root)
	if err != nil {
		return
	}
	for _, sd := range subdirs {
		if !sd.IsDir() {
			continue
		}
		dir := filepath.Join(root, sd.Name())
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			fi, err := e.Info()
			if err != nil || !fi.Mode().IsRegular() {
				continue
			}
			age := now.Sub(fi.ModTime())
			if age > cacheMaxAge || strings.HasPrefix(e.Name(), cacheTmpPrefix) && age > cacheTmpAge {
				_ = os.Remove(filepath.Join(dir, e.Name()))
			}
		}
	}
}
