package registries

import (
	configv1 "github.com/openshift/api/config/v1"
)

// validateRegistryScopes checks image.config scopes in MCO's order (insecure, blocked,
// allowed) and returns the first failure with MCO's text.
// Mirrors MCO helpers.go validateRegistriesConfScopes (scope part).
func validateRegistryScopes(insecure, blocked, allowed []string) error {
	for _, scope := range insecure {
		if !isValidScope(scope) {
			return mcoErrorf(ErrInvalidScope, "invalid entry for insecure registries %q", scope)
		}
	}
	for _, scope := range blocked {
		if !isValidScope(scope) {
			return mcoErrorf(ErrInvalidScope, "invalid entry for blocked registries %q", scope)
		}
	}
	for _, scope := range allowed {
		if !isValidScope(scope) {
			return mcoErrorf(ErrInvalidScope, "invalid entry for allowed registries %q", scope)
		}
	}
	return nil
}

// policyEntry is a mirror entry before merging, with its raw policy ("" for ICSP).
type policyEntry struct {
	source  string
	mirrors []string
	policy  configv1.MirrorSourcePolicy
}

// validateMirrorEntries checks every entry (mirror-less ones included) in MCO's order:
// IDMS entries, then ICSP entries (as AllowContactingSource), then ITMS entries. Per entry:
// the source format, one policy per source across all objects (unset == AllowContactingSource,
// first seen wins), then per mirror its format and NeverContactSource with the source listed.
// Mirrors MCO helpers.go validateRegistriesConfScopes (validateMirrors part).
func validateMirrorEntries(entries []policyEntry) error {
	policies := map[string]configv1.MirrorSourcePolicy{}
	for _, e := range entries {
		if !sourceMatches.match(sourceRegexp, e.source) {
			return mcoErrorf(ErrInvalidSource, "invalid format for source %q", e.source)
		}
		policy := e.policy
		if policy == "" {
			policy = configv1.AllowContactingSource
		}
		if seen, ok := policies[e.source]; !ok {
			policies[e.source] = policy
		} else if seen != policy {
			return mcoErrorf(ErrConflictingMirrorSourcePolicy, "conflicting mirrorSourcePolicy is set for the same source %q in imagedigestmirrorsets, imagetagmirrorsets, or imagecontentsourcepolicies", e.source)
		}
		for _, m := range e.mirrors {
			if !mirrorMatches.match(mirrorRegexp, m) {
				return mcoErrorf(ErrInvalidMirror, "invalid format for mirror %q", m)
			}
			if policy == configv1.NeverContactSource && m == e.source {
				return mcoErrorf(ErrNeverContactSourceIsMirror, "cannot set mirrorSourcePolicy: NeverContactSource if the source %q is one of the mirrors", e.source)
			}
		}
	}
	return nil
}

// validatePolicyLists is the part of MCO's policy.json update that can refuse the whole
// render: allowed and blocked together (unless allowed is exactly the payload repository MCO
// added itself), then the scopes of both lists.
// Mirrors MCO helpers.go updatePolicyJSON.
func validatePolicyLists(blocked, allowed []string, payloadRepo string) error {
	if len(allowed) != 0 && len(blocked) != 0 {
		if !(len(allowed) == 1 && payloadRepo != "" && allowed[0] == payloadRepo) {
			return mcoErrorf(ErrAllowedAndBlocked, "invalid images config: only one of AllowedRegistries or BlockedRegistries may be specified")
		}
	}
	return validateRegistryScopes(nil, blocked, allowed)
}
