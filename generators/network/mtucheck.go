package network

import (
	"errors"
	"fmt"

	"github.com/siteforge/siteforge/internal/cluster/mtu"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/ruleid"
	"github.com/siteforge/siteforge/internal/site"
)

// mtuRequest is one change of Network.operator.openshift.io "cluster" that a
// generated file asks the cluster for, in the terms of
// platform.ValidateMTUChange: the state it meets and spec.migration.mtu.
type mtuRequest struct {
	// what names the request in a diagnostic ("phase 1 patch network/...").
	what  string
	state platform.NetworkState
	mig   *platform.MTUMigration
}

// mtuRequests returns the phase 1 and phase 2 requests of the site's MTU
// migration: phase 1 against the running cluster, phase 2 against the state
// CNO is in once phase 1 is reconciled (the applied MTU is network.to, the
// phase 1 migration is the applied one).
func mtuRequests(s *site.Site, p mtu.Plan) (phase1, phase2 mtuRequest) {
	from, to, machine := *p.Current, p.Target, p.Machine
	mig := &platform.MTUMigration{NetworkFrom: &from, NetworkTo: &to, MachineTo: &machine}
	what1, what2 := "phase 1 patch "+mtuPhase1PatchYAML, "phase 2 patch "+mtuPhase2PatchYAML
	if phase := s.MTUPhase(); phase == site.MTUPhase1 || phase == site.MTUPhase2 {
		what1, what2 = "phase 1 ("+mtuGitObject+")", "phase 2 ("+mtuGitObject+")"
	}
	phase1 = mtuRequest{
		what: what1,
		state: platform.NetworkState{
			NetworkType:          p.NetworkType,
			AppliedMTU:           from,
			AnyIPv6:              p.AnyIPv6,
			IPsecFull:            p.IPsecFull,
			CurrentConfigMTU:     &from,
			NetworkTypeMigration: offlineNetworkMigration(s),
		},
		mig: mig,
	}
	phase2 = mtuRequest{
		what: what2,
		state: platform.NetworkState{
			NetworkType:        p.NetworkType,
			AppliedMTU:         to,
			AnyIPv6:            p.AnyIPv6,
			IPsecFull:          p.IPsecFull,
			CurrentConfigMTU:   &from,
			RequestedConfigMTU: &to,
			AppliedMigration:   mig,
		},
	}
	return phase1, phase2
}

func offlineNetworkMigration(s *site.Site) bool {
	return s.NetworkMigration != nil && s.NetworkMigration.Mode != site.MigrationLive
}

// checkMTURequest asks platform.ValidateMTUChange, the offline copy of the
// API server's and CNO's verdict, whether the cluster would accept r, and
// turns every reason of a rejection into a diagnostic at the site field to
// change. The message carries upstream's text verbatim.
func checkMTURequest(s *site.Site, r mtuRequest) diag.List {
	err := platform.ValidateMTUChange(r.state, r.mig)
	if err == nil {
		return nil
	}
	var ce *platform.MTUChangeError
	if !errors.As(err, &ce) {
		return diag.List{s.At("mtu", fmt.Sprintf("%s cannot be checked: %v", r.what, err), "")}
	}
	by := "CNO"
	if ce.Gate == platform.GateAPIAdmission {
		by = "the API server (operator.openshift.io/v1 Network validation)"
	}
	var out diag.List
	for _, reason := range ce.Reasons {
		path, hint := rejectionField(s, reason.Kind)
		d := s.At(path, fmt.Sprintf("%s would be rejected by %s: %s", r.what, by, reason.Message), hint)
		d.Rule = ruleid.MTUMigrationRejected
		if errors.Is(reason.Kind, platform.ErrNetworkTypeAndMTUMigrationClash) {
			// lint states this rejection as its own fact, MTU011
			d.Rule = ruleid.NetworkTypeAndMTUMigration
		}
		out = append(out, d)
	}
	return out
}

// rejectionField is the site field behind a kind of rejection, and how to fix
// it.
func rejectionField(s *site.Site, kind error) (path, hint string) {
	target := "mtu.target"
	if s.MTU == nil || s.MTU.Target == nil {
		target = "mtu" // computed: nothing the user wrote, point at the mtu block
	}
	switch {
	case errors.Is(kind, platform.ErrMTUMigrationFieldsMissing):
		return "mtu", "network.from, network.to and machine.to are all required"
	case errors.Is(kind, platform.ErrMTUMigrationFromNotApplied):
		return "mtu.current", "mtu.current must be the applied MTU: oc get network.config cluster -o jsonpath='{.status.clusterNetworkMTU}'"
	case errors.Is(kind, platform.ErrMTUMigrationNetworkToRange), errors.Is(kind, platform.ErrMTUInvalid):
		return target, "the cluster MTU must stay inside CNO's bounds"
	case errors.Is(kind, platform.ErrMTUMigrationMachineToRange):
		return "mtu.machine", "the machine MTU must stay inside CNO's bounds"
	case errors.Is(kind, platform.ErrMTUMigrationMachineToHeadroom):
		return "mtu.machine", "raise mtu.machine to network.to plus the overlay overhead, or lower the cluster MTU"
	case errors.Is(kind, platform.ErrMTUChangedWithoutMigration):
		return target, "phase 2 must set the mtu to network.to of phase 1"
	case errors.Is(kind, platform.ErrNetworkTypeAndMTUMigrationClash):
		return "networkMigration", "run the MTU migration first (set mtu.current to the new MTU when it is done), then the network type migration, which sets the OVN-Kubernetes MTU itself"
	}
	return "mtu", ""
}
