package manifests

import (
	"errors"

	"github.com/siteforge/siteforge/internal/ignition"
	"github.com/siteforge/siteforge/internal/platform"
)

// MachineConfig is what siteforge reads of a MachineConfig: its pool (the
// role label), and the Ignition config with the files and units it writes.
// The one reader of MachineConfigs.
type MachineConfig struct {
	Obj *Object
	// Labels are its labels (what a pool's machineConfigSelector matches).
	Labels map[string]string
	// Role is the machineconfiguration.openshift.io/role label: the pool
	// whose nodes get the config.
	Role   string
	Config IgnitionConfig
}

// IgnitionConfig is the part of an Ignition config siteforge reads: a
// MachineConfig's spec.config, an InfraEnv's ignitionConfigOverride.
type IgnitionConfig struct {
	Ignition struct {
		Version string `json:"version"`
	} `json:"ignition"`
	Storage struct {
		Files []IgnitionFile `json:"files"`
	} `json:"storage"`
	Systemd struct {
		Units []IgnitionUnit `json:"units"`
	} `json:"systemd"`
}

// IgnitionFile is a storage.files entry.
type IgnitionFile struct {
	Path     string `json:"path"`
	Contents struct {
		Source      *string `json:"source"`
		Compression *string `json:"compression"`
	} `json:"contents"`
}

// ErrNoInlineContents is a file whose contents are not in the config.
var ErrNoInlineContents = errors.New("no inline contents")

// Data is what Ignition writes at the file's path, at most limit bytes
// (ignition.Contents).
func (f IgnitionFile) Data(limit int64) ([]byte, error) {
	if f.Contents.Source == nil {
		return nil, ErrNoInlineContents
	}
	c := ""
	if f.Contents.Compression != nil {
		c = *f.Contents.Compression
	}
	return ignition.Contents(*f.Contents.Source, c, limit)
}

// IgnitionUnit is a systemd.units entry with its drop-ins.
type IgnitionUnit struct {
	Name     string `json:"name"`
	Contents string `json:"contents"`
	Dropins  []struct {
		Name     string `json:"name"`
		Contents string `json:"contents"`
	} `json:"dropins"`
}

// MachineConfigs reads the MachineConfigs among objs that decode, in order.
func MachineConfigs(objs []*Object) []*MachineConfig {
	var out []*MachineConfig
	for _, o := range objs {
		if o.Kind != "MachineConfig" || o.APIVersion != GroupMachineConfigV1 {
			continue
		}
		var doc struct {
			Metadata struct {
				Labels map[string]string `json:"labels"`
			} `json:"metadata"`
			Spec struct {
				Config IgnitionConfig `json:"config"`
			} `json:"spec"`
		}
		if o.DecodeLoose(&doc) != nil {
			continue
		}
		out = append(out, &MachineConfig{Obj: o, Labels: doc.Metadata.Labels, Role: doc.Metadata.Labels[platform.MachineConfigRoleLabel], Config: doc.Spec.Config})
	}
	return out
}
