// Package importer turns what a cluster was installed from into siteforge
// sites: ZTP SiteConfig v1 (each cluster one site, through the one
// SiteConfig to ClusterInstance conversion of internal/manifests), siteconfig
// ClusterInstances with their extra-manifests ConfigMaps, and installation
// folders (install-config.yaml, agent-config.yaml, openshift/, manifests/).
//
// What a site has no place for is a warning at the input's position; a
// manifest is kept verbatim next to the site (extra-manifests/). Secrets are
// never copied or printed: a pull secret, BMC credentials and SSH private
// keys stay references (pullSecretRef, bmc.credentialsSecret) or are left
// out with a warning. The package reads files; writing is the caller's (the CLI writes
// the result atomically with internal/output).
package importer

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/siteforge/siteforge/internal/credential"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/upstream"
)

// Options are the import's choices.
type Options struct {
	// Release is the OpenShift release ("4.N") of sites whose input does
	// not say it (an installation folder; a ClusterImageSet name without a
	// version). Empty: DefaultRelease, with a warning.
	Release string
}

// DefaultRelease is the release of an imported site whose input does not
// name one and no --release is given.
var DefaultRelease = platform.ImportDefaultMinor.String()

// Site is one imported site.
type Site struct {
	Name string
	// Data is the site description (the schema's fields), JSON-shaped.
	Data map[string]any
	// Extra are manifests kept verbatim: relative path -> content.
	Extra map[string][]byte
	// Warnings are what the site has no place for, at the input's
	// positions.
	Warnings diag.List
	// Pos is where the cluster's name is written.
	Pos diag.Position
}

// Result is the import of all inputs.
type Result struct {
	Sites []*Site
}

// Import reads the inputs. Errors (unreadable or invalid input, a cluster
// imported twice) are returned as a diag.List; nothing is imported then.
func Import(paths []string, opts Options) (*Result, diag.List) {
	var r Result
	var errs diag.List
	if opts.Release != "" {
		if _, err := platform.ParseOCPMinor(opts.Release); err != nil || strings.HasPrefix(opts.Release, "v") {
			return nil, diag.List{{Message: fmt.Sprintf("--release %s: want 4.N or 4.N.z", strconv.Quote(diag.Clean(opts.Release)))}}
		}
	}
	for _, p := range paths {
		sites, dl := importPath(p, opts)
		errs = append(errs, dl...)
		r.Sites = append(r.Sites, sites...)
	}
	seen := map[string]bool{}
	for _, s := range r.Sites {
		switch {
		case s.Name == "" || s.Name == "." || s.Name == ".." || strings.ContainsAny(s.Name, `/\`) || strings.HasPrefix(s.Name, "."):
			errs = append(errs, diag.Diagnostic{Pos: s.Pos, Message: fmt.Sprintf("cluster name %q cannot name a site", diag.Clean(s.Name)), Hint: "name the cluster with a DNS label"})
		case seen[s.Name]:
			errs = append(errs, diag.Diagnostic{Pos: s.Pos, Message: fmt.Sprintf("cluster %s is imported twice", diag.Clean(s.Name)), Hint: "import each cluster once"})
		}
		seen[s.Name] = true
	}
	if len(errs) == 0 && len(r.Sites) == 0 {
		errs = append(errs, diag.Diagnostic{Pos: diag.Position{File: strings.Join(paths, " ")}, Message: "no SiteConfig, ClusterInstance or install-config.yaml found",
			Hint: "name SiteConfig or ClusterInstance files, folders holding them, or installation folders (install-config.yaml)"})
	}
	if len(errs) > 0 {
		return nil, errs
	}
	sort.Slice(r.Sites, func(i, j int) bool { return r.Sites[i].Name < r.Sites[j].Name })
	for _, s := range r.Sites {
		sort.SliceStable(s.Warnings, func(i, j int) bool { return s.Warnings[i].Pos.Compare(s.Warnings[j].Pos) < 0 })
	}
	return &r, nil
}

func importPath(p string, opts Options) ([]*Site, diag.List) {
	fi, err := os.Stat(p)
	if err != nil {
		return nil, diag.List{{Pos: diag.Position{File: p}, Message: "cannot read: " + err.Error()}}
	}
	if fi.IsDir() {
		if _, err := os.Stat(filepath.Join(p, "install-config.yaml")); err == nil {
			s, dl := fromInstallDir(p, opts)
			if s == nil {
				return nil, dl
			}
			return []*Site{s}, dl
		}
	}
	var files []string
	if fi.IsDir() {
		err = filepath.WalkDir(p, func(f string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && f != p && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			if !d.IsDir() && manifests.IsManifestFile(f) {
				files = append(files, f)
			}
			return nil
		})
		if err != nil {
			return nil, diag.List{{Pos: diag.Position{File: p}, Message: "cannot read directory: " + err.Error()}}
		}
	} else {
		files = []string{p}
	}
	var objs []*manifests.Object
	var errs diag.List
	for _, f := range files {
		o, dl := manifests.ReadFile(f)
		errs = append(errs, dl...)
		objs = append(objs, o...)
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return fromObjects(objs, opts)
}

// fromObjects imports the SiteConfigs and ClusterInstances among objs, with
// the ConfigMaps their extraManifestsRefs name.
func fromObjects(objs []*manifests.Object, opts Options) ([]*Site, diag.List) {
	configMaps := map[string]*manifests.Object{}
	for _, o := range objs {
		if o.Kind == "ConfigMap" && o.APIVersion == "v1" {
			configMaps[o.Namespace+"/"+o.Name] = o
		}
	}
	used := map[*manifests.Object]bool{}
	var out []*Site
	var errs diag.List
	var other diag.List
	for _, o := range objs {
		switch {
		case manifests.IsSiteConfig(o):
			clusters, err := manifests.SiteConfigClusters(o)
			if err != nil {
				errs = append(errs, diag.Diagnostic{Pos: o.Pos(), Message: "cannot read SiteConfig: " + diag.Clean(err.Error())})
				continue
			}
			for i, c := range clusters {
				s := fromClusterInstance(c.CI, nil, opts, true)
				s.Warnings = append(append(diag.List{}, c.Dropped...), s.Warnings...)
				if i == 0 {
					if sc, err := manifests.DecodeSiteConfig(o); err == nil {
						s.Warnings = append(s.Warnings, unread(o, sc, "status")...)
					}
				}
				out = append(out, s)
			}
		case o.Kind == platform.ClusterInstanceKind && o.APIVersion == platform.ClusterInstanceAPIVersion:
			cis := manifests.ClusterInstances([]*manifests.Object{o})
			if len(cis) == 0 {
				errs = append(errs, diag.Diagnostic{Pos: o.Pos(), Message: "cannot read ClusterInstance " + diag.Clean(o.Name)})
				continue
			}
			cms := map[string]*manifests.Object{}
			for _, ref := range cis[0].Spec.ExtraManifestsRefs {
				if cm := configMaps[o.Namespace+"/"+ref.Name]; cm != nil {
					used[cm] = true
					cms[ref.Name] = cm
				}
			}
			s := fromClusterInstance(cis[0], cms, opts, false)
			var typed upstream.ClusterInstance
			if o.DecodeLoose(&typed) == nil {
				s.Warnings = append(s.Warnings, unread(o, &typed, "status")...)
				for k := range typed.Labels {
					s.Warnings = append(s.Warnings, diag.Diagnostic{Pos: o.KeyPosOf("metadata", "labels", k), Message: fmt.Sprintf("label %s of the ClusterInstance has no place in a siteforge site", diag.Clean(k)), Hint: "add it to the rendered hub/ folder with a kustomize patch"})
				}
				for k := range typed.Annotations {
					if k != manifests.SourceAnnotation {
						s.Warnings = append(s.Warnings, diag.Diagnostic{Pos: o.KeyPosOf("metadata", "annotations", k), Message: fmt.Sprintf("annotation %s of the ClusterInstance has no place in a siteforge site", diag.Clean(k)), Hint: "add it to the rendered hub/ folder with a kustomize patch"})
					}
				}
			}
			out = append(out, s)
		case o.Kind == "ConfigMap", o.Kind == "Namespace", o.Kind == "Kustomization":
			// read with their ClusterInstance; the rest is reported below
		default:
			other = append(other, diag.Diagnostic{Pos: o.Pos(), Message: fmt.Sprintf("%s is not imported: only SiteConfig, ClusterInstance and the ConfigMaps a ClusterInstance names are", diag.Clean(o.ID()))})
		}
	}
	for _, o := range objs {
		if o.Kind == "ConfigMap" && !used[o] {
			other = append(other, diag.Diagnostic{Pos: o.Pos(), Message: fmt.Sprintf("%s is not imported: no imported ClusterInstance names it in extraManifestsRefs", diag.Clean(o.ID()))})
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	if len(out) > 0 {
		out[0].Warnings = append(out[0].Warnings, other...)
	}
	return out, nil
}

func release(name string, opts Options, pos diag.Position, what string) (string, *diag.Diagnostic) {
	if m, ok := platform.ClusterImageSetNameMinor(name); ok {
		return m.String(), nil
	}
	if opts.Release != "" {
		return opts.Release, nil
	}
	return DefaultRelease, &diag.Diagnostic{Pos: pos, Message: fmt.Sprintf("%s does not name the release: cluster.version is set to %s", what, DefaultRelease),
		Hint: "set cluster.version to the release the cluster runs, or import with --release 4.N"}
}

// extraFile is the path of a manifest kept verbatim.
func extraFile(name string) string {
	return path.Join("extra-manifests", path.Base(filepath.ToSlash(name)))
}

// keepVerbatim keeps a manifest next to the site, unless it holds a Secret
// or a credential (credential.Find: what Ignition would write included, a
// pull secret in a MachineConfig's data: URL or at the kubelet's
// config.json): that is never copied, and the warning says so. at is where
// the manifest is.
func (s *Site) keepVerbatim(rel string, data []byte, at diag.Position, what string) {
	objs, _ := manifests.ReadBytes(at.File, data)
	held := ""
	for _, o := range objs {
		if o.Kind == "Secret" {
			held = "a Secret"
		}
	}
	if held == "" {
		held = credential.Find(data)
	}
	if held != "" {
		s.Warnings = append(s.Warnings, diag.Diagnostic{Pos: at,
			Message: fmt.Sprintf("%s holds %s: not copied (siteforge never copies a secret)", what, held),
			Hint:    "create it on the cluster out of band, or from a secret store"})
		return
	}
	s.Extra[rel] = data
	s.Warnings = append(s.Warnings, diag.Diagnostic{Pos: at,
		Message: fmt.Sprintf("%s is kept verbatim in %s: a site renders its day-0 manifests from its own fields", what, rel),
		Hint:    "express it in the site (machineConfigs, network, mirroring) or apply it on day 2"})
}
