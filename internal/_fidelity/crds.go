package fidelity

import (
	"embed"
	"path"

	configv1 "github.com/openshift/api/config/v1"
	mcfgv1 "github.com/openshift/api/machineconfiguration/v1"
	operatorv1 "github.com/openshift/api/operator/v1"
	operatorv1alpha1 "github.com/openshift/api/operator/v1alpha1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Refresh the embedded copies after a github.com/openshift/api bump in go.mod.
//go:generate env FIDELITY_UPDATE_CRDS=1 go test -run ^TestEmbeddedCRDsMatchModule$ .

// openshiftAPIModule is the module the CRD copies in crds/openshift-api/ come from.
const openshiftAPIModule = "github.com/openshift/api"

// openshiftAPIDir is the directory (inside the embedded FS) mirroring the module's layout.
const openshiftAPIDir = "crds/openshift-api"

//go:embed crds
var embeddedCRDs embed.FS

// openshiftKind is a built-in kind backed by a CRD that openshift/api ships.
type openshiftKind struct {
	gvk    schema.GroupVersionKind
	newObj func() any
	// file is the CRD manifest's path inside the openshift/api module. Where the module has
	// feature-set variants, it is the -Default one, or -SelfManagedHA where no -Default exists
	// (the variant a default self-managed cluster installs).
	file string
	// rules are the operator-side checks the kind needs beyond its CRD.
	rules []kindRule
}

func (k openshiftKind) embeddedPath() string { return path.Join(openshiftAPIDir, k.file) }

var openshiftKinds = []openshiftKind{
	{
		gvk:    configv1.GroupVersion.WithKind("ImageDigestMirrorSet"),
		newObj: func() any { return &configv1.ImageDigestMirrorSet{} },
		file:   "config/v1/zz_generated.crd-manifests/0000_10_config-operator_01_imagedigestmirrorsets.crd.yaml",
		rules:  []kindRule{checkNeverContactSource("imageDigestMirrors")},
	},
	{
		gvk:    configv1.GroupVersion.WithKind("ImageTagMirrorSet"),
		newObj: func() any { return &configv1.ImageTagMirrorSet{} },
		file:   "config/v1/zz_generated.crd-manifests/0000_10_config-operator_01_imagetagmirrorsets.crd.yaml",
		rules:  []kindRule{checkNeverContactSource("imageTagMirrors")},
	},
	{
		gvk:    configv1.GroupVersion.WithKind("Image"),
		newObj: func() any { return &configv1.Image{} },
		file:   "config/v1/zz_generated.crd-manifests/0000_10_config-operator_01_images.crd.yaml",
	},
	{
		gvk:    configv1.GroupVersion.WithKind("OperatorHub"),
		newObj: func() any { return &configv1.OperatorHub{} },
		file:   "config/v1/zz_generated.crd-manifests/0000_03_marketplace_01_operatorhubs.crd.yaml",
	},
	{
		gvk:    configv1.GroupVersion.WithKind("Network"),
		newObj: func() any { return &configv1.Network{} },
		file:   "config/v1/zz_generated.crd-manifests/0000_10_config-operator_01_networks-Default.crd.yaml",
	},
	{
		gvk:    configv1.GroupVersion.WithKind("Scheduler"),
		newObj: func() any { return &configv1.Scheduler{} },
		file:   "config/v1/zz_generated.crd-manifests/0000_10_config-operator_01_schedulers-SelfManagedHA-Default.crd.yaml",
	},
	{
		gvk:    configv1.GroupVersion.WithKind("Proxy"),
		newObj: func() any { return &configv1.Proxy{} },
		file:   "config/v1/zz_generated.crd-manifests/0000_03_config-operator_01_proxies.crd.yaml",
	},
	{
		gvk:    operatorv1alpha1.GroupVersion.WithKind("ImageContentSourcePolicy"),
		newObj: func() any { return &operatorv1alpha1.ImageContentSourcePolicy{} },
		file:   "operator/v1alpha1/zz_generated.crd-manifests/0000_10_config-operator_01_imagecontentsourcepolicies.crd.yaml",
		rules:  []kindRule{checkICSPFormats},
	},
	{
		gvk:    operatorv1.GroupVersion.WithKind("Network"),
		newObj: func() any { return &operatorv1.Network{} },
		file:   "operator/v1/zz_generated.crd-manifests/0000_70_network_01_networks-Default.crd.yaml",
	},
	{
		gvk:    operatorv1.GroupVersion.WithKind("IngressController"),
		newObj: func() any { return &operatorv1.IngressController{} },
		file:   "operator/v1/zz_generated.crd-manifests/0000_50_ingress_00_ingresscontrollers-Default.crd.yaml",
	},
	{
		gvk:    mcfgv1.GroupVersion.WithKind("MachineConfig"),
		newObj: func() any { return &mcfgv1.MachineConfig{} },
		file:   "machineconfiguration/v1/zz_generated.crd-manifests/0000_80_machine-config_01_machineconfigs.crd.yaml",
		rules:  []kindRule{checkMachineConfig},
	},
	{
		gvk:    mcfgv1.GroupVersion.WithKind("MachineConfigPool"),
		newObj: func() any { return &mcfgv1.MachineConfigPool{} },
		file:   "machineconfiguration/v1/zz_generated.crd-manifests/0000_80_machine-config_01_machineconfigpools-SelfManagedHA.crd.yaml",
	},
	{
		gvk:    mcfgv1.GroupVersion.WithKind("ContainerRuntimeConfig"),
		newObj: func() any { return &mcfgv1.ContainerRuntimeConfig{} },
		file:   "machineconfiguration/v1/zz_generated.crd-manifests/0000_80_machine-config_01_containerruntimeconfigs.crd.yaml",
	},
	{
		gvk:    mcfgv1.GroupVersion.WithKind("KubeletConfig"),
		newObj: func() any { return &mcfgv1.KubeletConfig{} },
		file:   "machineconfiguration/v1/zz_generated.crd-manifests/0000_80_machine-config_01_kubeletconfigs-Default.crd.yaml",
	},
}

// mustReadCRD reads a CRD written down in crds/written/ (kinds no Go module
// here ships): embedded, so a missing file is a build mistake.
func mustReadCRD(name string) []byte {
	b, err := embeddedCRDs.ReadFile(name)
	if err != nil {
		panic("fidelity: " + err.Error())
	}
	return b
}
