package rules

import (
	"strings"

	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/lint"
)

// The installers' decoding of their inputs (internal/manifests
// installdecode.go): what the installer refuses to read is INS020, what it
// reads past is INS021. Checked on plain install-config.yaml and
// agent-config.yaml manifests; a site's install-config and agent-config are
// written by siteforge from typed values.

func init() {
	lint.RegisterFamily("v1alpha1", map[string]func(lint.Set, *lint.Reporter){
		"INS020": func(set lint.Set, r *lint.Reporter) { reportDecode(set, r, true) },
		"INS021": func(set lint.Set, r *lint.Reporter) { reportDecode(set, r, false) },
	}, []*lint.Rule{
		{ID: "INS020", Name: "install-input-refused", Severity: lint.Error,
			Summary: "a field of install-config.yaml or agent-config.yaml the installer cannot decode: a key set twice in one mapping, a value of the wrong type, or a field agent-config does not have",
			Rationale: "The installer decodes install-config.yaml with sigs.k8s.io/yaml into its types and stops on a value of the wrong type, such as a single address where a list is expected (`apiVIPs: 10.0.0.5`): \"failed to unmarshal install-config.yaml\" " +
				"(openshift/installer pkg/asset/installconfig/installconfigbase.go AssetBase.LoadFromFile, used by the agent-based installer through pkg/asset/agent/installconfig.go OptionalInstallConfig.Load). " +
				"It decodes agent-config.yaml strictly (yaml.UnmarshalStrict: pkg/asset/agent/agentconfig/agent_config.go AgentConfig.Load), so a field its types do not have refuses the file too. " +
				"Both decodes convert YAML to JSON with go-yaml v2's strict decoder (sigs.k8s.io/yaml yaml.go UnmarshalStrict), which refuses a key set twice in one mapping (go.yaml.in/yaml/v2 decode.go decoder.setMapIndex: \"key ... already set in map\"), equal values included. " +
				"A key differing from a field only in case is that field (encoding/json matches names regardless of case), and any scalar is read as a string where a string is expected. " +
				"Fields are checked where siteforge models the installer's types: the top level, networking, machine pools, the platform VIPs, mirrors, proxy and capabilities of install-config; all of agent-config except the hosts' rootDeviceHints, BMC and networkConfig.",
			Fix: "Keep one of two keys set in one mapping; write the value as the message says (a list: `apiVIPs: [10.0.0.5]`), or rename or remove the field (the hint gives the field meant)."},
		{ID: "INS021", Name: "install-field-ignored", Severity: lint.Warning,
			Summary: "a field of install-config.yaml the installer does not have: it warns and ignores it",
			Rationale: "When install-config.yaml has a field its types do not have, the installer logs \"failed to parse first occurrence of unknown field\" and decodes the file again ignoring unknown keys " +
				"(openshift/installer pkg/asset/installconfig/installconfigbase.go AssetBase.LoadFromFile). The setting is lost without an error: `repositoryDigestMirrors` (a field of ImageContentSourcePolicy) in install-config installs without mirrors. " +
				"Fields are checked where siteforge models the installer's types (the top level, networking, machine pools, mirrors, proxy, capabilities); the platform sections are not.",
			Fix: "Rename the field to the one the hint gives, move it to the object that has it, or remove it."},
	})
}

// reportDecode reports the decoding problems the installer refuses
// (refused) or ignores of the set's plain install-configs and agent-configs.
func reportDecode(set lint.Set, r *lint.Reporter, refused bool) {
	for _, o := range plainInstallObjects(set) {
		var ps []manifests.DecodeProblem
		file := ""
		switch {
		case o.Kind == manifests.KindInstallConfig:
			ps, file = manifests.InstallConfigDecodeProblems(o), "install-config.yaml"
		case manifests.IsAgentConfig(o):
			ps, file = manifests.AgentConfigDecodeProblems(o), "agent-config.yaml"
		default:
			continue
		}
		for _, p := range ps {
			if p.Refused != refused {
				continue
			}
			field := strings.Join(p.Path, ".")
			msg := field + " " + p.Message
			switch {
			case p.Unknown && p.Refused:
				msg += ": the installer refuses " + file + " (unknown field)"
			case p.Unknown:
				msg += ": the installer warns and ignores it"
			default:
				msg += ": the installer refuses " + file
			}
			if p.Hint != "" {
				msg += " (" + p.Hint + ")"
			}
			switch {
			case p.Duplicate:
				r.ObjectAt(o, msg, p.Pos)
			case p.Unknown:
				r.ObjectKey(o, msg, p.Path...)
			default:
				r.Object(o, msg, p.Path...)
			}
		}
	}
}

// plainInstallObjects are the set's objects that are not a site's own
// rendered objects (those are written from typed values).
func plainInstallObjects(set lint.Set) []*manifests.Object {
	if set.Site == nil {
		return set.Objects
	}
	extra := map[*manifests.Object]bool{}
	for _, o := range set.Site.Extra {
		extra[o] = true
	}
	var out []*manifests.Object
	for _, o := range set.Objects {
		if extra[o] {
			out = append(out, o)
		}
	}
	return out
}
