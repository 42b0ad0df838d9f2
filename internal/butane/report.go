package butane

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"cuelang.org/go/cue"
	"github.com/coreos/butane/config/common"
	"github.com/coreos/vcontext/path"
	"github.com/coreos/vcontext/report"
	"github.com/coreos/vcontext/tree"
	"gopkg.in/yaml.v3"

	"github.com/siteforge/siteforge/internal/diag"
)

// mapper maps positions in the composed .bu back to the user's input (see
// the package documentation for how precise this is).
type mapper struct {
	origin Origin
	lines  []string // the body's lines
	header int      // lines siteforge writes above the body in the .bu
	spec   string
	// block says the snippet spans several lines and is assumed written as
	// a block (YAML `|`, CUE `"""`): body line n is n lines below Pos.
	block bool
	// indent is the guessed number of bytes of indentation the block
	// scalar strips from each line in the user's file.
	indent int
}

func newMapper(o Origin, body []byte, header int, spec string) *mapper {
	m := &mapper{origin: o, lines: strings.Split(string(body), "\n"), header: header, spec: spec}
	multi := strings.Contains(strings.TrimRight(string(body), "\n"), "\n")
	// A JSON string cannot span lines: its line breaks are \n escapes, so
	// lines inside it cannot be told apart.
	m.block = o.Snippet && multi && !strings.EqualFold(filepath.Ext(o.Pos.File), ".json")
	if m.block {
		m.indent = blockIndent(o)
	}
	return m
}

// blockIndent guesses the indentation of a block snippet's lines from the
// column of its opening token (`|` or `"""`) and the field name before it,
// for the layout siteforge init, the examples and cue fmt use:
//
//	    butane: |           (YAML: the text 2 spaces deeper than the key)
//	      storage:
//
//		butane: """         (CUE: the text one tab deeper than the key)
//			storage:
func blockIndent(o Origin) int {
	field := "butane"
	if sels := cue.ParsePath(o.Path).Selectors(); o.Path != "" && len(sels) > 0 {
		field = sels[len(sels)-1].Unquoted()
	}
	keyCol := o.Pos.Col - len(field) - len(": ") // 1-based column of the key
	step := 2
	if strings.EqualFold(filepath.Ext(o.Pos.File), ".cue") {
		step = 1
	}
	return max(keyCol-1+step, 0)
}

// bodyPos maps a 1-based line and column inside the body to the user's
// input; col 0 means the line's first non-blank byte.
func (m *mapper) bodyPos(line, col int) diag.Position {
	o := m.origin.Pos
	if !m.block || line < 1 || line > len(m.lines) || o.Line <= 0 {
		return o
	}
	if col < 1 {
		col = 1 + len(m.lines[line-1]) - len(strings.TrimLeft(m.lines[line-1], " \t"))
	}
	return diag.Position{File: o.File, Line: o.Line + line, Col: m.indent + col}
}

// buPos maps a 1-based line and column of the .bu: inside the body to the
// user's line, in siteforge's header to the origin.
func (m *mapper) buPos(line, col int) diag.Position {
	if line <= m.header {
		return m.origin.Pos
	}
	return m.bodyPos(line-m.header, col)
}

func (m *mapper) diag(pos diag.Position, butanePath, msg, hint string) diag.Diagnostic {
	if butanePath != "" {
		msg = butanePath + ": " + msg
	}
	return diag.Diagnostic{Pos: pos, Path: m.origin.Path, Message: msg, Hint: hint}
}

// report turns Butane's report into diagnostics: errors, and warnings (every
// other entry, as `butane --strict` fails on any entry). An unused key is a
// warning for Butane but an error here: the site schema refuses unknown
// fields, and a misspelt Butane field would silently drop its contents from
// the MachineConfig. bu is the .bu's node tree, to find entries Butane
// reports on the generated MachineConfig.
func (m *mapper) report(r report.Report, bu tree.Node) (errs, warns diag.List) {
	for _, e := range r.Entries {
		ctx, marker := e.Context, e.Marker
		if ctx.Tag != "yaml" {
			ctx = sourcePath(ctx)
			if bu != nil {
				marker = deepest(bu, ctx).GetMarker()
			}
		}
		line, col := marker.Start()
		pos := m.buPos(int(line), int(col))
		msg, hint := e.Message, ""
		where := displayPath(ctx)
		fatal := e.Kind.IsFatal()
		if key, ok := strings.CutPrefix(msg, "unused key "); ok && !fatal {
			fatal = true
			where = displayPath(ctx.Pop())
			msg = fmt.Sprintf("unknown Butane field %q", key)
			hint = fmt.Sprintf("the Butane openshift %s spec has no such field here: check the spelling and the indentation, and whether the field needs a newer OpenShift version", m.spec)
		}
		d := m.diag(pos, where, msg, hint)
		if fatal {
			errs = append(errs, d)
		} else {
			warns = append(warns, d)
		}
	}
	return errs, warns
}

// translateError maps an error Butane returned without a report entry.
func (m *mapper) translateError(err error) diag.List {
	var te *yaml.TypeError
	var ue common.ErrUnmarshal
	if errors.As(err, &te) || errors.As(err, &ue) {
		return m.yamlErrors(err, func(line int) diag.Position { return m.buPos(line, 0) })
	}
	return diag.List{m.diag(m.origin.Pos, "", "Butane: "+err.Error(), "")}
}

// sourcePath maps a path in the generated MachineConfig (which Butane
// could not translate back) to the .bu: the Ignition config is
// spec.config, the openshift fields are under spec. Butane has already
// snake-cased the field names.
func sourcePath(p path.ContextPath) path.ContextPath {
	parts := p.Path
	switch {
	case len(parts) >= 2 && parts[0] == "spec" && parts[1] == "config":
		parts = parts[2:]
	case len(parts) >= 1 && parts[0] == "spec":
		parts = append([]any{"openshift"}, parts[1:]...)
	}
	return path.New("yaml", append([]any(nil), parts...)...)
}

// deepest returns the node at p, or at its nearest ancestor that exists.
func deepest(n tree.Node, p path.ContextPath) tree.Node {
	for {
		if c, err := n.Get(p); err == nil && c != nil {
			return c
		}
		if p.Len() == 0 {
			return n
		}
		p = p.Pop()
	}
}

// displayPath writes a Butane path as the user would: storage.files.0.path.
func displayPath(p path.ContextPath) string {
	parts := make([]string, len(p.Path))
	for i, e := range p.Path {
		parts[i] = fmt.Sprint(e)
	}
	return strings.Join(parts, ".")
}
