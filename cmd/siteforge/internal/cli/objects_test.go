package cli

import (
	"fmt"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	configv1 "github.com/openshift/api/config/v1"
	mcfgv1 "github.com/openshift/api/machineconfiguration/v1"
	operatorv1 "github.com/openshift/api/operator/v1"
	operatorv1alpha1 "github.com/openshift/api/operator/v1alpha1"
	yaml "go.yaml.in/yaml/v3"

	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/internal/fleetgen"
	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/lint"
)

// decodeTargets are the types lint and the cluster model decode rendered
// objects into, and a map; every object is decoded into each, also into
// the wrong kinds, so the errors' wording is compared too.
func decodeTargets() []func() any {
	return []func() any{
		func() any { return &map[string]any{} },
		func() any { return &mcfgv1.MachineConfig{} },
		func() any { return &mcfgv1.MachineConfigPool{} },
		func() any { return &configv1.ImageDigestMirrorSet{} },
		func() any { return &configv1.ImageTagMirrorSet{} },
		func() any { return &configv1.Image{} },
		func() any { return &configv1.Network{} },
		func() any { return &operatorv1.Network{} },
		func() any { return &operatorv1.IngressController{} },
		func() any { return &operatorv1alpha1.ImageContentSourcePolicy{} },
		// shapes of lint's own structs, and string fields where the
		// objects have numbers and bools (sigs.k8s.io/yaml converts them)
		func() any {
			return &struct {
				Metadata struct {
					Annotations map[string]string `json:"annotations"`
					Labels      map[string]string `json:"labels"`
				} `json:"metadata"`
			}{}
		},
		func() any {
			return &struct {
				Spec struct {
					Replicas string `json:"replicas"`
					MTU      string `json:"mtu"`
					Paused   string `json:"paused"`
				} `json:"spec"`
			}{}
		},
		func() any { return &struct{ Spec map[string]any }{} },
		func() any { return &struct{ Spec map[string]string }{} },
	}
}

// TestRenderedObjectsReadAsBefore: Output.Objects (manifests.ReadRendered:
// Raw is the rendered bytes, Decode reads the encoded map's JSON) gives what
// reading every rendered resource with manifests.ReadBytes gives: the same
// objects and nodes, the same decoded values and decode errors into every
// type lint uses, strict and loose, and the same lint result, for every
// bundled example and a synthetic fleet.
func TestRenderedObjectsReadAsBefore(t *testing.T) {
	fleet := filepath.Join(t.TempDir(), "fleet")
	if err := fleetgen.Write(fleet, 40); err != nil {
		t.Fatal(err)
	}
	var (
		mu   sync.Mutex
		outs []*generators.Output
	)
	paths := []string{fleet}
	for _, e := range []string{"agent-sno", "aws-local-zones", "aws-local-zones-ipi", "disconnected-quay-cache", "fleet", "remote-workers"} {
		paths = append(paths, filepath.Join("..", "..", "..", "..", "examples", e))
	}
	if _, err := eachSite(paths, generators.Options{}, func(_ int, o *generators.Output) error {
		mu.Lock()
		outs = append(outs, o)
		mu.Unlock()
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(outs) < 45 {
		t.Fatalf("%d sites rendered, want at least 45", len(outs))
	}
	linter, err := lint.New(lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	objects, decodes := 0, 0
	for _, o := range outs {
		fast, origin, err := o.Objects()
		if err != nil {
			t.Fatal(err)
		}
		var slow []*manifests.Object
		for _, p := range o.Resources {
			got, d := manifests.ReadBytes(generators.RenderedPrefix+o.Site.Name+"/"+p, o.Files[p])
			if len(d) > 0 {
				t.Fatal(d)
			}
			slow = append(slow, got...)
		}
		if len(fast) != len(slow) {
			t.Fatalf("site %s: %d objects, ReadBytes reads %d", o.Site.Name, len(fast), len(slow))
		}
		for i := range fast {
			f, s := fast[i], slow[i]
			if f.File != s.File || f.Index != s.Index || f.Item != s.Item || f.APIVersion != s.APIVersion || f.Kind != s.Kind || f.Namespace != s.Namespace || f.Name != s.Name {
				t.Fatalf("object %d of %s: %+v, ReadBytes: %+v", i, o.Site.Name, f, s)
			}
			fn, _ := yaml.Marshal(f.Root())
			sn, _ := yaml.Marshal(s.Root())
			if string(fn) != string(sn) || f.Pos() != s.Pos() {
				t.Fatalf("%s: nodes differ", f.File)
			}
			for _, strict := range []bool{true, false} {
				for _, target := range decodeTargets() {
					a, b := target(), target()
					var ea, eb error
					if strict {
						ea, eb = f.Decode(a), s.Decode(b)
					} else {
						ea, eb = f.DecodeLoose(a), s.DecodeLoose(b)
					}
					if fmt.Sprint(ea) != fmt.Sprint(eb) {
						t.Fatalf("%s into %T (strict %v): error %v, ReadBytes's %v", f.File, a, strict, ea, eb)
					}
					if !reflect.DeepEqual(a, b) {
						t.Fatalf("%s into %T (strict %v): %+v, ReadBytes's %+v", f.File, a, strict, a, b)
					}
					decodes++
				}
			}
			objects++
		}
		rf := linter.Check(lint.SiteSet(&lint.Site{Site: o.Site, Objects: fast, Origin: origin, Warnings: o.AllWarnings()}))
		rs := linter.Check(lint.SiteSet(&lint.Site{Site: o.Site, Objects: slow, Origin: origin, Warnings: o.AllWarnings()}))
		if !reflect.DeepEqual(rf, rs) {
			t.Fatalf("site %s: lint result %+v, with ReadBytes %+v", o.Site.Name, rf, rs)
		}
	}
	t.Logf("%d sites, %d objects, %d decodes compared", len(outs), objects, decodes)
}

// TestObjectsOfAReplacedFile: a Resource file replaced after render is read
// from its bytes, not from the map it was first encoded from.
func TestObjectsOfAReplacedFile(t *testing.T) {
	var out *generators.Output
	if _, err := eachSite([]string{filepath.Join("..", "..", "..", "..", "examples", "remote-workers")}, generators.Options{}, func(_ int, o *generators.Output) error {
		out = o
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	p := out.Resources[0]
	objs, _, err := out.Objects()
	if err != nil {
		t.Fatal(err)
	}
	if objs[0].Name == "replaced" {
		t.Fatal("the first resource is already named replaced")
	}
	out.Files[p] = []byte(fmt.Sprintf("apiVersion: %s\nkind: %s\nmetadata:\n  name: replaced\n", objs[0].APIVersion, objs[0].Kind))
	objs, _, err = out.Objects()
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := objs[0].DecodeLoose(&m); err != nil {
		t.Fatal(err)
	}
	if objs[0].Name != "replaced" || m["metadata"].(map[string]any)["name"] != "replaced" {
		t.Errorf("after the file was replaced: object %s, decoded %v", objs[0].Name, m["metadata"])
	}
}
