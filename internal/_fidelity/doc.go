// Package fidelity proves that an emitted manifest is something the real OpenShift API server
// and operators accept. Every generator test runs its output through [Check] (one document),
// [CheckStream] (a '---' YAML stream) or [CheckRegistriesConf] (a registries.conf); a failure is
// an [*Error] whose problems each name the object (Kind/[namespace/]name), the JSON path of the
// offending field and the [Stage] that found it.
//
// For one document, Check does what the API server does on create, offline:
//
//  1. strict decode into the kind's Go type (openshift/api, k8s.io/api, or a registered type):
//     unknown, duplicated, wrongly-cased or mistyped fields fail;
//  2. for CRD-backed kinds, the create path of k8s.io/apiextensions-apiserver: unknown metadata
//     fields, pruning (every non-zero field the server would silently drop is reported; a
//     dropped zero value reads back identically and is what marshalling a Go type emits for a
//     feature-gated field, so it is not), the status subresource reset (non-zero status only),
//     defaulting, ObjectMeta validation (name required and a DNS-1123 subdomain, namespace
//     present if and only if the CRD is Namespaced), the OpenAPI schema validator,
//     x-kubernetes-list-type set/map uniqueness, and the x-kubernetes-validations CEL rules
//     (skipped, as the server does, after a type/required/enum/size error);
//  3. what comes after admission: a MachineConfig's spec.config is parsed by Ignition itself
//     for the spec version it declares (3.0.0 to 3.5.0, what MCO's ParseAndConvertConfig
//     accepts; Ignition errors and warnings both fail) and MCO's own rules run (file modes,
//     kernelType, extensions); MCO's mirror rules for IDMS/ITMS/ICSP; CNO's admission policy
//     for EgressIP; kube-apiserver's built-in rules for ConfigMap and Namespace.
//
// # Where the CRDs come from (hermetic)
//
// The CRD manifests of the built-in kinds are byte-for-byte copies of the files the pinned
// github.com/openshift/api module ships (its zz_generated.crd-manifests directories), kept in
// crds/openshift-api/ (same relative paths, plus a VERSION file) and compiled into the package
// with go:embed. Check therefore reads no file, runs no go command and needs no network: a test in
// another package gets the same answer on a laptop, in CI or in a container without a module
// cache. The Go types come from the same module, so types and schemas cannot disagree as long as
// the copies match the version go.mod pins. TestEmbeddedCRDsMatchModule guards that: it locates
// the module with `go list -m -json github.com/openshift/api` (GOPROXY=off, so it only reads the
// local module cache, which building this package already required), checks that the test binary
// links that same version, and fails on any byte of difference or any stray file. After a go.mod
// bump, `go generate ./internal/_fidelity/` rewrites the copies.
//
// Reading the module cache at check time instead was rejected: it would tie every generator test
// to a go toolchain and a populated cache, and spawn `go list` in every test binary.
//
// # Kinds without a Go module here
//
// EgressIP (k8s.ovn.org/v1) is registered with a minimal Go type and a hand-written copy of the
// CRD OpenShift installs (egressip.go names the sources). Other kinds, such as CatalogSource
// (operators.coreos.com/v1alpha1), can be added by callers with [Register]; until then Check
// fails them with [ErrUnregisteredKind].
package fidelity
