package manifests

import (
	"github.com/siteforge/siteforge/internal/platform"
)

// ClusterInstance is the part of a siteconfig ClusterInstance siteforge
// reads for the install checks; json tags as stolostron/siteconfig
// api/v1alpha1 clusterinstance_types.go ClusterInstanceSpec and NodeSpec.
type ClusterInstance struct {
	Obj  *Object `json:"-"`
	Spec struct {
		ClusterName            string        `json:"clusterName"`
		ClusterImageSetNameRef string        `json:"clusterImageSetNameRef"`
		APIVIPs                []string      `json:"apiVIPs"`
		IngressVIPs            []string      `json:"ingressVIPs"`
		MachineNetwork         []CIDREntry   `json:"machineNetwork"`
		ClusterNetwork         []CIDREntry   `json:"clusterNetwork"`
		ServiceNetwork         []CIDREntry   `json:"serviceNetwork"`
		PlatformType           string        `json:"platformType"`
		ClusterType            string        `json:"clusterType"`
		TemplateRefs           []TemplateRef `json:"templateRefs"`
		Nodes                  []CINode      `json:"nodes"`
	} `json:"spec"`
}

// TemplateRef names a siteconfig template ConfigMap.
type TemplateRef struct {
	Name      string `json:"name"`
	Namespace string `json:"namespace"`
}

// CINode is a node of a ClusterInstance.
type CINode struct {
	HostName           string `json:"hostName"`
	Role               string `json:"role"`
	BmcAddress         string `json:"bmcAddress"`
	BmcCredentialsName *struct {
		Name string `json:"name"`
	} `json:"bmcCredentialsName"`
	BootMACAddress string `json:"bootMACAddress"`
	NodeNetwork    *struct {
		Interfaces []HostInterface `json:"interfaces"`
		// Config is the NMState config as written.
		Config any `json:"config"`
	} `json:"nodeNetwork"`
	TemplateRefs []TemplateRef `json:"templateRefs"`
}

// ClusterInstances reads every ClusterInstance among objs that decodes, in
// order.
func ClusterInstances(objs []*Object) []*ClusterInstance {
	var out []*ClusterInstance
	for _, o := range objs {
		if o.Kind != platform.ClusterInstanceKind || o.APIVersion != platform.ClusterInstanceAPIVersion {
			continue
		}
		ci := &ClusterInstance{Obj: o}
		if o.DecodeLoose(ci) != nil {
			continue
		}
		out = append(out, ci)
	}
	return out
}

// RoleOrDefault is the node's role, "master" when not written (the CRD
// default).
func (n CINode) RoleOrDefault() string {
	if n.Role == "" {
		return "master"
	}
	return n.Role
}
