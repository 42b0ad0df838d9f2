package registries

import (
	"bytes"
	"fmt"

	"github.com/pelletier/go-toml/v2"

	"github.com/siteforge/siteforge/internal/platform"
)

// Config is /etc/containers/registries.conf as MCO writes it. The toml tags are
// sysregistriesv2's keys; only keys MCO writes appear in the output (MCO encodes
// sysregistriesv2.V2RegistriesConf with BurntSushi/toml, which writes `prefix` and the
// top-level strings even when empty and omits the omitempty ones).
type Config struct {
	UnqualifiedSearchRegistries []string `toml:"unqualified-search-registries"`
	// ShortNameMode is nil when MCO leaves the template file alone (it then has no such key).
	ShortNameMode *string `toml:"short-name-mode,omitempty"`
	// AdditionalLayerStoreAuthHelper is written (empty) from 4.19 on.
	AdditionalLayerStoreAuthHelper *string    `toml:"additional-layer-store-auth-helper,omitempty"`
	Registries                     []Registry `toml:"registry,omitempty"`

	// Written is false when MCO does not write the file at all (see [WrittenByMCO]); the
	// node then keeps the template, which is what the TOML above holds in that case.
	Written bool `toml:"-"`
	// Warnings are conditions MCO only logs (each matches a sentinel with errors.Is and
	// carries MCO's text), e.g. a blocked scope dropped because it covers the payload.
	Warnings []error `toml:"-"`
}

// Registry is one [[registry]] table.
type Registry struct {
	// Prefix is always written; MCO sets it only for `*.domain` scopes (then Location is empty).
	Prefix   string `toml:"prefix"`
	Location string `toml:"location,omitempty"`
	Insecure bool   `toml:"insecure,omitempty"`
	Blocked  bool   `toml:"blocked,omitempty"`
	// MirrorByDigestOnly is written by OpenShift <= 4.12 only (ICSP sources).
	MirrorByDigestOnly bool     `toml:"mirror-by-digest-only,omitempty"`
	Mirrors            []Mirror `toml:"mirror,omitempty"`
}

// Mirror is one [[registry.mirror]] table.
type Mirror struct {
	Location       string `toml:"location"`
	Insecure       bool   `toml:"insecure,omitempty"`
	PullFromMirror string `toml:"pull-from-mirror,omitempty"`
}

// Scope is what the table matches: the wildcard prefix, else the location.
// Mirrors runtime-utils registryScope.
func (r *Registry) Scope() string {
	if r.Prefix != "" {
		return r.Prefix
	}
	return r.Location
}

// templateConfig is the file a node has when MCO does not write one.
func templateConfig() *Config {
	return &Config{UnqualifiedSearchRegistries: platform.DefaultUnqualifiedSearchRegistries()}
}

// TOML encodes c deterministically (struct order, tables indented by two spaces like MCO's
// encoder). Compare files semantically: string quoting differs from MCO's BurntSushi output.
func (c *Config) TOML() ([]byte, error) {
	var buf bytes.Buffer
	enc := toml.NewEncoder(&buf)
	enc.SetIndentTables(true)
	enc.SetIndentSymbol("  ")
	if err := enc.Encode(c); err != nil {
		return nil, fmt.Errorf("encode registries.conf: %w", err)
	}
	return buf.Bytes(), nil
}

// Parse reads registries.conf content into the model (keys it does not model are ignored) after
// containers/image itself accepted it (Load). Written says whether MCO wrote the file: it writes
// short-name-mode whenever it writes one (the template has only unqualified-search-registries).
func Parse(data []byte) (*Config, error) {
	if err := Load(data); err != nil {
		return nil, err
	}
	var c Config
	if err := toml.Unmarshal(data, &c); err != nil {
		return nil, err
	}
	c.Written = c.ShortNameMode != nil || len(c.Registries) > 0
	return &c, nil
}
