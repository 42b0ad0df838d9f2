package fidelity

import (
	"errors"
	"strings"
	"sync"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"
)

// validManifests holds one accepted object per registered kind; TestEveryKindHasAValidExample
// keeps the table complete.
var validManifests = map[string]string{
	"operators.coreos.com/v1alpha1 CatalogSource": `
apiVersion: operators.coreos.com/v1alpha1
kind: CatalogSource
metadata: {name: redhat-operators, namespace: openshift-marketplace}
spec: {sourceType: grpc, image: registry.redhat.io/redhat/redhat-operator-index:v4.16, displayName: Red Hat Operators, publisher: Red Hat}
`,
	"config.openshift.io/v1 ImageDigestMirrorSet": `
apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  name: image-digest-mirror
spec:
  imageDigestMirrors:
  - source: registry.redhat.io/ubi9
    mirrors:
    - mirror.example.com:5000/ubi9
    - backup.example.com/ubi9
    mirrorSourcePolicy: NeverContactSource
  - source: "*.quay.io"
    mirrors:
    - mirror.example.com/quay
status: {}
`,
	"config.openshift.io/v1 ImageTagMirrorSet": `
apiVersion: config.openshift.io/v1
kind: ImageTagMirrorSet
metadata:
  name: catalogs
spec:
  imageTagMirrors:
  - source: registry.redhat.io/redhat/redhat-operator-index
    mirrors:
    - mirror.example.com/redhat/redhat-operator-index
    mirrorSourcePolicy: AllowContactingSource
`,
	"config.openshift.io/v1 Image": `
apiVersion: config.openshift.io/v1
kind: Image
metadata:
  name: cluster
spec:
  additionalTrustedCA:
    name: registry-cas
  registrySources:
    insecureRegistries:
    - insecure.example.com
    blockedRegistries:
    - untrusted.example.com
    containerRuntimeSearchRegistries:
    - registry.example.com
`,
	"config.openshift.io/v1 OperatorHub": `
apiVersion: config.openshift.io/v1
kind: OperatorHub
metadata:
  name: cluster
spec:
  disableAllDefaultSources: true
  sources:
  - name: community-operators
    disabled: false
`,
	"config.openshift.io/v1 Network": `
apiVersion: config.openshift.io/v1
kind: Network
metadata:
  name: cluster
spec:
  clusterNetwork:
  - cidr: 10.128.0.0/14
    hostPrefix: 23
  serviceNetwork:
  - 172.30.0.0/16
  networkType: OVNKubernetes
`,
	"config.openshift.io/v1 Scheduler": `
apiVersion: config.openshift.io/v1
kind: Scheduler
metadata:
  name: cluster
spec:
  mastersSchedulable: true
  policy:
    name: ""
`,
	"config.openshift.io/v1 Proxy": `
apiVersion: config.openshift.io/v1
kind: Proxy
metadata:
  name: cluster
spec:
  httpProxy: http://proxy.example.com:3128
  httpsProxy: http://proxy.example.com:3128
  noProxy: .cluster.local,.svc,10.0.0.0/16
  trustedCA:
    name: user-ca-bundle
`,
	"operator.openshift.io/v1alpha1 ImageContentSourcePolicy": `
apiVersion: operator.openshift.io/v1alpha1
kind: ImageContentSourcePolicy
metadata:
  name: image-policy-0
spec:
  repositoryDigestMirrors:
  - source: quay.io/openshift-release-dev/ocp-release
    mirrors:
    - mirror.example.com/ocp4/openshift4
`,
	"operator.openshift.io/v1 Network": `
apiVersion: operator.openshift.io/v1
kind: Network
metadata:
  name: cluster
spec:
  managementState: Managed
  defaultNetwork:
    type: OVNKubernetes
    ovnKubernetesConfig:
      mtu: 1400
      genevePort: 6081
      ipsecConfig:
        mode: Full
  migration:
    mtu:
      network:
        from: 1400
        to: 1300
      machine:
        to: 1400
`,
	"operator.openshift.io/v1 IngressController": `
apiVersion: operator.openshift.io/v1
kind: IngressController
metadata:
  name: shard-a
  namespace: openshift-ingress-operator
spec:
  domain: apps-a.example.com
  replicas: 2
  endpointPublishingStrategy:
    type: HostNetwork
    hostNetwork:
      httpPort: 8080
      httpsPort: 8443
      statsPort: 8936
  nodePlacement:
    nodeSelector:
      matchLabels:
        node-role.kubernetes.io/infra: ""
  routeSelector:
    matchExpressions:
    - key: shard
      operator: In
      values: [a]
`,
	"machineconfiguration.openshift.io/v1 MachineConfig": `
apiVersion: machineconfiguration.openshift.io/v1
kind: MachineConfig
metadata:
  name: 01-worker-interface
  labels:
    machineconfiguration.openshift.io/role: worker
spec:
  config:
    ignition:
      version: 3.4.0
    storage:
      files:
      - path: /etc/NetworkManager/conf.d/99-ens3-mtu.conf
        mode: 384
        overwrite: true
        contents:
          source: data:,%5Bconnection-ens3-mtu%5D%0Amatch-device%3Dinterface-name%3Aens3%0Aethernet.mtu%3D9000%0A
    systemd:
      units:
      - name: ovs-max-idle.service
        enabled: true
        contents: |
          [Unit]
          After=ovs-vswitchd.service
          [Service]
          Type=oneshot
          ExecStart=/usr/bin/ovs-vsctl set Open_vSwitch . other_config:max-idle=30000
          [Install]
          WantedBy=multi-user.target
  kernelArguments:
  - nosmt
  extensions:
  - usbguard
  osImageURL: ""
  kernelType: realtime
`,
	"machineconfiguration.openshift.io/v1 MachineConfigPool": `
apiVersion: machineconfiguration.openshift.io/v1
kind: MachineConfigPool
metadata:
  name: remote
spec:
  machineConfigSelector:
    matchExpressions:
    - key: machineconfiguration.openshift.io/role
      operator: In
      values: [worker, remote]
  nodeSelector:
    matchLabels:
      node-role.kubernetes.io/remote: ""
  maxUnavailable: 1
`,
	"machineconfiguration.openshift.io/v1 ContainerRuntimeConfig": `
apiVersion: machineconfiguration.openshift.io/v1
kind: ContainerRuntimeConfig
metadata:
  name: pids
spec:
  machineConfigPoolSelector:
    matchLabels:
      pools.operator.machineconfiguration.openshift.io/worker: ""
  containerRuntimeConfig:
    pidsLimit: 4096
    logLevel: info
`,
	"machineconfiguration.openshift.io/v1 KubeletConfig": `
apiVersion: machineconfiguration.openshift.io/v1
kind: KubeletConfig
metadata:
  name: max-pods
spec:
  machineConfigPoolSelector:
    matchLabels:
      pools.operator.machineconfiguration.openshift.io/worker: ""
  kubeletConfig:
    maxPods: 500
`,
	"k8s.ovn.org/v1 EgressIP": `
apiVersion: k8s.ovn.org/v1
kind: EgressIP
metadata:
  name: egress-prod
spec:
  egressIPs:
  - 192.168.126.10
  - fd00::10
  namespaceSelector:
    matchLabels:
      env: prod
  podSelector:
    matchExpressions:
    - key: app
      operator: NotIn
      values: [debug]
`,
	"v1 ConfigMap": `
apiVersion: v1
kind: ConfigMap
metadata:
  name: registry-cas
  namespace: openshift-config
data:
  mirror.example.com..5000: |
    -----BEGIN CERTIFICATE-----
    -----END CERTIFICATE-----
binaryData:
  blob: aGVsbG8=
`,
	"v1 Namespace": `
apiVersion: v1
kind: Namespace
metadata:
  name: openshift-gitops
  labels:
    openshift.io/cluster-monitoring: "true"
`,
}

func TestValidManifestsPass(t *testing.T) {
	for name, doc := range validManifests {
		t.Run(name, func(t *testing.T) {
			if err := Check([]byte(doc)); err != nil {
				t.Errorf("want accepted, got:\n%v", err)
			}
		})
	}
}

func TestEveryKindHasAValidExample(t *testing.T) {
	for _, k := range registeredKinds() {
		if _, ok := validManifests[k]; !ok && !strings.HasPrefix(k, testGroup) {
			t.Errorf("%s is registered but validManifests has no example of it", k)
		}
	}
}

func TestRejections(t *testing.T) {
	tests := []struct {
		name  string
		doc   string
		stage Stage
		path  string
		msg   string // substring of the problem's message
	}{
		{
			name: "unknown field is pruned",
			doc: `
apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata: {name: idms}
spec:
  imageDigestMirrors:
  - source: registry.redhat.io
    mirrors: [mirror.example.com/rh]
    mirrorPolicy: NeverContactSource
`,
			stage: StagePrune, path: "spec.imageDigestMirrors[0].mirrorPolicy",
			msg: "the API server silently drops it",
		},
		{
			// Pruning skips zero values (see pruned); the Go type still has no such field.
			name: "zero-valued unknown field",
			doc: `
apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata: {name: idms}
spec:
  imageDigestMirrors:
  - source: registry.redhat.io
    mirrors: [mirror.example.com/rh]
    mirrorPolicy: ""
`,
			stage: StageDecode, path: "spec.imageDigestMirrors[0].mirrorPolicy",
			msg: "unknown field",
		},
		{
			// encoding/json would accept the wrong case; the API server drops it.
			name: "field name with the wrong case",
			doc: `
apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata: {name: idms}
spec:
  imageDigestMirrors:
  - source: registry.redhat.io
    mirrors: [mirror.example.com/rh]
    mirrorsourcepolicy: NeverContactSource
`,
			stage: StageDecode, path: "spec.imageDigestMirrors[0].mirrorsourcepolicy",
			msg: "unknown field",
		},
		{
			name: "unknown metadata field",
			doc: `
apiVersion: config.openshift.io/v1
kind: Scheduler
metadata: {name: cluster, label: {a: b}}
spec: {mastersSchedulable: true}
`,
			stage: StagePrune, path: "metadata.label", msg: "silently drops",
		},
		{
			name: "mistyped field (strict decode)",
			doc: `
apiVersion: operator.openshift.io/v1
kind: IngressController
metadata: {name: shard, namespace: openshift-ingress-operator}
spec:
  domain: apps.example.com
  replicas: "2"
`,
			stage: StageDecode, path: "spec.replicas",
			msg: "JSON string cannot be decoded into Go type int32",
		},
		{
			name: "mistyped field (schema)",
			doc: `
apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata: {name: idms}
spec:
  imageDigestMirrors:
  - source: registry.redhat.io
    mirrors: mirror.example.com/rh
`,
			stage: StageSchema, path: "spec.imageDigestMirrors[0].mirrors",
			msg: "must be of type array",
		},
		{
			name: "enum violation",
			doc: `
apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata: {name: idms}
spec:
  imageDigestMirrors:
  - source: registry.redhat.io
    mirrors: [mirror.example.com/rh]
    mirrorSourcePolicy: Never
`,
			stage: StageSchema, path: "spec.imageDigestMirrors[0].mirrorSourcePolicy",
			msg: `Unsupported value: "Never": supported values: "NeverContactSource", "AllowContactingSource"`,
		},
		{
			name: "pattern violation: a tag in the source",
			doc: `
apiVersion: config.openshift.io/v1
kind: ImageTagMirrorSet
metadata: {name: itms}
spec:
  imageTagMirrors:
  - source: registry.redhat.io/ubi9:latest
    mirrors: [mirror.example.com/ubi9]
`,
			stage: StageSchema, path: "spec.imageTagMirrors[0].source", msg: "should match",
		},
		{
			name: "x-kubernetes-list-type set: duplicate mirror",
			doc: `
apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata: {name: idms}
spec:
  imageDigestMirrors:
  - source: registry.redhat.io
    mirrors: [mirror.example.com/rh, mirror.example.com/rh]
`,
			stage: StageSchema, path: "spec.imageDigestMirrors[0].mirrors[1]",
			msg: `Duplicate value: "mirror.example.com/rh"`,
		},
		{
			// operator/v1 IngressController spec.domain:
			// rule: '!format.dns1123Subdomain().validate(self).hasValue()'
			name: "CEL rule on a field",
			doc: `
apiVersion: operator.openshift.io/v1
kind: IngressController
metadata: {name: shard, namespace: openshift-ingress-operator}
spec:
  domain: Apps_A.example.com
`,
			stage: StageCEL, path: "spec.domain",
			msg: "domain must consist of lower case alphanumeric characters",
		},
		{
			// IngressController root rule: size('router-' + self.metadata.name + '.' + self.spec.domain) <= 253.
			name: "CEL rule on the object, using metadata.name",
			doc: `
apiVersion: operator.openshift.io/v1
kind: IngressController
metadata:
  name: ` + strings.Repeat("n", 60) + `
  namespace: openshift-ingress-operator
spec:
  domain: ` + strings.Repeat(strings.Repeat("d", 60)+".", 3) + `example.com
`,
			stage: StageCEL, path: "", msg: "The combined 'router-' + metadata.name + '.' + .spec.domain cannot",
		},
		{
			// config/v1 Image spec.registrySources: 'has(self.blockedRegistries) ? !has(self.allowedRegistries) : true'
			name: "CEL rule: allowed and blocked registries together",
			doc: `
apiVersion: config.openshift.io/v1
kind: Image
metadata: {name: cluster}
spec:
  registrySources:
    allowedRegistries: [quay.io]
    blockedRegistries: [docker.io]
`,
			stage: StageCEL, path: "spec.registrySources", msg: "Only one of blockedRegistries or allowedRegistries may be set",
		},
		{
			name: "status is dropped on create (status subresource)",
			doc: `
apiVersion: machineconfiguration.openshift.io/v1
kind: MachineConfigPool
metadata: {name: infra}
spec:
  machineConfigSelector: {matchLabels: {machineconfiguration.openshift.io/role: infra}}
status:
  machineCount: 3
`,
			stage: StagePrune, path: "status", msg: "dropped on create",
		},
		{
			name: "name is required",
			doc: `
apiVersion: config.openshift.io/v1
kind: Proxy
metadata: {generateName: proxy-}
spec: {}
`,
			stage: StageMetadata, path: "metadata.name", msg: "Required value",
		},
		{
			name: "name must be a DNS-1123 subdomain",
			doc: `
apiVersion: machineconfiguration.openshift.io/v1
kind: KubeletConfig
metadata: {name: Max_Pods}
spec: {}
`,
			stage: StageMetadata, path: "metadata.name", msg: "a lowercase RFC 1123 subdomain",
		},
		{
			name: "namespace on a cluster-scoped kind",
			doc: `
apiVersion: config.openshift.io/v1
kind: OperatorHub
metadata: {name: cluster, namespace: openshift-marketplace}
spec: {disableAllDefaultSources: true}
`,
			stage: StageMetadata, path: "metadata.namespace", msg: "not allowed on this type",
		},
		{
			name: "namespace missing on a namespaced kind",
			doc: `
apiVersion: operator.openshift.io/v1
kind: IngressController
metadata: {name: shard}
spec: {domain: apps.example.com}
`,
			stage: StageMetadata, path: "metadata.namespace", msg: "Required value",
		},
		{
			name: "duplicate YAML key",
			doc: `
apiVersion: v1
kind: Namespace
metadata: {name: a, name: b}
`,
			stage: StageParse, path: "", msg: "already set in map",
		},
		{
			name: "ignition: file path not absolute",
			doc: `
apiVersion: machineconfiguration.openshift.io/v1
kind: MachineConfig
metadata: {name: 99-worker-x}
spec:
  config:
    ignition: {version: 3.4.0}
    storage:
      files:
      - path: etc/foo.conf
        contents: {source: "data:,x"}
`,
			stage: StageIgnition, path: "spec.config.storage.files[0].path", msg: "path not absolute",
		},
		{
			name: "ignition: unused key",
			doc: `
apiVersion: machineconfiguration.openshift.io/v1
kind: MachineConfig
metadata: {name: 99-worker-x}
spec:
  config:
    ignition: {version: 3.2.0}
    systemd:
      units:
      - name: foo.service
        enable: true
`,
			stage: StageIgnition, path: "spec.config.systemd.units[0].enable", msg: "unused key enable",
		},
		{
			name: "ignition: legacy spec 2.2",
			doc: `
apiVersion: machineconfiguration.openshift.io/v1
kind: MachineConfig
metadata: {name: 99-worker-x}
spec:
  config:
    ignition: {version: 2.2.0}
`,
			stage: StageIgnition, path: "spec.config.ignition.version", msg: `unsupported version "2.2.0"`,
		},
		{
			name: "ignition: experimental spec",
			doc: `
apiVersion: machineconfiguration.openshift.io/v1
kind: MachineConfig
metadata: {name: 99-worker-x}
spec:
  config:
    ignition: {version: 3.6.0-experimental}
`,
			stage: StageIgnition, path: "spec.config.ignition.version", msg: `invalid version "3.6.0-experimental"`,
		},
		{
			name: "ignition: spec newer than MCO's",
			doc: `
apiVersion: machineconfiguration.openshift.io/v1
kind: MachineConfig
metadata: {name: 99-worker-x}
spec:
  config:
    ignition: {version: 3.6.0}
`,
			stage: StageIgnition, path: "spec.config.ignition.version", msg: "MCO accepts 3.0.0 through 3.5.0",
		},
		{
			name: "MCO: setuid file mode",
			doc: `
apiVersion: machineconfiguration.openshift.io/v1
kind: MachineConfig
metadata: {name: 99-worker-x}
spec:
  config:
    ignition: {version: 3.5.0}
    storage:
      files:
      - path: /usr/local/bin/tool
        mode: 2541
        contents: {source: "data:,x"}
`,
			stage: StageIgnition, path: "spec.config.storage.files[0].mode", msg: "invalid mode 04755 for /usr/local/bin/tool, cannot exceed 0777",
		},
		{
			name: "MCO: unknown kernelType",
			doc: `
apiVersion: machineconfiguration.openshift.io/v1
kind: MachineConfig
metadata: {name: 99-worker-rt}
spec: {kernelType: rt}
`,
			stage: StageKindRule, path: "spec.kernelType", msg: "kernelType=rt is invalid",
		},
		{
			name: "MCO: unsupported extension",
			doc: `
apiVersion: machineconfiguration.openshift.io/v1
kind: MachineConfig
metadata: {name: 99-worker-ext}
spec: {extensions: [usbguard, vim]}
`,
			stage: StageKindRule, path: "spec.extensions[1]", msg: `invalid extension "vim"`,
		},
		{
			name: "MCO: ICSP source format (the ICSP CRD has no pattern)",
			doc: `
apiVersion: operator.openshift.io/v1alpha1
kind: ImageContentSourcePolicy
metadata: {name: icsp}
spec:
  repositoryDigestMirrors:
  - source: quay.io/openshift-release-dev/ocp-release
    mirrors: [mirror.example.com/ocp4@sha256]
`,
			stage: StageKindRule, path: "spec.repositoryDigestMirrors[0].mirrors[0]", msg: `invalid format for mirror "mirror.example.com/ocp4@sha256"`,
		},
		{
			name: "MCO: NeverContactSource with the source as a mirror",
			doc: `
apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata: {name: idms}
spec:
  imageDigestMirrors:
  - source: registry.redhat.io/ubi9
    mirrors: [mirror.example.com/ubi9, registry.redhat.io/ubi9]
    mirrorSourcePolicy: NeverContactSource
`,
			stage: StageKindRule, path: "spec.imageDigestMirrors[0].mirrors[1]", msg: "cannot set mirrorSourcePolicy: NeverContactSource",
		},
		{
			name: "feature-gated field the Default CRD lacks",
			doc: `
apiVersion: config.openshift.io/v1
kind: Scheduler
metadata: {name: cluster}
spec:
  profileCustomizations: {dynamicResourceAllocation: Enabled}
`,
			stage: StagePrune, path: "spec.profileCustomizations", msg: "silently drops",
		},
		{
			name: "EgressIP: namespaceSelector is required",
			doc: `
apiVersion: k8s.ovn.org/v1
kind: EgressIP
metadata: {name: eip}
spec:
  egressIPs: [192.168.1.10]
`,
			stage: StageSchema, path: "spec.namespaceSelector", msg: "Required value",
		},
		{
			name: "EgressIP: upstream-only trafficSelector",
			doc: `
apiVersion: k8s.ovn.org/v1
kind: EgressIP
metadata: {name: eip}
spec:
  egressIPs: [192.168.1.10]
  namespaceSelector: {matchLabels: {env: prod}}
  trafficSelector: {matchLabels: {t: x}}
`,
			stage: StagePrune, path: "spec.trafficSelector", msg: "silently drops",
		},
		{
			name: "EgressIP: system annotation on create",
			doc: `
apiVersion: k8s.ovn.org/v1
kind: EgressIP
metadata:
  name: eip
  annotations: {k8s.ovn.org/egressip-mark: "50000"}
spec:
  egressIPs: [192.168.1.10]
  namespaceSelector: {matchLabels: {env: prod}}
`,
			stage: StageKindRule, path: "metadata.annotations[k8s.ovn.org/egressip-mark]", msg: "managed by the system",
		},
		{
			name: "ConfigMap: invalid key",
			doc: `
apiVersion: v1
kind: ConfigMap
metadata: {name: cas, namespace: openshift-config}
data: {"mirror.example.com:5000": x}
`,
			stage: StageKindRule, path: "data[mirror.example.com:5000]", msg: "a valid config key must consist of",
		},
		{
			name: "ConfigMap: unknown field",
			doc: `
apiVersion: v1
kind: ConfigMap
metadata: {name: cas, namespace: openshift-config}
date: {a: b}
`,
			stage: StageDecode, path: "date", msg: "unknown field",
		},
		{
			name: "Namespace: name must be a DNS label",
			doc: `
apiVersion: v1
kind: Namespace
metadata: {name: openshift.gitops}
`,
			stage: StageMetadata, path: "metadata.name", msg: "must not contain dots",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			expectProblem(t, Check([]byte(tt.doc)), tt.stage, tt.path, tt.msg)
		})
	}
}

// expectProblem asserts err is an *Error with a problem found by stage at path whose message
// contains msg, and that the rendered error names the path and the message.
func expectProblem(t *testing.T, err error, stage Stage, path, msg string) {
	t.Helper()
	var fe *Error
	if !errors.As(err, &fe) {
		t.Fatalf("want *Error with a %s problem at %q, got %v", stage, path, err)
	}
	for _, p := range fe.Problems {
		if p.Stage == stage && p.Path == path && strings.Contains(p.Message, msg) {
			if !strings.Contains(err.Error(), p.String()) {
				t.Errorf("Error() does not render the problem %q:\n%s", p, err)
			}
			t.Logf("%s", err)
			return
		}
	}
	t.Errorf("want a %s problem at %q containing %q, got:\n%s", stage, path, msg, err)
}

func TestErrorNamesKindAndName(t *testing.T) {
	err := Check([]byte(`
apiVersion: operator.openshift.io/v1
kind: IngressController
metadata: {name: shard-b, namespace: openshift-ingress-operator}
spec: {domain: Bad_Domain}
`))
	want := "IngressController/openshift-ingress-operator/shard-b: spec.domain: Invalid value: \"Bad_Domain\": domain must consist of lower case"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("want the error to contain\n%s\ngot\n%v", want, err)
	}
}

func TestUnregisteredKind(t *testing.T) {
	err := Check([]byte(`
apiVersion: operators.coreos.com/v1
kind: Subscription
metadata: {name: redhat-operators, namespace: openshift-marketplace}
spec: {name: x}
`))
	if !errors.Is(err, ErrUnregisteredKind) {
		t.Fatalf("want ErrUnregisteredKind, got %v", err)
	}
	want := "Subscription/openshift-marketplace/redhat-operators: no fidelity check for operators.coreos.com/v1 Subscription [kind]"
	if err.Error() != want {
		t.Errorf("got  %q\nwant %q", err, want)
	}
}

func TestJSONDocument(t *testing.T) {
	doc := `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"ok"}}`
	if err := Check([]byte(doc)); err != nil {
		t.Errorf("JSON document: %v", err)
	}
}

func TestNotAManifest(t *testing.T) {
	for _, doc := range []string{"", "- a\n- b\n", "kind: Namespace\n"} {
		expectProblem(t, Check([]byte(doc)), StageParse, "", "")
	}
}

func TestCheckStream(t *testing.T) {
	stream := `# rendered by siteforge
---
apiVersion: v1
kind: Namespace
metadata: {name: one}
---
# only a comment
---
apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata: {name: idms}
spec:
  imageDigestMirrors:
  - source: registry.redhat.io
    mirrors: [mirror.example.com/rh]
    mirrorSourcePolicy: Never
---
apiVersion: v1
kind: Namespace
metadata: {name: two}
---
apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
`
	err := CheckStream([]byte(stream))
	if err == nil {
		t.Fatal("want an error")
	}
	var docs []int
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		var fe *Error
		if !errors.As(e, &fe) {
			t.Fatalf("want *Error, got %T %v", e, e)
		}
		docs = append(docs, fe.Document)
	}
	if len(docs) != 2 || docs[0] != 2 || docs[1] != 4 {
		t.Errorf("failing documents = %v, want [2 4] (blank documents are not counted)", docs)
	}
	if !strings.Contains(err.Error(), "document 2: ImageDigestMirrorSet/idms: spec.imageDigestMirrors[0].mirrorSourcePolicy: Unsupported value") {
		t.Errorf("error does not locate the document:\n%v", err)
	}
	if !errors.Is(err, ErrUnregisteredKind) {
		t.Errorf("want errors.Is(ErrUnregisteredKind) through the joined error")
	}

	var all []string
	for _, doc := range validManifests {
		all = append(all, doc)
	}
	if err := CheckStream([]byte(strings.Join(all, "\n---\n"))); err != nil {
		t.Errorf("stream of valid manifests: %v", err)
	}
}

const testGroup = "fidelity.siteforge.test/"

// widgetCRD is a small CRD with an enum and a CEL rule, registered by TestRegister.
const widgetCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.fidelity.siteforge.test
spec:
  group: fidelity.siteforge.test
  names: {kind: Widget, listKind: WidgetList, plural: widgets, singular: widget}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [size]
            properties:
              size:
                type: integer
                minimum: 1
              color:
                type: string
                enum: [red, blue]
                default: red
            x-kubernetes-validations:
            - rule: self.size <= 10 || self.color == 'blue'
              message: only blue widgets may be larger than 10
`

type widget struct {
	APIVersion string         `json:"apiVersion"`
	Kind       string         `json:"kind"`
	Metadata   map[string]any `json:"metadata"`
	Spec       struct {
		Size  int    `json:"size"`
		Color string `json:"color,omitempty"`
	} `json:"spec"`
}

var registerWidget = sync.OnceValue(func() error {
	return Register(schema.GroupVersionKind{Group: "fidelity.siteforge.test", Version: "v1", Kind: "Widget"},
		func() any { return &widget{} }, []byte(widgetCRD))
})

func TestRegister(t *testing.T) {
	if err := registerWidget(); err != nil {
		t.Fatal(err)
	}
	ok := `
apiVersion: fidelity.siteforge.test/v1
kind: Widget
metadata: {name: w, namespace: default}
spec: {size: 3}
`
	if err := Check([]byte(ok)); err != nil {
		t.Errorf("valid widget: %v", err)
	}
	// color defaults to red, so the CEL rule sees red and fails: defaulting runs before CEL.
	big := strings.Replace(ok, "size: 3", "size: 11", 1)
	expectProblem(t, Check([]byte(big)), StageCEL, "spec", "only blue widgets may be larger than 10")

	gvk := schema.GroupVersionKind{Group: "fidelity.siteforge.test", Version: "v1", Kind: "Widget"}
	if err := Register(gvk, func() any { return &widget{} }, []byte(widgetCRD)); err == nil || !strings.Contains(err.Error(), "already registered") {
		t.Errorf("registering twice: got %v", err)
	}
	other := schema.GroupVersionKind{Group: "fidelity.siteforge.test", Version: "v2", Kind: "Widget"}
	if err := Register(other, func() any { return &widget{} }, []byte(widgetCRD)); err == nil || !strings.Contains(err.Error(), "does not serve version v2") {
		t.Errorf("registering an unserved version: got %v", err)
	}
	broken := strings.Replace(widgetCRD, "self.size <= 10", "self.sise <= 10", 1)
	gadget := schema.GroupVersionKind{Group: "fidelity.siteforge.test", Version: "v1", Kind: "Gadget"}
	broken = strings.NewReplacer("Widget", "Gadget", "widget", "gadget").Replace(broken)
	if err := Register(gadget, func() any { return &widget{} }, []byte(broken)); err == nil || !strings.Contains(err.Error(), "undefined field 'sise'") {
		t.Errorf("registering a CRD whose CEL rule does not compile: got %v", err)
	}
}

func TestCheckRegistriesConf(t *testing.T) {
	// What MCO renders for one IDMS and one ITMS entry (4.13+).
	valid := `unqualified-search-registries = ["registry.access.redhat.com", "docker.io"]
short-name-mode = ""
additional-layer-store-auth-helper = ""

[[registry]]
  prefix = ""
  location = "registry.redhat.io/redhat/redhat-operator-index"

  [[registry.mirror]]
    location = "mirror.example.com/redhat/redhat-operator-index"
    pull-from-mirror = "tag-only"

[[registry]]
  prefix = ""
  location = "registry.redhat.io/ubi9"
  blocked = true

  [[registry.mirror]]
    location = "mirror.example.com:5000/ubi9"
    pull-from-mirror = "digest-only"
`
	if err := CheckRegistriesConf([]byte(valid)); err != nil {
		t.Errorf("MCO-style registries.conf: %v", err)
	}

	tests := []struct{ name, conf, msg string }{
		{"mirror-by-digest-only mixed with pull-from-mirror", `
[[registry]]
  location = "registry.redhat.io"
  mirror-by-digest-only = true
  [[registry.mirror]]
    location = "mirror.example.com/rh"
    pull-from-mirror = "digest-only"
`, `cannot set mirror usage mirror-by-digest-only for the registry ("registry.redhat.io") and pull-from-mirror for per-mirror ("mirror.example.com/rh") at the same time`},
		{"unknown pull-from-mirror value", `
[[registry]]
  location = "registry.redhat.io"
  [[registry.mirror]]
    location = "mirror.example.com/rh"
    pull-from-mirror = "digests"
`, `unsupported pull-from-mirror value "digests"`},
		{"v1 format", `
[registries.search]
registries = ["registry.access.redhat.com"]
`, "registries.conf must be in v2 format but is in v1"},
		{"unknown key", `
[[registry]]
  location = "registry.redhat.io"
  mirror-by-digest = true
`, `unknown keys "registry.mirror-by-digest"`},
		{"TOML syntax", "[[registry]\n", "toml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckRegistriesConf([]byte(tt.conf))
			if !errors.Is(err, ErrRegistriesConf) || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("want ErrRegistriesConf containing %q, got %v", tt.msg, err)
			}
		})
	}
}

// TestGoTypeRoundTrip: a generator that builds the Go type and marshals it with sigs.k8s.io/yaml
// (creationTimestamp: null, status: {} and other zero values included) must pass.
func TestGoTypeRoundTrip(t *testing.T) {
	for name, doc := range validManifests {
		t.Run(name, func(t *testing.T) {
			k := lookupString(t, name)
			obj := k.newObj()
			if err := yaml.UnmarshalStrict([]byte(doc), obj); err != nil {
				t.Fatal(err)
			}
			out, err := yaml.Marshal(obj)
			if err != nil {
				t.Fatal(err)
			}
			if err := Check(out); err != nil {
				t.Errorf("marshalled %T rejected:\n%v\n---\n%s", obj, err, out)
			}
		})
	}
}

func lookupString(t *testing.T, name string) *kind {
	t.Helper()
	registry.RLock()
	defer registry.RUnlock()
	for gvk, k := range registry.kinds {
		if gvkString(gvk) == name {
			return k
		}
	}
	t.Fatalf("%s is not registered", name)
	return nil
}

// TestConcurrentChecks: generator tests run in parallel; compiled CRDs are shared.
func TestConcurrentChecks(t *testing.T) {
	var wg sync.WaitGroup
	errs := make(chan error, 4*(len(validManifests)+1))
	for range 4 {
		for _, doc := range validManifests {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs <- Check([]byte(doc))
			}()
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- CheckRegistriesConf([]byte("unqualified-search-registries = [\"registry.access.redhat.com\"]\n"))
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}
