package mirroring

import (
	"bytes"
	"fmt"

	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/internal/butane"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/ruleid"
	"github.com/siteforge/siteforge/internal/site"
)

// legacyTagMachineConfigs renders the pre-4.13 tag-mirroring MachineConfig of each built-in
// pool (custom pools inherit the worker one), as Butane and as the translated MachineConfig.
func legacyTagMachineConfigs(ctx warner, s *site.Site, conf []byte, minor platform.OCPMinor, origin []diag.Position) ([]generators.Artifact, error) {
	at := diag.Position{}
	if len(origin) > 0 {
		at = origin[0]
	}
	var arts []generators.Artifact
	for _, pool := range []string{site.RoleMaster, site.RoleWorker} {
		name := legacyTagMachineConfigName(pool)
		mco := fmt.Sprintf(platform.RegistriesMachineConfigNameFormat, pool)
		var body bytes.Buffer
		body.WriteString(commentBlock(fmt.Sprintf("Tag mirroring before OpenShift 4.13, which has no ImageTagMirrorSet. This file REPLACES the one of %s, MCO's own registries.conf MachineConfig for pool %s: MCO merges a pool's MachineConfigs sorted by name, and the last file at a path wins (MCO MergeMachineConfigs); %s sorts after %s. So the content is MCO's file for the site's ImageContentSourcePolicy and image config, plus mirror-by-digest-only = false on the tag-mirrored sources. Keep it in step: render again after any mirroring change, and delete this MachineConfig when the cluster moves to 4.13 (siteforge then renders an ImageTagMirrorSet instead).",
			mco, pool, name, mco)))
		body.Write(butane.Body{Files: []butane.File{{
			Path:     platform.RegistriesConfPath,
			Mode:     platform.RegistriesConfMode,
			Contents: string(conf),
		}}}.YAML())
		res, err := butane.Build(butane.Config{
			Name:   name,
			Role:   pool,
			Body:   body.Bytes(),
			Origin: butane.Origin{Pos: at, Path: "mirroring"},
		}, minor.String())
		if dl, ok := err.(diag.List); ok {
			return nil, dl
		}
		if err != nil {
			return nil, fmt.Errorf("tag-mirroring MachineConfig %s: %w", name, err)
		}
		for _, w := range res.Warnings {
			ctx.Warn(ruleid.ButaneTranslation, w)
		}
		arts = append(arts,
			generators.Artifact{Path: legacyTagButanePath(pool), Role: generators.File, Data: res.Butane, Comment: "#", Origin: origin},
			generators.Artifact{Path: legacyTagMachineConfigPath(pool), Role: generators.Resource, Object: res.Object, Origin: origin},
		)
	}
	return arts, nil
}

// legacyTagMachineConfigPath is the MachineConfig's path in the output folder.
func legacyTagMachineConfigPath(pool string) string {
	return resourcePath("MachineConfig", legacyTagMachineConfigName(pool))
}

// legacyTagButanePath is the Butane source next to it.
func legacyTagButanePath(pool string) string {
	return "mirroring/" + legacyTagMachineConfigName(pool) + ".bu"
}
