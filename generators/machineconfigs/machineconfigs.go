// Package machineconfigs renders the site's extra MachineConfigs
// (machineConfigs: [name]: {pool, butane}): per entry the Butane source
// machineconfigs/<name>.bu and the MachineConfig machineconfigs/<name>.yaml,
// translated by internal/butane.
package machineconfigs

import (
	"sort"

	"cuelang.org/go/cue"

	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/internal/butane"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/ruleid"
	"github.com/siteforge/siteforge/internal/site"
)

// Name is the generator's name.
const Name = "machineconfigs"

// Dir is the output folder of the generator.
const Dir = "machineconfigs"

// Generate renders every machineConfigs entry, sorted by name. Butane errors
// of every entry are returned together as one diag.List; warnings go to
// ctx.Warn.
func Generate(ctx *generators.Context, s *site.Site) ([]generators.Artifact, error) {
	names := make([]string, 0, len(s.MachineConfigs))
	for n := range s.MachineConfigs {
		names = append(names, n)
	}
	sort.Strings(names)
	var arts []generators.Artifact
	var errs diag.List
	for _, name := range names {
		mc := s.MachineConfigs[name]
		entry := cue.MakePath(cue.Str("machineConfigs"), cue.Str(name)).String()
		field := cue.MakePath(cue.Str("machineConfigs"), cue.Str(name), cue.Str("butane")).String()
		// Lines inside the snippet can be mapped only when the position is
		// the string's own, not an ancestor's.
		pos, own := s.Positions[field]
		if !own {
			pos = s.Positions.Of(field)
		}
		res, err := butane.Build(butane.Config{
			Name:   name,
			Role:   mc.Pool,
			Body:   []byte(mc.Butane),
			Origin: butane.Origin{Pos: pos, Path: field, Snippet: own},
		}, s.Cluster.Version)
		if err != nil {
			if dl, ok := err.(diag.List); ok {
				errs = append(errs, dl...)
				continue
			}
			return nil, err
		}
		for _, w := range res.Warnings {
			ctx.Warn(ruleid.ButaneTranslation, w)
		}
		origin := []diag.Position{s.Positions.Of(entry)}
		arts = append(arts,
			generators.Artifact{Path: Dir + "/" + name + ".bu", Role: generators.File, Data: res.Butane, Comment: "#", Origin: origin},
			generators.Artifact{Path: Dir + "/" + name + ".yaml", Role: generators.Resource, Object: res.Object, Origin: origin},
		)
	}
	if len(errs) > 0 {
		return nil, errs.Sort()
	}
	return arts, nil
}
