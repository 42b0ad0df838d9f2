package manifests

import (
	"bytes"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/siteforge/siteforge/internal/diag"
)

// templateExts are file extensions of templates: Jinja (Ansible, kcli),
// Go text/template (.tmpl, .tpl, .gotmpl: kube-compare reference CRs, Helm
// helpers). Their content is known only once rendered.
var templateExts = map[string]string{
	".j2": "a Jinja template", ".jinja": "a Jinja template", ".jinja2": "a Jinja template",
	".tmpl": "a Go template", ".tpl": "a Go template", ".gotmpl": "a Go template",
}

// IsTemplateFile reports whether a file name is a template by its extension.
func IsTemplateFile(name string) bool {
	_, ok := templateExts[strings.ToLower(filepath.Ext(name))]
	return ok
}

// templateFile: a template by its extension, whatever its content.
func templateFile(name string, data []byte) (Problem, bool) {
	what, ok := templateExts[strings.ToLower(filepath.Ext(name))]
	if !ok {
		return Problem{}, false
	}
	pos := diag.Position{File: name, Line: 1, Col: 1}
	if l, c, ok := firstMarker(data); ok {
		pos.Line, pos.Col = l, c
	}
	return Problem{Kind: ProblemTemplate, Diagnostic: diag.Diagnostic{Pos: pos,
		Message: fmt.Sprintf("%s is %s; it is not linted", filepath.Base(name), what),
		Hint:    "lint the rendered output of the template"}}, true
}

// heredoc is a shell line writing a heredoc (`cat << EOF > file.yaml`):
// files that are shell snippets around YAML.
var heredoc = regexp.MustCompile(`^\s*(cat|tee)\b[^\n]*<<-?\s*['"]?[A-Za-z_]+`)

// templateProblem says why a file that does not parse is a template: it
// holds template markers ({{ }}, {% %}, {# #}) or is a shell heredoc.
func templateProblem(name string, data []byte) (Problem, bool) {
	if p, ok := templateFile(name, data); ok {
		return p, true
	}
	for i, line := range bytes.Split(data, []byte("\n")) {
		t := bytes.TrimSpace(line)
		if len(t) == 0 || t[0] == '#' {
			continue
		}
		if heredoc.Match(line) {
			return Problem{Kind: ProblemTemplate, Diagnostic: diag.Diagnostic{Pos: diag.Position{File: name, Line: i + 1, Col: 1 + len(line) - len(bytes.TrimLeft(line, " \t"))},
				Message: "the file is a shell heredoc, not YAML; it is not linted",
				Hint:    "keep the manifest in a file of its own and let the script copy it"}}, true
		}
		break
	}
	l, c, ok := firstMarker(data)
	if !ok {
		return Problem{}, false
	}
	return Problem{Kind: ProblemTemplate, Diagnostic: diag.Diagnostic{Pos: diag.Position{File: name, Line: l, Col: c},
		Message: "the file is a template (Jinja, Helm or Go template markers) and does not parse as YAML; it is not linted",
		Hint:    "lint the rendered output of the template, or give the file a template extension: .j2, .tmpl"}}, true
}

// firstMarker finds the first template marker: `{{`, `{%` or `{#`.
func firstMarker(data []byte) (line, col int, ok bool) {
	for i, l := range bytes.Split(data, []byte("\n")) {
		for _, m := range [][]byte{[]byte("{{"), []byte("{%"), []byte("{#")} {
			if j := bytes.Index(l, m); j >= 0 {
				return i + 1, j + 1, true
			}
		}
	}
	return 0, 0, false
}

// placeholder finds a template placeholder that parsed as YAML: a mapping
// key that is itself a mapping or a sequence, as `{{ replicas }}` (a flow
// mapping whose key is the flow mapping `{ replicas }`). Kubernetes objects
// never have such keys.
func placeholder(n *yaml.Node) *yaml.Node {
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			if k := n.Content[i]; k.Kind == yaml.MappingNode || k.Kind == yaml.SequenceNode {
				return n // `{{`: the mapping whose key is a mapping
			}
			if p := placeholder(n.Content[i+1]); p != nil {
				return p
			}
		}
	case yaml.SequenceNode, yaml.DocumentNode:
		for _, c := range n.Content {
			if p := placeholder(c); p != nil {
				return p
			}
		}
	}
	return nil
}
