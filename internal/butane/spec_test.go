package butane

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	butaneconfig "github.com/coreos/butane/config"
	"github.com/coreos/butane/config/common"
)

func TestSpecVersion(t *testing.T) {
	newest := openshiftSpecs[len(openshiftSpecs)-1]
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
		{ocp: "5.0", want: newest},
		{ocp: "4.7.9", err: "older than the oldest"},
		{ocp: "3.11", err: "older than the oldest"},
		{ocp: "4", err: "not of the form"},
		{ocp: "v4.16", err: "not of the form"},
		{ocp: "", err: "not of the form"},
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
	minor := func(spec string) int {
		n, _ := strconv.Atoi(strings.Split(spec, ".")[1])
		return n
	}
	for i, spec := range openshiftSpecs {
		if !known(spec) {
			t.Errorf("Butane does not know openshift spec %s", spec)
		}
		if i > 0 && minor(spec) != minor(openshiftSpecs[i-1])+1 {
			t.Errorf("table gap between %s and %s", openshiftSpecs[i-1], spec)
		}
	}
	before := fmt.Sprintf("4.%d.0", minor(openshiftSpecs[0])-1)
	after := fmt.Sprintf("4.%d.0", minor(openshiftSpecs[len(openshiftSpecs)-1])+1)
	if known(before) {
		t.Errorf("Butane knows openshift spec %s: add it to openshiftSpecs", before)
	}
	if known(after) {
		t.Errorf("Butane knows stable openshift spec %s: add it to openshiftSpecs", after)
	}
}
