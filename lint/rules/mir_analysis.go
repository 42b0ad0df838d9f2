package rules

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	configv1 "github.com/openshift/api/config/v1"

	"github.com/siteforge/siteforge/internal/cluster/incluster"
	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/registries"
	"github.com/siteforge/siteforge/internal/ruleid"
	"github.com/siteforge/siteforge/lint"
)

// ---------------------------------------------------------------------------------------------
// What MCO refuses, attributed to the field responsible.

// refusal is one MCO refusal, at the entry or image.config field that causes it.
type refusal struct {
	obj   *manifests.Object
	path  []string
	entry *mirrorEntry // nil for image.config
	value string       // the offending source, mirror or scope
	err   error
}

// analysis is a set's mirror objects run through the engine: what MCO refuses, and the
// registries.conf it renders from everything else.
type analysis struct {
	*mirrorObjects
	refusals []refusal
	// accepted are the entries MCO renders once the refused ones are fixed or removed.
	accepted []*mirrorEntry
	// imageCfg is the image config without refused scopes (nil when absent).
	imageCfg *configv1.Image
	// in is the engine input of accepted and image; conf and toml its rendering (nil if the
	// engine still fails, which it should not).
	in   registries.Input
	conf *registries.Config
	toml []byte
	// nodeTOML is the file worker nodes end up with: toml, unless a MachineConfig that sorts
	// after MCO's writes registries.conf (siteforge's pre-4.13 tag mirroring does).
	nodeTOML []byte
}

// analyze returns the set's analysis (see newAnalysis), computed once per set.
func analyze(set lint.Set) *analysis {
	return lint.Fact(set, factAnalysis, func() *analysis { return newAnalysis(set) })
}

// newAnalysis finds every MCO refusal one by one: the image config's scopes first, then, when
// the entries together are refused, each entry added in MCO's order and rendered with those
// accepted so far. The entry whose addition makes the engine fail is the one responsible (for a
// policy conflict: the later entry, as in MCO, where the first policy seen for a source wins).
func newAnalysis(set lint.Set) *analysis {
	m := readMirrorObjects(set)
	a := &analysis{mirrorObjects: m}
	if m.imageObj != nil {
		a.imageCfg = a.checkImageConfig()
	}
	acc := m.input(m.entries, a.imageCfg)
	if _, err := registries.Render(acc); err == nil {
		a.accepted = m.entries
	} else {
		acc = m.input(nil, a.imageCfg)
		for _, e := range m.entries {
			cand := m.input(append(append([]*mirrorEntry(nil), a.accepted...), e), a.imageCfg)
			if _, err := registries.Render(cand); err != nil {
				a.refusals = append(a.refusals, refusal{obj: e.obj, entry: e, err: err, path: e.path("source"), value: e.source})
				a.placeEntryRefusal(&a.refusals[len(a.refusals)-1])
				continue
			}
			a.accepted = append(a.accepted, e)
			acc = cand
		}
	}
	a.in = acc
	conf, err := registries.Render(acc)
	if err != nil {
		return a
	}
	data, err := conf.TOML()
	if err != nil {
		return a
	}
	a.conf, a.toml, a.nodeTOML = conf, data, data
	if data := machineConfigRegistriesConf(set, platform.MachineConfigRoleWorker); data != nil {
		a.nodeTOML = data
	}
	return a
}

// poolTOML is the registries.conf the nodes of pool get from the set's objects: a MachineConfig's
// over MCO's own (machineConfigRegistriesConf), else MCO's (nil when the engine fails).
func (a *analysis) poolTOML(set lint.Set, pool string) []byte {
	if data := machineConfigRegistriesConf(set, pool); data != nil {
		return data
	}
	return a.toml
}

// machineConfigRegistriesConf is the registries.conf a MachineConfig of pool's writes over MCO's own
// (MCO merges a pool's MachineConfigs by name, the last file at a path wins), nil when none does.
// MCO generates its own for the master and worker roles; a custom pool takes the worker's, and the
// MachineConfigs of its own role.
func machineConfigRegistriesConf(set lint.Set, pool string) []byte {
	files, roles := machineConfigFiles(set)
	base := platform.MachineConfigRoleWorker
	if pool == platform.MachineConfigRoleMaster {
		base = pool
	}
	managed := fmt.Sprintf(platform.RegistriesMachineConfigNameFormat, base)
	var last *registriesFile
	for i, f := range files {
		if f.file != platform.RegistriesConfPath || f.conf == nil || f.obj.Name <= managed {
			continue
		}
		if role := roles[f.obj]; role != "" && role != base && role != pool {
			continue
		}
		if last == nil || f.obj.Name > last.obj.Name {
			last = &files[i]
		}
	}
	if last == nil {
		return nil
	}
	return last.data
}

// registrySourceLists are the image.config lists MCO validates, in its order.
var registrySourceLists = []string{"insecureRegistries", "blockedRegistries", "allowedRegistries"}

func registrySourceList(rs *configv1.RegistrySources, name string) *[]string {
	switch name {
	case "insecureRegistries":
		return &rs.InsecureRegistries
	case "blockedRegistries":
		return &rs.BlockedRegistries
	}
	return &rs.AllowedRegistries
}

// checkImageConfig validates each image.config scope alone, then allowed and blocked together, and
// returns the image config without what MCO refuses.
func (a *analysis) checkImageConfig() *configv1.Image {
	clean := a.imageSpec.DeepCopy()
	for _, list := range registrySourceLists {
		var kept []string
		for i, scope := range *registrySourceList(&a.imageSpec.Spec.RegistrySources, list) {
			probe := &configv1.Image{}
			*registrySourceList(&probe.Spec.RegistrySources, list) = []string{scope}
			if _, err := registries.Render(registries.Input{Image: probe, Minor: a.minor}); err != nil {
				a.refusals = append(a.refusals, refusal{obj: a.imageObj, path: []string{"spec", "registrySources", list, strconv.Itoa(i)}, value: scope, err: err})
				continue
			}
			kept = append(kept, scope)
		}
		*registrySourceList(&clean.Spec.RegistrySources, list) = kept
	}
	if _, err := registries.Render(registries.Input{Image: clean, Minor: a.minor, ReleaseImage: a.release}); err != nil {
		a.refusals = append(a.refusals, refusal{obj: a.imageObj, path: []string{"spec", "registrySources", "allowedRegistries"}, err: err})
		clean.Spec.RegistrySources.AllowedRegistries = nil
	}
	return clean
}

// placeEntryRefusal points an entry's refusal at the field MCO's message names.
func (a *analysis) placeEntryRefusal(f *refusal) {
	e := f.entry
	switch {
	case errors.Is(f.err, registries.ErrInvalidMirror):
		for j, m := range e.mirrors {
			if strings.Contains(f.err.Error(), strconv.Quote(m)) {
				f.path, f.value = e.path("mirrors", strconv.Itoa(j)), m
				return
			}
		}
	case isPolicyConflict(f.err), errors.Is(f.err, registries.ErrNeverContactSourceIsMirror):
		if e.policy != "" {
			f.path = e.path("mirrorSourcePolicy")
		}
	}
}

func isPolicyConflict(err error) bool {
	return errors.Is(err, registries.ErrConflictingMirrorSourcePolicy)
}

// policyConflictCheck reports the mirrorSourcePolicy conflicts: with the
// installer's own mirror objects (installer true, ruleid.InstallerMirrorsConflict),
// or the others (MIR004).
func policyConflictCheck(installer bool) func(lint.Set, *lint.Reporter) {
	return func(set lint.Set, r *lint.Reporter) {
		a := analyze(set)
		for _, f := range a.refusals {
			if !isPolicyConflict(f.err) || a.installerConflict(f) != installer {
				continue
			}
			msg := a.refusalMessage(f)
			if installer {
				msg += fmt.Sprintf("; or, after the installation, delete imagedigestmirrorset/%s, which the installer creates (siteforge explain %s)", platform.InstallerDigestMirrorSetName, ruleid.InstallerMirrorsConflict)
			}
			r.Object(f.obj, msg, f.path...)
		}
	}
}

// installerConflict reports whether a policy conflict is one with the
// installer's own mirror objects: the refused entry is one the installer
// creates from the install-config, or every entry it conflicts with is.
func (a *analysis) installerConflict(f refusal) bool {
	if f.entry == nil {
		return false
	}
	if f.entry.origin != nil {
		return true
	}
	conflicts := 0
	for _, other := range a.accepted {
		if other.source == f.entry.source && other.effectivePolicy() != f.entry.effectivePolicy() {
			if other.origin == nil {
				return false // a conflict between day-2 objects
			}
			conflicts++
		}
	}
	return conflicts > 0
}

// refusalCheck reports the refusals whose error matches.
func refusalCheck(match func(error) bool) func(lint.Set, *lint.Reporter) {
	return func(set lint.Set, r *lint.Reporter) {
		a := analyze(set)
		for _, f := range a.refusals {
			if match(f.err) {
				r.Object(f.obj, a.refusalMessage(f), f.path...)
			}
		}
	}
}

// where names the object and field of a refusal for messages.
func (f refusal) where() string {
	if f.entry != nil && len(f.path) >= 3 {
		return f.entry.where(f.path[3:]...)
	}
	return f.obj.ID() + " " + userPath(f.path)
}

func (a *analysis) refusalMessage(f refusal) string {
	where := f.where()
	msg := fmt.Sprintf("%s: %s: %v", where, mcoRefusal, f.err)
	if f.entry == nil {
		switch {
		case errors.Is(f.err, registries.ErrInvalidScope):
			return msg + ": a scope is host[:port][/path], or *.domain with nothing after the domain"
		case errors.Is(f.err, registries.ErrAllowedAndBlocked):
			return msg + ": keep either allowedRegistries or blockedRegistries"
		}
		return msg
	}
	switch {
	case isPolicyConflict(f.err):
		for _, other := range a.accepted {
			if other.source == f.entry.source && other.effectivePolicy() != f.entry.effectivePolicy() {
				return fmt.Sprintf("%s; %s sets %s, this entry %s: give every entry for %s the same policy", msg,
					other.where(), other.effectivePolicy(), f.entry.effectivePolicy(), f.entry.source)
			}
		}
		return msg + ": give every entry for " + f.entry.source + " the same policy"
	case errors.Is(f.err, registries.ErrNeverContactSourceIsMirror):
		return msg + ": remove " + f.entry.source + " from the mirrors, or use AllowContactingSource"
	case errors.Is(f.err, registries.ErrInvalidSource), errors.Is(f.err, registries.ErrInvalidMirror):
		return msg + ": " + locationHint(f.value, errors.Is(f.err, registries.ErrInvalidSource))
	case errors.Is(f.err, registries.ErrWildcardNestedScope):
		var nested []string
		if a.imageCfg != nil {
			for _, list := range []string{"insecureRegistries", "blockedRegistries"} {
				for _, s := range *registrySourceList(&a.imageCfg.Spec.RegistrySources, list) {
					if strings.HasSuffix(incluster.Host(s), strings.TrimPrefix(f.entry.source, "*")) {
						nested = append(nested, fmt.Sprintf("%s %q", list, s))
					}
				}
			}
		}
		if len(nested) > 0 {
			msg += " (image.config " + strings.Join(nested, ", ") + " lies inside it)"
		}
		return msg + ": list the mirrored hosts instead of the wildcard, or move the insecure/blocked scope out of it"
	}
	return msg
}

// locationHint says what is wrong with a source or mirror MCO rejects.
func locationHint(value string, source bool) string {
	_, path, _ := strings.Cut(value, "/")
	if p := templatePlaceholder(value); p != "" {
		return "fill in the template placeholder " + p
	}
	switch {
	case strings.Contains(value, "://"):
		return "remove the scheme: a location is host[:port][/path]"
	case strings.Contains(value, "@"):
		return "remove the digest: a location names a registry or repository, never an image"
	case strings.Contains(path, ":"):
		return "remove the tag: a location names a registry or repository, never an image"
	case strings.ToLower(path) != path:
		return "repository paths are lower-case"
	case strings.HasSuffix(value, "/"):
		return "remove the trailing slash"
	case strings.Contains(value, "*") && !source:
		return "a mirror cannot be a wildcard: name the mirror host"
	case strings.Contains(value, "*"):
		return "a wildcard source is *.domain, with no port or path"
	}
	if source {
		return "a source is host[:port][/lower-case/path] or *.domain"
	}
	return "a mirror is host[:port][/lower-case/path]"
}

// ---------------------------------------------------------------------------------------------
// MIR006: invalid sources and mirrors.

// templatePlaceholder returns the first <...> of a value ("" when none): a template left unfilled.
func templatePlaceholder(value string) string {
	if i := strings.IndexByte(value, '<'); i >= 0 {
		if j := strings.IndexByte(value[i:], '>'); j > 0 {
			return value[i : i+j+1]
		}
	}
	return ""
}

// invalidLocation is one MIR006 finding before grouping.
type invalidLocation struct {
	obj   *manifests.Object
	path  []string // field path in obj
	field string   // the field as the message names it
	short string   // the field alone, for the list of the others
	value string
	msg   string
}

// checkInvalidLocations reports sources and mirrors nothing accepts: install-config entries the
// installer refuses, IDMS/ITMS entries the API server refuses (CRD pattern), ICSP entries MCO
// refuses. One finding per object and value (per object and template placeholder for a <...>
// left in): one unfilled placeholder repeated over many entries is one mistake.
func checkInvalidLocations(set lint.Set, r *lint.Reporter) {
	a := analyze(set)
	var all []invalidLocation
	for _, rej := range a.rejected {
		field := "install-config " + userPath(rej.Path)
		if rej.Value == "" {
			r.Object(rej.Config, fmt.Sprintf("%s: the installer rejects the install-config: %v (openshift/installer pkg/types/validation/installconfig.go ValidateInstallConfig); keep imageDigestSources only",
				field, rej.Err), rej.Path...)
			continue
		}
		all = append(all, invalidLocation{obj: rej.Config, path: rej.Path, field: field, short: userPath(rej.Path), value: rej.Value,
			msg: fmt.Sprintf("%s %q: the installer rejects the install-config and creates nothing (openshift/installer pkg/types/validation/installconfig.go validateNamedRepository: %v): %s",
				field, rej.Value, rej.Err, locationHint(rej.Value, rej.Source))})
	}
	for _, f := range a.refusals {
		if errors.Is(f.err, registries.ErrInvalidSource) || errors.Is(f.err, registries.ErrInvalidMirror) {
			short := userPath(f.path)
			if f.entry != nil && f.entry.origin != nil && len(f.path) >= 3 {
				short = userPath(f.entry.origin.Path(f.entry.index, f.path[3:]...))
			}
			all = append(all, invalidLocation{obj: f.obj, path: f.path, field: f.where(), short: short, value: f.value, msg: a.invalidLocationMessage(f)})
		}
	}
	type key struct {
		obj  *manifests.Object
		what string
	}
	var order []key
	groups := map[key][]invalidLocation{}
	for _, l := range all {
		k := key{l.obj, l.value}
		if p := templatePlaceholder(l.value); p != "" {
			k.what = p
		}
		if groups[k] == nil {
			order = append(order, k)
		}
		groups[k] = append(groups[k], l)
	}
	for _, k := range order {
		ls := groups[k]
		msg := ls[0].msg
		if len(ls) > 1 {
			var more []string
			for _, l := range ls[1:] {
				more = append(more, l.short)
			}
			if len(more) > 3 {
				more = append(more[:3], "...")
			}
			same := "value"
			if templatePlaceholder(k.what) != "" {
				same = "placeholder"
			}
			entries := "entries"
			if len(ls) == 2 {
				entries = "entry"
			}
			msg += fmt.Sprintf(" (the same %s in %d more %s: %s)", same, len(ls)-1, entries, strings.Join(more, ", "))
		}
		r.Object(ls[0].obj, msg, ls[0].path...)
	}
}

// invalidLocationMessage says who refuses an invalid source or mirror first: the API server for
// ImageDigestMirrorSet and ImageTagMirrorSet (their CRD patterns), MCO for
// ImageContentSourcePolicy (no pattern; MCO applies the same ones).
func (a *analysis) invalidLocationMessage(f refusal) string {
	source := errors.Is(f.err, registries.ErrInvalidSource)
	hint := locationHint(f.value, source)
	if f.entry == nil || f.entry.kind == contentPolicy {
		return fmt.Sprintf("%s: %s: %v: %s", f.where(), mcoRefusal, f.err, hint)
	}
	what, form, file, field := "mirror", "host[:port][/lower-case/path]", "types_image_digest_mirror_set.go", "ImageMirror"
	if source {
		what, form, field = "source", "host[:port][/lower-case/path] or *.domain", strings.TrimSuffix(f.entry.obj.Kind, "Set")+"s.Source"
		if f.entry.kind == tagSet {
			file = "types_image_tag_mirror_set.go"
		}
	}
	return fmt.Sprintf("%s %q: the API server rejects the %s: a %s must match the CRD pattern %s (openshift/api config/v1 %s, kubebuilder pattern on %s): %s",
		f.where(), f.value, f.entry.obj.Kind, what, form, file, field, hint)
}
