package manifests

import (
	"strings"
	"testing"

	configv1 "github.com/openshift/api/config/v1"
	mcfgv1 "github.com/openshift/api/machineconfiguration/v1"
	operatorv1 "github.com/openshift/api/operator/v1"
	operatorv1alpha1 "github.com/openshift/api/operator/v1alpha1"
)

const stream = `# a comment
apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  name: cache
spec:
  imageDigestMirrors:
  - source: registry.redhat.io
    mirrors:
    - quay.example.com/registry-redhat-io
    mirrorSourcePolicy: NeverContactSource
---
# not an object: skipped
just: data
---
apiVersion: operators.coreos.com/v1alpha1
kind: CatalogSource
metadata:
  name: redhat-operators
  namespace: openshift-marketplace
spec:
  image: registry.redhat.io/redhat/redhat-operator-index:v4.16
`

func TestReadBytesPositions(t *testing.T) {
	objs, diags := ReadBytes("m.yaml", []byte(stream))
	if len(diags) > 0 || len(objs) != 2 {
		t.Fatalf("objs %d diags %v", len(objs), diags)
	}
	idms, cs := objs[0], objs[1]
	if idms.Kind != "ImageDigestMirrorSet" || idms.Name != "cache" || cs.Namespace != "openshift-marketplace" || cs.Index != 2 {
		t.Errorf("identity: %+v %+v", idms, cs)
	}
	for _, tc := range []struct {
		got, want string
	}{
		{idms.Pos().String(), "m.yaml:2:1"},
		{idms.PosOf("spec", "imageDigestMirrors", "0", "mirrorSourcePolicy").String(), "m.yaml:11:25"},
		{idms.KeyPosOf("spec", "imageDigestMirrors", "0", "mirrorSourcePolicy").String(), "m.yaml:11:5"},
		{idms.PosOf("spec", "imageDigestMirrors", "0", "mirrors", "0").String(), "m.yaml:10:7"},
		// a missing field: its nearest ancestor
		{idms.PosOf("spec", "nothere").String(), "m.yaml:7:3"},
		{cs.PosOf("spec", "image").String(), "m.yaml:22:10"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %s, want %s", tc.got, tc.want)
		}
	}
	ms := ReadMirrors(objs)
	in, diags := ms.Input(0, ""), ms.Problems
	if len(diags) > 0 || len(in.DigestMirrorSets) != 1 || in.DigestMirrorSets[0].Spec.ImageDigestMirrors[0].Source != "registry.redhat.io" {
		t.Errorf("ReadMirrors: %+v %v", in, diags)
	}
}

func TestReadBytesErrors(t *testing.T) {
	for name, tc := range map[string]struct{ src, want string }{
		"syntax":        {"a: [\n", "m.yaml:1:1: error: syntax error: did not find expected node content"},
		"binary":        {"\xff\xfe", "m.yaml:1:1: error: not UTF-8 text"},
		"strict decode": {"apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata: {name: x}\nspec:\n  imageDigestMirors: []\n", `unknown field "imageDigestMirors"`},
	} {
		objs, diags := ReadBytes("m.yaml", []byte(tc.src))
		if len(diags) == 0 {
			diags = ReadMirrors(objs).Problems
		}
		if len(diags) == 0 || !strings.Contains(diags.Error(), tc.want) {
			t.Errorf("%s: diags %v, want %q", name, diags, tc.want)
		}
	}
}

func TestGroupsMatchTheAPI(t *testing.T) {
	for got, want := range map[string]string{
		GroupConfig:           configv1.GroupVersion.String(),
		GroupOperatorV1:       operatorv1.GroupVersion.String(),
		GroupOperatorV1Alpha1: operatorv1alpha1.GroupVersion.String(),
		GroupMachineConfigV1:  mcfgv1.GroupVersion.String(),
	} {
		if got != want {
			t.Errorf("%s, want %s", got, want)
		}
	}
}

// TestMachineConfigLabels: MachineConfigs decodes a config's labels once,
// its role among them.
func TestMachineConfigLabels(t *testing.T) {
	objs, probs := Scan("mc.yaml", []byte(`apiVersion: machineconfiguration.openshift.io/v1
kind: MachineConfig
metadata:
  name: 99-infra-chrony
  labels:
    machineconfiguration.openshift.io/role: infra
    example.com/tier: gold
spec:
  config:
    ignition:
      version: 3.4.0
`))
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	mcs := MachineConfigs(objs)
	if len(mcs) != 1 || mcs[0].Role != "infra" || mcs[0].Labels["example.com/tier"] != "gold" || len(mcs[0].Labels) != 2 {
		t.Fatalf("MachineConfigs = %+v", mcs)
	}
}
