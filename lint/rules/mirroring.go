package rules

import (
	"errors"

	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/registries"
	"github.com/siteforge/siteforge/internal/ruleid"
	"github.com/siteforge/siteforge/lint"
)

// The MIR family: image mirroring and registries. Every rule asks the registries engine (internal/registries) what MCO renders and how
// a node pulls; none re-implements a platform rule. Findings on objects MCO refuses carry MCO's
// exact error text, so a user can grep the machine-config-controller log for it.

// mcoRefusal is what every finding about a refused render says first.
const mcoRefusal = "MCO refuses to render registries.conf (the nodes keep the previous file; the error shows only in the machine-config-controller log)"

func init() {
	lint.RegisterFamily("v1alpha1", nil, []*lint.Rule{
		{
			ID:       "MIR001",
			Name:     "tag-pull-under-digest-only-mirrors",
			Severity: lint.Error,
			Summary:  "an image pulled by tag is covered only by digest mirrors or a blocked source",
			Rationale: "CRI-O (containers/image sysregistriesv2) skips digest-only mirrors for tag references, so a TAG pull under ImageDigestMirrorSet or " +
				"ImageContentSourcePolicy coverage goes to the source alone (c/image sysregistriesv2 PullSourcesFromReference). When the source is blocked " +
				"(mirrorSourcePolicy NeverContactSource) or the cluster is disconnected, the pull fails with ImagePullBackOff: the classic case is an " +
				"operator catalog index such as registry.redhat.io/redhat/redhat-operator-index:v4.16, which CatalogSources pull by tag. " +
				"Checked for CatalogSources, ClusterCatalogs, workload containers and a site's mirroring.images.",
			Fix: "Add an ImageTagMirrorSet for the repository (on the exact index repository, or on the whole registry to avoid shadowing), point the " +
				"CatalogSource at the mirror directly, or pull by digest. In a site, set serves: \"both\" on the source (a Quay pull-through cache serves tags too).",
			Check: checkTagPulls,
		},
		{
			ID:       "MIR002",
			Name:     "default-catalogs-under-digest-only-mirrors",
			Severity: lint.Error,
			Summary:  "the default operator catalogs stay enabled while registry.redhat.io is covered only by digest mirrors or a blocked source",
			Rationale: "While OperatorHub cluster leaves them enabled, the default CatalogSources in openshift-marketplace (redhat-operators, " +
				"certified-operators, community-operators, redhat-marketplace) pull registry.redhat.io/redhat/<name>-index:v4.N BY TAG, N being " +
				"the cluster's minor (docs \"About Red Hat-provided Operator catalogs\"; docs \"Configuring image registry repository mirroring\"). They are enabled " +
				"unless OperatorHub cluster disables them: with no OperatorHub, or one with no sources, the defaults run (api config/v1 " +
				"types_operatorhub.go OperatorHubSpec.sources: \"If the list is empty, it implies that the default hub sources are enabled on the " +
				"cluster unless disableAllDefaultSources is true\"). Digest-only mirrors are skipped for tag references (c/image sysregistriesv2), so the pull goes to " +
				"registry.redhat.io, which NeverContactSource or blockedRegistries blocks and a disconnected cluster cannot reach: the catalog " +
				"pods stay in ImagePullBackOff. Plain manifests are checked with or without OperatorHub cluster (without it, the finding is at the " +
				"NeverContactSource entry or blockedRegistries); a site when it is disconnected. The tag is v4.<minor> of the release the set states, " +
				"v4.N when it is unknown. A cluster without the marketplace capability (install-config or ClusterVersion capabilities: baseline " +
				"set None without marketplace added) has no default catalogs (api config/v1 types_cluster_version.go " +
				"ClusterVersionCapabilityMarketplace) and is not checked.",
			Fix: "Set OperatorHub cluster spec.disableAllDefaultSources: true and add CatalogSources for the catalogs you mirror, or add an " +
				"ImageTagMirrorSet entry for registry.redhat.io/redhat (a Quay pull-through cache serves tags too).",
			Check: checkDefaultCatalogs,
		},
		{
			ID:       "MIR003",
			Name:     "nested-mirror-shadows-parent",
			Severity: lint.Warning,
			Summary:  "a mirror entry nested in a broader mirrored source of the other kind (digest/tag) takes the broader mirror away",
			Rationale: "c/image uses only the [[registry]] table with the longest matching prefix (sysregistriesv2 FindRegistry), and MCO copies a " +
				"parent's mirrors only into nested tables that have no mirrors of its own (runtime-utils mirrorsAdjustedForNestedScope). " +
				"An ImageTagMirrorSet entry on registry.redhat.io/redhat under an ImageDigestMirrorSet entry on registry.redhat.io " +
				"gets a table with tag-only mirrors, so digest pulls of everything under registry.redhat.io/redhat lose their mirror and go to the " +
				"source (c/image sysregistriesv2 FindRegistry: the longest matching prefix wins); they fail where the source is blocked or unreachable. siteforge resolves a digest and a tag " +
				"reference under the nested scope with the registries engine, with and without the nested entry.",
			Fix: "Add the entry of the other kind for the nested source too (the parent's mirrors with the extra path appended), put the nested " +
				"entry on the exact repository pulled, or mirror the whole registry for both kinds.",
			Check: checkShadowing,
		},
		{
			ID:       "MIR004",
			Name:     "conflicting-mirror-source-policy",
			Severity: lint.Error,
			Summary:  "mirror entries for one source set different mirrorSourcePolicy values",
			Rationale: "MCO allows one mirrorSourcePolicy per source across all ImageDigestMirrorSets, ImageTagMirrorSets and " +
				"ImageContentSourcePolicies (unset and ICSP entries count as AllowContactingSource) and otherwise refuses to render registries.conf: " +
				"`conflicting mirrorSourcePolicy is set for the same source %q in imagedigestmirrorsets, imagetagmirrorsets, or " +
				"imagecontentsourcepolicies` (MCO container-runtime-config helpers.go validateRegistriesConfScopes). " +
				"The nodes keep the previous file. The installer's policy-less ImageDigestMirrorSet image-digest-mirror next to a " +
				"NeverContactSource one is the usual cause.",
			Fix: "Give every entry for the source the same mirrorSourcePolicy (an ICSP cannot say NeverContactSource: convert it with " +
				"`oc adm migrate icsp`), or delete the stale object. A conflict with the installer's own mirror objects (from the " +
				"install-config) is " + ruleid.InstallerMirrorsConflict + ".",
			Check: policyConflictCheck(false),
		},
		{
			ID:       ruleid.InstallerMirrorsConflict,
			Name:     "installer-mirrors-conflict-after-install",
			Severity: lint.Warning,
			Summary:  "after the installation, MCO refuses the installer's own mirror objects next to the day-2 mirror objects until you delete them",
			Rationale: "The installer turns install-config imageDigestSources/imageContentSources into its own ImageDigestMirrorSet " +
				platform.InstallerDigestMirrorSetName + " (or ImageContentSourcePolicies), without a mirrorSourcePolicy before " +
				platform.InstallerSourcePolicySince.String() + " (installer pkg/asset/manifests ConvertImageDigestMirrorSet; " +
				"imageDigestSources[].sourcePolicy from " + platform.InstallerSourcePolicySince.String() + "). MCO renders registries.conf " +
				"from every mirror object of the cluster and refuses two policies for one source (machine-config-operator " +
				"pkg/controller/container-runtime-config helpers.go validateRegistriesConfScopes: \"conflicting mirrorSourcePolicy is set " +
				"for the same source\"), and 4.13 z-streams built before MCO PR #4027 refuse ImageContentSourcePolicies next to " +
				"ImageDigestMirrorSets: after the installation the nodes keep the install-time registries.conf (the installer's mirrors, " +
				"contacting the source allowed) until the installer's objects are deleted. A warning, not MIR004's error: it is a known " +
				"step after every such installation, not a state the cluster stays in. `siteforge render` warns about it at the site's " +
				"policy (the same fact, under this ID), and lint reports it on the install-config and the day-2 objects of a rendered folder.",
			Fix: "After the installation, delete the installer's object (`oc delete imagedigestmirrorset/" + platform.InstallerDigestMirrorSetName +
				"`): the day-2 objects carry the same mirrors with the site's policy. A site cannot clear it before " +
				platform.InstallerSourcePolicySince.String() + " (the installer writes no policy), so when you run that step, suppress it " +
				"in the site with a reason that says so: lint: suppress: [{rule: " + ruleid.InstallerMirrorsConflict + ", reason: " +
				"\"image-digest-mirror is deleted after the installation\"}] (render, lint of the site and lint of its rendered folder " +
				"honour it). On " + platform.InstallerSourcePolicySince.String() + " or later the installer carries the policy and the " +
				"conflict does not arise.",
			Check: policyConflictCheck(true),
		},
		{
			ID:       "MIR005",
			Name:     "never-contact-source-lists-source",
			Severity: lint.Error,
			Summary:  "mirrorSourcePolicy NeverContactSource on an entry that lists its source among the mirrors",
			Rationale: "MCO refuses to render registries.conf when a NeverContactSource entry names its own source as a mirror: `cannot set " +
				"mirrorSourcePolicy: NeverContactSource if the source %q is one of the mirrors` (MCO helpers.go validateRegistriesConfScopes). The nodes keep the previous file.",
			Fix:   "Remove the source from the mirrors, or use AllowContactingSource (c/image then tries the source last anyway).",
			Check: refusalCheck(func(err error) bool { return errors.Is(err, registries.ErrNeverContactSourceIsMirror) }),
		},
		{
			ID:       "MIR006",
			Name:     "invalid-mirror-location",
			Severity: lint.Error,
			Summary:  "a mirror source or mirror is not host[:port][/lower-case/path] (scheme, tag, digest, upper case, a wildcard mirror, a template placeholder), in a mirror object or the install-config",
			Rationale: "ImageDigestMirrorSet and ImageTagMirrorSet sources and mirrors must match the CRD patterns: host[:port][/path] with a lower-case path, " +
				"or *.domain for a source; no scheme, tag or digest (openshift/api config/v1 types_image_digest_mirror_set.go and types_image_tag_mirror_set.go, " +
				"kubebuilder patterns on ImageMirror and Source), so the API server rejects the object before any controller sees it. ImageContentSourcePolicy " +
				"has no pattern; MCO applies the same patterns to every kind and refuses to render registries.conf: `invalid format for source %q` / " +
				"`invalid format for mirror %q` (MCO container-runtime-config helpers.go validateRegistriesConfScopes). install-config imageDigestSources and " +
				"imageContentSources are checked by the installer first: each source and mirror must parse as a repository name without tag or digest, or be a " +
				"bare host[:port] (openshift/installer pkg/types/validation/installconfig.go validateImageDigestSources / validateImageContentSources -> " +
				"validateNamedRepository, containers/image docker/reference ParseNamed); otherwise openshift-install stops and creates no manifest. A template " +
				"placeholder such as <registry.example.com:8443> left in every entry is reported once per object.",
			Fix:   "Write the location as host[:port][/path]: fill in template placeholders, drop https://, :tag and @sha256:..., lower-case the path; a mirror cannot be a wildcard.",
			Check: checkInvalidLocations,
		},
		{
			ID:       "MIR007",
			Name:     "dotless-registry-host",
			Severity: lint.Warning,
			Summary:  "a source, mirror or registry scope starts with a host that has no dot or port (and is not localhost): c/image reads it as a docker.io path",
			Rationale: "containers/image (docker/reference ParseNormalizedNamed) takes the first component as a registry host only when it contains " +
				"a dot or a colon or is localhost; otherwise the whole name is a docker.io repository. The CRD pattern accepts mirrorhost/ns, but " +
				"a node then pulls docker.io/mirrorhost/ns/... for that mirror, and a source or scope written that way never matches a reference " +
				"(api config/v1 ImageDigestMirrorSet and ImageTagMirrorSet; OCP 4.13 release notes; c/image sysregistriesv2 reference parsing).",
			Fix:   "Use the registry's fully qualified host name or add its port: mirrorhost.example.com/ns or mirrorhost:5000/ns.",
			Check: checkDotlessHosts,
		},
		{
			ID:       "MIR008",
			Name:     "wildcard-source-with-mirrors",
			Severity: lint.Warning,
			Summary:  "a *.domain source has mirrors: rewriting drops the host",
			Rationale: "For a *.domain table c/image replaces the whole matched host with the mirror location (sysregistriesv2 rewriteReference), " +
				"so a.example.com/ns/app and b.example.com/ns/app both become <mirror>/ns/app (the registries collide on one mirror path), and a " +
				"host:port reference becomes <mirror>:port/..., which is no valid reference: the pull fails (c/image sysregistriesv2 rewriteReference).",
			Fix:   "Mirror each registry host as its own source, with its own mirror path.",
			Check: checkWildcardMirrors,
		},
		{
			ID:       "MIR009",
			Name:     "wildcard-source-with-nested-scope",
			Severity: lint.Error,
			Summary:  "an insecure or blocked registry scope lies inside a mirrored *.domain source: MCO refuses to render",
			Rationale: "MCO gives a table nested in a mirrored source that has no mirrors of its own the parent's mirrors with the extra path " +
				"appended; for a wildcard parent it cannot, and refuses to render registries.conf: `internal error: mirrorsAdjustedForNestedScope " +
				"for a wildcard scope %q` (runtime-utils EditRegistriesConfig). image.config insecureRegistries and " +
				"blockedRegistries entries create such tables.",
			Fix:   "List the mirrored hosts one by one instead of the wildcard, or move the insecure/blocked scope out of it.",
			Check: refusalCheck(func(err error) bool { return errors.Is(err, registries.ErrWildcardNestedScope) }),
		},
		{
			ID:       "MIR010",
			Name:     "registry-sources-refused",
			Severity: lint.Error,
			Summary:  "image.config registrySources (or another mirror setting) that MCO refuses: an invalid scope, allowed and blocked together",
			Rationale: "MCO accepts `*` in insecureRegistries, blockedRegistries and allowedRegistries only as a leading `*.` with no /, @ or : " +
				"after it (`invalid entry for insecure|blocked|allowed registries %q`, runtime-utils IsValidRegistriesConfScope), and only one of " +
				"allowedRegistries and blockedRegistries (`invalid images config: only one of AllowedRegistries or BlockedRegistries may be " +
				"specified`, MCO helpers.go updatePolicyJSON). Either error stops MCO from rendering registries.conf or policy.json " +
				"(api config/v1 ImageDigestMirrorSet and ImageTagMirrorSet; OCP 4.13 release notes; MCO container-runtime-config; runtime-utils EditRegistriesConfig); the nodes keep the previous files. Any other refusal of the registries engine is reported here too.",
			Fix: "Write scopes as host[:port][/path] or *.domain, and use either allowedRegistries or blockedRegistries.",
			Check: refusalCheck(func(err error) bool {
				return !isPolicyConflict(err) && !errors.Is(err, registries.ErrNeverContactSourceIsMirror) &&
					!errors.Is(err, registries.ErrInvalidSource) && !errors.Is(err, registries.ErrInvalidMirror) &&
					!errors.Is(err, registries.ErrWildcardNestedScope)
			}),
		},
		{
			ID:       "MIR011",
			Name:     "mirror-at-in-cluster-service",
			Severity: lint.Warning,
			Summary:  "a node-level mirror points at an in-cluster Service (*.svc, *.cluster.local or a service-network address)",
			Rationale: "CRI-O resolves mirror hosts with the node's resolver, not cluster DNS: only image-registry.openshift-image-registry.svc is " +
				"put into /etc/hosts, and only while cluster DNS works; a Service ClusterIP answers only once the cluster network is up. During " +
				"bootstrap, reboots and upgrades such a mirror is unreachable: each pull waits up to the fixed 30 s dial timeout (c/image pkg/tlsclientconfig NewTransport) and then falls " +
				"back to the next mirror or the source, or fails when the source is blocked (the same class " +
				"of failure is known from containerd nodes whose cache mirror sat at a Service IP). The service network comes from the Network " +
				"config, the install-config or the site (default 172.30.0.0/16).",
			Fix: "Give the mirror an address the nodes reach without the cluster: a registry outside the cluster, or a Route/load-balancer host name " +
				"that resolves in the nodes' DNS. For a pull-through cache running in this cluster, describe it in a site as " +
				"mirroring.inClusterCache (docs/in-cluster-cache.md): its mirrors are added on each node only while the cache answers, " +
				"removed at every boot, and always allow the source.",
			Check: checkServiceMirrors,
		},
		{
			ID:       "MIR022",
			Name:     "never-contact-source-through-in-cluster-mirror",
			Severity: lint.Error,
			Summary:  "a source is blocked (mirrorSourcePolicy NeverContactSource or blockedRegistries) while its mirror runs inside the cluster: a bootstrap deadlock, or waits at every boot",
			Rationale: "CRI-O pulls on the node, before and outside the cluster network: a mirror served by the cluster itself (a Service name or " +
				"ClusterIP; the host of a Route of the cluster, or any host under the cluster's ingress domain apps.<cluster name>.<base domain> " +
				"(installer pkg/asset/manifests/ingress.go: the Ingress config's spec.domain, which the default router serves) or a shard's domain) " +
				"answers only once the cluster network, the ingress and the mirror's own pods run. " +
				"With the source blocked, MCO writes blocked = true on its registries.conf table and CRI-O never contacts it (c/image " +
				"sysregistriesv2; docs \"Configuring image registry repository mirroring\"): when every mirror runs in the cluster, the images the " +
				"cluster needs to get there, the mirror's own pods included, cannot be pulled at install, after a reboot or during an upgrade (a " +
				"bootstrap deadlock); when some mirror is outside the cluster, each pull that reaches the in-cluster one waits on it first (up to " +
				"the 30 s dial timeout, c/image pkg/tlsclientconfig NewTransport). The cluster's domain comes from the site (cluster name and " +
				"baseDomain, ingress shards) or, for plain manifests, the Ingress config's spec.domain, else the install-config's metadata.name " +
				"and baseDomain, and the IngressControllers' spec.domain. Gardener's registry cache met the same problem and fixed it by adding the " +
				"node's mirror only once the cache answers (gardener/gardener-extension-registry-cache PR #68). In a site, render and vet refuse " +
				"the combination at the line that blocks the source (the policy, or the blockedRegistries entry); for an upstream a site's " +
				"mirroring.inClusterCache caches, also when the source's mirrors are outside the cluster: the cache itself fetches from the " +
				"source the policy keeps the nodes from.",
			Fix: "Allow the source (mirrorSourcePolicy AllowContactingSource; take the scope out of blockedRegistries), or mirror through a registry " +
				"outside the cluster. In a site, describe the cache as mirroring.inClusterCache: the nodes get its mirrors only while it answers.",
			Check: checkInClusterNeverContact,
		},
		{
			ID:       "MIR023",
			Name:     "in-cluster-cache-own-images-unknown",
			Severity: lint.Error,
			Summary:  "a site's in-cluster cache is deployed by something other than the Quay operator and bootstrapImages lists none of its images",
			Rationale: "An image the cluster needs before the cache can run must never be routed through it: the release payload, and the images of " +
				"the cache's own operator and pods. Until the cache runs nobody answers at its address, so a node pulling them through it waits " +
				"for the dial timeout before the source (or, with the source blocked, never gets them): the cache could not start itself after a " +
				"reboot (Gardener's registry cache met this: gardener/gardener-extension-registry-cache PR #68, \"Fix the Node bootstrap problem\": " +
				"system images are not cached). For a Quay the Quay operator runs " +
				"(deployedBy: quay-operator, the default) siteforge knows them: the repositories of the operator, its bundle and catalog and a " +
				"QuayRegistry's pods (quay/quay-operator bundle/manifests/quay-operator.clusterserviceversion.yaml RELATED_IMAGE_COMPONENT_*; " +
				"Red Hat Quay under registry.redhat.io/quay; docs/in-cluster-cache.md lists them). For deployedBy: other it does not, and " +
				"without bootstrapImages the cache's own pods would be pulled through the cache whenever a node has its drop-in.",
			Fix: "List the repositories of the cache's images (its pods', its operator's, its catalog's) in mirroring.inClusterCache.bootstrapImages; " +
				"for a Red Hat Quay or Project Quay the Quay operator runs, say deployedBy: quay-operator.",
			Check: checkCacheOwnImages,
		},
		{
			ID:       "MIR024",
			Name:     "in-cluster-cache-host-unreachable",
			Severity: lint.Error,
			Summary:  "a site's in-cluster cache host is a cluster DNS name, or an IP address outside the service network",
			Rationale: "The nodes reach an in-cluster cache at a Route host name, which resolves in the nodes' DNS to the cluster's ingress, or at " +
				"the ClusterIP of its Service, which every node routes to once the cluster network runs (OVN-Kubernetes and kube-proxy program " +
				"the service network on the nodes). A cluster DNS name (*.svc, *.cluster.local) does not resolve on the node: CRI-O resolves " +
				"mirror hosts with the node's resolver, not cluster DNS (only the internal registry's name is put into /etc/hosts, by the DNS " +
				"operator's node resolver). An IP address outside network.serviceNetwork is no ClusterIP: the schema allows only those two " +
				"forms, and the check script and the drop-in would point every node at whatever answers there.",
			Fix:   "Give the cache's Route host name, or the ClusterIP of its Service (inside network.serviceNetwork).",
			Check: checkCacheHost,
		},
		{
			ID:       "MIR025",
			Name:     "in-cluster-registry-ca-untrusted",
			Severity: lint.Warning,
			Summary:  "an in-cluster cache, or a mirror the cluster's ingress serves, is reached over HTTPS and nothing gives the nodes a CA for it",
			Rationale: "CRI-O verifies a registry's certificate against the nodes' system trust plus the *.crt files of /etc/docker/certs.d/<host[:port]>/ " +
				"(c/image pkg/tlsclientconfig SetupCertificates, docker/docker_client.go dockerCertDir). MCO writes there the keys of the ConfigMap " +
				"image.config spec.additionalTrustedCA names (\"..\" in a key for \":\") and the internal registry's service CA, nothing else " +
				"(MCO pkg/operator/sync.go getImageRegistryBundles, pkg/daemon/certificate_writer.go; cluster-image-registry-operator " +
				"pkg/resource/imageregistryca.go; api config/v1 types_image.go additionalTrustedCA; docs \"Setting up additional trusted " +
				"certificate authorities for builds\", hostname[..port]). A Route without its own certificate is served with the default ingress " +
				"certificate, which the ingress operator signs with a CA it generates itself (cluster-ingress-operator " +
				"pkg/operator/controller/certificate/ca.go generateRouterCA, published as ca-bundle.crt of ConfigMap default-ingress-cert in " +
				"openshift-config-managed): no node trusts it unless it is configured. Then the in-cluster cache's check script (curl with the " +
				"CA CRI-O would use) never sees the cache answer, so the nodes never use the cache, and a mirror under the cluster's ingress " +
				"domain fails every pull. The warning is not given when the set cannot tell: a ConfigMap additionalTrustedCA names that is " +
				"kept outside the site or set, or a bundle for the nodes' system trust (install additionalTrustBundle, ConfigMap " +
				"openshift-config/user-ca-bundle, Proxy trustedCA), which may hold the CA.",
			Fix: "Give the CA that signed the cache's (or mirror's) certificate under its host[:port]: in a site, mirroring.additionalTrustedCA.certificates " +
				"(siteforge renders the ConfigMap and image.config additionalTrustedCA); in manifests, a key of the ConfigMap image.config " +
				"additionalTrustedCA names. If the certificate chains to a CA the nodes trust already (a public one), suppress with that reason.",
			Check: checkInClusterCA,
		},
		{
			ID:       "MIR026",
			Name:     "catalog-pull-failing-under-digest-only-mirrors",
			Severity: lint.Error,
			Summary:  "a running catalog's pod cannot pull its image: the CatalogSource pulls by tag through digest-only mirrors of a blocked source",
			Rationale: "OLM runs one pod per grpc CatalogSource, labelled olm.catalogSource (operator-lifecycle-manager pkg/controller/registry/reconciler), " +
				"pulling spec.image. An ImageDigestMirrorSet (or ImageContentSourcePolicy) mirrors digests only: MCO writes its mirrors with " +
				"pull-from-mirror = \"digest-only\" (docs \"Configuring image registry repository mirroring\"), and CRI-O skips them for a pull " +
				"by tag (containers/image sysregistriesv2). With the source blocked (mirrorSourcePolicy NeverContactSource, or blockedRegistries) " +
				"the tag pull has nowhere to go: the kubelet reports ErrImagePull, then ImagePullBackOff (kubelet pkg/kubelet/images), and the " +
				"catalog serves no operator. MIR001 states the cause at the CatalogSource; on a running cluster's state this rule reports the " +
				"pod the cluster shows failing, at its container status, when the registries.conf of the pod's node explains the failure: the " +
				"file its pool's nodes run (the rendered MachineConfig of the pool's status.configuration, as the state holds it), else the one " +
				"the cluster's own mirror objects render.",
			Fix: "Add an ImageTagMirrorSet for the source (oc-mirror v2 writes one for catalogs), or set the CatalogSource's spec.image to the " +
				"mirrored catalog by digest; when the mirror objects already serve it, let the node's pool update (MIR027).",
			Check: checkCatalogPullFailing,
		},
		{
			ID:       "MIR027",
			Name:     "pool-runs-older-registries-conf",
			Severity: lint.Warning,
			Summary:  "a pool's nodes run a registries.conf other than the one the cluster's mirror objects render (a paused pool, a rollout under way)",
			Rationale: "The nodes pull through the registries.conf of the rendered MachineConfig they run, not through the mirror objects: MCO's " +
				"container runtime config controller renders the mirror objects and image.config into MachineConfig 99-<role>-generated-registries " +
				"(machine-config-operator pkg/controller/container-runtime-config container_runtime_config_controller.go syncImageConfig), the render " +
				"controller merges it into a new rendered-<pool>-<hash> (pkg/controller/render render_controller.go), and the node controller gives " +
				"it to the pool's nodes, maxUnavailable at a time, and to none while the pool's spec.paused is true (pkg/controller/node " +
				"node_controller.go; docs \"Pausing the machine config pools\"); the daemon writes the file on each node (pkg/daemon/update.go), " +
				"and the pool's status.configuration names the rendered config once every node runs it (pkg/controller/node status.go " +
				"calculateStatus). Until then a mirror change does nothing on those nodes: a pull the new mirror objects serve still fails " +
				"there. On a running cluster's state this rule reads the registries.conf of the rendered config each pool's status.configuration " +
				"names and compares it with the one the cluster's mirror objects render (siteforge's reproduction of MCO, with the MachineConfigs " +
				"that write the file over MCO's), and says why they differ: the pool is paused, the new config is rolling out, the pool is " +
				"degraded, or MCO has not rendered it yet. An Insights archive holds no file contents: nothing is compared.",
			Fix: "Unpause the pool when its nodes may be updated (oc patch machineconfigpool <pool> --type=merge -p '{\"spec\":{\"paused\":false}}'), " +
				"or wait until it is Updated; a degraded pool updates once its degradation is fixed.",
			Check: checkPoolRegistriesConf,
		},
		{
			ID:       "MIR012",
			Name:     "registries-conf-machineconfig",
			Severity: lint.Warning,
			Summary:  "a MachineConfig writes /etc/containers/registries.conf or a registries.conf.d drop-in next to the mirror objects MCO renders",
			Rationale: "MCO writes /etc/containers/registries.conf itself (MachineConfig 99-<pool>-generated-registries) whenever an " +
				"ImageDigestMirrorSet, ImageTagMirrorSet, ImageContentSourcePolicy or insecure/blocked registry exists. MCO merges a pool's " +
				"MachineConfigs sorted by name and the last file at a path wins (MCO MergeMachineConfigs): a hand-written file either replaces " +
				"MCO's (the mirror objects silently stop applying) or is replaced by it. A registries.conf.d drop-in whose [[registry]] has the " +
				"prefix of one of MCO's tables replaces that table (MCO MergeMachineConfigs; c/image sysregistriesv2 drop-in merging).",
			Fix: "Express the mirrors as ImageDigestMirrorSet/ImageTagMirrorSet (4.13+) and delete the MachineConfig; before 4.13, render the " +
				"tag-mirroring MachineConfig with siteforge, which writes MCO's file plus the tag mirrors and sorts after MCO's.",
			Check: checkRegistriesMachineConfigs,
		},
		{
			ID:       "MIR013",
			Name:     "installer-tag-mirroring-lost",
			Severity: lint.Warning,
			Summary:  "tag mirroring configured in the registries.conf given to assisted-service (agent, ZTP), which carries only digest mirrors into the cluster",
			Rationale: "assisted-service reads the registries.conf of its mirror ConfigMap (key registries.conf, referenced by AgentServiceConfig, " +
				"AgentClusterInstall or InfraEnv mirrorRegistryRef) with openshift/assisted-service " +
				"pkg/mirrorregistries GetImageRegistries (parseMirrorRegistries): a mirror with pull-from-mirror = \"digest-only\" or no " +
				"pull-from-mirror becomes a digest mirror, \"tag-only\" a tag mirror, and any other value (\"all\") is dropped; the registry-level " +
				"mirror-by-digest-only is not read. Only the digest mirrors reach the install-config: internal/installcfg/builder/builder.go " +
				"setImageDigestMirrorSet (pkg/mirrorregistries ExtractLocationMirrorDataFromRegistriesFromToml for AgentServiceConfig's) writes them to imageDigestSources (imageContentSources before 4.14), from which the installer makes " +
				"the cluster's ImageDigestMirrorSet and a digest-only install-time registries.conf. The tag mirrors are written nowhere: no " +
				"ImageTagMirrorSet is created. The file reaches the discovery image as written (internal/ignition/discovery.go " +
				"setIgnitionMirrorRegistry), so tag pulls use the mirror during discovery only. A registries.conf in an InfraEnv " +
				"ignitionConfigOverride is merged into the discovery ignition only (FormatDiscoveryIgnitionFile) and reaches neither the " +
				"install-config nor the installed nodes. Tag pulls therefore miss these mirrors during and after the installation.",
			Fix: "Keep the installer's registries.conf digest-only (pull-from-mirror = \"digest-only\") and apply an ImageTagMirrorSet " +
				"(4.13+; a MachineConfig before 4.13) among the cluster's manifests (extra-manifests) or on day 2 for the repositories pulled by tag.",
			Check: checkInstallerRegistriesConf,
		},
		{
			ID:       "MIR020",
			Name:     "installer-registries-conf-invalid",
			Severity: lint.Error,
			Summary:  "a registries.conf the agent or assisted installer reads does not load, or (assisted-service) has no mirror",
			Rationale: "The agent installer reads mirror/registries.conf next to install-config.yaml (installer pkg/asset/agent/mirror/registriesconf.go) and " +
				"assisted-service the registries.conf key of the mirror registry ConfigMap (assisted-service internal/controller/controllers/mirrorregistry/mirror_registry_parser.go " +
				"RegistryConfKey, with ca-bundle.crt). The file is containers-registries.conf(5) TOML; siteforge loads it with containers/image " +
				"(sysregistriesv2 TryUpdatingCache), which CRI-O uses too, and reports what it refuses at the line it names. assisted-service also " +
				"refuses a file without any [[registry]] location that has [[registry.mirror]] entries: `failed to find any image mirrors in registry.conf` " +
				"(assisted-service pkg/mirrorregistries/parser.go GetImageRegistries).",
			Fix:   "Fix the TOML: [[registry]] tables with location = \"source\" and [[registry.mirror]] tables with location = \"mirror\".",
			Check: checkInstallerRegistriesConfLoads,
		},
		{
			ID:       "MIR014",
			Name:     "image-content-source-policy-deprecated",
			Severity: lint.Info,
			Summary:  "an ImageContentSourcePolicy on OpenShift 4.13 or later",
			Rationale: "ImageContentSourcePolicy is deprecated from 4.13, which introduced ImageDigestMirrorSet and ImageTagMirrorSet; an ICSP " +
				"can express neither tag mirroring nor mirrorSourcePolicy (api config/v1 ImageDigestMirrorSet and ImageTagMirrorSet; OCP 4.13 release notes). `oc adm migrate icsp` converts it.",
			Fix:   "Convert it: oc adm migrate icsp <file> --dest-dir <dir>, apply the ImageDigestMirrorSet, then delete the ICSP.",
			Check: checkDeprecatedICSP,
		},
		{
			ID:       "MIR015",
			Name:     "icsp-with-mirror-sets-before-coexistence",
			Severity: lint.Error,
			Summary:  "ImageContentSourcePolicy together with ImageDigestMirrorSet/ImageTagMirrorSet on 4.13 or 4.14",
			Rationale: "On 4.13 and 4.14 z-streams built before MCO's fix, an ICSP next to an IDMS or ITMS fails the whole MCO sync (`error: both " +
				"imagecontentsourcepolicy and imagedigestmirrorset exist`, or `... and imagetagmirrorset exist`; runtime-utils " +
				"RejectMultiUpdateMirrorSetObjs, called from MCO container-runtime-config syncImageConfig): no registries.conf is rendered at all. " +
				"MCO PR #3898 removed the check before 4.15 branched; the backports merged 2023-11-07 for 4.14 (PR #3995, OCPBUGS-22275) " +
				"and 2023-12-05 for 4.13 (PR #4027, OCPBUGS-23468).",
			Fix:   "Convert the ICSP (oc adm migrate icsp) and delete it, or run a z-stream built after the backport (then suppress with that reason).",
			Check: checkICSPWithMirrorSets,
		},
		{
			ID:       "MIR016",
			Name:     "mirror-sets-before-4-13",
			Severity: lint.Error,
			Summary:  "an ImageDigestMirrorSet or ImageTagMirrorSet for OpenShift before 4.13",
			Rationale: "ImageDigestMirrorSet and ImageTagMirrorSet first shipped in OpenShift 4.13 (api config/v1): " +
				"before, the API server has no such resource and MCO reads only ImageContentSourcePolicy, so the mirrors never reach the nodes.",
			Fix: "Use an ImageContentSourcePolicy for digest mirrors; tag mirroring before 4.13 needs a MachineConfig for registries.conf (siteforge " +
				"renders one from a site).",
			Check: checkMirrorSetsBefore413,
		},
		{
			ID:       "MIR017",
			Name:     "blocked-release-payload",
			Severity: lint.Error,
			Summary:  "blockedRegistries covers the release payload repository without an unblocked digest mirror for it",
			Rationale: "MCO refuses to block the repository of the release image unless an unblocked digest mirror serves it: it drops that " +
				"blocked entry and only logs `cannot block the repository being used by the payload` (MCO helpers.go " +
				"getValidBlockedAndAllowedRegistries), so the registry is NOT blocked. The payload's component images " +
				"(quay.io/openshift-release-dev/ocp-v4.0-art-dev, always pulled by digest) are not protected that way: blocking them without a " +
				"digest mirror fails every component pull. The release image is the site's cluster.releaseImage, or a ClusterVersion's or the ClusterImageSet's in the set, else " +
				"quay.io/openshift-release-dev/ocp-release; the check uses the registries engine's payload rule.",
			Fix: "Add an ImageDigestMirrorSet entry for quay.io/openshift-release-dev (or the payload repository) whose mirror is outside every " +
				"blocked scope, or narrow the blocked scope.",
			Check: checkBlockedPayload,
		},
		{
			ID:       "MIR018",
			Name:     "tag-mirroring-supply-chain",
			Severity: lint.Info,
			Summary:  "tag mirroring (ImageTagMirrorSet, pull-from-mirror tag-only/all) trades away the digest guarantee",
			Rationale: "A digest pull from a mirror is verified against the digest; a tag pull gets whatever the mirror serves under that tag, so " +
				"a stale or compromised mirror changes what runs (c/image: a tag resolves to whatever the mirror serves). Tag mirroring is often needed (operator catalogs " +
				"are pulled by tag); this note asks for a conscious decision.",
			Fix: "Pull by digest where you can. Acknowledge the rest with a suppression that says why: siteforge.dev/ignore-MIR018: \"<reason>\" " +
				"on the object, or lint.suppress in the site.",
			Check: checkTagMirroring,
		},
		{
			ID:       "MIR019",
			Name:     "insecure-mirror",
			Severity: lint.Warning,
			Summary:  "image.config insecureRegistries covers a mirror: TLS verification is off for it",
			Rationale: "MCO marks every mirror located inside an insecure scope `insecure = true` (runtime-utils EditRegistriesConfig): CRI-O then skips " +
				"certificate verification and may fall back to plain HTTP for it, sending the pull secret's credentials for that mirror and " +
				"accepting whatever answers. (Whether additionalTrustedCA holds the mirror's CA cannot be checked from the manifests.)",
			Fix: "Put the mirror's CA into image.config spec.additionalTrustedCA (ConfigMap in openshift-config, key host..port) and remove the " +
				"insecure entry.",
			Check: checkInsecureMirrors,
		},
	})
}
