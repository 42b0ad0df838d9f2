package rules

import "strings"

// Cases of INS020 and INS021, from the installer's loaders:
// openshift/installer pkg/asset/installconfig/installconfigbase.go
// AssetBase.LoadFromFile (install-config: a type error refuses the file, an
// unknown field is ignored with a warning) and
// pkg/asset/agent/agentconfig/agent_config.go AgentConfig.Load
// (agent-config: yaml.UnmarshalStrict refuses both).
func init() {
	ruleCases = append(ruleCases,
		ruleCase{rule: "INS020", name: "apiVIPs written as a single address", files: insAgent("apiVIPs: [192.168.10.5]", "apiVIPs: '192.168.10.5'", "", ""),
			want: []string{"install-config.yaml:17:14: error: platform.baremetal.apiVIPs is the scalar \"192.168.10.5\", but the installer reads a list here: the installer refuses install-config.yaml"}},
		ruleCase{rule: "INS020", name: "agent-config host field misspelled", files: insAgent("", "", "  interfaces:\n  - name: eno1\n    macAddress: 52:54:00:00:00:10", "  interface:\n  - name: eno1\n    macAddress: 52:54:00:00:00:10"),
			want: []string{"agent-config.yaml:9:3: error: hosts.0.interface is not a field the installer reads here: the installer refuses agent-config.yaml (unknown field) (did you mean \"interfaces\"?)"}},
		ruleCase{rule: "INS020", name: "agent-config NTP sources spelled in another case", files: map[string]string{
			"install-config.yaml": insInstallConfig,
			"agent-config.yaml":   strings.Replace(insAgentConfig, "rendezvousIP: 192.168.10.10\n", "rendezvousIP: 192.168.10.10\nadditionalNtpSources: [ntp.example.com]\n", 1)}},
		ruleCase{rule: "INS020", name: "well-typed inputs", files: insAgent("", "", "", "")},
		// A key set twice in one mapping: sigs.k8s.io/yaml UnmarshalStrict
		// converts YAML to JSON with go-yaml v2's strict decoder, which
		// refuses it (go.yaml.in/yaml/v2 decode.go decoder.setMapIndex).
		// The cases follow sigs.k8s.io/yaml yaml_test.go
		// TestUnmarshalStrictFails: a list-valued key set twice ("decode
		// duplicate into nested slice"), a key set twice in a list's
		// element ("decode into slice with duplicate string-boolean
		// value"), a top-level key set twice with equal values; and, as the
		// decoder's check is per mapping, the same key in two mappings.
		ruleCase{rule: "INS020", name: "install-config apiVIPs set twice", files: insAgent("    ingressVIPs: [192.168.10.6]\n", "    ingressVIPs: [192.168.10.6]\n    apiVIPs: [192.168.10.7]\n", "", ""),
			want: []string{"install-config.yaml:19:5: error: platform.baremetal.apiVIPs is already set at line 17 (a mapping key set twice): the installer refuses install-config.yaml (keep one of the two)"}},
		ruleCase{rule: "INS020", name: "agent-config host role set twice", files: insAgent("", "", "  role: master\n", "  role: master\n  role: master\n"),
			want: []string{"agent-config.yaml:9:3: error: hosts.0.role is already set at line 8 (a mapping key set twice): the installer refuses agent-config.yaml (keep one of the two)"}},
		ruleCase{rule: "INS020", name: "agent-config rendezvousIP set twice", files: insAgent("", "", "rendezvousIP: 192.168.10.10\n", "rendezvousIP: 192.168.10.10\nrendezvousIP: 192.168.10.10\n"),
			want: []string{"agent-config.yaml:6:1: error: rendezvousIP is already set at line 5 (a mapping key set twice): the installer refuses agent-config.yaml (keep one of the two)"}},
		ruleCase{rule: "INS020", name: "the same key in two mappings", files: insAgent("  - cidr: 192.168.10.0/24\n", "  - cidr: 192.168.10.0/24\n  clusterNetwork:\n  - cidr: 10.128.0.0/14\n    hostPrefix: 23\n", "", "")},
		ruleCase{rule: "INS021", name: "ICSP mirrors in install-config", files: map[string]string{
			"install-config.yaml": insInstallConfig + "repositoryDigestMirrors:\n- source: quay.io/openshift-release-dev/ocp-release\n  mirrors: [mirror.example.com/ocp]\n",
			"agent-config.yaml":   insAgentConfig},
			want: []string{"install-config.yaml:19:1: warning: repositoryDigestMirrors is not a field the installer reads here: the installer warns and ignores it (did you mean \"imageDigestSources\"? repositoryDigestMirrors is a field of the cluster's mirror objects, not of install-config)"}},
		ruleCase{rule: "INS021", name: "imageDigestSources", files: map[string]string{
			"install-config.yaml": insInstallConfig + "imageDigestSources:\n- source: quay.io/openshift-release-dev/ocp-release\n  mirrors: [mirror.example.com/ocp]\n",
			"agent-config.yaml":   insAgentConfig}},
	)
}
