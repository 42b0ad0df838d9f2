package upstream

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// The ZTP SiteConfig v1 (ran.openshift.io/v1): the fields siteforge reads of
// openshift-kni/cnf-features-deploy ztp/siteconfig-generator/siteConfig/
// siteConfig.go (SiteConfig, Metadata, Spec, Clusters, Nodes, NodeNetwork,
// DiskEncryption, Proxy, CrAnnotations, BiosConfigRef, ExtraManifests,
// SiteConfigMap; release-4.20, 7191ec0ddb08922364295ef4919f712d4b653fc4),
// with platformType and cpuArchitecture of the siteconfig-converter's copy
// (ztp/tools/siteconfig-converter main.go Cluster). Upstream tags are yaml
// tags; the json tags here are the same names. The generator's module is
// gone from upstream (removed by 4af8038e3d01a0c2271883c197e775a589cd9e74),
// so this is a minimal typed copy. Network blocks, the host's NMState
// network and root device hints reuse the ClusterInstance types of
// siteconfig.go (the same json fields). Secrets are only named
// (pullSecretRef, bmcCredentialsName, sshPrivateKeySecretRef).

// SiteConfig is ran.openshift.io/v1 SiteConfig.
type SiteConfig struct {
	metav1.TypeMeta `json:",inline"`
	Metadata        SiteConfigMeta `json:"metadata"`
	Spec            SiteConfigSpec `json:"spec"`
}

// SiteConfigMeta is upstream Metadata.
type SiteConfigMeta struct {
	Name      string `json:"name"`
	Namespace string `json:"namespace"`
}

// SiteConfigSpec is upstream Spec: what the clusters share, and the clusters.
type SiteConfigSpec struct {
	PullSecretRef          LocalObjectReference `json:"pullSecretRef"`
	ClusterImageSetNameRef string               `json:"clusterImageSetNameRef"`
	SSHPublicKey           string               `json:"sshPublicKey"`
	SSHPrivateKeySecretRef LocalObjectReference `json:"sshPrivateKeySecretRef"`
	Clusters               []SiteConfigCluster  `json:"clusters"`
	BaseDomain             string               `json:"baseDomain"`
	CrTemplates            map[string]string    `json:"crTemplates"`
	CrAnnotations          CrAnnotations        `json:"crAnnotations"`
	BiosConfigRef          BiosConfigRef        `json:"biosConfigRef"`
}

// CrAnnotations is upstream CrAnnotations: annotations added per CR kind.
type CrAnnotations struct {
	Add map[string]map[string]string `json:"add"`
}

// BiosConfigRef is upstream BiosConfigRef.
type BiosConfigRef struct {
	FilePath string `json:"filePath"`
}

// SiteConfigCluster is upstream Clusters: one cluster of a SiteConfig.
type SiteConfigCluster struct {
	ApiVIP                     string                `json:"apiVIP"`
	IngressVIP                 string                `json:"ingressVIP"`
	ApiVIPs                    []string              `json:"apiVIPs"`
	IngressVIPs                []string              `json:"ingressVIPs"`
	ClusterName                string                `json:"clusterName"`
	HoldInstallation           bool                  `json:"holdInstallation"`
	AdditionalNTPSources       []string              `json:"additionalNTPSources"`
	Nodes                      []SiteConfigNode      `json:"nodes"`
	MachineNetwork             []MachineNetworkEntry `json:"machineNetwork"`
	ServiceNetwork             []string              `json:"serviceNetwork"`
	ClusterLabels              map[string]string     `json:"clusterLabels"`
	NetworkType                string                `json:"networkType"`
	InstallConfigOverrides     string                `json:"installConfigOverrides,omitempty"`
	ClusterNetwork             []ClusterNetworkEntry `json:"clusterNetwork"`
	IgnitionConfigOverride     string                `json:"ignitionConfigOverride"`
	DiskEncryption             DiskEncryption        `json:"diskEncryption"`
	Proxy                      Proxy                 `json:"proxy,omitempty"`
	ExtraManifestPath          string                `json:"extraManifestPath"`
	ClusterImageSetNameRef     string                `json:"clusterImageSetNameRef,omitempty"`
	BiosConfigRef              BiosConfigRef         `json:"biosConfigRef"`
	ExtraManifests             ExtraManifests        `json:"extraManifests"`
	CPUPartitioningMode        string                `json:"cpuPartitioningMode"`
	SiteConfigMap              SiteConfigMap         `json:"siteConfigMap"`
	PlatformType               string                `json:"platformType,omitempty"`
	CPUArchitecture            string                `json:"cpuArchitecture,omitempty"`
	CrTemplates                map[string]string     `json:"crTemplates"`
	CrAnnotations              CrAnnotations         `json:"crAnnotations"`
	CrSuppression              []string              `json:"crSuppression"`
	MergeDefaultMachineConfigs bool                  `json:"mergeDefaultMachineConfigs"`
	// ManifestsConfigMapRefs are ConfigMaps of extra manifests (the
	// converter's Cluster; the generator fills it itself).
	ManifestsConfigMapRefs []LocalObjectReference `json:"manifestsConfigMapRefs,omitempty"`
}

// DiskEncryption is upstream DiskEncryption (tang servers; tpm2's PCR list).
type DiskEncryption struct {
	Type string       `json:"type"`
	Tang []TangServer `json:"tang"`
	Tpm2 struct {
		PCRList string `json:"pcrList"`
	} `json:"tpm2"`
}

// TangServer is a tang server (upstream TangConfig; the ClusterInstance's
// TangConfig has the same fields).
type TangServer struct {
	URL        string `json:"url"`
	Thumbprint string `json:"thumbprint"`
}

// ExtraManifests is upstream ExtraManifests: folders of extra manifests in
// the ZTP plugin's repository and a filter over them.
type ExtraManifests struct {
	SearchPaths []string `json:"searchPaths"`
	Filter      any      `json:"filter"`
}

// SiteConfigMap is upstream SiteConfigMap.
type SiteConfigMap struct {
	Name      string            `json:"name"`
	Namespace string            `json:"namespace"`
	Data      map[string]string `json:"data"`
}

// SiteConfigNode is upstream Nodes: one host of a SiteConfig cluster.
type SiteConfigNode struct {
	BmcAddress             string               `json:"bmcAddress"`
	BootMACAddress         string               `json:"bootMACAddress"`
	AutomatedCleaningMode  string               `json:"automatedCleaningMode"`
	RootDeviceHints        *RootDeviceHints     `json:"rootDeviceHints"`
	Cpuset                 string               `json:"cpuset"`
	NodeNetwork            *NMStateConfigSpec   `json:"nodeNetwork"`
	NodeLabels             map[string]string    `json:"nodeLabels"`
	HostName               string               `json:"hostName"`
	BmcCredentialsName     LocalObjectReference `json:"bmcCredentialsName"`
	BootMode               string               `json:"bootMode"`
	UserData               map[string]any       `json:"userData"`
	InstallerArgs          string               `json:"installerArgs"`
	IgnitionConfigOverride string               `json:"ignitionConfigOverride"`
	Role                   string               `json:"role"`
	CrTemplates            map[string]string    `json:"crTemplates"`
	CrAnnotations          CrAnnotations        `json:"crAnnotations"`
	CrSuppression          []string             `json:"crSuppression"`
	BiosConfigRef          BiosConfigRef        `json:"biosConfigRef"`
	DiskPartition          []any                `json:"diskPartition"`
	IronicInspect          string               `json:"ironicInspect"`
}
