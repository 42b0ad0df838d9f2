package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"runtime/debug"
	"strings"
	"testing"
)

// TestVersionFromBuildInfo: the version, revision, commit time and dirty
// flag come from what the toolchain recorded (runtime/debug build info),
// in the text and the JSON; a link-time version wins over the module's.
func TestVersionFromBuildInfo(t *testing.T) {
	const rev = "0123456789abcdef0123456789abcdef01234567"
	checkout := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/siteforge/siteforge", Version: "(devel)"},
		Settings: []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.time", Value: "2026-11-26T10:00:00Z"}, {Key: "vcs.modified", Value: "true"}}}
	release := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/siteforge/siteforge", Version: "v1.2.3"}}
	for name, tc := range map[string]struct {
		bi      *debug.BuildInfo
		stamped string
		want    BuildInfo
	}{
		"checkout": {bi: checkout, want: BuildInfo{SchemaVersion: "1", Version: "0.0.0-devel+0123456789ab.dirty", Schema: "siteforge.dev/v1alpha1", Module: "(devel)", VCS: true, Revision: rev, Time: "2026-11-26T10:00:00Z", Modified: true, Go: "go1.26.8"}},
		"module":   {bi: release, want: BuildInfo{SchemaVersion: "1", Version: "v1.2.3", Schema: "siteforge.dev/v1alpha1", Module: "v1.2.3", Go: "go1.26.8"}},
		"stamped":  {bi: checkout, stamped: "v9.9.9", want: BuildInfo{SchemaVersion: "1", Version: "v9.9.9", Schema: "siteforge.dev/v1alpha1", Module: "(devel)", VCS: true, Revision: rev, Time: "2026-11-26T10:00:00Z", Modified: true, Go: "go1.26.8"}},
		// GOFLAGS=-buildvcs=false, or a linked git worktree
		"no VCS": {bi: &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/siteforge/siteforge", Version: "(devel)"},
			Settings: []debug.BuildSetting{{Key: "-buildvcs", Value: "false"}}},
			want: BuildInfo{SchemaVersion: "1", Version: "0.0.0-devel", Schema: "siteforge.dev/v1alpha1", Module: "(devel)", Go: "go1.26.8"}},
	} {
		t.Run(name, func(t *testing.T) {
			old := version
			version = tc.stamped
			defer func() { version = old }()
			got := buildOf(tc.bi, true)
			if got != tc.want {
				t.Fatalf("buildOf = %+v, want %+v", got, tc.want)
			}
			var text, js bytes.Buffer
			writeVersion(env{stdout: &text}, "text", got)
			if !strings.HasPrefix(text.String(), "siteforge "+tc.want.Version+" (schema siteforge.dev/v1alpha1)\n") {
				t.Errorf("text: %s", text.String())
			}
			if tc.want.Revision != "" && !strings.Contains(text.String(), "revision  "+rev+"\n") {
				t.Errorf("text has no revision: %s", text.String())
			}
			if tc.want.VCS == strings.Contains(text.String(), "carries no VCS information") {
				t.Errorf("text says the build carries VCS information %v wrongly: %s", !tc.want.VCS, text.String())
			}
			writeVersion(env{stdout: &js}, "json", got)
			var back BuildInfo
			if err := json.Unmarshal(js.Bytes(), &back); err != nil || back != tc.want {
				t.Errorf("json %s: %+v, %v", js.String(), back, err)
			}
			if !strings.Contains(js.String(), fmt.Sprintf(`"vcs": %t,`, tc.want.VCS)) {
				t.Errorf("json does not say vcs: %t: %s", tc.want.VCS, js.String())
			}
		})
	}
	if got := buildOf(nil, false); got.Version != develVersion || got.Revision != "" {
		t.Errorf("no build info: %+v", got)
	}
}

// TestCompletionBashParses: the bash completion script is valid bash
// (bash -n), and so are zsh's (zsh -n, when zsh is installed).
func TestCompletionBashParses(t *testing.T) {
	for _, shell := range []string{"bash", "zsh"} {
		path, err := exec.LookPath(shell)
		if err != nil {
			if shell == "bash" {
				t.Fatalf("bash is needed: %v", err)
			}
			t.Logf("SKIPPED LOUDLY: %s is not installed; its completion script is not parsed", shell)
			continue
		}
		var out, stderr bytes.Buffer
		if code := Main([]string{"completion", shell}, nil, &out, &stderr); code != ExitOK || out.Len() == 0 {
			t.Fatalf("completion %s: exit %d: %s", shell, code, stderr.String())
		}
		cmd := exec.Command(path, "-n")
		cmd.Stdin = &out
		if msg, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s -n on the completion script: %v\n%s", shell, err, msg)
		}
	}
}
