package importer

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/fsread"
	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/upstream"
)

// fromInstallDir is the site of an installation folder: install-config.yaml,
// agent-config.yaml when the agent installer installs it (installMethod
// "agent", else "ipi"), and the manifests of openshift/ and manifests/, kept
// verbatim.
func fromInstallDir(dir string, opts Options) (*Site, diag.List) {
	objs, dl := manifests.ReadFile(filepath.Join(dir, "install-config.yaml"))
	if len(dl) > 0 {
		return nil, dl
	}
	ics := manifests.InstallConfigs(objs)
	if len(ics) != 1 {
		return nil, diag.List{{Pos: diag.Position{File: filepath.Join(dir, "install-config.yaml")}, Message: "not an install-config the installer reads"}}
	}
	ic := ics[0]
	var ac *manifests.AgentConfigFile
	if _, err := os.Stat(filepath.Join(dir, "agent-config.yaml")); err == nil {
		aobjs, dl := manifests.ReadFile(filepath.Join(dir, "agent-config.yaml"))
		if len(dl) > 0 {
			return nil, dl
		}
		acs := manifests.AgentConfigs(aobjs)
		if len(acs) != 1 {
			return nil, diag.List{{Pos: diag.Position{File: filepath.Join(dir, "agent-config.yaml")}, Message: "not an agent-config the agent installer reads"}}
		}
		ac = acs[0]
	}
	o := ic.Obj
	s := &Site{Name: ic.Metadata.Name, Extra: map[string][]byte{}, Pos: o.PosOf("metadata", "name")}
	warn := func(obj *manifests.Object, msg, hint string, p ...string) {
		s.Warnings = append(s.Warnings, diag.Diagnostic{Pos: obj.KeyPosOf(p...), Message: msg, Hint: hint})
	}
	version, w := release("", opts, o.Pos(), "an installation folder (the release is the installer binary's)")
	if w != nil {
		s.Warnings = append(s.Warnings, *w)
	}
	method := "ipi"
	if ac != nil {
		method = "agent"
	}
	cluster := map[string]any{"baseDomain": ic.BaseDomain, "version": version, "platform": ic.Platform, "installMethod": method, "lifecycle": "install"}
	if raw, ok := ic.Sections[ic.PlatformKey]; ok && ic.Platform == "aws" {
		var aws upstream.AWSPlatform
		if json.Unmarshal(raw, &aws) == nil && aws.Region != "" {
			cluster["region"] = aws.Region
		}
	}
	n := ic.Networking
	network := map[string]any{}
	if t := ic.NetworkType(); t != "" {
		network["type"] = t
	}
	var cn, sn, mn []any
	for _, c := range n.ClusterNetwork {
		cn = append(cn, map[string]any{"cidr": c.CIDR, "hostPrefix": int(c.HostPrefix)})
	}
	for _, c := range n.ServiceNetwork {
		sn = append(sn, c)
	}
	for _, c := range n.MachineNetwork {
		mn = append(mn, c.CIDR)
	}
	setList(network, "clusterNetwork", cn)
	setList(network, "serviceNetwork", sn)
	setList(network, "machineNetwork", mn)
	setList(network, "apiVIPs", strs(ic.APIVIPs))
	setList(network, "ingressVIPs", strs(ic.IngressVIPs))

	install := map[string]any{}
	if ic.SSHKey != "" {
		install["sshKey"] = strings.TrimSpace(ic.SSHKey)
	}
	if ic.AdditionalTrustBundle != "" {
		install["additionalTrustBundle"] = ic.AdditionalTrustBundle
	}
	if ic.Capabilities != nil {
		warn(o, "capabilities have no place in a siteforge site: the rendered install-config leaves them out", "keep the capabilities in a copy of install-config.yaml of your own", "capabilities")
	}
	if ic.CPUPartitioning != "" {
		install["cpuPartitioningMode"] = ic.CPUPartitioning
	}
	if p := proxyOf(ic.Proxy, func(msg, hint string) { warn(o, msg, hint, "proxy") }); p != nil {
		install["proxy"] = p
	}
	if ic.Arbiter != nil {
		warn(o, "arbiter has no place in a siteforge site", "install the arbiter cluster from install-config.yaml of your own", "arbiter")
	}
	if len(ic.ImageContentSources) > 0 || len(ic.ImageDigestSources) > 0 {
		sources := map[string]any{}
		for _, e := range append(ic.ImageContentSources, ic.ImageDigestSources...) {
			src := map[string]any{"mirrors": strs(e.Mirrors)}
			if e.SourcePolicy != "" {
				src["policy"] = e.SourcePolicy
			}
			sources[e.Source] = src
		}
		warnMirrors := "imageDigestSources are imported as the site's digest mirrors (mirroring.sources)"
		s.Warnings = append(s.Warnings, diag.Diagnostic{Pos: o.KeyPosOf("imageDigestSources"), Message: warnMirrors, Hint: "check mirroring.sources: a quayCache or a tag mirror of the original site is not recoverable from install-config"})
		s.Data = map[string]any{"mirroring": map[string]any{"sources": sources}}
	}
	// the pull secret is never read or copied
	if root := o.Root(); root != nil {
		for i := 0; i+1 < len(root.Content); i += 2 {
			if root.Content[i].Value == "pullSecret" {
				warn(o, "pullSecret is not imported: siteforge never reads or writes a pull secret", "add it with siteforge install-config when you install (docs/install-secrets.md)", "pullSecret")
			}
		}
	}

	s.Warnings = append(s.Warnings, unread(o, &ic.InstallConfig, "pullSecret", "platform")...)
	s.Warnings = append(s.Warnings, platformUnread(ic)...)
	for _, p := range append([]upstream.MachinePool{}, ic.Compute...) {
		if p.Architecture != "" && p.Architecture != "amd64" {
			warn(o, fmt.Sprintf("architecture %s of compute pool %s has no place in a siteforge site (amd64)", diag.Clean(p.Architecture), diag.Clean(p.Name)), "install the cluster from install-config.yaml of your own", "compute")
		}
	}
	if cp := ic.ControlPlane; cp != nil {
		if cp.Architecture != "" && cp.Architecture != "amd64" {
			warn(o, fmt.Sprintf("architecture %s of the control plane has no place in a siteforge site (amd64)", diag.Clean(cp.Architecture)), "install the cluster from install-config.yaml of your own", "controlPlane", "architecture")
		}
		if len(cp.Fencing) > 0 {
			warn(o, "fencing has no place in a siteforge site", "install the two-node cluster from install-config.yaml of your own", "controlPlane", "fencing")
		}
	}
	if n.ClusterNetworkMTU != 0 {
		warn(o, "networking.clusterNetworkMTU is not imported: a site computes its cluster MTU from its pools' uplinkMTU and paths", "set the pools' uplinkMTU (and mtu.target) to match", "networking", "clusterNetworkMTU")
	}
	if n.OVNKubernetesConfig != nil {
		warn(o, "networking.ovnKubernetesConfig has no place in a siteforge site", "configure it on the cluster's Network operator after the installation", "networking", "ovnKubernetesConfig")
	}
	if ac != nil {
		s.Warnings = append(s.Warnings, unread(ac.Obj, &ac.AgentConfig)...)
	}

	pools := map[string]any{}
	uplinks := map[string][2]any{}
	if ac != nil {
		if len(ac.AdditionalNTPSources) > 0 {
			install["ntpSources"] = strs(ac.AdditionalNTPSources)
		}
		if ac.RendezvousIP != "" {
			install["rendezvousIP"] = ac.RendezvousIP
		}
		for i, h := range ac.Hosts {
			role := h.Role
			if role == "" {
				role = "master"
				warn(ac.Obj, fmt.Sprintf("host %s names no role: imported as a master (the agent installer assigns roles itself; the rendered agent-config names it)", diag.Clean(h.Hostname)),
					"move the node to the pool of its role", "hosts", strconv.Itoa(i))
			}
			node := map[string]any{"name": h.Hostname}
			if r := hints(h.RootDeviceHints); r != nil {
				node["rootDeviceHints"] = r
			}
			uplink, mtu := uplinkOf(h.NetworkConfig, h.Interfaces, "")
			setAddresses(node, h.NetworkConfig)
			var il []any
			for _, in := range h.Interfaces {
				il = append(il, map[string]any{"name": in.Name, "macAddress": in.MacAddress})
			}
			setList(node, "interfaces", il)
			if len(h.Interfaces) > 0 {
				node["bootMAC"] = h.Interfaces[0].MacAddress
			}
			if m, ok := h.NetworkConfig.(map[string]any); ok && len(m) > 0 && holdsCredential(m) {
				warn(ac.Obj, fmt.Sprintf("the networkConfig of host %s holds a credential (a key, a password): left out (siteforge never copies a secret)", diag.Clean(h.Hostname)), "write the node's networkConfig without it", "hosts", strconv.Itoa(i), "networkConfig")
			} else if ok && len(m) > 0 {
				node["networkConfig"] = m
			}
			p, _ := pools[role].(map[string]any)
			if p == nil {
				p = map[string]any{}
				pools[role] = p
			}
			nodes, _ := p["nodes"].([]any)
			p["nodes"] = append(nodes, node)
			if _, ok := uplinks[role]; !ok && uplink != "" {
				uplinks[role] = [2]any{uplink, mtu}
			}
		}
	} else {
		if cp := ic.ControlPlane; cp != nil && cp.Replicas != nil {
			pool := map[string]any{"count": int(*cp.Replicas)}
			machinePool(pool, cp)
			pools["master"] = pool
		}
		for i, c := range ic.Compute {
			if c.Replicas == nil || *c.Replicas == 0 {
				continue
			}
			pool := map[string]any{"count": int(*c.Replicas)}
			machinePool(pool, &ic.Compute[i])
			switch {
			case c.Name == "worker":
			case c.Name == platform.AWSEdgePoolName && pool["zone"] != nil:
				// the installer's edge compute pool: AWS Local Zone
				// (or Wavelength Zone) machines
				pool["role"], pool["placement"] = "worker", "aws-local-zone"
				warn(o, fmt.Sprintf("compute pool %s is imported as an AWS Local Zone pool", platform.AWSEdgePoolName), "set placement aws-wavelength for a Wavelength Zone, and the pool's labels and taints", "compute", strconv.Itoa(i))
			default:
				pool["role"] = "worker"
				warn(o, fmt.Sprintf("compute pool %s is imported as a pool of workers", diag.Clean(c.Name)), "check its placement and zone", "compute", strconv.Itoa(i))
			}
			pools[c.Name] = pool
		}
	}
	for _, name := range sortedKeys(pools) {
		p := pools[name].(map[string]any)
		up, ok := uplinks[name]
		if !ok || up[0] == "" {
			up = [2]any{fallbackUplink, 0}
			warn(o, fmt.Sprintf("the NIC of pool %s is not in the installation folder: its uplinkInterface is set to %s, its uplinkMTU to %d (the platform's default)", name, fallbackUplink, platform.DefaultUplinkMTU(ic.Platform)), "set the pool's uplinkInterface and uplinkMTU to the NIC of the default route and its MTU", "metadata")
		}
		p["uplinkInterface"] = up[0]
		if m, _ := up[1].(int); m > 0 {
			p["uplinkMTU"] = m
		} else {
			p["uplinkMTU"] = platform.DefaultUplinkMTU(ic.Platform)
		}
	}
	// the rest of the folder (mirror/registries.conf, the installer's state,
	// a pull secret file) is named, never read
	if entries, err := os.ReadDir(dir); err == nil {
		for _, e := range entries {
			switch name := e.Name(); name {
			case "install-config.yaml", "agent-config.yaml", "openshift", "manifests":
			default:
				what := name
				if e.IsDir() {
					what += "/"
				}
				s.Warnings = append(s.Warnings, diag.Diagnostic{Pos: diag.Position{File: filepath.Join(dir, name)},
					Message: fmt.Sprintf("%s is not imported: an installation folder is read for install-config.yaml, agent-config.yaml, openshift/ and manifests/", diag.Clean(what)),
					Hint:    "siteforge renders mirror/registries.conf from the site's mirrors; carry anything else over by hand"})
			}
		}
	}
	for _, sub := range []string{"openshift", "manifests"} {
		entries, err := os.ReadDir(filepath.Join(dir, sub))
		if err != nil {
			continue
		}
		var names []string
		for _, e := range entries {
			if e.IsDir() {
				s.Warnings = append(s.Warnings, diag.Diagnostic{Pos: diag.Position{File: filepath.Join(dir, sub, e.Name())},
					Message: fmt.Sprintf("%s/%s/ is not imported: the import reads the files of %s/, not its folders", sub, diag.Clean(e.Name()), sub)})
				continue
			}
			names = append(names, e.Name())
		}
		sort.Strings(names)
		for _, name := range names {
			f := filepath.Join(dir, sub, name)
			data, err := fsread.File(f, manifests.MaxFileSize)
			if err != nil {
				return nil, diag.List{{Pos: diag.Position{File: f}, Message: "cannot read: " + err.Error()}}
			}
			s.keepVerbatim(extraFile(name), data, diag.Position{File: f, Line: 1, Col: 1}, fmt.Sprintf("day-0 manifest %s/%s", sub, diag.Clean(name)))
		}
	}
	data := map[string]any{
		"apiVersion": "siteforge.dev/v1alpha1", "kind": "Site", "name": ic.Metadata.Name,
		"cluster": cluster, "network": network, "pools": pools,
	}
	if len(install) > 0 {
		data["install"] = install
	}
	for k, v := range s.Data {
		data[k] = v
	}
	s.Data = data
	return s, nil
}

// machinePool reads a pool's AWS instance type and its one zone.
func machinePool(pool map[string]any, mp *upstream.MachinePool) {
	if a := mp.Platform.AWS; a != nil {
		if a.InstanceType != "" {
			pool["instanceType"] = a.InstanceType
		}
		if len(a.Zones) == 1 {
			pool["zone"] = a.Zones[0]
		}
	}
}

// platformRead are the fields of each platform section the import reads.
var platformRead = map[string][]string{
	"aws":       {"region"},
	"baremetal": {"apiVIPs", "ingressVIPs", "apiVIP", "ingressVIP"},
	"none":      {},
}

// platformUnread warns about the fields of the platform section the import
// does not read (a bare-metal host's BMC among them: never read).
func platformUnread(ic *manifests.InstallConfigFile) diag.List {
	var out diag.List
	o := ic.Obj
	for key, raw := range ic.Sections {
		read, known := platformRead[strings.ToLower(key)]
		var fields map[string]json.RawMessage
		if json.Unmarshal(raw, &fields) != nil {
			continue
		}
		for f, v := range fields {
			if known && contains(read, f) {
				continue
			}
			if s := strings.TrimSpace(string(v)); s == "null" || s == "{}" || s == "[]" || s == `""` || s == "false" {
				continue
			}
			out = append(out, diag.Diagnostic{Pos: o.KeyPosOf("platform", key, f),
				Message: fmt.Sprintf("platform.%s.%s is not imported: a siteforge site has no place for it", diag.Clean(key), diag.Clean(f)),
				Hint:    "carry it over by hand, or install from install-config.yaml of your own"})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Pos.Compare(out[j].Pos) < 0 })
	return out
}
