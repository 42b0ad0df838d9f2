package credential

import (
	"bytes"
	"encoding/base64"
	"net/url"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// benchCA is a PEM certificate block of a typical size (a CA bundle's
// entry): its base64 body is made up, its shape is a certificate's.
func benchCA() string {
	der := make([]byte, 900)
	for i := range der {
		der[i] = byte(i*7 + i/3)
	}
	body := base64.StdEncoding.EncodeToString(der)
	var b strings.Builder
	b.WriteString("-----BEGIN CERTIFICATE-----\n")
	for len(body) > 64 {
		b.WriteString(body[:64] + "\n")
		body = body[64:]
	}
	b.WriteString(body + "\n-----END CERTIFICATE-----\n")
	return b.String()
}

// benchButane is a site's Butane body as users write them: an inline
// chrony.conf, a CA bundle and a JSON policy as base64 data: URLs, a
// percent-encoded file, a unit and a drop-in.
func benchButane() string {
	ca := base64.StdEncoding.EncodeToString([]byte(benchCA()))
	policy := base64.StdEncoding.EncodeToString([]byte(`{"default": [{"type": "insecureAcceptAnything"}], "transports": {"docker": {"registry.example.com": [{"type": "signedBy", "keyType": "GPGKeys", "keyPath": "/etc/pki/rpm-gpg/RPM-GPG-KEY-example"}]}}}`))
	return `variant: openshift
version: 4.16.0
storage:
  files:
    - path: /etc/chrony.conf
      mode: 0644
      overwrite: true
      contents:
        inline: |
          server ntp1.lab.example.com iburst
          server ntp2.lab.example.com iburst
          driftfile /var/lib/chrony/drift
          makestep 1.0 3
          rtcsync
          logdir /var/log/chrony
    - path: /etc/pki/ca-trust/source/anchors/lab.pem
      mode: 0644
      contents:
        source: data:;base64,` + ca + `
    - path: /etc/containers/policy.json
      mode: 0644
      contents:
        source: data:;base64,` + policy + `
    - path: /etc/sysctl.d/99-tuning.conf
      mode: 0644
      contents:
        source: data:,` + url.PathEscape("net.core.rmem_max = 16777216\nnet.core.wmem_max = 16777216\n") + `
systemd:
  units:
    - name: lab-agent.service
      enabled: true
      contents: |
        [Unit]
        Description=Lab agent
        After=network-online.target
        Wants=network-online.target

        [Service]
        ExecStart=/usr/local/bin/lab-agent --config /etc/lab-agent.conf
        Restart=on-failure

        [Install]
        WantedBy=multi-user.target
    - name: kubelet.service
      dropins:
        - name: 10-lab.conf
          contents: |
            [Service]
            Environment="KUBELET_LOG_LEVEL=3"
`
}

// benchManifests are rendered manifests as import and the golden scan read
// them: a MachineConfig whose Ignition config writes a CA bundle, a JSON
// policy and a percent-encoded file, and a ConfigMap holding a
// MachineConfig (a document in a string).
func benchManifests() []byte {
	ca := base64.StdEncoding.EncodeToString([]byte(benchCA()))
	policy := base64.StdEncoding.EncodeToString([]byte(`{"default": [{"type": "insecureAcceptAnything"}]}`))
	ign := `{"ignition": {"version": "3.2.0"}, "storage": {"files": [` +
		`{"path": "/etc/pki/ca-trust/source/anchors/lab.pem", "mode": 420, "contents": {"source": "data:;base64,` + ca + `"}}, ` +
		`{"path": "/etc/containers/policy.json", "mode": 420, "contents": {"source": "data:;base64,` + policy + `"}}, ` +
		`{"path": "/etc/chrony.conf", "mode": 420, "contents": {"source": "data:,` + url.PathEscape("server ntp1.lab.example.com iburst\nrtcsync\n") + `"}}]}}`
	mc := machineConfig(ign)
	var b bytes.Buffer
	b.WriteString(mc)
	b.WriteString("---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: mc\n  namespace: ztp\ndata:\n  99-x.yaml: |\n")
	b.WriteString(indent(mc, "    "))
	return b.Bytes()
}

// BenchmarkWalk: the credential check of the strings of a site's Butane
// body, as each render runs it on every snippet (internal/butane).
func BenchmarkWalk(b *testing.B) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(benchButane()), &doc); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		WalkStrings(doc.Content[0], func(f Finding) bool {
			b.Fatalf("finding %q", f.What)
			return false
		})
	}
}

// BenchmarkFind: the check import and the golden scan run on a file.
func BenchmarkFind(b *testing.B) {
	data := benchManifests()
	b.ReportAllocs()
	for b.Loop() {
		if what := Find(data); what != "" {
			b.Fatalf("finding %q", what)
		}
	}
}

// BenchmarkLine: the check of every line a snippet may show.
func BenchmarkLine(b *testing.B) {
	lines := bytes.Split(benchManifests(), []byte("\n"))
	b.ReportAllocs()
	for b.Loop() {
		for _, l := range lines {
			if Line(l) {
				b.Fatalf("Line(%q)", l)
			}
		}
	}
}
