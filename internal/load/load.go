// Package load reads site descriptions (CUE packages, YAML or JSON files,
// fleet folders), checks them against the embedded schema and decodes them
// into the typed site model. Every problem is reported at the user's own
// file:line:col, all problems of an input at once.
package load

import (
	"fmt"
	"strings"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/build"
	"cuelang.org/go/cue/cuecontext"
	"cuelang.org/go/cue/errors"

	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/site"
	"github.com/siteforge/siteforge/schema"
)

// Result is what Load returns: the sites that loaded cleanly, every
// diagnostic, and the source of every file read (for snippets).
type Result struct {
	Sites       []*site.Site
	Diagnostics diag.List
	Sources     map[string][]byte
}

// Loader holds the compiled schema; it is not safe for concurrent use (a CUE
// context is single-threaded).
type Loader struct {
	ctx    *cue.Context
	schema cue.Value // #Site
	// top is _, compiled once for every site: a value never changes
	// (FillPath and Unify make new ones).
	top cue.Value
	// fileRank orders the files of the site being loaded (fleet defaults
	// first), to point conflicts at the site's own file.
	fileRank map[string]int
	// schemaNodes caches schema lookups by field path (see unknownFields).
	schemaNodes map[string]schemaNode
	// defaultPaths remembers, per set of shared files, where user defaults
	// had to win over schema defaults (see loadSyntax).
	defaultPaths map[string][]defaultPath
	// origins names the sites' origins (nil: Origin, searching each time).
	origins *Origins
}

// SetOrigins has the loader name its sites' origins with o, the run's
// (see Origins).
func (l *Loader) SetOrigins(o *Origins) { l.origins = o }

// New compiles the embedded schema.
func New() (*Loader, error) {
	ctx := cuecontext.New()
	v := ctx.CompileBytes(schema.Source, cue.Filename(schema.Filename))
	if err := v.Err(); err != nil {
		return nil, fmt.Errorf("compile embedded schema: %w", err)
	}
	def := v.LookupPath(cue.ParsePath(schema.Definition))
	if err := def.Err(); err != nil {
		return nil, fmt.Errorf("embedded schema: %w", err)
	}
	return &Loader{ctx: ctx, schema: def, top: ctx.CompileString("_"), schemaNodes: map[string]schemaNode{}, defaultPaths: map[string][]defaultPath{}}, nil
}

// Load loads every site named by paths. Sites are returned in the order of
// the paths, fleet sites sorted by folder name; a duplicate site name is an
// error.
func Load(paths []string) Result {
	l, err := New()
	if err != nil {
		return Result{Diagnostics: diag.List{{Message: err.Error()}}}
	}
	return l.Load(paths)
}

// Load loads every site named by paths.
func (l *Loader) Load(paths []string) Result {
	units, diags := Discover(paths)
	return l.LoadUnits(units, diags)
}

// LoadUnits loads units already discovered (diags: discovery's problems).
func (l *Loader) LoadUnits(units []Unit, diags diag.List) Result {
	res := Result{Sources: map[string][]byte{}}
	res.Diagnostics = append(res.Diagnostics, diags...)
	var names Names
	for _, u := range units {
		s, d := l.LoadUnit(u, res.Sources)
		res.Diagnostics = append(res.Diagnostics, d...)
		if s != nil {
			res.Sites = append(res.Sites, s)
			res.Diagnostics = append(res.Diagnostics, names.Add(s)...)
		}
	}
	res.Diagnostics = res.Diagnostics.Sort()
	return res
}

// Names finds two sites with one name: they would render into the same
// output folder. Add sites in input order.
type Names map[string]diag.Position

// Add records a site's name and reports it when already used.
func (n *Names) Add(s *site.Site) diag.List { return n.AddName(s.Name, s.Positions.Of("name")) }

// AddName records a site name written at pos.
func (n *Names) AddName(name string, pos diag.Position) diag.List {
	if *n == nil {
		*n = Names{}
	}
	if first, ok := (*n)[name]; ok {
		return diag.List{{Pos: pos, Path: "name",
			Message: fmt.Sprintf("site name %q is already used by %s", name, first),
			Hint:    "site names name the output folders and must be unique"}}
	}
	(*n)[name] = pos
	return nil
}

// LoadUnit loads one site; the files it reads are added to sources.
func (l *Loader) LoadUnit(u Unit, sources map[string][]byte) (*site.Site, diag.List) {
	return l.LoadUnitRead(u, sources, u.Read)
}

// LoadUnitRead is LoadUnit reading each file through read, so that a
// caller that digests the bytes (render's cache) loads exactly those.
func (l *Loader) LoadUnitRead(u Unit, sources map[string][]byte, read ReadFunc) (*site.Site, diag.List) {
	if len(u.files) > MaxFilesPerSite {
		return nil, diag.List{{Pos: diag.Position{File: u.source},
			Message: fmt.Sprintf("%d files make up this site, more than the limit of %d", len(u.files), MaxFilesPerSite)}}
	}
	var files []*ast.File
	var diags diag.List
	for _, name := range u.files {
		f, d := parseFile(name, u.ext(name), sources, read)
		diags = append(diags, d...)
		if f != nil {
			files = append(files, f)
		}
	}
	if len(diags) > 0 {
		return nil, diags
	}
	var sh shape
	for _, f := range files {
		sh.check(f)
	}
	if len(sh.diags) > 0 {
		return nil, sh.diags
	}
	s, diags := l.loadSyntax(u, files)
	if s == nil && len(diags) == 0 {
		// Never a site dropped without a word: every command would exit
		// 0 having checked nothing of it.
		diags = diag.List{{Pos: firstPos(files), Message: "internal error: this site was refused without a diagnostic",
			Hint: "please report it with the site; vet with the site's fields removed one by one finds the one refused"}}
	}
	return s, diags
}

// LoadSource loads one site from a file's contents, as if read from name
// (whose extension says the format). It reads nothing from disk.
func (l *Loader) LoadSource(name string, data []byte) Result {
	return l.loadSource(name, extOf(name), data)
}

func (l *Loader) loadSource(name, ext string, data []byte) Result {
	res := Result{Sources: map[string][]byte{name: data}}
	if int64(len(data)) > MaxFileSize {
		res.Diagnostics = diag.List{tooLarge(name, int64(len(data)))}
		return res
	}
	f, diags := parseAsInto(name, ext, data, res.Sources)
	if len(diags) == 0 {
		var sh shape
		sh.check(f)
		diags = sh.diags
	}
	if len(diags) > 0 {
		res.Diagnostics = diags
		return res
	}
	s, diags := l.loadSyntax(Unit{source: name, dir: ".", files: []string{name}}, []*ast.File{f})
	res.Diagnostics = diags.Sort()
	if s != nil {
		res.Sites = []*site.Site{s}
	}
	return res
}

// loadSyntax checks parsed files as one site.
func (l *Loader) loadSyntax(u Unit, files []*ast.File) (*site.Site, diag.List) {
	var diags diag.List
	l.fileRank = map[string]int{}
	for i, f := range files {
		l.fileRank[f.Filename] = i
	}
	user, diags := l.build(u, files)
	if len(diags) > 0 {
		return nil, diags
	}
	if k := user.IncompleteKind(); k != cue.StructKind {
		return nil, diag.List{{Pos: firstPos(files), Message: fmt.Sprintf("a site is a mapping of fields, not a %s", kindName(k)),
			Hint: "start the file with `apiVersion: siteforge.dev/v1alpha1`, `kind: Site`; a YAML site file holds exactly one document"}}
	}

	// Unknown fields first: CUE reports only some of them, and they hide
	// other errors. Report them all, drop them, and check the rest.
	fields := newFieldCollector()
	unknown, tooMany := l.unknownFields(user, fields.visit)
	if tooMany {
		return nil, tooManyValues(firstPos(files))
	}
	if len(unknown) > 0 {
		files = removeFields(files, unknown.positions())
		diags = append(diags, unknown.diagnostics()...)
		rebuilt, d := l.build(u, files)
		if len(d) > 0 {
			// Removing the unknown fields broke the rest (an import only
			// they used is now unused, a reference to them dangles): the
			// unknown fields are the problem to report.
			return nil, diags
		}
		user = rebuilt
		fields = nil // walked before the unknown fields were dropped
	}

	// Fields where a user default and a schema default cancel out are the
	// same for every site of a fleet: once found, the user's defaults there
	// are unified in up front, so the site is evaluated once.
	// The user's defaults are unified into the user's value before the
	// schema, so the schema is evaluated once per site (a CUE Unify
	// evaluates its result in full).
	shared := sharedFiles(u)
	var unified cue.Value
	if patch, ok := userDefaults(user, l.top, l.defaultPaths[shared]); ok {
		unified = l.schema.Unify(user.Unify(patch))
	} else {
		unified = l.schema.Unify(user)
	}
	err := unified.Validate(cue.Concrete(true))
	if err != nil {
		// Fields left undecided may be where a user default and a schema
		// default cancelled out: let the user's win, and check again.
		if paths := defaultPathsOf(undecided(err)); len(paths) > 0 {
			if patch, ok := userDefaults(user, l.top, paths); ok {
				unified = unified.Unify(patch)
				err = unified.Validate(cue.Concrete(true))
				l.defaultPaths[shared] = append(l.defaultPaths[shared], paths...)
			}
		}
	}
	if err != nil {
		for _, d := range l.translate(err, user, firstPos(files)) {
			// "did you mean uplinkMTU?" already says uplinkMTU is missing
			if !unknown.suggested(d) {
				diags = append(diags, d)
			}
		}
	}
	if err != nil {
		return nil, diags
	}
	// Only unknown fields (now dropped) were wrong, and the rest is valid:
	// the cross-field checks run on the rest too, so one run reports both
	// (the site is still refused).

	var s site.Site
	if !decodeValid(unified, &s) {
		s = site.Site{}
		if err := unified.Decode(&s); err != nil {
			return nil, append(diags, l.translate(err, user, firstPos(files))...)
		}
	}
	if testHookDecoded != nil {
		testHookDecoded(unified, &s)
	}
	s.Source = u.source
	s.Origin = l.origins.Origin(u.source)
	if fields == nil {
		s.Positions, s.FieldSuppressions = userFields(user)
	} else {
		s.Positions, s.FieldSuppressions = fields.pos, fields.sups
	}
	if d := expandDefaultCatalogs(&s); len(d) > 0 {
		return nil, append(diags, d...)
	}
	if d := checkSemantics(&s); len(d) > 0 || len(diags) > 0 {
		return nil, append(diags, d...)
	}
	return &s, nil
}

// build evaluates the user's files as one CUE package.
func (l *Loader) build(u Unit, files []*ast.File) (cue.Value, diag.List) {
	inst := build.NewContext().NewInstance(u.dir, nil)
	var diags diag.List
	for _, f := range files {
		if err := inst.AddSyntax(f); err != nil {
			diags = append(diags, l.translate(err, cue.Value{}, firstPos(files))...)
		}
	}
	if inst.Err != nil {
		diags = append(diags, l.translate(inst.Err, cue.Value{}, firstPos(files))...)
	}
	if len(diags) > 0 {
		return cue.Value{}, diags
	}
	v := l.ctx.BuildInstance(inst)
	if err := v.Err(); err != nil {
		return cue.Value{}, l.translate(err, cue.Value{}, firstPos(files))
	}
	// Conflicts inside the user's own files (a site against its fleet
	// defaults) surface here, before the schema is involved.
	if err := v.Validate(); err != nil {
		return cue.Value{}, l.translate(err, v, firstPos(files))
	}
	return v, nil
}

func firstPos(files []*ast.File) diag.Position {
	if len(files) == 0 {
		return diag.Position{}
	}
	return diag.Position{File: files[len(files)-1].Filename, Line: 1, Col: 1}
}

func kindName(k cue.Kind) string {
	switch k {
	case cue.ListKind:
		return "list (several YAML documents or a top-level list)"
	case cue.BottomKind:
		return "invalid value"
	}
	return k.String()
}

// userDefaults gives the user's own defaults (`*"disconnected" |
// "connected"` in fleet defaults) precedence over the schema's at paths: in
// CUE two different defaults cancel out and leave the field undecided. The
// user value is already the unification of all the site's files, so its
// defaults are the site's intent. It returns the defaults found at paths,
// filled into top (_), as one value to unify in, and false when there are
// none.
func userDefaults(user, top cue.Value, paths []defaultPath) (cue.Value, bool) {
	if len(paths) == 0 {
		return cue.Value{}, false
	}
	patch := top
	n := 0
	for _, p := range paths {
		v := userLookup(user, p.sels)
		if d, ok := v.Default(); ok && v.Exists() && d.IsConcrete() {
			patch = patch.FillPath(p.path, d)
			n++
		}
	}
	return patch, n > 0
}

// defaultPath is a path where a user default wins (see userDefaults): its
// selectors as a validation error gives them, and the path they spell,
// parsed once (every site of a fleet looks up the same paths).
type defaultPath struct {
	sels []string
	path cue.Path
}

func defaultPathsOf(paths [][]string) []defaultPath {
	out := make([]defaultPath, len(paths))
	for i, sels := range paths {
		out[i] = defaultPath{sels: sels, path: cue.ParsePath(pathString(sels))}
	}
	return out
}

// undecided lists the paths a validation found incomplete.
func undecided(verr error) [][]string {
	var out [][]string
	for _, e := range errors.Errors(verr) {
		format, _ := e.Msg()
		if !strings.HasPrefix(format, "incomplete value") {
			continue
		}
		sels := e.Path()
		if len(sels) > 0 && sels[0] == schema.Definition {
			sels = sels[1:]
		}
		if len(sels) > 0 {
			out = append(out, sels)
		}
	}
	return out
}

// sharedFiles names the files a site shares with others (fleet defaults):
// those outside the site's own folder.
func sharedFiles(u Unit) string {
	var shared []string
	for _, f := range u.files {
		if u.Shared(f) {
			shared = append(shared, f)
		}
	}
	return strings.Join(shared, "\x00")
}

// LintAttribute is the CUE attribute that suppresses a lint rule on a field:
// name: "x" @lint(ignore="MTU010", reason="...").
const LintAttribute = "lint"

// userFields records, in one walk of the user's value, where the user wrote
// each field and the @lint attributes that suppress a rule on a field.
func userFields(user cue.Value) (site.Positions, []site.FieldSuppression) {
	c := newFieldCollector()
	walkUser(user, c.visit)
	return c.pos, c.sups
}

// fieldCollector gathers what userFields returns, one value at a time (the
// unknown-field walk calls it, so a clean site is walked once).
type fieldCollector struct {
	pos  site.Positions
	sups []site.FieldSuppression
}

func newFieldCollector() *fieldCollector { return &fieldCollector{pos: site.Positions{}} }

func (c *fieldCollector) visit(v cue.Value, key string, root bool) {
	p := valuePos(v)
	lc := p.Position() // line and column, worked out once
	at := diag.Position{File: p.Filename(), Line: lc.Line, Col: lc.Column}
	if p.IsValid() {
		c.pos[key] = at
	}
	if root {
		return
	}
	for _, a := range v.Attributes(cue.FieldAttr) {
		if a.Name() != LintAttribute {
			continue
		}
		rule, _, _ := a.Lookup(0, "ignore")
		reason, _, _ := a.Lookup(0, "reason")
		c.sups = append(c.sups, site.FieldSuppression{Rule: rule, Reason: reason, Path: key, Pos: at})
	}
}

// visitFunc is called for a value of the user's: key is its path string,
// as cue.MakePath(selectors...).String() spells it ("pools.edge.uplinkMTU",
// `mirroring.sources."registry.redhat.io"`, "network.machineNetwork[0]"),
// root says it is the top (whose key is "").
type visitFunc func(v cue.Value, key string, root bool)

// walkUser calls fn for the user's value and every field and list element
// under it, depth first.
func walkUser(v cue.Value, fn visitFunc) {
	fn(v, "", true)
	walkChildren(v, "", true, fn)
}

// walkChildren calls fn for every field and list element under v (at path
// string key; root: v is the top), depth first.
func walkChildren(v cue.Value, key string, root bool, fn visitFunc) {
	switch v.IncompleteKind() {
	case cue.StructKind:
		it, err := v.Fields(cue.Optional(true))
		if err != nil {
			return
		}
		for it.Next() {
			child := fieldKey(key, root, it.Selector())
			fn(it.Value(), child, false)
			walkChildren(it.Value(), child, false, fn)
		}
	case cue.ListKind:
		it, err := v.List()
		if err != nil {
			return
		}
		for i := 0; it.Next(); i++ {
			child := indexKey(key, i)
			fn(it.Value(), child, false)
			walkChildren(it.Value(), child, false, fn)
		}
	}
}
