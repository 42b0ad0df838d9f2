package mirroring

import "github.com/siteforge/siteforge/internal/platform"

// Names of the objects this package renders. They never depend on the content, so a changed
// site updates the same objects instead of adding new ones.
const (
	digestMirrorSetName = "siteforge-digest-mirrors" // ImageDigestMirrorSet (4.13+) or ImageContentSourcePolicy (< 4.13)
	tagMirrorSetName    = "siteforge-tag-mirrors"    // ImageTagMirrorSet (4.13+)
	clusterObjectName   = "cluster"                  // api config/v1: image.config and OperatorHub are singletons named "cluster"
)

// legacyTagMachineConfigNameFormat names the pre-4.13 MachineConfig that writes registries.conf
// with tag mirrors, per built-in pool. MCO's own file comes from "99-<pool>-generated-registries"
// (registries.ManagedMachineConfigNameFormat) and MCO merges a pool's MachineConfigs sorted by
// name, a later file at the same path replacing an earlier one (MCO
// pkg/controller/common/helpers.go MergeMachineConfigs: sort.SliceStable by Name, then ign3.Merge).
// "99-<pool>-zz-..." sorts after "99-<pool>-generated-..." ('z' > 'g'), so this file wins. Custom
// pools get the worker MachineConfigs through their selector, so master and worker are enough.
const legacyTagMachineConfigNameFormat = "99-%s-zz-siteforge-registries"

// Version gates of the install-time mirror configuration.
const (
	// imageDigestSourcesSince: install-config imageDigestSources (one IDMS "image-digest-mirror");
	// before it imageContentSources (ICSPs "image-policy-N"). // installer PR #6235 (OCPNODE-1258), 4.14 release notes
	imageDigestSourcesSince platform.OCPMinor = 14
	// installerSourcePolicySince: imageDigestSources[].sourcePolicy, carried into the installer's IDMS
	// and into the agent/bootstrap registries.conf as blocked = true. // installer PRs #10050 and #10073 (OCPBUGS-56451), merged 2025-11, first in 4.21
	installerSourcePolicySince platform.OCPMinor = 21
	// mirrorSetsWithICSPFixedSince: on 4.13 GA and early 4.14, an ICSP next to an IDMS/ITMS failed
	// the whole MCO sync ("both imagecontentsourcepolicy and imagedigestmirrorset exist"); the
	// Nov 2023 z-streams fixed it. 4.14 installers create an IDMS, so only 4.13 installs mix them. // registries.md section 1
	mirrorSetsWithICSPFixedSince platform.OCPMinor = 14
)

// Objects the installers create from the install-time mirrors. // registries.md section 4; installer pkg/asset/manifests (ConvertImageDigestMirrorSet, image-policy-%d ICSPs)
const (
	installerDigestMirrorSetName       = "image-digest-mirror"
	installerContentSourcePolicyFormat = "image-policy-%d"
)

// Where the files for the installers go in the output folder.
const (
	installConfigMirrorsPath = "install/install-config-mirrors.yaml"
	agentRegistriesConfPath  = "install/registries.conf"
)

// agentRegistriesConfAssetPath is where `openshift-install agent create image` reads a
// user-supplied registries.conf from the assets directory. // installer pkg/asset/agent/mirror/registriesconf.go RegistriesConfFilename (mirror/registries.conf)
const agentRegistriesConfAssetPath = "mirror/registries.conf"

// Operator catalogs.
const (
	marketplaceNamespace  = "openshift-marketplace" // OLM: default CatalogSources live there; OperatorHub "cluster" manages them
	catalogSourceTypeGrpc = "grpc"                  // operator-framework/api pkg/operators/v1alpha1 SourceTypeGrpc
)

// defaultCatalogIndexes are the default CatalogSources' index repositories, pulled BY TAG
// (":v4.N") while OperatorHub's default sources are enabled. // registries.md section 4
var defaultCatalogIndexes = []string{
	"registry.redhat.io/redhat/redhat-operator-index",
	"registry.redhat.io/redhat/certified-operator-index",
	"registry.redhat.io/redhat/community-operator-index",
	"registry.redhat.io/redhat/redhat-marketplace-index",
}
