package load

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/ast/astutil"
	"cuelang.org/go/cue/token"

	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/suggest"
)

// unknownField is a field the schema does not allow.
type unknownField struct {
	path    cue.Path
	name    string
	pos     token.Pos // where the value is
	label   token.Pos // where the label is, once found in the syntax
	allowed []string  // the fields allowed beside it; empty for maps
	mapKind string    // what the keys of a map must be, for maps
}

type unknownList []*unknownField

// schemaNode caches, per field path, what the schema says of a field: the
// schema of a path is the same in every site of a fleet.
type schemaNode struct {
	allowed bool
	value   cue.Value
}

// unknownFields walks the user's value beside the schema and returns every
// field the schema does not allow, with the allowed alternatives. It also
// counts the values it walks: tooMany says the site evaluated to more than
// MaxEvaluatedValues (the walk stops there). When visit is not nil it is
// called as walkUser calls its function, for every value of the user's (the
// unknown fields and what they hold excepted): the positions of a clean site
// are gathered in the same walk.
func (l *Loader) unknownFields(user cue.Value, visit visitFunc) (out unknownList, tooMany bool) {
	top := l.top
	values := 0
	// path has plain selectors, key their path string (the schema's key),
	// rawKey the path string of the user's own selectors (what walkUser
	// gives visit: a CUE field written `name?:` is `name?` there), the same
	// as key unless raw; path's backing array is shared down the walk.
	var walk func(uv, sv cue.Value, path []cue.Selector, key, rawKey string, raw bool)
	walk = func(uv, sv cue.Value, path []cue.Selector, key, rawKey string, raw bool) {
		root := len(path) == 0
		if visit != nil {
			visit(uv, rawKey, root)
		}
		if tooMany {
			return
		}
		if !sv.Exists() {
			// no schema here: nothing is unknown below, but visit all
			if visit != nil {
				walkChildren(uv, rawKey, root, visit)
			}
			return
		}
		if values++; values > maxEvaluatedValues {
			tooMany = true
			return
		}
		n := len(path)
		// sv's alternatives, worked out at the first field or element not
		// seen before (the schema is the same for every site: a loader's
		// later sites rarely need them)
		var alts []cue.Value
		switch uv.IncompleteKind() {
		case cue.StructKind:
			if sv.IncompleteKind()&cue.StructKind == 0 {
				// a type error; Validate reports it
				if visit != nil {
					walkChildren(uv, rawKey, root, visit)
				}
				return
			}
			it, err := uv.Fields(cue.Optional(true))
			if err != nil {
				return
			}
			for it.Next() {
				userSel := it.Selector()
				sel := regular(userSel)
				child := append(path[:n], sel)
				childKey := fieldKey(key, root, sel)
				node, seen := l.schemaNodes[childKey]
				if !seen {
					if alts == nil {
						alts = disjuncts(sv)
					}
					node = schemaNode{allowed: allowedIn(alts, sel)}
					if node.allowed {
						node.value = fieldIn(alts, sel, top)
					}
					l.schemaNodes[childKey] = node
				}
				if !node.allowed {
					// (a copy: the walk reuses child's array)
					f := &unknownField{path: cue.MakePath(slices.Clone(child)...), name: sel.Unquoted(), pos: it.Value().Pos()}
					f.allowed = fieldNames(sv)
					if len(f.allowed) == 0 {
						f.mapKind = mapKeyKind(path[:n])
					}
					out = append(out, f)
					continue
				}
				childRaw, rawChild := childKey, raw || userSel.ConstraintType() != 0
				if rawChild {
					childRaw = fieldKey(rawKey, root, userSel)
				}
				walk(it.Value(), node.value, child, childKey, childRaw, rawChild)
			}
		case cue.ListKind:
			it, err := uv.List()
			if err != nil {
				return
			}
			for i := 0; it.Next(); i++ {
				child := append(path[:n], cue.Index(i))
				childKey := indexKey(key, i)
				node, seen := l.schemaNodes[childKey]
				if !seen {
					if alts == nil {
						alts = disjuncts(sv)
					}
					node = schemaNode{allowed: true, value: indexIn(alts, i)}
					l.schemaNodes[childKey] = node
				}
				childRaw := childKey
				if raw {
					childRaw = indexKey(rawKey, i)
				}
				walk(it.Value(), node.value, child, childKey, childRaw, raw)
			}
		}
	}
	walk(user, l.schema, make([]cue.Selector, 0, 32), "", "", false)
	return out, tooMany
}

// fieldKey is the path string of field sel of the value at path string
// parent (root: the top, whose path is empty), as cue.MakePath(...,
// sel).String() spells it: labels joined by ".", each as Selector.String
// spells it (quoted when not an identifier, `?` or `!` after a constraint).
func fieldKey(parent string, root bool, sel cue.Selector) string {
	if root {
		return sel.String()
	}
	return parent + "." + sel.String()
}

// indexKey is the path string of list element i of the value at path
// string parent, as cue.MakePath(..., cue.Index(i)).String() spells it.
func indexKey(parent string, i int) string {
	return parent + "[" + strconv.Itoa(i) + "]"
}

// regular turns an optional or required field selector into a plain one.
func regular(sel cue.Selector) cue.Selector {
	if sel.LabelType() == cue.StringLabel && sel.ConstraintType() != 0 {
		return cue.Str(sel.Unquoted())
	}
	return sel
}

// disjuncts splits a schema value into the alternatives of a disjunction.
func disjuncts(v cue.Value) []cue.Value {
	op, args := v.Expr()
	if op == cue.AndOp && len(args) == 2 {
		// `_ & X`, as FillPath leaves it: look through the top.
		if k := args[0].IncompleteKind(); k == cue.TopKind {
			op, args = args[1].Expr()
		}
	}
	if op == cue.OrOp {
		return args
	}
	return []cue.Value{v}
}

func allows(sv cue.Value, sel cue.Selector) bool {
	if sel.LabelType() != cue.StringLabel {
		return true
	}
	return allowedIn(disjuncts(sv), sel)
}

// allowedIn is allows for the alternatives of a schema value.
func allowedIn(alts []cue.Value, sel cue.Selector) bool {
	if sel.LabelType() != cue.StringLabel {
		return true
	}
	for _, d := range alts {
		if d.IncompleteKind()&cue.StructKind != 0 && d.Allows(sel) {
			return true
		}
	}
	return false
}

// schemaField returns the schema for field sel of sv, with pattern
// constraints applied.
func schemaField(sv cue.Value, sel cue.Selector, top cue.Value) cue.Value {
	return fieldIn(disjuncts(sv), sel, top)
}

// fieldIn is schemaField for the alternatives of a schema value.
func fieldIn(alts []cue.Value, sel cue.Selector, top cue.Value) cue.Value {
	p := cue.MakePath(sel)
	for _, d := range alts {
		if d.IncompleteKind()&cue.StructKind == 0 || !d.Allows(sel) {
			continue
		}
		// Regular and optional fields are found directly; only a field
		// that exists through a pattern ([Name=#DNSLabel]: #Pool) needs
		// filling in, which evaluates the pattern for that name.
		if c := d.LookupPath(p); c.Exists() {
			return c
		}
		if sel.LabelType() == cue.StringLabel {
			if c := d.LookupPath(cue.MakePath(sel.Optional())); c.Exists() {
				return c
			}
		}
		if c := d.FillPath(p, top).LookupPath(p); c.Exists() {
			return c
		}
	}
	return cue.Value{}
}

// schemaIndex returns the schema for element i of list sv.
func schemaIndex(sv cue.Value, i int) cue.Value {
	return indexIn(disjuncts(sv), i)
}

// indexIn is schemaIndex for the alternatives of a schema value. A
// concrete list alternative is a default (`*[{cidr: ..., hostPrefix: 23}] |
// [...#ClusterNetwork]`): its elements are plain values, open to any
// field, and a list the user writes replaces it; the element comes from
// the list types first, and from a default only when there is no type.
func indexIn(alts []cue.Value, i int) cue.Value {
	var types, defaults []cue.Value
	for _, d := range alts {
		if d.IncompleteKind()&cue.ListKind == 0 {
			continue
		}
		if d.Validate(cue.Concrete(true)) == nil {
			defaults = append(defaults, d)
		} else {
			types = append(types, d)
		}
	}
	for _, d := range append(types, defaults...) {
		if c := d.LookupPath(cue.MakePath(cue.Index(i))); c.Exists() {
			return c
		}
		if c := d.LookupPath(cue.MakePath(cue.AnyIndex)); c.Exists() {
			return c
		}
	}
	return cue.Value{}
}

// fieldNames lists the fixed fields a schema struct allows.
func fieldNames(sv cue.Value) []string {
	seen := map[string]bool{}
	for _, d := range disjuncts(sv) {
		it, err := d.Fields(cue.Optional(true))
		if err != nil {
			continue
		}
		for it.Next() {
			if s := it.Selector(); s.LabelType() == cue.StringLabel {
				seen[s.Unquoted()] = true
			}
		}
	}
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// mapKeyKind says what the keys of a map-valued field must look like.
func mapKeyKind(path []cue.Selector) string {
	parent := ""
	if len(path) > 0 {
		parent = path[len(path)-1].Unquoted()
	}
	switch parent {
	case "pools", "shards", "catalogs":
		return "a DNS-1123 label (lowercase letters, digits and '-', at most 63 characters)"
	case "egressIPs", "machineConfigs":
		return "a DNS-1123 subdomain (lowercase letters, digits, '-' and '.')"
	case "sources":
		return "a registry scope: host[:port][/path] in lowercase, or *.domain"
	case "orgs":
		return "a Quay organization name matching ^[a-z0-9]+(?:[._-][a-z0-9]+)*$"
	case "labels", "matchLabels":
		return "a Kubernetes label key ([prefix/]name, name at most 63 characters)"
	case "severity":
		return "a rule ID such as MTU001 (MTU, NET, MIR, ING, EGR, MCF, INS, INP or RND and three digits)"
	}
	return "a valid key"
}

func (u unknownList) diagnostics() diag.List {
	var out diag.List
	for _, f := range u {
		pos := f.label
		if !pos.IsValid() {
			pos = f.pos
		}
		d := diag.Diagnostic{
			Pos:  diag.Position{File: pos.Filename(), Line: pos.Line(), Col: pos.Column()},
			Path: parentPath(f.path),
			Len:  len(f.name),
		}
		if f.label.IsValid() {
			d.Len = 0
		}
		if f.mapKind != "" {
			d.Message = fmt.Sprintf("key %q is not valid here", f.name)
			d.Hint = "must be " + f.mapKind
		} else {
			d.Message, d.Hint = notAllowed(f.name, f.allowed)
		}
		out = append(out, d)
	}
	return out
}

// notAllowed is the message and hint of a field name the schema does not
// allow beside the allowed ones: the nearest as "did you mean", else the
// list.
func notAllowed(name string, allowed []string) (msg, hint string) {
	msg = fmt.Sprintf("field %q is not allowed", name)
	if s := nearest(name, allowed); s != "" {
		return msg, fmt.Sprintf("did you mean %q?", s)
	}
	if len(allowed) > 0 {
		hint = "allowed fields: " + strings.Join(allowed, ", ")
	}
	return msg, hint
}

// suggested reports whether d is a missing-field error for a field that an
// unknown field's "did you mean" already names.
func (u unknownList) suggested(d diag.Diagnostic) bool {
	for _, f := range u {
		if f.mapKind == "" && d.Path == parentPath(f.path) {
			if s := nearest(f.name, f.allowed); s != "" && d.Message == fmt.Sprintf("missing required field %q", s) {
				return true
			}
		}
	}
	return false
}

func parentPath(p cue.Path) string {
	sels := p.Selectors()
	if len(sels) <= 1 {
		return ""
	}
	return cue.MakePath(sels[:len(sels)-1]...).String()
}

func (u unknownList) positions() map[token.Pos]*unknownField {
	m := map[token.Pos]*unknownField{}
	for _, f := range u {
		if f.pos.IsValid() {
			m[f.pos] = f
		}
	}
	return m
}

// removeFields deletes the unknown fields from the syntax so the rest of the
// input can be checked, and records their label positions.
func removeFields(files []*ast.File, byPos map[token.Pos]*unknownField) []*ast.File {
	out := make([]*ast.File, 0, len(files))
	for _, f := range files {
		n := astutil.Apply(f, func(c astutil.Cursor) bool {
			field, ok := c.Node().(*ast.Field)
			if !ok {
				return true
			}
			u := byPos[field.Value.Pos()]
			if u == nil {
				u = byPos[field.Label.Pos()]
			}
			if u != nil && labelName(field.Label) == u.name {
				u.label = field.Label.Pos()
				c.Delete()
				return false
			}
			return true
		}, nil)
		out = append(out, n.(*ast.File))
	}
	return out
}

func labelName(l ast.Label) string {
	name, _, err := ast.LabelName(l)
	if err != nil {
		return ""
	}
	return name
}

// nearest returns the candidate closest to name, if close enough to be a
// typo.
func nearest(name string, candidates []string) string { return suggest.Nearest(name, candidates) }
