package discover

import (
	"bufio"
	"bytes"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/siteforge/siteforge/internal/fsread"
)

// maxIgnoreFile bounds a .siteforgeignore.
const maxIgnoreFile = 1 << 20

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
// .siteforgeignore.
func (ig *ignorer) child(dir string) *ignorer {
	data, err := fsread.File(filepath.Join(dir, IgnoreFile), maxIgnoreFile)
	if err != nil {
		return ig
	}
	c := &ignorer{pats: append([]pattern{}, ig.pats...)}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		c.add(dir, sc.Text())
	}
	return c
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
