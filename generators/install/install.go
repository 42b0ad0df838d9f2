// Package install is the finisher that turns a site with lifecycle
// "install" into its installer's inputs: install-config.yaml and
// agent-config.yaml for the agent installer, install-config.yaml for an AWS
// IPI install, and the day-0 manifests (generators.Output.Day0) where the
// installer reads them.
package install

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/generators/mirroring"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/ruleid"
	"github.com/siteforge/siteforge/internal/site"
	"github.com/siteforge/siteforge/internal/upstream"
)

// Name names the finisher in file headers.
const Name = "install"

// Output paths, relative to the site's output folder. The install/ folder is
// the installer's assets directory: copy it, add the pull secret, run
// openshift-install there.
const (
	InstallConfigPath       = "install/" + platform.InstallConfigFile
	AgentConfigPath         = "install/" + platform.AgentConfigFile
	AgentRegistriesConfPath = "install/" + platform.AgentRegistriesConfAssetPath
)

// CompletionCommand completes install-config.yaml with the pull secret,
// outside the render tree (docs/install.md).
const CompletionCommand = "siteforge install-config"

// Finish writes the installer's inputs of an agent, IPI or UPI install and
// places its day-0 manifests. Hub installs (a ClusterInstance) are the hub
// finisher's.
func Finish(ctx *generators.Context, s *site.Site, out *generators.Output) ([]generators.Artifact, error) {
	if s.Cluster.Lifecycle != site.LifecycleInstall || s.HubInstalled() {
		return nil, nil
	}
	f := &finish{}
	switch {
	case s.Cluster.InstallMethod == site.InstallAgent:
		if err := f.agent(ctx, s); err != nil {
			return nil, err
		}
	case s.Cluster.InstallMethod == site.InstallIPI && s.Cluster.Platform == site.PlatformAWS:
		if err := f.awsIPI(ctx, s); err != nil {
			return nil, err
		}
	}
	// IPI on other platforms and UPI: the day-0 manifests only. A bare-metal
	// IPI install-config carries the BMC passwords, which siteforge never
	// writes (docs/install.md).
	arts := f.arts
	arts = append(arts, f.day0(s, out)...)
	return arts, nil
}

// finish collects what the finisher writes for one site.
type finish struct {
	arts []generators.Artifact
	// mirrors are the install-time mirrors (nil: none).
	mirrors *mirroring.Install
	// skipDay0 are day-0 manifest names left out of the installer's manifests,
	// with why.
	skipDay0 map[string]string
}

// day0 places the day-0 manifests where the installer reads them, but for
// those skipDay0 names and the day-0 copies of mirror sets MCO's bootstrap
// would refuse next to the installer's own mirror objects.
func (f *finish) day0(s *site.Site, out *generators.Output) []generators.Artifact {
	refused := map[string]bool{}
	if f.mirrors != nil && f.mirrors.Day0Refused != "" {
		for _, p := range f.mirrors.Day0Paths {
			refused[p] = true
		}
	}
	dir := Day0Dir(s)
	var arts []generators.Artifact
	for _, name := range out.Day0Names() {
		m := out.Day0[name]
		if refused[m.Resource] || f.skipDay0[name] != "" {
			continue
		}
		arts = append(arts, generators.Artifact{Path: dir + "/" + name, Role: generators.File, Data: m.Data, Origin: m.Origin})
	}
	return arts
}

// Day0Dir is the output folder of the day-0 manifests: the agent installer
// reads extra manifests from <assets_directory>/openshift (docs "Installing
// an OpenShift Container Platform cluster with the Agent-based Installer":
// "Optional: Creating additional manifest files", openshift/installer
// pkg/asset/agent/manifests extramanifests.go), the other installers from
// <installation_directory>/manifests after `openshift-install create
// manifests` (docs "Installing a cluster with customizations").
func Day0Dir(s *site.Site) string {
	if s.Cluster.InstallMethod == site.InstallAgent {
		return "install/openshift"
	}
	return "install/manifests"
}

// networking is install-config networking from the site's network.
func networking(s *site.Site) *upstream.Networking {
	n := &upstream.Networking{NetworkType: s.Network.Type, ServiceNetwork: append([]string(nil), s.Network.ServiceNetwork...)}
	for _, c := range s.Network.MachineNetwork {
		n.MachineNetwork = append(n.MachineNetwork, upstream.MachineNetworkEntry{CIDR: c})
	}
	for _, c := range s.Network.ClusterNetwork {
		n.ClusterNetwork = append(n.ClusterNetwork, upstream.ClusterNetworkEntry{CIDR: c.CIDR, HostPrefix: int32(c.HostPrefix)})
	}
	return n
}

// common fills what every install-config siteforge writes shares: identity,
// networks, SSH key, trust bundle and the install-time mirrors. It returns
// the header sentences about them.
func (f *finish) common(ctx *generators.Context, s *site.Site, ic *upstream.InstallConfig) ([]string, error) {
	ic.APIVersion = platform.InstallConfigAPIVersion
	ic.Metadata.Name = s.Cluster.Name
	ic.BaseDomain = s.Cluster.BaseDomain
	ic.Networking = networking(s)
	var notes []string
	if s.Install != nil {
		ic.SSHKey = s.Install.SSHKey
		ic.AdditionalTrustBundle = s.Install.AdditionalTrustBundle
		// shared with the ClusterInstance (generators/hub): installer
		// pkg/types/installconfig.go InstallConfig CPUPartitioning, Proxy
		ic.CPUPartitioning = s.Install.CPUPartitioningMode
		if p := s.Install.Proxy; p != nil {
			proxy := *p
			ic.Proxy = &proxy
		}
	}
	in, err := mirroring.ForInstall(s, ctx.Minor)
	if err != nil {
		return nil, err
	}
	f.mirrors = in
	if in != nil {
		if in.Field == "imageDigestSources" {
			ic.ImageDigestSources = in.Sources
		} else {
			ic.ImageContentSources = in.Sources
		}
		notes = append(notes, fmt.Sprintf("%s: the site's digest mirrors (mirroring).", in.Field))
		notes = append(notes, in.Notes...)
		if in.Day0Refused != "" {
			notes = append(notes, fmt.Sprintf("The day-0 copies of %s are left out of %s: MCO's bootstrap would refuse them next to the installer's own mirror objects (%s) and fail the installation (MCO pkg/controller/bootstrap bootstrap.go Run, container-runtime-config RunImageBootstrap). The day-2 objects apply them after the installation.",
				strings.Join(in.Day0Paths, ", "), Day0Dir(s), in.Day0Refused))
		}
		for _, step := range in.AfterInstall {
			notes = append(notes, "After the installation, "+step+".")
		}
	}
	switch {
	case ic.AdditionalTrustBundle != "":
		notes = append(notes, fmt.Sprintf("additionalTrustBundle: install.additionalTrustBundle. The installer stores it as ConfigMap %s in openshift-config and MCO puts it on every node, so CRI-O trusts the mirrors from the first boot; additionalTrustBundlePolicy stays the installer's default (Proxyonly): without a proxy it only decides whether the cluster Proxy's trustedCA names the bundle too (installer pkg/asset/manifests proxy.go).", platform.AdditionalTrustBundleConfigMap))
		if s.Cluster.InstallMethod == site.InstallAgent {
			notes = append(notes, fmt.Sprintf("The agent installer writes it to %s itself (installer pkg/asset/agent/mirror cabundle.go).", platform.AgentCABundleAssetPath))
		}
	case in != nil:
		notes = append(notes, "No additionalTrustBundle: install.additionalTrustBundle is not set. If the mirrors' certificate is not signed by a CA RHCOS trusts, the installation cannot pull from them: put the CA certificate (PEM) in install.additionalTrustBundle.")
	}
	return notes, nil
}

// warnIncomplete reports what a site to be installed does not say yet, as
// warnings at the user's fields (errors under --strict): the installer input
// files are then not written, and everything else is.
func warnIncomplete(ctx *generators.Context, missing diag.List, files string) {
	for _, d := range missing.Sort() {
		d.Message += "; " + files + " are not written until the site says it"
		ctx.Warn(ruleid.InstallInputIncomplete, d)
	}
}

// poolSize is a pool's node count, or a positioned error when the site does
// not say it.
func poolSize(s *site.Site, name string) (int, *diag.Diagnostic) {
	p := s.Pools[name]
	if n := p.Size(); n >= 0 {
		return n, nil
	}
	d := s.At(site.FieldPath("pools", name), fmt.Sprintf("the installer needs the number of nodes of pool %s", name),
		"list the pool's nodes, or set count")
	return 0, &d
}

// encode renders a YAML file with its header: the sentences wrapped as
// comments, then the body.
func encode(v any, header []string) ([]byte, error) {
	body, err := generators.MarshalYAML(v)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	for _, h := range header {
		b.WriteString(generators.CommentBlock(h))
	}
	b.Write(body)
	return b.Bytes(), nil
}

// pullSecretNote is the header sentence about the pull secret.
func pullSecretNote() string {
	return fmt.Sprintf("pullSecret is left out on purpose: siteforge never reads or writes a pull secret. Complete the file outside the git work tree with `%s` (docs/install.md), which adds it to a copy with mode 0600.", CompletionCommand)
}

func int64p(n int) *int64 { v := int64(n); return &v }

// origins gathers the positions of fields, for an artifact's origin.
func origins(s *site.Site, paths ...string) []diag.Position {
	var out []diag.Position
	for _, p := range paths {
		out = append(out, s.Positions.Of(p))
	}
	out = diag.Unique(out...)
	slices.SortStableFunc(out, diag.Position.Compare)
	return out
}
