package rules

import (
	"fmt"

	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/lint"
)

// ---------------------------------------------------------------- MTU012

// checkInstallerClusterMTU applies the installer's own validation of
// install-config networking.clusterNetworkMTU (openshift/installer
// pkg/types/validation/installconfig.go validateNetworkingClusterNetworkMTU),
// reproduced by platform.InstallerClusterMTUError. The network type is the
// converted and defaulted one, as the installer validates it.
func checkInstallerClusterMTU(set lint.Set, r *lint.Reporter) {
	if set.Site != nil {
		return // a site's install-config carries no clusterNetworkMTU: the cluster MTU goes into the operator Network manifest
	}
	for _, ic := range readNetSet(set).installs {
		mtu := ic.Networking.ClusterNetworkMTU
		if ic.Platform == "" {
			continue // no single platform section: the installer refuses the file for that first
		}
		msg := platform.InstallerClusterMTUError(ic.Platform, ic.NetworkType(), mtu)
		if msg == "" {
			continue
		}
		r.Object(ic.Obj, fmt.Sprintf("networking.clusterNetworkMTU %d: the installer refuses it (%q); %s",
			mtu, msg, installerMTUFix(ic.Platform, ic.NetworkType())), "networking", "clusterNetworkMTU")
	}
}

// installerMTUFix says what to do instead, by the reason.
func installerMTUFix(platformKey, networkType string) string {
	switch {
	case platformKey != platform.InstallerClusterMTUPlatform:
		return fmt.Sprintf("remove it and set the MTU in the operator Network manifest (manifests/%s, ovnKubernetesConfig.mtu)", platform.InstallerNetworkManifestName)
	case networkType != platform.OVNKubernetes:
		return fmt.Sprintf("it is only valid with networkType %s", platform.OVNKubernetes)
	}
	return fmt.Sprintf("use %d..%d with %s", platform.InstallerClusterMTUMin, platform.InstallerClusterMTUMaxOVN, platform.OVNKubernetes)
}
