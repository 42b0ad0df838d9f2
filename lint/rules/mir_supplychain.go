package rules

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/registries"
	"github.com/siteforge/siteforge/lint"
)

// ---------------------------------------------------------------------------------------------
// MIR017: blocking the release payload.

func checkBlockedPayload(set lint.Set, r *lint.Reporter) {
	a := analyze(set)
	if a.imageCfg == nil || len(a.imageCfg.Spec.RegistrySources.BlockedRegistries) == 0 {
		return
	}
	release, from := a.release, a.releaseFrom
	if release == "" {
		release, from = platform.OfficialReleaseRepository+"@"+probeDigest, "the official release repository (no release image given)"
	}
	withRelease := a.in
	withRelease.ReleaseImage = release
	conf, err := registries.Render(withRelease)
	if err != nil {
		return
	}
	blockedPath := func(scope string) []string {
		for i, s := range a.imageSpec.Spec.RegistrySources.BlockedRegistries {
			if s == scope {
				return []string{"spec", "registrySources", "blockedRegistries", strconv.Itoa(i)}
			}
		}
		return []string{"spec", "registrySources", "blockedRegistries"}
	}
	blocked := a.imageCfg.Spec.RegistrySources.BlockedRegistries
	dropped := map[string]bool{}
	for _, w := range conf.Warnings {
		switch {
		case errors.Is(w, registries.ErrPayloadRepositoryBlocked):
			for _, scope := range blocked {
				if !strings.Contains(w.Error(), strconv.Quote(scope)) {
					continue
				}
				dropped[scope] = true
				path := blockedPath(scope)
				r.Object(a.imageObj, fmt.Sprintf("%s %s %q covers the release payload repository of %s (%s) and no unblocked digest mirror serves it: MCO drops this entry and only logs %q, so the registry is NOT blocked; add an ImageDigestMirrorSet entry for the payload repository with a mirror outside every blocked scope, or narrow the blocked scope",
					a.imageObj.ID(), userPath(path), scope, release, from, w.Error()), path...)
			}
		case errors.Is(w, registries.ErrPayloadCheck):
			path := []string{"spec", "registrySources", "blockedRegistries"}
			r.Object(a.imageObj, fmt.Sprintf("%s %s: MCO cannot evaluate whether the blocked registries cover the release payload (%v) and then renders NO blocked registries at all",
				a.imageObj.ID(), userPath(path), w), path...)
			dropped = nil
		}
	}
	if dropped == nil {
		return
	}
	// The payload's component images are not protected by MCO's payload rule: resolve one
	// with each remaining blocked scope alone.
	probe := platform.PayloadComponentRepository + "@" + probeDigest
	for _, scope := range blocked {
		if dropped[scope] {
			continue
		}
		one := withRelease
		img := a.imageCfg.DeepCopy()
		img.Spec.RegistrySources.BlockedRegistries = []string{scope}
		img.Spec.RegistrySources.AllowedRegistries = nil
		one.Image = img
		if !pullBlocked(one, probe) {
			continue
		}
		path := blockedPath(scope)
		r.Object(a.imageObj, fmt.Sprintf("%s %s %q blocks %s, where every release payload component is pulled from (by digest), and no unblocked digest mirror serves it: every component pull fails; add an ImageDigestMirrorSet entry for quay.io/openshift-release-dev with a mirror outside every blocked scope, or narrow the blocked scope",
			a.imageObj.ID(), userPath(path), scope, platform.PayloadComponentRepository), path...)
	}
}

// pullBlocked reports whether ref cannot be pulled under what MCO renders for in: its source is
// blocked and no mirror is left to try.
func pullBlocked(in registries.Input, ref string) bool {
	conf, err := registries.Render(in)
	if err != nil {
		return false
	}
	data, err := conf.TOML()
	if err != nil {
		return false
	}
	res, err := registries.Resolve(data, ref)
	if err != nil || res.SucceedsDisconnected(nil) {
		return false
	}
	for _, ep := range res.Endpoints {
		if !ep.Mirror && ep.Blocked {
			return true
		}
	}
	return false
}

// ---------------------------------------------------------------------------------------------
// MIR018: tag mirroring as a supply-chain note.

func checkTagMirroring(set lint.Set, r *lint.Reporter) {
	m := readMirrorObjects(set)
	if !m.legacy() {
		reported := map[*manifests.Object]bool{}
		for _, e := range m.entries {
			if e.kind != tagSet || !e.realMirrors() || reported[e.obj] {
				continue
			}
			reported[e.obj] = true
			var sources []string
			for _, x := range m.entries {
				if x.obj == e.obj && x.realMirrors() {
					sources = append(sources, x.source)
				}
			}
			r.Object(e.obj, fmt.Sprintf("%s mirrors tag pulls of %s: a tag resolves to whatever the mirror serves under it, without the digest check a digest pull gets; pull by digest where you can and acknowledge the rest with a suppression that says why",
				e.obj.ID(), strings.Join(sources, ", ")), "spec", e.list())
		}
	}
	files, _ := machineConfigFiles(set)
	for _, f := range files {
		if f.conf == nil {
			continue
		}
		if tags := tagMirrors(f.conf); len(tags) > 0 {
			r.Object(f.obj, fmt.Sprintf("%s %s writes %s with tag mirroring (%s): a tag resolves to whatever the mirror serves under it, without the digest check a digest pull gets; pull by digest where you can and acknowledge the rest with a suppression that says why",
				f.obj.ID(), userPath(f.path), f.file, strings.Join(tags, "; ")), f.path...)
		}
	}
}

// ---------------------------------------------------------------------------------------------
// MIR019: insecure mirrors.

func checkInsecureMirrors(set lint.Set, r *lint.Reporter) {
	a := analyze(set)
	if a.imageCfg == nil || len(a.imageCfg.Spec.RegistrySources.InsecureRegistries) == 0 || len(a.accepted) == 0 {
		return
	}
	for i, scope := range a.imageSpec.Spec.RegistrySources.InsecureRegistries {
		img := a.imageCfg.DeepCopy()
		img.Spec.RegistrySources.InsecureRegistries = []string{scope}
		conf, err := registries.Render(a.input(a.accepted, img))
		if err != nil {
			continue
		}
		var insecure []string
		for _, reg := range conf.Registries {
			for _, mirror := range reg.Mirrors {
				if mirror.Insecure {
					insecure = append(insecure, mirror.Location)
				}
			}
		}
		if len(insecure) == 0 {
			continue
		}
		sort.Strings(insecure)
		path := []string{"spec", "registrySources", "insecureRegistries", strconv.Itoa(i)}
		r.Object(a.imageObj, fmt.Sprintf("%s %s %q makes the mirrors %v insecure: CRI-O skips TLS verification for them (and may use plain HTTP), sending the pull secret's credentials and accepting whatever answers; put the mirror's CA into spec.additionalTrustedCA (ConfigMap in openshift-config, key host..port) and remove the entry",
			a.imageObj.ID(), userPath(path), scope, uniqueStrings(insecure)), path...)
	}
}
