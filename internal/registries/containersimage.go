package registries

import (
	"fmt"
	"os"
	"path/filepath"

	"go.podman.io/image/v5/pkg/sysregistriesv2"
	"go.podman.io/image/v5/types"
)

// withRegistriesConf writes data as the only registries configuration c/image sees (a
// temporary registries.conf and an empty drop-in directory, so the host's files never merge
// in), drops c/image's configuration cache, and calls fn with a SystemContext for it.
func withRegistriesConf(data []byte, fn func(sys *types.SystemContext) error) error {
	dir, err := os.MkdirTemp("", "siteforge-registries-")
	if err != nil {
		return fmt.Errorf("registries.conf scratch directory: %w", err)
	}
	defer os.RemoveAll(dir)
	confPath := filepath.Join(dir, "registries.conf")
	if err := os.WriteFile(confPath, data, 0o600); err != nil {
		return fmt.Errorf("write registries.conf: %w", err)
	}
	dropIns := filepath.Join(dir, "registries.conf.d")
	if err := os.Mkdir(dropIns, 0o700); err != nil {
		return fmt.Errorf("registries.conf.d scratch directory: %w", err)
	}
	sysregistriesv2.InvalidateCache()
	defer sysregistriesv2.InvalidateCache() // the scratch path is never used again
	return fn(&types.SystemContext{SystemRegistriesConfPath: confPath, SystemRegistriesConfDirPath: dropIns})
}

// Load reports whether containers/image accepts data as registries.conf (the checks CRI-O
// runs when it reads the file). The error is c/image's.
func Load(data []byte) error {
	return withRegistriesConf(data, func(sys *types.SystemContext) error {
		if _, err := sysregistriesv2.TryUpdatingCache(sys); err != nil {
			return fmt.Errorf("containers/image rejects registries.conf: %w", err)
		}
		return nil
	})
}
