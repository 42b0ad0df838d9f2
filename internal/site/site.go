// Package site is the typed model of a site description
// (siteforge.dev/v1alpha1), decoded from the CUE schema with its defaults
// applied. Every field of the user's input keeps its source position in
// Positions, so generators and lints can point back at the user's line.
package site

import (
	"sort"
	"strings"

	"cuelang.org/go/cue"

	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/upstream"
)

// Site is one cluster.
type Site struct {
	APIVersion       string                         `json:"apiVersion"`
	Kind             string                         `json:"kind"`
	Name             string                         `json:"name"`
	Cluster          Cluster                        `json:"cluster"`
	Network          Network                        `json:"network"`
	Pools            map[string]Pool                `json:"pools"`
	Paths            []Path                         `json:"paths,omitempty"`
	MTU              *MTU                           `json:"mtu,omitempty"`
	NetworkMigration *NetworkMigration              `json:"networkMigration,omitempty"`
	Mirroring        *Mirroring                     `json:"mirroring,omitempty"`
	Ingress          *Ingress                       `json:"ingress,omitempty"`
	Egress           *Egress                        `json:"egress,omitempty"`
	OVS              *OVS                           `json:"ovs,omitempty"`
	Install          *Install                       `json:"install,omitempty"`
	MachineConfigs   map[string]ButaneMachineConfig `json:"machineConfigs,omitempty"`
	Delivery         *Delivery                      `json:"delivery,omitempty"`
	Lint             *LintSettings                  `json:"lint,omitempty"`

	// Source is the path the site was loaded from (a file or directory), as
	// the user gave it.
	Source string `json:"-"`
	// Origin is the site's path relative to the root of the repository
	// holding it (slash-separated), the path rendered output names it by:
	// the same from any working directory (load.Origin).
	Origin string `json:"-"`
	// FieldSuppressions are the @lint(ignore="ID", reason="...") attributes
	// the user put on fields (CUE input only).
	FieldSuppressions []FieldSuppression `json:"-"`
	// Positions maps a field path ("pools.edge.uplinkMTU",
	// `mirroring.sources."registry.redhat.io"`) to where the user wrote it.
	Positions Positions `json:"-"`
}

// Cluster is the site's identity.
type Cluster struct {
	Name          string `json:"name"`
	BaseDomain    string `json:"baseDomain"`
	Version       string `json:"version"`
	Platform      string `json:"platform"`
	Region        string `json:"region,omitempty"`
	InstallMethod string `json:"installMethod"`
	Connectivity  string `json:"connectivity"`
	Lifecycle     string `json:"lifecycle"`
	ReleaseImage  string `json:"releaseImage,omitempty"`
}

// Network is the cluster network configuration.
type Network struct {
	Type           string           `json:"type"`
	ClusterNetwork []ClusterNetwork `json:"clusterNetwork"`
	ServiceNetwork []string         `json:"serviceNetwork"`
	MachineNetwork []string         `json:"machineNetwork"`
	APIVIPs        []string         `json:"apiVIPs,omitempty"`
	IngressVIPs    []string         `json:"ingressVIPs,omitempty"`
	IPsec          string           `json:"ipsec"`
}

// ClusterNetwork is one pod network block.
type ClusterNetwork struct {
	CIDR       string `json:"cidr"`
	HostPrefix int    `json:"hostPrefix"`
}

// Pool roles.
const (
	RoleMaster = "master"
	RoleWorker = "worker"
	RoleCustom = "custom"
)

// Schema vocabulary the generators and checks branch on
// (schema/siteforge.cue).
const (
	PlacementRemote          = "remote"    // #Pool.placement
	PlatformBareMetal        = "baremetal" // #Cluster.platform; platform.RemoteWorkerAutoDetectPlatform is its api config/v1 spelling "BareMetal"
	PlatformAWS              = "aws"
	PlatformNone             = "none"
	InstallIPI               = "ipi" // #Cluster.installMethod
	InstallAgent             = "agent"
	InstallAssisted          = "assisted"
	InstallImageBased        = "image-based"
	InstallUPI               = "upi"
	LifecycleInstall         = "install" // #Cluster.lifecycle
	LifecycleRunning         = "running"
	ConnectivityDisconnected = "disconnected" // #Cluster.connectivity
	MigrationOffline         = "offline"      // #NetworkMigration.mode
	MigrationLive            = "live"
)

// Pool is a group of nodes sharing placement and uplink.
type Pool struct {
	Name            string            `json:"name"`
	Role            string            `json:"role"`
	Placement       string            `json:"placement"`
	Zone            string            `json:"zone,omitempty"`
	Subnets         []string          `json:"subnets,omitempty"`
	UplinkInterface string            `json:"uplinkInterface"`
	UplinkMTU       int               `json:"uplinkMTU"`
	Count           *int              `json:"count,omitempty"`
	Nodes           []Node            `json:"nodes,omitempty"`
	Labels          map[string]string `json:"labels,omitempty"`
	InstanceType    string            `json:"instanceType,omitempty"`
	// Taints are the taints the nodes carry as the site says; nil when the
	// site says nothing (the platform's defaults apply: nodes.Taints).
	Taints []Taint `json:"taints,omitempty"`
}

// Taint is a node taint (#Taint).
type Taint struct {
	Key    string `json:"key"`
	Value  string `json:"value,omitempty"`
	Effect string `json:"effect"`
}

// MachineConfigPool is the pool whose MachineConfigs the nodes get.
func (p Pool) MachineConfigPool() string {
	if p.Role == RoleCustom {
		return p.Name
	}
	return p.Role
}

// Size is the number of nodes: the listed nodes, else Count, else -1
// (unknown).
func (p Pool) Size() int {
	if len(p.Nodes) > 0 {
		return len(p.Nodes)
	}
	if p.Count != nil {
		return *p.Count
	}
	return -1
}

// Node is a known node of a pool.
type Node struct {
	Name string `json:"name"`
	IP   string `json:"ip"`
	IPv6 string `json:"ipv6,omitempty"`

	// Install-time facts of a bare-metal host (#Node).
	BootMAC    string          `json:"bootMAC,omitempty"`
	Interfaces []NodeInterface `json:"interfaces,omitempty"`
	BMC        *BMC            `json:"bmc,omitempty"`
	// RootDeviceHints pick the installation disk: metal3's, as the
	// ClusterInstance and agent-config take them (a minSizeGigabytes of 0
	// is no hint, as there).
	RootDeviceHints *upstream.RootDeviceHints `json:"rootDeviceHints,omitempty"`
	BootMode        string                    `json:"bootMode,omitempty"`
	// NetworkConfig is the host's NMState configuration, as written.
	NetworkConfig map[string]any `json:"networkConfig,omitempty"`
	// Hub is what a hub install passes for the host (#HubNode).
	Hub *HubNode `json:"hub,omitempty"`
}

// HubNode is what a hub install passes for one host to the siteconfig
// operator's node templates: the ClusterInstance NodeSpec fields of the
// same names (#HubNode).
type HubNode struct {
	NodeLabels             map[string]string            `json:"nodeLabels,omitempty"`
	InstallerArgs          string                       `json:"installerArgs,omitempty"`
	IgnitionConfigOverride string                       `json:"ignitionConfigOverride,omitempty"`
	AutomatedCleaningMode  string                       `json:"automatedCleaningMode,omitempty"`
	IronicInspect          string                       `json:"ironicInspect,omitempty"`
	ExtraAnnotations       map[string]map[string]string `json:"extraAnnotations,omitempty"`
	SuppressedManifests    []string                     `json:"suppressedManifests,omitempty"`
}

// NodeInterface is one NIC of a host: its name in NMState and its MAC.
type NodeInterface struct {
	Name       string `json:"name"`
	MACAddress string `json:"macAddress"`
}

// BMC is a host's baseboard management controller. CredentialsSecret only
// names the Secret holding the credentials; it is never read.
type BMC struct {
	Address           string `json:"address"`
	CredentialsSecret string `json:"credentialsSecret"`
}

// Install holds the install-time inputs of a site (#Install).
type Install struct {
	SSHKey                string   `json:"sshKey,omitempty"`
	NTPSources            []string `json:"ntpSources,omitempty"`
	RendezvousIP          string   `json:"rendezvousIP,omitempty"`
	AdditionalTrustBundle string   `json:"additionalTrustBundle,omitempty"`
	// CPUPartitioningMode and Proxy are shared by every installer:
	// install-config and ClusterInstance write them the same way.
	CPUPartitioningMode string          `json:"cpuPartitioningMode,omitempty"`
	Proxy               *upstream.Proxy `json:"proxy,omitempty"`
	Hub                 *Hub            `json:"hub,omitempty"`
}

// Hub is how a hub installs the site: a ClusterInstance (#Hub).
type Hub struct {
	Namespace       string            `json:"namespace,omitempty"`
	PullSecretRef   string            `json:"pullSecretRef"`
	ClusterImageSet string            `json:"clusterImageSet"`
	Templates       *HubTemplates     `json:"templates,omitempty"`
	ClusterLabels   map[string]string `json:"clusterLabels,omitempty"`

	// The ClusterInstanceSpec fields of the same names, as written there.
	CPUArchitecture        string                       `json:"cpuArchitecture,omitempty"`
	HoldInstallation       bool                         `json:"holdInstallation,omitempty"`
	InstallConfigOverrides string                       `json:"installConfigOverrides,omitempty"`
	IgnitionConfigOverride string                       `json:"ignitionConfigOverride,omitempty"`
	ExtraAnnotations       map[string]map[string]string `json:"extraAnnotations,omitempty"`
	SuppressedManifests    []string                     `json:"suppressedManifests,omitempty"`
	DiskEncryption         *upstream.DiskEncryptionSpec `json:"diskEncryption,omitempty"`
}

// HubTemplates are the siteconfig operator templates a ClusterInstance uses.
type HubTemplates struct {
	Cluster TemplateRef `json:"cluster"`
	Node    TemplateRef `json:"node"`
}

// TemplateRef names a template ConfigMap on the hub.
type TemplateRef struct {
	Name      string `json:"name"`
	Namespace string `json:"namespace"`
}

// HubInstalled reports whether the site is installed from a hub by a
// ClusterInstance (installMethod "assisted" or "image-based").
func (s *Site) HubInstalled() bool {
	m := s.Cluster.InstallMethod
	return m == InstallAssisted || m == InstallImageBased
}

// Masters lists the nodes of the master-role pools, in pool-name then list
// order; the first is the default rendezvous host.
func (s *Site) Masters() []Node {
	var out []Node
	for _, name := range s.PoolNames() {
		if p := s.Pools[name]; p.Role == RoleMaster {
			out = append(out, p.Nodes...)
		}
	}
	return out
}

// Path is a link between two pools smaller than their uplinks.
type Path struct {
	Between [2]string `json:"between"`
	MTU     int       `json:"mtu"`
	Note    string    `json:"note,omitempty"`
}

// MTU holds the applied and wanted MTUs.
type MTU struct {
	Current *int `json:"current,omitempty"`
	Target  *int `json:"target,omitempty"`
	Machine *int `json:"machine,omitempty"`
	// Migration says how the migration is applied (#MTUMigration).
	Migration *MTUMigration `json:"migration,omitempty"`
}

// MTUMigration is the MTU migration driven from git.
type MTUMigration struct {
	Phase string `json:"phase"`
}

// Phases of the MTU migration from git (#MTUMigration.phase).
const (
	MTUPhaseNone = "none"
	MTUPhase1    = "1"
	MTUPhase2    = "2"
	MTUPhaseDone = "done"
)

// MTUPhase is the site's MTU migration phase, MTUPhaseNone when unset.
func (s *Site) MTUPhase() string {
	if s.MTU == nil || s.MTU.Migration == nil || s.MTU.Migration.Phase == "" {
		return MTUPhaseNone
	}
	return s.MTU.Migration.Phase
}

// NetworkMigration is the intent to migrate the network type.
type NetworkMigration struct {
	To       string             `json:"to"`
	Mode     string             `json:"mode"`
	Features *MigrationFeatures `json:"features,omitempty"`
}

// MigrationFeatures are the SDN features an offline migration carries over.
type MigrationFeatures struct {
	EgressIP       *bool `json:"egressIP,omitempty"`
	EgressFirewall *bool `json:"egressFirewall,omitempty"`
	Multicast      *bool `json:"multicast,omitempty"`
}

// Mirroring is the site's image mirroring.
type Mirroring struct {
	Sources             map[string]MirroredSource `json:"sources,omitempty"`
	QuayCache           *QuayCache                `json:"quayCache,omitempty"`
	InClusterCache      *InClusterCache           `json:"inClusterCache,omitempty"`
	InsecureRegistries  []string                  `json:"insecureRegistries,omitempty"`
	BlockedRegistries   []string                  `json:"blockedRegistries,omitempty"`
	AllowedRegistries   []string                  `json:"allowedRegistries,omitempty"`
	AdditionalTrustedCA *TrustedCA                `json:"additionalTrustedCA,omitempty"`
	Images              []string                  `json:"images,omitempty"`
	Catalogs            map[string]Catalog        `json:"catalogs,omitempty"`
	// DefaultCatalogs name OperatorHub default catalogs; the loader adds
	// each to Catalogs at the site's release (load.expandDefaultCatalogs).
	DefaultCatalogs []string `json:"defaultCatalogs,omitempty"`
}

// What a mirror serves.
const (
	ServesDigests = "digests"
	ServesTags    = "tags"
	ServesBoth    = "both"
)

// MirroredSource is one source and its mirrors.
type MirroredSource struct {
	Mirrors []string `json:"mirrors"`
	Serves  string   `json:"serves"`
	Policy  string   `json:"policy"`
}

// QuayCache is a Quay pull-through cache: organisation -> upstream.
type QuayCache struct {
	Host   string            `json:"host"`
	Orgs   map[string]string `json:"orgs"`
	Policy string            `json:"policy"`
}

// InClusterCache is a Quay pull-through cache running inside the cluster it
// serves: the address the nodes reach it at, organisation -> upstream, what
// runs it and the repositories never routed through it.
type InClusterCache struct {
	Host                 string            `json:"host"`
	Orgs                 map[string]string `json:"orgs"`
	DeployedBy           string            `json:"deployedBy"`
	BootstrapImages      []string          `json:"bootstrapImages,omitempty"`
	CheckIntervalSeconds int               `json:"checkIntervalSeconds"`
}

// What runs an in-cluster cache (InClusterCache.DeployedBy).
const (
	// CacheByQuayOperator: Red Hat Quay or Project Quay run by the Quay
	// operator; its images are known (platform.QuayOperatorRepositories).
	CacheByQuayOperator = "quay-operator"
	// CacheByOther: anything else; its images are the site's bootstrapImages.
	CacheByOther = "other"
)

// TrustedCA references a ConfigMap in openshift-config; with Certificates
// (PEM by registry host[:port]) the site renders it.
type TrustedCA struct {
	ConfigMap    string            `json:"configMap"`
	Certificates map[string]string `json:"certificates,omitempty"`
}

// Catalog is an operator catalog the site uses.
type Catalog struct {
	Image       string `json:"image"`
	DisplayName string `json:"displayName,omitempty"`
	Publisher   string `json:"publisher,omitempty"`
}

// Ingress holds the default router placement and the shards.
type Ingress struct {
	Default *DefaultIngress  `json:"default,omitempty"`
	Shards  map[string]Shard `json:"shards,omitempty"`
}

// DefaultIngress is the default IngressController's placement.
type DefaultIngress struct {
	Pools    []string `json:"pools,omitempty"`
	Replicas *int     `json:"replicas,omitempty"`
}

// Shard is an IngressController shard.
type Shard struct {
	Domain             string         `json:"domain"`
	Pools              []string       `json:"pools,omitempty"`
	NodeSelector       *LabelSelector `json:"nodeSelector,omitempty"`
	RouteSelector      *LabelSelector `json:"routeSelector,omitempty"`
	NamespaceSelector  *LabelSelector `json:"namespaceSelector,omitempty"`
	Replicas           *int           `json:"replicas,omitempty"`
	EndpointPublishing string         `json:"endpointPublishing"`
	Ports              *Ports         `json:"ports,omitempty"`
	ExcludeFromDefault bool           `json:"excludeFromDefault"`
}

// Ports are a HostNetwork router's host ports.
type Ports struct {
	HTTP  int `json:"http"`
	HTTPS int `json:"https"`
	Stats int `json:"stats"`
}

// LabelSelector is a Kubernetes label selector.
type LabelSelector struct {
	MatchLabels      map[string]string `json:"matchLabels,omitempty"`
	MatchExpressions []Requirement     `json:"matchExpressions,omitempty"`
}

// Requirement is one selector expression.
type Requirement struct {
	Key      string   `json:"key"`
	Operator string   `json:"operator"`
	Values   []string `json:"values,omitempty"`
}

// Egress holds EgressIP objects and the pools that may host them.
type Egress struct {
	AssignablePools []string            `json:"assignablePools,omitempty"`
	EgressIPs       map[string]EgressIP `json:"egressIPs,omitempty"`
}

// EgressIP is one EgressIP object.
type EgressIP struct {
	IPs               []string       `json:"ips"`
	NamespaceSelector LabelSelector  `json:"namespaceSelector"`
	PodSelector       *LabelSelector `json:"podSelector,omitempty"`
}

// OVS is unsupported Open vSwitch tuning.
type OVS struct {
	FlowIdleTimeoutMs *int `json:"flowIdleTimeoutMs,omitempty"`
}

// ButaneMachineConfig is an extra MachineConfig authored as Butane.
type ButaneMachineConfig struct {
	Pool   string `json:"pool"`
	Butane string `json:"butane"`
}

// Delivery is how the day-2 objects reach the cluster besides the site's
// kustomize folder.
type Delivery struct {
	ACM *ACMDelivery `json:"acm,omitempty"`
}

// ACMDelivery delivers the day-2 objects as ACM policies from the hub
// (generators/acm); the schema fills every default.
type ACMDelivery struct {
	RemediationAction string        `json:"remediationAction"`
	Namespaces        ACMNamespaces `json:"namespaces"`
	ClusterSet        string        `json:"clusterSet"`
	GroupLabels       []string      `json:"groupLabels,omitempty"`
}

// ACMNamespaces are the hub namespaces of the common, group and site
// policies.
type ACMNamespaces struct {
	Common string `json:"common"`
	Group  string `json:"group"`
	Site   string `json:"site"`
}

// ACM returns the site's hub delivery, nil when it has none.
func (s *Site) ACM() *ACMDelivery {
	if s.Delivery == nil {
		return nil
	}
	return s.Delivery.ACM
}

// LintSettings are the site's lint suppressions and severity overrides.
type LintSettings struct {
	Suppress []Suppression     `json:"suppress,omitempty"`
	Severity map[string]string `json:"severity,omitempty"`
}

// FieldSuppression silences a rule for one field and everything under it.
type FieldSuppression struct {
	Rule, Reason string
	// Path is the field's CUE path; Pos where the attribute's field is.
	Path string
	Pos  diag.Position
}

// Under reports whether path is the suppression's field or inside it.
func (f FieldSuppression) Under(path string) bool {
	return path == f.Path || strings.HasPrefix(path, f.Path+".") || strings.HasPrefix(path, f.Path+"[")
}

// Suppression silences a rule, with the reason why.
type Suppression struct {
	Rule   string `json:"rule"`
	Reason string `json:"reason"`
}

// PoolNames returns the pool names in sorted order.
func (s *Site) PoolNames() []string {
	names := make([]string, 0, len(s.Pools))
	for n := range s.Pools {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Positions maps field paths to user positions.
type Positions map[string]diag.Position

// Of returns the position of path (a CUE path such as
// `pools.edge.uplinkMTU`), or of its nearest ancestor the user wrote, or the
// zero Position.
func (p Positions) Of(path string) diag.Position {
	if pos, ok := p[path]; ok {
		return pos
	}
	sels := cue.ParsePath(path).Selectors()
	for n := len(sels) - 1; n > 0; n-- {
		if pos, ok := p[cue.MakePath(sels[:n]...).String()]; ok {
			return pos
		}
	}
	return p[""]
}

// SourceName is the path rendered output names the site by: Origin, or
// Source for a site that was not loaded from files.
func (s *Site) SourceName() string {
	if s.Origin != "" {
		return s.Origin
	}
	return s.Source
}
