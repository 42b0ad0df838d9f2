// Package hub is the finisher of sites installed from a hub (installMethod
// "assisted" or "image-based"): it writes what the hub cluster applies to
// install the site, under hub/ in the site's output:
//
//   - hub/namespace.yaml: the namespace of the ClusterInstance, its
//     ConfigMaps and the Secrets created out of band;
//   - hub/extra-manifests[-N].yaml: the day-0 manifests (Output.Day0) in
//     ConfigMaps, one key per manifest file, split under
//     platform.ExtraManifestsConfigMapMaxBytes;
//   - hub/clusterinstance.yaml: the siteconfig operator's ClusterInstance
//     (stolostron/siteconfig api/v1alpha1 clusterinstance_types.go);
//   - hub/kustomization.yaml: the three above, so an Argo CD application on
//     the hub syncs <site>/hub.
//
// These are Files: they go to the hub, not to the site's own
// kustomization.yaml. Secrets are only named (spec.pullSecretRef,
// nodes[].bmcCredentialsName), never read or written.
package hub

import (
	"fmt"
	"maps"
	"path"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	"sigs.k8s.io/yaml"

	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/generators/mirroring"
	"github.com/siteforge/siteforge/internal/cluster/nodes"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/ruleid"
	"github.com/siteforge/siteforge/internal/site"
	"github.com/siteforge/siteforge/internal/upstream"
)

// Name names the finisher in file headers.
const Name = "hub"

// Paths of the hub outputs, relative to the site's output folder.
const (
	Dir                 = "hub"
	NamespacePath       = Dir + "/namespace.yaml"
	ClusterInstancePath = Dir + "/clusterinstance.yaml"
	KustomizationPath   = Dir + "/" + generators.KustomizationFile
	// ExtraManifestsName is the first extra-manifests ConfigMap; the next
	// ones are ExtraManifestsName-2, -3, ... so that a growing set of
	// manifests never renames the first one.
	ExtraManifestsName = "extra-manifests"
)

// Finish renders the hub outputs of a site with lifecycle "install" and a
// hub install method; other sites get nothing.
func Finish(ctx *generators.Context, s *site.Site, out *generators.Output) ([]generators.Artifact, error) {
	if s.Cluster.Lifecycle != site.LifecycleInstall || !s.HubInstalled() {
		return nil, nil
	}
	h, dl := checkSite(s)
	if len(dl) > 0 {
		return nil, dl
	}
	ns := Namespace(s)
	origin := diag.Unique(s.Positions.Of("cluster.installMethod"), s.Positions.Of("install.hub"))

	var arts []generators.Artifact
	nsObj := &corev1.Namespace{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Namespace"}, ObjectMeta: metav1.ObjectMeta{Name: ns}}
	nsData, err := generators.EncodeObject(nsObj, s.SourceName())
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", NamespacePath, err)
	}
	arts = append(arts, generators.Artifact{Path: NamespacePath, Role: generators.File, Comment: "#", Origin: origin,
		Data: append([]byte(commentBlock(fmt.Sprintf(
			"The namespace on the hub of cluster %s: its ClusterInstance, the extra-manifests ConfigMaps, and the Secrets you create out of band (pull secret %q, BMC credentials) live here. The siteconfig operator's bundled templates render every installation object into namespace %q (the cluster name).",
			s.Cluster.Name, h.PullSecretRef, s.Cluster.Name))), nsData...)})

	mirrors, err := installMirrors(ctx, s)
	if err != nil {
		return nil, err
	}
	cms, refs, err := extraManifests(s, out, ns, mirrors.leftOut())
	if err != nil {
		return nil, err
	}
	arts = append(arts, cms...)

	ci := ClusterInstanceOf(s, ns, refs)
	ciData, err := generators.EncodeObject(ci, s.SourceName())
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", ClusterInstancePath, err)
	}
	arts = append(arts, generators.Artifact{Path: ClusterInstancePath, Role: generators.File, Comment: "#", Origin: origin,
		Data: append([]byte(clusterInstanceHeader(s, ns, refs, mirrors)), ciData...)})

	if s.Install.AdditionalTrustBundle != "" {
		ctx.Warn(ruleid.HubTrustBundleDropped, s.At("install.additionalTrustBundle",
			"a ClusterInstance does not carry install.additionalTrustBundle: the hub does not pass it to the installation",
			trustBundleHint(s)))
	}

	resources := []string{path.Base(NamespacePath)}
	for _, a := range cms {
		resources = append(resources, path.Base(a.Path))
	}
	resources = append(resources, path.Base(ClusterInstancePath))
	arts = append(arts, generators.Artifact{Path: KustomizationPath, Role: generators.File, Data: generators.Kustomization(resources), Origin: origin})
	return arts, nil
}

// hubMirrors are the install-time mirrors of an assisted install as MCO's
// bootstrap meets them (nil: none, or an image-based install).
type hubMirrors struct{ *mirroring.Install }

// installMirrors computes the install-time mirrors of an assisted install
// once, with mirroring.ForInstall: assisted-service turns the hub's mirror
// registries.conf into the install-config's imageDigestSources without a
// source policy (platform.InstallerWritesSourcePolicy), so the installer's
// ImageDigestMirrorSet allows contacting the sources, and MCO's bootstrap
// refuses a day-0 mirror set with NeverContactSource for the same source
// (Install.Day0Refused). An image-based install has no installer mirror
// objects: the mirror sets in the extra manifests are how the cluster gets
// its mirrors (stolostron/siteconfig docs/image_mirroring.md), so they stay.
func installMirrors(ctx *generators.Context, s *site.Site) (hubMirrors, error) {
	if s.Cluster.InstallMethod != site.InstallAssisted {
		return hubMirrors{}, nil
	}
	in, err := mirroring.ForInstall(s, ctx.Minor)
	return hubMirrors{in}, err
}

// leftOut are the resource paths of the day-2 objects whose day-0 copies
// stay out of the extra manifests.
func (m hubMirrors) leftOut() map[string]bool {
	out := map[string]bool{}
	if m.Install != nil && m.Day0Refused != "" {
		for _, p := range m.Day0Paths {
			out[p] = true
		}
	}
	return out
}

func trustBundleHint(s *site.Site) string {
	if s.Cluster.InstallMethod == site.InstallImageBased {
		return "put the CA bundle into a ConfigMap in the cluster's namespace on the hub and reference it from the ImageClusterInstall (ClusterInstance spec.caBundleRef, stolostron/siteconfig api/v1alpha1 clusterinstance_types.go); siteforge does not render it"
	}
	return "put the CA into the hub's assisted-service mirror configuration: key ca-bundle.crt of the ConfigMap AgentServiceConfig spec.mirrorRegistryRef names (openshift/assisted-service docs/operator.md \"Mirror Registry Configuration\"), which assisted-service adds to every installed cluster's additionalTrustBundle"
}

// Namespace is the site's namespace on the hub: install.hub.namespace, else
// the cluster name.
func Namespace(s *site.Site) string {
	if s.Install != nil && s.Install.Hub != nil && s.Install.Hub.Namespace != "" {
		return s.Install.Hub.Namespace
	}
	return s.Cluster.Name
}

// Templates are the cluster- and node-level templates the site's
// ClusterInstance names: install.hub.templates, else the siteconfig
// operator's bundled templates for the install method.
func Templates(s *site.Site) (cluster, node upstream.TemplateRef) {
	if t := s.Install.Hub.Templates; t != nil {
		return upstream.TemplateRef(t.Cluster), upstream.TemplateRef(t.Node)
	}
	b := platform.SiteconfigBundledTemplates[s.Cluster.InstallMethod]
	return upstream.TemplateRef{Name: b.Cluster, Namespace: platform.SiteconfigTemplatesNamespace},
		upstream.TemplateRef{Name: b.Node, Namespace: platform.SiteconfigTemplatesNamespace}
}

// checkSite refuses a hub-installed site the ClusterInstance cannot be
// written for, at the user's positions. The generic install checks (VIPs,
// unique IPs and MACs, single-node rules, control-plane counts, BMC
// credentials named) are internal/cluster/installcheck's; these are only
// what this finisher needs to write a valid ClusterInstance.
func checkSite(s *site.Site) (*site.Hub, diag.List) {
	var dl diag.List
	if s.Install == nil || s.Install.Hub == nil {
		where := "install"
		if s.Install == nil {
			where = "cluster.installMethod"
		}
		return nil, diag.List{s.At(where,
			fmt.Sprintf("installMethod %q installs the cluster from a hub with a ClusterInstance: install.hub is required", s.Cluster.InstallMethod),
			`add install: hub: {pullSecretRef: "<Secret with the pull secret, created on the hub>", clusterImageSet: "<ClusterImageSet on the hub>"}`)}
	}
	h := s.Install.Hub
	if h.Namespace != "" && h.Namespace != s.Cluster.Name && h.Templates == nil {
		dl = append(dl, s.At("install.hub.namespace",
			fmt.Sprintf("namespace %q differs from the cluster name %q: the siteconfig operator's bundled templates render the AgentClusterInstall, ClusterDeployment, BareMetalHosts and their references into namespace %q (stolostron/siteconfig internal/templates/assisted-installer/template.go: namespace: \"{{ .Spec.ClusterName }}\"), while the operator looks up the pull secret, BMC Secrets and extra-manifests ConfigMaps in the ClusterInstance's namespace (internal/controller/clusterinstance/validator.go validateResources)", h.Namespace, s.Cluster.Name, s.Cluster.Name),
			fmt.Sprintf("remove install.hub.namespace (default: %q), or name your own templates in install.hub.templates", s.Cluster.Name)))
	}
	if s.Cluster.InstallMethod == site.InstallAssisted {
		if _, ok := platform.ClusterInstancePlatformTypes[s.Cluster.Platform]; !ok {
			dl = append(dl, s.At("cluster.platform",
				fmt.Sprintf("platform %q cannot be installed from a hub: a ClusterInstance's platformType is one of %s (stolostron/siteconfig api/v1alpha1 clusterinstance_types.go PlatformType)", s.Cluster.Platform, platformTypesList()),
				`use platform "baremetal" (or "none" for a single node), or installMethod "ipi" for a cloud`))
		}
	}
	// A single node's platform, and every node's BMC and boot MAC, are
	// install checks (internal/cluster/installcheck), refused when the site
	// loads.
	for _, pname := range s.PoolNames() {
		p := s.Pools[pname]
		if len(p.Nodes) == 0 {
			where := site.FieldPath("pools", pname)
			if p.Count != nil {
				where = site.FieldPath("pools", pname, "count")
			}
			dl = append(dl, s.At(where,
				fmt.Sprintf("pool %s lists no nodes: a ClusterInstance names every host of a hub install (its BMC and boot MAC)", pname),
				fmt.Sprintf("list the pool's hosts: pools: %s: nodes: [{name, ip, bootMAC, bmc: {address, credentialsSecret}}]", pname)))
			continue
		}
	}
	return h, dl
}

func platformTypesList() string {
	var v []string
	for _, t := range platform.ClusterInstancePlatformTypes {
		v = append(v, t)
	}
	sort.Strings(v)
	return strings.Join(v, ", ")
}

// poolOrder lists the pools with the master-role pools first, each group in
// name order.
func poolOrder(s *site.Site) []string {
	var masters, others []string
	for _, n := range s.PoolNames() {
		if s.Pools[n].Role == site.RoleMaster {
			masters = append(masters, n)
		} else {
			others = append(others, n)
		}
	}
	return append(masters, others...)
}

// ClusterInstanceOf is the site's ClusterInstance in namespace ns, with
// extraManifestsRefs refs. The site must have passed checkSite.
func ClusterInstanceOf(s *site.Site, ns string, refs []string) *upstream.ClusterInstance {
	h := s.Install.Hub
	clusterTpl, nodeTpl := Templates(s)
	sno := len(s.Masters()) == 1
	spec := upstream.ClusterInstanceSpec{
		ClusterName:            s.Cluster.Name,
		PullSecretRef:          upstream.LocalObjectReference{Name: h.PullSecretRef},
		ClusterImageSetNameRef: h.ClusterImageSet,
		SSHPublicKey:           s.Install.SSHKey,
		BaseDomain:             s.Cluster.BaseDomain,
		AdditionalNTPSources:   s.Install.NTPSources,
		NetworkType:            s.Network.Type,
		TemplateRefs:           []upstream.TemplateRef{clusterTpl},
	}
	// apiVIPs/ingressVIPs: "Not applicable to Single Node OpenShift (SNO)
	// clusters" (ClusterInstanceSpec); a single-node site with VIPs is
	// refused by the install checks.
	if !sno {
		spec.ApiVIPs = s.Network.APIVIPs
		spec.IngressVIPs = s.Network.IngressVIPs
	}
	if sno {
		spec.ClusterType = "SNO"
	} else {
		spec.ClusterType = "HighlyAvailable"
	}
	if s.Cluster.InstallMethod == site.InstallAssisted {
		// platformType: "Only applicable to the Assisted Installer flow".
		spec.PlatformType = platform.ClusterInstancePlatformTypes[s.Cluster.Platform]
	}
	for _, c := range s.Network.MachineNetwork {
		spec.MachineNetwork = append(spec.MachineNetwork, upstream.MachineNetworkEntry{CIDR: c})
	}
	for _, c := range s.Network.ClusterNetwork {
		spec.ClusterNetwork = append(spec.ClusterNetwork, upstream.ClusterNetworkEntry{CIDR: c.CIDR, HostPrefix: int32(c.HostPrefix)})
	}
	for _, c := range s.Network.ServiceNetwork {
		spec.ServiceNetwork = append(spec.ServiceNetwork, upstream.ServiceNetworkEntry{CIDR: c})
	}
	if len(h.ClusterLabels) > 0 {
		spec.ExtraLabels = map[string]map[string]string{"ManagedCluster": h.ClusterLabels}
	}
	// shared with install-config (generators/install)
	spec.CPUPartitioningMode = s.Install.CPUPartitioningMode
	if p := s.Install.Proxy; p != nil {
		proxy := *p
		spec.Proxy = &proxy
	}
	// what the site passes to the templates as the ClusterInstance says it
	spec.CPUArchitecture = h.CPUArchitecture
	spec.HoldInstallation = h.HoldInstallation
	spec.InstallConfigOverrides = h.InstallConfigOverrides
	spec.IgnitionConfigOverride = h.IgnitionConfigOverride
	spec.ExtraAnnotations = h.ExtraAnnotations
	spec.SuppressedManifests = h.SuppressedManifests
	spec.DiskEncryption = h.DiskEncryption
	for _, r := range refs {
		spec.ExtraManifestsRefs = append(spec.ExtraManifestsRefs, upstream.LocalObjectReference{Name: r})
	}
	for _, pname := range poolOrder(s) {
		p := s.Pools[pname]
		role := site.RoleWorker
		if p.Role == site.RoleMaster {
			role = site.RoleMaster
		}
		for _, n := range p.Nodes {
			spec.Nodes = append(spec.Nodes, nodeSpec(s, pname, p, n, role, nodeTpl))
		}
	}
	return &upstream.ClusterInstance{
		TypeMeta:   metav1.TypeMeta{APIVersion: platform.ClusterInstanceAPIVersion, Kind: platform.ClusterInstanceKind},
		ObjectMeta: metav1.ObjectMeta{Name: s.Cluster.Name, Namespace: ns},
		Spec:       spec,
	}
}

func nodeSpec(s *site.Site, pname string, p site.Pool, n site.Node, role string, tpl upstream.TemplateRef) upstream.NodeSpec {
	ns := upstream.NodeSpec{
		BmcAddress:         n.BMC.Address,
		BmcCredentialsName: &upstream.LocalObjectReference{Name: n.BMC.CredentialsSecret},
		BootMACAddress:     n.BootMAC,
		HostName:           n.Name,
		BootMode:           n.BootMode,
		Role:               role,
		// A custom pool's role label, which its MachineConfigPool selects:
		// set at install ("Adding custom labels or roles during
		// installation", NodeSpec.NodeLabels), so the node joins its pool
		// without a relabel and reboot.
		NodeLabels:   nodes.DeliveredLabels(s, pname),
		TemplateRefs: []upstream.TemplateRef{tpl},
	}
	ns.RootDeviceHints = n.RootDeviceHints
	if hn := n.Hub; hn != nil {
		if len(hn.NodeLabels) > 0 {
			labels := map[string]string{}
			maps.Copy(labels, hn.NodeLabels)
			maps.Copy(labels, ns.NodeLabels)
			ns.NodeLabels = labels
		}
		ns.InstallerArgs = hn.InstallerArgs
		ns.IgnitionConfigOverride = hn.IgnitionConfigOverride
		ns.AutomatedCleaningMode = hn.AutomatedCleaningMode
		ns.IronicInspect = hn.IronicInspect
		ns.ExtraAnnotations = hn.ExtraAnnotations
		ns.SuppressedManifests = hn.SuppressedManifests
	}
	if len(n.NetworkConfig) > 0 {
		// The NICs the NMState YAML names, by MAC (at least one: the host is
		// identified by it); without interfaces, the pool's uplink with the
		// boot MAC, as for the agent installer.
		nn := &upstream.NMStateConfigSpec{Config: n.NetworkConfig}
		for _, i := range n.Interfaces {
			nn.Interfaces = append(nn.Interfaces, upstream.Interface{Name: i.Name, MacAddress: i.MACAddress})
		}
		if len(nn.Interfaces) == 0 {
			nn.Interfaces = []upstream.Interface{{Name: p.UplinkInterface, MacAddress: n.BootMAC}}
		}
		ns.NodeNetwork = nn
	}
	return ns
}

func clusterInstanceHeader(s *site.Site, ns string, refs []string, mirrors hubMirrors) string {
	var b strings.Builder
	b.WriteString(commentBlock(fmt.Sprintf(
		"ClusterInstance for the siteconfig operator on the hub (stolostron/siteconfig): it renders the %s installation of cluster %s from its templates. Apply hub/ on the hub (docs/hub.md), after creating in namespace %q, out of band, the Secrets it names: %s. siteforge never reads or writes them.",
		s.Cluster.InstallMethod, s.Cluster.Name, ns, secretNames(s))))
	if len(refs) > 0 {
		b.WriteString(commentBlock(fmt.Sprintf(
			"extraManifestsRefs: the day-0 manifests of the site (network configuration, MachineConfigs, mirror sets, IngressControllers), the same bytes as the day-2 objects, in ConfigMaps %s.", strings.Join(refs, ", "))))
	}
	if s.Mirroring != nil {
		if s.Cluster.InstallMethod == site.InstallImageBased {
			b.WriteString(commentBlock("Mirroring: a ClusterInstance has no mirror fields. The image-based installer takes the mirrors from the extra manifests (the ImageDigestMirrorSet / ImageTagMirrorSet in them; stolostron/siteconfig docs/image_mirroring.md)."))
		} else {
			b.WriteString(commentBlock(fmt.Sprintf("Mirroring: a ClusterInstance has no mirror fields. The installation pulls through the hub's assisted-service mirror configuration: the ConfigMap named by AgentServiceConfig spec.mirrorRegistryRef (keys registries.conf and ca-bundle.crt) goes into the discovery image and into the imageDigestSources and additionalTrustBundle of every cluster the hub installs (openshift/assisted-service docs/operator.md \"Mirror Registry Configuration\"). It is hub-wide, and assisted-service copies only each source and its mirrors, never a source policy (internal/installcfg/builder/builder.go setImageDigestMirrorSet): the installer's ImageDigestMirrorSet %q allows contacting those sources. Its registries.conf must let the installation pull the release (install/install-config-mirrors.yaml lists the digest mirrors this site uses).", platform.InstallerDigestMirrorSetName)))
			if left := mirrors.leftOut(); len(left) > 0 {
				b.WriteString(commentBlock(fmt.Sprintf("Left out of the extra manifests: the day-0 copies of %s. Where the hub's registries.conf names the same sources, MCO's bootstrap would refuse them next to the installer's %q (%s) and fail the installation (machine-config-operator pkg/controller/bootstrap/bootstrap.go Run, container-runtime-config RunImageBootstrap). The day-2 objects bring them after the installation.",
					strings.Join(mirrors.Day0Paths, ", "), platform.InstallerDigestMirrorSetName, mirrors.Day0Refused)))
			} else if mirrors.Install != nil {
				b.WriteString(commentBlock("The day-0 mirror sets in the extra manifests configure the installed cluster from its first boot: MCO's bootstrap accepts them next to the installer's mirror set."))
			}
			if mirrors.Install != nil {
				for _, step := range mirrors.AfterInstall {
					b.WriteString(commentBlock("After the installation, " + step + "."))
				}
			}
		}
	}
	return b.String()
}

func secretNames(s *site.Site) string {
	names := []string{fmt.Sprintf("%s (pull secret, type kubernetes.io/dockerconfigjson)", s.Install.Hub.PullSecretRef)}
	seen := map[string]bool{}
	var bmc []string
	for _, pname := range poolOrder(s) {
		for _, n := range s.Pools[pname].Nodes {
			if c := n.BMC.CredentialsSecret; !seen[c] {
				seen[c] = true
				bmc = append(bmc, c)
			}
		}
	}
	if len(bmc) > 0 {
		names = append(names, strings.Join(bmc, ", ")+" (BMC credentials, keys username and password)")
	}
	return strings.Join(names, "; ")
}

// extraManifests packs the day-0 manifests into ConfigMaps in namespace ns,
// in name order, starting a new ConfigMap when the next manifest would take
// the current one over platform.ExtraManifestsConfigMapMaxBytes (as JSON).
//
// The day-0 copies of the day-2 resources in leftOut stay out (installMirrors).
func extraManifests(s *site.Site, out *generators.Output, ns string, leftOut map[string]bool) ([]generators.Artifact, []string, error) {
	var names []string
	for _, name := range out.Day0Names() {
		if !leftOut[out.Day0[name].Resource] {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return nil, nil, nil
	}
	var dl diag.List
	for _, name := range names {
		if msg := keyProblem(name); msg != "" {
			return nil, nil, fmt.Errorf("day-0 manifest %q cannot be an extra-manifests key: %s", name, msg)
		}
	}
	type group struct {
		data   map[string]string
		origin []diag.Position
	}
	var groups []group
	cur := group{data: map[string]string{}}
	for _, name := range names {
		m := out.Day0[name]
		alone, err := configMapSize(s, ExtraManifestsName, ns, map[string]string{name: string(m.Data)})
		if err != nil {
			return nil, nil, err
		}
		if alone > platform.ExtraManifestsConfigMapMaxBytes {
			pos := s.Positions.Of("")
			if len(m.Origin) > 0 {
				pos = m.Origin[0]
			}
			dl = append(dl, diag.Diagnostic{Pos: pos,
				Message: fmt.Sprintf("day-0 manifest %s is too large for an extra-manifests ConfigMap: %d bytes as JSON, over %d (the last-applied-configuration annotation of a client-side apply holds the whole object, and an object's annotations hold at most 256 KiB)", name, alone, platform.ExtraManifestsConfigMapMaxBytes),
				Hint:    "make the manifest smaller (a MachineConfig's large files belong in a container image or a day-2 object), or apply it on day 2 only"})
			continue
		}
		next := map[string]string{name: string(m.Data)}
		for k, v := range cur.data {
			next[k] = v
		}
		size, err := configMapSize(s, ExtraManifestsName, ns, next)
		if err != nil {
			return nil, nil, err
		}
		if size > platform.ExtraManifestsConfigMapMaxBytes && len(cur.data) > 0 {
			groups = append(groups, cur)
			cur = group{data: map[string]string{name: string(m.Data)}}
		} else {
			cur.data = next
		}
		cur.origin = append(cur.origin, m.Origin...)
	}
	if len(dl) > 0 {
		return nil, nil, dl
	}
	if len(cur.data) > 0 {
		groups = append(groups, cur)
	}
	var arts []generators.Artifact
	var refs []string
	for i, g := range groups {
		name := ExtraManifestsName
		if i > 0 {
			name = fmt.Sprintf("%s-%d", ExtraManifestsName, i+1)
		}
		b, err := generators.EncodeObject(extraManifestsConfigMap(name, ns, g.data), s.SourceName())
		if err != nil {
			return nil, nil, fmt.Errorf("encode ConfigMap %s: %w", name, err)
		}
		keys := make([]string, 0, len(g.data))
		for k := range g.data {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		text := fmt.Sprintf(
			"Day-0 manifests of cluster %s (%s), one file per key: the ClusterInstance's extraManifestsRefs names this ConfigMap, and the siteconfig operator hands it to the installation (AgentClusterInstall spec.manifestsConfigMapRefs, or ImageClusterInstall spec.extraManifestsRefs).",
			s.Cluster.Name, strings.Join(keys, ", "))
		var copies []string
		for _, k := range keys {
			if r := out.Day0[k].Resource; r != "" {
				copies = append(copies, r)
			}
		}
		if len(copies) > 0 {
			text += fmt.Sprintf(" %s: the same bytes as the day-2 objects, so applying them again after the installation changes nothing.", strings.Join(copies, ", "))
		}
		if len(leftOut) > 0 {
			text += fmt.Sprintf(" Left out on purpose: the day-0 copies of %s (MCO's bootstrap would refuse them next to the installer's mirror set; %s says why).", strings.Join(sortedKeys(leftOut), ", "), ClusterInstancePath)
		}
		head := commentBlock(text)
		arts = append(arts, generators.Artifact{Path: fmt.Sprintf("%s/%s.yaml", Dir, name), Role: generators.File, Comment: "#",
			Data: append([]byte(head), b...), Origin: diag.Unique(g.origin...)})
		refs = append(refs, name)
	}
	return arts, refs, nil
}

func sortedKeys(m map[string]bool) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func extraManifestsConfigMap(name, ns string, data map[string]string) *corev1.ConfigMap {
	return &corev1.ConfigMap{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Data:       data,
	}
}

// configMapSize is the size of the ConfigMap as JSON, the way it is sent to
// the API server and stored in the last-applied-configuration annotation.
func configMapSize(s *site.Site, name, ns string, data map[string]string) (int, error) {
	b, err := generators.EncodeObject(extraManifestsConfigMap(name, ns, data), s.SourceName())
	if err != nil {
		return 0, err
	}
	j, err := yaml.YAMLToJSON(b)
	if err != nil {
		return 0, err
	}
	return len(j), nil
}

// keyProblem says why a manifest file name cannot be an extra-manifests
// key, or "": a ConfigMap key (IsConfigMapKey), and a manifest file name
// assisted-service accepts (internal/manifests/manifests.go
// validateManifestFileNames: no leading ".", no space, no directory;
// validateUserSuppliedManifest: a .yaml/.yml extension here).
func keyProblem(name string) string {
	if errs := validation.IsConfigMapKey(name); len(errs) > 0 {
		return strings.Join(errs, "; ")
	}
	if strings.HasPrefix(name, ".") || strings.ContainsAny(name, " /") {
		return "a manifest file name has no leading dot, space or directory"
	}
	ext := path.Ext(name)
	for _, e := range platform.ExtraManifestKeyExtensions {
		if ext == e && strings.TrimSpace(strings.TrimSuffix(name, ext)) != "" {
			return ""
		}
	}
	return fmt.Sprintf("the file name must end with one of %v", platform.ExtraManifestKeyExtensions)
}

func commentBlock(text string) string { return generators.CommentBlock(text) }
