package mirroring

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"

	configv1 "github.com/openshift/api/config/v1"
	operatorv1alpha1 "github.com/openshift/api/operator/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/registries"
	"github.com/siteforge/siteforge/internal/ruleid"
	"github.com/siteforge/siteforge/internal/site"
	"github.com/siteforge/siteforge/internal/upstream"
)

// installTimeMirrors reports whether the site's installer is handed install-time mirrors, so
// the installer's own mirror objects (installerObjects) end up on the cluster: agent and AWS IPI
// installs (the install finisher writes install-config.yaml) and assisted installs (the
// install-config fragment below).
func installTimeMirrors(s *site.Site) bool {
	if s.Cluster.Lifecycle != site.LifecycleInstall {
		return false
	}
	switch s.Cluster.InstallMethod {
	case site.InstallAgent, site.InstallAssisted:
		return true
	case site.InstallIPI:
		return s.Cluster.Platform == site.PlatformAWS
	}
	return false
}

type installConfigMirrors struct {
	ImageDigestSources  []upstream.ImageDigestSource `json:"imageDigestSources,omitempty"`
	ImageContentSources []upstream.ImageDigestSource `json:"imageContentSources,omitempty"`
}

// installSources lists the digest entries as the installer takes them: digest mirroring only
// (the installer has no tag mirroring), the policy only where the installation writes it
// (platform.InstallerWritesSourcePolicy: never for an assisted install).
func installSources(s *site.Site, entries []entry, minor platform.OCPMinor) []upstream.ImageDigestSource {
	policy := installerPolicy(s, minor)
	var out []upstream.ImageDigestSource
	for _, e := range entries {
		if !e.digest {
			continue
		}
		src := upstream.ImageDigestSource{Source: e.source, Mirrors: append([]string(nil), e.mirrors...)}
		if policy {
			src.SourcePolicy = e.policy
		}
		out = append(out, src)
	}
	return withReleaseRepository(out, platform.InstallerReleaseRepository(s.Cluster.ReleaseImage))
}

// withReleaseRepository adds, when the release repository is mirrored only
// through a source covering it (quay.io/openshift-release-dev for
// quay.io/openshift-release-dev/ocp-release), an entry for the repository
// itself, with the same mirrors under the same path: the installer takes
// the release image's mirror only from a source equal to its repository
// (platform.InstallerReleaseRepository). CRI-O resolves both entries to the
// same mirror locations, so nothing else changes.
func withReleaseRepository(sources []upstream.ImageDigestSource, repo string) []upstream.ImageDigestSource {
	for _, src := range sources {
		if src.Source == repo {
			return sources
		}
	}
	best := -1
	for i, src := range sources {
		if strings.HasPrefix(repo, src.Source+"/") && (best < 0 || len(src.Source) > len(sources[best].Source)) {
			best = i
		}
	}
	if best < 0 {
		return sources
	}
	cover := sources[best]
	rest := strings.TrimPrefix(repo, cover.Source)
	exact := upstream.ImageDigestSource{Source: repo, SourcePolicy: cover.SourcePolicy}
	for _, m := range cover.Mirrors {
		exact.Mirrors = append(exact.Mirrors, m+rest)
	}
	out := append([]upstream.ImageDigestSource(nil), sources[:best+1]...)
	out = append(out, exact)
	return append(out, sources[best+1:]...)
}

// installerPolicy reports whether the site's installation writes the mirrors' source policy
// into the installer's image-digest-mirror set.
func installerPolicy(s *site.Site, minor platform.OCPMinor) bool {
	return platform.InstallerWritesSourcePolicy(s.Cluster.InstallMethod == site.InstallAssisted, minor)
}

// Install is the install-time mirror configuration of a site: the one place that computes it.
// The install finisher writes it into install-config.yaml (and the agent installer's
// mirror/registries.conf); the assisted fragment comes from it too.
type Install struct {
	// Field is the install-config field: "imageDigestSources", or "imageContentSources"
	// before platform.InstallerImageDigestSourcesSince.
	Field   string
	Sources []upstream.ImageDigestSource
	// RegistriesConf is the agent installer's registries.conf for these sources, without a
	// header.
	RegistriesConf []byte
	// Notes are sentences for the header of the file that carries the sources.
	Notes []string
	// AfterInstall are the steps to take once the cluster is installed (checkAfterInstall).
	AfterInstall []string
	// Day0Refused is why MCO's bootstrap would refuse the day-0 copies of the site's mirror
	// sets next to the installer's own mirror objects ("" when it accepts them). MCO's
	// bootstrap renders registries.conf from every mirror set among the install manifests and
	// fails the installation on an error (MCO pkg/controller/bootstrap/bootstrap.go Run ->
	// container-runtime-config RunImageBootstrap), so those copies must stay out of the
	// installer's manifests; the day-2 objects bring them after the installation.
	Day0Refused string
	// Day0Paths are the resource paths of the site's mirror sets (the day-2 objects whose
	// day-0 copies Day0Refused is about).
	Day0Paths []string
	// Origin is where the install-time mirrors come from in the site.
	Origin []diag.Position
}

// ForInstall computes the install-time mirrors of a site to be installed, nil when it has none.
func ForInstall(s *site.Site, minor platform.OCPMinor) (*Install, error) {
	if s.Mirroring == nil || s.Cluster.Lifecycle != site.LifecycleInstall {
		return nil, nil
	}
	entries, diags := collectEntries(s, minor)
	if len(diags) > 0 {
		return nil, diags
	}
	sources := installSources(s, entries, minor)
	if len(sources) == 0 {
		return nil, nil
	}
	legacy := minor < platform.IDMSITMSSince
	sets := buildMirrorSets(entries, legacy)
	img, _ := imageConfig(s)
	_, steps := checkAfterInstall(s, entries, engineInput(s, sets, img, minor), minor)

	in := &Install{Field: "imageDigestSources", Sources: sources, AfterInstall: steps}
	if minor < platform.InstallerImageDigestSourcesSince {
		in.Field = "imageContentSources"
	}
	for _, e := range entries {
		if e.digest {
			in.Origin = append(in.Origin, e.origin...)
		}
	}
	in.Origin = sortPositions(diag.Unique(append(in.Origin, s.Positions.Of("cluster.installMethod"))...))

	conf, err := agentRegistriesConf(sources, minor)
	if err != nil {
		return nil, err
	}
	in.RegistriesConf = conf

	if minor >= platform.InstallerImageDigestSourcesSince {
		in.Notes = append(in.Notes, fmt.Sprintf("The installer turns %s into ImageDigestMirrorSet %q.", in.Field, platform.InstallerDigestMirrorSetName))
	} else {
		in.Notes = append(in.Notes, fmt.Sprintf("The installer turns %s into ImageContentSourcePolicies %q.", in.Field, fmt.Sprintf(platform.InstallerContentSourcePolicyFormat, 0)+"..."))
	}
	if repo := platform.InstallerReleaseRepository(s.Cluster.ReleaseImage); !slices.ContainsFunc(entries, func(e entry) bool { return e.digest && e.source == repo }) &&
		slices.ContainsFunc(sources, func(src upstream.ImageDigestSource) bool { return src.Source == repo }) {
		in.Notes = append(in.Notes, fmt.Sprintf("%s has an entry of its own, with the mirrors of the source that covers it: the installer takes the release image's mirror only from a source equal to the release repository (installer pkg/asset/agent/mirror registriesconf.go GetMirrorFromRelease).", repo))
	}
	in.Notes = append(in.Notes, "Install-time mirroring is digest-only (the installer forces mirror-by-digest-only = true): tag references, operator catalogs among them, reach the mirrors only once the day-2 objects in mirroring/ are applied.")
	if !installerPolicy(s, minor) && hasNeverContactSource(entries) {
		if s.Cluster.InstallMethod == site.InstallAssisted {
			in.Notes = append(in.Notes, "assisted-service writes no sourcePolicy into imageDigestSources, whatever the release (openshift/assisted-service internal/installcfg/builder/builder.go setImageDigestMirrorSet): the nodes may contact the sources until the day-2 objects, with mirrorSourcePolicy NeverContactSource, are applied.")
		} else {
			in.Notes = append(in.Notes, fmt.Sprintf("The installer of OpenShift %s has no sourcePolicy: the nodes may contact the sources until the day-2 objects, with mirrorSourcePolicy NeverContactSource, are applied.", minor))
		}
	}

	// The day-0 copies of the site's mirror sets next to the installer's objects, as MCO's
	// bootstrap sees them.
	idms, icsps := installerObjects(sources, minor)
	day0 := registries.Input{ReleaseImage: s.Cluster.ReleaseImage, Minor: int(minor)}
	if sets.idms != nil {
		day0.DigestMirrorSets = append(day0.DigestMirrorSets, *sets.idms)
		in.Day0Paths = append(in.Day0Paths, resourcePath("ImageDigestMirrorSet", sets.idms.Name))
	}
	if sets.itms != nil {
		day0.TagMirrorSets = append(day0.TagMirrorSets, *sets.itms)
		in.Day0Paths = append(in.Day0Paths, resourcePath("ImageTagMirrorSet", sets.itms.Name))
	}
	if sets.icsp != nil {
		day0.ContentSourcePolicies = append(day0.ContentSourcePolicies, *sets.icsp)
		in.Day0Paths = append(in.Day0Paths, resourcePath("ImageContentSourcePolicy", sets.icsp.Name))
	}
	mixed := len(icsps) > 0 && (sets.idms != nil || sets.itms != nil)
	day0.DigestMirrorSets = append(day0.DigestMirrorSets, idms...)
	day0.ContentSourcePolicies = append(day0.ContentSourcePolicies, icsps...)
	if _, err := registries.Render(day0); err != nil {
		in.Day0Refused = err.Error()
	} else if mixed && minor < platform.ICSPWithMirrorSetsSince {
		in.Day0Refused = fmt.Sprintf("%s (4.13 z-streams built before MCO PR #4027)", platform.MCOErrICSPWithIDMS)
	}
	return in, nil
}

// installFiles renders the install-config fragment of an assisted install (merged into the
// installer's install-config through the AgentClusterInstall overrides). Agent and IPI installs
// get a whole install-config.yaml from the install finisher instead.
func installFiles(s *site.Site, in *Install, minor platform.OCPMinor) ([]generators.Artifact, error) {
	var frag installConfigMirrors
	if in.Field == "imageDigestSources" {
		frag.ImageDigestSources = in.Sources
	} else {
		frag.ImageContentSources = in.Sources
	}
	body, err := generators.MarshalYAML(frag)
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", installConfigMirrorsPath, err)
	}
	text := fmt.Sprintf("Install-time mirrors for the %s installer (OpenShift %s): merge %s into install-config.yaml.", s.Cluster.InstallMethod, minor, in.Field)
	text += " Assisted installer: pass it as install-config overrides (AgentClusterInstall annotation agent-install.openshift.io/install-config-overrides, as JSON) or through the API."
	for _, n := range in.Notes {
		text += " " + n
	}
	if s.Mirroring.AdditionalTrustedCA != nil {
		text += fmt.Sprintf(" Put the mirrors' CA into additionalTrustBundle (on day 2 it is ConfigMap %q in openshift-config).", s.Mirroring.AdditionalTrustedCA.ConfigMap)
	}
	var b bytes.Buffer
	b.WriteString(commentBlock(text))
	for _, step := range in.AfterInstall {
		b.WriteString(commentBlock("After the installation, " + step + "."))
	}
	b.Write(body)
	return []generators.Artifact{{Path: installConfigMirrorsPath, Role: generators.File, Data: b.Bytes(), Comment: "#", Origin: in.Origin}}, nil
}

func hasNeverContactSource(entries []entry) bool {
	for _, e := range entries {
		if e.digest && e.policy == string(configv1.NeverContactSource) {
			return true
		}
	}
	return false
}

// agentRegistriesConf is the registries.conf the agent installer generates: one table per
// source (sources merged in order, mirrors appended without duplicates), mirror-by-digest-only
// = true, blocked = true for NeverContactSource where the installer knows the policy.
// Mirrors installer pkg/asset/agent/mirror/registriesconf.go generateRegistriesConf and
// pkg/asset/ignition/bootstrap/registries.go MergedMirrorSets (keyed by source and policy).
func agentRegistriesConf(sources []upstream.ImageDigestSource, minor platform.OCPMinor) ([]byte, error) {
	type key struct{ source, policy string }
	var order []key
	merged := map[key][]string{}
	for _, src := range sources {
		k := key{src.Source, src.SourcePolicy}
		if _, ok := merged[k]; !ok {
			order = append(order, k)
			merged[k] = nil
		}
		for _, m := range src.Mirrors {
			if !contains(merged[k], m) {
				merged[k] = append(merged[k], m)
			}
		}
	}
	cfg := &registries.Config{UnqualifiedSearchRegistries: []string{}}
	for _, k := range order {
		if len(merged[k]) == 0 {
			continue
		}
		reg := registries.Registry{
			Location:           k.source,
			MirrorByDigestOnly: true,
			Blocked:            minor >= platform.InstallerSourcePolicySince && k.policy == string(configv1.NeverContactSource),
		}
		for _, m := range merged[k] {
			reg.Mirrors = append(reg.Mirrors, registries.Mirror{Location: m})
		}
		cfg.Registries = append(cfg.Registries, reg)
	}
	return cfg.TOML()
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// installerObjects are the mirror objects the installer leaves on the cluster.
func installerObjects(sources []upstream.ImageDigestSource, minor platform.OCPMinor) (idms []configv1.ImageDigestMirrorSet, icsps []operatorv1alpha1.ImageContentSourcePolicy) {
	if len(sources) == 0 {
		return nil, nil
	}
	if minor >= platform.InstallerImageDigestSourcesSince {
		obj := configv1.ImageDigestMirrorSet{ObjectMeta: metav1.ObjectMeta{Name: platform.InstallerDigestMirrorSetName}}
		for _, src := range sources {
			obj.Spec.ImageDigestMirrors = append(obj.Spec.ImageDigestMirrors, configv1.ImageDigestMirrors{
				Source: src.Source, Mirrors: imageMirrors(src.Mirrors), MirrorSourcePolicy: configv1.MirrorSourcePolicy(src.SourcePolicy)})
		}
		return []configv1.ImageDigestMirrorSet{obj}, nil
	}
	for i, src := range sources {
		icsps = append(icsps, operatorv1alpha1.ImageContentSourcePolicy{
			ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf(platform.InstallerContentSourcePolicyFormat, i)},
			Spec: operatorv1alpha1.ImageContentSourcePolicySpec{RepositoryDigestMirrors: []operatorv1alpha1.RepositoryDigestMirrors{
				{Source: src.Source, Mirrors: append([]string(nil), src.Mirrors...)}}},
		})
	}
	return nil, icsps
}

// checkAfterInstall renders registries.conf for the cluster as the installer leaves it plus the
// day-2 objects. It returns a warning, and the step that avoids it, for each way that cluster
// would not get the file the site describes: MCO refusing the combination (a policy conflict
// with the installer's policy-less objects), or a 4.13 cluster mixing the installer's ICSPs with
// IDMS/ITMS.
func checkAfterInstall(s *site.Site, entries []entry, in registries.Input, minor platform.OCPMinor) (warnings diag.List, steps []string) {
	idms, icsps := installerObjects(installSources(s, entries, minor), minor)
	if len(idms) == 0 && len(icsps) == 0 {
		return nil, nil
	}
	installerICSPs := fmt.Sprintf(platform.InstallerContentSourcePolicyFormat, 0) + "..."
	dayTwo := len(in.DigestMirrorSets) > 0 || len(in.TagMirrorSets) > 0
	if len(icsps) > 0 && dayTwo && minor < platform.ICSPWithMirrorSetsSince {
		step := fmt.Sprintf("delete the installer's ImageContentSourcePolicies %s (ImageDigestMirrorSet %s carries the same mirrors), or install a 4.13 z-stream built after MCO's fix (merged 2023-12-05, MCO PR #4027)", installerICSPs, digestMirrorSetName)
		warnings = append(warnings, diag.Diagnostic{Pos: s.Positions.Of("cluster.version"), Path: "cluster.version",
			Message: fmt.Sprintf("the %s installer of OpenShift %s creates ImageContentSourcePolicies (%s) and siteforge adds ImageDigestMirrorSet/ImageTagMirrorSet objects: 4.13 z-streams built before MCO's fix (merged 2023-12-05, MCO PR #4027) refuse both kinds at once (%q) and render no registries.conf",
				s.Cluster.InstallMethod, minor, installerICSPs, platform.MCOErrICSPWithIDMS),
			Hint: afterInstallHint(step, minor)})
		steps = append(steps, step)
	}
	after := in
	after.DigestMirrorSets = append(append([]configv1.ImageDigestMirrorSet(nil), in.DigestMirrorSets...), idms...)
	after.ContentSourcePolicies = append(append([]operatorv1alpha1.ImageContentSourcePolicy(nil), in.ContentSourcePolicies...), icsps...)
	_, err := registries.Render(after)
	if err == nil {
		return warnings, steps
	}
	path := "cluster.installMethod"
	if errors.Is(err, registries.ErrConflictingMirrorSourcePolicy) {
		for _, d := range engineDiagnostics(s, entries, err) {
			path = d.Path
		}
	}
	kind, name := "ImageDigestMirrorSet", platform.InstallerDigestMirrorSetName
	if len(icsps) > 0 {
		kind, name = "ImageContentSourcePolicies", installerICSPs
	}
	step := fmt.Sprintf("delete %s %s: the day-2 objects carry the same mirrors with the site's policy", kind, name)
	warnings = append(warnings, diag.Diagnostic{Pos: s.Positions.Of(path), Path: path,
		Message: fmt.Sprintf("after the %s installation, MCO refuses the installer's %s %s together with the day-2 mirror objects, and the nodes keep the install-time registries.conf: %v",
			s.Cluster.InstallMethod, kind, name, err),
		Hint: afterInstallHint(step, minor)})
	return warnings, append(steps, step)
}

// afterInstallHint is the hint of a MIR021 warning (ruleid.InstallerMirrorsConflict): the step that fixes the
// cluster, and how the warning is cleared once the user runs it (the site
// cannot avoid the installer's policy-less objects before
// platform.InstallerSourcePolicySince).
func afterInstallHint(step string, minor platform.OCPMinor) string {
	h := "after the installation, " + step + ". "
	if minor < platform.InstallerSourcePolicySince {
		h += fmt.Sprintf("The site cannot avoid it on %s (the installer writes its mirror objects without a policy before %s): ", minor, platform.InstallerSourcePolicySince)
	}
	return h + fmt.Sprintf("once you run that step, suppress %s with a reason saying so (siteforge explain %s)", ruleid.InstallerMirrorsConflict, ruleid.InstallerMirrorsConflict)
}
