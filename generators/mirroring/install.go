package mirroring

import (
	"bytes"
	"errors"
	"fmt"

	configv1 "github.com/openshift/api/config/v1"
	operatorv1alpha1 "github.com/openshift/api/operator/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/registries"
	"github.com/siteforge/siteforge/internal/site"
)

// installTimeMirrors reports whether the site gets install-time mirror files.
func installTimeMirrors(s *site.Site) bool {
	m := s.Cluster.InstallMethod
	return (m == site.InstallAgent || m == site.InstallAssisted) && s.Cluster.Lifecycle == site.LifecycleInstall
}

// installSource is one install-config imageDigestSources / imageContentSources entry.
// // installer pkg/types/installconfig.go ImageDigestSource, ImageContentSource
type installSource struct {
	Source       string   `json:"source"`
	Mirrors      []string `json:"mirrors,omitempty"`
	SourcePolicy string   `json:"sourcePolicy,omitempty"`
}

type installConfigMirrors struct {
	ImageDigestSources  []installSource `json:"imageDigestSources,omitempty"`
	ImageContentSources []installSource `json:"imageContentSources,omitempty"`
}

// installSources lists the digest entries as the installer takes them: digest mirroring only
// (the installer has no tag mirroring), the policy only where the installer knows the field.
func installSources(entries []entry, minor platform.OCPMinor) []installSource {
	var out []installSource
	for _, e := range entries {
		if !e.digest {
			continue
		}
		src := installSource{Source: e.source, Mirrors: append([]string(nil), e.mirrors...)}
		if minor >= platform.InstallerSourcePolicySince {
			src.SourcePolicy = e.policy
		}
		out = append(out, src)
	}
	return out
}

// installFiles renders the install-time mirror configuration of an agent or assisted install:
// the install-config fragment and, for the agent installer, its registries.conf.
func installFiles(s *site.Site, entries []entry, minor platform.OCPMinor, afterInstall []string) ([]generators.Artifact, error) {
	sources := installSources(entries, minor)
	if len(sources) == 0 {
		return nil, nil
	}
	var origin []diag.Position
	for _, e := range entries {
		if e.digest {
			origin = append(origin, e.origin...)
		}
	}
	origin = diag.Unique(append(origin, s.Positions.Of("cluster.installMethod"))...)

	var frag installConfigMirrors
	field := "imageDigestSources"
	if minor >= platform.InstallerImageDigestSourcesSince {
		frag.ImageDigestSources = sources
	} else {
		field = "imageContentSources"
		frag.ImageContentSources = sources
	}
	body, err := yaml.Marshal(frag)
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", installConfigMirrorsPath, err)
	}
	text := fmt.Sprintf("Install-time mirrors for the %s installer (OpenShift %s): merge %s into install-config.yaml.", s.Cluster.InstallMethod, minor, field)
	if s.Cluster.InstallMethod == site.InstallAssisted {
		text += " Assisted installer: pass it as install-config overrides (AgentClusterInstall annotation agent-install.openshift.io/install-config-overrides, as JSON) or through the API."
	}
	if minor >= platform.InstallerImageDigestSourcesSince {
		text += fmt.Sprintf(" The installer turns it into ImageDigestMirrorSet %q.", platform.InstallerDigestMirrorSetName)
	} else {
		text += fmt.Sprintf(" The installer turns it into ImageContentSourcePolicies %q.", fmt.Sprintf(platform.InstallerContentSourcePolicyFormat, 0)+"...")
	}
	text += " Install-time mirroring is digest-only (the installer forces mirror-by-digest-only = true): tag references, operator catalogs among them, reach the mirrors only once the day-2 objects in mirroring/ are applied."
	if minor < platform.InstallerSourcePolicySince && hasNeverContactSource(entries) {
		text += fmt.Sprintf(" The installer of OpenShift %s has no sourcePolicy: the nodes may contact the sources until the day-2 objects, with mirrorSourcePolicy NeverContactSource, are applied.", minor)
	}
	if s.Mirroring.AdditionalTrustedCA != nil {
		text += fmt.Sprintf(" Put the mirrors' CA into additionalTrustBundle (on day 2 it is ConfigMap %q in openshift-config).", s.Mirroring.AdditionalTrustedCA.ConfigMap)
	}
	var b bytes.Buffer
	b.WriteString(commentBlock(text))
	for _, step := range afterInstall {
		b.WriteString(commentBlock("After the installation, " + step + "."))
	}
	b.Write(body)
	arts := []generators.Artifact{{Path: installConfigMirrorsPath, Role: generators.File, Data: b.Bytes(), Comment: "#", Origin: origin}}

	if s.Cluster.InstallMethod == site.InstallAgent {
		conf, err := agentRegistriesConf(sources, minor)
		if err != nil {
			return nil, err
		}
		var c bytes.Buffer
		c.WriteString(commentBlock(fmt.Sprintf("The agent installer's registries.conf (OpenShift %s): what `openshift-install agent create image` generates from install-config %s. To supply it yourself, copy it to %s in the assets directory. Digest-only on purpose: the agent installer writes nothing else, and tag mirroring set here would not survive the installation.",
			minor, field, platform.AgentRegistriesConfAssetPath)))
		c.Write(conf)
		arts = append(arts, generators.Artifact{Path: agentRegistriesConfPath, Role: generators.File, Data: c.Bytes(), Comment: "#", Origin: origin})
	}
	return arts, nil
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
func agentRegistriesConf(sources []installSource, minor platform.OCPMinor) ([]byte, error) {
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
func installerObjects(sources []installSource, minor platform.OCPMinor) (idms []configv1.ImageDigestMirrorSet, icsps []operatorv1alpha1.ImageContentSourcePolicy) {
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
	idms, icsps := installerObjects(installSources(entries, minor), minor)
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
			Hint: "after the installation, " + step})
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
		Hint: "after the installation, " + step})
	return warnings, append(steps, step)
}
