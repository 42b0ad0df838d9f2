package registries

import (
	"errors"
	"fmt"
)

// Sentinel errors, one per MCO refusal. Errors returned by [Render] (and warnings in
// [Config.Warnings]) match them with errors.Is, while their Error() text is MCO's
// exact text, so a user can grep machine-config-controller logs for it.
var (
	// ErrConflictingMirrorSourcePolicy: two entries for one source disagree on mirrorSourcePolicy.
	ErrConflictingMirrorSourcePolicy = errors.New("conflicting mirrorSourcePolicy")
	// ErrNeverContactSourceIsMirror: NeverContactSource while the source is one of its own mirrors.
	ErrNeverContactSourceIsMirror = errors.New("NeverContactSource with the source among the mirrors")
	// ErrInvalidSource: a source does not match the IDMS/ITMS source pattern.
	ErrInvalidSource = errors.New("invalid source format")
	// ErrInvalidMirror: a mirror does not match the IDMS/ITMS mirror pattern.
	ErrInvalidMirror = errors.New("invalid mirror format")
	// ErrInvalidScope: an image.config insecure/blocked/allowed entry is not a valid scope.
	ErrInvalidScope = errors.New("invalid registry scope")
	// ErrAllowedAndBlocked: image.config sets both allowedRegistries and blockedRegistries.
	ErrAllowedAndBlocked = errors.New("allowedRegistries and blockedRegistries both set")
	// ErrWildcardNestedScope: a wildcard mirror source has a mirror-less table nested in it.
	ErrWildcardNestedScope = errors.New("wildcard mirror source with a nested scope")
	// ErrReleaseImage: Input.ReleaseImage is not a fully qualified reference.
	ErrReleaseImage = errors.New("error parsing reference of release image")
	// ErrPayloadRepositoryBlocked: a blocked scope covers the release payload repository and no
	// unblocked digest mirror serves it; MCO drops the scope and only logs (a warning here).
	ErrPayloadRepositoryBlocked = errors.New("cannot block the repository being used by the payload")
	// ErrPayloadCheck: MCO could not evaluate the payload rule; it logs and then renders with
	// no blocked registries at all (a warning here).
	ErrPayloadCheck = errors.New("payload repository check failed")
)

// Context MCO adds when rendering fails. // MCO container_runtime_config_controller.go registriesConfigIgnition
const (
	registriesUpdateContext = "could not update registries config with new changes"
	policyUpdateContext     = "could not update policy json with new changes"
)

// mcoError carries MCO's exact message and the sentinel it corresponds to.
type mcoError struct {
	kind error
	msg  string
}

func (e *mcoError) Error() string { return e.msg }
func (e *mcoError) Unwrap() error { return e.kind }

// mcoErrorf formats like MCO (same verbs, same arguments) and tags the result with kind.
func mcoErrorf(kind error, format string, args ...any) error {
	return &mcoError{kind: kind, msg: fmt.Sprintf(format, args...)}
}

// ErrMirrorSetsUnsupported: IDMS/ITMS given for a release that predates them (a warning;
// that MCO does not watch them).
var ErrMirrorSetsUnsupported = errors.New("imagedigestmirrorsets and imagetagmirrorsets need OpenShift 4.13 or later")
