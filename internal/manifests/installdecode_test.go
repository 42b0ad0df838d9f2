package manifests

import (
	"strings"
	"testing"

	sigsyaml "sigs.k8s.io/yaml"
)

// TestInstallConfigDecodeProblems: the installer's AssetBase.LoadFromFile
// (openshift/installer pkg/asset/installconfig/installconfigbase.go) refuses
// a value of the wrong type and ignores an unknown field with a warning.
func TestInstallConfigDecodeProblems(t *testing.T) {
	const ic = `apiVersion: v1
baseDomain: example.com
metadata: {name: lab}
networking:
  networkType: OVNKubernetes
  machineNetwork: [{cidr: 10.19.114.0/24}]
platform:
  baremetal:
    apiVIPs: '10.19.114.149'
    ingressVIPs: [10.19.114.150]
    provisioningNetwork: Disabled
pullSecret: '{}'
repositoryDigestMirrors:
- source: quay.io/openshift-release-dev/ocp-release
  mirrors: [mirror.example.com/ocp]
fips: yes
sshkey: ssh-ed25519 AAAA
`
	objs, d := ReadBytes("install-config.yaml", []byte(ic))
	if len(d) > 0 || len(objs) != 1 {
		t.Fatal(d, len(objs))
	}
	got := InstallConfigDecodeProblems(objs[0])
	if len(got) != 2 {
		t.Fatalf("%d problems: %+v", len(got), got)
	}
	if p := got[0]; strings.Join(p.Path, ".") != "platform.baremetal.apiVIPs" || !p.Refused || p.Unknown ||
		p.Message != "is the scalar \"10.19.114.149\", but the installer reads a list here" {
		t.Errorf("apiVIPs: %+v", p)
	}
	if p := got[1]; strings.Join(p.Path, ".") != "repositoryDigestMirrors" || p.Refused || !p.Unknown ||
		!strings.HasPrefix(p.Hint, `did you mean "imageDigestSources"?`) {
		t.Errorf("repositoryDigestMirrors: %+v", p)
	}
	if pos := objs[0].KeyPosOf(got[1].Path...); pos.Line != 13 {
		t.Errorf("position %v", pos)
	}

	// the same file through the library the installer uses: the strict
	// decode fails on the scalar, the lenient one too (refused)
	var typed struct {
		Platform struct {
			BareMetal struct {
				APIVIPs []string `json:"apiVIPs"`
			} `json:"baremetal"`
		} `json:"platform"`
	}
	if err := sigsyaml.Unmarshal([]byte(ic), &typed); err == nil {
		t.Error("sigs.k8s.io/yaml decoded a scalar into []string")
	}

	// a typo close to a field: did you mean
	objs, _ = ReadBytes("install-config.yaml", []byte("apiVersion: v1\nbaseDomain: example.com\nmetadata: {name: lab}\nnetworking:\n  machineNetworks: [{cidr: 10.0.0.0/16}]\n  clusterNetwork: [{cidr: 10.128.0.0/14, hostPrefix: '23'}]\n"))
	got = InstallConfigDecodeProblems(objs[0])
	if len(got) != 2 || got[0].Hint != `did you mean "machineNetwork"?` || got[0].Refused ||
		strings.Join(got[1].Path, ".") != "networking.clusterNetwork.0.hostPrefix" || !got[1].Refused {
		t.Errorf("%+v", got)
	}
}

// TestAgentConfigDecodeProblems: the agent-based installer's AgentConfig.Load
// (openshift/installer pkg/asset/agent/agentconfig/agent_config.go) decodes
// with yaml.UnmarshalStrict: an unknown field refuses the file; a key that
// differs from a field only in case is that field (encoding/json).
func TestAgentConfigDecodeProblems(t *testing.T) {
	const ac = `apiVersion: v1beta1
kind: AgentConfig
metadata: {name: lab}
rendezvousIP: 192.168.10.10
additionalNtpSources: [ntp.example.com]
hosts:
- hostname: m0
  role: master
  interface:
  - {name: eno1, macAddress: "52:54:00:00:00:10"}
  rootDeviceHints: {deviceName: /dev/sda}
  networkConfig: {interfaces: []}
`
	objs, d := ReadBytes("agent-config.yaml", []byte(ac))
	if len(d) > 0 || len(objs) != 1 {
		t.Fatal(d)
	}
	got := AgentConfigDecodeProblems(objs[0])
	if len(got) != 1 {
		t.Fatalf("%+v", got)
	}
	if p := got[0]; strings.Join(p.Path, ".") != "hosts.0.interface" || !p.Refused || !p.Unknown || p.Hint != `did you mean "interfaces"?` {
		t.Errorf("%+v", p)
	}
	// additionalNtpSources is additionalNTPSources to the installer, as to
	// the reader
	var typed struct {
		NTP []string `json:"additionalNTPSources"`
	}
	if err := sigsyaml.Unmarshal([]byte(ac), &typed); err != nil || len(typed.NTP) != 1 {
		t.Errorf("sigs.k8s.io/yaml: %v %v", err, typed.NTP)
	}
	if acs := AgentConfigs(objs); len(acs) != 1 || len(acs[0].AdditionalNTPSources) != 1 {
		t.Errorf("reader: %+v", acs)
	}
	// a scalar for a list, a string for a bool
	objs, _ = ReadBytes("agent-config.yaml", []byte("apiVersion: v1beta1\nkind: AgentConfig\nmetadata: {name: lab}\nadditionalNTPSources: ntp.example.com\nminimalISO: 'true'\n"))
	got = AgentConfigDecodeProblems(objs[0])
	if len(got) != 2 || got[0].Path[0] != "additionalNTPSources" || got[1].Path[0] != "minimalISO" || !got[1].Refused {
		t.Errorf("%+v", got)
	}
}
