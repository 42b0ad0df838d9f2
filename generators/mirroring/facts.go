package mirroring

// Names of the objects this package renders. They never depend on the content, so a changed
// site updates the same objects instead of adding new ones.
const (
	digestMirrorSetName = "siteforge-digest-mirrors" // ImageDigestMirrorSet (4.13+) or ImageContentSourcePolicy (< 4.13)
	tagMirrorSetName    = "siteforge-tag-mirrors"    // ImageTagMirrorSet (4.13+)
)

// Where the install-config fragment of an assisted install goes in the output folder (agent and
// IPI installs get a whole install-config.yaml from the install finisher).
const installConfigMirrorsPath = "install/install-config-mirrors.yaml"
