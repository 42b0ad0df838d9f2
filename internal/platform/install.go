package platform

// Day0Kinds are the kinds of day-2 objects a site to be installed also
// hands the installer, so the cluster comes up with them instead of
// rebooting every node for them right after the installation: the docs
// "Installing a cluster with customizations" / "Customizing nodes"
// ("Adding day-1 kernel arguments": MachineConfigs in <installation_directory>/openshift),
// "Configuring image registry repository mirroring" (mirror sets), and
// "Ingress sharding" (IngressControllers created at install). The same bytes
// are applied again on day 2 (Argo CD), which changes nothing.
var Day0Kinds = map[[2]string]bool{
	{"machineconfiguration.openshift.io/v1", "MachineConfig"}:      true,
	{"config.openshift.io/v1", "ImageDigestMirrorSet"}:             true,
	{"config.openshift.io/v1", "ImageTagMirrorSet"}:                true,
	{"operator.openshift.io/v1alpha1", "ImageContentSourcePolicy"}: true,
	{"operator.openshift.io/v1", "IngressController"}:              true,
}

// Day0Kind reports whether objects of apiVersion and kind are applied at
// installation as well (Day0Kinds).
func Day0Kind(apiVersion, kind string) bool { return Day0Kinds[[2]string{apiVersion, kind}] }
