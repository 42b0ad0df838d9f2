package mirroring

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	configv1 "github.com/openshift/api/config/v1"
	operatorv1alpha1 "github.com/openshift/api/operator/v1alpha1"

	"github.com/siteforge/siteforge/internal/cluster/incluster"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/registries"
	"github.com/siteforge/siteforge/internal/ruleid"
	"github.com/siteforge/siteforge/internal/site"
)

// engineInput is what MCO reads on the site's cluster once the day-2 objects are applied.
func engineInput(s *site.Site, sets mirrorSets, img *configv1.Image, minor platform.OCPMinor) registries.Input {
	in := registries.Input{Image: img, ReleaseImage: s.Cluster.ReleaseImage, Minor: int(minor)}
	if sets.idms != nil {
		in.DigestMirrorSets = []configv1.ImageDigestMirrorSet{*sets.idms}
	}
	if sets.itms != nil {
		in.TagMirrorSets = []configv1.ImageTagMirrorSet{*sets.itms}
	}
	if sets.icsp != nil {
		in.ContentSourcePolicies = []operatorv1alpha1.ImageContentSourcePolicy{*sets.icsp}
	}
	return in
}

// quotedValue finds the first %q argument in an MCO message.
var quotedValue = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)

// engineDiagnostics places an engine refusal (MCO would not render registries.conf) at the
// site field responsible: the entries naming the source or mirror in question, the registry
// list holding the scope, else mirroring itself.
func engineDiagnostics(s *site.Site, entries []entry, err error) diag.List {
	msg := "MCO would refuse to render registries.conf (the nodes keep the previous file; the error only shows in the machine-config-controller log): " + err.Error()
	value := ""
	if q := quotedValue.FindString(err.Error()); q != "" {
		if v, uerr := strconv.Unquote(q); uerr == nil {
			value = v
		}
	}
	rule := engineRule(err)
	at := func(path, hint string) diag.List {
		return diag.List{{Pos: s.Positions.Of(path), Path: path, Rule: rule, Message: msg, Hint: hint}}
	}
	bySource := func() []entry {
		var out []entry
		for _, e := range entries {
			if e.source == value {
				out = append(out, e)
			}
		}
		return out
	}
	switch {
	case errors.Is(err, registries.ErrConflictingMirrorSourcePolicy):
		es := bySource()
		if len(es) > 0 {
			var others []string
			for _, e := range es[1:] {
				others = append(others, fmt.Sprintf("%s (%s)", e.policyPath, s.Positions.Of(e.policyPath)))
			}
			hint := "give every entry for this source the same policy"
			if len(others) > 0 {
				hint += "; it is also mirrored by " + joinList(others)
			}
			return at(es[0].policyPath, hint)
		}
	case errors.Is(err, registries.ErrNeverContactSourceIsMirror):
		if es := bySource(); len(es) > 0 {
			return at(es[0].path, "remove the source from its own mirrors, or use policy AllowContactingSource")
		}
	case errors.Is(err, registries.ErrWildcardNestedScope):
		// At the insecure or blocked scope inside the wildcard source, the
		// scope lint's MIR009 is about.
		m := s.Mirroring
		suffix := strings.TrimPrefix(value, "*")
		for _, l := range []struct {
			field string
			list  []string
		}{{"insecureRegistries", m.InsecureRegistries}, {"blockedRegistries", m.BlockedRegistries}} {
			for i, v := range l.list {
				if strings.HasPrefix(value, "*.") && strings.HasSuffix(incluster.Host(v), suffix) {
					return at(fmt.Sprintf("mirroring.%s[%d]", l.field, i), "list the mirrored hosts one by one instead of the wildcard, or move this scope out of it")
				}
			}
		}
		if es := bySource(); len(es) > 0 {
			return at(es[0].path, "")
		}
	case errors.Is(err, registries.ErrInvalidSource):
		if es := bySource(); len(es) > 0 {
			return at(es[0].path, "")
		}
	case errors.Is(err, registries.ErrInvalidMirror):
		for _, e := range entries {
			for _, m := range e.mirrors {
				if m == value {
					return at(e.path, "a mirror is host[:port][/path] with no tag, digest or scheme")
				}
			}
		}
	case errors.Is(err, registries.ErrInvalidScope):
		m := s.Mirroring
		for field, list := range map[string][]string{
			"insecureRegistries": m.InsecureRegistries,
			"blockedRegistries":  m.BlockedRegistries,
			"allowedRegistries":  m.AllowedRegistries,
		} {
			for i, v := range list {
				if v == value {
					return at(fmt.Sprintf("mirroring.%s[%d]", field, i), "a wildcard is only allowed as a leading \"*.\"")
				}
			}
		}
	case errors.Is(err, registries.ErrAllowedAndBlocked):
		return at("mirroring.allowedRegistries", "set allowedRegistries or blockedRegistries, not both")
	case errors.Is(err, registries.ErrReleaseImage):
		return at("cluster.releaseImage", "")
	}
	if s.Mirroring.QuayCache != nil && len(s.Mirroring.Sources) == 0 {
		return at("mirroring.quayCache", "")
	}
	return at("mirroring", "")
}

// engineRule is the lint rule stating the fact of an engine refusal: lint
// (lint/rules mirroring.go) reports the same refusals of the rendered
// objects under these IDs, so render, vet and lint name one fact by one ID.
func engineRule(err error) string {
	switch {
	case errors.Is(err, registries.ErrConflictingMirrorSourcePolicy):
		return ruleid.ConflictingMirrorSourcePolicy
	case errors.Is(err, registries.ErrNeverContactSourceIsMirror):
		return ruleid.NeverContactSourceListsSource
	case errors.Is(err, registries.ErrInvalidSource), errors.Is(err, registries.ErrInvalidMirror):
		return ruleid.InvalidMirrorLocation
	case errors.Is(err, registries.ErrWildcardNestedScope):
		return ruleid.WildcardSourceWithNestedScope
	}
	return ruleid.RegistrySourcesRefused
}

// engineWarnings forwards what MCO only logs (it still renders).
func engineWarnings(ctx warner, s *site.Site, cfg *registries.Config) {
	for _, w := range cfg.Warnings {
		path := "mirroring"
		if errors.Is(w, registries.ErrPayloadRepositoryBlocked) || errors.Is(w, registries.ErrPayloadCheck) {
			path = "mirroring.blockedRegistries"
		}
		ctx.Warn(ruleid.MCOLogsRegistries, diag.Diagnostic{Pos: s.Positions.Of(path), Path: path,
			Message: "MCO logs and goes on: " + w.Error()})
	}
}

// warner is the part of generators.Context this package uses.
type warner interface {
	Warn(rule string, d diag.Diagnostic)
}

func joinList(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	out := ""
	for i, it := range items {
		switch {
		case i == 0:
		case i == len(items)-1:
			out += " and "
		default:
			out += ", "
		}
		out += it
	}
	return out
}
