package importer

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/format"
	cuejson "cuelang.org/go/encoding/json"
	"sigs.k8s.io/yaml"

	"github.com/siteforge/siteforge/internal/diag"
)

// Files lays the result out for writing: one site as site.<ext> (with
// extra-manifests/), several as a fleet: sites/<name>/site.<ext> with the
// values every site shares in defaults.<ext> at the top (internal/load reads
// both layouts). format is "yaml" or "cue".
func (r *Result) Files(format string) (map[string][]byte, error) {
	files := map[string][]byte{}
	ext := map[string]string{"yaml": "yaml", "cue": "cue"}[format]
	if ext == "" {
		return nil, fmt.Errorf("unknown format %q: yaml or cue", format)
	}
	if len(r.Sites) == 1 {
		s := r.Sites[0]
		b, err := encode(s.Data, format, header(s))
		if err != nil {
			return nil, err
		}
		files["site."+ext] = b
		for p, d := range s.Extra {
			files[p] = d
		}
		return files, nil
	}
	datas := make([]map[string]any, len(r.Sites))
	for i, s := range r.Sites {
		datas[i] = s.Data
	}
	shared := common(datas)
	delete(shared, "name")
	if len(shared) > 0 {
		b, err := encode(shared, format, "# Fleet defaults: the values every imported site shares (siteforge import).\n")
		if err != nil {
			return nil, err
		}
		files["defaults."+ext] = b
	}
	for _, s := range r.Sites {
		own := subtract(s.Data, shared)
		own["name"] = s.Name
		b, err := encode(own, format, header(s))
		if err != nil {
			return nil, err
		}
		files["sites/"+s.Name+"/site."+ext] = b
		for p, d := range s.Extra {
			files["sites/"+s.Name+"/"+p] = d
		}
	}
	return files, nil
}

// header lists the site's import warnings as comments.
func header(s *Site) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Site %s, imported by siteforge import.\n", s.Name)
	if len(s.Warnings) > 0 {
		b.WriteString("# What the site has no place for (import warnings):\n")
		for _, w := range s.Warnings {
			fmt.Fprintf(&b, "# - %s: %s\n", w.Pos, strings.ReplaceAll(diag.Clean(w.Message), "\n", " "))
		}
	}
	return b.String()
}

// common is what every map shares: equal leaves and lists, and the common
// part of mappings every map holds.
func common(ms []map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range ms[0] {
		var subs []map[string]any
		equal, maps := true, true
		for _, m := range ms {
			w, ok := m[k]
			if !ok {
				equal, maps = false, false
				break
			}
			if !reflect.DeepEqual(v, w) {
				equal = false
			}
			if wm, ok := w.(map[string]any); ok {
				subs = append(subs, wm)
			} else {
				maps = false
			}
		}
		switch {
		case equal:
			out[k] = v
		case maps:
			if c := common(subs); len(c) > 0 {
				out[k] = c
			}
		}
	}
	return out
}

// subtract is m without what shared holds.
func subtract(m, shared map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		sv, ok := shared[k]
		switch {
		case !ok:
			out[k] = v
		case reflect.DeepEqual(v, sv):
		default:
			vm, ok1 := v.(map[string]any)
			sm, ok2 := sv.(map[string]any)
			if ok1 && ok2 {
				if rest := subtract(vm, sm); len(rest) > 0 {
					out[k] = rest
				}
			} else {
				out[k] = v
			}
		}
	}
	return out
}

func encode(data map[string]any, syntax, head string) ([]byte, error) {
	if syntax == "yaml" {
		b, err := yaml.Marshal(data)
		if err != nil {
			return nil, err
		}
		return append([]byte(head), b...), nil
	}
	j, err := json.Marshal(data)
	if err != nil {
		return nil, err
	}
	expr, err := cuejson.Extract("site", j)
	if err != nil {
		return nil, err
	}
	f := &ast.File{Decls: []ast.Decl{&ast.Package{Name: ast.NewIdent("site")}}}
	if st, ok := expr.(*ast.StructLit); ok {
		f.Decls = append(f.Decls, st.Elts...)
	}
	b, err := format.Node(f, format.Simplify())
	if err != nil {
		return nil, err
	}
	lines := strings.Split(head, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "#") {
			lines[i] = "//" + l[1:]
		}
	}
	return append([]byte(strings.Join(lines, "\n")), b...), nil
}
