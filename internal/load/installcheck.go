package load

import (
	"strconv"

	"github.com/siteforge/siteforge/internal/cluster/installcheck"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/site"
)

// checkInstall runs the install checks (internal/cluster/installcheck) on the
// site: the VIP, address, MAC, CIDR and NMState checks on every site, and the
// ones about installing (single node, control-plane size, rendezvous host,
// BMCs of hub installs) on a site with lifecycle "install".
func checkInstall(s *site.Site) diag.List {
	var out diag.List
	for _, f := range installcheck.Run(installFacts(s)) {
		path := f.Key.(string)
		if len(f.Sub) > 0 {
			parts := make([]any, 0, len(f.Sub))
			for _, p := range f.Sub {
				if i, err := strconv.Atoi(p); err == nil {
					parts = append(parts, i)
				} else {
					parts = append(parts, p)
				}
			}
			path = joinPath(path, site.FieldPath(parts...))
		}
		d := s.At(path, f.Message, f.Hint)
		d.Rule = f.Check.Rule() // the INS rule lint reports the same problem under
		out = append(out, d)
	}
	return out
}

func joinPath(a, b string) string {
	if len(b) > 0 && b[0] == '[' {
		return a + b
	}
	return a + "." + b
}

// installFacts describes the site to installcheck; every key is the site
// field path of the value.
func installFacts(s *site.Site) *installcheck.Facts {
	f := &installcheck.Facts{
		Platform:    s.Cluster.Platform,
		PlatformKey: "cluster.platform",
		Method:      installcheck.MethodOther,
		NetworkType: s.Network.Type,
	}
	install := s.Cluster.Lifecycle == site.LifecycleInstall
	if install {
		switch s.Cluster.InstallMethod {
		case site.InstallAgent:
			f.Method = installcheck.MethodAgent
		case site.InstallAssisted:
			f.Method = installcheck.MethodAssisted
		case site.InstallImageBased:
			f.Method = installcheck.MethodImage
		}
		f.HubHosts = s.HubInstalled()
	}
	if m, err := s.Minor(); err == nil {
		f.Minor = m
	}
	val := func(v string, parts ...any) installcheck.Value {
		return installcheck.Value{V: v, Key: site.FieldPath(parts...)}
	}
	n := &s.Network
	for i, c := range n.MachineNetwork {
		f.CIDRs = append(f.CIDRs, installcheck.CIDR{Kind: "machineNetwork", Value: val(c, "network", "machineNetwork", i)})
	}
	for i, c := range n.ClusterNetwork {
		f.CIDRs = append(f.CIDRs, installcheck.CIDR{Kind: "clusterNetwork", Value: val(c.CIDR, "network", "clusterNetwork", i, "cidr"),
			HostPrefix: val(hostPrefix(c.HostPrefix), "network", "clusterNetwork", i, "hostPrefix")})
	}
	for i, c := range n.ServiceNetwork {
		f.CIDRs = append(f.CIDRs, installcheck.CIDR{Kind: "serviceNetwork", Value: val(c, "network", "serviceNetwork", i)})
	}
	for i, v := range n.APIVIPs {
		f.APIVIPs = append(f.APIVIPs, val(v, "network", "apiVIPs", i))
	}
	for i, v := range n.IngressVIPs {
		f.IngressVIPs = append(f.IngressVIPs, val(v, "network", "ingressVIPs", i))
	}
	f.ControlPlane, f.Workers = 0, 0
	f.WorkersKey = "pools"
	for _, name := range s.PoolNames() {
		pool := s.Pools[name]
		for i, c := range pool.Subnets {
			f.CIDRs = append(f.CIDRs, installcheck.CIDR{Kind: "subnet of pool " + name, Value: val(c, "pools", name, "subnets", i)})
		}
		size := pool.Size()
		if pool.Role == site.RoleMaster {
			if f.ControlPlaneKey == nil {
				f.ControlPlaneKey = site.FieldPath("pools", name)
				if len(pool.Nodes) > 0 {
					f.ControlPlaneKey = site.FieldPath("pools", name, "nodes")
				} else if pool.Count != nil {
					f.ControlPlaneKey = site.FieldPath("pools", name, "count")
				}
			}
			if size < 0 || f.ControlPlane < 0 {
				f.ControlPlane = -1
			} else {
				f.ControlPlane += size
			}
		} else if size < 0 || f.Workers < 0 {
			f.Workers = -1
		} else {
			f.Workers += size
		}
		role := installcheck.RoleWorker
		if pool.Role == site.RoleMaster {
			role = installcheck.RoleMaster
		}
		for i, node := range pool.Nodes {
			at := func(parts ...any) string {
				return site.FieldPath(append([]any{"pools", name, "nodes", i}, parts...)...)
			}
			h := installcheck.Host{Name: node.Name, Role: role, Key: at()}
			if node.IP != "" {
				h.IPs = append(h.IPs, installcheck.Value{V: node.IP, Key: at("ip")})
			}
			if node.IPv6 != "" {
				h.IPs = append(h.IPs, installcheck.Value{V: node.IPv6, Key: at("ipv6")})
			}
			for j, in := range node.Interfaces {
				h.Interfaces = append(h.Interfaces, installcheck.Interface{
					Name: installcheck.Value{V: in.Name, Key: at("interfaces", j, "name")},
					MAC:  installcheck.Value{V: in.MACAddress, Key: at("interfaces", j, "macAddress")},
				})
			}
			if len(node.Interfaces) == 0 {
				// the agent installer and the hub map the boot MAC to the
				// uplink
				h.NICNames = []string{pool.UplinkInterface}
				if node.BootMAC != "" {
					h.BootNIC = installcheck.Value{V: pool.UplinkInterface, Key: at("bootMAC")}
				}
			}
			h.BootMAC = installcheck.Value{V: node.BootMAC, Key: at("bootMAC")}
			if node.BootMAC == "" {
				h.BootMAC.Key = at()
			}
			if node.RootDeviceHints != nil && node.RootDeviceHints.DeviceName != "" {
				h.RootDeviceName = installcheck.Value{V: node.RootDeviceHints.DeviceName, Key: at("rootDeviceHints", "deviceName")}
			}
			if node.BMC != nil {
				h.BMC = &installcheck.BMC{Key: at("bmc"), CredentialsName: installcheck.Value{V: node.BMC.CredentialsSecret, Key: at("bmc", "credentialsSecret")}}
			}
			if node.NetworkConfig != nil {
				h.NetworkConfig = node.NetworkConfig
				h.NetworkConfigKey = at("networkConfig")
			}
			f.Hosts = append(f.Hosts, h)
		}
	}
	if s.Install != nil && s.Install.RendezvousIP != "" {
		f.RendezvousIP = val(s.Install.RendezvousIP, "install", "rendezvousIP")
	}
	if f.ControlPlaneKey == nil {
		// no master pool: checkSemantics says so
		f.ControlPlane, f.ControlPlaneKey = -1, "pools"
	}
	return f
}

// hostPrefix is a cluster network's hostPrefix as installcheck takes it: ""
// for 0, which the installer cannot tell from unset.
func hostPrefix(n int) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n)
}
