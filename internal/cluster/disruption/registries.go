package disruption

import (
	"fmt"
	"reflect"

	"github.com/BurntSushi/toml"
	ign3types "github.com/coreos/ignition/v2/config/v3_5/types"
	"go.podman.io/image/v5/pkg/sysregistriesv2"

	"github.com/siteforge/siteforge/internal/ignition"
	"github.com/siteforge/siteforge/internal/platform"
)

// maxRegistriesConf bounds the registries.conf read from a config.
const maxRegistriesConf = 8 << 20

// registriesConfData is the registries.conf bytes of a config as MCO reads
// them for the drain decision (pkg/controller/common helpers.go
// GetIgnitionFileDataByPath): the data URL decoded, NOT decompressed; nil
// when the file is absent or has no contents source.
func registriesConfData(c ign3types.Config) ([]byte, error) {
	for _, f := range c.Storage.Files {
		if f.Path != platform.RegistriesConfPath || f.Contents.Source == nil {
			continue
		}
		return ignition.Contents(*f.Contents.Source, "", maxRegistriesConf)
	}
	return nil, nil
}

// safeRegistriesChange reproduces MCO's isSafeContainerRegistryConfChanges
// (pkg/daemon/drain.go): a registries.conf change skips the drain when
//   - unqualified-search-registries keeps the old list as its prefix
//     (entries only appended);
//   - no registry (keyed by prefix, or location when prefix is empty) is
//     removed;
//   - a registry in both has the same prefix, location, blocked and
//     insecure, keeps every old mirror, changes no mirror's pull-from-mirror
//     except to "digest-only", and every added mirror is pull-from-mirror =
//     "digest-only" or its registry is mirror-by-digest-only;
//   - every added registry is digest-only: each mirror pull-from-mirror =
//     "digest-only", or, without mirrors, mirror-by-digest-only = true.
//
// Nothing else is checked: MCO does not look at a registry's
// mirror-by-digest-only when its mirrors and their pull-from-mirror stay
// the same. why says what makes the change unsafe; err is a file MCO cannot
// read, which fails the update.
//
// Before platform.PullFromMirrorDrainCheckSince (release-4.12 drain.go)
// MCO looks at the registry's mirror-by-digest-only instead: an added
// registry is safe when it is mirror-by-digest-only, a changed
// mirror-by-digest-only drains, and an added mirror is safe on a
// mirror-by-digest-only registry (what ImageContentSourcePolicies write).
func safeRegistriesChange(oldIgn, newIgn ign3types.Config, minor platform.OCPMinor) (safe bool, why string, err error) {
	oldData, err := registriesConfData(oldIgn)
	if err != nil {
		return false, "", fmt.Errorf("old %s: %w", platform.RegistriesConfPath, err)
	}
	newData, err := registriesConfData(newIgn)
	if err != nil {
		return false, "", fmt.Errorf("new %s: %w", platform.RegistriesConfPath, err)
	}
	var oldConf, newConf sysregistriesv2.V2RegistriesConf
	if _, err := toml.Decode(string(oldData), &oldConf); err != nil {
		return false, "", fmt.Errorf("old %s is not TOML MCO can read: %w", platform.RegistriesConfPath, err)
	}
	if _, err := toml.Decode(string(newData), &newConf); err != nil {
		return false, "", fmt.Errorf("new %s is not TOML MCO can read: %w", platform.RegistriesConfPath, err)
	}

	if len(oldConf.UnqualifiedSearchRegistries) > len(newConf.UnqualifiedSearchRegistries) {
		return false, "an unqualified-search-registries entry is removed", nil
	}
	for i, r := range oldConf.UnqualifiedSearchRegistries {
		if newConf.UnqualifiedSearchRegistries[i] != r {
			return false, "unqualified-search-registries is reordered or an entry replaced", nil
		}
	}

	scope := func(r sysregistriesv2.Registry) string {
		if r.Prefix != "" {
			return r.Prefix
		}
		return r.Location
	}
	oldRegs := map[string]sysregistriesv2.Registry{}
	for _, r := range oldConf.Registries {
		oldRegs[scope(r)] = r
	}
	newRegs := map[string]sysregistriesv2.Registry{}
	var newOrder []string
	for _, r := range newConf.Registries {
		if _, dup := newRegs[scope(r)]; !dup {
			newOrder = append(newOrder, scope(r))
		}
		newRegs[scope(r)] = r
	}
	for _, r := range oldConf.Registries {
		if _, ok := newRegs[scope(r)]; !ok {
			return false, fmt.Sprintf("registry %s is removed", scope(r)), nil
		}
	}
	for _, s := range newOrder {
		nr := newRegs[s]
		or, ok := oldRegs[s]
		if !ok {
			if minor < platform.PullFromMirrorDrainCheckSince {
				if !nr.MirrorByDigestOnly {
					return false, fmt.Sprintf("registry %s is added with mirror-by-digest-only = false", s), nil
				}
				continue
			}
			if !allDigestOnly(nr) {
				return false, fmt.Sprintf("registry %s is added with a mirror that does not set pull-from-mirror = \"digest-only\"", s), nil
			}
			continue
		}
		if reflect.DeepEqual(or, nr) {
			continue
		}
		switch {
		case or.Prefix != nr.Prefix:
			return false, fmt.Sprintf("registry %s: prefix changes", s), nil
		case or.Location != nr.Location:
			return false, fmt.Sprintf("registry %s: location changes", s), nil
		case or.Blocked != nr.Blocked:
			return false, fmt.Sprintf("registry %s: blocked changes", s), nil
		case or.Insecure != nr.Insecure:
			return false, fmt.Sprintf("registry %s: insecure changes", s), nil
		}
		if minor < platform.PullFromMirrorDrainCheckSince && or.MirrorByDigestOnly != nr.MirrorByDigestOnly {
			return false, fmt.Sprintf("registry %s: mirror-by-digest-only changes", s), nil
		}
		for _, m := range or.Mirrors {
			if _, found := findMirror(m.Location, nr.Mirrors); !found {
				return false, fmt.Sprintf("registry %s: mirror %s is removed", s, m.Location), nil
			}
		}
		if minor < platform.PullFromMirrorDrainCheckSince {
			for _, m := range nr.Mirrors {
				if _, found := findMirror(m.Location, or.Mirrors); !found && !nr.MirrorByDigestOnly {
					return false, fmt.Sprintf("registry %s: mirror %s is added to a registry that is not mirror-by-digest-only", s, m.Location), nil
				}
			}
			continue
		}
		for _, m := range nr.Mirrors {
			if om, found := findMirror(m.Location, or.Mirrors); found {
				if m.PullFromMirror != om.PullFromMirror && m.PullFromMirror != sysregistriesv2.MirrorByDigestOnly {
					return false, fmt.Sprintf("registry %s: mirror %s pull-from-mirror changes from %q to %q", s, m.Location, om.PullFromMirror, m.PullFromMirror), nil
				}
				continue
			}
			if m.PullFromMirror != sysregistriesv2.MirrorByDigestOnly && !nr.MirrorByDigestOnly {
				return false, fmt.Sprintf("registry %s: mirror %s is added without pull-from-mirror = \"digest-only\" (it serves tags)", s, m.Location), nil
			}
		}
	}
	return true, "", nil
}

func findMirror(loc string, mirrors []sysregistriesv2.Endpoint) (sysregistriesv2.Endpoint, bool) {
	for _, m := range mirrors {
		if m.Location == loc {
			return m, true
		}
	}
	return sysregistriesv2.Endpoint{}, false
}

// allDigestOnly is MCO's allDigestOnlyMirror (pkg/daemon/drain.go).
func allDigestOnly(r sysregistriesv2.Registry) bool {
	if len(r.Mirrors) == 0 {
		return r.MirrorByDigestOnly
	}
	for _, m := range r.Mirrors {
		if m.PullFromMirror != sysregistriesv2.MirrorByDigestOnly {
			return false
		}
	}
	return true
}
