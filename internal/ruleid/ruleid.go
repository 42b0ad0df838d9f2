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
	// RouterDefaultReplicasExceedNodes: a HostNetwork shard's default
	// replica count is larger than the nodes it can run on.
	RouterDefaultReplicasExceedNodes = "RND009"
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

// Render lists the RND IDs, in order.
var Render = []string{ButaneTranslation, InstallInputIncomplete, MCOLogsRegistries,
	NeverContactSourceIgnored, HubTrustBundleDropped, SDNLiveMigrationUndocumented,
	RouterSelectorMatchesNoPool, RouterDefaultReplicasExceedNodes, RouterPortsIgnored, NoOperatorCatalog}
