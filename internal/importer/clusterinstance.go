package importer

import (
	"fmt"
	"maps"
	"net"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/siteforge/siteforge/internal/credential"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/upstream"
)

// fromClusterInstance is the site of a ClusterInstance (read from a file,
// or converted from a SiteConfig cluster: fromSiteConfig), with the
// extra-manifests ConfigMaps it names among the inputs.
func fromClusterInstance(ci *manifests.ClusterInstanceObject, cms map[string]*manifests.Object, opts Options, fromSiteConfig bool) *Site {
	o, spec := ci.Obj, ci.Spec
	s := &Site{Name: spec.ClusterName, Extra: map[string][]byte{}, Pos: o.PosOf("spec", "clusterName")}
	warn := func(msg, hint string, p ...string) {
		s.Warnings = append(s.Warnings, diag.Diagnostic{Pos: o.KeyPosOf(p...), Message: msg, Hint: hint})
	}
	noPlace := func(what string, p ...string) {
		warn(what+" has no place in a siteforge site: the rendered ClusterInstance leaves it out", "add it to the cluster's templates (install.hub.templates) or after the installation", p...)
	}
	version, w := release(spec.ClusterImageSetNameRef, opts, o.PosOf("spec", "clusterImageSetNameRef"), "clusterImageSetNameRef "+strconv.Quote(diag.Clean(spec.ClusterImageSetNameRef)))
	if w != nil {
		s.Warnings = append(s.Warnings, *w)
	}
	method := "assisted"
	for _, t := range spec.TemplateRefs {
		if strings.HasPrefix(t.Name, platform.ImageBasedTemplatePrefix) {
			method = "image-based"
		}
	}
	plat := ""
	for k, v := range platform.ClusterInstancePlatformTypes {
		if strings.EqualFold(v, spec.PlatformType) && spec.PlatformType != "" {
			plat = k
		}
	}
	masters := 0
	for _, n := range spec.Nodes {
		if n.RoleOrDefault() == "master" {
			masters++
		}
	}
	if plat == "" {
		if spec.PlatformType != "" {
			warn(fmt.Sprintf("platformType %q cannot be installed from a hub by siteforge: the site says baremetal", diag.Clean(spec.PlatformType)), "check cluster.platform", "spec", "platformType")
		}
		// no platformType: assisted-service takes None for a single node
		// and BareMetal otherwise (the site's platform says which)
		plat = "baremetal"
		if masters == 1 && len(spec.Nodes) == 1 {
			plat = "none"
		}
	}
	cluster := map[string]any{"baseDomain": spec.BaseDomain, "version": version, "platform": plat, "installMethod": method, "lifecycle": "install"}
	network := map[string]any{}
	if spec.NetworkType != "" {
		network["type"] = spec.NetworkType
	}
	var cn, sn, mn []any
	for _, c := range spec.ClusterNetwork {
		cn = append(cn, map[string]any{"cidr": c.CIDR, "hostPrefix": int(c.HostPrefix)})
	}
	for _, c := range spec.ServiceNetwork {
		sn = append(sn, c.CIDR)
	}
	for _, c := range spec.MachineNetwork {
		mn = append(mn, c.CIDR)
	}
	setList(network, "clusterNetwork", cn)
	setList(network, "serviceNetwork", sn)
	if len(mn) == 0 {
		if cidr, i := addressNetwork(spec); cidr != "" {
			mn = []any{cidr}
			warn(fmt.Sprintf("the ClusterInstance names no machineNetwork: the site's machineNetwork %s is the network of node %s's address (the rendered ClusterInstance writes it)", cidr, diag.Clean(spec.Nodes[i].HostName)),
				"check network.machineNetwork", "spec", "nodes", strconv.Itoa(i), "nodeNetwork")
		}
	}
	setList(network, "machineNetwork", mn)
	if len(spec.Nodes) == 1 && (len(spec.ApiVIPs) > 0 || len(spec.IngressVIPs) > 0) {
		warn("a single-node cluster has no VIPs: the API and ingress are the node's address; the site leaves them out", "remove apiVIPs and ingressVIPs", "spec", "apiVIPs")
	} else {
		setList(network, "apiVIPs", strs(spec.ApiVIPs))
		setList(network, "ingressVIPs", strs(spec.IngressVIPs))
	}

	hub := map[string]any{"pullSecretRef": spec.PullSecretRef.Name, "clusterImageSet": spec.ClusterImageSetNameRef}
	if o.Namespace != "" && o.Namespace != spec.ClusterName {
		hub["namespace"] = o.Namespace
	}
	if len(spec.ExtraLabels["ManagedCluster"]) > 0 {
		labels := map[string]any{}
		for k, v := range spec.ExtraLabels["ManagedCluster"] {
			labels[k] = v
		}
		hub["clusterLabels"] = labels
	}
	for k := range spec.ExtraLabels {
		if k != "ManagedCluster" {
			noPlace("extraLabels."+k, "spec", "extraLabels", k)
		}
	}
	if tpl := templates(spec, method); tpl != nil {
		hub["templates"] = tpl
	}
	install := map[string]any{"hub": hub}
	if spec.SSHPublicKey != "" {
		if sshKey.MatchString(spec.SSHPublicKey) {
			install["sshKey"] = spec.SSHPublicKey
		} else {
			warn("sshPublicKey is not an SSH public key (type and base64 key): left out", "set install.sshKey to the public key", "spec", "sshPublicKey")
		}
	}
	setList(install, "ntpSources", strs(spec.AdditionalNTPSources))
	if spec.CPUPartitioningMode != "" {
		install["cpuPartitioningMode"] = spec.CPUPartitioningMode
	}
	if p := proxyOf(spec.Proxy, func(msg, hint string) { warn(msg, hint, "spec", "proxy") }); p != nil {
		install["proxy"] = p
	}
	hubFields(hub, spec, warn)

	pools := map[string]any{}
	byRole := map[string][]int{}
	for i, n := range spec.Nodes {
		byRole[n.RoleOrDefault()] = append(byRole[n.RoleOrDefault()], i)
	}
	for _, role := range []string{"master", "worker"} {
		idx := byRole[role]
		if len(idx) == 0 {
			continue
		}
		pool := map[string]any{}
		var nodes []any
		uplink, mtu := "", 0
		for _, i := range idx {
			n := spec.Nodes[i]
			at := func(p ...string) []string { return append([]string{"spec", "nodes", strconv.Itoa(i)}, p...) }
			node, up, m := hubNode(n, func(msg, hint string, p ...string) { warn(msg, hint, at(p...)...) })
			nodes = append(nodes, node)
			if uplink == "" {
				uplink, mtu = up, m
			}
			if h := hubNodeFields(n, func(msg, hint string, p ...string) { warn(msg, hint, at(p...)...) }); len(h) > 0 {
				node["hub"] = h
			}
		}
		if uplink == "" {
			uplink = fallbackUplink
			warn(fmt.Sprintf("the %s nodes name no NIC: pool %s's uplinkInterface is set to %s", role, role, fallbackUplink), "set the pool's uplinkInterface to the NIC of the default route", "spec", "nodes")
		}
		if mtu == 0 {
			mtu = platform.DefaultUplinkMTU(plat)
		}
		pool["uplinkInterface"], pool["uplinkMTU"] = uplink, mtu
		pool["nodes"] = nodes
		pools[role] = pool
	}
	for _, r := range sortedKeys(byRole) {
		if r != "master" && r != "worker" {
			warn(fmt.Sprintf("role %q has no place in a siteforge site", diag.Clean(r)), "use master or worker", "spec", "nodes")
		}
	}
	want := platform.ClusterTypeHighlyAvailable
	if masters == 1 {
		want = platform.ClusterTypeSNO
	}
	if spec.ClusterType != "" && spec.ClusterType != want {
		warn(fmt.Sprintf("clusterType %s is not imported: a site's ClusterInstance says %s for %d control-plane nodes", diag.Clean(spec.ClusterType), want, masters), "check the control-plane nodes", "spec", "clusterType")
	}
	if len(spec.TemplateRefs) > 1 {
		warn("templateRefs beyond the first are not imported: a site names one cluster template", "merge the templates into one ConfigMap (install.hub.templates)", "spec", "templateRefs", "1")
	}
	for i, n := range spec.Nodes {
		if len(n.TemplateRefs) > 1 || len(n.TemplateRefs) == 1 && len(spec.Nodes[0].TemplateRefs) == 1 && n.TemplateRefs[0] != spec.Nodes[0].TemplateRefs[0] {
			warn(fmt.Sprintf("the templateRefs of node %s are not imported: a site names one node template for every node", diag.Clean(n.HostName)), "merge the templates into one ConfigMap (install.hub.templates)", "spec", "nodes", strconv.Itoa(i), "templateRefs")
		}
	}
	for i, ref := range spec.ExtraManifestsRefs {
		if fromSiteConfig && ref.Name == platform.ConverterExtraManifestsConfigMap {
			continue // the SiteConfig's extraManifests: warned about with the SiteConfig
		}
		cm := cms[ref.Name]
		if cm == nil {
			warn(fmt.Sprintf("ConfigMap %s of extraManifestsRefs is not among the inputs: its manifests are not imported", diag.Clean(ref.Name)),
				"import the ConfigMap with the ClusterInstance (name its file or folder), or add its manifests to the site", "spec", "extraManifestsRefs", strconv.Itoa(i))
			continue
		}
		var data struct {
			Data map[string]string `json:"data"`
		}
		if cm.DecodeLoose(&data) != nil {
			continue
		}
		for _, k := range sortedKeys(data.Data) {
			f := extraFile(k)
			if _, taken := s.Extra[f]; taken {
				f = extraFile(cm.Name + "-" + k)
			}
			s.keepVerbatim(f, []byte(data.Data[k]), cm.KeyPosOf("data", k), fmt.Sprintf("extra manifest %s of ConfigMap %s", diag.Clean(k), diag.Clean(cm.Name)))
		}
	}
	s.Data = map[string]any{
		"apiVersion": "siteforge.dev/v1alpha1", "kind": "Site", "name": spec.ClusterName,
		"cluster": cluster, "network": network, "pools": pools, "install": install,
	}
	return s
}

// fallbackUplink is what an imported pool says when its nodes name no NIC
// (a ClusterInstance without nodeNetwork, an IPI install-config): the site
// requires one; the warning says to check it.
const fallbackUplink = "eno1"

var sshKey = regexp.MustCompile(`^(ssh-(rsa|ed25519|dss)|ecdsa-sha2-nistp(256|384|521)|sk-(ssh-ed25519|ecdsa-sha2-nistp256)@openssh\.com) [A-Za-z0-9+/=]+( [^\n]*)?$`)

// templates are the site's install.hub.templates: nil when the
// ClusterInstance names the bundled templates of its install method.
func templates(spec upstream.ClusterInstanceSpec, method string) map[string]any {
	b := platform.SiteconfigBundledTemplates[method]
	var node upstream.TemplateRef
	if len(spec.Nodes) > 0 && len(spec.Nodes[0].TemplateRefs) > 0 {
		node = spec.Nodes[0].TemplateRefs[0]
	}
	var cluster upstream.TemplateRef
	if len(spec.TemplateRefs) > 0 {
		cluster = spec.TemplateRefs[0]
	}
	if cluster == (upstream.TemplateRef{Name: b.Cluster, Namespace: platform.SiteconfigTemplatesNamespace}) &&
		(node == (upstream.TemplateRef{}) || node == (upstream.TemplateRef{Name: b.Node, Namespace: platform.SiteconfigTemplatesNamespace})) {
		return nil
	}
	return map[string]any{"cluster": map[string]any{"name": cluster.Name, "namespace": cluster.Namespace},
		"node": map[string]any{"name": node.Name, "namespace": node.Namespace}}
}

// hubNode is a site node of a ClusterInstance node, with the NIC and MTU of
// its uplink when its network names them.
func hubNode(n upstream.NodeSpec, warn func(msg, hint string, p ...string)) (map[string]any, string, int) {
	node := map[string]any{"name": n.HostName}
	if n.BootMACAddress != "" {
		node["bootMAC"] = n.BootMACAddress
	}
	if credential.URLUserInfo(n.BmcAddress) { // what vet refuses (internal/load)
		warn("bmcAddress holds a credential: left out (siteforge never copies a secret)", "put the BMC credentials into the Secret bmcCredentialsName names, and the address without them into the site", "bmcAddress")
		n.BmcAddress = ""
	}
	if n.BmcAddress != "" || n.BmcCredentialsName != nil {
		bmc := map[string]any{"address": n.BmcAddress}
		if n.BmcCredentialsName != nil {
			bmc["credentialsSecret"] = n.BmcCredentialsName.Name
		}
		node["bmc"] = bmc
	}
	if n.BootMode != "" {
		node["bootMode"] = n.BootMode
	}
	if h := hints(n.RootDeviceHints); h != nil {
		node["rootDeviceHints"] = h
	}
	var cfg any
	var ifaces []upstream.Interface
	if n.NodeNetwork != nil {
		cfg, ifaces = n.NodeNetwork.Config, n.NodeNetwork.Interfaces
	}
	uplink, mtu := uplinkOf(cfg, ifaces, n.BootMACAddress)
	setAddresses(node, cfg)
	var il []any
	for _, i := range ifaces {
		il = append(il, map[string]any{"name": i.Name, "macAddress": i.MacAddress})
	}
	if m, ok := cfg.(map[string]any); ok && len(m) > 0 && holdsCredential(m) {
		warn("nodeNetwork.config holds a credential (a key, a password): left out (siteforge never copies a secret)", "write the node's networkConfig without it", "nodeNetwork", "config")
	} else if ok && len(m) > 0 {
		node["networkConfig"] = m
		// the rendered ClusterInstance names the uplink with the boot MAC
		// when the site lists no interfaces: keep them as written
		setList(node, "interfaces", il)
	} else if len(il) > 0 {
		setList(node, "interfaces", il)
		warn("nodeNetwork.interfaces without a config: the rendered ClusterInstance writes no nodeNetwork for the node", "add the node's NMState networkConfig", "nodeNetwork")
	}
	return node, uplink, mtu
}

// uplinkOf reads a host's NMState config: the interface of its default
// route (else the one with the first static address, else the one with the
// boot MAC, else the first) with its MTU.
func uplinkOf(cfg any, ifaces []upstream.Interface, bootMAC string) (uplink string, mtu int) {
	m, _ := cfg.(map[string]any)
	list, _ := m["interfaces"].([]any)
	mtuOf := func(name string) int {
		for _, raw := range list {
			in, _ := raw.(map[string]any)
			if in["name"] == name {
				switch v := in["mtu"].(type) {
				case float64:
					return int(v)
				case int:
					return v
				case int64:
					return int(v)
				}
			}
		}
		return 0
	}
	if routes, ok := m["routes"].(map[string]any); ok {
		rl, _ := routes["config"].([]any)
		for _, raw := range rl {
			r, _ := raw.(map[string]any)
			if d, _ := r["destination"].(string); d == "0.0.0.0/0" || d == "::/0" {
				if i, _ := r["next-hop-interface"].(string); i != "" {
					return i, mtuOf(i)
				}
			}
		}
	}
	if a := manifests.NMStateAddresses(cfg); len(a) > 0 {
		if in, ok := list[atoi(a[0].Path[1])].(map[string]any); ok {
			if name, _ := in["name"].(string); name != "" {
				return name, mtuOf(name)
			}
		}
	}
	for _, i := range ifaces {
		if strings.EqualFold(i.MacAddress, bootMAC) {
			return i.Name, mtuOf(i.Name)
		}
	}
	if len(ifaces) > 0 {
		return ifaces[0].Name, mtuOf(ifaces[0].Name)
	}
	return "", 0
}

func atoi(s string) int { i, _ := strconv.Atoi(s); return i }

// hints are metal3 root device hints as the site writes them.
func hints(h *upstream.RootDeviceHints) map[string]any {
	if h == nil {
		return nil
	}
	out := map[string]any{}
	set := func(k, v string) {
		if v != "" {
			out[k] = v
		}
	}
	set("deviceName", h.DeviceName)
	set("hctl", h.HCTL)
	set("model", h.Model)
	set("vendor", h.Vendor)
	set("serialNumber", h.SerialNumber)
	set("wwn", h.WWN)
	set("wwnWithExtension", h.WWNWithExtension)
	set("wwnVendorExtension", h.WWNVendorExtension)
	if h.MinSizeGigabytes > 0 {
		out["minSizeGigabytes"] = h.MinSizeGigabytes
	}
	if h.Rotational != nil {
		out["rotational"] = *h.Rotational
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func setList(m map[string]any, k string, v []any) {
	if len(v) > 0 {
		m[k] = v
	}
}

func strs(v []string) []any {
	var out []any
	for _, s := range v {
		out = append(out, s)
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

// addressNetwork is the network of the first static address with a prefix
// length of the nodes' NMState configs, and the node's index.
func addressNetwork(spec upstream.ClusterInstanceSpec) (string, int) {
	for i, n := range spec.Nodes {
		if n.NodeNetwork == nil {
			continue
		}
		m, _ := n.NodeNetwork.Config.(map[string]any)
		list, _ := m["interfaces"].([]any)
		for _, a := range manifests.NMStateAddresses(n.NodeNetwork.Config) {
			in, _ := list[atoi(a.Path[1])].(map[string]any)
			fam, _ := in[a.Path[2]].(map[string]any)
			addrs, _ := fam["address"].([]any)
			am, _ := addrs[atoi(a.Path[4])].(map[string]any)
			var plen int
			switch v := am["prefix-length"].(type) {
			case float64:
				plen = int(v)
			case int:
				plen = v
			case int64:
				plen = int(v)
			default:
				continue
			}
			if _, nw, err := net.ParseCIDR(fmt.Sprintf("%s/%d", a.IP, plen)); err == nil {
				return nw.String(), i
			}
		}
	}
	return "", 0
}

// setAddresses sets a node's ip (its first static address: IPv4 when it
// has one) and, on a dual-stack node, its ipv6.
func setAddresses(node map[string]any, cfg any) {
	var v4, v6 string
	for _, a := range manifests.NMStateAddresses(cfg) {
		ip := net.ParseIP(a.IP)
		switch {
		case ip == nil:
		case ip.To4() != nil && v4 == "":
			v4 = a.IP
		case ip.To4() == nil && v6 == "":
			v6 = a.IP
		}
	}
	switch {
	case v4 != "":
		node["ip"] = v4
		if v6 != "" {
			node["ipv6"] = v6
		}
	case v6 != "":
		node["ip"] = v6
	}
}

// holdsCredential reports whether a decoded value holds a credential
// (credential.Find on its YAML).
func holdsCredential(v any) bool {
	b, err := yaml.Marshal(v)
	return err != nil || credential.Find(b) != ""
}
