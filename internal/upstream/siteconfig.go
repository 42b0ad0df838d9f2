package upstream

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// The ClusterInstance: the fields siteforge sets or reads of
// stolostron/siteconfig api/v1alpha1 clusterinstance_types.go (ClusterInstance,
// ClusterInstanceSpec, NodeSpec, Reference, MachineNetworkEntry,
// ClusterNetworkEntry, ServiceNetworkEntry, BmcCredentialsName), json tags
// exactly as upstream. The Go module is not a dependency here (it pulls in
// hive, metal3 and assisted-service), so this is a minimal typed copy of the
// subset; tests decode every rendered ClusterInstance strictly into it and
// validate it against the upstream CRD (internal/_fidelity).

// ClusterInstance is siteconfig.open-cluster-management.io/v1alpha1
// ClusterInstance.
type ClusterInstance struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              ClusterInstanceSpec `json:"spec"`
}

// ClusterInstanceSpec is the subset of ClusterInstanceSpec siteforge sets or
// reads.
type ClusterInstanceSpec struct {
	ClusterName            string                       `json:"clusterName"`
	PullSecretRef          LocalObjectReference         `json:"pullSecretRef"`
	ClusterImageSetNameRef string                       `json:"clusterImageSetNameRef"`
	SSHPublicKey           string                       `json:"sshPublicKey,omitempty"`
	BaseDomain             string                       `json:"baseDomain"`
	ApiVIPs                []string                     `json:"apiVIPs,omitempty"`
	IngressVIPs            []string                     `json:"ingressVIPs,omitempty"`
	AdditionalNTPSources   []string                     `json:"additionalNTPSources,omitempty"`
	MachineNetwork         []MachineNetworkEntry        `json:"machineNetwork,omitempty"`
	ClusterNetwork         []ClusterNetworkEntry        `json:"clusterNetwork,omitempty"`
	ServiceNetwork         []ServiceNetworkEntry        `json:"serviceNetwork,omitempty"`
	NetworkType            string                       `json:"networkType,omitempty"`
	PlatformType           string                       `json:"platformType,omitempty"`
	ExtraLabels            map[string]map[string]string `json:"extraLabels,omitempty"`
	ExtraManifestsRefs     []LocalObjectReference       `json:"extraManifestsRefs,omitempty"`
	ClusterType            string                       `json:"clusterType,omitempty"`
	TemplateRefs           []TemplateRef                `json:"templateRefs"`
	Nodes                  []NodeSpec                   `json:"nodes"`
	// InstallConfigOverrides and IgnitionConfigOverride are JSON documents
	// in strings (siteconfig validateClusterInstanceJSONFields).
	InstallConfigOverrides string `json:"installConfigOverrides,omitempty"`
	IgnitionConfigOverride string `json:"ignitionConfigOverride,omitempty"`

	// Written from install.hub (cpuPartitioningMode and proxy from the
	// install, shared with install-config), read from SiteConfig v1 and
	// ClusterInstances by the import (internal/importer).
	HoldInstallation    bool                         `json:"holdInstallation,omitempty"`
	CPUPartitioningMode string                       `json:"cpuPartitioningMode,omitempty"`
	CPUArchitecture     string                       `json:"cpuArchitecture,omitempty"`
	ExtraAnnotations    map[string]map[string]string `json:"extraAnnotations,omitempty"`
	SuppressedManifests []string                     `json:"suppressedManifests,omitempty"`
	Proxy               *Proxy                       `json:"proxy,omitempty"`
	DiskEncryption      *DiskEncryptionSpec          `json:"diskEncryption,omitempty"`
}

// DiskEncryptionSpec is ClusterInstanceSpec diskEncryption: the type and the
// tang servers.
type DiskEncryptionSpec struct {
	Type string       `json:"type,omitempty"`
	Tang []TangServer `json:"tang,omitempty"`
}

// LocalObjectReference is corev1.LocalObjectReference (name only); also
// upstream BmcCredentialsName, which has the same one field.
type LocalObjectReference struct {
	Name string `json:"name"`
}

// MachineNetworkEntry, ClusterNetworkEntry and ServiceNetworkEntry are the
// network blocks of ClusterInstanceSpec. MachineNetworkEntry and
// ClusterNetworkEntry are also install-config's (openshift/installer
// pkg/types/installconfig.go, the same json tags; siteforge never writes the
// deprecated hostSubnetLength).
type MachineNetworkEntry struct {
	CIDR string `json:"cidr"`
}

type ClusterNetworkEntry struct {
	CIDR       string `json:"cidr"`
	HostPrefix int32  `json:"hostPrefix,omitempty"`
}

type ServiceNetworkEntry struct {
	CIDR string `json:"cidr"`
}

// TemplateRef names a template ConfigMap (upstream Reference).
type TemplateRef struct {
	Name      string `json:"name"`
	Namespace string `json:"namespace"`
}

// NodeSpec is the subset of NodeSpec siteforge sets or reads.
type NodeSpec struct {
	BmcAddress string `json:"bmcAddress"`
	// BmcCredentialsName is a value upstream; a pointer here so a reader
	// tells a node without it from one with an empty name (the JSON is the
	// same).
	BmcCredentialsName *LocalObjectReference `json:"bmcCredentialsName"`
	BootMACAddress     string                `json:"bootMACAddress"`
	RootDeviceHints    *RootDeviceHints      `json:"rootDeviceHints,omitempty"`
	NodeNetwork        *NMStateConfigSpec    `json:"nodeNetwork,omitempty"`
	NodeLabels         map[string]string     `json:"nodeLabels,omitempty"`
	HostName           string                `json:"hostName"`
	BootMode           string                `json:"bootMode,omitempty"`
	Role               string                `json:"role,omitempty"`
	TemplateRefs       []TemplateRef         `json:"templateRefs"`
	// InstallerArgs and IgnitionConfigOverride are JSON documents in
	// strings (siteconfig validateClusterInstanceJSONFields).
	InstallerArgs          string `json:"installerArgs,omitempty"`
	IgnitionConfigOverride string `json:"ignitionConfigOverride,omitempty"`

	// Written from a node's hub section, read by the import (see
	// ClusterInstanceSpec).
	AutomatedCleaningMode string                       `json:"automatedCleaningMode,omitempty"`
	IronicInspect         string                       `json:"ironicInspect,omitempty"`
	ExtraAnnotations      map[string]map[string]string `json:"extraAnnotations,omitempty"`
	SuppressedManifests   []string                     `json:"suppressedManifests,omitempty"`
}

// RoleOrDefault is the node's role, "master" when not written (NodeSpec
// Role's +kubebuilder:default:=master).
func (n NodeSpec) RoleOrDefault() string {
	if n.Role == "" {
		return "master"
	}
	return n.Role
}

// RootDeviceHints is metal3-io/baremetal-operator apis/metal3.io/v1alpha1
// baremetalhost_types.go RootDeviceHints (NodeSpec rootDeviceHints,
// agent-config hosts[].rootDeviceHints).
type RootDeviceHints struct {
	DeviceName         string `json:"deviceName,omitempty"`
	HCTL               string `json:"hctl,omitempty"`
	Model              string `json:"model,omitempty"`
	Vendor             string `json:"vendor,omitempty"`
	SerialNumber       string `json:"serialNumber,omitempty"`
	MinSizeGigabytes   int    `json:"minSizeGigabytes,omitempty"`
	WWN                string `json:"wwn,omitempty"`
	WWNWithExtension   string `json:"wwnWithExtension,omitempty"`
	WWNVendorExtension string `json:"wwnVendorExtension,omitempty"`
	Rotational         *bool  `json:"rotational,omitempty"`
}

// NMStateConfigSpec is openshift/assisted-service api/v1beta1
// nmstate_config_types.go NMStateConfigSpec: the host's NMState YAML and the
// NICs it names.
type NMStateConfigSpec struct {
	// Config is the NMState config as written: upstream NetConfig keeps
	// the raw YAML, whatever its shape (a mapping when well formed).
	Config     any         `json:"config,omitempty"`
	Interfaces []Interface `json:"interfaces,omitempty"`
}

// Interface is assisted-service api/v1beta1 nmstate_config_types.go
// Interface: a NIC name and its MAC (ClusterInstance
// nodes[].nodeNetwork.interfaces, agent-config hosts[].interfaces).
type Interface struct {
	Name       string `json:"name"`
	MacAddress string `json:"macAddress"`
}
