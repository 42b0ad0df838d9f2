// Package registries is the registries engine: it reproduces how the Machine Config
// Operator (MCO) renders /etc/containers/registries.conf from ImageDigestMirrorSet,
// ImageTagMirrorSet, ImageContentSourcePolicy and the image.config.openshift.io
// "cluster" object, and it resolves image pulls against such a file the way CRI-O
// does (through containers/image, go.podman.io/image/v5/pkg/sysregistriesv2).
//
// It is the only implementation of these platform rules in siteforge: generators,
// lints and the mirrors preview/resolve commands all go through it.
//
// Entry points:
//
//   - [Render] merges the objects exactly like MCO (same order, same errors) into a [Config];
//   - [Config.TOML] writes the file (go-toml/v2, deterministic);
//   - [WrittenByMCO] tells whether MCO writes the file at all;
//   - [Load] checks that containers/image accepts a file;
//   - [Resolve] lists the endpoints a node tries for one image reference.
//
// Upstream behaviour reproduced (own implementation, no copied code):
// openshift/runtime-utils pkg/registries (EditRegistriesConfig, mergedDigestMirrorSets,
// mergedTagMirrorSets, mirrorsAdjustedForNestedScope, ScopeIsNestedInsideScope,
// IsValidRegistriesConfScope, topoGraph.Sorted) and openshift/machine-config-operator
// pkg/controller/container-runtime-config (helpers.go updateRegistriesConfig,
// validateRegistriesConfScopes, getValidBlockedAndAllowedRegistries,
// payloadRepoHasUnblockedMirror, updatePolicyJSON; container_runtime_config_controller.go
// registriesConfigIgnition, syncImageConfig).
package registries
