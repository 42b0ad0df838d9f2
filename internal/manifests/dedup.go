package manifests

import (
	"path/filepath"
	"reflect"
	"strings"

	sigsyaml "sigs.k8s.io/yaml"

	"github.com/siteforge/siteforge/internal/platform"
)

// Duplicate is an object defined again: the same API group, kind,
// namespace and name as First, an earlier object.
type Duplicate struct {
	Obj, First *Object
	// Identical: the two say the same thing (formatting and comments
	// aside).
	Identical bool
}

// Dedup reads identical copies of an object once: of the objects that share
// an identity (API group, kind, namespace and name; objects without a name
// are all kept) and say the same thing, only the first is kept. A copy that
// differs is kept too (a day-0 install manifest and the day-2 object that
// changes it are both part of the cluster's story) and listed, as is every
// copy, in dups.
func Dedup(objs []*Object) (kept []*Object, dups []Duplicate) {
	type id struct{ group, kind, ns, name string }
	first := map[id]*Object{}
	for _, o := range objs {
		if o.Name == "" {
			kept = append(kept, o)
			continue
		}
		group := o.APIVersion
		if i := strings.LastIndexByte(group, '/'); i >= 0 {
			group = group[:i]
		} else {
			group = "" // core: v1
		}
		k := id{group, o.Kind, o.Namespace, o.Name}
		f, seen := first[k]
		if !seen {
			first[k] = o
			kept = append(kept, o)
			continue
		}
		d := Duplicate{Obj: o, First: f, Identical: sameContent(o, f)}
		dups = append(dups, d)
		if !d.Identical {
			kept = append(kept, o)
		}
	}
	return kept, dups
}

func sameContent(a, b *Object) bool {
	var x, y any
	if sigsyaml.Unmarshal(a.Raw, &x) != nil || sigsyaml.Unmarshal(b.Raw, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// IsInstallManifest reports whether o is a day-0 install manifest: a file
// directly in one of platform.InstallManifestDirs, whose parent folder holds an
// install-config among objs, or the installer's network manifest
// (cluster-network-03-config.yml) by name.
func IsInstallManifest(o *Object, objs []*Object) bool {
	dir := filepath.Dir(o.File)
	in := false
	for _, d := range platform.InstallManifestDirs {
		if filepath.Base(dir) == d {
			in = true
		}
	}
	if !in {
		return false
	}
	if filepath.Base(o.File) == platform.InstallerNetworkManifestName {
		return true
	}
	for _, x := range objs {
		if x.Kind == KindInstallConfig && filepath.Dir(x.File) == filepath.Dir(dir) {
			return true
		}
	}
	return false
}
