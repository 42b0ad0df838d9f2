package disruption

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"

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

// ErrIgnitionSpec2 is a MachineConfig whose Ignition config is spec 2.0 to
// 2.2: MCO converts it to spec 3 (ParseAndConvertConfig); siteforge does
// not.
var ErrIgnitionSpec2 = errors.New("Ignition spec 2 configs are not supported (MCO converts them to spec 3; convert the MachineConfig with Butane)")

// ErrIgnitionSpecUnsupported is a MachineConfig whose Ignition spec version
// the release's MCO does not parse (platform.MCOIgnitionSpec): the render
// fails and the pool keeps its current rendered config. Merge returns it
// wrapped in an *IgnitionSpecError; test for it with errors.Is.
var ErrIgnitionSpecUnsupported = errors.New("Ignition spec version not supported by the release's MCO")

// IgnitionSpecError names the MachineConfig, its spec version and the
// release of an ErrIgnitionSpecUnsupported.
type IgnitionSpecError struct {
	MachineConfig string
	Spec          string
	Release       platform.OCPMinor
}

func (e *IgnitionSpecError) Error() string {
	return fmt.Sprintf("MachineConfig %s: Ignition spec %q is not one the Machine Config Operator of %s parses (%s): the render fails (pkg/controller/common/helpers.go IgnParseWrapper)",
		e.MachineConfig, e.Spec, e.Release, platform.MCOIgnitionSpecs(e.Release))
}

// Unwrap makes errors.Is(err, ErrIgnitionSpecUnsupported) true.
func (e *IgnitionSpecError) Unwrap() error { return ErrIgnitionSpecUnsupported }

// Merge merges a pool's MachineConfigs as MCO's render controller does for
// release minor (MCO pkg/controller/common/helpers.go MergeMachineConfigs):
//   - every config's Ignition spec version must be one the release parses
//     (platform.MCOIgnitionSpec; else an *IgnitionSpecError);
//   - the configs sorted by name (from 4.15 the worker-role configs first,
//     then the others, each group sorted: a custom pool's own configs win,
//     platform.CustomPoolConfigsLastSince);
//   - the Ignition configs merged in that order with Ignition's merge
//     (files by path, units by name, drop-ins by name: the later wins);
//     from platform.MergeCompressionResetSince compression is reset per
//     file so that a later file without compression does not keep an
//     earlier one's (ignitionMergeSetFilesDefaultCompression);
//   - overwrite defaulted to true on every file;
//   - FIPS if any config sets it; kernelType realtime (from
//     platform.KernelType64kPagesSince also 64k-pages) if any config sets
//     it (the last one), else default; kernel-devel refused with a
//     non-default kernel;
//   - kernel arguments concatenated in that order (before
//     platform.KernelArgsConcatenatedSince an argument already present is
//     skipped), extensions concatenated; in
//     platform.IgnitionKargsMovedRelease the Ignition
//     kernelArguments.shouldExist are appended too and the section is
//     dropped from the Ignition config;
//   - osImageURL: the last one set (from
//     platform.OSImageURLSkipsGeneratedSince by a config MCO did not
//     generate).
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

	resetCompression := minor >= platform.MergeCompressionResetSince
	var ignKargs []string // release 4.13: Ignition kernelArguments.shouldExist, in merge order
	for i, c := range configs {
		if c.Spec.Config.Raw == nil {
			continue
		}
		ign, err := parseIgnition(c.Name, c.Spec.Config.Raw, minor)
		if err != nil {
			return Rendered{}, err
		}
		if minor == platform.IgnitionKargsMovedRelease {
			if len(ign.KernelArguments.ShouldNotExist) > 0 {
				return Rendered{}, fmt.Errorf("Error downgrading KernelArguments for %s: Ignition KernelArguments.ShouldNotExist is not supported in this release (%s; MCO release-4.13 ExtractIgnitionKargsFor4_13)", c.Name, minor)
			}
			for _, k := range ign.KernelArguments.ShouldExist {
				ignKargs = append(ignKargs, string(k))
			}
			ign.KernelArguments = ign3types.KernelArguments{}
		}
		if i == 0 {
			out.Ignition = ign
			continue
		}
		if resetCompression {
			setDefaultCompression(&ign)
		}
		out.Ignition = ign3.Merge(out.Ignition, ign)
		if resetCompression {
			unsetDefaultCompression(&out.Ignition)
		}
	}
	for i := range out.Ignition.Storage.Files {
		if out.Ignition.Storage.Files[i].Overwrite == nil {
			t := true
			out.Ignition.Storage.Files[i].Overwrite = &t
		}
	}

	dedupKargs := minor < platform.KernelArgsConcatenatedSince
	addKarg := func(k string) {
		if dedupKargs && slices.Contains(out.KernelArguments, k) {
			return
		}
		out.KernelArguments = append(out.KernelArguments, k)
	}
	skipGenerated := minor >= platform.OSImageURLSkipsGeneratedSince
	for _, c := range configs {
		if c.Spec.FIPS {
			out.FIPS = true
		}
		if k := c.Spec.KernelType; k == platform.KernelTypeRealtime || (k == platform.KernelType64kPages && minor >= platform.KernelType64kPagesSince) {
			out.KernelType = k
		}
		for _, k := range c.Spec.KernelArguments {
			addKarg(k)
		}
		out.Extensions = append(out.Extensions, c.Spec.Extensions...)
		if skipGenerated && c.Annotations[platform.GeneratedByControllerAnnotation] != "" {
			continue
		}
		if c.Spec.OSImageURL != "" {
			out.OSImageURL = c.Spec.OSImageURL
		}
	}
	for _, k := range ignKargs {
		addKarg(k)
	}
	if out.KernelType != platform.KernelTypeDefault && slices.Contains(out.Extensions, platform.KernelDevelExtension) {
		return Rendered{}, fmt.Errorf("installing kernel-devel extension is not supported with kernelType: %s", out.KernelType)
	}
	return out, nil
}

// parseIgnition parses a MachineConfig's Ignition config into spec 3.5 when
// release minor's MCO parses its version (IgnParseWrapper), as
// ParseCompatibleVersion does.
func parseIgnition(name string, raw []byte, minor platform.OCPMinor) (ign3types.Config, error) {
	var v struct {
		Ignition struct {
			Version string `json:"version"`
		} `json:"ignition"`
	}
	if json.Unmarshal(raw, &v) == nil && v.Ignition.Version != "" {
		switch platform.MCOIgnitionSpec(v.Ignition.Version, minor) {
		case platform.IgnitionSpecConverted:
			return ign3types.Config{}, fmt.Errorf("MachineConfig %s: %w", name, ErrIgnitionSpec2)
		case platform.IgnitionSpecUnsupported:
			return ign3types.Config{}, &IgnitionSpecError{MachineConfig: name, Spec: v.Ignition.Version, Release: minor}
		}
	}
	cfg, rpt, err := ign3.ParseCompatibleVersion(raw)
	if err != nil {
		return ign3types.Config{}, fmt.Errorf("MachineConfig %s: parsing Ignition config: %w", name, err)
	}
	if rpt.IsFatal() {
		return ign3types.Config{}, fmt.Errorf("MachineConfig %s: parsing Ignition config: %s", name, rpt.String())
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
