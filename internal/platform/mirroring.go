package platform

import "strings"

// Image mirroring facts: how the Machine Config Operator (MCO) turns
// ImageDigestMirrorSet, ImageTagMirrorSet, ImageContentSourcePolicy and
// image.config into /etc/containers/registries.conf, and what the installers
// make of install-time mirrors.

// ICSPWithMirrorSetsSince is the first release whose every z-stream accepts
// an ImageContentSourcePolicy next to an ImageDigestMirrorSet or
// ImageTagMirrorSet. Before the fix, MCO refused the mix and failed the
// whole sync (vendored runtime-utils pkg/registries RejectMultiUpdateMirrorSetObjs,
// called from pkg/controller/container-runtime-config syncImageConfig). MCO
// PR #3898 ("support icsp and idms objects", merged 2023-09-27) removed the
// check on main before release-4.15 branched; it was backported to
// release-4.14 (PR #3995, OCPBUGS-22275, merged 2023-11-07) and
// release-4.13 (PR #4027, OCPBUGS-23468, merged 2023-12-05), so 4.13 and
// 4.14 clusters on earlier z-streams still refuse it.
const ICSPWithMirrorSetsSince OCPMinor = 15

// MCO's refusals of the mix, verbatim (runtime-utils
// RejectMultiUpdateMirrorSetObjs).
const (
	MCOErrICSPWithIDMS = "error: both imagecontentsourcepolicy and imagedigestmirrorset exist"
	MCOErrICSPWithITMS = "error: both imagecontentsourcepolicy and imagetagmirrorset exist"
)

// Install-time mirrors.
const (
	// InstallerImageDigestSourcesSince: install-config imageDigestSources
	// (one IDMS "image-digest-mirror"); before it imageContentSources (ICSPs
	// "image-policy-N").
	InstallerImageDigestSourcesSince OCPMinor = 14 // installer PR #6235 (OCPNODE-1258); OCP 4.14 release notes
	// InstallerSourcePolicySince: imageDigestSources[].sourcePolicy, carried
	// into the installer's IDMS and into the agent/bootstrap registries.conf
	// as blocked = true.
	InstallerSourcePolicySince OCPMinor = 21 // installer PRs #10050 and #10073 (OCPBUGS-56451), merged 2025-11, first in 4.21
	// Objects the installers create from the install-time mirrors.
	InstallerDigestMirrorSetName       = "image-digest-mirror" // installer pkg/asset/manifests ConvertImageDigestMirrorSet
	InstallerContentSourcePolicyFormat = "image-policy-%d"     // installer pkg/asset/manifests (ICSPs before 4.14)
	// AgentRegistriesConfAssetPath is where `openshift-install agent create
	// image` reads a user-supplied registries.conf in the assets directory.
	AgentRegistriesConfAssetPath = "mirror/registries.conf" // installer pkg/asset/agent/mirror/registriesconf.go RegistriesConfFilename
	// AssistedRegistriesConfKey is the key of assisted-service's mirror
	// registry ConfigMap (AgentServiceConfig / cluster mirrorRegistryRef).
	AssistedRegistriesConfKey = "registries.conf" // assisted-service docs "mirror registry"
)

// registries.conf as MCO writes it.
const (
	RegistriesConfPath = "/etc/containers/registries.conf" // MCO pkg/controller/common helpers.go registriesConfigPath
	RegistriesConfMode = 0o644                             // MCO ctrlcommon.NewIgnFileBytesOverwriting
	// RegistriesMachineConfigNameFormat names MCO's MachineConfig per
	// built-in pool (master, worker).
	RegistriesMachineConfigNameFormat = "99-%s-generated-registries" // MCO container-runtime-config helpers.go getManagedKeyReg ("99", "registries")
	// RegistriesConfDropInDir holds drop-ins c/image merges over
	// registries.conf.
	RegistriesConfDropInDir = "/etc/containers/registries.conf.d/" // c/image sysregistriesv2 systemRegistriesConfDirPath
	// WildcardScopePrefix starts a wildcard scope (`*.example.com`).
	WildcardScopePrefix = "*." // runtime-utils IsValidRegistriesConfScope
	// AdditionalLayerStoreAuthHelperSince is the first release whose MCO
	// vendors a containers/image with V2RegistriesConf.AdditionalLayerStoreAuthHelper,
	// so its TOML encoder writes `additional-layer-store-auth-helper = ""`.
	AdditionalLayerStoreAuthHelperSince OCPMinor = 19 // MCO go.mod: release-4.18 c/image v5.29.4, release-4.19 v5.34.1
)

// defaultUnqualifiedSearchRegistries is the only content of MCO's
// registries.conf template.
var defaultUnqualifiedSearchRegistries = []string{"registry.access.redhat.com", "docker.io"} // MCO templates/*/01-*-container-runtime/_base/files/container-registries.yaml

// DefaultUnqualifiedSearchRegistries returns a copy of the template's
// unqualified-search-registries.
func DefaultUnqualifiedSearchRegistries() []string {
	return append([]string(nil), defaultUnqualifiedSearchRegistries...)
}

// Source and mirror patterns MCO also applies to ICSP (which has no CRD
// pattern): the same text as the IDMS/ITMS CRD patterns.
const (
	MirrorSourcePattern = `^\*(?:\.(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]))+$|^((?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])(?:(?:\.(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]))+)?(?::[0-9]+)?)(?:(?:/[a-z0-9]+(?:(?:(?:[._]|__|[-]*)[a-z0-9]+)+)?)+)?$` // openshift/api config/v1 types_image_digest_mirror_set.go ImageDigestMirrors.Source
	MirrorPattern       = `^((?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])(?:(?:\.(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]))+)?(?::[0-9]+)?)(?:(?:/[a-z0-9]+(?:(?:(?:[._]|__|[-]*)[a-z0-9]+)+)?)+)?$`                                                                // openshift/api config/v1 ImageMirror
)

// SiteforgeTagMachineConfigNameFormat names siteforge's pre-4.13
// MachineConfig that writes registries.conf with tag mirrors, per built-in
// pool. MCO merges a pool's MachineConfigs sorted by name, a later file at
// the same path replacing an earlier one (MCO pkg/controller/common
// helpers.go MergeMachineConfigs: sort.SliceStable by Name, then
// ign3.Merge): "99-<pool>-zz-..." sorts after MCO's
// "99-<pool>-generated-registries" ('z' > 'g'), so it wins. Custom pools
// get the worker MachineConfigs through their selector, so master and
// worker are enough.
const SiteforgeTagMachineConfigNameFormat = "99-%s-zz-siteforge-registries"

// ConfigSingletonName is the name of the cluster-scoped config singletons
// (image.config, OperatorHub, Network, Ingress, Scheduler, ...).
const ConfigSingletonName = "cluster" // api config/v1: singletons named "cluster"

// InstallerReleaseRepository is the repository of a release pull spec
// (tag and digest cut), the way the installer matches it against its
// mirrors: the agent installer takes the release image's mirror only from a
// source EQUAL to that repository (openshift/installer
// pkg/asset/agent/mirror/registriesconf.go GetMirrorFromRelease: config.Location
// == the pull spec before ":" or "@sha256"), and warns "should have at least
// one source field matching the releaseImage value" otherwise; a source
// covering it as a namespace or registry prefix does not count there,
// although CRI-O uses it. Empty spec: the installer's own release,
// OfficialReleaseRepository.
func InstallerReleaseRepository(pullSpec string) string {
	if pullSpec == "" {
		return OfficialReleaseRepository
	}
	if i := strings.Index(pullSpec, "@"); i >= 0 {
		pullSpec = pullSpec[:i]
	}
	if slash := strings.LastIndex(pullSpec, "/"); slash >= 0 {
		if colon := strings.LastIndex(pullSpec, ":"); colon > slash {
			pullSpec = pullSpec[:colon]
		}
	}
	return pullSpec
}

// Release payload repositories of official releases.
const (
	OfficialReleaseRepository  = "quay.io/openshift-release-dev/ocp-release"      // oc adm release info (release image pull spec)
	PayloadComponentRepository = "quay.io/openshift-release-dev/ocp-v4.0-art-dev" // oc adm release info (component image references)
)

// InstallerDefaultServiceNetwork is the service network when none is
// configured.
const InstallerDefaultServiceNetwork = "172.30.0.0/16" // installer pkg/types/defaults

// RegistryDialTimeoutSeconds is how long CRI-O waits for a registry's
// address to accept a connection before it tries the next mirror or the
// source: containers/image pkg/tlsclientconfig/tlsclientconfig.go
// NewTransport, net.Dialer Timeout 30 * time.Second (the transport of
// docker/docker_client.go).
const RegistryDialTimeoutSeconds = 30

// In-cluster DNS names CRI-O's host resolver does not know (the node
// resolves with the host's DNS, not the cluster's).
const (
	ServiceDomainSuffix  = ".svc"                                        // Kubernetes Service DNS: <svc>.<ns>.svc
	ClusterDomainSuffix  = ".cluster.local"                              // kubelet clusterDomain
	InternalRegistryHost = "image-registry.openshift-image-registry.svc" // cluster-dns-operator node-resolver puts it in /etc/hosts
)

// Operator catalogs.
const (
	MarketplaceNamespace  = "openshift-marketplace" // OLM: default CatalogSources live there; OperatorHub "cluster" manages them
	CatalogSourceTypeGrpc = "grpc"                  // operator-framework/api pkg/operators/v1alpha1 SourceTypeGrpc
)

// DefaultCatalog is one of the CatalogSources OperatorHub manages: its name
// (also its CatalogSource name in openshift-marketplace), index image
// repository (tagged v<minor> for the release), display name and publisher.
type DefaultCatalog struct{ Name, Index, DisplayName, Publisher string }

// DefaultCatalogs are OperatorHub's default sources, as the marketplace
// operator creates them in openshift-marketplace (openshift/operator-marketplace
// defaults; the same names, images, display names and publisher "Red Hat" in
// openshift/hypershift's OLM catalog reconciliation, ReconcileCatalogSource).
var DefaultCatalogs = []DefaultCatalog{
	{"redhat-operators", "registry.redhat.io/redhat/redhat-operator-index", "Red Hat Operators", "Red Hat"},
	{"certified-operators", "registry.redhat.io/redhat/certified-operator-index", "Certified Operators", "Red Hat"},
	{"community-operators", "registry.redhat.io/redhat/community-operator-index", "Community Operators", "Red Hat"},
	{"redhat-marketplace", "registry.redhat.io/redhat/redhat-marketplace-index", "Red Hat Marketplace", "Red Hat"},
}

// DefaultCatalogNames are the names of DefaultCatalogs, in their order.
func DefaultCatalogNames() []string {
	names := make([]string, len(DefaultCatalogs))
	for i, c := range DefaultCatalogs {
		names[i] = c.Name
	}
	return names
}

// DefaultCatalogNamed returns the default catalog called name.
func DefaultCatalogNamed(name string) (DefaultCatalog, bool) {
	for _, c := range DefaultCatalogs {
		if c.Name == name {
			return c, true
		}
	}
	return DefaultCatalog{}, false
}

// A pull-through cache running inside the cluster it serves (site
// mirroring.inClusterCache). Its mirrors are not MCO's: a script on each
// node adds them in a registries.conf.d drop-in once the cache answers and
// removes them when it stops answering.
const (
	// InClusterCacheDropInPath is the drop-in the script writes. c/image
	// reads the *.conf files of registries.conf.d in lexical order and merges
	// each over registries.conf, a table replacing the one with its prefix
	// (c/image sysregistriesv2 getConfigPath / updateWithConfigurationFrom);
	// "99-" sorts after MCO's own drop-in 01-image-searchRegistries.conf
	// (MCO pkg/controller/container-runtime-config helpers.go
	// searchRegDropInFilePath).
	//
	// MCO leaves alone a file that no MachineConfig writes: the daemon
	// deletes only the files of the old rendered config that the new one
	// lacks (MCO pkg/daemon/update.go deleteStaleData) and checks on disk
	// only the files and units of the current config (pkg/daemon/
	// on_disk_validation.go validateOnDiskState, also what the config drift
	// monitor runs). So the drop-in survives MCO updates, reboots, and OS
	// updates: OSTree carries /etc into a new deployment with a 3-way merge
	// of the old defaults, the booted /etc and the new defaults, keeping a
	// file only /etc has (ostreedev/ostree docs/deployment.md "Deployments").
	// The script removes it itself at every boot, before CRI-O starts.
	InClusterCacheDropInPath = RegistriesConfDropInDir + "99-siteforge-in-cluster-cache.conf"
	// CRIOReloadCommand makes CRI-O read the registries configuration again
	// without a restart: crio.service has ExecReload=/bin/kill -s HUP
	// $MAINPID (cri-o contrib/systemd/crio.service), and on SIGHUP CRI-O
	// reloads its configuration, registries included (cri-o server/server.go
	// startReloadWatcher -> pkg/config/reload.go Config.Reload ->
	// ReloadRegistries). Running containers are not touched.
	CRIOReloadCommand = "systemctl reload " + CrioService
	// RegistryAPIBasePath is the registry API's base endpoint: a registry that
	// implements the API answers GET /v2/ with 200, or 401 when it wants
	// credentials first (distribution spec, "Determining support";
	// distribution/distribution registry/handlers/api.go apiBase).
	RegistryAPIBasePath = "/v2/"
	// ContainersCertsDir and DockerCertsDir hold a registry's CA per
	// host[:port], where CRI-O looks for it (c/image docker/docker_client.go
	// dockerCertDir: the certs.d drop-in directories, then
	// /etc/docker/certs.d); MCO writes image.config additionalTrustedCA
	// under /etc/docker/certs.d (below).
	ContainersCertsDir = "/etc/containers/certs.d"
	DockerCertsDir     = "/etc/docker/certs.d"
)

// What the nodes trust for a registry host. CRI-O trusts the system pool
// plus the *.crt files of the host's certs.d directory (c/image
// pkg/tlsclientconfig SetupCertificates). MCO writes there, as
// /etc/docker/certs.d/<host[:port]>/ca.crt, each key of the ConfigMap that
// image.config spec.additionalTrustedCA names (".." in the key becomes ":")
// and of openshift-config-managed/image-registry-ca, and removes every other
// directory there (MCO pkg/operator/sync.go getImageRegistryBundles ->
// ControllerConfig spec.imageRegistryBundleUserData and
// imageRegistryBundleData; pkg/daemon/certificate_writer.go
// syncControllerConfigHandler, imageCAFilePath), without a drain or reboot.
// image-registry-ca holds only the internal registry's service CA under its
// Service names (cluster-image-registry-operator
// pkg/resource/imageregistryca.go). The system pool gets install-config
// additionalTrustBundle (UserCABundlePath, AdditionalTrustBundleConfigMap).
const (
	// AdditionalTrustedCANamespace holds the ConfigMap additionalTrustedCA
	// names (api config/v1 types_image.go ImageSpec.AdditionalTrustedCA).
	AdditionalTrustedCANamespace = "openshift-config"
	// AdditionalTrustedCAPortSeparator replaces ":" before a port in a key
	// (docs "Setting up additional trusted certificate authorities for
	// builds": hostname[..port]; MCO certificate_writer.go
	// strings.ReplaceAll(CA.File, "..", ":")).
	AdditionalTrustedCAPortSeparator = ".."
)

// The default ingress certificate, which the routers serve for every Route
// without its own: the ingress operator signs it with a CA it generates
// itself ("ingress-operator@<unix time>", Secret router-ca in
// openshift-ingress-operator: cluster-ingress-operator
// pkg/operator/controller/certificate/ca.go generateRouterCA), which no
// node trusts; it publishes what to trust for it as key ca-bundle.crt of
// ConfigMap default-ingress-cert in openshift-config-managed
// (certificate-publisher publish_ca.go ensureDefaultIngressCertConfigMap,
// names.go DefaultIngressCertConfigMapName).
const (
	DefaultIngressCertNamespace = "openshift-config-managed"
	DefaultIngressCertConfigMap = "default-ingress-cert"
	DefaultIngressCertKey       = "ca-bundle.crt"
)

// AdditionalTrustedCAKey is the ConfigMap key of a registry host[:port].
func AdditionalTrustedCAKey(hostPort string) string {
	return strings.ReplaceAll(hostPort, ":", AdditionalTrustedCAPortSeparator)
}

// QuayOperatorRepositories are the repositories of a Quay the Quay operator
// runs from OperatorHub, Red Hat Quay or Project Quay: the operator, its
// bundle, and the images of a QuayRegistry's pods (Quay, Clair,
// the builders, PostgreSQL, Redis). An in-cluster cache run so never routes
// them through itself (mirroring.inClusterCache deployedBy "quay-operator"):
// the cluster pulls them before the cache runs. A registries.conf prefix
// matches whole path components, so each database image is listed.
var QuayOperatorRepositories = []string{
	// Project Quay (community-operators, package project-quay): the
	// operator's containerImage and its RELATED_IMAGE_COMPONENT_* images
	// (QUAY, CLAIR, BUILDER, BUILDER_QEMU under quay.io/projectquay;
	// POSTGRES, CLAIRPOSTGRES, REDIS from quay.io/sclorg; POSTGRES_PREVIOUS
	// centos/postgresql-10-centos7 on Docker Hub): quay/quay-operator
	// bundle/manifests/quay-operator.clusterserviceversion.yaml.
	"quay.io/projectquay",
	"quay.io/sclorg/postgresql-13-c9s",
	"quay.io/sclorg/postgresql-15-c9s",
	"quay.io/sclorg/redis-7-c9s",
	"docker.io/centos/postgresql-10-centos7",
	// Red Hat Quay (redhat-operators, package quay-operator): every image of
	// the product is under registry.redhat.io/quay (quay-operator-rhel8|9,
	// quay-operator-bundle, quay-rhel8|9, clair-rhel8|9, quay-builder-rhel8,
	// quay-builder-qemu-rhcos-rhel8: quay/quay-operator branch redhat-3.9
	// hack/prepare-downstream.sh, which renames the upstream images for
	// Red Hat's build; openshift/release
	// ci-operator/step-registry/quay-tests/enable-quay-catalogsource
	// create_icsp, the released repositories).
	"registry.redhat.io/quay",
	// Its databases and cache are the RHEL builds of the Software
	// Collections images the upstream CSV names (sclorg/postgresql-container
	// and sclorg/redis-container: registry.redhat.io/rhel8|rhel9/<name>):
	// postgresql-10 and redis-5 in the 3.4 CSV (quay/quay-operator branch
	// redhat-3.4 deploy/manifests/quay-operator/3.4.0), postgresql-12 and
	// postgresql-13 in 3.9 (hack/prepare-downstream.sh), postgresql-13,
	// postgresql-15 and redis-7 upstream today; redis-6 in Red Hat Quay's
	// docs ("Deploying Red Hat Quay for proof-of-concept", Configuring
	// Redis). Red Hat publishes the CSV of its build in the catalog only: a
	// release that uses another one needs it in bootstrapImages.
	"registry.redhat.io/rhel8/postgresql-10",
	"registry.redhat.io/rhel8/postgresql-12",
	"registry.redhat.io/rhel8/postgresql-13",
	"registry.redhat.io/rhel8/postgresql-15",
	"registry.redhat.io/rhel9/postgresql-13",
	"registry.redhat.io/rhel9/postgresql-15",
	"registry.redhat.io/rhel8/redis-5",
	"registry.redhat.io/rhel8/redis-6",
	"registry.redhat.io/rhel9/redis-6",
	"registry.redhat.io/rhel9/redis-7",
}

// QuayOperatorCatalogs are the default catalogs (DefaultCatalogs) OLM
// installs the Quay operator from: redhat-operators (Red Hat Quay) and
// community-operators (Project Quay). Their index images are kept off an
// in-cluster Quay like QuayOperatorRepositories.
var QuayOperatorCatalogs = []string{"redhat-operators", "community-operators"}
