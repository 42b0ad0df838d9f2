package registries

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"go.podman.io/image/v5/pkg/sysregistriesv2"
	"go.podman.io/image/v5/types"
)

// withRegistriesConf writes data as the only registries configuration c/image sees (a
// temporary registries.conf and an empty drop-in directory, so the host's files never merge
// in), drops c/image's configuration cache, and calls fn with a SystemContext for it.
func withRegistriesConf(data []byte, fn func(sys *types.SystemContext) error) error {
	return withRegistriesConfDropIn(data, nil, fn)
}

// withRegistriesConfDropIn is withRegistriesConf with one drop-in (nil: none) in the
// registries.conf.d directory, merged over the file as c/image merges drop-ins.
func withRegistriesConfDropIn(data, dropIn []byte, fn func(sys *types.SystemContext) error) error {
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
	if dropIn != nil {
		if err := os.WriteFile(filepath.Join(dropIns, "99-drop-in.conf"), dropIn, 0o600); err != nil {
			return fmt.Errorf("write registries.conf.d drop-in: %w", err)
		}
	}
	sysregistriesv2.InvalidateCache()
	defer sysregistriesv2.InvalidateCache() // the scratch path is never used again
	return fn(&types.SystemContext{SystemRegistriesConfPath: confPath, SystemRegistriesConfDirPath: dropIns})
}

// Load reports whether containers/image accepts data as registries.conf (the checks CRI-O
// runs when it reads the file). The error is c/image's.
func Load(data []byte) error {
	_, err := remember(data, "", func() (Resolution, error) {
		return Resolution{}, withRegistriesConf(data, func(sys *types.SystemContext) error {
			if _, err := sysregistriesv2.TryUpdatingCache(sys); err != nil {
				return fmt.Errorf("containers/image rejects registries.conf: %w", err)
			}
			return nil
		})
	})
	return err
}

// answers keeps what c/image answered about a registries.conf (whether it loads; how a
// reference resolves), by the file's SHA-256 and the reference. An answer depends on nothing
// else (the scratch drop-in directory is empty, no other configuration is read), and the
// sites of a fleet ask the same questions of the same file, so each is worked out once per
// process. Bounded: when full, it starts over.
var answers struct {
	sync.Mutex
	m map[answerKey]answer
}

const maxAnswers = 4096

type answerKey struct {
	conf [sha256.Size]byte
	ref  string // "" for Load
}

type answer struct {
	res Resolution
	err error
}

// remember returns the answer for (data, ref), working it out with ask when not known.
func remember(data []byte, ref string, ask func() (Resolution, error)) (Resolution, error) {
	key := answerKey{conf: sha256.Sum256(data), ref: ref}
	answers.Lock()
	a, ok := answers.m[key]
	answers.Unlock()
	if !ok {
		a.res, a.err = ask()
		answers.Lock()
		if answers.m == nil || len(answers.m) >= maxAnswers {
			answers.m = map[answerKey]answer{}
		}
		answers.m[key] = a
		answers.Unlock()
	}
	res := a.res
	res.Endpoints = append([]Endpoint(nil), a.res.Endpoints...) // the caller's own copy
	return res, a.err
}
