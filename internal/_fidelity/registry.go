package fidelity

import (
	"fmt"
	"sort"
	"sync"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// kindRule is a check a kind needs beyond strict decode and its schema: kube-apiserver's built-in
// validation of a core kind, an admission policy, or what an operator refuses once the object is
// stored. obj is the document as decoded JSON.
type kindRule func(obj map[string]any) []Problem

// kind is one entry of the fidelity table.
type kind struct {
	gvk    schema.GroupVersionKind
	newObj func() any
	// crdYAML is the CRD the cluster serves the kind with; nil for built-in (k8s.io/api) kinds,
	// which are checked by strict decode, ObjectMeta rules and their kindRules only.
	crdYAML []byte
	// namespaced is the scope of a kind without CRD (a CRD says it itself).
	namespaced bool
	// nameRule validates metadata.name of a kind without CRD (CRDs always use DNS-1123 subdomain).
	nameRule func(name string, prefix bool) []string
	rules    []kindRule

	once     sync.Once
	compiled *compiledCRD
	err      error // set before first use when the embedded CRD is missing
}

// crd returns the compiled CRD, compiling it on first use.
func (k *kind) crd() (*compiledCRD, error) {
	k.once.Do(func() {
		if k.crdYAML != nil && k.err == nil {
			k.compiled, k.err = compileCRD(k.gvk, k.crdYAML)
		}
	})
	return k.compiled, k.err
}

var registry = struct {
	sync.RWMutex
	kinds map[schema.GroupVersionKind]*kind
}{kinds: map[schema.GroupVersionKind]*kind{}}

func init() {
	for _, osk := range openshiftKinds {
		k := &kind{gvk: osk.gvk, newObj: osk.newObj, rules: osk.rules}
		crdYAML, err := embeddedCRDs.ReadFile(osk.embeddedPath())
		if err != nil {
			// Not a panic: the test that copies the file (go generate) must still be able to run.
			k.err = fmt.Errorf("%s is not embedded: run go generate ./internal/_fidelity/", osk.embeddedPath())
		}
		k.crdYAML = crdYAML
		mustAdd(k)
	}
	mustAdd(&kind{gvk: egressIPGVK, newObj: func() any { return &egressIP{} }, crdYAML: egressIPCRD,
		rules: []kindRule{checkEgressIPCreate}})
	mustAdd(&kind{gvk: catalogSourceGVK, newObj: func() any { return &catalogSource{} }, crdYAML: catalogSourceCRD})
	for _, k := range coreKinds() {
		mustAdd(k)
	}
}

func mustAdd(k *kind) {
	if err := add(k); err != nil {
		panic("fidelity: " + err.Error())
	}
}

func add(k *kind) error {
	registry.Lock()
	defer registry.Unlock()
	if _, dup := registry.kinds[k.gvk]; dup {
		return fmt.Errorf("%s is already registered", gvkString(k.gvk))
	}
	registry.kinds[k.gvk] = k
	return nil
}

func lookup(gvk schema.GroupVersionKind) *kind {
	registry.RLock()
	defer registry.RUnlock()
	return registry.kinds[gvk]
}

// Register adds a kind the built-in table lacks, for example CatalogSource
// (operators.coreos.com/v1alpha1), whose Go module is not a dependency here. newObj returns a
// pointer to a fresh Go value the document is strictly decoded into; crdYAML is the
// CustomResourceDefinition the cluster serves the kind with (copy it from the operator that
// installs it and name the source next to the copy). The CRD must itself be valid (the checks
// the API server runs when the CRD is created) and serve gvk. Registering a kind twice is an
// error. Register is safe for concurrent use; call it from TestMain or a sync.Once.
func Register(gvk schema.GroupVersionKind, newObj func() any, crdYAML []byte) error {
	if gvk.Version == "" || gvk.Kind == "" {
		return fmt.Errorf("register %s: version and kind are required", gvkString(gvk))
	}
	if newObj == nil {
		return fmt.Errorf("register %s: newObj is nil", gvkString(gvk))
	}
	if len(crdYAML) == 0 {
		return fmt.Errorf("register %s: a CRD is required", gvkString(gvk))
	}
	k := &kind{gvk: gvk, newObj: newObj, crdYAML: crdYAML}
	if _, err := k.crd(); err != nil {
		return fmt.Errorf("register %s: %w", gvkString(gvk), err)
	}
	if err := add(k); err != nil {
		return fmt.Errorf("register: %w", err)
	}
	return nil
}

// registeredKinds lists the registered kinds as "apiVersion Kind", sorted.
func registeredKinds() []string {
	registry.RLock()
	defer registry.RUnlock()
	out := make([]string, 0, len(registry.kinds))
	for gvk := range registry.kinds {
		out = append(out, gvkString(gvk))
	}
	sort.Strings(out)
	return out
}

// gvkString renders a GVK the way a manifest spells it: "config.openshift.io/v1 ImageDigestMirrorSet".
func gvkString(gvk schema.GroupVersionKind) string {
	return gvk.GroupVersion().String() + " " + gvk.Kind
}
