package manifests_test

import (
	"path/filepath"
	"strconv"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/siteforge/siteforge/generators"
	_ "github.com/siteforge/siteforge/generators/all"
	"github.com/siteforge/siteforge/internal/fleetgen"
	"github.com/siteforge/siteforge/internal/load"
	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/lint"
	_ "github.com/siteforge/siteforge/lint/rules"
)

// TestRenderedRootIsLazy renders example sites and reads their objects
// back (generators.Output.Objects, manifests.ReadRendered): every object's
// identity is what ReadBytes reads, without parsing its YAML (nor does
// decoding it); its node is parsed on the first position asked for, and
// every position (Pos, PosOf and KeyPosOf of every field) is ReadBytes's.
func TestRenderedRootIsLazy(t *testing.T) {
	fleet := filepath.Join(t.TempDir(), "fleet")
	if err := fleetgen.Write(fleet, 20); err != nil {
		t.Fatal(err)
	}
	var objects, paths int
	for _, e := range []string{"agent-sno", "aws-local-zones", "aws-local-zones-ipi", "disconnected-quay-cache", "fleet", "kustomize/site", "remote-quay-in-cluster", "remote-workers", fleet} {
		if !filepath.IsAbs(e) {
			e = filepath.Join("..", "..", "examples", e)
		}
		res := load.Load([]string{e})
		if len(res.Diagnostics) > 0 || len(res.Sites) == 0 {
			t.Fatalf("load %s: %d sites\n%v", e, len(res.Sites), res.Diagnostics)
		}
		for _, s := range res.Sites {
			out, err := generators.Render(s, generators.Options{})
			if err != nil {
				t.Fatalf("render %s: %v", s.Name, err)
			}
			objs, _, err := out.Objects()
			if err != nil {
				t.Fatal(err)
			}
			if len(objs) != len(out.Resources) {
				t.Fatalf("site %s: %d objects of %d resources", s.Name, len(objs), len(out.Resources))
			}
			for i, o := range objs {
				data := out.Files[out.Resources[i]]
				ref, d := manifests.ReadBytes(o.File, data)
				if len(d) > 0 || len(ref) != 1 {
					t.Fatalf("%s: ReadBytes: %d objects, %v", o.File, len(ref), d)
				}
				r := ref[0]
				if o.File != r.File || o.Index != r.Index || o.Item != r.Item || o.APIVersion != r.APIVersion || o.Kind != r.Kind || o.Namespace != r.Namespace || o.Name != r.Name {
					t.Fatalf("%s: identity %+v, ReadBytes's %+v", o.File, *o, *r)
				}
				var m map[string]any
				if err := o.DecodeLoose(&m); err != nil {
					t.Fatal(err)
				}
				if lazy, parsed := manifests.RootState(o); !lazy || parsed {
					t.Fatalf("%s: read with its node parsed (lazy %v, parsed %v)", o.File, lazy, parsed)
				}
				if o.Pos() != r.Pos() {
					t.Fatalf("%s: at %v, ReadBytes's at %v", o.File, o.Pos(), r.Pos())
				}
				if _, parsed := manifests.RootState(o); !parsed {
					t.Fatalf("%s: Pos did not parse the node", o.File)
				}
				eachPath(r.Root(), nil, func(path []string) {
					paths++
					if got, want := o.PosOf(path...), r.PosOf(path...); got != want {
						t.Errorf("%s: PosOf(%q) %v, ReadBytes's %v", o.File, path, got, want)
					}
					if got, want := o.KeyPosOf(path...), r.KeyPosOf(path...); got != want {
						t.Errorf("%s: KeyPosOf(%q) %v, ReadBytes's %v", o.File, path, got, want)
					}
				})
				objects++
			}
		}
	}
	if objects < 150 || paths < 2000 {
		t.Fatalf("%d objects, %d paths compared: too few", objects, paths)
	}
	if testing.Verbose() {
		t.Logf("%d objects, %d paths compared", objects, paths)
	}
}

// eachPath calls f with the path of every node below n.
func eachPath(n *yaml.Node, path []string, f func([]string)) {
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			p := append(append([]string{}, path...), n.Content[i].Value)
			f(p)
			eachPath(n.Content[i+1], p, f)
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			p := append(append([]string{}, path...), strconv.Itoa(i))
			f(p)
			eachPath(c, p, f)
		}
	}
}

// TestSiteLintDoesNotParse lints rendered fleet sites as render and lint
// do (lint.SiteSet, Linter.Check): the findings on rendered objects are
// the site's, at its input's positions (every synthetic site has one,
// MIR018 on its ImageTagMirrorSet), and no rendered object's YAML is
// parsed to find a line in the rendered file that mapToSite replaces.
func TestSiteLintDoesNotParse(t *testing.T) {
	fleet := filepath.Join(t.TempDir(), "fleet")
	if err := fleetgen.Write(fleet, 5); err != nil {
		t.Fatal(err)
	}
	res := load.Load([]string{fleet})
	if len(res.Diagnostics) > 0 || len(res.Sites) != 5 {
		t.Fatalf("load: %d sites\n%v", len(res.Sites), res.Diagnostics)
	}
	linter, err := lint.New(lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range res.Sites {
		out, err := generators.Render(s, generators.Options{})
		if err != nil {
			t.Fatalf("render %s: %v", s.Name, err)
		}
		objs, origin, err := out.Objects()
		if err != nil {
			t.Fatal(err)
		}
		got := linter.Check(lint.SiteSet(&lint.Site{Site: s, Objects: objs, Origin: origin}))
		onObjects := 0
		for _, f := range got.Findings {
			if f.Resource == nil {
				continue
			}
			onObjects++
			if f.Site != s.Name || !f.Pos.IsValid() || f.Pos.File != origin[objectFile(objs, f.Resource)].File {
				t.Errorf("site %s: %s on %s at %v, not at the site's position %v", s.Name, f.Rule, f.Resource.Kind, f.Pos, origin[objectFile(objs, f.Resource)])
			}
		}
		if onObjects == 0 {
			t.Fatalf("site %s: no finding on a rendered object: the test checks nothing", s.Name)
		}
		for _, o := range objs {
			if _, parsed := manifests.RootState(o); parsed {
				t.Errorf("site %s: %s was parsed by lint", s.Name, o.File)
			}
		}
	}
}

// objectFile is the file of the object a finding names.
func objectFile(objs []*manifests.Object, r *lint.ResourceRef) string {
	for _, o := range objs {
		if o.Kind == r.Kind && o.Name == r.Name && o.Namespace == r.Namespace {
			return o.File
		}
	}
	return ""
}
