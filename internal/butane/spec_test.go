package butane

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	butaneconfig "github.com/coreos/butane/config"
	"github.com/coreos/butane/config/common"

	"github.com/siteforge/siteforge/internal/platform"
)

func TestSpecVersion(t *testing.T) {
	specs := platform.ButaneOpenShiftSpecs
	newest := specs[len(specs)-1].String() + ".0"
	for _, tc := range []struct {
		ocp, want, err string
	}{
		{ocp: "4.16.3", want: "4.16.0"},
		{ocp: "4.16", want: "4.16.0"},
		{ocp: "4.16.0", want: "4.16.0"},
		{ocp: "4.10", want: "4.10.0"},
		{ocp: "4.12.45", want: "4.12.0"},
		{ocp: "4.8", want: "4.8.0"},
		{ocp: "4.22.1", want: "4.22.0"},
		{ocp: "4.23", want: newest},   // 4.23.0-experimental is never chosen
		{ocp: "4.99.1", want: newest}, // above the newest: the newest stable
		{ocp: "v4.16", want: "4.16.0"},
		{ocp: "4.7.9", err: "older than the oldest"},
		{ocp: "5.0", err: "want 4.y or 4.y.z"},
		{ocp: "3.11", err: "want 4.y or 4.y.z"},
		{ocp: "4", err: "want 4.y or 4.y.z"},
		{ocp: "", err: "want 4.y or 4.y.z"},
	} {
		got, err := SpecVersion(tc.ocp)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("SpecVersion(%q) = %q, %v; want error containing %q", tc.ocp, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("SpecVersion(%q) = %q, %v; want %q", tc.ocp, got, err, tc.want)
		}
	}
}

// TestSpecTableMatchesButane checks the table against the library: every
// listed spec translates, there is no stable spec next to either end, and
// the table has no gaps.
func TestSpecTableMatchesButane(t *testing.T) {
	known := func(version string) bool {
		doc := fmt.Sprintf("variant: openshift\nversion: %s\nmetadata:\n  name: probe\n  labels:\n    machineconfiguration.openshift.io/role: worker\n", version)
		_, _, err := butaneconfig.TranslateBytes([]byte(doc), translateOptions)
		var unknown common.ErrUnknownVersion
		if err != nil && !errors.As(err, &unknown) {
			t.Fatalf("translate probe %s: %v", version, err)
		}
		return err == nil
	}
	specs := platform.ButaneOpenShiftSpecs
	for i, m := range specs {
		if !known(m.String() + ".0") {
			t.Errorf("Butane does not know openshift spec %s.0", m)
		}
		if i > 0 && m != specs[i-1]+1 {
			t.Errorf("table gap between %s.0 and %s.0", specs[i-1], m)
		}
	}
	before := (specs[0] - 1).String() + ".0"
	after := (specs[len(specs)-1] + 1).String() + ".0"
	if known(before) {
		t.Errorf("Butane knows openshift spec %s: add it to platform.ButaneOpenShiftSpecs", before)
	}
	if known(after) {
		t.Errorf("Butane knows stable openshift spec %s: add it to platform.ButaneOpenShiftSpecs", after)
	}
}
