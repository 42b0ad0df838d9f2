// Package ruleid holds the rule IDs of render warnings: the generators set
// them on every warning (generators.Context.Warn refuses one without), and
// lint registers each ID with its summary, rationale and fix (lint/render.go),
// so a render warning is suppressed, explained and reported like any lint
// finding. It is its own package because generators and lint are siblings
// and neither imports the other.
//
// One ID per kind of warning (what it means), not per call site. A warning
// that states the same fact as a lint rule carries that rule's ID (MCF006).
package ruleid

// The render warnings (family RND).
const (
	// ButaneTranslation: Butane's own translation warnings on a config
	// siteforge translates (a user's machineConfigs butane, or a
	// MachineConfig siteforge builds).
	ButaneTranslation = "RND001"
	// InstallInputIncomplete: a site to be installed does not say something
	// the installer's input files need; they are not written.
	InstallInputIncomplete = "RND002"
	// MCOLogsRegistries: MCO's registries.conf rendering logs a problem and
	// goes on.
	MCOLogsRegistries = "RND004"
	// NeverContactSourceIgnored: mirrorSourcePolicy NeverContactSource on a
	// release whose only digest object (ImageContentSourcePolicy) has no
	// policy.
	NeverContactSourceIgnored = "RND005"
	// HubTrustBundleDropped: a hub (ClusterInstance) installation does not
	// carry install.additionalTrustBundle.
	HubTrustBundleDropped = "RND006"
	// SDNLiveMigrationUndocumented: the live SDN migration on a release
	// whose CNO has it but whose docs do not.
	SDNLiveMigrationUndocumented = "RND007"
	// RouterSelectorMatchesNoPool: a shard's node selector matches no pool
	// of the site.
	RouterSelectorMatchesNoPool = "RND008"
	// RND009 (hostnetwork-default-replicas-exceed-nodes) is retired: a
	// HostNetwork shard whose default replicas exceed its nodes is refused
	// under ING006, as one whose replicas are written (lint/render.go retired).
	// RouterPortsIgnored: ports on a shard that is not published with
	// HostNetwork.
	RouterPortsIgnored = "RND010"
	// NoOperatorCatalog: a disconnected site disables OperatorHub's
	// default sources and lists no catalog in their place.
	NoOperatorCatalog = "RND011"

	// OVSMaxIdleUnsupported is lint's MCF006 (ovs-max-idle-unsupported):
	// the render warning on ovs.flowIdleTimeoutMs is the same fact the rule
	// reports on the MachineConfigs siteforge renders from it.
	OVSMaxIdleUnsupported = "MCF006"
	// InstallerMirrorsConflict is lint's MIR021
	// (installer-mirrors-conflict-after-install): after the installation,
	// MCO refuses two policies for one source, the installer's policy-less
	// ImageDigestMirrorSet next to the site's NeverContactSource one,
	// until the user deletes the installer's object. Lint of the rendered
	// folder reports the same conflict on the install-config and the
	// day-2 objects. It was RND003 (retired: lint/render.go).
	InstallerMirrorsConflict = "MIR021"
)

// The lint rules whose fact a generator or the site's checks refuse: the
// refusal carries the rule's ID, so render, vet and lint name one platform
// fact by one ID (lint registers the rules, lint/rules).
const (
	ClusterMTUExceedsPath         = "MTU001" // cluster-mtu-exceeds-path
	ClusterMTUBelowIPv6Floor      = "MTU002" // cluster-mtu-below-ipv6-floor
	ClusterMTUOutOfRange          = "MTU003" // cluster-mtu-out-of-range
	MTUMigrationRejected          = "MTU004" // mtu-migration-rejected
	InstallConfigMTURefused       = "MTU012" // install-config-cluster-mtu-refused
	OVSMaxIdleBelowMinimum        = "MCF007" // ovs-max-idle-below-minimum
	HostNetworkReplicasExceed     = "ING006" // hostnetwork-replicas-exceed-nodes
	IngressDomainDuplicate        = "ING003" // ingress-domain-duplicate
	HostNetworkPortCollision      = "ING007" // hostnetwork-port-collision
	DefaultRouterOffVIPSubnet     = "ING008" // default-router-off-ingress-vip-subnet
	NodeInTwoCustomPools          = "MCF002" // node-in-two-custom-pools
	ConflictingMirrorSourcePolicy = "MIR004" // conflicting-mirror-source-policy
	NeverContactSourceListsSource = "MIR005" // never-contact-source-lists-source
	InvalidMirrorLocation         = "MIR006" // invalid-mirror-location
	WildcardSourceWithNestedScope = "MIR009" // wildcard-source-with-nested-scope
	RegistrySourcesRefused        = "MIR010" // registry-sources-refused
	NetworkCIDROverlap            = "NET001" // network-cidr-overlap
	SDNUnsupportedVersion         = "NET002" // openshift-sdn-unsupported-version
	LiveMigrationBlocked          = "NET003" // live-migration-blocked
	IPsecWithoutMTUHeadroom       = "MTU008" // ipsec-without-mtu-headroom
	NetworkTypeAndMTUMigration    = "MTU011" // network-type-and-mtu-migration
	MTUMigrationDuringLiveType    = "MTU013" // mtu-migration-during-live-type-migration
	ClusterInstanceJSON           = "INS022" // clusterinstance-json-invalid
)

// Render lists the RND IDs, in order.
var Render = []string{ButaneTranslation, InstallInputIncomplete, MCOLogsRegistries,
	NeverContactSourceIgnored, HubTrustBundleDropped, SDNLiveMigrationUndocumented,
	RouterSelectorMatchesNoPool, RouterPortsIgnored, NoOperatorCatalog}

// NeverContactSourceThroughInClusterMirror is lint's MIR022
// (never-contact-source-through-in-cluster-mirror): a source blocked
// (NeverContactSource, blockedRegistries) while its mirror is a cache inside
// the cluster, the bootstrap deadlock the in-cluster cache refuses.
const NeverContactSourceThroughInClusterMirror = "MIR022"
