package load

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/ast/astutil"
	"cuelang.org/go/cue/errors"
	"cuelang.org/go/cue/parser"
	"cuelang.org/go/cue/token"
	"cuelang.org/go/encoding/json"
	"cuelang.org/go/encoding/yaml"

	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/fsread"
	"github.com/siteforge/siteforge/internal/yamllimit"
	"github.com/siteforge/siteforge/schema"
)

// Input limits: a site description is a few kilobytes; anything far larger is
// a mistake or an attack, and is refused before parsing.
const (
	// MaxFileSize is the largest input file siteforge reads.
	MaxFileSize = 4 << 20
	// MaxFilesPerSite bounds the files unified into one site.
	MaxFilesPerSite = 256
)

// siteExts are the file kinds a site is written in.
var siteExts = map[string]bool{".cue": true, ".yaml": true, ".yml": true, ".json": true}

// IsSiteFile reports whether name has a site input extension.
func IsSiteFile(name string) bool { return siteExts[strings.ToLower(filepath.Ext(name))] }

// Unit is one site to load: the files unified into it (fleet defaults
// first).
type Unit struct {
	// source is the path the user named (file or directory).
	source string
	// dir anchors relative CUE imports.
	dir   string
	files []string
	// inputDirs are the folders whose entries are read as input: the site
	// folder, and a fleet's sites/ folder.
	inputDirs []string
	// ignored are the YAML and JSON files at the fleet root that are not
	// fleet defaults (fleetDefaults).
	ignored []string
	// stdin is the site read from standard input (StdinUnit): its one
	// file, Stdin, is these bytes, read from no disk.
	stdin *stdinInput
}

// Ignored lists the files at the unit's fleet root that were not read as
// fleet defaults: YAML or JSON that does not declare the site API version
// (renovate.json, an ApplicationSet, a kustomization.yaml).
func (u Unit) Ignored() []string { return u.ignored }

// Files are the files unified into the site, fleet defaults first.
func (u Unit) Files() []string { return append([]string(nil), u.files...) }

// Shared reports whether the unit's file f is shared with other sites (a
// fleet default): a file outside the site's own folder.
func (u Unit) Shared(f string) bool { return filepath.Dir(f) != u.dir }

// ReadFunc reads one input file for the loader: its bytes, or the error
// fsread.File gives (a *fsread.TooLargeError past MaxFileSize).
type ReadFunc func(name string) ([]byte, error)

// ReadInput reads an input file from disk, as the loader does by default.
func ReadInput(name string) ([]byte, error) { return fsread.File(name, MaxFileSize) }

// IgnoredNotes are the notes to print for the fleet-root files units did
// not read, once per file, sorted.
func IgnoredNotes(units []Unit) []string {
	seen := map[string]bool{}
	var out []string
	for _, u := range units {
		for _, f := range u.ignored {
			if !seen[f] {
				seen[f] = true
				out = append(out, fmt.Sprintf("note: %s: not a fleet default, ignored: a YAML or JSON file at the fleet root is unified into every site only when it declares apiVersion: %s", diag.SafeLine(f), schema.APIVersion))
			}
		}
	}
	sort.Strings(out)
	return out
}

// fleetDefaults lists the files at a fleet's root that are unified into
// every site: every .cue file (it declares the site package), and the YAML
// and JSON files that declare the site API version. Other YAML and JSON
// kept at a repository root (renovate.json, applicationset.yaml,
// kustomization.yaml) are ignored and listed: unified into every site they
// would break all of them with errors about fields the site never wrote.
func fleetDefaults(root string) (files, ignored []string, err error) {
	all, err := siteFilesIn(root)
	if err != nil {
		return nil, nil, err
	}
	for _, f := range all {
		if strings.EqualFold(filepath.Ext(f), ".cue") || !isRegular(f) || DeclaresSite(f) {
			files = append(files, f)
			continue
		}
		ignored = append(ignored, f)
	}
	return files, ignored, nil
}

func isRegular(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// InputPaths lists what units read: their files and the folders whose
// entries are read as input (a render must not write into or over them).
func InputPaths(units []Unit) (files, dirs []string) {
	seen := map[string]bool{}
	for _, u := range units {
		for _, f := range u.files {
			if !seen[f] {
				seen[f] = true
				files = append(files, f)
			}
		}
		for _, d := range u.inputDirs {
			if !seen[d] {
				seen[d] = true
				dirs = append(dirs, d)
			}
		}
	}
	return files, dirs
}

// fleetSitesDir is the folder of a fleet whose subfolders are sites.
const fleetSitesDir = "sites"

// Source is the path the user named for the site.
func (u Unit) Source() string { return u.source }

// Discover turns the user's paths into site units, in order.
func Discover(paths []string) ([]Unit, diag.List) {
	var units []Unit
	var diags diag.List
	for _, p := range paths {
		u, d := discoverPath(p)
		units = append(units, u...)
		diags = append(diags, d...)
	}
	return units, diags
}

func discoverPath(p string) ([]Unit, diag.List) {
	fi, err := os.Stat(p)
	if err != nil {
		return nil, diag.List{{Pos: diag.Position{File: p}, Message: "cannot read: " + describeErr(err),
			Hint: "pass a site file (.cue, .yaml, .yml, .json), a site directory or a fleet directory"}}
	}
	if !fi.IsDir() {
		if !IsSiteFile(p) {
			return nil, diag.List{{Pos: diag.Position{File: p}, Message: "not a site file",
				Hint: "site files end in .cue, .yaml, .yml or .json"}}
		}
		if root, ok := fleetOf(filepath.Dir(p)); ok {
			// a site file of a fleet's site folder: with the fleet's
			// defaults, as the fleet renders it
			defaults, ignored, err := fleetDefaults(root)
			if err != nil {
				return nil, diag.List{{Pos: diag.Position{File: root}, Message: "cannot read directory: " + describeErr(err)}}
			}
			return []Unit{{source: p, dir: filepath.Dir(p), files: append(defaults, p), inputDirs: []string{filepath.Join(root, fleetSitesDir), filepath.Dir(p)}, ignored: ignored}}, nil
		}
		return []Unit{{source: p, dir: filepath.Dir(p), files: []string{p}}}, nil
	}
	own, err := siteFilesIn(p)
	if err != nil {
		return nil, diag.List{{Pos: diag.Position{File: p}, Message: "cannot read directory: " + describeErr(err)}}
	}
	if root, ok := fleetOf(p); ok {
		// a site folder of a fleet (<fleet>/sites/<name>): the site with
		// the fleet's defaults, as the fleet renders it
		defaults, ignored, err := fleetDefaults(root)
		if err != nil {
			return nil, diag.List{{Pos: diag.Position{File: root}, Message: "cannot read directory: " + describeErr(err)}}
		}
		if len(own) == 0 {
			return nil, diag.List{{Pos: diag.Position{File: p}, Message: "no site files in fleet site directory",
				Hint: "each folder under sites/ is one site and holds its .cue, .yaml, .yml or .json files"}}
		}
		return []Unit{{source: p, dir: p, files: append(defaults, own...), inputDirs: []string{filepath.Join(root, fleetSitesDir), p}, ignored: ignored}}, nil
	}
	if IsFleet(p) {
		defaults, ignored, err := fleetDefaults(p)
		if err != nil {
			return nil, diag.List{{Pos: diag.Position{File: p}, Message: "cannot read directory: " + describeErr(err)}}
		}
		return discoverFleet(p, filepath.Join(p, fleetSitesDir), defaults, ignored)
	}
	if len(own) == 0 {
		if root, ok := fleetOfSites(p); ok {
			// a fleet's sites/ folder: every site, with the fleet's
			// defaults (the layout of `render -o rendered sites`)
			defaults, ignored, err := fleetDefaults(root)
			if err != nil {
				return nil, diag.List{{Pos: diag.Position{File: root}, Message: "cannot read directory: " + describeErr(err)}}
			}
			return discoverFleet(root, p, defaults, ignored)
		}
		if units, ok := siteFolders(p); ok {
			// a folder of site folders, without fleet defaults: each
			// subfolder holding site files is one site
			return units, nil
		}
		return nil, diag.List{{Pos: diag.Position{File: p}, Message: "no site files in directory",
			Hint: "a site directory holds .cue, .yaml, .yml or .json files; a fleet directory holds a sites/ folder; a folder of site folders holds one folder per site"}}
	}
	return []Unit{{source: p, dir: p, files: own, inputDirs: []string{p}}}, nil
}

// siteFolders returns one unit per subfolder of dir that holds site files
// (a folder of site folders that is not a fleet: no defaults), in name
// order; false when no subfolder holds any.
func siteFolders(dir string) ([]Unit, bool) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, false
	}
	var units []Unit
	for _, e := range entries {
		sub := filepath.Join(dir, e.Name())
		if strings.HasPrefix(e.Name(), ".") || !e.IsDir() {
			continue
		}
		files, err := siteFilesIn(sub)
		if err != nil || len(files) == 0 {
			continue
		}
		units = append(units, Unit{source: sub, dir: sub, files: files, inputDirs: []string{dir, sub}})
	}
	return units, len(units) > 0
}

// discoverFleet returns one unit per subfolder of sites/, each unified with
// the fleet's own files (its defaults).
func discoverFleet(root, sitesDir string, defaults, ignored []string) ([]Unit, diag.List) {
	entries, err := os.ReadDir(sitesDir)
	if err != nil {
		return nil, diag.List{{Pos: diag.Position{File: sitesDir}, Message: "cannot read directory: " + describeErr(err)}}
	}
	var units []Unit
	var diags diag.List
	rootReal, _ := filepath.EvalSymlinks(root)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		dir := filepath.Join(sitesDir, e.Name())
		if e.Type()&fs.ModeSymlink != 0 {
			// A symlinked site folder must not lead back into the fleet
			// (a loop) and must resolve.
			real, err := filepath.EvalSymlinks(dir)
			if err != nil {
				diags = append(diags, diag.Diagnostic{Pos: diag.Position{File: dir}, Message: "symbolic link does not resolve (a loop, or a missing target)",
					Hint: "each folder under sites/ is one site; remove or fix the symbolic link"})
				continue
			}
			if rootReal != "" && (real == rootReal || strings.HasPrefix(rootReal, real+string(filepath.Separator)) ||
				real == filepath.Join(rootReal, fleetSitesDir)) {
				diags = append(diags, diag.Diagnostic{Pos: diag.Position{File: dir},
					Message: "site folder is a symbolic link back into the fleet (" + real + "), which would load the fleet as a site",
					Hint:    "each folder under sites/ is one site; remove the symbolic link"})
				continue
			}
		}
		if !isDir(dir) {
			continue
		}
		files, err := siteFilesIn(dir)
		if err != nil {
			diags = append(diags, diag.Diagnostic{Pos: diag.Position{File: dir}, Message: "cannot read directory: " + describeErr(err)})
			continue
		}
		if len(files) == 0 {
			diags = append(diags, diag.Diagnostic{Pos: diag.Position{File: dir}, Message: "no site files in fleet site directory",
				Hint: "each folder under sites/ is one site and holds its .cue, .yaml, .yml or .json files"})
			continue
		}
		all := append(append([]string{}, defaults...), files...)
		units = append(units, Unit{source: dir, dir: dir, files: all, inputDirs: []string{sitesDir, dir}, ignored: ignored})
	}
	if len(units) == 0 && len(diags) == 0 {
		diags = append(diags, diag.Diagnostic{Pos: diag.Position{File: sitesDir}, Message: "fleet has no sites",
			Hint: "add one folder per site under " + sitesDir})
	}
	return units, diags
}

// fleetOf returns the fleet a folder is a site of (dir is
// <fleet>/sites/<name>), as a path relative to dir's own spelling.
func fleetOf(dir string) (string, bool) {
	abs, err := filepath.Abs(dir)
	if err != nil || IsFleet(dir) {
		return "", false
	}
	parent := filepath.Dir(abs)
	if filepath.Base(parent) != fleetSitesDir || !IsFleet(filepath.Dir(parent)) {
		return "", false
	}
	return filepath.Clean(filepath.Join(dir, "..", "..")), true
}

// fleetOfSites returns the fleet whose sites/ folder dir is.
func fleetOfSites(dir string) (string, bool) {
	abs, err := filepath.Abs(dir)
	if err != nil || filepath.Base(abs) != fleetSitesDir || !IsFleet(filepath.Dir(abs)) {
		return "", false
	}
	return filepath.Clean(filepath.Join(dir, "..")), true
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// siteFilesIn lists the site files directly in dir, sorted.
func siteFilesIn(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var files []string
	for _, e := range entries {
		name := e.Name()
		if strings.HasPrefix(name, ".") || !IsSiteFile(name) {
			continue
		}
		full := filepath.Join(dir, name)
		// An exported schema (`siteforge schema > siteforge.cue`, for cue
		// vet) and a kustomize function config (SiteRender, SiteLint) are
		// kept next to sites, but are not site inputs.
		if notSiteInput(full) {
			continue
		}
		// A FIFO, device or socket named like a site file is listed: reading
		// it reports it, instead of the site silently missing a file.
		if !e.IsDir() && !isDir(full) {
			files = append(files, full)
		}
	}
	sort.Strings(files)
	return files, nil
}

func describeErr(err error) string { return fsread.Describe(err) }

// parseFile reads (through read) and parses one input file, of the kind
// ext says, into CUE syntax. YAML and JSON keep their line numbers.
func parseFile(name, ext string, src map[string][]byte, read ReadFunc) (*ast.File, diag.List) {
	data, err := read(name)
	var tl *fsread.TooLargeError
	switch {
	case errors.As(err, &tl):
		return nil, diag.List{tooLarge(name, tl.Size)}
	case err != nil:
		return nil, diag.List{{Pos: diag.Position{File: name}, Message: "cannot read: " + describeErr(err),
			Hint: "site inputs are regular files"}}
	}
	return parseAsInto(name, ext, data, src)
}

func tooLarge(name string, size int64) diag.Diagnostic {
	msg := fmt.Sprintf("file is %d bytes, larger than the %d-byte limit for site inputs", size, MaxFileSize)
	if size <= 0 {
		msg = fmt.Sprintf("file holds more than the %d-byte limit for site inputs", MaxFileSize)
	}
	return diag.Diagnostic{Pos: diag.Position{File: name, Line: 1, Col: 1}, Message: msg,
		Hint: "a site description is a few kilobytes; split generated data out of it"}
}

// parseAsInto parses data as the kind ext says (".cue", ".json", else
// YAML), whatever its name, and records the text (as parsed) in src, for
// snippets.
func parseAsInto(name, ext string, data []byte, src map[string][]byte) (*ast.File, diag.List) {
	if ext != ".cue" {
		data = diag.LoneCRToLF(data)
	}
	if src != nil {
		src[name] = data
	}
	return parseAs(name, ext, data)
}

// extOf is the lower-case extension of a file name: the kind of input it is.
func extOf(name string) string { return strings.ToLower(filepath.Ext(name)) }

// parseBytes parses src as the kind its name says; YAML and JSON with lone
// CR line ends must have been through diag.LoneCRToLF.
func parseBytes(name string, data []byte) (*ast.File, diag.List) {
	return parseAs(name, extOf(name), data)
}

// parseAs parses data as the kind ext says.
func parseAs(name, ext string, data []byte) (*ast.File, diag.List) {
	if d, ok := checkText(name, data); !ok {
		return nil, diag.List{d}
	}
	data = bytes.TrimPrefix(data, utf8BOM)
	if len(bytes.TrimSpace(data)) == 0 || onlyComments(ext, data) {
		return nil, diag.List{{Pos: diag.Position{File: name, Line: 1, Col: 1}, Message: "empty site file",
			Hint: "a site needs at least apiVersion, kind, name, cluster, network and pools; `siteforge init DIR` writes a commented example"}}
	}
	var f *ast.File
	var err error
	switch ext {
	case ".cue":
		f, err = parser.ParseFile(name, data, parser.ParseComments)
	case ".json":
		if d := duplicateKeys(name, data); len(d) > 0 {
			return nil, d
		}
		var expr ast.Expr
		expr, err = json.Extract(name, data)
		if err == nil {
			f = &ast.File{Filename: name, Decls: []ast.Decl{&ast.EmbedDecl{Expr: expr}}}
		}
	default:
		var ae *yamllimit.AliasError
		if aerr := yamllimit.CheckAliases(data, MaxExpandedYAML); errors.As(aerr, &ae) {
			return nil, diag.List{{Pos: diag.Position{File: name, Line: ae.Line, Col: ae.Col},
				Message: "syntax error: " + ae.Error(),
				Hint:    "a site file with its aliases expanded must stay under the file-size limit"}}
		}
		if d := duplicateKeys(name, data); len(d) > 0 {
			return nil, d
		}
		if f, err = yaml.Extract(name, data); err == nil {
			numberLiterals(f)
		}
	}
	if err != nil {
		return nil, syntaxDiags(name, data, err)
	}
	return f, nil
}

// numberLiterals rewrites the literals CUE's YAML decoder makes of a
// scalar YAML reads as a float but written as an integer (an integer too
// large for 64 bits, or one tagged !!float): it puts `number & 123` into a
// single literal's text (cuelang.org/go internal/encoding/yaml decode.go
// scalar: "TODO(mvdan): don't shove the unification inside a
// BasicLit.Value string"), which the compiler then refuses as "illegal
// number start", with no word of the schema's. `number & 123` is the
// number 123, so the literal becomes 123 (at the same position), and the
// schema judges it.
func numberLiterals(f *ast.File) {
	astutil.Apply(f, func(c astutil.Cursor) bool {
		lit, ok := c.Node().(*ast.BasicLit)
		if !ok || lit.Kind != token.FLOAT {
			return true
		}
		num, ok := strings.CutPrefix(lit.Value, "number & ")
		if !ok {
			return true
		}
		num, negative := strings.CutPrefix(num, "-")
		var e ast.Expr = &ast.BasicLit{ValuePos: lit.ValuePos, Kind: token.INT, Value: num}
		if negative {
			e = &ast.UnaryExpr{OpPos: lit.ValuePos, Op: token.SUB, X: e}
		}
		c.Replace(e)
		return false
	}, nil)
}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// checkText refuses binary input at the first offending byte.
func checkText(name string, data []byte) (diag.Diagnostic, bool) {
	line, col := 1, 1
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			return diag.Diagnostic{Pos: diag.Position{File: name, Line: line, Col: col},
				Message: fmt.Sprintf("not UTF-8 text: invalid byte 0x%02x at offset %d", data[i], i),
				Hint:    "site files are UTF-8 text; is this a binary file?"}, false
		case r == 0:
			return diag.Diagnostic{Pos: diag.Position{File: name, Line: line, Col: col},
				Message: fmt.Sprintf("not text: NUL byte at offset %d", i),
				Hint:    "site files are UTF-8 text; is this a binary file?"}, false
		case r == '\n':
			line++
			col = 1
		default:
			col += size
		}
		i += size
	}
	return diag.Diagnostic{}, true
}

// onlyComments reports whether a YAML or CUE file has nothing but comments.
func onlyComments(ext string, data []byte) bool {
	prefix := "#"
	if ext == ".cue" {
		prefix = "//"
	}
	if ext == ".json" {
		return false
	}
	for _, l := range strings.Split(string(data), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, prefix) || (prefix == "#" && (l == "---" || l == "...")) {
			continue
		}
		return false
	}
	return true
}

// syntaxDiags turns parser errors into diagnostics.
var reYAMLErr = regexp.MustCompile(`^(?:yaml: )?(.*?):(\d+): (.*)$`)

// firstNonSpace is the column of the first non-blank byte of a line.
func firstNonSpace(src []byte, line int) int {
	for i := 1; i < line; i++ {
		j := bytes.IndexByte(src, '\n')
		if j < 0 {
			return 1
		}
		src = src[j+1:]
	}
	for i, c := range src {
		if c != ' ' && c != '\t' {
			return i + 1
		}
	}
	return 1
}

func syntaxDiags(name string, src []byte, err error) diag.List {
	var out diag.List
	for _, e := range errors.Errors(err) {
		pos := diag.Position{File: name, Line: 1, Col: 1}
		if p := e.Position(); p.IsValid() {
			pos = diag.Position{File: p.Filename(), Line: p.Line(), Col: p.Column()}
		}
		format, args := e.Msg()
		msg := fmt.Sprintf(format, args...)
		if strings.TrimSpace(msg) == "" || strings.Contains(msg, "%!") {
			msg = e.Error()
			if strings.TrimSpace(msg) == "" {
				msg = err.Error()
			}
		}
		// The YAML decoder reports "file:line: message" without a position.
		if m := reYAMLErr.FindStringSubmatch(msg); m != nil {
			line, _ := strconv.Atoi(m[2])
			pos = diag.Position{File: name, Line: line, Col: firstNonSpace(src, line)}
			msg = m[3]
		}
		msg = strings.TrimPrefix(msg, "yaml: ")
		out = append(out, diag.Diagnostic{Pos: pos, Message: "syntax error: " + msg})
	}
	if len(out) == 0 {
		out = append(out, diag.Diagnostic{Pos: diag.Position{File: name, Line: 1, Col: 1}, Message: "syntax error: " + err.Error()})
	}
	return out
}

// FleetOfSite tells whether dir is a site folder of a fleet
// (<fleet>/sites/<name>) and returns the fleet's root, spelled from dir
// (absolute when dir is), and the site folder relative to that root.
func FleetOfSite(dir string) (root, site string, ok bool) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", "", false
	}
	if root, ok = fleetOf(dir); !ok {
		return "", "", false
	}
	return root, filepath.Join(fleetSitesDir, filepath.Base(abs)), true
}
