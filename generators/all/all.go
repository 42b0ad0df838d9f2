// Package all registers every generator; import it for its side effect.
// The one list of generators: each package renders, this one wires them in.
package all

import (
	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/generators/acm"
	"github.com/siteforge/siteforge/generators/egress"
	"github.com/siteforge/siteforge/generators/hub"
	"github.com/siteforge/siteforge/generators/ingress"
	"github.com/siteforge/siteforge/generators/install"
	"github.com/siteforge/siteforge/generators/machineconfigs"
	"github.com/siteforge/siteforge/generators/mirroring"
	"github.com/siteforge/siteforge/generators/network"
	"github.com/siteforge/siteforge/generators/pools"
)

func init() {
	for _, g := range List {
		generators.Register(g)
	}
	for _, f := range Finishers {
		generators.RegisterFinisher(f)
	}
}

// Finishers run after every generator (in name order): they turn the
// rendered site into its installer's inputs, and record its hub delivery
// (acm).
var Finishers = []generators.Finisher{
	{Name: acm.Name, Finish: acm.Finish},
	{Name: hub.Name, Finish: hub.Finish},
	{Name: install.Name, Finish: install.Finish},
}

// List is every generator (Render runs them in name order).
var List = []generators.Generator{
	{Name: egress.Name, Generate: egress.Generate},
	{Name: ingress.Name, Generate: ingress.Generate},
	{Name: machineconfigs.Name, Generate: machineconfigs.Generate},
	{Name: mirroring.GeneratorName, Generate: mirroring.Generate},
	{Name: network.Name, Generate: network.Generate},
	{Name: pools.Name, Generate: pools.Generate},
}
