package fidelity

import (
	"errors"
	"fmt"
	"strings"
)

// Sentinel errors. Match them with errors.Is on the error Check returns.
var (
	// ErrUnregisteredKind: the document's apiVersion/kind has no fidelity check; register it.
	ErrUnregisteredKind = errors.New("no fidelity check")
	// ErrRegistriesConf: containers/image rejects the registries.conf.
	ErrRegistriesConf = errors.New("registries.conf rejected")
)

// Stage names the mechanism that found a problem, so a test can assert not only that a manifest
// fails but why.
type Stage string

const (
	StageParse    Stage = "parse"    // not a YAML/JSON object, or apiVersion/kind missing
	StageKind     Stage = "kind"     // no fidelity check registered for the apiVersion/kind
	StageDecode   Stage = "decode"   // strict decode into the Go type: unknown, duplicate or mistyped field
	StagePrune    Stage = "prune"    // the API server would silently drop the field
	StageMetadata Stage = "metadata" // ObjectMeta rules: name, namespace, labels, annotations
	StageSchema   Stage = "schema"   // CRD OpenAPI schema: types, enums, patterns, bounds, required, list types
	StageCEL      Stage = "cel"      // CRD x-kubernetes-validations rules
	StageIgnition Stage = "ignition" // Ignition's parser and MCO's ValidateIgnition on a MachineConfig's spec.config
	// StageKindRule: what an operator or an admission policy rejects after the API server stored
	// the object (MCO kernelType/extensions, MCO mirror formats, CNO's EgressIP policy,
	// ConfigMap/Namespace rules of kube-apiserver's built-in validation).
	StageKindRule Stage = "kind-rule"
)

// Problem is one reason a manifest would be rejected (or silently changed) by the cluster.
type Problem struct {
	Stage Stage
	// Path is the JSON path of the offending field, e.g.
	// spec.imageDigestMirrors[0].mirrorSourcePolicy; empty when the problem is the whole document.
	Path    string
	Message string
}

func (p Problem) String() string {
	if p.Path == "" {
		return fmt.Sprintf("%s [%s]", p.Message, p.Stage)
	}
	return fmt.Sprintf("%s: %s [%s]", p.Path, p.Message, p.Stage)
}

// Error lists every problem found in one document. Each line of Error() is self-contained:
// "[document N: ]Kind/name: path: message [stage]".
type Error struct {
	// Document is the 1-based index of the document in a stream, 0 for Check.
	Document   int
	APIVersion string
	Kind       string
	Namespace  string
	Name       string
	Problems   []Problem
}

func (e *Error) object() string {
	kind := e.Kind
	if kind == "" {
		kind = "<no kind>"
	}
	name := e.Name
	if name == "" {
		name = "<no name>"
	}
	if e.Namespace != "" {
		name = e.Namespace + "/" + name
	}
	return kind + "/" + name
}

func (e *Error) Error() string {
	prefix := e.object() + ": "
	if e.Document > 0 {
		prefix = fmt.Sprintf("document %d: %s", e.Document, prefix)
	}
	lines := make([]string, 0, len(e.Problems))
	for _, p := range e.Problems {
		lines = append(lines, prefix+p.String())
	}
	return strings.Join(lines, "\n")
}

// Is reports ErrUnregisteredKind when the document's kind has no check.
func (e *Error) Is(target error) bool {
	if target != ErrUnregisteredKind {
		return false
	}
	for _, p := range e.Problems {
		if p.Stage == StageKind {
			return true
		}
	}
	return false
}
