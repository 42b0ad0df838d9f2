// Package install is the finisher that turns a site with lifecycle
// "install" into its installer's inputs: it places the day-0 manifests
// (generators.Output.Day0) where the installer reads them.
package install

import (
	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/internal/site"
)

// Name names the finisher in file headers.
const Name = "install"

// Finish places the day-0 manifests of an agent, IPI or UPI install.
// Hub installs (a ClusterInstance) are the hub finisher's.
func Finish(ctx *generators.Context, s *site.Site, out *generators.Output) ([]generators.Artifact, error) {
	if s.Cluster.Lifecycle != site.LifecycleInstall || s.HubInstalled() || len(out.Day0) == 0 {
		return nil, nil
	}
	dir := Day0Dir(s)
	var arts []generators.Artifact
	for _, name := range out.Day0Names() {
		m := out.Day0[name]
		arts = append(arts, generators.Artifact{Path: dir + "/" + name, Role: generators.File, Data: m.Data, Origin: m.Origin})
	}
	return arts, nil
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
