// Package krm runs siteforge as a KRM function (kubernetes-sigs/kustomize
// cmd/config/docs/api-conventions/functions-spec.md), under kustomize or
// kpt: it reads a config.kubernetes.io/v1 ResourceList and writes one back.
//
// The function config decides the role:
//
//   - kind SiteRender (kustomize `generators:`, kpt `mutators:`) renders
//     one site and emits its objects, marked with GeneratedByAnnotation
//     and with the file annotations kpt writes them by (a folder named
//     after the site); the objects an earlier run generated are replaced,
//     so repeated `kpt fn render` runs leave one copy;
//   - kind SiteLint (kustomize `transformers:`, listed last; not
//     `validators:`, which kustomize v5.8.1 fails for any function that
//     hands its items back, kubernetes-sigs/kustomize#5036; kpt
//     `validators:`) lints the items it receives and the sites it names,
//     and never changes an item.
//
// spec.paths are relative to the package: the folder of the function
// config file (kpt: its path annotation) or the kustomization folder.
//
// Every problem is written twice: as a ResourceList result (rule, line and
// column in tags) and as a `file:line:col: severity: message [RULE]` line on
// stderr, because kustomize never prints results. Exit codes follow the
// CLI: 0 clean, 1 findings at or above failOn, 2 the function could not run
// (bad function config, invalid site, internal error). kustomize fails the
// build on any non-zero exit.
package krm

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/kio"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/yamllimit"
	"github.com/siteforge/siteforge/schema"
)

// The function config API.
const (
	APIVersion     = schema.APIVersion // siteforge.dev/v1alpha1
	KindSiteRender = "SiteRender"
	KindSiteLint   = "SiteLint"
)

// Exit codes, as the CLI's.
const (
	exitOK       = 0
	exitFindings = 1
	exitFailure  = 2
)

// localConfigAnnotation marks objects kustomize drops from the output (it
// sets it on a generator's own config, passed as the only item).
const localConfigAnnotation = "config.kubernetes.io/local-config"

// MaxResourceList is the largest ResourceList the function reads, in
// bytes: the largest manifest file siteforge reads (manifests.MaxFileSize),
// as one item may be that large. With MaxNodes it keeps the function under
// 512 MiB (docs/limits.md; make bench measures it): a kustomize build of a
// cluster's configuration is a few MiB.
const MaxResourceList = 16 << 20

// memoryLimit is the Go heap the function aims at (runtime/debug
// SetMemoryLimit): the garbage collector runs harder near it, so the
// process stays near what it holds rather than twice that. The bounds on
// the input keep what it holds below it.
const memoryLimit = 400 << 20

// Run reads a ResourceList from stdin, processes it and writes the
// resulting ResourceList to stdout; it returns the exit code.
func Run(stdin io.Reader, stdout, stderr io.Writer) int {
	if isTerminal(stdin) {
		fmt.Fprintln(stderr, "siteforge fn: reads a config.kubernetes.io/v1 ResourceList on stdin; kustomize runs it (see siteforge help fn)")
		return exitFailure
	}
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(memoryLimit))
	input, err := io.ReadAll(io.LimitReader(stdin, MaxResourceList+1))
	if err != nil {
		fmt.Fprintf(stderr, "siteforge fn: reading the ResourceList: %s\n", diag.Clean(err.Error()))
		return exitFailure
	}
	if len(input) > MaxResourceList {
		fmt.Fprintf(stderr, "siteforge fn: the ResourceList on stdin is larger than the %d-byte limit; lint or render a smaller kustomization\n", MaxResourceList)
		return exitFailure
	}
	if n := nodeBound(input); n > MaxNodes {
		fmt.Fprintf(stderr, "siteforge fn: the ResourceList on stdin has more than the %d-node limit (%d counted); lint or render a smaller kustomization\n", MaxNodes, n)
		return exitFailure
	}
	var ae *yamllimit.AliasError
	if err := yamllimit.CheckAliases(input, MaxResourceList); errors.As(err, &ae) {
		fmt.Fprintf(stderr, "siteforge fn: the ResourceList (line %d): %s\n", ae.Line, diag.Clean(err.Error()))
		return exitFailure
	}
	// The function config first: a list the function refuses costs no
	// decoding of its items.
	if fc, ok := peekFunctionConfig(input); ok {
		rl := &framework.ResourceList{FunctionConfig: fc}
		if !checkFunctionConfig(&reporter{rl: rl, stderr: stderr}, fc) {
			if err := writeRefusal(stdout, rl); err != nil {
				fmt.Fprintf(stderr, "siteforge fn: %v\n", err)
			}
			return exitFailure
		}
	}
	code := exitOK
	p := framework.ResourceListProcessorFunc(func(rl *framework.ResourceList) error {
		code = process(rl, stderr)
		// Results are reported through the exit code computed above;
		// returning rl.Results only when it fails avoids the typed-nil
		// error an empty Results would be.
		if rl.Results.ExitCode() != 0 {
			return rl.Results
		}
		return nil
	})
	rw := &kio.ByteReadWriter{Reader: bytes.NewReader(input), Writer: stdout, KeepReaderAnnotations: true}
	input = nil
	err = execute(p, rw)
	var results framework.Results
	switch {
	case err == nil, errors.As(err, &results):
		return code
	default:
		fmt.Fprintf(stderr, "siteforge fn: %s\n", diag.Clean(err.Error()))
		return exitFailure
	}
}

func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// process dispatches on the function config's kind.
func process(rl *framework.ResourceList, stderr io.Writer) int {
	r := &reporter{rl: rl, stderr: stderr}
	fc := rl.FunctionConfig
	if fc == nil {
		r.failure("no functionConfig: give a %s object of kind %s or %s", APIVersion, KindSiteRender, KindSiteLint)
		return exitFailure
	}
	if !checkFunctionConfig(r, fc) {
		return exitFailure
	}
	kind := fc.GetKind()
	r.label = kind + " " + fc.GetName()
	switch kind {
	case KindSiteRender:
		var spec RenderSpec
		if !decodeSpec(r, fc, &spec) {
			return exitFailure
		}
		return renderSites(r, spec)
	default:
		var spec LintSpec
		if !decodeSpec(r, fc, &spec) {
			return exitFailure
		}
		return lintItems(r, spec)
	}
}

// checkFunctionConfig reports a function config of another apiVersion or
// kind than the function's.
func checkFunctionConfig(r *reporter, fc *kyaml.RNode) bool {
	apiVersion, kind := fc.GetApiVersion(), fc.GetKind()
	if apiVersion != APIVersion || (kind != KindSiteRender && kind != KindSiteLint) {
		r.failure("functionConfig is %s %s: want apiVersion %s and kind %s (kustomize generators:) or %s (kustomize transformers:, listed last: not validators:, kubernetes-sigs/kustomize#5036)",
			apiVersion, kind, APIVersion, KindSiteRender, KindSiteLint)
		return false
	}
	return true
}

// writeRefusal writes the ResourceList of a function config refused before
// the items were read: its results and the function config, no items.
func writeRefusal(w io.Writer, rl *framework.ResourceList) error {
	b, err := kyaml.Marshal(rl.Results)
	if err != nil {
		return err
	}
	results, err := kyaml.Parse(string(b))
	if err != nil {
		return err
	}
	return writeList(w, "config.kubernetes.io/v1", "ResourceList", nil, rl.FunctionConfig, results)
}

// RenderSpec is the spec of a SiteRender function config.
type RenderSpec struct {
	// Paths are site inputs (as for siteforge render), relative to the
	// package: the kustomization folder (the function's working dir under
	// kustomize) or the folder of the function config file (kpt); they
	// must stay inside it (as kustomize's own default load restrictor
	// demands). One site: one build is one cluster.
	Paths []string `json:"paths,omitempty"`
	// Site is one site written inline.
	Site any `json:"site,omitempty"`
	// Strict turns render warnings into errors.
	Strict bool `json:"strict,omitempty"`
}

// LintSpec is the spec of a SiteLint function config.
type LintSpec struct {
	// Paths and Site name sites to lint along with the items (optional).
	Paths []string `json:"paths,omitempty"`
	Site  any      `json:"site,omitempty"`
	// FailOn is the severity that fails the build: error (default),
	// warning or info.
	FailOn string `json:"failOn,omitempty"`
	// Enable runs only these rules; Disable skips rules (IDs or names).
	Enable  []string `json:"enable,omitempty"`
	Disable []string `json:"disable,omitempty"`
	// OCPVersion (4.N) is the OpenShift version the items target; default:
	// the linted site's cluster.version when there is exactly one site.
	OCPVersion string `json:"ocpVersion,omitempty"`
}

// decodeSpec reads the function config strictly: a misspelled field fails
// instead of being ignored.
func decodeSpec(r *reporter, fc *kyaml.RNode, into any) bool {
	s, err := fc.String()
	if err != nil {
		r.failure("functionConfig: %v", err)
		return false
	}
	cfg := struct {
		APIVersion string         `json:"apiVersion"`
		Kind       string         `json:"kind"`
		Metadata   map[string]any `json:"metadata"`
		Spec       any            `json:"spec"`
	}{Spec: into}
	if err := sigsyaml.UnmarshalStrict([]byte(s), &cfg); err != nil {
		msg := strings.TrimPrefix(err.Error(), "error unmarshaling JSON: while decoding JSON: ")
		r.failure("functionConfig: %s", strings.TrimPrefix(msg, "json: "))
		return false
	}
	return true
}

// inlineSite returns the inline spec.site as YAML, keeping the user's field
// order and comments.
func inlineSite(fc *kyaml.RNode) ([]byte, bool) {
	n, err := fc.Pipe(kyaml.Lookup("spec", "site"))
	if err != nil || n == nil {
		return nil, false
	}
	s, err := n.String()
	if err != nil {
		return nil, false
	}
	return []byte(s), true
}

// inlineSiteName is what positions in an inline site refer to when no file
// holds the function config: a label, not a file name (lines count from
// spec.site's first line).
func inlineSiteName(fc *kyaml.RNode) string {
	return fmt.Sprintf("%s %s spec.site", fc.GetKind(), fc.GetName())
}

// MinKustomizeVersion is the oldest kustomize that runs the function as
// documented: the `args` field of the exec function spec
// (`config.kubernetes.io/function: "exec: {path: siteforge, args: [fn]}"`)
// is in kyaml fn/runtime/runtimeutil/functiontypes.go ExecSpec from kyaml
// v0.20.0, shipped in kustomize v5.7.0; kustomize v5.6.0 (kyaml v0.19.0)
// refuses it: `config.kubernetes.io/function unmarshal error: ... json:
// unknown field "args"`. e2e/kustomize_test.go checks both.
const MinKustomizeVersion = "v5.7.0"
