package registries

import (
	"fmt"

	"go.podman.io/image/v5/docker/reference"
	"go.podman.io/image/v5/pkg/sysregistriesv2"
	"go.podman.io/image/v5/types"
)

// Skip reasons of an [Endpoint] that c/image leaves out for the reference.
// Source: c/image sysregistriesv2 (*Registry).PullSourcesFromReference.
const (
	SkipDigestOnlyForTag   = "digest-only mirror skipped for a tag reference"
	SkipTagOnlyForDigest   = "tag-only mirror skipped for a digest reference"
	SkipMirrorByDigestOnly = "mirror-by-digest-only registry: mirrors skipped for a tag reference"
)

// Resolution is how a node resolves one image reference against a registries.conf.
type Resolution struct {
	// Reference is the normalized reference pulled (docker.io/library/ added, :latest for a bare name).
	Reference string
	// Digest is true for a digest reference.
	Digest bool
	// Prefix is the matching table's prefix (longest match wins), "" when no table matches.
	Prefix string
	// Endpoints are every mirror of the matching table in order, then the source: the order a
	// node tries them, with the skipped ones flagged in place.
	Endpoints []Endpoint
}

// Endpoint is one place the node may pull from.
type Endpoint struct {
	// Location is the configured location (a mirror location, or the table's location; empty
	// for the source of a `*.domain` table, which is the reference's own host).
	Location string
	// Reference is the rewritten physical reference pulled there ("" when skipped).
	Reference string
	// Mirror is true for [[registry.mirror]] entries, false for the source endpoint.
	Mirror bool
	// Source is true when the endpoint is the source location itself (the source endpoint, or
	// a mirror entry that repeats the table's location).
	Source bool
	// PullFromMirror is the mirror's pull-from-mirror value.
	PullFromMirror string
	// Insecure is the endpoint's insecure flag (TLS verification off, HTTP allowed).
	Insecure bool
	// Blocked is true when the table matching the physical reference is blocked: the attempt
	// fails without contacting anything.
	Blocked bool
	// Skipped is true when c/image does not try the endpoint for this reference; SkipReason says why.
	Skipped    bool
	SkipReason string
}

// Attempts returns the endpoints the node actually contacts, in order.
func (r Resolution) Attempts() []Endpoint {
	var out []Endpoint
	for _, e := range r.Endpoints {
		if !e.Skipped && !e.Blocked {
			out = append(out, e)
		}
	}
	return out
}

// SucceedsDisconnected reports whether the pull can succeed without reaching the source: some
// contacted endpoint is a mirror other than the source and (when isMirrorReachable is not
// nil) reachable.
func (r Resolution) SucceedsDisconnected(isMirrorReachable func(location string) bool) bool {
	for _, e := range r.Attempts() {
		if e.Mirror && !e.Source && (isMirrorReachable == nil || isMirrorReachable(e.Location)) {
			return true
		}
	}
	return false
}

// Resolve lists the endpoints a node tries for ref under the registries.conf in data, using
// containers/image itself (FindRegistry, PullSourcesFromReference, the per-endpoint blocked
// check of the docker transport). Errors from c/image, including a rejected file, are returned.
func Resolve(data []byte, ref string) (Resolution, error) {
	return remember(data, "\x00"+ref, func() (Resolution, error) { return resolve(data, ref) })
}

// ResolveWithDropIn is Resolve on registries.conf data with the registries.conf.d drop-in
// dropIn merged over it, as c/image merges drop-ins (not cached: a drop-in is rare).
func ResolveWithDropIn(data, dropIn []byte, ref string) (Resolution, error) {
	return resolveIn(data, dropIn, ref)
}

// LoadWithDropIn reports whether containers/image accepts data with the drop-in merged over it.
func LoadWithDropIn(data, dropIn []byte) error {
	return withRegistriesConfDropIn(data, dropIn, func(sys *types.SystemContext) error {
		if _, err := sysregistriesv2.TryUpdatingCache(sys); err != nil {
			return fmt.Errorf("containers/image rejects registries.conf with the drop-in: %w", err)
		}
		return nil
	})
}

func resolve(data []byte, ref string) (Resolution, error) { return resolveIn(data, nil, ref) }

func resolveIn(data, dropIn []byte, ref string) (Resolution, error) {
	named, err := reference.ParseNormalizedNamed(ref)
	if err != nil {
		return Resolution{}, fmt.Errorf("parse image reference %q: %w", ref, err)
	}
	named = reference.TagNameOnly(named) // a bare name is pulled as :latest, as CRI-O does
	_, digest := named.(reference.Canonical)
	res := Resolution{Reference: named.String(), Digest: digest}

	err = withRegistriesConfDropIn(data, dropIn, func(sys *types.SystemContext) error {
		reg, err := sysregistriesv2.FindRegistry(sys, named.Name())
		if err != nil {
			return fmt.Errorf("containers/image rejects registries.conf: %w", err)
		}
		if reg == nil { // c/image then pulls the reference as is, from its own location
			res.Endpoints = []Endpoint{{Location: named.Name(), Reference: named.String(), Source: true}}
			return nil
		}
		res.Prefix = reg.Prefix
		sources, err := reg.PullSourcesFromReference(named)
		if err != nil {
			return fmt.Errorf("pull sources of %s: %w", named, err)
		}
		endpoints, err := alignEndpoints(reg, sources, digest)
		if err != nil {
			return err
		}
		for i := range endpoints {
			e := &endpoints[i]
			if e.Skipped {
				continue
			}
			physical, err := reference.ParseNamed(e.Reference)
			if err != nil {
				return fmt.Errorf("parse rewritten reference %q: %w", e.Reference, err)
			}
			table, err := sysregistriesv2.FindRegistry(sys, physical.Name())
			if err != nil {
				return fmt.Errorf("containers/image rejects registries.conf: %w", err)
			}
			e.Blocked = table != nil && table.Blocked
		}
		res.Endpoints = endpoints
		return nil
	})
	if err != nil {
		return Resolution{}, err
	}
	return res, nil
}

// alignEndpoints walks the table's mirrors and the source, pairing them with c/image's pull
// sources (which omit the skipped mirrors) and naming why each missing mirror was skipped.
func alignEndpoints(reg *sysregistriesv2.Registry, sources []sysregistriesv2.PullSource, digest bool) ([]Endpoint, error) {
	if len(sources) == 0 {
		return nil, fmt.Errorf("containers/image returned no pull source for table %q", reg.Prefix)
	}
	mirrorSources, primary := sources[:len(sources)-1], sources[len(sources)-1]
	var out []Endpoint
	next := 0
	for _, m := range reg.Mirrors {
		e := Endpoint{
			Location:       m.Location,
			Mirror:         true,
			Source:         reg.Location != "" && m.Location == reg.Location,
			PullFromMirror: m.PullFromMirror,
			Insecure:       m.Insecure,
		}
		if next < len(mirrorSources) && mirrorSources[next].Endpoint == m {
			e.Reference = mirrorSources[next].Reference.String()
			next++
			out = append(out, e)
			continue
		}
		e.Skipped = true
		switch {
		case reg.MirrorByDigestOnly && !digest:
			e.SkipReason = SkipMirrorByDigestOnly
		case m.PullFromMirror == PullFromMirrorDigestOnly && !digest:
			e.SkipReason = SkipDigestOnlyForTag
		case m.PullFromMirror == PullFromMirrorTagOnly && digest:
			e.SkipReason = SkipTagOnlyForDigest
		default:
			return nil, fmt.Errorf("containers/image skipped mirror %q of table %q for no known reason", m.Location, reg.Prefix)
		}
		out = append(out, e)
	}
	if next != len(mirrorSources) {
		return nil, fmt.Errorf("containers/image returned pull sources not listed in table %q", reg.Prefix)
	}
	out = append(out, Endpoint{
		Location:  reg.Location,
		Reference: primary.Reference.String(),
		Source:    true,
		Insecure:  primary.Endpoint.Insecure,
	})
	return out, nil
}
