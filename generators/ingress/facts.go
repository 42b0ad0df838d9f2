package ingress

// IngressController basics.
const (
	operatorNamespace     = "openshift-ingress-operator" // CIO DefaultOperatorNamespace: IngressControllers live there
	defaultControllerName = "default"                    // CIO: the controller the operator creates when missing
	// defaultManifestName is the file name the docs give the default
	// controller in the installer's manifests directory.
	defaultManifestName = "cluster-ingress-default-ingresscontroller.yaml" // docs "Configuring network components to run on the control plane"
	// appsDomainPrefix: the installer sets ingress.config spec.domain, the
	// default controller's domain, to apps.<cluster name>.<base domain>.
	appsDomainPrefix = "apps." // installer pkg/asset/manifests/ingress.go
)

// Domain limits, checked at admission (api operator/v1 IngressController).
const (
	maxDomainLength = 244 // api operator/v1 IngressControllerSpec.domain +kubebuilder:validation:MaxLength=244
	maxLabelLength  = 63  // api operator/v1 IngressControllerSpec.domain XValidation "each DNS label must not exceed 63 characters"
	// maxCanonicalHostLength bounds the router's canonical hostname
	// router-<name>.<domain>.
	maxCanonicalHostLength = 253       // api operator/v1 IngressController XValidation on 'router-' + metadata.name + '.' + spec.domain
	canonicalHostPrefix    = "router-" // CIO deployment.go ROUTER_CANONICAL_HOSTNAME
)

// Host ports of a HostNetwork router when the controller does not set them.
const (
	defaultHTTPPort  = 80   // api operator/v1 HostNetworkStrategy.httpPort default; CIO routerDefaultHostNetworkHTTPPort
	defaultHTTPSPort = 443  // api operator/v1 HostNetworkStrategy.httpsPort default
	defaultStatsPort = 1936 // api operator/v1 HostNetworkStrategy.statsPort default
)

// defaultReplicas is the replica count CIO gives a controller without
// spec.replicas on a highly available cluster.
const defaultReplicas = 2 // api operator/v1 IngressControllerSpec.replicas doc (1 or 2 by infrastructureTopology)

// Endpoint publishing strategies (schema #Shard.endpointPublishing, api
// operator/v1 EndpointPublishingStrategyType).
const (
	hostNetwork         = "HostNetwork"
	loadBalancerService = "LoadBalancerService"
	nodePortService     = "NodePortService"
	private             = "Private"
)

// loadBalancerPlatforms publish the default controller with a
// LoadBalancerService; every other platform with HostNetwork.
var loadBalancerPlatforms = map[string]bool{ // CIO controller.go setDefaultPublishingStrategy
	"aws": true, "azure": true, "gcp": true,
}

// dnsManagedPlatforms are where the operator creates the wildcard record of
// a LoadBalancerService controller (under the base domain only).
var dnsManagedPlatforms = map[string]bool{ // networking.md section 4 (CIO dns controller)
	"aws": true, "gcp": true,
}

// Messages of the upstream components, verbatim where they are quoted.
const (
	// cioInvalidNodeSelector is how CIO reports a node selector it cannot
	// turn into a pod nodeSelector; %v is apimachinery LabelSelectorAsMap's
	// error ("operator %q cannot be converted into the old label selector
	// format").
	cioInvalidNodeSelector = "failed to build router deployment: ingresscontroller %q has invalid spec.nodePlacement.nodeSelector: %v" // CIO deployment.go desiredRouterDeployment
	cioPortsNotUnique      = "the specified HTTPS, HTTP and Stats ports %d, %d, %d are not unique"                                     // CIO deployment.go desiredRouterDeployment
	canonicalHostMessage   = "The combined 'router-' + metadata.name + '.' + .spec.domain cannot exceed 253 characters"                // api operator/v1 IngressController XValidation
)

// Namespaces and keys the platform's own routes live under: a shard
// selecting on them would take (or make the default router drop) the
// console, oauth and canary routes.
var (
	platformNamespacePrefix = "openshift-"                  // console, oauth, canary, monitoring routes live in openshift-* namespaces
	namespaceNameLabel      = "kubernetes.io/metadata.name" // kube-apiserver NamespaceDefaultLabelName
	platformLabelPrefixes   = []string{"openshift.io/", "pod-security.kubernetes.io/", "security.openshift.io/"}
)

// Output paths (inside the site's output folder).
const (
	dir         = "ingress"
	defaultPath = dir + "/" + defaultManifestName
)

// PlatformRoute is one of the platform's own routes, which the default
// controller must keep serving.
type PlatformRoute struct {
	Namespace, Name string
	// Labels are the route's labels; its namespace carries only the
	// name label kubernetes.io/metadata.name as far as siteforge relies on.
	Labels map[string]string
}

// PlatformRoutes are the routes the cluster needs from the default router:
// the console, the OAuth server (every login) and the canary the ingress
// operator probes its own health with.
var PlatformRoutes = []PlatformRoute{
	{Namespace: "openshift-console", Name: "console", Labels: map[string]string{"app": "console"}},                                         // console-operator bindata route (labels app: console)
	{Namespace: "openshift-authentication", Name: "oauth-openshift", Labels: map[string]string{"app": "oauth-openshift"}},                  // cluster-authentication-operator bindata oauth-openshift route
	{Namespace: "openshift-ingress-canary", Name: "canary", Labels: map[string]string{"ingress.openshift.io/canary": "canary_controller"}}, // CIO canary controller route
}

// OperatorNamespace is where IngressControllers live; DefaultControllerName
// names the one the operator owns.
const (
	OperatorNamespace     = operatorNamespace
	DefaultControllerName = defaultControllerName
)

// hostNetworkPlatforms publish a controller without a strategy with
// HostNetwork (the on-prem platforms of the site schema).
var hostNetworkPlatforms = map[string]bool{ // CIO controller.go setDefaultPublishingStrategy (default branch)
	"baremetal": true, "vsphere": true, "openstack": true, "nutanix": true, "none": true,
}
