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
		ruleCase{rule: "INS021", name: "ICSP mirrors in install-config", files: map[string]string{
			"install-config.yaml": insInstallConfig + "repositoryDigestMirrors:\n- source: quay.io/openshift-release-dev/ocp-release\n  mirrors: [mirror.example.com/ocp]\n",
			"agent-config.yaml":   insAgentConfig},
			want: []string{"install-config.yaml:19:1: warning: repositoryDigestMirrors is not a field the installer reads here: the installer warns and ignores it (did you mean \"imageDigestSources\"? repositoryDigestMirrors is a field of the cluster's mirror objects, not of install-config)"}},
		ruleCase{rule: "INS021", name: "imageDigestSources", files: map[string]string{
			"install-config.yaml": insInstallConfig + "imageDigestSources:\n- source: quay.io/openshift-release-dev/ocp-release\n  mirrors: [mirror.example.com/ocp]\n",
			"agent-config.yaml":   insAgentConfig}},
	)
}
