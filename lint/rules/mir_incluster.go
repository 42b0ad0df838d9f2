package rules

import (
	"fmt"
	"maps"
	"net/netip"
	"slices"
	"strconv"
	"strings"

	"github.com/siteforge/siteforge/internal/cluster/incluster"
	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/site"
	"github.com/siteforge/siteforge/lint"
)

// The rules of a site's in-cluster cache (mirroring.inClusterCache): what the site must say for
// the cache to stay off the nodes' path while it cannot answer.

// inClusterCacheOf is the set's site and its in-cluster cache, nil when it has none.
func inClusterCacheOf(set lint.Set) (*site.Site, *site.InClusterCache) {
	if set.Site == nil || set.Site.Site.Mirroring == nil || set.Site.Site.Mirroring.InClusterCache == nil {
		return nil, nil
	}
	return set.Site.Site, set.Site.Site.Mirroring.InClusterCache
}

// ---------------------------------------------------------------------------------------------
// MIR023: an in-cluster cache whose own images siteforge does not know, and the site does not list.

func checkCacheOwnImages(set lint.Set, r *lint.Reporter) {
	s, c := inClusterCacheOf(set)
	if c == nil || c.DeployedBy != site.CacheByOther || len(c.BootstrapImages) > 0 {
		return
	}
	r.At(s.Name, s.Positions.Of(site.Field("mirroring", "inClusterCache", "deployedBy")), fmt.Sprintf(
		"the in-cluster cache %s is deployed by %q, so siteforge does not know its own images, and bootstrapImages lists none: the images of the cache's own pods (and of its operator, if any) would go through the cache whenever a node has its drop-in, so a cache pod that restarts or moves pulls from the cache it is part of first, and reaches the source only once that fails; list the repositories of the cache's images in mirroring.inClusterCache.bootstrapImages, or say deployedBy: quay-operator for a Quay the Quay operator runs",
		c.Host, c.DeployedBy))
}

// ---------------------------------------------------------------------------------------------
// MIR024: an in-cluster cache at an address the nodes cannot reach it at.

func checkCacheHost(set lint.Set, r *lint.Reporter) {
	s, c := inClusterCacheOf(set)
	if c == nil {
		return
	}
	pos := s.Positions.Of(site.Field("mirroring", "inClusterCache", "host"))
	host := incluster.Host(c.Host)
	if incluster.ServiceName(host) != "" {
		r.At(s.Name, pos, fmt.Sprintf("the in-cluster cache's host %q is a cluster DNS name: CRI-O pulls on the node and resolves mirror hosts with the node's resolver, not cluster DNS, so the nodes never reach the cache; give the Route host name of the cache (it resolves in the nodes' DNS through the cluster's ingress), or its Service's ClusterIP", c.Host))
		return
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return // a host name: the nodes resolve it through the site's DNS
	}
	nets := inClusterOf(set)
	if _, ok := nets.ServiceNetworkOf(ip); ok {
		return
	}
	var cidrs []string
	for _, n := range nets.ServiceNetworks {
		cidrs = append(cidrs, n.Prefix.String()+" ("+n.From+")")
	}
	r.At(s.Name, pos, fmt.Sprintf("the in-cluster cache's host %s is an IP address outside the service network %s, so it is not the ClusterIP of the cache's Service, the one address form besides a Route host name that reaches the cache from every node; give the ClusterIP of the cache's Service (oc get service -n <namespace> <name> -o jsonpath='{.spec.clusterIP}'), or the Route's host name",
		c.Host, strings.Join(cidrs, ", ")))
}

// ---------------------------------------------------------------------------------------------
// MIR025: a registry the cluster serves itself over HTTPS, with no CA the nodes trust for it.

// nodeTrust is what the set says the nodes trust for registry hosts: the keys of the ConfigMap
// image.config spec.additionalTrustedCA names (MCO writes each to /etc/docker/certs.d), and
// what the set does not show (unknown: that ConfigMap is not in the set, or a bundle goes into
// the nodes' system trust, which may hold any CA).
type nodeTrust struct {
	keys    map[string]bool
	unknown string
}

func nodeTrustOf(set lint.Set) nodeTrust {
	t := nodeTrust{keys: map[string]bool{}}
	if set.Site != nil {
		return siteTrust(set.Site.Site)
	}
	var bundles []string
	for _, ic := range manifests.InstallConfigs(set.Objects) {
		if ic.AdditionalTrustBundle != "" {
			bundles = append(bundles, "install-config additionalTrustBundle")
		}
	}
	configMaps := map[string]*manifests.Object{}
	for _, o := range set.Kind("v1", "ConfigMap") {
		if o.Namespace == platform.AdditionalTrustedCANamespace {
			configMaps[o.Name] = o
		}
	}
	if configMaps[platform.AdditionalTrustBundleConfigMap] != nil {
		bundles = append(bundles, "ConfigMap "+platform.AdditionalTrustedCANamespace+"/"+platform.AdditionalTrustBundleConfigMap)
	}
	for _, o := range set.Kind(manifests.GroupConfig, "Proxy") {
		var p struct {
			Spec struct {
				TrustedCA struct {
					Name string `json:"name"`
				} `json:"trustedCA"`
			} `json:"spec"`
		}
		if o.Name == platform.ConfigSingletonName && o.DecodeLoose(&p) == nil && p.Spec.TrustedCA.Name != "" {
			bundles = append(bundles, o.ID()+" spec.trustedCA")
		}
	}
	if mo := readMirrorObjects(set); mo.imageObj != nil && mo.imageSpec.Spec.AdditionalTrustedCA.Name != "" {
		name := mo.imageSpec.Spec.AdditionalTrustedCA.Name
		cm := configMaps[name]
		if cm == nil {
			t.unknown = fmt.Sprintf("image.config additionalTrustedCA names ConfigMap %s, which is kept outside", name)
			return t
		}
		var data struct {
			Data       map[string]string `json:"data"`
			BinaryData map[string]string `json:"binaryData"`
		}
		if cm.DecodeLoose(&data) == nil {
			for k := range data.Data {
				t.keys[k] = true
			}
			for k := range data.BinaryData {
				t.keys[k] = true
			}
		}
	}
	if len(bundles) > 0 {
		t.unknown = strings.Join(bundles, " and ") + " may hold it (the nodes' system trust)"
	}
	return t
}

// siteTrust is nodeTrust of a site: the hosts of mirroring.additionalTrustedCA.certificates, which
// siteforge renders into the ConfigMap image.config names.
func siteTrust(s *site.Site) nodeTrust {
	t := nodeTrust{keys: map[string]bool{}}
	if ca := s.Mirroring.AdditionalTrustedCA; ca != nil {
		if len(ca.Certificates) == 0 {
			t.unknown = fmt.Sprintf("mirroring.additionalTrustedCA names ConfigMap %s, which is kept outside the site", ca.ConfigMap)
			return t
		}
		for host := range ca.Certificates {
			t.keys[platform.AdditionalTrustedCAKey(host)] = true
		}
	}
	if s.Install != nil && s.Install.AdditionalTrustBundle != "" {
		t.unknown = "the site's install.additionalTrustBundle may hold it (the nodes' system trust)"
	}
	return t
}

// trusts reports whether the nodes trust a CA for hostPort, or the set cannot tell.
func (t nodeTrust) trusts(hostPort string) bool {
	return t.unknown != "" || t.keys[platform.AdditionalTrustedCAKey(hostPort)]
}

// untrustedFix is what to do for a host the nodes trust no CA for: put the CA into where, under
// key.
func untrustedFix(key, where string) string {
	return fmt.Sprintf("put the CA that signed its certificate (for a Route served with the default ingress certificate: key %s of ConfigMap %s in %s) into %s under %q",
		platform.DefaultIngressCertKey, platform.DefaultIngressCertConfigMap, platform.DefaultIngressCertNamespace, where, key)
}

// whyUntrusted says what the nodes trust instead.
const whyUntrusted = "CRI-O verifies a registry's certificate against the nodes' system trust and /etc/docker/certs.d/<host>/, where MCO writes only the CAs of image.config additionalTrustedCA (and the internal registry's service CA); the default ingress certificate is signed by the ingress operator's own CA, which neither holds"

func checkInClusterCA(set lint.Set, r *lint.Reporter) {
	if set.Site != nil && set.Site.Site.Mirroring == nil {
		return
	}
	t := nodeTrustOf(set)
	c := inClusterOf(set)
	if set.Site != nil {
		s := set.Site.Site
		m := s.Mirroring
		where := "mirroring.additionalTrustedCA.certificates"
		if m.AdditionalTrustedCA == nil {
			where += " (with a configMap name)"
		}
		if cache := m.InClusterCache; cache != nil && !t.trusts(cache.Host) {
			r.At(s.Name, s.Positions.Of(site.Field("mirroring", "inClusterCache", "host")), fmt.Sprintf(
				"the in-cluster cache %s is reached over HTTPS, and no CA the nodes trust is given for it: %s, so the check script's probe fails verification, the drop-in never appears, and the nodes never use the cache; %s",
				cache.Host, whyUntrusted, untrustedFix(cache.Host, where)))
		}
		for _, src := range slices.Sorted(maps.Keys(m.Sources)) {
			for j, mirror := range m.Sources[src].Mirrors {
				host := incluster.HostPort(mirror)
				if why := c.Ingress(incluster.Host(mirror)); why != "" && !t.trusts(host) {
					r.At(s.Name, s.Positions.Of(site.Field("mirroring", "sources", src, "mirrors", strconv.Itoa(j))), fmt.Sprintf(
						"mirror %q of %s is %s, reached over HTTPS, and no CA the nodes trust is given for it: %s, so CRI-O fails every pull from it and falls back to the next mirror or the source; %s",
						mirror, src, why, whyUntrusted, untrustedFix(host, where)))
				}
			}
		}
		return
	}
	m := readMirrorObjects(set)
	where := "the ConfigMap image.config spec.additionalTrustedCA names (in openshift-config)"
	for _, e := range m.entries {
		for j, mirror := range e.mirrors {
			host := incluster.HostPort(mirror)
			if why := c.Ingress(incluster.Host(mirror)); why != "" && !t.trusts(host) {
				r.Object(e.obj, fmt.Sprintf("%s %q is %s, reached over HTTPS, and no CA the nodes trust is given for it: %s, so CRI-O fails every pull from it and falls back to the next mirror or the source; %s",
					e.where("mirrors", strconv.Itoa(j)), mirror, why, whyUntrusted, untrustedFix(platform.AdditionalTrustedCAKey(host), where)), e.path("mirrors", strconv.Itoa(j))...)
			}
		}
	}
}
