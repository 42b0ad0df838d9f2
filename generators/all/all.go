// Package all registers every generator; import it for its side effect.
package all

import (
	_ "github.com/siteforge/siteforge/generators/egress"
	_ "github.com/siteforge/siteforge/generators/ingress"
	_ "github.com/siteforge/siteforge/generators/machineconfigs"
	_ "github.com/siteforge/siteforge/generators/mirroring"
	_ "github.com/siteforge/siteforge/generators/network"
	_ "github.com/siteforge/siteforge/generators/pools"
)
