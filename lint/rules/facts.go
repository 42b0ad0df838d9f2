package rules

import (
	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/lint"
)

// factKey names what several rules derive from one set; lint.Fact computes
// each once per set.
type factKey int

const (
	factMachineConfigs factKey = iota
	factMCFConfigs
	factNetSet
	factMirrorObjects
	factRegistriesFiles
	factAnalysis
	factInstall
	factInCluster
	factState
	factEgress
)

// machineConfigs are the set's MachineConfigs with their decoded Ignition
// (manifests.MachineConfigs), read once per set.
func machineConfigs(set lint.Set) []*manifests.MachineConfig {
	return lint.Fact(set, factMachineConfigs, func() []*manifests.MachineConfig { return manifests.MachineConfigs(set.Objects) })
}
