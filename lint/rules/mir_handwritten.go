package rules

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2"

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
			rf.conf, err = parseRegistriesConf(data)
		}
		rf.err = err
		out = append(out, rf)
	}
	return out
}

// parseRegistriesConf reads registries.conf content into the engine's model (keys it does not
// model are ignored) after containers/image itself accepted it.
func parseRegistriesConf(data []byte) (*registries.Config, error) {
	if err := registries.Load(data); err != nil {
		return nil, err
	}
	var c registries.Config
	if err := toml.Unmarshal(data, &c); err != nil {
		return nil, err
	}
	return &c, nil
}

// machineConfigFiles lists the registries.conf files the set's MachineConfigs write, with the
// MachineConfig's pool.
// Computed once per set: shared by the rules, never changed.
func machineConfigFiles(set lint.Set) (files []registriesFile, roles map[*manifests.Object]string) {
	type both struct {
		files []registriesFile
		roles map[*manifests.Object]string
	}
	b := lint.Fact(set, factRegistriesFiles, func() both {
		b := both{roles: map[*manifests.Object]string{}}
		for _, mc := range machineConfigs(set) {
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
	for _, o := range set.Kind("v1", "ConfigMap") {
		var cm struct {
			Data map[string]string `json:"data"`
		}
		if o.DecodeLoose(&cm) != nil {
			continue
		}
		data, ok := cm.Data[platform.AssistedRegistriesConfKey]
		if !ok {
			continue
		}
		f := registriesFile{obj: o, path: []string{"data", platform.AssistedRegistriesConfKey}, file: "assisted-service mirror registries.conf"}
		f.conf, f.err = parseRegistriesConf([]byte(data))
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
		for _, reg := range f.conf.Registries {
			if reg.MirrorByDigestOnly {
				continue
			}
			for _, m := range reg.Mirrors {
				switch {
				case discoveryOnly && m.PullFromMirror != registries.PullFromMirrorDigestOnly:
					problems = append(problems, fmt.Sprintf("%s -> %s mirrors tags", reg.Scope(), m.Location))
				case m.PullFromMirror == "":
					problems = append(problems, fmt.Sprintf("%s -> %s mirrors tags and digests (mirror-by-digest-only is not true): only the digest mirroring reaches the cluster", reg.Scope(), m.Location))
				case m.PullFromMirror == registries.PullFromMirrorAll:
					problems = append(problems, fmt.Sprintf("%s -> %s has pull-from-mirror = \"all\": assisted-service drops this mirror silently (neither a digest nor a tag mirror)", reg.Scope(), m.Location))
				case m.PullFromMirror == registries.PullFromMirrorTagOnly:
					problems = append(problems, fmt.Sprintf("%s -> %s has pull-from-mirror = \"tag-only\": assisted-service keeps it as a tag mirror it never writes out (no ImageTagMirrorSet, nothing in the install-config)", reg.Scope(), m.Location))
				}
			}
		}
		if len(problems) == 0 {
			continue
		}
		if discoveryOnly {
			r.Object(f.obj, fmt.Sprintf("%s %s (%s) configures tag mirroring for the discovery image only: assisted-service merges the override into the discovery ignition, so it reaches neither the install-config nor the installed nodes: %s; give assisted-service the mirrors in a mirror ConfigMap (mirrorRegistryRef) and apply an ImageTagMirrorSet (4.13+; a MachineConfig before) for tag pulls",
				f.obj.ID(), userPath(f.path), f.file, strings.Join(problems, "; ")), f.path...)
			continue
		}
		r.Object(f.obj, fmt.Sprintf("%s %s (%s) configures tag mirroring assisted-service does not carry into the cluster (only its digest mirrors become install-config imageDigestSources; no ImageTagMirrorSet is created): %s; keep this file digest-only and apply an ImageTagMirrorSet (4.13+; a MachineConfig before) for tag pulls",
			f.obj.ID(), userPath(f.path), f.file, strings.Join(problems, "; ")), f.path...)
	}
}
