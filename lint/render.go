package lint

import (
	"fmt"
	"strconv"

	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/ruleid"
)

// The render warnings (RND): what rendering a site warns about, each kind
// under its own ID (internal/ruleid), set by the generator that warns. They
// are engine rules: their findings are the site's render warnings (Site.
// Warnings), not a check over the objects. A render warning that is the same
// fact as a lint rule carries that rule's ID instead (MCF006 for
// ovs.flowIdleTimeoutMs, MIR021 for the installer's mirror objects), and
// that rule reports it on the rendered objects; where the rule's check does
// not see the fact in the set (MIR021: the installer's inputs are not the
// site's rendered objects), lint reports the warning.
//
// `siteforge render` honours the same suppressions (lint: suppress, a
// field's @lint(ignore=...)): a suppressed warning is neither printed nor an
// error under --strict.

// retired are rule IDs no longer reported, with what replaced them: a
// suppression naming one is reported (LNT003) with this text.
var retired = map[string]string{
	"INP005": "INP005 (render-warning), a retired rule: every render warning has its own rule ID now (RND001..., or the lint rule of the same fact), printed in brackets after the warning; suppress that ID",
	"RND009": "RND009 (hostnetwork-default-replicas-exceed-nodes), a retired rule: a HostNetwork router whose default replicas exceed the nodes it can run on is refused under ING006 (hostnetwork-replicas-exceed-nodes), as one whose replicas are written; suppress ING006",
	"RND003": "RND003 (installer-mirrors-conflict-after-install), a retired rule: the conflict of the installer's mirror objects with the site's day-2 ones is MIR021 (installer-mirrors-conflict-after-install), in render and in lint of the rendered folder alike; suppress MIR021",
}

// renderFindings are the findings of a site's render warnings, each under
// its rule ID when that rule is selected. A warning under the ID of a rule
// with a check (the same fact as a lint rule) is in checked: the rule
// reports the fact on the rendered objects, and the engine reports the
// warning only when the check found nothing in the set (MIR021 on a site:
// the installer's inputs are not among the rendered objects). A warning
// without a known ID is an internal error (generators.Context.Warn refuses
// one without an ID).
func (l *Linter) renderFindings(site string, warnings diag.List) (out, checked []Finding) {
	for _, w := range warnings {
		r := registry[w.Rule]
		if r == nil {
			panic("lint: render warning under unregistered rule " + strconv.Quote(w.Rule) + ": " + w.Message)
		}
		if !isSelected(l.selected, r.ID) {
			continue
		}
		if r.Check != nil {
			checked = append(checked, InputFinding(r.ID, site, w))
			continue
		}
		out = append(out, InputFinding(r.ID, site, w))
	}
	return out, checked
}

func init() {
	for _, r := range []*Rule{
		{ID: ruleid.ButaneTranslation, Name: "butane-translation-warning",
			Summary: "Butane warned while translating a MachineConfig (a machineConfigs butane, or one siteforge builds)",
			Rationale: "siteforge translates every MachineConfig with the Butane library, as `butane --strict` would; the translation report has " +
				"warnings for what Ignition accepts but is likely a mistake (coreos/butane translate report, and Ignition's validation: " +
				"coreos/ignition config/shared/errors errors.go NewNoInstallSectionError, \"unit is enabled, but has no install section so " +
				"enable does nothing\"). `butane --strict` fails on them, and so does `siteforge render --strict`. An unknown key, a " +
				"warning for Butane, is an error in siteforge.",
			Fix: "Change the Butane config as the warning says (for an enabled unit without an install section: add an [Install] section, " +
				"e.g. WantedBy=multi-user.target, or do not enable it). If the warned form is what you mean, suppress it on the field: " +
				"@lint(ignore=\"RND001\", reason=\"...\") (CUE), or lint: suppress with a reason."},
		{ID: ruleid.InstallInputIncomplete, Name: "install-input-incomplete",
			Summary: "a site to be installed (cluster.lifecycle install) does not say something the installer's input files need",
			Rationale: "install-config.yaml, agent-config.yaml or the ClusterInstance need fields the site may leave out while it is written " +
				"(hosts, their MACs and addresses, the rendezvous IP, the pool sizes): the installer refuses an input without them " +
				"(installer pkg/types/validation ValidateInstallConfig, pkg/asset/agent/agentconfig validation; stolostron/siteconfig " +
				"api/v1alpha1 clusterinstance_types.go). siteforge writes every other output and leaves out the installer's input files, " +
				"with a warning at the field that is missing.",
			Fix: "Give the site what the warning names; the installer's input files are then written. Suppress only while the site is " +
				"still being written, and not in a site an installation uses."},
		{ID: ruleid.MCOLogsRegistries, Name: "registries-conf-logged-problem",
			Summary: "MCO logs a problem with the site's mirroring and renders registries.conf without part of it",
			Rationale: "MCO's container-runtime-config controller drops some settings and only logs it: a blocked registry that covers the " +
				"release payload repository without an unblocked digest mirror is left out of the blocked list (machine-config-operator " +
				"pkg/controller/container-runtime-config helpers.go getValidBlockedRegistries, \"cannot block the repository being used by the " +
				"payload\"), and a failed payload check renders no blocked registries at all. The nodes then run with less than the site says.",
			Fix: "Change mirroring as the warning says (give the payload repository an unblocked digest mirror, or do not block it)."},
		{ID: ruleid.NeverContactSourceIgnored, Name: "never-contact-source-before-mirror-sets",
			Summary: fmt.Sprintf("mirrorSourcePolicy NeverContactSource on a release before %s, where it has no effect", platform.IDMSITMSSince),
			Rationale: fmt.Sprintf("Before %s the only digest mirror object is the ImageContentSourcePolicy, which has no policy (openshift/api "+
				"operator/v1alpha1 ImageContentSourcePolicy; ImageDigestMirrorSet/ImageTagMirrorSet and mirrorSourcePolicy from %s, api "+
				"config/v1): MCO renders it as AllowContactingSource, so the nodes still pull from the source when the mirrors fail.",
				platform.IDMSITMSSince, platform.IDMSITMSSince),
			Fix: "Accept that the source is contacted until the cluster runs a release with ImageDigestMirrorSet (render the site again " +
				"then), or block the source with mirroring.blockedRegistries. Suppress with that reason if you keep the policy for the upgrade."},
		{ID: ruleid.HubTrustBundleDropped, Name: "hub-install-drops-trust-bundle",
			Summary: "a hub installation (ClusterInstance) does not carry install.additionalTrustBundle",
			Rationale: "A ClusterInstance has no additionalTrustBundle field (stolostron/siteconfig api/v1alpha1 clusterinstance_types.go): " +
				"the siteconfig operator's templates do not pass one to the installation. assisted-service adds the CA of its mirror " +
				"configuration to every cluster it installs (openshift/assisted-service docs/operator.md \"Mirror Registry Configuration\"), " +
				"and an image-based installation takes one from spec.caBundleRef.",
			Fix: "Put the CA in the hub's mirror configuration (key ca-bundle.crt of the ConfigMap AgentServiceConfig spec.mirrorRegistryRef " +
				"names), or for image-based installs in the ConfigMap spec.caBundleRef names; then remove install.additionalTrustBundle " +
				"from the site, or suppress the warning with the reason that the hub carries the CA."},
		{ID: ruleid.SDNLiveMigrationUndocumented, Name: "sdn-live-migration-undocumented",
			Summary: fmt.Sprintf("a live OpenShift SDN to OVN-Kubernetes migration on %s, where CNO has it but the docs do not", platform.SDNLiveMigrationCodeSince),
			Rationale: fmt.Sprintf("CNO handles the live migration from %s (cluster-network-operator, network-type-migration annotation), "+
				"but the documentation supports it only from %s (OpenShift docs \"Limited live migration to OVN-Kubernetes\"): on %s it "+
				"is not a supported procedure.", platform.SDNLiveMigrationCodeSince, platform.SDNLiveMigrationDocumentedSince, platform.SDNLiveMigrationCodeSince),
			Fix: fmt.Sprintf("Upgrade to %s first, or use the offline migration (networkMigration.mode: offline).", platform.SDNLiveMigrationDocumentedSince)},
		{ID: ruleid.RouterSelectorMatchesNoPool, Name: "router-selector-matches-no-pool",
			Summary: "a shard's node selector matches no pool of the site",
			Rationale: "The ingress operator puts the selector on the router Deployment (cluster-ingress-operator pkg/operator/controller/ingress " +
				"deployment.go desiredRouterDeployment): the routers run only on nodes with those labels. No pool of the site carries them, " +
				"so the routers run on nodes the site does not describe, or stay Pending.",
			Fix: "Place the shard with pools: [...], or add the labels to the pools that should run it (pools.<pool>.labels)."},
		{ID: ruleid.RouterPortsIgnored, Name: "router-ports-ignored",
			Summary: "ports on a shard that is not published with HostNetwork",
			Rationale: "spec.endpointPublishingStrategy.hostNetwork.{httpPort,httpsPort,statsPort} exist only for the HostNetwork strategy " +
				"(openshift/api operator/v1 types_ingress.go HostNetworkStrategy): with another strategy the ports are not used.",
			Fix: "Remove ports, or publish the shard with HostNetwork."},
		{ID: ruleid.NoOperatorCatalog, Name: "no-operator-catalog",
			Summary: "a disconnected site disables OperatorHub's default sources and lists no catalog in their place",
			Rationale: "OperatorHub's default sources pull registry.redhat.io/redhat/<name>-index:v<minor> by tag, which a disconnected cluster cannot reach, so siteforge " +
				"sets OperatorHub cluster spec.disableAllDefaultSources: true (docs \"Using Operator Lifecycle Manager in disconnected environments\": " +
				"\"Disabling the default OperatorHub catalog sources\"). Without a CatalogSource of its own the cluster then has no operator catalog at all: " +
				"no Operator can be installed or updated.",
			Fix: "List the catalogs your mirrors serve: mirroring.defaultCatalogs (the default sources at the site's release, pulled through the mirrors) " +
				"or mirroring.catalogs with your own index images."},
	} {
		r.Severity = Warning
		r.Since = "v1alpha1"
		registry[r.ID] = r
	}
}
