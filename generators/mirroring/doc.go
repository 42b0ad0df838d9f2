// Package mirroring renders a site's image mirroring (generator "mirroring"): what the nodes
// need to pull through mirrors and caches, for the site's OpenShift version and installer.
//
// Outputs (paths relative to the site's output folder; resources are
// mirroring/<kind-lowercase>-<name>.yaml):
//
//   - 4.13+: ImageDigestMirrorSet "siteforge-digest-mirrors" (sources serving digests or both)
//     and ImageTagMirrorSet "siteforge-tag-mirrors" (tags or both), one object each, entries
//     sorted by source, each with the site's mirrorSourcePolicy.
//   - before 4.13: ImageContentSourcePolicy "siteforge-digest-mirrors" for the digest mirrors;
//     tag mirroring only through MachineConfigs "99-<pool>-zz-siteforge-registries" (master and
//     worker, Butane source next to them) that write the whole registries.conf, because an ICSP
//     cannot express it (see legacytags.go for why the file must be MCO's plus the tag mirrors,
//     and facts.go for the naming rule).
//   - image.config.openshift.io "cluster" when the site sets insecure, blocked or allowed
//     registries or an additional trusted CA (only those fields are written).
//   - OperatorHub "cluster" with disableAllDefaultSources on disconnected sites, and one
//     CatalogSource per declared catalog (image as declared: the node pulls it through the
//     mirrors, by tag).
//   - the install-time mirrors of a site with lifecycle "install", computed once by ForInstall
//     (imageDigestSources from 4.14, imageContentSources before; the agent installer's
//     digest-only registries.conf; whether MCO's bootstrap accepts the day-0 copies of the
//     mirror sets next to the installer's own objects). The install finisher writes them into
//     install-config.yaml and install/mirror/registries.conf (agent, AWS IPI); assisted installs
//     get install/install-config-mirrors.yaml, a fragment for the install-config overrides. The
//     day-2 objects are rendered too: the installer forces digest-only mirroring.
//   - mirroring/registries-<pool>.conf for master, worker and every custom pool: the file the
//     nodes get, rendered by the registries engine (internal/registries) from the objects above.
//   - an in-cluster cache (mirroring.inClusterCache): MachineConfigs
//     "99-<pool>-siteforge-in-cluster-cache" (master and worker, Butane source next to them)
//     with a script and units that add a registries.conf.d drop-in only while the cache
//     answers, and mirroring/in-cluster-cache.conf, that drop-in (incluster.go says why).
//
// Quay pull-through cache: organization O caching upstream U on host H becomes source U,
// mirror H/O, for whole registries and namespaces alike (entries.go quayMirror has the
// reasoning); a digest entry always, a tag entry where the site pulls something under U by tag
// (a catalog, an image, the release image, the default catalogs of a connected site) or
// declares U in mirroring.sources with serves tags or both. Entries keep the cache's policy.
//
// Problems: MCO's refusals (the engine's errors) come back as a diag.List at the site field
// responsible; what MCO only logs, and combinations that break after an installation (the
// installer's policy-less IDMS next to a NeverContactSource one, 4.13's ICSP+IDMS bug), are
// warnings.
package mirroring
