package machineconfigs

import (
	"github.com/siteforge/siteforge/generators"
)

// The tests render through generators.Render: register what they render
// (generators/all registers every generator for the product; it cannot be
// imported here).
func init() {
	generators.Register(generators.Generator{Name: Name, Generate: Generate})
}
