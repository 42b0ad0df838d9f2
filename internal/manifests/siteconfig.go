package manifests

import (
	"fmt"
	"strconv"

	"go.yaml.in/yaml/v3"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/upstream"
)

// SiteConfigCluster is one cluster of a ZTP SiteConfig v1 as the
// ClusterInstance the siteconfig-converter makes of it
// (openshift-kni/cnf-features-deploy ztp/tools/siteconfig-converter convert.go
// convertClusterToClusterInstance): CI.Obj is a ClusterInstance object whose
// positions are those of the SiteConfig fields each value comes from, so a
// check of the ClusterInstance reports at the user's SiteConfig line.
type SiteConfigCluster struct {
	SiteConfig *Object
	Index      int // in spec.clusters
	CI         *ClusterInstanceObject
	// Dropped are the SiteConfig fields a ClusterInstance has no place for
	// (the converter's warnings), at their positions.
	Dropped []diag.Diagnostic
}

// IsSiteConfig reports whether o is a SiteConfig v1.
func IsSiteConfig(o *Object) bool {
	return o.Kind == platform.SiteConfigKind && o.APIVersion == platform.SiteConfigAPIVersion
}

// SiteConfigClusters converts every cluster of a SiteConfig v1, in order.
// The error says why the object does not decode as a SiteConfig.
func SiteConfigClusters(o *Object) ([]*SiteConfigCluster, error) {
	sc, err := DecodeSiteConfig(o)
	if err != nil {
		return nil, err
	}
	var out []*SiteConfigCluster
	for i := range sc.Spec.Clusters {
		ci := convertCluster(sc, i)
		obj, err := positioned(o, ci, func(p []string) []string { return siteConfigPath(sc, i, p) })
		if err != nil {
			return nil, err
		}
		out = append(out, &SiteConfigCluster{SiteConfig: o, Index: i, CI: &ClusterInstanceObject{Obj: obj, Spec: ci.Spec},
			Dropped: dropped(o, sc, i)})
	}
	return out, nil
}

// DecodeSiteConfig decodes a SiteConfig as the converter's YAML decoder
// reads it: the values of label and annotation maps are strings whatever
// their YAML type (`common: true` is the label "true").
func DecodeSiteConfig(o *Object) (*upstream.SiteConfig, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(o.Raw, &doc); err != nil {
		return nil, err
	}
	stringValues(&doc, "")
	raw, err := yaml.Marshal(&doc)
	if err != nil {
		return nil, err
	}
	var sc upstream.SiteConfig
	if err := sigsyaml.Unmarshal(raw, &sc); err != nil {
		return nil, err
	}
	return &sc, nil
}

// stringValues tags the scalar values of clusterLabels, nodeLabels and
// crAnnotations.add.<kind> mappings as strings.
func stringValues(n *yaml.Node, key string) {
	switch n.Kind {
	case yaml.DocumentNode, yaml.SequenceNode:
		for _, c := range n.Content {
			stringValues(c, key)
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i].Value, n.Content[i+1]
			switch {
			case k == "clusterLabels" || k == "nodeLabels" || key == "add":
				if v.Kind == yaml.MappingNode {
					for j := 1; j < len(v.Content); j += 2 {
						if s := v.Content[j]; s.Kind == yaml.ScalarNode {
							s.Tag, s.Style = "!!str", yaml.DoubleQuotedStyle
						}
					}
				}
			case k == "add" && key == "crAnnotations":
				if v.Kind == yaml.MappingNode {
					for j := 1; j < len(v.Content); j += 2 {
						stringValues(&yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Value: "x"}, v.Content[j]}}, "add")
					}
				}
			default:
				stringValues(v, k)
			}
		}
	}
}

// convertCluster is the converter's convertClusterToClusterInstance with its
// default flags: the bundled assisted templates (main.go -t, -n), no extra
// -m or -s, and its extra-manifests ConfigMap.
func convertCluster(sc *upstream.SiteConfig, i int) *upstream.ClusterInstance {
	c := sc.Spec.Clusters[i]
	tpl := platform.SiteconfigBundledTemplates["assisted"]
	clusterTpl := []upstream.TemplateRef{{Name: tpl.Cluster, Namespace: platform.SiteconfigTemplatesNamespace}}
	nodeTpl := []upstream.TemplateRef{{Name: tpl.Node, Namespace: platform.SiteconfigTemplatesNamespace}}
	spec := upstream.ClusterInstanceSpec{
		ClusterName:            c.ClusterName,
		PullSecretRef:          sc.Spec.PullSecretRef,
		ClusterImageSetNameRef: sc.Spec.ClusterImageSetNameRef,
		SSHPublicKey:           sc.Spec.SSHPublicKey,
		BaseDomain:             sc.Spec.BaseDomain,
		ClusterType:            platform.ClusterTypeHighlyAvailable,
		NetworkType:            c.NetworkType,
		HoldInstallation:       c.HoldInstallation,
		MachineNetwork:         c.MachineNetwork,
		AdditionalNTPSources:   c.AdditionalNTPSources,
		InstallConfigOverrides: c.InstallConfigOverrides,
		IgnitionConfigOverride: c.IgnitionConfigOverride,
		CPUPartitioningMode:    c.CPUPartitioningMode,
		PlatformType:           c.PlatformType,
		CPUArchitecture:        c.CPUArchitecture,
		SuppressedManifests:    c.CrSuppression,
		TemplateRefs:           clusterTpl,
		ExtraManifestsRefs:     append(append([]upstream.LocalObjectReference{}, c.ManifestsConfigMapRefs...), upstream.LocalObjectReference{Name: platform.ConverterExtraManifestsConfigMap}),
	}
	if c.ClusterImageSetNameRef != "" {
		spec.ClusterImageSetNameRef = c.ClusterImageSetNameRef
	}
	if len(c.Nodes) == 1 {
		spec.ClusterType = platform.ClusterTypeSNO
	}
	spec.ApiVIPs, spec.IngressVIPs = vips(c.ApiVIP, c.ApiVIPs), vips(c.IngressVIP, c.IngressVIPs)
	spec.ClusterNetwork = c.ClusterNetwork
	for _, s := range c.ServiceNetwork {
		spec.ServiceNetwork = append(spec.ServiceNetwork, upstream.ServiceNetworkEntry{CIDR: s})
	}
	if c.DiskEncryption.Type != "" {
		spec.DiskEncryption = &upstream.DiskEncryptionSpec{Type: c.DiskEncryption.Type, Tang: c.DiskEncryption.Tang}
	}
	if p := c.Proxy; p.HTTPProxy != "" || p.HTTPSProxy != "" || p.NoProxy != "" {
		spec.Proxy = &p
	}
	if len(c.ClusterLabels) > 0 {
		spec.ExtraLabels = map[string]map[string]string{"ManagedCluster": c.ClusterLabels}
	}
	if len(c.CrAnnotations.Add) > 0 {
		spec.ExtraAnnotations = c.CrAnnotations.Add
	}
	for _, n := range c.Nodes {
		node := upstream.NodeSpec{
			BmcAddress:             n.BmcAddress,
			BmcCredentialsName:     &upstream.LocalObjectReference{Name: n.BmcCredentialsName.Name},
			BootMACAddress:         n.BootMACAddress,
			RootDeviceHints:        n.RootDeviceHints,
			NodeNetwork:            n.NodeNetwork,
			NodeLabels:             n.NodeLabels,
			HostName:               n.HostName,
			BootMode:               n.BootMode,
			Role:                   n.Role,
			TemplateRefs:           nodeTpl,
			InstallerArgs:          n.InstallerArgs,
			IgnitionConfigOverride: n.IgnitionConfigOverride,
			AutomatedCleaningMode:  n.AutomatedCleaningMode,
			IronicInspect:          n.IronicInspect,
			SuppressedManifests:    n.CrSuppression,
		}
		if node.IronicInspect == platform.ConverterIronicInspectEnabled {
			node.IronicInspect = ""
		}
		if len(n.CrAnnotations.Add) > 0 {
			node.ExtraAnnotations = n.CrAnnotations.Add
		}
		if nn := n.NodeNetwork; nn != nil && len(nn.Interfaces) == 0 && nn.Config == nil {
			node.NodeNetwork = nil
		}
		spec.Nodes = append(spec.Nodes, node)
	}
	return &upstream.ClusterInstance{
		TypeMeta:   metav1.TypeMeta{APIVersion: platform.ClusterInstanceAPIVersion, Kind: platform.ClusterInstanceKind},
		ObjectMeta: metav1.ObjectMeta{Name: c.ClusterName, Namespace: c.ClusterName},
		Spec:       spec,
	}
}

// vips is the converter's VIP list: the list when given, else the single
// (deprecated) field.
func vips(one string, list []string) []string {
	if len(list) > 0 {
		return list
	}
	if one != "" {
		return []string{one}
	}
	return nil
}

// siteConfigPath maps a path of cluster i's ClusterInstance to the path of
// the SiteConfig field its value comes from.
func siteConfigPath(sc *upstream.SiteConfig, i int, p []string) []string {
	cl := []string{"spec", "clusters", strconv.Itoa(i)}
	at := func(rest ...string) []string { return append(append([]string{}, cl...), rest...) }
	if len(p) == 0 {
		return nil
	}
	if p[0] != "spec" {
		return at("clusterName")
	}
	if len(p) == 1 {
		return cl
	}
	c := sc.Spec.Clusters[i]
	rest := p[2:]
	switch f := p[1]; f {
	case "pullSecretRef", "sshPublicKey", "baseDomain":
		return append([]string{"spec", f}, rest...)
	case "clusterImageSetNameRef":
		if c.ClusterImageSetNameRef != "" {
			return at(f)
		}
		return []string{"spec", f}
	case "apiVIPs", "ingressVIPs":
		if len(c.ApiVIPs) == 0 && f == "apiVIPs" {
			return at("apiVIP")
		}
		if len(c.IngressVIPs) == 0 && f == "ingressVIPs" {
			return at("ingressVIP")
		}
		return at(append([]string{f}, rest...)...)
	case "serviceNetwork":
		if len(rest) > 0 {
			return at(f, rest[0])
		}
		return at(f)
	case "extraLabels":
		if len(rest) > 1 {
			return at("clusterLabels", rest[1])
		}
		return at("clusterLabels")
	case "extraAnnotations":
		return at(append([]string{"crAnnotations", "add"}, rest...)...)
	case "suppressedManifests":
		return at(append([]string{"crSuppression"}, rest...)...)
	case "extraManifestsRefs":
		if len(rest) > 0 && atoi(rest[0]) < len(c.ManifestsConfigMapRefs) {
			return at(append([]string{"manifestsConfigMapRefs"}, rest...)...)
		}
		return at("clusterName")
	case "clusterType", "templateRefs":
		return at("clusterName")
	case "nodes":
		if len(rest) < 2 {
			return at(append([]string{f}, rest...)...)
		}
		nd := at(f, rest[0])
		switch rest[1] {
		case "extraAnnotations":
			return append(nd, append([]string{"crAnnotations", "add"}, rest[2:]...)...)
		case "suppressedManifests":
			return append(nd, append([]string{"crSuppression"}, rest[2:]...)...)
		case "templateRefs":
			return append(nd, "hostName")
		}
		return append(nd, rest[1:]...)
	}
	return at(append([]string{p[1]}, rest...)...)
}

// positioned encodes ci as an Object whose every node carries the position
// of the input field src maps its path to (the nearest existing ancestor of
// that field when it is not written).
func positioned(src *Object, ci *upstream.ClusterInstance, pathOf func([]string) []string) (*Object, error) {
	raw, err := sigsyaml.Marshal(ci)
	if err != nil {
		return nil, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(raw, &doc); err != nil || len(doc.Content) == 0 {
		return nil, fmt.Errorf("encode ClusterInstance %s: %v", ci.Name, err)
	}
	var place func(n *yaml.Node, path []string)
	place = func(n *yaml.Node, path []string) {
		pos := src.PosOf(pathOf(path)...)
		n.Line, n.Column = pos.Line, pos.Col
		switch n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content); i += 2 {
				p := append(append([]string{}, path...), n.Content[i].Value)
				kp := src.KeyPosOf(pathOf(p)...)
				n.Content[i].Line, n.Content[i].Column = kp.Line, kp.Col
				place(n.Content[i+1], p)
			}
		case yaml.SequenceNode:
			for i, c := range n.Content {
				place(c, append(append([]string{}, path...), strconv.Itoa(i)))
			}
		}
	}
	root := doc.Content[0]
	place(root, nil)
	return &Object{File: src.File, Index: src.Index, Item: src.Item, APIVersion: ci.APIVersion, Kind: ci.Kind,
		Namespace: ci.Namespace, Name: ci.Name, Raw: raw, root: eagerRoot(root)}, nil
}

// dropped are the converter's warnings about cluster i (convert.go
// convertToClusterInstance): the fields a ClusterInstance has no place for.
// The SiteConfig-wide ones are reported with the first cluster.
func dropped(o *Object, sc *upstream.SiteConfig, i int) []diag.Diagnostic {
	var out []diag.Diagnostic
	add := func(msg, hint string, path ...string) {
		out = append(out, diag.Diagnostic{Pos: o.KeyPosOf(path...), Message: msg, Hint: hint})
	}
	cl := func(p ...string) []string { return append([]string{"spec", "clusters", strconv.Itoa(i)}, p...) }
	templatesHint := "provide custom templates as ConfigMaps and name them in the ClusterInstance's templateRefs (install.hub.templates)"
	if i == 0 {
		if sc.Spec.SSHPrivateKeySecretRef.Name != "" {
			add("sshPrivateKeySecretRef has no place in a ClusterInstance: the private key is not used", "remove it", "spec", "sshPrivateKeySecretRef")
		}
		if sc.Spec.BiosConfigRef.FilePath != "" {
			add("biosConfigRef has no place in a ClusterInstance", "create a node template with the HostFirmwareSettings and name it in templateRefs", "spec", "biosConfigRef")
		}
		if len(sc.Spec.CrTemplates) > 0 {
			add("crTemplates have no place in a ClusterInstance", templatesHint, "spec", "crTemplates")
		}
		if len(sc.Spec.CrAnnotations.Add) > 0 {
			add("crAnnotations at the SiteConfig's spec have no place in a ClusterInstance: the converter takes only a cluster's and a node's", "move them to each cluster's crAnnotations (the ClusterInstance's extraAnnotations)", "spec", "crAnnotations")
		}
	}
	c := sc.Spec.Clusters[i]
	if len(c.ApiVIPs) > 0 && c.ApiVIP != "" && c.ApiVIP != c.ApiVIPs[0] {
		add("apiVIP differs from the first of apiVIPs: the ClusterInstance takes apiVIPs", "remove apiVIP", cl("apiVIP")...)
	}
	if len(c.IngressVIPs) > 0 && c.IngressVIP != "" && c.IngressVIP != c.IngressVIPs[0] {
		add("ingressVIP differs from the first of ingressVIPs: the ClusterInstance takes ingressVIPs", "remove ingressVIP", cl("ingressVIP")...)
	}
	if c.BiosConfigRef.FilePath != "" {
		add("biosConfigRef has no place in a ClusterInstance", "create a node template with the HostFirmwareSettings and name it in templateRefs", cl("biosConfigRef")...)
	}
	if len(c.CrTemplates) > 0 {
		add("crTemplates have no place in a ClusterInstance", templatesHint, cl("crTemplates")...)
	}
	if c.MergeDefaultMachineConfigs {
		add("mergeDefaultMachineConfigs has no place in a ClusterInstance", "put the merged MachineConfigs into an extra-manifests ConfigMap", cl("mergeDefaultMachineConfigs")...)
	}
	if c.ExtraManifestPath != "" {
		add("extraManifestPath names manifests in the ZTP plugin's repository, which are not read here", "put the manifests into the site (machineConfigs) or an extra-manifests ConfigMap", cl("extraManifestPath")...)
	}
	if len(c.ExtraManifests.SearchPaths) > 0 {
		add("extraManifests.searchPaths name folders of the ZTP plugin's repository, which are not read here", "put the manifests into the site (machineConfigs) or an extra-manifests ConfigMap", cl("extraManifests")...)
	}
	if c.SiteConfigMap.Name != "" {
		add("siteConfigMap has no place in a ClusterInstance", "keep the site's ConfigMap in git as a resource of its own", cl("siteConfigMap")...)
	}
	if c.DiskEncryption.Tpm2.PCRList != "" {
		add("diskEncryption.tpm2 has no place in a ClusterInstance (only tang servers)", "add the disk encryption MachineConfig to the extra manifests", cl("diskEncryption", "tpm2")...)
	}
	for j, n := range c.Nodes {
		nd := func(p string) []string { return cl("nodes", strconv.Itoa(j), p) }
		if len(n.DiskPartition) > 0 {
			add(fmt.Sprintf("diskPartition of node %s has no place in a ClusterInstance", n.HostName), "partition the disk with the node's ignitionConfigOverride", nd("diskPartition")...)
		}
		if len(n.UserData) > 0 {
			add(fmt.Sprintf("userData of node %s has no place in a ClusterInstance", n.HostName), "add it to the BareMetalHost with a node template of your own", nd("userData")...)
		}
		if n.BiosConfigRef.FilePath != "" {
			add(fmt.Sprintf("biosConfigRef of node %s has no place in a ClusterInstance", n.HostName), "create a node template with the HostFirmwareSettings and name it in templateRefs", nd("biosConfigRef")...)
		}
		if len(n.CrTemplates) > 0 {
			add(fmt.Sprintf("crTemplates of node %s have no place in a ClusterInstance", n.HostName), templatesHint, nd("crTemplates")...)
		}
		if n.Cpuset != "" {
			add(fmt.Sprintf("cpuset of node %s has no place in a ClusterInstance", n.HostName), "set the reserved and isolated CPUs with a PerformanceProfile (workload partitioning)", nd("cpuset")...)
		}
	}
	return out
}

func atoi(s string) int {
	i, err := strconv.Atoi(s)
	if err != nil {
		return -1
	}
	return i
}
