package registries

import (
	"fmt"

	configv1 "github.com/openshift/api/config/v1"
	"go.podman.io/image/v5/docker/reference"
	"go.podman.io/image/v5/pkg/sysregistriesv2"
	"go.podman.io/image/v5/types"
)

// blockLists is the image config's blocked/allowed lists after the payload rule.
type blockLists struct {
	registries  []string // blocked scopes written into registries.conf
	policy      []string // blocked scopes for policy.json (the payload repository itself stays allowed)
	allowed     []string // allowed scopes for policy.json (payload repository first when MCO adds it)
	payloadRepo string   // repository of Input.ReleaseImage, "" when not given
	warnings    []error
}

// applyPayloadRule filters blocked scopes that cover the release payload repository: such
// a scope is kept only when some digest mirror of the payload is outside every blocked scope
// (then the payload repository is added to the allowed list), otherwise it is dropped with a
// logged error. When the check itself fails MCO logs it and goes on with no blocked and no
// allowed scopes at all. Lists stay nil when empty: MCO tests them against nil.
// Mirrors MCO helpers.go getValidBlockedAndAllowedRegistries and payloadRepoHasUnblockedMirror.
func applyPayloadRule(in Input, objs objects, sources configv1.RegistrySources) (blockLists, error) {
	if in.ReleaseImage == "" {
		return blockLists{
			registries: append([]string(nil), sources.BlockedRegistries...),
			policy:     append([]string(nil), sources.BlockedRegistries...),
			allowed:    append([]string(nil), sources.AllowedRegistries...),
		}, nil
	}
	payload, err := reference.ParseNamed(in.ReleaseImage)
	if err != nil {
		return blockLists{}, mcoErrorf(ErrReleaseImage, "error parsing reference of release image")
	}
	lists := blockLists{payloadRepo: payload.Name()}

	var dropped []string
	checked, hasMirror := false, false
	for _, scope := range sources.BlockedRegistries {
		if !scopeIsNested(lists.payloadRepo, scope) {
			lists.registries = append(lists.registries, scope)
			lists.policy = append(lists.policy, scope)
			continue
		}
		if !checked {
			hasMirror, err = payloadHasUnblockedMirror(in, objs, sources, payload)
			if err != nil {
				return blockLists{payloadRepo: lists.payloadRepo, warnings: []error{&mcoError{kind: ErrPayloadCheck, msg: err.Error()}}}, nil
			}
			checked = true
		}
		if !hasMirror {
			dropped = append(dropped, scope)
			continue
		}
		lists.registries = append(lists.registries, scope)
		if scope != lists.payloadRepo {
			lists.policy = append(lists.policy, scope)
		}
		lists.allowed = append(lists.allowed, lists.payloadRepo)
	}
	if len(dropped) > 0 {
		lists.warnings = append(lists.warnings, mcoErrorf(ErrPayloadRepositoryBlocked, "error adding %q to blocked registries, cannot block the repository being used by the payload", dropped))
	}
	lists.allowed = append(lists.allowed, sources.AllowedRegistries...)
	return lists, nil
}

// payloadHasUnblockedMirror renders a scratch registries.conf from the digest mirrors and the
// image config's insecure and (unfiltered) blocked scopes, asks c/image for the pull sources
// of the payload, and reports whether one lies outside every blocked scope.
// Mirrors MCO helpers.go payloadRepoHasUnblockedMirror / createTempRegistriesFile.
func payloadHasUnblockedMirror(in Input, objs objects, sources configv1.RegistrySources, payload reference.Named) (bool, error) {
	regs, err := buildTables(editInput{
		insecure: sources.InsecureRegistries,
		blocked:  sources.BlockedRegistries,
		digest:   merge(objs.digestEntries()),
		legacy:   in.legacy(),
	})
	if err != nil {
		return false, err
	}
	data, err := (&Config{Registries: regs}).TOML()
	if err != nil {
		return false, err
	}
	usable := false
	err = withRegistriesConf(data, func(sys *types.SystemContext) error {
		reg, err := sysregistriesv2.FindRegistry(sys, payload.Name())
		if err != nil {
			return err
		}
		if reg == nil {
			return fmt.Errorf("no registries.conf table for the payload repository %q", payload.Name())
		}
		pullSources, err := reg.PullSourcesFromReference(payload)
		if err != nil {
			return err
		}
		for _, s := range pullSources {
			blocked := false
			for _, scope := range sources.BlockedRegistries {
				if scopeIsNested(s.Reference.Name(), scope) {
					blocked = true
				}
			}
			if !blocked {
				usable = true
				return nil
			}
		}
		return nil
	})
	return usable, err
}
