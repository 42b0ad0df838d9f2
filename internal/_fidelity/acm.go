package fidelity

import (
	"fmt"
	"os"
	"path"
	"sync"

	"github.com/siteforge/siteforge/internal/upstream"
)

// The ACM governance and placement CRDs are not embedded either: they are upstream data
// (open-cluster-management-io governance-policy-propagator and config-policy-controller
// deploy/crds, api cluster/v1beta1 and cluster/v1beta2; see their SOURCE file) kept in
// ../shared/upstream/acm/crds/ from the repository root. Tests that validate policies register
// them when they are there and skip, saying so, when they are not.

// ACMCRDDir is the folder of the ACM CRDs under the shared folder.
const ACMCRDDir = "upstream/acm/crds"

// ACMCRDFiles maps each ACM kind siteforge renders to its CRD file in ACMCRDDir.
var ACMCRDFiles = map[string]string{
	"Policy":                   "policy.open-cluster-management.io_policies.yaml",
	"ConfigurationPolicy":      "policy.open-cluster-management.io_configurationpolicies.yaml",
	"PlacementBinding":         "policy.open-cluster-management.io_placementbindings.yaml",
	"Placement":                "0000_02_clusters.open-cluster-management.io_placements.crd.yaml",
	"ManagedClusterSetBinding": "0000_01_clusters.open-cluster-management.io_managedclustersetbindings.crd.yaml",
}

// RegisterUpstreamACM is RegisterACM with siteforge's one Go type per ACM kind
// (internal/upstream).
func RegisterUpstreamACM() error {
	return RegisterACM(map[string]func() any{
		"Policy":                   func() any { return &upstream.Policy{} },
		"ConfigurationPolicy":      func() any { return &upstream.ConfigurationPolicy{} },
		"PlacementBinding":         func() any { return &upstream.PlacementBinding{} },
		"Placement":                func() any { return &upstream.Placement{} },
		"ManagedClusterSetBinding": func() any { return &upstream.ManagedClusterSetBinding{} },
	})
}

var acmOnce struct {
	sync.Once
	err error
}

// RegisterACM registers every kind of ACMCRDFiles with its upstream CRD found in the shared
// folder, newObj[kind] being the Go type rendered objects of that kind strictly decode into. It
// registers once per process; later calls return the first result. The error wraps
// ErrNoSharedCRD when a CRD is absent.
func RegisterACM(newObj map[string]func() any) error {
	acmOnce.Do(func() {
		for kind, name := range ACMCRDFiles {
			file, err := sharedFile(path.Join(ACMCRDDir, name))
			if err != nil {
				acmOnce.err = err
				return
			}
			crd, err := os.ReadFile(file)
			if err != nil {
				acmOnce.err = fmt.Errorf("%w: %v", ErrNoSharedCRD, err)
				return
			}
			gvk, err := crdServedGVK(crd)
			if err != nil {
				acmOnce.err = fmt.Errorf("%s: %w", file, err)
				return
			}
			if gvk.Kind != kind {
				acmOnce.err = fmt.Errorf("%s defines %s, not %s", file, gvk.Kind, kind)
				return
			}
			if newObj[kind] == nil {
				acmOnce.err = fmt.Errorf("no Go type given for %s", kind)
				return
			}
			if err := Register(gvk, newObj[kind], crd); err != nil {
				acmOnce.err = err
				return
			}
		}
	})
	return acmOnce.err
}
