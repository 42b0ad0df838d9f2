package manifests

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	configv1 "github.com/openshift/api/config/v1"
	operatorv1alpha1 "github.com/openshift/api/operator/v1alpha1"

	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/registries"
)

// Decoded is a manifest and its typed content.
type Decoded[T any] struct {
	Obj  *Object
	Spec T
}

// MirrorSet is everything MCO reads, among a set of manifests, to render
// registries.conf: ImageDigestMirrorSets, ImageTagMirrorSets,
// ImageContentSourcePolicies (each sorted by name, as MCO lists them) and
// the image.config.openshift.io "cluster" object. The one reader of mirror
// objects, for `siteforge mirrors` and the MIR rules alike.
type MirrorSet struct {
	DigestSets      []Decoded[configv1.ImageDigestMirrorSet]
	TagSets         []Decoded[configv1.ImageTagMirrorSet]
	ContentPolicies []Decoded[operatorv1alpha1.ImageContentSourcePolicy]
	// Image is the image.config singleton, nil when absent.
	Image *Decoded[configv1.Image]
	// Problems are objects the API server would refuse: a field its
	// schema does not know, a value of the wrong type. An object that
	// decodes loosely is still in the set (what the platform does with the
	// rest can be checked); one that does not is left out.
	Problems diag.List
	// Installer maps the objects the installer creates from an
	// install-config's imageDigestSources / imageContentSources (they are
	// in DigestSets and ContentPolicies, with the install-config's file and
	// positions) to the field they come from.
	Installer map[*Object]InstallerOrigin
	// InstallerRejected are install-config mirror entries the installer
	// refuses; it then creates no mirror object from that install-config.
	InstallerRejected []InstallerRejection
}

// ReadMirrors collects the mirror objects among objs.
func ReadMirrors(objs []*Object) MirrorSet {
	var m MirrorSet
	for _, o := range objs {
		switch {
		case o.APIVersion == GroupConfig && o.Kind == "ImageDigestMirrorSet":
			if x, ok := decodeMirror[configv1.ImageDigestMirrorSet](o, &m.Problems); ok {
				m.DigestSets = append(m.DigestSets, x)
			}
		case o.APIVersion == GroupConfig && o.Kind == "ImageTagMirrorSet":
			if x, ok := decodeMirror[configv1.ImageTagMirrorSet](o, &m.Problems); ok {
				m.TagSets = append(m.TagSets, x)
			}
		case o.APIVersion == GroupOperatorV1Alpha1 && o.Kind == "ImageContentSourcePolicy":
			if x, ok := decodeMirror[operatorv1alpha1.ImageContentSourcePolicy](o, &m.Problems); ok {
				m.ContentPolicies = append(m.ContentPolicies, x)
			}
		case o.APIVersion == GroupConfig && o.Kind == "Image" && o.Name == platform.ConfigSingletonName:
			if x, ok := decodeMirror[configv1.Image](o, &m.Problems); ok {
				m.Image = &x
			}
		case o.Kind == KindInstallConfig:
			derived, origins, rejected := installerMirrors(o)
			m.InstallerRejected = append(m.InstallerRejected, rejected...)
			for _, d := range derived {
				if m.Installer == nil {
					m.Installer = map[*Object]InstallerOrigin{}
				}
				m.Installer[d] = origins[d]
				switch d.Kind {
				case "ImageDigestMirrorSet":
					if x, ok := decodeMirror[configv1.ImageDigestMirrorSet](d, &m.Problems); ok {
						m.DigestSets = append(m.DigestSets, x)
					}
				default:
					if x, ok := decodeMirror[operatorv1alpha1.ImageContentSourcePolicy](d, &m.Problems); ok {
						m.ContentPolicies = append(m.ContentPolicies, x)
					}
				}
			}
		}
	}
	sortByName(m.DigestSets)
	sortByName(m.TagSets)
	sortByName(m.ContentPolicies)
	return m
}

func decodeMirror[T any](o *Object, problems *diag.List) (Decoded[T], bool) {
	x := Decoded[T]{Obj: o}
	if err := o.Decode(&x.Spec); err != nil {
		*problems = append(*problems, diag.Diagnostic{Pos: o.Pos(), Message: fmt.Sprintf("%s does not decode: %v", o.ID(), err)})
		x.Spec = *new(T)
		if o.DecodeLoose(&x.Spec) != nil {
			return x, false
		}
	}
	return x, true
}

func sortByName[T any](xs []Decoded[T]) {
	sort.SliceStable(xs, func(i, j int) bool { return xs[i].Obj.Name < xs[j].Obj.Name })
}

// InstallerDiagnostics are the installer's refusals as errors at the
// install-config's fields.
func (m MirrorSet) InstallerDiagnostics() diag.List {
	var out diag.List
	for _, r := range m.InstallerRejected {
		msg := fmt.Sprintf("install-config %s: %v", UserPath(r.Path), r.Err)
		if r.Value != "" {
			msg = fmt.Sprintf("install-config %s %q: the installer rejects it (openshift/installer validateNamedRepository): %v", UserPath(r.Path), r.Value, r.Err)
		}
		out = append(out, diag.Diagnostic{Pos: r.Config.PosOf(r.Path...), Message: msg})
	}
	return out
}

// UserPath writes a field path as users read it: imageDigestSources[0].mirrors[1].
func UserPath(path []string) string {
	var b strings.Builder
	for _, p := range path {
		if _, err := strconv.Atoi(p); err == nil {
			b.WriteString("[" + p + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(p)
	}
	return b.String()
}

// Input is the engine's input for the set, on release minor (0: unknown)
// with releaseImage ("" when unknown).
func (m MirrorSet) Input(minor int, releaseImage string) registries.Input {
	in := registries.Input{Minor: minor, ReleaseImage: releaseImage}
	for _, x := range m.DigestSets {
		in.DigestMirrorSets = append(in.DigestMirrorSets, x.Spec)
	}
	for _, x := range m.TagSets {
		in.TagMirrorSets = append(in.TagMirrorSets, x.Spec)
	}
	for _, x := range m.ContentPolicies {
		in.ContentSourcePolicies = append(in.ContentSourcePolicies, x.Spec)
	}
	if m.Image != nil {
		img := m.Image.Spec
		in.Image = &img
	}
	return in
}
