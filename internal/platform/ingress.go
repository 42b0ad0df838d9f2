package platform

// Ingress facts: the IngressController API (operator.openshift.io/v1) and
// what the cluster-ingress-operator (CIO) does with it.

// IngressController basics.
const (
	IngressOperatorNamespace     = "openshift-ingress-operator" // CIO DefaultOperatorNamespace: IngressControllers live there
	IngressDefaultControllerName = "default"                    // CIO: the controller the operator creates when missing
	// IngressAppsDomainPrefix: the installer sets ingress.config
	// spec.domain, the default controller's domain, to apps.<cluster
	// name>.<base domain>.
	IngressAppsDomainPrefix = "apps." // installer pkg/asset/manifests/ingress.go
)

// Domain limits, checked at admission (api operator/v1 IngressController).
const (
	IngressMaxDomainLength = 244 // api operator/v1 IngressControllerSpec.domain +kubebuilder:validation:MaxLength=244
	IngressMaxLabelLength  = 63  // api operator/v1 IngressControllerSpec.domain XValidation "each DNS label must not exceed 63 characters"
	// IngressMaxCanonicalHostLength bounds the router's canonical hostname
	// router-<name>.<domain>.
	IngressMaxCanonicalHostLength = 253       // api operator/v1 IngressController XValidation on 'router-' + metadata.name + '.' + spec.domain
	IngressCanonicalHostPrefix    = "router-" // CIO deployment.go ROUTER_CANONICAL_HOSTNAME
)

// Host ports of a HostNetwork router when the controller does not set them.
const (
	RouterDefaultHTTPPort  = 80   // api operator/v1 HostNetworkStrategy.httpPort default; CIO routerDefaultHostNetworkHTTPPort
	RouterDefaultHTTPSPort = 443  // api operator/v1 HostNetworkStrategy.httpsPort default
	RouterDefaultStatsPort = 1936 // api operator/v1 HostNetworkStrategy.statsPort default
)

// IngressDefaultReplicas is the replica count CIO gives a controller
// without spec.replicas on a highly available cluster (1 on a single-node
// one).
const IngressDefaultReplicas = 2 // api operator/v1 IngressControllerSpec.replicas doc (1 or 2 by infrastructureTopology)

// Endpoint publishing strategies (api operator/v1
// EndpointPublishingStrategyType; schema #Shard.endpointPublishing).
const (
	PublishingHostNetwork         = "HostNetwork"
	PublishingLoadBalancerService = "LoadBalancerService"
	PublishingNodePortService     = "NodePortService"
	PublishingPrivate             = "Private"
)

// ingressLoadBalancerPlatforms publish the default controller with a
// LoadBalancerService; the on-prem ones with HostNetwork.
var (
	ingressLoadBalancerPlatforms = map[string]bool{ // CIO controller.go setDefaultPublishingStrategy
		"aws": true, "azure": true, "gcp": true,
	}
	ingressHostNetworkPlatforms = map[string]bool{ // CIO controller.go setDefaultPublishingStrategy (default branch)
		"baremetal": true, "vsphere": true, "openstack": true, "nutanix": true, "none": true,
	}
	// ingressDNSManagedPlatforms are where the operator creates the
	// wildcard record of a LoadBalancerService controller (under the base
	// domain only).
	ingressDNSManagedPlatforms = map[string]bool{ // CIO pkg/operator/controller/dns (providers: AWS Route 53, GCP Cloud DNS)
		"aws": true, "gcp": true,
	}
)

// IngressDefaultPublishing is the endpoint publishing strategy the operator
// gives a controller that sets none on platform (schema and install-config
// spelling): LoadBalancerService on the clouds with a load balancer,
// HostNetwork elsewhere; "" for a platform siteforge does not know.
func IngressDefaultPublishing(platform string) string {
	switch {
	case ingressLoadBalancerPlatforms[platform]:
		return PublishingLoadBalancerService
	case ingressHostNetworkPlatforms[platform]:
		return PublishingHostNetwork
	}
	return ""
}

// IngressLoadBalancerPlatform reports whether the default controller is
// published with a LoadBalancerService on platform.
func IngressLoadBalancerPlatform(platform string) bool { return ingressLoadBalancerPlatforms[platform] }

// IngressDNSManagedPlatform reports whether the operator manages the
// wildcard DNS record of a LoadBalancerService controller on platform.
func IngressDNSManagedPlatform(platform string) bool { return ingressDNSManagedPlatforms[platform] }

// Messages of the ingress components, verbatim where they are quoted.
const (
	// CIOInvalidNodeSelector is how CIO reports a node selector it cannot
	// turn into a pod nodeSelector; %v is apimachinery LabelSelectorAsMap's
	// error ("operator %q cannot be converted into the old label selector
	// format").
	CIOInvalidNodeSelector    = "failed to build router deployment: ingresscontroller %q has invalid spec.nodePlacement.nodeSelector: %v" // CIO deployment.go desiredRouterDeployment
	CIOPortsNotUnique         = "the specified HTTPS, HTTP and Stats ports %d, %d, %d are not unique"                                     // CIO deployment.go desiredRouterDeployment
	IngressCanonicalHostError = "The combined 'router-' + metadata.name + '.' + .spec.domain cannot exceed 253 characters"                // api operator/v1 IngressController XValidation
)

// Namespaces and keys the platform's own routes live under: a shard
// selecting on them would take (or make the default router drop) the
// console, oauth and canary routes.
var (
	PlatformNamespacePrefix = "openshift-" // console, oauth, canary, monitoring routes live in openshift-* namespaces
	PlatformLabelPrefixes   = []string{"openshift.io/", "pod-security.kubernetes.io/", "security.openshift.io/"}
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

// IngressDefaultManifestName is the file name the docs give the default
// controller in the installer's manifests directory.
const IngressDefaultManifestName = "cluster-ingress-default-ingresscontroller.yaml" // docs "Configuring network components to run on the control plane"
