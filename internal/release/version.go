//go:build release

package main

import (
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"
)

// versionVar is the CLI's link-time version (cmd/siteforge/internal/cli
// version.go: `version`, reported by `siteforge version` before the module
// version).
const versionVar = "github.com/siteforge/siteforge/cmd/siteforge/internal/cli.version"

// gitVersion is the version of the checkout as the go command stamps a
// build's main module from git (Go 1.24 and later: cmd/go/internal/load
// setBuildInfo, modfetch's Stat of the revision): the highest semantic
// version tag of the module's major version (v0, v1) at HEAD; else a
// pseudo-version (golang.org/x/mod/module.PseudoVersion) from the highest
// such tag HEAD descends from (none: v0.0.0), the commit time (UTC) and the
// first 12 characters of the commit; "+dirty" when `git status --porcelain`
// lists anything. Computed here too so the link-time version is set where
// the go command stamps nothing (a linked git worktree: golang/go#58218);
// e2e compares the two in a clone. "" outside git.
func gitVersion() (string, error) {
	rev, err := gitOut("rev-parse", "HEAD")
	if err != nil || len(rev) < 12 {
		return "", nil // not a git checkout: no version
	}
	at, err := gitOut("tag", "--points-at", "HEAD")
	if err != nil {
		return "", err
	}
	v := highest(at)
	if v == "" {
		merged, err := gitOut("tag", "--merged", "HEAD")
		if err != nil {
			return "", err
		}
		ct, err := gitOut("show", "-s", "--format=%ct", "HEAD")
		if err != nil {
			return "", err
		}
		secs, err := strconv.ParseInt(ct, 10, 64)
		if err != nil {
			return "", fmt.Errorf("commit time %q: %w", ct, err)
		}
		v = module.PseudoVersion("", highest(merged), time.Unix(secs, 0).UTC(), rev[:12])
	}
	status, err := gitOut("status", "--porcelain")
	if err != nil {
		return "", err
	}
	if status != "" {
		v += "+dirty"
	}
	return v, nil
}

// highest is the highest tag of the list that is a canonical semantic
// version of major version v0 or v1, "" when none is.
func highest(tags string) string {
	best := ""
	for _, t := range strings.Fields(tags) {
		if !semver.IsValid(t) || semver.Canonical(t) != t || (semver.Major(t) != "v0" && semver.Major(t) != "v1") {
			continue
		}
		if best == "" || semver.Compare(t, best) > 0 {
			best = t
		}
	}
	return best
}

func gitOut(args ...string) (string, error) {
	out, err := exec.Command("git", args...).Output()
	if err != nil {
		return "", fmt.Errorf("git %s: %w", strings.Join(args, " "), err)
	}
	return strings.TrimSpace(string(out)), nil
}
