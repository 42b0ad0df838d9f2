// Package diag holds siteforge's user-facing diagnostics: a problem at a
// position in the user's own file, with a hint on how to fix it.
package diag

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/siteforge/siteforge/internal/credential"
)

// Position is a place in a user's file. Line and Col are 1-based; Col counts
// bytes, as GNU-style tools and editors expect.
type Position struct {
	File string
	Line int
	Col  int
}

// IsValid reports whether the position names a file.
func (p Position) IsValid() bool { return p.File != "" }

func (p Position) String() string {
	switch {
	case p.File == "":
		return "-"
	case p.Line <= 0:
		return p.File
	case p.Col <= 0:
		return fmt.Sprintf("%s:%d", p.File, p.Line)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Diagnostic is one problem.
type Diagnostic struct {
	Pos Position
	// Path is the field path in the site description, when known.
	Path string
	// Message says what is wrong.
	Message string
	// Hint says how to fix it.
	Hint string
	// Len is the number of bytes to underline in a snippet (0: one).
	Len int
	// Rule is the rule ID of a warning (a render warning's RND ID, see
	// internal/ruleid): printed as "[ID]", and what a suppression names.
	// Empty for an error in the input.
	Rule string
}

func (d Diagnostic) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: error: ", d.Pos)
	if d.Path != "" {
		fmt.Fprintf(&b, "%s: ", d.Path)
	}
	b.WriteString(d.Message)
	if d.Hint != "" {
		b.WriteString(" (")
		b.WriteString(d.Hint)
		b.WriteString(")")
	}
	if d.Rule != "" {
		fmt.Fprintf(&b, " [%s]", d.Rule)
	}
	return b.String()
}

// Compare orders positions by file, line and column.
func (p Position) Compare(q Position) int {
	switch {
	case p.File != q.File:
		return strings.Compare(p.File, q.File)
	case p.Line != q.Line:
		return p.Line - q.Line
	}
	return p.Col - q.Col
}

// Unique drops invalid and repeated positions, keeping the order.
func Unique(ps ...Position) []Position {
	seen := map[Position]bool{}
	var out []Position
	for _, p := range ps {
		if !p.IsValid() || seen[p] {
			continue
		}
		seen[p] = true
		out = append(out, p)
	}
	return out
}

// List is a set of diagnostics; as an error it prints them all.
type List []Diagnostic

func (l List) Error() string {
	var parts []string
	for _, d := range l {
		parts = append(parts, d.Error())
	}
	return strings.Join(parts, "\n")
}

// Split tells problems in the user's input (a List) from any other error.
func Split(err error) (List, error) {
	var l List
	if errors.As(err, &l) {
		return l, nil
	}
	return nil, err
}

// Sort orders diagnostics by file, line, column and message, and drops exact
// duplicates.
func (l List) Sort() List {
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i], l[j]
		if c := a.Pos.Compare(b.Pos); c != 0 {
			return c < 0
		}
		return a.Message < b.Message
	})
	out := l[:0]
	for i, d := range l {
		if i > 0 && d == l[i-1] {
			continue
		}
		out = append(out, d)
	}
	return out
}

// Printer writes diagnostics in GNU style with a source snippet under each.
// A snippet shows at most MaxSnippetBytes of a line, at most
// MaxSnippetsPerFile per file, only from files that are sites or manifests
// (Showable), never a line that looks like a credential; everything printed
// is Clean.
type Printer struct {
	// Source returns the contents of a file the run read; a file it does
	// not return gets no snippet (the printer never reads files itself).
	Source func(file string) ([]byte, bool)
	cache  map[string][]byte
	shown  map[string]int
}

func (p *Printer) source(file string) ([]byte, bool) {
	if p.cache == nil {
		p.cache = map[string][]byte{}
	}
	if b, ok := p.cache[file]; ok {
		return b, b != nil
	}
	var b []byte
	if p.Source != nil {
		if data, ok := p.Source(file); ok && Showable(file, data) {
			b = data
		}
	}
	p.cache[file] = b
	return b, b != nil
}

// Format renders one diagnostic:
//
//	site.yaml:16:5: error: pools.master: field "uplinkMtu" is not allowed
//	   |
//	16 |     uplinkMtu: 9001
//	   |     ^^^^^^^^^
//	   = hint: did you mean "uplinkMTU"?
func (p *Printer) Format(d Diagnostic) string { return p.FormatSeverity(d, "error") }

// FormatSeverity renders a diagnostic as an error, warning or info.
func (p *Printer) FormatSeverity(d Diagnostic, severity string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s: ", SafeLine(d.Pos.String()), severity)
	if d.Path != "" {
		fmt.Fprintf(&b, "%s: ", Clean(d.Path))
	}
	b.WriteString(Clean(d.Message))
	if d.Rule != "" {
		fmt.Fprintf(&b, " [%s]", Clean(d.Rule))
	}
	b.WriteByte('\n')
	gutter := ""
	if p.shown == nil {
		p.shown = map[string]int{}
	}
	if src, ok := p.source(d.Pos.File); ok && d.Pos.Line > 0 && p.shown[d.Pos.File] < MaxSnippetsPerFile {
		if line, ok := lineOf(src, d.Pos.Line); ok {
			num := fmt.Sprint(d.Pos.Line)
			if credential.Line(line) {
				p.shown[d.Pos.File]++
				gutter = strings.Repeat(" ", len(num))
				fmt.Fprintf(&b, "%s |\n%s | (line not shown: it looks like it holds a credential)\n", gutter, num)
			} else if shown, pad, rest, ok := snippetLine(line, d.Pos.Col); ok {
				p.shown[d.Pos.File]++
				gutter = strings.Repeat(" ", len(num))
				n := d.Len
				if n <= 0 {
					n = tokenLen(line, min(max(d.Pos.Col, 1), len(line)+1)-1)
				}
				n = max(1, min(n, rest))
				fmt.Fprintf(&b, "%s |\n%s | %s\n", gutter, num, shown)
				fmt.Fprintf(&b, "%s | %s%s\n", gutter, pad, strings.Repeat("^", min(n, MaxSnippetBytes)))
			}
		}
	}
	if d.Hint != "" {
		if gutter == "" {
			gutter = " "
		}
		fmt.Fprintf(&b, "%s = hint: %s\n", gutter, Clean(d.Hint))
	}
	return b.String()
}

func lineOf(src []byte, n int) ([]byte, bool) {
	for i := 1; i < n; i++ {
		j := bytes.IndexByte(src, '\n')
		if j < 0 {
			return nil, false
		}
		src = src[j+1:]
	}
	if j := bytes.IndexByte(src, '\n'); j >= 0 {
		src = src[:j]
	}
	return src, true
}

// tokenLen guesses the length of the token starting at byte i: a quoted
// string, or a run up to a delimiter.
func tokenLen(line []byte, i int) int {
	if i >= len(line) {
		return 1
	}
	if q := line[i]; q == '"' || q == '\'' {
		for j := i + 1; j < len(line); j++ {
			if line[j] == '\\' && q == '"' {
				j++
				continue
			}
			if line[j] == q {
				return j - i + 1
			}
		}
		return len(line) - i
	}
	n := 0
	for j := i; j < len(line); j++ {
		c := line[j]
		if c == ':' && (j+1 == len(line) || line[j+1] == ' ') || c == ',' || c == ' ' || c == '\t' || c == '}' || c == ']' || c == '\r' || c == '#' {
			break
		}
		n++
	}
	if n == 0 {
		return 1
	}
	return n
}
