package install

import (
	"fmt"
	"maps"
	"slices"

	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/site"
	"github.com/siteforge/siteforge/internal/upstream"
)

// agent writes install-config.yaml, agent-config.yaml and
// mirror/registries.conf for `openshift-install agent create image` (docs
// "Installing an on-premise cluster with the Agent-based Installer").
func (f *finish) agent(ctx *generators.Context, s *site.Site) error {
	var diags diag.List
	if ctx.Minor < platform.AgentInstallerSince {
		diags = append(diags, s.At("cluster.installMethod",
			fmt.Sprintf("siteforge writes agent-config %s, which the agent installer reads from OpenShift %s; cluster.version is %s", platform.AgentConfigAPIVersion, platform.AgentInstallerSince, s.Cluster.Version),
			fmt.Sprintf("install OpenShift %s or later", platform.AgentInstallerSince)))
		return diags
	}
	ic := &upstream.InstallConfig{}
	header := []string{fmt.Sprintf("install-config.yaml for the agent installer (OpenShift %s): `openshift-install agent create image --dir <copy of install/>` reads it with agent-config.yaml, mirror/registries.conf and the manifests in openshift/.", ctx.Minor), pullSecretNote()}
	notes, err := f.common(ctx, s, ic)
	if err != nil {
		return err
	}

	var incomplete diag.List
	masters, workers := 0, 0
	for _, name := range s.PoolNames() {
		n, d := poolSize(s, name)
		if d != nil {
			incomplete = append(incomplete, *d)
			continue
		}
		if s.Pools[name].Role == site.RoleMaster {
			masters += n
		} else {
			workers += n
		}
	}
	ic.ControlPlane = &upstream.MachinePool{Name: platform.InstallPoolControlPlane, Replicas: int64p(masters), Architecture: platform.InstallerDefaultArchitecture}
	ic.Compute = []upstream.MachinePool{{Name: platform.InstallPoolCompute, Replicas: int64p(workers), Architecture: platform.InstallerDefaultArchitecture}}
	header = append(header, fmt.Sprintf("controlPlane: %d replicas (the master pools); compute %s: %d replicas (every other pool: custom pools install as workers and join their pool once its MachineConfigPool and node labels are applied). architecture: %s (the site names none).",
		masters, platform.InstallPoolCompute, workers, platform.InstallerDefaultArchitecture))

	switch s.Cluster.Platform {
	case site.PlatformBareMetal:
		if len(s.Network.APIVIPs) == 0 || len(s.Network.IngressVIPs) == 0 {
			incomplete = append(incomplete, s.At("network", "an agent install on platform baremetal needs network.apiVIPs and network.ingressVIPs (keepalived holds them on the nodes)",
				`add free addresses of the machine network as apiVIPs and ingressVIPs, or install a single node with cluster.platform: "none"`))
		}
		ic.Platform.BareMetal = &upstream.BareMetalPlatform{APIVIPs: s.Network.APIVIPs, IngressVIPs: s.Network.IngressVIPs}
		header = append(header, "platform baremetal: apiVIPs and ingressVIPs from network (no hosts and no BMC credentials here: agent-config carries the hosts, and the agent installer boots them from the ISO).")
	case site.PlatformNone:
		ic.Platform.None = &upstream.NonePlatform{}
		header = append(header, "platform none: no VIPs; DNS and load balancing for api and *.apps are yours (docs \"Installing an on-premise cluster with the Agent-based Installer\").")
	default:
		diags = append(diags, s.At("cluster.platform", fmt.Sprintf("siteforge writes agent install-configs for platforms baremetal and none, not %q", s.Cluster.Platform),
			`use cluster.platform: "baremetal" or "none"`))
	}

	ac, acNotes, dl, missing := agentConfig(s)
	diags = append(diags, dl...)
	incomplete = append(incomplete, missing...)
	if len(diags) > 0 {
		return diags.Sort()
	}
	if len(incomplete) > 0 {
		warnIncomplete(ctx, incomplete, InstallConfigPath+" and "+AgentConfigPath)
		return nil
	}
	header = append(header, notes...)

	data, err := encode(ic, header)
	if err != nil {
		return fmt.Errorf("encode %s: %w", InstallConfigPath, err)
	}
	icOrigin := origins(s, "cluster", "network", "pools", "install")
	if f.mirrors != nil {
		icOrigin = diag.Unique(append(icOrigin, f.mirrors.Origin...)...)
	}
	f.arts = append(f.arts, generators.Artifact{Path: InstallConfigPath, Role: generators.File, Data: data, Comment: "#", Origin: icOrigin})

	acHeader := append([]string{fmt.Sprintf("agent-config.yaml (%s %s) for the agent installer (OpenShift %s), next to install-config.yaml (docs \"Agent configuration parameters\").", platform.AgentConfigAPIVersion, platform.AgentConfigKind, ctx.Minor)}, acNotes...)
	data, err = encode(ac, acHeader)
	if err != nil {
		return fmt.Errorf("encode %s: %w", AgentConfigPath, err)
	}
	f.arts = append(f.arts, generators.Artifact{Path: AgentConfigPath, Role: generators.File, Data: data, Comment: "#", Origin: origins(s, "pools", "install")})

	if f.mirrors != nil {
		text := fmt.Sprintf("The agent installer's registries.conf (OpenShift %s): what `openshift-install agent create image` generates from install-config %s, for the agent ISO and the rendezvous host (installer pkg/asset/agent/mirror registriesconf.go). The installer writes %s itself, and discards a copy it finds beside install-config.yaml (openshift/installer pkg/asset/store/store.go load: the file depends on install-config.yaml), so this one is for review only: the ISO's mirrors, reviewed with the site. siteforge install-config does not copy it. Digest-only on purpose: the agent installer writes nothing else, and tag mirroring set here would not survive the installation.",
			ctx.Minor, f.mirrors.Field, platform.AgentRegistriesConfAssetPath)
		if s.Install == nil || s.Install.AdditionalTrustBundle == "" {
			text += fmt.Sprintf(" No %s: install.additionalTrustBundle is not set.", platform.AgentCABundleAssetPath)
		} else {
			text += fmt.Sprintf(" The mirrors' CA goes to %s: the agent installer writes it from install-config additionalTrustBundle.", platform.AgentCABundleAssetPath)
		}
		conf := []byte(generators.CommentBlock(text))
		conf = append(conf, f.mirrors.RegistriesConf...)
		f.arts = append(f.arts, generators.Artifact{Path: AgentRegistriesConfPath, Role: generators.File, Data: conf, Comment: "#", Origin: f.mirrors.Origin})
	}
	return nil
}

// agentConfig builds agent-config.yaml: rendezvousIP, NTP sources and one
// host per node of the site.
// Problems are diags; what the site does not say yet is missing.
func agentConfig(s *site.Site) (ac *upstream.AgentConfig, notes []string, diags, missing diag.List) {
	ac = &upstream.AgentConfig{APIVersion: platform.AgentConfigAPIVersion, Kind: platform.AgentConfigKind, Metadata: upstream.ObjectMeta{Name: s.Cluster.Name}}
	if s.Install != nil {
		ac.AdditionalNTPSources = append([]string(nil), s.Install.NTPSources...)
		ac.RendezvousIP = s.Install.RendezvousIP
	}
	if len(ac.AdditionalNTPSources) > 0 {
		notes = append(notes, "additionalNTPSources: install.ntpSources, used from the first boot of the agent ISO and added to the nodes' chrony configuration.")
	}
	if ac.RendezvousIP == "" {
		masters := s.Masters()
		if len(masters) == 0 {
			missing = append(missing, s.At("pools", "the agent installer needs a rendezvous IP: the IP of a master, which runs the assisted service during the installation",
				"list the master pool's nodes with their ip, or set install.rendezvousIP"))
			return nil, nil, nil, missing
		}
		if masters[0].IP == "" {
			missing = append(missing, s.At("install", fmt.Sprintf("the agent installer needs a rendezvous IP: the first master, %s, has no ip", masters[0].Name),
				"set install.rendezvousIP to the address of a master, or the master's ip"))
			return nil, nil, nil, missing
		}
		ac.RendezvousIP = masters[0].IP
		notes = append(notes, fmt.Sprintf("rendezvousIP: the first master's ip (%s); set install.rendezvousIP to choose another master.", masters[0].Name))
	} else {
		notes = append(notes, "rendezvousIP: install.rendezvousIP.")
	}

	// A host is identified by its MACs: every host needs one (installer
	// pkg/asset/agent/agentconfig agenthosts.go validateHostInterfaces: "at
	// least one interface must be defined for each node"). Hosts are
	// optional (docs "Agent configuration parameters": hosts; DHCP), so a
	// site that names no MAC at all gets none; a site that names some gets
	// an error for the nodes without.
	anyMAC := false
	for _, name := range s.PoolNames() {
		for _, n := range s.Pools[name].Nodes {
			if n.BootMAC != "" || len(n.Interfaces) > 0 {
				anyMAC = true
			}
		}
	}
	for _, name := range s.PoolNames() {
		p := s.Pools[name]
		for i, n := range p.Nodes {
			path := site.FieldPath("pools", name, "nodes", i)
			h := upstream.AgentHost{Hostname: n.Name, Role: platform.AgentHostRoleWorker, RootDeviceHints: n.RootDeviceHints}
			if len(n.NetworkConfig) > 0 {
				h.NetworkConfig = n.NetworkConfig
			}
			if p.Role == site.RoleMaster {
				h.Role = platform.AgentHostRoleMaster
			}
			for _, in := range n.Interfaces {
				h.Interfaces = append(h.Interfaces, upstream.Interface{Name: in.Name, MacAddress: in.MACAddress})
			}
			if len(h.Interfaces) == 0 && n.BootMAC != "" {
				h.Interfaces = []upstream.Interface{{Name: p.UplinkInterface, MacAddress: n.BootMAC}}
			}
			if len(h.Interfaces) == 0 {
				if anyMAC || n.NetworkConfig != nil || n.RootDeviceHints != nil {
					diags = append(diags, s.At(path, fmt.Sprintf("node %s has no MAC address: an agent-config host is recognised by the MACs of its interfaces", n.Name),
						fmt.Sprintf("add bootMAC (the MAC of %s) or interfaces [{name, macAddress}] to the node", p.UplinkInterface)))
				}
				continue
			}
			if hints := n.RootDeviceHints; hints != nil {
				set := map[string]bool{"wwnWithExtension": hints.WWNWithExtension != "", "wwnVendorExtension": hints.WWNVendorExtension != ""}
				for _, field := range slices.Sorted(maps.Keys(platform.AgentUnsupportedRootDeviceHints)) {
					if set[field] {
						diags = append(diags, s.At(path+".rootDeviceHints."+field, "the agent installer refuses this root device hint: "+platform.AgentUnsupportedRootDeviceHints[field],
							"use wwn, serialNumber or deviceName (/dev/disk/by-path/...) instead"))
					}
				}
			}
			ac.Hosts = append(ac.Hosts, h)
		}
	}
	switch {
	case len(ac.Hosts) > 0:
		notes = append(notes, "hosts: every node of the site; role master for the master pools, worker for every other pool; interfaces from the node's interfaces, else its bootMAC on the pool's uplinkInterface; rootDeviceHints and networkConfig (NMState) as the site writes them.")
	case len(diags) == 0:
		notes = append(notes, "No hosts: no node of the site names a MAC address. The agent installer then takes any host that boots the ISO, with addresses from DHCP (reserve the rendezvous IP for a master) and roles assigned by the assisted service. Add bootMAC or interfaces to the nodes to pin host names, roles, disks and static networking.")
	}
	return ac, notes, diags, nil
}
