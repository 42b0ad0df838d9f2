// Package schema embeds the siteforge site schema (CUE), version
// siteforge.dev/v1alpha1.
package schema

import _ "embed"

// Source is the CUE schema, as printed by `siteforge schema`.
//
//go:embed siteforge.cue
var Source []byte

// Filename is the name schema positions carry; diagnostics never point there
// when a user position exists.
const Filename = "siteforge-schema.cue"

// APIVersion is the site description version this schema defines.
const APIVersion = "siteforge.dev/v1alpha1"

// Definition is the CUE definition every site unifies with.
const Definition = "#Site"
