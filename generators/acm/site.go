// Package acm delivers the day-2 objects of sites through an ACM hub, as
// policies (site field delivery.acm; docs/hub.md "Delivering day 2 through
// policies").
//
// It has two halves. The finisher (Finish, one site) records in the site's
// output what the hub needs of it: RecordPath, a small JSON file naming
// the site's day-2 resources, its cluster labels and its delivery
// settings; it checks what one site can get wrong. The fleet half (Fleet)
// runs once per render over every site's record and objects: an object
// identical on several sites goes into one common or group policy placed
// by their shared cluster labels, the rest into each site's own policy,
// so the number of policies grows with the number of distinct
// configurations, not with the number of sites. Render writes it to
// DIR/hub-policies/ (Dir): Policies whose ConfigurationPolicy
// object-templates hold the objects, Placements, PlacementBindings, a
// ManagedClusterSetBinding per namespace, and the equivalent PolicyGenerator
// configuration (Dir/policygenerator/) for teams that run the kustomize
// plugin. The layout, waves and defaults are the ZTP reference's
// (internal/platform acm.go).
package acm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"

	sigsyaml "sigs.k8s.io/yaml"

	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/site"
)

// Name names the finisher in file headers.
const Name = "acm"

// RecordPath is the site's delivery record, relative to its output folder:
// a File (not applied), read back by the fleet step, also for a site the
// render cache leaves unevaluated.
const RecordPath = "delivery/acm.json"

// Dir is the fleet-level folder of the hub's policies in render's output
// directory, beside the site folders.
const Dir = "hub-policies"

// Record is what the fleet step needs of one site besides its objects.
type Record struct {
	Site      string              `json:"site"`
	Source    string              `json:"source"`
	Labels    map[string]string   `json:"labels"`
	Delivery  site.ACMDelivery    `json:"delivery"`
	Resources []string            `json:"resources"`
	Positions map[string]Position `json:"positions,omitempty"`
}

// Position is a diag.Position in the record.
type Position struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Col  int    `json:"col"`
}

func (p Position) diag() diag.Position { return diag.Position{File: p.File, Line: p.Line, Col: p.Col} }

// Finish records a site's hub delivery; a site without delivery.acm gets
// nothing.
func Finish(ctx *generators.Context, s *site.Site, out *generators.Output) ([]generators.Artifact, error) {
	d := s.ACM()
	if d == nil {
		return nil, nil
	}
	pos := s.Positions.Of("delivery.acm")
	var labels map[string]string
	if s.Install != nil && s.Install.Hub != nil {
		labels = s.Install.Hub.ClusterLabels
	}
	if len(labels) == 0 {
		return nil, diag.List{{Pos: pos, Path: "delivery.acm",
			Message: "delivery.acm places the site's policies by its ManagedCluster labels, and the site has none",
			Hint:    "set install.hub.clusterLabels (the ZTP reference labels each cluster with its site and its groups, e.g. site: <name>, du-profile: <profile>)"}}
	}
	for _, g := range d.GroupLabels {
		if _, ok := labels[g]; !ok {
			return nil, diag.List{{Pos: s.Positions.Of("delivery.acm.groupLabels"), Path: "delivery.acm.groupLabels",
				Message: fmt.Sprintf("group label %q is not one of the site's install.hub.clusterLabels", g),
				Hint:    "name keys of install.hub.clusterLabels"}}
		}
	}
	r := Record{Site: s.Name, Source: s.SourceName(), Labels: labels, Delivery: *d,
		Resources: append([]string(nil), out.Resources...),
		Positions: map[string]Position{
			"delivery.acm":              rec(pos),
			"install.hub.clusterLabels": rec(s.Positions.Of("install.hub.clusterLabels")),
		}}
	sort.Strings(r.Resources)
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return nil, err
	}
	return []generators.Artifact{{Path: RecordPath, Role: generators.File, Data: append(b, '\n'), Origin: []diag.Position{pos}}}, nil
}

func rec(p diag.Position) Position { return Position{File: p.File, Line: p.Line, Col: p.Col} }

// Site is one site's input to the fleet step: its record and its day-2
// objects, each as canonical JSON (sorted keys, without siteforge's source
// annotation, so the same object on two sites is the same bytes).
type Site struct {
	Record
	Objects []Object
}

// Object is one day-2 object of a site.
type Object struct {
	APIVersion, Kind, Namespace, Name string
	// Wave is the object's own ZTP deploy wave annotation, 0 when it has
	// none (it then takes its policy tier's).
	Wave int
	JSON []byte
}

// FromOutput is the fleet input of a rendered site, false when the site
// does not deliver through a hub. The objects are the maps Render encoded
// (no YAML is parsed again).
func FromOutput(o *generators.Output) (*Site, bool, error) {
	data, ok := o.Files[RecordPath]
	if !ok {
		return nil, false, nil
	}
	s, err := newSite(data)
	if err != nil {
		return nil, false, err
	}
	for _, p := range s.Resources {
		if m, ok := o.ObjectMap(p); ok {
			if err := s.add(p, m); err != nil {
				return nil, false, err
			}
			continue
		}
		if err := s.read(generators.RenderedPrefix+o.Site.Name+"/"+p, o.Files[p]); err != nil {
			return nil, false, err
		}
	}
	return s, true, nil
}

// FromFiles is the fleet input of a site folder already on disk (a site the
// render cache did not evaluate): read returns a file of the folder by its
// slash path; false when the folder has no delivery record.
func FromFiles(name string, files map[string]string, read func(path string) ([]byte, error)) (*Site, bool, error) {
	if _, ok := files[RecordPath]; !ok {
		return nil, false, nil
	}
	data, err := read(RecordPath)
	if err != nil {
		return nil, false, err
	}
	s, err := newSite(data)
	if err != nil {
		return nil, false, fmt.Errorf("%s/%s: %w", name, RecordPath, err)
	}
	for _, p := range s.Resources {
		b, err := read(p)
		if err != nil {
			return nil, false, err
		}
		if err := s.read(generators.RenderedPrefix+name+"/"+p, b); err != nil {
			return nil, false, err
		}
	}
	return s, true, nil
}

func newSite(record []byte) (*Site, error) {
	var s Site
	if err := json.Unmarshal(record, &s.Record); err != nil {
		return nil, fmt.Errorf("%s: %w", RecordPath, err)
	}
	return &s, nil
}

// read adds the objects of a rendered file, decoded as Render encodes them
// (numbers as written), so that a site read back from disk gives the same
// bytes as the site rendered.
func (s *Site) read(file string, data []byte) error {
	objs, d := manifests.ReadRendered(file, data, nil)
	if len(d) > 0 {
		return d
	}
	for _, o := range objs {
		j, err := sigsyaml.YAMLToJSON(o.Raw)
		if err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		var m map[string]any
		dec := json.NewDecoder(bytes.NewReader(j))
		dec.UseNumber()
		if err := dec.Decode(&m); err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		if err := s.add(file, m); err != nil {
			return err
		}
	}
	return nil
}

// add adds one object (a JSON map it may change).
func (s *Site) add(file string, m map[string]any) error {
	wave := 0
	meta, _ := m["metadata"].(map[string]any)
	if ann, ok := meta["annotations"].(map[string]any); ok {
		delete(ann, generators.SourceAnnotation)
		if w, ok := ann[platform.ZTPDeployWaveAnnotation].(string); ok {
			n, err := strconv.Atoi(w)
			if err != nil || n < 1 {
				return fmt.Errorf("%s: %s %q is not a wave number", file, platform.ZTPDeployWaveAnnotation, w)
			}
			wave = n
		}
		if len(ann) == 0 {
			delete(meta, "annotations")
		}
	}
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	str := func(m map[string]any, k string) string { v, _ := m[k].(string); return v }
	s.Objects = append(s.Objects, Object{APIVersion: str(m, "apiVersion"), Kind: str(m, "kind"),
		Namespace: str(meta, "namespace"), Name: str(meta, "name"), Wave: wave, JSON: b})
	return nil
}
