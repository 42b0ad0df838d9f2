package fidelity

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/BurntSushi/toml"
	"go.podman.io/image/v5/pkg/sysregistriesv2"
	"go.podman.io/image/v5/types"
)

// registriesConfMu serialises CheckRegistriesConf: sysregistriesv2 keeps a process-wide cache
// that InvalidateCache clears for everyone.
var registriesConfMu sync.Mutex

// CheckRegistriesConf checks that a registries.conf (v2 TOML, as MCO writes it to
// /etc/containers/registries.conf) loads in containers/image (go.podman.io/image/v5
// pkg/sysregistriesv2), the library CRI-O and podman use on the node. The file is loaded alone:
// the drop-in directory is an empty temporary one, so the host's configuration never merges in.
// Keys c/image does not know fail too: it ignores them silently (a debug log line only). The
// error wraps ErrRegistriesConf.
func CheckRegistriesConf(conf []byte) error {
	if keys := unknownRegistriesConfKeys(conf); len(keys) > 0 {
		return fmt.Errorf("%w: unknown keys %s: containers/image ignores them", ErrRegistriesConf, strings.Join(keys, ", "))
	}

	dir, err := os.MkdirTemp("", "fidelity-registries-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "registries.conf")
	dropIns := filepath.Join(dir, "registries.conf.d")
	if err := os.Mkdir(dropIns, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(path, conf, 0o644); err != nil {
		return err
	}
	sys := &types.SystemContext{SystemRegistriesConfPath: path, SystemRegistriesConfDirPath: dropIns}

	registriesConfMu.Lock()
	defer registriesConfMu.Unlock()
	sysregistriesv2.InvalidateCache()
	defer sysregistriesv2.InvalidateCache()
	if _, err := sysregistriesv2.TryUpdatingCache(sys); err != nil {
		return fmt.Errorf("%w: %v", ErrRegistriesConf, err)
	}
	if _, err := sysregistriesv2.GetRegistries(sys); err != nil {
		return fmt.Errorf("%w: %v", ErrRegistriesConf, err)
	}
	if _, err := sysregistriesv2.UnqualifiedSearchRegistries(sys); err != nil {
		return fmt.Errorf("%w: %v", ErrRegistriesConf, err)
	}
	if _, err := sysregistriesv2.GetShortNameMode(sys); err != nil {
		return fmt.Errorf("%w: %v", ErrRegistriesConf, err)
	}
	return nil
}

// unknownRegistriesConfKeys decodes conf into the same shape sysregistriesv2.loadConfigFile
// does (v2 plus the rejected v1 layout) and returns the keys nothing consumed. A TOML syntax
// error is left for c/image to report.
func unknownRegistriesConfKeys(conf []byte) []string {
	var shape struct {
		sysregistriesv2.V2RegistriesConf
		sysregistriesv2.V1RegistriesConf //nolint:staticcheck // detected, then rejected, by c/image
	}
	meta, err := toml.NewDecoder(bytes.NewReader(conf)).Decode(&shape)
	if err != nil {
		return nil
	}
	var keys []string
	for _, k := range meta.Undecoded() {
		keys = append(keys, fmt.Sprintf("%q", k.String()))
	}
	sort.Strings(keys)
	return keys
}
