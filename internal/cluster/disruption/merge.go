package disruption

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	ignerrors "github.com/coreos/ignition/v2/config/shared/errors"
	ign3 "github.com/coreos/ignition/v2/config/v3_5"
	ign3types "github.com/coreos/ignition/v2/config/v3_5/types"
	mcfgv1 "github.com/openshift/api/machineconfiguration/v1"

	"github.com/siteforge/siteforge/internal/platform"
)

// Rendered is a pool's rendered MachineConfig as MCO merges it: what the
// machine-config-daemon compares between the node's current and desired
// config.
type Rendered struct {
	// Ignition is the merged Ignition config (spec 3.5, the version MCO
	// merges into: pkg/controller/common helpers.go imports
	// ignition/v2/config/v3_5).
	Ignition ign3types.Config
	// OSImageURL is the OS image a user MachineConfig sets; "" means the
	// release's own OS image, which siteforge does not know.
	OSImageURL      string
	KernelArguments []string
	Extensions      []string
	FIPS            bool
	// KernelType is "default", "realtime" or "64k-pages".
	KernelType string
}

// ErrIgnitionSpec2 is a MachineConfig whose Ignition config is spec 2: MCO
// converts it to spec 3 (ParseAndConvertConfig); siteforge does not.
var ErrIgnitionSpec2 = errors.New("Ignition spec 2 configs are not supported (MCO converts them to spec 3; convert the MachineConfig with Butane)")

// Merge merges a pool's MachineConfigs as MCO's render controller does for
// release minor (MCO pkg/controller/common/helpers.go MergeMachineConfigs):
//   - the configs sorted by name (from 4.15 the worker-role configs first,
//     then the others, each group sorted: a custom pool's own configs win,
//     platform.CustomPoolConfigsLastSince);
//   - the Ignition configs merged in that order with Ignition's merge
//     (files by path, units by name, drop-ins by name: the later wins),
//     compression reset per file so that a later file without compression
//     does not keep an earlier one's (MCO ignitionMergeSetFilesDefaultCompression);
//   - overwrite defaulted to true on every file;
//   - FIPS if any config sets it; kernelType realtime or 64k-pages if any
//     config sets it (the last one), else default; kernel-devel refused with
//     a non-default kernel;
//   - kernel arguments and extensions concatenated in that order;
//   - osImageURL: the last one set by a config MCO did not generate.
//
// Every MachineConfig needs its role label (MCO: "cannot find label").
func Merge(mcs []mcfgv1.MachineConfig, minor platform.OCPMinor) (Rendered, error) {
	out := Rendered{KernelType: platform.KernelTypeDefault}
	out.Ignition.Ignition.Version = ign3types.MaxVersion.String()
	if len(mcs) == 0 {
		return out, nil
	}
	configs := make([]*mcfgv1.MachineConfig, 0, len(mcs))
	for i := range mcs {
		if mcs[i].Labels == nil {
			return Rendered{}, fmt.Errorf("cannot find label in MachineConfig %s", mcs[i].Name)
		}
		configs = append(configs, &mcs[i])
	}
	byName := func(s []*mcfgv1.MachineConfig) {
		sort.SliceStable(s, func(i, j int) bool { return s[i].Name < s[j].Name })
	}
	if minor >= platform.CustomPoolConfigsLastSince {
		var worker, other []*mcfgv1.MachineConfig
		for _, c := range configs {
			if c.Labels[platform.MachineConfigRoleLabel] == platform.MachineConfigRoleWorker {
				worker = append(worker, c)
			} else {
				other = append(other, c)
			}
		}
		byName(worker)
		byName(other)
		configs = append(worker, other...)
	} else {
		byName(configs)
	}

	for i, c := range configs {
		if c.Spec.Config.Raw == nil {
			continue
		}
		ign, err := parseIgnition(c.Spec.Config.Raw)
		if err != nil {
			return Rendered{}, fmt.Errorf("MachineConfig %s: %w", c.Name, err)
		}
		if i == 0 {
			out.Ignition = ign
			continue
		}
		setDefaultCompression(&ign)
		out.Ignition = ign3.Merge(out.Ignition, ign)
		unsetDefaultCompression(&out.Ignition)
	}
	for i := range out.Ignition.Storage.Files {
		if out.Ignition.Storage.Files[i].Overwrite == nil {
			t := true
			out.Ignition.Storage.Files[i].Overwrite = &t
		}
	}

	for _, c := range configs {
		if c.Spec.FIPS {
			out.FIPS = true
		}
		if c.Spec.KernelType == platform.KernelTypeRealtime || c.Spec.KernelType == platform.KernelType64kPages {
			out.KernelType = c.Spec.KernelType
		}
		out.KernelArguments = append(out.KernelArguments, c.Spec.KernelArguments...)
		out.Extensions = append(out.Extensions, c.Spec.Extensions...)
		if c.Annotations[platform.GeneratedByControllerAnnotation] == "" && c.Spec.OSImageURL != "" {
			out.OSImageURL = c.Spec.OSImageURL
		}
	}
	if out.KernelType != platform.KernelTypeDefault && slices.Contains(out.Extensions, platform.KernelDevelExtension) {
		return Rendered{}, fmt.Errorf("installing kernel-devel extension is not supported with kernelType: %s", out.KernelType)
	}
	return out, nil
}

// parseIgnition parses a spec 3.x config into spec 3.5, as MCO's
// IgnParseWrapper does (ParseCompatibleVersion).
func parseIgnition(raw []byte) (ign3types.Config, error) {
	cfg, rpt, err := ign3.ParseCompatibleVersion(raw)
	if err != nil {
		if errors.Is(err, ignerrors.ErrUnknownVersion) { // spec 2, or newer than 3.5
			var v struct {
				Ignition struct {
					Version string `json:"version"`
				} `json:"ignition"`
			}
			if json.Unmarshal(raw, &v) == nil && strings.HasPrefix(v.Ignition.Version, "2.") {
				return ign3types.Config{}, ErrIgnitionSpec2
			}
		}
		return ign3types.Config{}, fmt.Errorf("parsing Ignition config: %w", err)
	}
	if rpt.IsFatal() {
		return ign3types.Config{}, fmt.Errorf("parsing Ignition config: %s", rpt.String())
	}
	return cfg, nil
}

func setDefaultCompression(c *ign3types.Config) {
	for i := range c.Storage.Files {
		if c.Storage.Files[i].Contents.Compression == nil {
			empty := ""
			c.Storage.Files[i].Contents.Compression = &empty
		}
	}
}

func unsetDefaultCompression(c *ign3types.Config) {
	for i := range c.Storage.Files {
		if p := c.Storage.Files[i].Contents.Compression; p != nil && *p == "" {
			c.Storage.Files[i].Contents.Compression = nil
		}
	}
}
