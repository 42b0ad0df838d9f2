package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime/debug"

	"github.com/spf13/pflag"

	"github.com/siteforge/siteforge/schema"
)

func init() {
	register(&command{
		name:    "version",
		args:    "[--format text|json]",
		summary: "print the siteforge version and the build it comes from",
		help: `Prints the version, the schema version, and what the Go toolchain recorded in
the binary: the module version, the VCS revision and commit time of a build
from a checkout, and whether the work tree had changes (modified). A build
from a checkout without a module version is 0.0.0-devel+<revision>, which
sorts below every release. A build that carries no VCS information (built
with -buildvcs=false, as GOFLAGS may say, by go run, outside a git checkout,
or in a linked git worktree) says so: its revision is unknown. make build passes
-buildvcs=auto, which stamps a clone's commit whatever GOFLAGS says.
--format json prints one object (schema: docs/json/version.schema.json).`,
		example: `  siteforge version
  siteforge version --format json | jq -r .revision`,
		flags: func(fs *pflag.FlagSet) func(env, []string) int {
			format := fs.String("format", "text", "output format: text or json")
			return func(e env, args []string) int {
				if len(args) > 0 {
					return usageError(e, "version", "takes no arguments")
				}
				if *format != "text" && *format != "json" {
					return usageError(e, "version", fmt.Sprintf("unknown --format \"%s\" (text, json)", *format))
				}
				return printVersion(e, *format)
			}
		},
	})
}

// version, when set at link time (go build -ldflags "-X
// github.com/siteforge/siteforge/cmd/siteforge/internal/cli.version=v1.2.3"),
// is the version a release build reports instead of its module version.
var version string

// BuildInfo is what `siteforge version` reports (docs/json/version.schema.json).
type BuildInfo struct {
	SchemaVersion string `json:"schemaVersion"`      // of this JSON object
	Version       string `json:"version"`            // the version siteforge reports (Version())
	Schema        string `json:"schema"`             // the site API version
	Module        string `json:"module"`             // the main module's version as built ("(devel)" from a checkout)
	VCS           bool   `json:"vcs"`                // the build carries VCS information (vcs.revision)
	Revision      string `json:"revision,omitempty"` // vcs.revision
	Time          string `json:"time,omitempty"`     // vcs.time, RFC 3339
	Modified      bool   `json:"modified"`           // vcs.modified: the work tree had changes
	Go            string `json:"go"`                 // the toolchain
}

// ReadBuild is the build information of the running binary.
func ReadBuild() BuildInfo {
	bi, ok := debug.ReadBuildInfo()
	return buildOf(bi, ok)
}

// buildOf is what bi (ok: the binary has build information) reports.
func buildOf(bi *debug.BuildInfo, ok bool) BuildInfo {
	b := BuildInfo{SchemaVersion: jsonSchemaVersion, Version: versionOf(bi, ok), Schema: schema.APIVersion}
	if !ok {
		return b
	}
	b.Module, b.Go = bi.Main.Version, bi.GoVersion
	for _, kv := range bi.Settings {
		switch kv.Key {
		case "vcs.revision":
			b.Revision = kv.Value
		case "vcs.time":
			b.Time = kv.Value
		case "vcs.modified":
			b.Modified = kv.Value == "true"
		}
	}
	b.VCS = b.Revision != ""
	return b
}

// noVCS is what version prints for a build that carries no VCS
// information: why there may be none, and how to get it.
const noVCS = "none: this build carries no VCS information (built with -buildvcs=false, as GOFLAGS may say, by go run, outside a git checkout, or in a linked git worktree: golang/go#58218); make build in a clone stamps the commit"

// printVersion writes the build information as text or JSON.
func printVersion(e env, format string) int {
	return writeVersion(e, format, ReadBuild())
}

func writeVersion(e env, format string, b BuildInfo) int {
	if format == "json" {
		return writeJSON(e, "version", b)
	}
	fmt.Fprintf(e.stdout, "siteforge %s (schema %s)\n", b.Version, b.Schema)
	if b.Module != "" {
		fmt.Fprintf(e.stdout, "  module    %s\n", b.Module)
	}
	if b.VCS {
		fmt.Fprintf(e.stdout, "  revision  %s\n", b.Revision)
		fmt.Fprintf(e.stdout, "  time      %s\n", b.Time)
		fmt.Fprintf(e.stdout, "  modified  %t\n", b.Modified)
	} else {
		fmt.Fprintf(e.stdout, "  revision  %s\n", noVCS)
	}
	if b.Go != "" {
		fmt.Fprintf(e.stdout, "  go        %s\n", b.Go)
	}
	return ExitOK
}

// writeJSON writes v as indented JSON with a final newline.
func writeJSON(e env, verb string, v any) int {
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		fmt.Fprintf(e.stderr, "siteforge %s: %v\n", verb, err)
		return ExitFailure
	}
	if _, err := e.stdout.Write(out.Bytes()); err != nil {
		fmt.Fprintf(e.stderr, "siteforge %s: %v\n", verb, err)
		return ExitFailure
	}
	return ExitOK
}

// Version is the version siteforge reports: the one stamped at link time
// (version), else the module version it was built as; a build from a
// checkout (no module version) is "0.0.0-devel", with "+<commit>" (and
// ".dirty") when the build recorded its VCS state: a semantic version that
// sorts below every release, as tools comparing versions (SARIF consumers)
// expect.
func Version() string {
	bi, ok := debug.ReadBuildInfo()
	return versionOf(bi, ok)
}

func versionOf(bi *debug.BuildInfo, ok bool) string {
	if version != "" {
		return version
	}
	if !ok {
		return develVersion
	}
	if bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	var rev string
	dirty := false
	for _, kv := range bi.Settings {
		switch kv.Key {
		case "vcs.revision":
			rev = kv.Value
		case "vcs.modified":
			dirty = kv.Value == "true"
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	switch {
	case rev == "":
		return develVersion
	case dirty:
		return develVersion + "+" + rev + ".dirty"
	}
	return develVersion + "+" + rev
}

const develVersion = "0.0.0-devel"
