package platform

import (
	"errors"
	"fmt"
	"strings"
)

// This file reproduces, offline, how a cluster accepts or rejects a change of
// the cluster network MTU on Network.operator.openshift.io "cluster". Three
// gates run, in this order, and the first that rejects stops the rest:
//
//  1. API admission: the CRD's CEL rule on spec.migration (openshift/api
//     operator/v1 NetworkMigration). A rejected patch never reaches CNO.
//  2. CNO Validate (pkg/network validateOVNKubernetes / validateOpenShiftSDN):
//     the spec mtu must be inside the bounds ("invalid MTU %d").
//  3. CNO IsChangeSafe(prev=applied config, next=spec after FillDefaults)
//     (isOVNKubernetesChangeSafe / isOpenShiftSDNChangeSafe): the migration
//     rules. Every failing rule is reported, not only the first.
//
// How CNO judges phase 2 (migration removed, mtu set): CNO has no rule that
// names the previous migration. It compares the spec mtu with the mtu of the
// *applied* configuration. While a migration is in the spec,
// renderOVNKubernetes / renderOpenShiftSDN overwrite the rendered config's mtu
// with migration.mtu.network.to ("c.MTU is used to set the applied network
// configuration MTU"), and that rendered config is both what CNO records as
// applied and what StatusFromOperatorConfig publishes as Network.config
// status.clusterNetworkMTU. So once phase 1 has been reconciled the applied
// MTU IS network.to, and phase 2 falls into the plain "no migration" branch:
// spec mtu == applied MTU is accepted, anything else is "cannot change ...
// without migration". The spec mtu is never empty in practice (CNO writes the
// defaulted spec back), so just deleting the migration leaves the old mtu in
// the spec and is rejected; an mtu that is truly absent would be defaulted
// from the applied config (fillOVNKubernetesDefaults) and accepted.
// ValidateMTUChange models this exactly: pass NetworkState.AppliedMTU as the
// cluster's current status.clusterNetworkMTU (= the previous network.to after
// phase 1) and the phase-2 mtu as RequestedConfigMTU.

// MTUMigration is spec.migration.mtu: network.{from,to} and machine.{from,to}.
// A nil field is a field absent from the object.
type MTUMigration struct {
	NetworkFrom, NetworkTo, MachineFrom, MachineTo *int
}

// NetworkState is what CNO compares a requested change against, plus the
// requested spec values that are not part of spec.migration.mtu.
type NetworkState struct {
	NetworkType string // OVNKubernetes | OpenShiftSDN
	AppliedMTU  int    // Network.config status.clusterNetworkMTU (= the applied config's mtu)
	AnyIPv6     bool   // any clusterNetwork CIDR is IPv6
	IPsecFull   bool   // IPsec mode Full in the requested spec (see IPsecModeIsFull)
	// CurrentConfigMTU is the defaultNetwork mtu in the operator config now,
	// if set; RequestedConfigMTU is the one the change sets (phase 2 or no
	// migration). A nil RequestedConfigMTU leaves CurrentConfigMTU in place.
	CurrentConfigMTU, RequestedConfigMTU *int
	// NetworkTypeMigration: an offline (mode other than Live) networkType
	// migration is requested in the same spec.migration. A Live-mode
	// networkType migration is allowed next to an MTU migration by the CEL
	// rule; leave this false for it.
	NetworkTypeMigration bool
	// AppliedMigration is the spec.migration.mtu recorded in the applied
	// config, when a migration is already in progress. CNO re-checks
	// network.from only when it differs from this one (isOVNKubernetesChangeSafe
	// checkPrevMTU). Nil for a new migration.
	AppliedMigration *MTUMigration
}

// Gate says which of the three gates rejected a change.
type Gate int

// The gates, in the order they run.
const (
	GateAPIAdmission  Gate = iota + 1 // CRD CEL validation (kube-apiserver)
	GateCNOValidate                   // CNO network.Validate
	GateCNOChangeSafe                 // CNO network.IsChangeSafe
)

func (g Gate) String() string {
	switch g {
	case GateAPIAdmission:
		return "api-admission"
	case GateCNOValidate:
		return "cno-validate"
	case GateCNOChangeSafe:
		return "cno-change-safe"
	}
	return fmt.Sprintf("Gate(%d)", int(g))
}

// Kinds of rejection, for errors.Is. The messages themselves are CNO's.
var (
	ErrMTUMigrationFieldsMissing       = errors.New("mtu migration: required field missing")
	ErrMTUMigrationFromNotApplied      = errors.New("mtu migration: network.from is not the applied MTU")
	ErrMTUMigrationNetworkToRange      = errors.New("mtu migration: network.to out of range")
	ErrMTUMigrationMachineToRange      = errors.New("mtu migration: machine.to out of range")
	ErrMTUMigrationMachineToHeadroom   = errors.New("mtu migration: machine.to below network.to + overhead")
	ErrMTUChangedWithoutMigration      = errors.New("mtu changed without a migration")
	ErrMTUInvalid                      = errors.New("mtu out of range")
	ErrNetworkTypeAndMTUMigrationClash = errors.New("offline networkType migration together with mtu migration")
)

// CNO's and the API's message texts, verbatim.
const (
	msgFieldsMissing       = "invalid Migration.MTU, at least one of the required fields is missing"                                   // CNO isOVNKubernetesChangeSafe / isOpenShiftSDNChangeSafe
	msgFromNotApplied      = "invalid Migration.MTU.Network.From(%d) not equal to the currently applied MTU(%d)"                       // CNO isOVNKubernetesChangeSafe / isOpenShiftSDNChangeSafe
	msgNetworkToRange      = "invalid Migration.MTU.Network.To(%d), has to be in range: %d-%d"                                         // CNO isOVNKubernetesChangeSafe / isOpenShiftSDNChangeSafe
	msgMachineToRange      = "invalid Migration.MTU.Machine.To(%d), has to be in range: %d-%d"                                         // CNO isOVNKubernetesChangeSafe / isOpenShiftSDNChangeSafe
	msgMachineToHeadroom   = "invalid Migration.MTU.Machine.To(%d), has to be at least %d"                                             // CNO isOVNKubernetesChangeSafe / isOpenShiftSDNChangeSafe
	msgOVNChangedNoMig     = "cannot change ovn-kubernetes MTU without migration"                                                      // CNO isOVNKubernetesChangeSafe
	msgSDNChangedNoMig     = "cannot change openshift-sdn mtu without migration"                                                       // CNO isOpenShiftSDNChangeSafe (lower-case "mtu")
	msgInvalidMTU          = "invalid MTU %d"                                                                                          // CNO validateOVNKubernetes / validateOpenShiftSDN
	msgNetworkTypeMTUClash = "networkType migration in mode other than 'Live' may not be configured at the same time as mtu migration" // api operator/v1 NetworkMigration XValidation
	// How CNO wraps the list of reasons into its Degraded condition
	// (operconfig_controller Reconcile; the list is errors.Errorf("invalid configuration: %v", errs)).
	fmtValidateCondition   = "The operator configuration is invalid (invalid configuration: [%s]). Use 'oc edit network.operator.openshift.io cluster' to fix."
	fmtChangeSafeCondition = "Not applying unsafe configuration change: invalid configuration: [%s]. Use 'oc edit network.operator.openshift.io cluster' to undo the change."
)

// Rejection is one reason a gate gave, with CNO's (or the API's) exact text.
type Rejection struct {
	Kind    error  // one of the Err* kinds above
	Message string // the upstream text, verbatim
}

func (r Rejection) Error() string { return r.Message }
func (r Rejection) Unwrap() error { return r.Kind }

// MTUChangeError is a rejected change: the gate that rejected it and every
// reason it gave, in upstream order. With one reason, Error() is exactly
// upstream's message; with several they are joined by "; ".
type MTUChangeError struct {
	Gate    Gate
	Reasons []Rejection
}

func (e *MTUChangeError) Error() string {
	msgs := make([]string, len(e.Reasons))
	for i, r := range e.Reasons {
		msgs[i] = r.Message
	}
	return strings.Join(msgs, "; ")
}

// Unwrap exposes every reason's kind to errors.Is / errors.As.
func (e *MTUChangeError) Unwrap() []error {
	errs := make([]error, len(e.Reasons))
	for i, r := range e.Reasons {
		errs[i] = r
	}
	return errs
}

// OperatorCondition is the message CNO puts on its Degraded condition
// (reason InvalidOperatorConfig) for a CNO gate; for the API gate it is the
// bare CEL message, which the API server returns to the client instead.
func (e *MTUChangeError) OperatorCondition() string {
	msgs := make([]string, len(e.Reasons))
	for i, r := range e.Reasons {
		msgs[i] = r.Message
	}
	switch e.Gate {
	case GateCNOValidate:
		return fmt.Sprintf(fmtValidateCondition, strings.Join(msgs, " "))
	case GateCNOChangeSafe:
		return fmt.Sprintf(fmtChangeSafeCondition, strings.Join(msgs, " "))
	}
	return strings.Join(msgs, "; ")
}

// minMTUFor is the floor CNO applies for networkType: OVN-Kubernetes raises
// it for IPv6 (CNO isOVNKubernetesChangeSafe), OpenShift SDN always uses
// MinMTUIPv4 (CNO isOpenShiftSDNChangeSafe, validateOpenShiftSDN).
func minMTUFor(networkType string, anyIPv6 bool) int {
	if networkType == OpenShiftSDN {
		return MinMTUIPv4
	}
	return MinMTU(anyIPv6)
}

// ValidateMTUChange returns nil when the cluster would accept the change, else
// an *MTUChangeError whose message is CNO's exact text (or, for the
// networkType clash, the API's CEL message). mig is spec.migration.mtu (nil:
// no MTU migration in the request). Inputs CNO cannot receive (an unknown
// network type, negative values, which the CRD's minimum: 0 rejects) return
// a plain error that is not an *MTUChangeError.
func ValidateMTUChange(state NetworkState, mig *MTUMigration) error {
	if !KnownNetworkType(state.NetworkType) {
		return fmt.Errorf("validate mtu change: network type %q has no CNO MTU rules (want %s or %s)", state.NetworkType, OVNKubernetes, OpenShiftSDN)
	}
	if err := checkNonNegative(state, mig); err != nil {
		return err
	}

	// Gate 1: api operator/v1 NetworkMigration XValidation.
	if mig != nil && state.NetworkTypeMigration {
		return &MTUChangeError{Gate: GateAPIAdmission, Reasons: []Rejection{{ErrNetworkTypeAndMTUMigrationClash, msgNetworkTypeMTUClash}}}
	}

	minMTU := minMTUFor(state.NetworkType, state.AnyIPv6)

	// Gate 2: CNO Validate checks the spec as written, before defaults.
	specMTU := state.CurrentConfigMTU
	if state.RequestedConfigMTU != nil {
		specMTU = state.RequestedConfigMTU
	}
	if specMTU != nil && (*specMTU < minMTU || *specMTU > MaxMTU) {
		return &MTUChangeError{Gate: GateCNOValidate, Reasons: []Rejection{{ErrMTUInvalid, fmt.Sprintf(msgInvalidMTU, *specMTU)}}}
	}

	// Gate 3: CNO IsChangeSafe against the applied config. FillDefaults has
	// already filled an absent spec mtu from the applied one.
	nextMTU := state.AppliedMTU
	if specMTU != nil {
		nextMTU = *specMTU
	}
	// IsChangeSafe: "Easy way out: nothing changed."
	if nextMTU == state.AppliedMTU && sameMigration(state.AppliedMigration, mig) {
		return nil
	}

	var reasons []Rejection
	if mig != nil {
		reasons = migrationReasons(state, mig, minMTU)
	} else if nextMTU != state.AppliedMTU {
		// The migration branch replaces this check entirely: during phase 1
		// CNO does not look at the spec mtu at all.
		msg := msgOVNChangedNoMig
		if state.NetworkType == OpenShiftSDN {
			msg = msgSDNChangedNoMig
		}
		reasons = append(reasons, Rejection{ErrMTUChangedWithoutMigration, msg})
	}
	if len(reasons) > 0 {
		return &MTUChangeError{Gate: GateCNOChangeSafe, Reasons: reasons}
	}
	return nil
}

// migrationReasons applies the spec.migration.mtu rules of
// isOVNKubernetesChangeSafe / isOpenShiftSDNChangeSafe, in their order.
func migrationReasons(state NetworkState, mig *MTUMigration, minMTU int) []Rejection {
	// machine.from is optional; the other three are required.
	if mig.NetworkFrom == nil || mig.NetworkTo == nil || mig.MachineTo == nil {
		return []Rejection{{ErrMTUMigrationFieldsMissing, msgFieldsMissing}}
	}
	from, to, machineTo := *mig.NetworkFrom, *mig.NetworkTo, *mig.MachineTo

	var reasons []Rejection
	// network.from is only re-checked when it differs from the migration
	// already applied (checkPrevMTU), so reconciling an in-flight migration,
	// whose applied MTU is already network.to, does not fail.
	fromChanged := state.AppliedMigration == nil || !sameIntPtr(state.AppliedMigration.NetworkFrom, mig.NetworkFrom)
	if fromChanged && from != state.AppliedMTU {
		reasons = append(reasons, Rejection{ErrMTUMigrationFromNotApplied, fmt.Sprintf(msgFromNotApplied, from, state.AppliedMTU)})
	}
	if to < minMTU || to > MaxMTU {
		reasons = append(reasons, Rejection{ErrMTUMigrationNetworkToRange, fmt.Sprintf(msgNetworkToRange, to, minMTU, MaxMTU)})
	}
	if machineTo < minMTU || machineTo > MaxMTU {
		reasons = append(reasons, Rejection{ErrMTUMigrationMachineToRange, fmt.Sprintf(msgMachineToRange, machineTo, minMTU, MaxMTU)})
	}
	if need := to + Overhead(state.NetworkType, state.IPsecFull); need > machineTo {
		reasons = append(reasons, Rejection{ErrMTUMigrationMachineToHeadroom, fmt.Sprintf(msgMachineToHeadroom, machineTo, need)})
	}
	return reasons
}

type namedValue struct {
	name string
	v    *int
}

func checkNonNegative(state NetworkState, mig *MTUMigration) error {
	vals := []namedValue{
		{"appliedMTU", &state.AppliedMTU},
		{"currentConfigMTU", state.CurrentConfigMTU},
		{"requestedConfigMTU", state.RequestedConfigMTU},
	}
	if mig != nil {
		vals = append(vals,
			namedValue{"migration.mtu.network.from", mig.NetworkFrom},
			namedValue{"migration.mtu.network.to", mig.NetworkTo},
			namedValue{"migration.mtu.machine.from", mig.MachineFrom},
			namedValue{"migration.mtu.machine.to", mig.MachineTo},
		)
	}
	for _, f := range vals {
		if f.v != nil && *f.v < 0 {
			return fmt.Errorf("validate mtu change: %s is %d, the API only admits values >= 0", f.name, *f.v)
		}
	}
	return nil
}

func sameIntPtr(a, b *int) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func sameMigration(a, b *MTUMigration) bool {
	if a == nil || b == nil {
		return a == b
	}
	return sameIntPtr(a.NetworkFrom, b.NetworkFrom) && sameIntPtr(a.NetworkTo, b.NetworkTo) &&
		sameIntPtr(a.MachineFrom, b.MachineFrom) && sameIntPtr(a.MachineTo, b.MachineTo)
}

// PlanClusterMTU is the largest cluster MTU that fits the smallest MTU of any
// link overlay traffic crosses (over all pools, WAN paths included):
// smallestLinkMTU - Overhead, capped at MaxMTU. It refuses a result below the
// floor: MinMTUIPv6 when any cluster network is IPv6, else MinMTUIPv4. The
// IPv6 floor is applied for every network type because it is a protocol
// minimum (RFC 8200), even though CNO itself only enforces it for
// OVN-Kubernetes.
func PlanClusterMTU(smallestLinkMTU int, networkType string, ipsecFull, anyIPv6 bool) (int, error) {
	if !KnownNetworkType(networkType) {
		return 0, fmt.Errorf("plan cluster mtu: unknown network type %q (want %s or %s)", networkType, OVNKubernetes, OpenShiftSDN)
	}
	if smallestLinkMTU <= 0 {
		return 0, fmt.Errorf("plan cluster mtu: link mtu %d is not positive", smallestLinkMTU)
	}
	overhead := Overhead(networkType, ipsecFull)
	mtu := smallestLinkMTU - overhead
	if mtu > MaxMTU {
		mtu = MaxMTU
	}
	floor := MinMTU(anyIPv6)
	if mtu < floor {
		family := "IPv4"
		if anyIPv6 {
			family = "IPv6"
		}
		return 0, fmt.Errorf("plan cluster mtu: link mtu %d minus %s overhead %d leaves %d, below the %s minimum %d; every link needs mtu >= %d",
			smallestLinkMTU, overheadName(networkType, ipsecFull), overhead, mtu, family, floor, floor+overhead)
	}
	return mtu, nil
}

func overheadName(networkType string, ipsecFull bool) string {
	switch {
	case networkType == OpenShiftSDN:
		return "VXLAN"
	case ipsecFull:
		return "Geneve+IPsec"
	}
	return "Geneve"
}
