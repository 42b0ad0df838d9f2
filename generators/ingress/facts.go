package ingress

// defaultManifestName is the file name the docs give the default controller
// in the installer's manifests directory.
const defaultManifestName = "cluster-ingress-default-ingresscontroller.yaml" // docs "Configuring network components to run on the control plane"

// Output paths (inside the site's output folder).
const (
	dir         = "ingress"
	defaultPath = dir + "/" + defaultManifestName
)
