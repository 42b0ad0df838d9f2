package cli

import (
	"os"
	"path/filepath"

	"github.com/siteforge/siteforge/cmd/siteforge/internal/config"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/load"
)

func init() { explainTopics["config"] = configDoc }

// configDoc is what `siteforge explain config` prints.
const configDoc = `.siteforge.yaml: the repository's lint settings

siteforge lint reads .siteforge.yaml from the working folder or, when there is
none, from the nearest folder above it (up to the filesystem root); when there
is none there either, from the folder of the first PATH or the nearest above
it, as golangci-lint finds .golangci.yml. --config FILE names another file;
--no-config reads none. Every key is optional:

  lint:
    fail-on: warning          # as --fail-on: error (default), warning or info
    format: sarif             # as --format: text, json, sarif or github
    ocp-version: "4.16"       # as --ocp-version (quote it)
    exclude:                  # as --exclude: gitignore patterns relative to each PATH
      - vendor/
      - "*.generated.yaml"
    disable:                  # rules this repository does not want, each with its reason
      - rule: MIR018          # a rule ID or name (siteforge explain lists them)
        reason: we pull by tag from our own registry, which never rewrites a tag

Flags win: --fail-on, --format and --ocp-version given on the command line
replace the file's value; --exclude and --disable add to the file's lists.
The file is decoded strictly: an unknown key, a value of the wrong type, an
unknown rule or format, or a disabled rule without a reason is an error at
its file:line:col (with "did you mean" for a mistyped key or rule), and lint
exits 2 without linting. Suppressions of single findings stay where they
are: in the site (lint: suppress, @lint(ignore=...)) or on the manifest (the
siteforge.dev/ignore-<RULE> annotation).
`

// readConfig finds and reads the configuration file (path: --config, ""
// to look from the working folder up, then from the folder of the first
// PATH up; none: --no-config) and prints its problems; ok is false when
// there were any.
func readConfig(e env, path string, none bool, first string) (config.File, bool) {
	if none {
		return config.File{}, true
	}
	var f config.File
	var d diag.List
	if path != "" {
		f, d = config.Read(path)
	} else {
		// the working folder and up; else, as golangci-lint does, the
		// first PATH's folder and up
		f, d = config.Find(".")
		if f.Path == "" && len(d) == 0 && first != "" && first != "-" {
			dir := first
			if st, err := os.Stat(first); err != nil || !st.IsDir() {
				dir = filepath.Dir(first)
			}
			f, d = config.Find(dir)
		}
	}
	if len(d) > 0 {
		printDiagnostics(e.stderr, load.Result{Diagnostics: d, Sources: map[string][]byte{f.Path: f.Source}})
		return f, false
	}
	return f, true
}
