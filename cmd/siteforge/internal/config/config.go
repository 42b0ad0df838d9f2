// Package config reads siteforge's configuration file, .siteforge.yaml,
// found from the working folder upwards (as golangci-lint finds its
// .golangci.yml): lint's settings for a repository, so that every run of
// lint there (a developer's, CI's, a pre-commit hook's) uses the same.
// Flags given on the command line win over it. Its keys are decoded
// strictly: an unknown key, a wrong type or a bad value is an error at its
// file:line:col, with "did you mean" for a mistyped key.
package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/fsread"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/suggest"
	"github.com/siteforge/siteforge/internal/yamlkeys"
	"github.com/siteforge/siteforge/lint"
	"github.com/siteforge/siteforge/lint/report"
)

// FileName is the configuration file's name.
const FileName = ".siteforge.yaml"

// MaxSize bounds the file (docs/limits.md): a configuration is a few
// lines.
const MaxSize = 256 << 10

// File is a read configuration file.
type File struct {
	// Path is where it was found ("" when there is none).
	Path string
	// Source is its text, for snippets.
	Source []byte
	Lint   Lint
}

// Lint is the file's lint: section. A zero field is not set.
type Lint struct {
	FailOn     string
	Format     string
	OCPVersion string
	// Exclude are gitignore patterns of paths not to lint, relative to
	// each PATH, as --exclude.
	Exclude []string
	// Disable are the rules not run, each with the reason the repository
	// gives.
	Disable []Disabled
}

// Disabled is a rule the configuration turns off.
type Disabled struct {
	Rule   string
	Reason string
	Pos    diag.Position
}

// Rules are the disabled rules' IDs or names.
func (l Lint) Rules() []string {
	out := make([]string, 0, len(l.Disable))
	for _, d := range l.Disable {
		out = append(out, d.Rule)
	}
	return out
}

// Find looks for FileName in dir and each folder above it, up to the
// filesystem root, and reads the first found. No file is no error: the
// File is empty. For a relative dir, the file is named relative to it
// ("../../.siteforge.yaml" from "."), as positions show it.
func Find(dir string) (File, diag.List) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return File{}, diag.List{{Message: "cannot find the working folder: " + err.Error()}}
	}
	for d := abs; ; d = filepath.Dir(d) {
		p := filepath.Join(d, FileName)
		if _, err := os.Lstat(p); err == nil {
			if !filepath.IsAbs(dir) {
				if r, err := filepath.Rel(abs, p); err == nil {
					p = filepath.Join(dir, r)
				}
			}
			return Read(p)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return File{}, diag.List{{Pos: diag.Position{File: p}, Message: "cannot read: " + fsread.Describe(err)}}
		}
		if filepath.Dir(d) == d {
			return File{}, nil
		}
	}
}

// Read reads and decodes one configuration file.
func Read(path string) (File, diag.List) {
	data, err := fsread.File(path, MaxSize)
	if err != nil {
		return File{Path: path}, diag.List{{Pos: diag.Position{File: path}, Message: "cannot read: " + fsread.Describe(err),
			Hint: fmt.Sprintf("the configuration file is a regular file of at most %d bytes", MaxSize)}}
	}
	f, d := Decode(path, data)
	return f, d
}

// Decode decodes a configuration file's text, read from path.
func Decode(path string, data []byte) (File, diag.List) {
	data = diag.LoneCRToLF(data)
	f := File{Path: path, Source: data}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		line := 1
		var te *yaml.TypeError
		if !errors.As(err, &te) {
			if n, ok := yamlErrLine(err.Error()); ok {
				line = n
			}
		}
		return f, diag.List{{Pos: diag.Position{File: path, Line: line, Col: 1}, Message: "syntax error: " + strings.TrimPrefix(err.Error(), "yaml: ")}}
	}
	if len(doc.Content) == 0 {
		return f, nil // empty: nothing set
	}
	root := doc.Content[0]
	d := decoder{file: path}
	for _, dup := range yamlkeys.Find(root) {
		d.at(dup.Key, fmt.Sprintf("\"%s\" is set twice (first at line %d)", dup.Key.Value, dup.First.Line), "")
	}
	d.mapping(root, "", map[string]func(*yaml.Node){
		"lint": func(n *yaml.Node) {
			d.mapping(n, "lint", map[string]func(*yaml.Node){
				"fail-on": func(v *yaml.Node) {
					if s, ok := d.str(v, "lint.fail-on"); ok {
						if _, err := lint.ParseSeverity(s); err != nil {
							d.at(v, "lint.fail-on: "+err.Error(), "one of error, warning, info")
						}
						f.Lint.FailOn = s
					}
				},
				"format": func(v *yaml.Node) {
					if s, ok := d.str(v, "lint.format"); ok {
						if _, known := report.Formats[s]; !known {
							d.at(v, fmt.Sprintf("lint.format: unknown format \"%s\"", s), suggest.Hint(s, report.Names(), "formats"))
						}
						f.Lint.Format = s
					}
				},
				"ocp-version": func(v *yaml.Node) {
					if s, ok := d.str(v, "lint.ocp-version"); ok {
						if _, err := platform.ParseOCPMinor(s); err != nil {
							d.at(v, fmt.Sprintf("lint.ocp-version \"%s\": %v", s, err), `an OpenShift version "4.N"; quote it: "4.16"`)
						}
						f.Lint.OCPVersion = s
					}
				},
				"exclude": func(v *yaml.Node) {
					for i, p := range d.seq(v, "lint.exclude") {
						if s, ok := d.str(p, fmt.Sprintf("lint.exclude[%d]", i)); ok {
							f.Lint.Exclude = append(f.Lint.Exclude, s)
						}
					}
				},
				"disable": func(v *yaml.Node) {
					for i, item := range d.seq(v, "lint.disable") {
						at := fmt.Sprintf("lint.disable[%d]", i)
						dis := Disabled{Pos: d.pos(item)}
						var rule *yaml.Node
						d.mapping(item, at, map[string]func(*yaml.Node){
							"rule": func(v *yaml.Node) {
								if s, ok := d.str(v, at+".rule"); ok {
									dis.Rule, rule = s, v
								}
							},
							"reason": func(v *yaml.Node) {
								if s, ok := d.str(v, at+".reason"); ok {
									dis.Reason = s
								}
							},
						})
						if item.Kind != yaml.MappingNode {
							continue
						}
						switch {
						case rule == nil:
							d.at(item, at+": no rule", "rule: ID or name, reason: why this repository does not want it")
						case lint.Lookup(dis.Rule) == nil:
							d.at(rule, fmt.Sprintf("%s.rule: no rule \"%s\"", at, dis.Rule), ruleHint(dis.Rule))
						}
						if strings.TrimSpace(dis.Reason) == "" && item.Kind == yaml.MappingNode {
							d.at(item, at+": a disabled rule needs its reason", "reason: why this repository does not want the rule")
						}
						f.Lint.Disable = append(f.Lint.Disable, dis)
					}
				},
			})
		},
	})
	return f, d.diags.Sort()
}

// ruleHint suggests the rule meant by a mistyped ID or name.
func ruleHint(name string) string {
	var ids []string
	for _, r := range lint.Rules() {
		ids = append(ids, r.ID, r.Name)
	}
	if n := suggest.Nearest(name, ids); n != "" {
		return fmt.Sprintf("did you mean %q? siteforge explain lists the rules", n)
	}
	return "siteforge explain lists the rules"
}

// decoder walks the YAML nodes and collects problems at their positions.
type decoder struct {
	file  string
	diags diag.List
}

func (d *decoder) pos(n *yaml.Node) diag.Position {
	return diag.Position{File: d.file, Line: n.Line, Col: n.Column}
}

func (d *decoder) at(n *yaml.Node, msg, hint string) {
	d.diags = append(d.diags, diag.Diagnostic{Pos: d.pos(n), Message: msg, Hint: hint, Len: len(n.Value)})
}

// mapping decodes a mapping whose keys are fields: an unknown key is an
// error with the nearest known one.
func (d *decoder) mapping(n *yaml.Node, path string, fields map[string]func(*yaml.Node)) {
	if n.Kind != yaml.MappingNode {
		d.at(n, fmt.Sprintf("%s: a mapping is expected, not %s", where(path), kind(n)), "")
		return
	}
	known := make([]string, 0, len(fields))
	for k := range fields {
		known = append(known, k)
	}
	sort.Strings(known)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		field, ok := fields[k.Value]
		if !ok || k.Kind != yaml.ScalarNode {
			d.at(k, fmt.Sprintf("%s: unknown key \"%s\"", where(path), k.Value), suggest.Hint(k.Value, known, "keys"))
			continue
		}
		field(v)
	}
}

func (d *decoder) str(n *yaml.Node, path string) (string, bool) {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" || n.Tag == "!!map" || n.Tag == "!!seq" {
		d.at(n, fmt.Sprintf("%s: a string is expected, not %s", path, kind(n)), "")
		return "", false
	}
	if n.Tag == "!!float" || n.Tag == "!!int" {
		d.at(n, fmt.Sprintf("%s: a string is expected, not the number %s", path, n.Value), `quote it: "`+n.Value+`"`)
		return "", false
	}
	return n.Value, true
}

func (d *decoder) seq(n *yaml.Node, path string) []*yaml.Node {
	if n.Kind != yaml.SequenceNode {
		d.at(n, fmt.Sprintf("%s: a list is expected, not %s", path, kind(n)), "")
		return nil
	}
	return n.Content
}

func where(path string) string {
	if path == "" {
		return "top level"
	}
	return path
}

func kind(n *yaml.Node) string {
	switch {
	case n.Kind == yaml.MappingNode:
		return "a mapping"
	case n.Kind == yaml.SequenceNode:
		return "a list"
	case n.Kind == yaml.AliasNode:
		return "an alias"
	case n.Tag == "!!null":
		return "null"
	}
	return `"` + n.Value + `"`
}

// yamlErrLine is the line a yaml.v3 syntax error names ("yaml: line 3: ...").
func yamlErrLine(msg string) (int, bool) {
	var n int
	if _, err := fmt.Sscanf(strings.TrimPrefix(msg, "yaml: "), "line %d:", &n); err == nil && n > 0 {
		return n, true
	}
	return 0, false
}
