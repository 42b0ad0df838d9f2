package krm

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/siteforge/siteforge/internal/fsread"
	"github.com/siteforge/siteforge/internal/manifests"
)

// kustomize passes items without positions. sources finds the object an
// item was built from in the local files the kustomization (in the working
// dir) lists, recursively through local bases, so a finding points at the
// user's file:line:col. Remote resources are not fetched. Only files
// inside the boundary (the git work tree holding the kustomization, else
// the kustomization folder) are read.
type sources struct {
	loaded bool
	bound  boundary
	objs   []*manifests.Object
	files  map[string][]*manifests.Object
}

// kustomizationNames are the file names kustomize accepts, in its order.
var kustomizationNames = []string{"kustomization.yaml", "kustomization.yml", "Kustomization"}

// maxBaseDepth bounds the walk through bases (kustomize itself refuses
// cycles; this only stops a runaway walk).
const maxBaseDepth = 20

func (s *sources) load() {
	if s.loaded {
		return
	}
	s.loaded = true
	s.bound = boundaryOf(".")
	s.files = map[string][]*manifests.Object{}
	s.walk(".", 0, map[string]bool{})
}

// walk reads the local resources of the kustomization in dir.
func (s *sources) walk(dir string, depth int, seen map[string]bool) {
	if depth > maxBaseDepth || seen[dir] {
		return
	}
	seen[dir] = true
	var k struct {
		Resources []string `json:"resources"`
		Bases     []string `json:"bases"`
	}
	found := false
	for _, name := range kustomizationNames {
		if _, err := s.confine(filepath.Join(dir, name)); err != nil {
			continue
		}
		data, err := fsread.File(filepath.Join(dir, name), manifests.MaxFileSize)
		if err != nil {
			continue
		}
		if sigsyaml.Unmarshal(data, &k) != nil {
			return
		}
		found = true
		break
	}
	if !found {
		return
	}
	for _, r := range append(k.Resources, k.Bases...) {
		if strings.Contains(r, "://") || strings.HasPrefix(r, "git@") || strings.HasPrefix(r, "github.com/") {
			continue // remote
		}
		p := filepath.Join(dir, r)
		if _, err := s.confine(p); err != nil {
			continue // outside the boundary: not read
		}
		fi, err := os.Stat(p)
		switch {
		case err != nil:
			continue
		case fi.IsDir():
			s.walk(p, depth+1, seen)
		default:
			s.read(p)
		}
	}
}

// confine checks that p (relative to the working directory) stays inside
// the boundary.
func (s *sources) confine(p string) (string, error) {
	return fsread.ConfineWithin(s.bound.dir, s.bound.name, ".", p)
}

func (s *sources) read(file string) []*manifests.Object {
	if objs, ok := s.files[file]; ok {
		return objs
	}
	objs, _ := manifests.ReadFile(file)
	s.files[file] = objs
	s.objs = append(s.objs, objs...)
	return objs
}

// find returns the user's object an item was built from, or nil.
func (s *sources) find(it *item) *manifests.Object {
	s.load()
	if it.path != "" {
		// The item's own file (kpt: relative to the package, which is the
		// working directory), followed only inside it.
		if p, err := s.confine(it.path); err == nil {
			if o := match(s.read(filepath.Clean(p)), it); o != nil {
				return o
			}
		}
	}
	if it.origin != "" {
		// The origin annotation is input too: followed only inside the
		// boundary.
		if p, err := s.confine(it.origin); err == nil {
			if o := match(s.read(filepath.Clean(p)), it); o != nil {
				return o
			}
		}
	}
	return match(s.objs, it)
}

// match picks the object with the item's original kind, name and API
// group, preferring its namespace, then no namespace (set by kustomize).
func match(objs []*manifests.Object, it *item) *manifests.Object {
	var best *manifests.Object
	bestScore := -1
	for _, o := range objs {
		if o.Kind != it.origKind || o.Name != it.origName || group(o.APIVersion) != group(it.apiVersion) {
			continue
		}
		score := 0
		switch o.Namespace {
		case it.origNamespace:
			score = 2
		case "":
			score = 1
		}
		if score > bestScore {
			best, bestScore = o, score
		}
	}
	return best
}

func group(apiVersion string) string {
	if i := strings.LastIndex(apiVersion, "/"); i >= 0 {
		return apiVersion[:i]
	}
	return ""
}

// pathAt returns the field path of the node at line:col under n (mapping
// keys, sequence indexes), and whether the position is the key's.
func pathAt(n *yaml.Node, line, col int) (path []string, isKey, ok bool) {
	if n == nil {
		return nil, false, false
	}
	// Children first: a block mapping starts where its first key does, and
	// the key is the more precise answer.
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Line == line && k.Column == col {
				return []string{k.Value}, true, true
			}
			if p, key, ok := pathAt(v, line, col); ok {
				return append([]string{k.Value}, p...), key, true
			}
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			if p, key, ok := pathAt(c, line, col); ok {
				return append([]string{strconv.Itoa(i)}, p...), key, true
			}
		}
	}
	return nil, false, n.Line == line && n.Column == col
}
