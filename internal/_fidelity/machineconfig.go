package fidelity

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	ignerrors "github.com/coreos/ignition/v2/config/shared/errors"
	ign3 "github.com/coreos/ignition/v2/config/v3_5"
	"github.com/coreos/ignition/v2/config/v3_5/types"
	"github.com/coreos/vcontext/path"
	"github.com/coreos/vcontext/report"
)

// MCO platform facts (openshift/machine-config-operator pkg/controller/common).
var (
	// ign3.ParseCompatibleVersion is what MCO's IgnParseWrapper calls: it accepts spec 3.0.0
	// through types.MaxVersion (3.5.0). MCO also converts legacy 2.2 configs, which siteforge never
	// emits, so 2.x is rejected here.
	ignitionMaxVersion = types.MaxVersion
	// ValidateMachineConfig: kernelType must be one of these ("" means default).
	mcoKernelTypes = []string{"", "default", "realtime", "64k-pages"}
	// SupportedExtensions: the MCD refuses any other RHCOS extension ("invalid extensions found").
	mcoExtensions = []string{"ipsec", "kerberos", "kernel-devel", "sandboxed-containers", "sysstat", "usbguard", "wasm"}
)

// checkMachineConfig runs what MCO does with a MachineConfig after the API server stored it:
// ValidateMachineConfig (kernelType, Ignition parse + validate, file modes) and the MCD's
// extensions allowlist. Ignition warnings fail too: the only warnings a generator can cause are
// unused keys and similar mistakes the node would silently ignore.
func checkMachineConfig(obj map[string]any) []Problem {
	var ps []Problem
	spec, _ := obj["spec"].(map[string]any)
	if kt, ok := spec["kernelType"].(string); ok && !slices.Contains(mcoKernelTypes, kt) {
		ps = append(ps, Problem{StageKindRule, "spec.kernelType",
			fmt.Sprintf("kernelType=%s is invalid (MCO accepts %s)", kt, quoteAll(mcoKernelTypes[1:]))})
	}
	if exts, ok := spec["extensions"].([]any); ok {
		for i, e := range exts {
			if s, ok := e.(string); ok && !slices.Contains(mcoExtensions, s) {
				ps = append(ps, Problem{StageKindRule, fmt.Sprintf("spec.extensions[%d]", i),
					fmt.Sprintf("invalid extension %q (MCO supports %s)", s, quoteAll(mcoExtensions))})
			}
		}
	}
	cfg, ok := spec["config"]
	if !ok || cfg == nil {
		return ps // a MachineConfig with only kernelArguments/extensions/osImageURL is valid
	}
	raw, err := json.Marshal(cfg)
	if err != nil {
		return append(ps, Problem{StageIgnition, "spec.config", err.Error()})
	}
	return append(ps, checkIgnition(raw)...)
}

// checkIgnition parses one raw Ignition config the way MCO does and reports every entry of
// Ignition's report, plus MCO's own file-mode rule.
func checkIgnition(raw []byte) []Problem {
	const root = "spec.config"
	version, err := ignitionVersion(raw)
	if err != nil {
		return []Problem{{StageIgnition, root + ".ignition.version", err.Error()}}
	}
	cfg, rpt, err := ign3.ParseCompatibleVersion(raw)
	var ps []Problem
	for _, e := range rpt.Entries {
		if e.Kind == report.Info {
			continue
		}
		ps = append(ps, Problem{StageIgnition, ignitionPath(root, e.Context),
			fmt.Sprintf("ignition %s %s: %s", version, e.Kind, e.Message)})
	}
	if err != nil {
		if len(ps) == 0 || !errors.Is(err, ignerrors.ErrInvalid) {
			ps = append(ps, Problem{StageIgnition, root, fmt.Sprintf("ignition %s: %v", version, err)})
		}
		return ps
	}
	// MCO validateIgn3FileModes (BZ 2038240): no setuid, setgid or sticky bits.
	for i, f := range cfg.Storage.Files {
		if f.Mode != nil && os.FileMode(*f.Mode) > os.ModePerm {
			ps = append(ps, Problem{StageIgnition, fmt.Sprintf("%s.storage.files[%d].mode", root, i),
				fmt.Sprintf("invalid mode %#o for %s, cannot exceed %#o", *f.Mode, f.Path, os.ModePerm)})
		}
	}
	return ps
}

// ignitionVersion returns the declared spec version if MCO accepts it.
func ignitionVersion(raw []byte) (string, error) {
	var stub struct {
		Ignition struct {
			Version string `json:"version"`
		} `json:"ignition"`
	}
	if err := json.Unmarshal(raw, &stub); err != nil {
		return "", fmt.Errorf("not an Ignition config: %v", err)
	}
	v := stub.Ignition.Version
	if v == "" {
		return "", errors.New("required: MCO needs an Ignition spec version (3.x.0)")
	}
	maj, min, ok := parseSpecVersion(v)
	if !ok {
		return "", fmt.Errorf("invalid version %q: MCO accepts 3.0.0 through %s", v, ignitionMaxVersion)
	}
	if maj != 3 || min > ignitionMaxVersion.Minor {
		return "", fmt.Errorf("unsupported version %q: MCO accepts 3.0.0 through %s", v, ignitionMaxVersion)
	}
	return v, nil
}

// parseSpecVersion accepts exactly "X.Y.0": Ignition rejects pre-release specs (3.6.0-experimental)
// in ParseCompatibleVersion, and patch versions do not exist.
func parseSpecVersion(v string) (maj, min int64, ok bool) {
	parts := strings.Split(v, ".")
	if len(parts) != 3 || parts[2] != "0" {
		return 0, 0, false
	}
	maj, err1 := strconv.ParseInt(parts[0], 10, 64)
	min, err2 := strconv.ParseInt(parts[1], 10, 64)
	return maj, min, err1 == nil && err2 == nil
}

// ignitionPath renders an Ignition context path as a JSON path under root:
// [storage files 0 path] -> spec.config.storage.files[0].path.
func ignitionPath(root string, c path.ContextPath) string {
	var b strings.Builder
	b.WriteString(root)
	for _, e := range c.Path {
		switch e := e.(type) {
		case int:
			fmt.Fprintf(&b, "[%d]", e)
		default:
			fmt.Fprintf(&b, ".%v", e)
		}
	}
	return b.String()
}

func quoteAll(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = strconv.Quote(s)
	}
	return strings.Join(q, ", ")
}
