package discover

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/fsread"
	"github.com/siteforge/siteforge/internal/manifests"
)

// maxIgnoreFile bounds a .siteforgeignore: a file of patterns is a few
// kilobytes.
const maxIgnoreFile = 1 << 20

// maxIgnoreLine bounds one line (one pattern) of a .siteforgeignore: a
// pattern is a path, and no path is longer than PATH_MAX (4096 bytes on
// Linux, include/uapi/linux/limits.h); a longer line is a mistake, not a
// pattern, and costs a regular expression as long.
const maxIgnoreLine = 4096

// ignorer holds the gitignore patterns in force in a folder: its parents'
// and its own .siteforgeignore, and --exclude. Syntax and precedence are
// git's (gitignore(5)): the last matching pattern decides, `!` re-includes,
// a pattern with a slash (other than at its end) is anchored to the folder of
// the file that holds it, a trailing slash matches folders only, `*` and `?`
// do not match a slash, `**` matches across folders.
type ignorer struct {
	pats []pattern
}

type pattern struct {
	re      *regexp.Regexp
	negate  bool
	dirOnly bool
}

// child is the ignorer in force inside dir: this one plus dir's
// .siteforgeignore. What keeps a pattern from applying is a problem,
// positioned: a file that cannot be read or is too large (none of its
// patterns applies), a line too long (that line's pattern does not apply,
// the others do). No .siteforgeignore is no problem.
func (ig *ignorer) child(dir string) (*ignorer, []manifests.Problem) {
	file := filepath.Join(dir, IgnoreFile)
	data, err := fsread.File(file, maxIgnoreFile)
	var tl *fsread.TooLargeError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return ig, nil
	case errors.As(err, &tl):
		return ig, []manifests.Problem{ignoreProblem(file, 1, fsread.Describe(err)+" for "+IgnoreFile+": none of its patterns applies")}
	case err != nil:
		return ig, []manifests.Problem{ignoreProblem(file, 0, "cannot read: "+fsread.Describe(err)+": none of its patterns applies")}
	}
	c := &ignorer{pats: append([]pattern{}, ig.pats...)}
	var probs []manifests.Problem
	for n := 1; len(data) > 0; n++ {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if len(line) > maxIgnoreLine {
			probs = append(probs, ignoreProblem(file, n, fmt.Sprintf("line is %d bytes, longer than the %d-byte limit for a pattern: its pattern does not apply (the other lines' do)", len(line), maxIgnoreLine)))
			continue
		}
		c.add(dir, string(line))
	}
	return c, probs
}

// ignoreProblem is a .siteforgeignore that is not read as a whole, at line
// (0: the file).
func ignoreProblem(file string, line int, msg string) manifests.Problem {
	pos := diag.Position{File: file}
	if line > 0 {
		pos.Line, pos.Col = line, 1
	}
	return manifests.Problem{Kind: manifests.ProblemUnreadable, Diagnostic: diag.Diagnostic{Pos: pos, Message: msg,
		Hint: "keep " + IgnoreFile + " to patterns of paths, one a line"}}
}

// add compiles one gitignore line, relative to base.
func (ig *ignorer) add(base, line string) {
	line = strings.TrimSuffix(line, "\r")
	// Trailing spaces are ignored unless escaped.
	for strings.HasSuffix(line, " ") && !strings.HasSuffix(line, `\ `) {
		line = line[:len(line)-1]
	}
	if line == "" || strings.HasPrefix(line, "#") {
		return
	}
	var p pattern
	if strings.HasPrefix(line, "!") {
		p.negate, line = true, line[1:]
	} else if strings.HasPrefix(line, `\!`) || strings.HasPrefix(line, `\#`) {
		line = line[1:]
	}
	if strings.HasSuffix(line, "/") {
		p.dirOnly, line = true, strings.TrimSuffix(line, "/")
	}
	if line == "" {
		return
	}
	anchored := strings.Contains(line, "/")
	line = strings.TrimPrefix(line, "/")
	var re strings.Builder
	re.WriteString("^")
	if b := filepath.ToSlash(filepath.Clean(base)); b != "." {
		re.WriteString(regexp.QuoteMeta(strings.TrimSuffix(b, "/")) + "/")
	}
	if !anchored {
		re.WriteString("(?:.*/)?")
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '*' && strings.HasPrefix(line[i:], "**/") && (i == 0 || line[i-1] == '/'):
			re.WriteString("(?:.*/)?")
			i += 2
		case c == '*' && line[i:] == "**" && (i == 0 || line[i-1] == '/'):
			re.WriteString(".*")
			i++
		case c == '*':
			re.WriteString("[^/]*")
		case c == '?':
			re.WriteString("[^/]")
		case c == '\\' && i+1 < len(line):
			i++
			re.WriteString(regexp.QuoteMeta(string(line[i])))
		case c == '[':
			j := strings.IndexByte(line[i+1:], ']')
			if j < 0 {
				re.WriteString(`\[`)
				continue
			}
			class := line[i+1 : i+1+j]
			if strings.HasPrefix(class, "!") {
				class = "^" + class[1:]
			}
			re.WriteString("[" + strings.ReplaceAll(class, `\`, `\\`) + "]")
			i += j + 1
		default:
			re.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	re.WriteString("$")
	rx, err := regexp.Compile(re.String())
	if err != nil {
		return // a malformed class: git ignores such a line too
	}
	p.re = rx
	ig.pats = append(ig.pats, p)
}

// ignored reports whether path (a folder when dir) is excluded.
func (ig *ignorer) ignored(path string, dir bool) bool {
	if ig == nil {
		return false
	}
	p := filepath.ToSlash(filepath.Clean(path))
	out := false
	for _, pat := range ig.pats {
		if pat.dirOnly && !dir {
			continue
		}
		if pat.re.MatchString(p) {
			out = !pat.negate
		}
	}
	return out
}
