package registries

import "go.podman.io/image/v5/pkg/sysregistriesv2"

// Platform facts the engine relies on. Each names where it comes from; lints and
// generators use these instead of repeating the literals.

// RegistriesConfPath is the file MCO writes. // MCO helpers.go registriesConfigPath
const RegistriesConfPath = "/etc/containers/registries.conf"

// RegistriesConfMode is the file mode of the written file. // MCO ctrlcommon.NewIgnFileBytesOverwriting (0644)
const RegistriesConfMode = 0o644

// ManagedMachineConfigNameFormat names the MachineConfig per built-in pool (master, worker). // MCO helpers.go getManagedKeyReg ("99", "registries")
const ManagedMachineConfigNameFormat = "99-%s-generated-registries"

// defaultUnqualifiedSearchRegistries is the only content of MCO's registries.conf template. // MCO templates/*/01-*-container-runtime/_base/files/container-registries.yaml
var defaultUnqualifiedSearchRegistries = []string{"registry.access.redhat.com", "docker.io"}

// DefaultUnqualifiedSearchRegistries returns a copy of the template's unqualified-search-registries.
func DefaultUnqualifiedSearchRegistries() []string {
	return append([]string(nil), defaultUnqualifiedSearchRegistries...)
}

// Values of [[registry.mirror]] pull-from-mirror. // c/image sysregistriesv2 MirrorByDigestOnly, MirrorByTagOnly, MirrorAll
const (
	PullFromMirrorDigestOnly = sysregistriesv2.MirrorByDigestOnly // written for IDMS and ICSP mirrors (4.13+)
	PullFromMirrorTagOnly    = sysregistriesv2.MirrorByTagOnly    // written for ITMS mirrors
	PullFromMirrorAll        = sysregistriesv2.MirrorAll          // never written by MCO
)

// FirstMirrorSetMinor is the first OpenShift 4.y with ImageDigestMirrorSet/ImageTagMirrorSet;
// before it MCO wrote `mirror-by-digest-only = true` per ICSP source. // OCP 4.13 release notes; runtime-utils EditRegistriesConfig history
const FirstMirrorSetMinor = 13

// FirstAdditionalLayerStoreAuthHelperMinor is the first 4.y whose vendored c/image makes MCO's
// TOML encoder write `additional-layer-store-auth-helper = ""`. // registries.md section 10
const FirstAdditionalLayerStoreAuthHelperMinor = 19

// wildcardScopePrefix starts a wildcard scope (`*.example.com`). // runtime-utils IsValidRegistriesConfScope
const wildcardScopePrefix = "*."

// Source and mirror patterns MCO also applies to ICSP (which has no CRD pattern).
// Same text as the CRD patterns. // openshift/api config/v1/types_image_digest_mirror_set.go (ImageDigestMirrors.Source, ImageMirror)
const (
	sourcePattern = `^\*(?:\.(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]))+$|^((?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])(?:(?:\.(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]))+)?(?::[0-9]+)?)(?:(?:/[a-z0-9]+(?:(?:(?:[._]|__|[-]*)[a-z0-9]+)+)?)+)?$`
	mirrorPattern = `^((?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])(?:(?:\.(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]))+)?(?::[0-9]+)?)(?:(?:/[a-z0-9]+(?:(?:(?:[._]|__|[-]*)[a-z0-9]+)+)?)+)?$`
)
