package rules

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/registries"
	"github.com/siteforge/siteforge/lint"
)

// ---------------------------------------------------------------------------------------------
// registries.conf written by hand: MachineConfigs and installer configuration.

// registriesFile is a registries.conf (or drop-in) some object writes.
type registriesFile struct {
	obj  *manifests.Object
	path []string // the field holding it
	file string   // the node path
	conf *registries.Config
	data []byte
	err  error // why the content could not be read (conf is nil)
	// text is the installer's registries.conf content with its lines in the file (nil for
	// MachineConfigs and ignition overrides).
	text *manifests.RegistriesConfText
}

// where names the content: the file (a registries.conf on disk), or the
// object and its field.
func (f registriesFile) where() string {
	if f.obj.Kind == manifests.KindRegistriesConf {
		return f.obj.File
	}
	return f.obj.ID() + " " + userPath(f.path)
}

// report reports a finding on the file, at line (1-based, of the content) when its lines map to
// the file's, else at the field holding it.
func (f registriesFile) report(r *lint.Reporter, line int, msg string) {
	if f.text != nil {
		o, path := f.text.AtLine(line)
		r.Object(o, msg, path...)
		return
	}
	r.Object(f.obj, msg, f.path...)
}

// registryTableLine is the 1-based line of the i-th [[registry]] table header of a registries.conf,
// 0 when the file does not write its tables that way.
func registryTableLine(data []byte, i int) int {
	n := -1
	for ln, line := range strings.Split(string(data), "\n") {
		if strings.ReplaceAll(strings.TrimSpace(line), " ", "") == "[[registry]]" {
			if n++; n == i {
				return ln + 1
			}
		}
	}
	return 0
}

// errorLine is the line a TOML or containers/image error names ("line 3"), 0 when none.
func errorLine(err error) int {
	msg := err.Error()
	i := strings.Index(msg, "line ")
	if i < 0 {
		return 0
	}
	n := 0
	for _, c := range msg[i+len("line "):] {
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// isRegistriesPath reports whether a node path is registries.conf or one of its drop-ins.
func isRegistriesPath(p string) bool {
	return p == platform.RegistriesConfPath || strings.HasPrefix(p, platform.RegistriesConfDropInDir)
}

// registriesFiles lists the registries.conf files an Ignition config writes; path is the field
// path of the files list in the object.
func registriesFiles(o *manifests.Object, ign manifests.IgnitionConfig, path []string) []registriesFile {
	var out []registriesFile
	for i, f := range ign.Storage.Files {
		if !isRegistriesPath(f.Path) {
			continue
		}
		rf := registriesFile{obj: o, path: append(append([]string(nil), path...), strconv.Itoa(i), "path"), file: f.Path}
		data, err := f.Data(manifests.MaxFileSize)
		if err == nil {
			rf.data = data
			rf.conf, err = registries.Parse(data)
		}
		rf.err = err
		out = append(out, rf)
	}
	return out
}

// machineConfigFiles lists the registries.conf files the set's MachineConfigs write, with the
// MachineConfig's pool; of a running cluster's state, those of the MachineConfigs MCO renders
// from (not its generated and rendered configs: what its nodes run is manifests.State.RunningFile).
// Computed once per set: shared by the rules, never changed.
func machineConfigFiles(set lint.Set) (files []registriesFile, roles map[*manifests.Object]string) {
	type both struct {
		files []registriesFile
		roles map[*manifests.Object]string
	}
	b := lint.Fact(set, factRegistriesFiles, func() both {
		b := both{roles: map[*manifests.Object]string{}}
		for _, mc := range machineConfigs(set) {
			if set.Live && mc.Obj.WrittenBy != "" {
				continue // MCO's output (its generated and rendered configs), not what it renders from
			}
			b.roles[mc.Obj] = mc.Role
			b.files = append(b.files, registriesFiles(mc.Obj, mc.Config, []string{"spec", "config", "storage", "files"})...)
		}
		return b
	})
	return b.files, b.roles
}

// siteforgeOwn reports whether a rendered MachineConfig is siteforge's pre-4.13 tag-mirroring one
// (MCO's file plus the tag mirrors, kept in step by rendering).
func siteforgeOwn(set lint.Set, o *manifests.Object) bool {
	if set.Site == nil {
		return false
	}
	for _, pool := range []string{"master", "worker"} {
		if o.Name == fmt.Sprintf(platform.SiteforgeTagMachineConfigNameFormat, pool) {
			return true
		}
	}
	return false
}

func checkRegistriesMachineConfigs(set lint.Set, r *lint.Reporter) {
	files, roles := machineConfigFiles(set)
	if len(files) == 0 {
		return
	}
	a := analyze(set)
	if !registries.WrittenByMCO(a.full) {
		return // MCO leaves registries.conf alone: a MachineConfig is the only way to write it
	}
	mcoScopes := map[string]bool{}
	if a.conf != nil {
		for _, reg := range a.conf.Registries {
			mcoScopes[reg.Scope()] = true
		}
	}
	for _, f := range files {
		if siteforgeOwn(set, f.obj) {
			continue
		}
		where := f.obj.ID() + " " + userPath(f.path)
		if f.file == platform.RegistriesConfPath {
			role := roles[f.obj]
			if role == "" {
				role = "<pool>"
			}
			managed := fmt.Sprintf(platform.RegistriesMachineConfigNameFormat, role)
			what := fmt.Sprintf("it sorts after MCO's %s and REPLACES MCO's file: the mirror objects and image.config registry settings stop reaching the nodes unless this file repeats them, and it goes stale at the next change", managed)
			if f.obj.Name < managed {
				what = fmt.Sprintf("MCO's %s sorts after it and replaces this file: its content never reaches the nodes", managed)
			}
			r.Object(f.obj, fmt.Sprintf("%s writes %s while ImageDigestMirrorSet/ImageTagMirrorSet/ImageContentSourcePolicy or image.config make MCO write it too; MCO merges a pool's MachineConfigs by name and the last one wins: %s; express the mirrors as ImageDigestMirrorSet/ImageTagMirrorSet and delete this file",
				where, f.file, what), f.path...)
			continue
		}
		if f.conf == nil {
			r.Object(f.obj, fmt.Sprintf("%s writes the drop-in %s next to the registries.conf MCO renders, and its content cannot be read (%v): a [[registry]] with the prefix of one of MCO's tables replaces that table; express the mirrors as ImageDigestMirrorSet/ImageTagMirrorSet instead",
				where, f.file, f.err), f.path...)
			continue
		}
		var clash []string
		for _, reg := range f.conf.Registries {
			if mcoScopes[reg.Scope()] {
				clash = append(clash, reg.Scope())
			}
		}
		if len(clash) > 0 {
			r.Object(f.obj, fmt.Sprintf("%s writes the drop-in %s whose [[registry]] %s has the prefix of a table MCO renders from the mirror objects: c/image lets the drop-in replace MCO's table, so its mirrors and flags are lost; express the mirrors as ImageDigestMirrorSet/ImageTagMirrorSet instead",
				where, f.file, strings.Join(clash, ", ")), f.path...)
		}
	}
}

// tagMirrors lists the mirrors of a registries.conf that serve tag pulls, per table, with how.
func tagMirrors(c *registries.Config) (out []string) {
	for _, reg := range c.Registries {
		if reg.MirrorByDigestOnly {
			continue
		}
		for _, m := range reg.Mirrors {
			switch m.PullFromMirror {
			case "", registries.PullFromMirrorAll:
				out = append(out, fmt.Sprintf("%s -> %s (tags and digests)", reg.Scope(), m.Location))
			case registries.PullFromMirrorTagOnly:
				out = append(out, fmt.Sprintf("%s -> %s (tag-only)", reg.Scope(), m.Location))
			}
		}
	}
	return out
}

// installerFiles lists the registries.conf content the assisted/agent installer reads from the
// set: assisted-service mirror ConfigMaps and InfraEnv ignition overrides.
func installerFiles(set lint.Set) []registriesFile {
	var out []registriesFile
	for _, t := range manifests.RegistriesConfTexts(set.Objects) {
		f := registriesFile{obj: t.Obj, path: t.Path, file: t.From, text: &t, data: []byte(t.Text)}
		f.conf, f.err = registries.Parse(f.data)
		out = append(out, f)
	}
	for _, o := range set.Kind(manifests.GroupAgentInstall, "InfraEnv") {
		var ie struct {
			Spec struct {
				IgnitionConfigOverride string `json:"ignitionConfigOverride"`
			} `json:"spec"`
		}
		if o.DecodeLoose(&ie) != nil || ie.Spec.IgnitionConfigOverride == "" {
			continue
		}
		var ign manifests.IgnitionConfig
		if json.Unmarshal([]byte(ie.Spec.IgnitionConfigOverride), &ign) != nil {
			continue
		}
		for _, f := range registriesFiles(o, ign, nil) {
			f.path = []string{"spec", "ignitionConfigOverride"}
			out = append(out, f)
		}
	}
	return out
}

func checkInstallerRegistriesConf(set lint.Set, r *lint.Reporter) {
	for _, f := range installerFiles(set) {
		if f.conf == nil {
			continue
		}
		discoveryOnly := f.obj.Kind == "InfraEnv"
		var problems []string
		first := -1
		for i, reg := range f.conf.Registries {
			if reg.MirrorByDigestOnly {
				continue
			}
			if first < 0 && len(reg.Mirrors) > 0 {
				first = i
			}
			for _, m := range reg.Mirrors {
				switch {
				case discoveryOnly && m.PullFromMirror != registries.PullFromMirrorDigestOnly:
					problems = append(problems, fmt.Sprintf("%s -> %s mirrors tags", reg.Scope(), m.Location))
				case m.PullFromMirror == "":
					problems = append(problems, fmt.Sprintf("%s -> %s mirrors tags and digests (mirror-by-digest-only is not true): only the digest mirroring reaches the cluster", reg.Scope(), m.Location))
				case m.PullFromMirror == registries.PullFromMirrorAll:
					problems = append(problems, fmt.Sprintf("%s -> %s has pull-from-mirror = \"all\": assisted-service drops this mirror (neither a digest nor a tag mirror; with no mirror left it refuses the file, MIR020)", reg.Scope(), m.Location))
				case m.PullFromMirror == registries.PullFromMirrorTagOnly:
					problems = append(problems, fmt.Sprintf("%s -> %s has pull-from-mirror = \"tag-only\": assisted-service keeps it as a tag mirror it never writes out (no ImageTagMirrorSet, nothing in the install-config)", reg.Scope(), m.Location))
				}
			}
		}
		if len(problems) == 0 {
			continue
		}
		line := registryTableLine(f.data, first)
		if discoveryOnly {
			f.report(r, line, fmt.Sprintf("%s (%s) configures tag mirroring for the discovery image only: assisted-service merges the override into the discovery ignition, so it reaches neither the install-config nor the installed nodes: %s; give assisted-service the mirrors in a mirror ConfigMap (mirrorRegistryRef) and apply an ImageTagMirrorSet (4.13+; a MachineConfig before) for tag pulls",
				f.where(), f.file, strings.Join(problems, "; ")))
			continue
		}
		f.report(r, line, fmt.Sprintf("%s (%s) configures tag mirroring assisted-service does not carry into the cluster (only its digest mirrors become install-config imageDigestSources; no ImageTagMirrorSet is created): %s; keep this file digest-only and apply an ImageTagMirrorSet (4.13+; a MachineConfig before) for tag pulls",
			f.where(), f.file, strings.Join(problems, "; ")))
	}
}

// scratchPath is the scratch file c/image names in its error, which says nothing to the user.
var scratchPath = regexp.MustCompile(`loading registries configuration "[^"]*": `)

// checkInstallerRegistriesConfLoads reports installer registries.conf content containers/image
// does not load, and an assisted-service mirror ConfigMap whose registries.conf has no mirror.
func checkInstallerRegistriesConfLoads(set lint.Set, r *lint.Reporter) {
	for _, f := range installerFiles(set) {
		if f.text == nil {
			continue
		}
		where := f.where()
		if f.conf == nil {
			msg := scratchPath.ReplaceAllString(f.err.Error(), "")
			f.report(r, errorLine(f.err), fmt.Sprintf("%s (%s) does not load: %s; the installer cannot use it: fix the TOML (containers-registries.conf(5): [[registry]] tables with location and [[registry.mirror]] tables)",
				where, f.file, msg))
			continue
		}
		if f.obj.Kind != "ConfigMap" {
			continue
		}
		// assisted-service keeps a mirror unless its pull-from-mirror is
		// "all" (pkg/mirrorregistries/parser.go parseMirrorRegistries), and
		// refuses the ConfigMap when none is kept (GetImageRegistries).
		mirrored := false
		for _, reg := range f.conf.Registries {
			for _, m := range reg.Mirrors {
				if reg.Location != "" && m.PullFromMirror != registries.PullFromMirrorAll {
					mirrored = true
				}
			}
		}
		if !mirrored {
			f.report(r, 0, fmt.Sprintf("%s (%s) has no [[registry]] with a location and a [[registry.mirror]] assisted-service keeps (pull-from-mirror = \"all\" is dropped): assisted-service refuses it (`failed to find any image mirrors in registry.conf`, assisted-service pkg/mirrorregistries/parser.go GetImageRegistries)",
				where, f.file))
		}
	}
}
