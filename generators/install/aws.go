package install

import (
	"fmt"
	"slices"

	"github.com/siteforge/siteforge/generators"
	"github.com/siteforge/siteforge/internal/cluster/mtu"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/ruleid"
	"github.com/siteforge/siteforge/internal/site"
	"github.com/siteforge/siteforge/internal/upstream"
)

// awsPool gathers the site pools behind one install-config machine pool.
type awsPool struct {
	name     string
	pools    []string
	replicas int
	zones    []string
	// instanceType and typePool: the first pool naming an instance type.
	instanceType, typePool string
	// zoned and unzoned pools, to refuse a mix.
	zoned, unzoned []string
}

func (p *awsPool) add(s *site.Site, name string, n int) diag.List {
	sp := s.Pools[name]
	p.pools = append(p.pools, name)
	p.replicas += n
	if sp.Zone != "" {
		p.zoned = append(p.zoned, name)
		if !slices.Contains(p.zones, sp.Zone) {
			p.zones = append(p.zones, sp.Zone)
		}
	} else {
		p.unzoned = append(p.unzoned, name)
	}
	if sp.InstanceType == "" || sp.InstanceType == p.instanceType {
		return nil
	}
	if p.instanceType == "" {
		p.instanceType, p.typePool = sp.InstanceType, name
		return nil
	}
	return diag.List{s.At(site.FieldPath("pools", name, "instanceType"),
		fmt.Sprintf("install-config has one %s machine pool for pools %s and %s, and one instance type: %s has %s, %s has %s", p.name, p.typePool, name, p.typePool, p.instanceType, name, sp.InstanceType),
		"give the pools the same instanceType, or install with one and add the other pool's MachineSet after the installation")}
}

// machinePool is the install-config pool.
func (p *awsPool) machinePool() upstream.MachinePool {
	mp := upstream.MachinePool{Name: p.name, Replicas: int64p(p.replicas), Architecture: platform.InstallerDefaultArchitecture}
	if p.instanceType != "" || len(p.zones) > 0 {
		mp.Platform.AWS = &upstream.AWSMachinePool{InstanceType: p.instanceType, Zones: p.zones}
	}
	return mp
}

// edgePlacements are the pool placements of the AWS edge compute pool, with
// the release that installs them from install-config.
var edgePlacements = map[string]platform.OCPMinor{
	site.PlacementAWSLocalZone:  platform.AWSEdgeLocalZonesSince,
	site.PlacementAWSWavelength: platform.AWSEdgeWavelengthSince,
}

// awsIPI writes install-config.yaml for `openshift-install create cluster`
// on AWS (docs "Installing a cluster on AWS with customizations", "Installing
// a cluster on AWS with compute nodes on AWS Local Zones" / "... Wavelength
// Zones").
func (f *finish) awsIPI(ctx *generators.Context, s *site.Site) error {
	var diags, incomplete diag.List
	ic := &upstream.InstallConfig{}
	header := []string{fmt.Sprintf("install-config.yaml for `openshift-install create cluster` on AWS (OpenShift %s). The installer creates the VPC with networking.machineNetwork and carves its subnets itself: the pools' subnets are not install-config input (an existing VPC needs platform.aws.vpc and subnet IDs, which the site does not describe).", ctx.Minor), pullSecretNote()}
	notes, err := f.common(ctx, s, ic)
	if err != nil {
		return err
	}
	if s.Cluster.Region == "" {
		incomplete = append(incomplete, s.At("cluster", "an AWS IPI install needs the region (install-config platform.aws.region)", `set cluster.region, for example "us-east-1"`))
	}
	ic.Platform.AWS = &upstream.AWSPlatform{Region: s.Cluster.Region}

	master := &awsPool{name: platform.InstallPoolControlPlane}
	worker := &awsPool{name: platform.InstallPoolCompute}
	edge := &awsPool{name: platform.AWSEdgePoolName}
	for _, name := range s.PoolNames() {
		p := s.Pools[name]
		n, d := poolSize(s, name)
		if d != nil {
			incomplete = append(incomplete, *d)
			continue
		}
		target := worker
		if since, ok := edgePlacements[p.Placement]; ok {
			target = edge
			if ctx.Minor < since {
				diags = append(diags, s.At(site.FieldPath("pools", name, "placement"),
					fmt.Sprintf("the installer creates %s pools (compute pool %q with zones) from OpenShift %s; cluster.version is %s", p.Placement, platform.AWSEdgePoolName, since, s.Cluster.Version),
					fmt.Sprintf("install OpenShift %s or later, or install without the pool and extend the cluster after the installation (docs \"AWS Local Zone or Wavelength Zone tasks\")", since)))
			}
			if p.Zone == "" {
				diags = append(diags, s.At(site.FieldPath("pools", name),
					fmt.Sprintf("pool %s (%s) names no zone: the installer requires zones for the %s compute pool (\"zone is required when using edge machine pools\")", name, p.Placement, platform.AWSEdgePoolName),
					"set zone to the Local Zone or Wavelength Zone name, for example us-east-1-nyc-1a"))
			}
		} else if p.Role == site.RoleMaster {
			target = master
		}
		diags = append(diags, target.add(s, name, n)...)
	}
	for _, p := range []*awsPool{master, worker} {
		if len(p.zoned) > 0 && len(p.unzoned) > 0 {
			diags = append(diags, s.At(site.FieldPath("pools", p.unzoned[0]),
				fmt.Sprintf("install-config has one %s machine pool with one zone list: pool %s names zone %s, pool %s names none", p.name, p.zoned[0], s.Pools[p.zoned[0]].Zone, p.unzoned[0]),
				"set zone on every pool of the machine pool, or on none (the installer then spreads the machines over the region's zones)"))
		}
	}
	cp := master.machinePool()
	ic.ControlPlane = &cp
	ic.Compute = []upstream.MachinePool{worker.machinePool()}
	header = append(header, fmt.Sprintf("controlPlane: pools %v; compute %s: pools %v (platform.aws.type from the pools' instanceType, zones from their zone; the installer's defaults where unset).", master.pools, platform.InstallPoolCompute, worker.pools))

	if len(edge.pools) > 0 {
		ic.Compute = append(ic.Compute, edge.machinePool())
		header = append(header, fmt.Sprintf("compute %s: pools %v in zones %v. The installer creates a subnet in each zone, labels the nodes node-role.kubernetes.io/edge and taints them NoSchedule.", platform.AWSEdgePoolName, edge.pools, edge.zones))
		plan, err := mtu.Of(s)
		if err != nil {
			return err
		}
		installerMTU, known := platform.EdgePoolClusterMTU(plan.NetworkType)
		if !known || plan.Target != installerMTU {
			if msg := platform.InstallerClusterMTUError(site.PlatformAWS, plan.NetworkType, plan.Target); msg != "" {
				path := "mtu"
				if s.MTU != nil && s.MTU.Target != nil {
					path = "mtu.target" // the value the installer refuses, as the site wrote it
				}
				d := s.At(path, fmt.Sprintf("the cluster MTU %d this site needs is refused by the installer as networking.clusterNetworkMTU: %s", plan.Target, msg),
					"change the paths or mtu.target so the cluster MTU is one the installer accepts")
				d.Rule = ruleid.InstallConfigMTURefused
				diags = append(diags, d)
			}
			ic.Networking.ClusterNetworkMTU = int(plan.Target)
			header = append(header, fmt.Sprintf("networking.clusterNetworkMTU: %d, the site's cluster MTU; the installer writes it into manifests/%s itself (installer pkg/asset/manifests/network.go), instead of its edge-pool default.", plan.Target, platform.InstallerNetworkManifestName))
		} else {
			header = append(header, fmt.Sprintf("No networking.clusterNetworkMTU: with the %s pool the installer writes manifests/%s itself with cluster MTU %d for %s (installer pkg/asset/manifests/network.go), which is the site's cluster MTU (smallest link %d - %s overhead %d).",
				platform.AWSEdgePoolName, platform.InstallerNetworkManifestName, installerMTU, plan.NetworkType, plan.Smallest, plan.OverheadName, plan.Overhead))
		}
		if s.Network.IPsec == platform.IPsecModeDisabled {
			f.skipDay0 = map[string]string{platform.InstallerNetworkManifestName: "the installer writes it"}
			header = append(header, fmt.Sprintf("So siteforge ships no %s of its own in install/manifests: the installer's file carries the same MTU.", platform.InstallerNetworkManifestName))
		} else {
			header = append(header, fmt.Sprintf("install/manifests/%s (with the IPsec configuration the installer's file lacks) replaces the installer's after `openshift-install create manifests`; both carry cluster MTU %d.", platform.InstallerNetworkManifestName, plan.Target))
		}
	}
	if len(diags) > 0 {
		return diags.Sort()
	}
	if len(incomplete) > 0 {
		warnIncomplete(ctx, incomplete, InstallConfigPath)
		return nil
	}
	header = append(header, notes...)
	data, err := encode(ic, header)
	if err != nil {
		return fmt.Errorf("encode %s: %w", InstallConfigPath, err)
	}
	origin := origins(s, "cluster", "network", "pools", "install", "paths", "mtu")
	if f.mirrors != nil {
		origin = diag.Unique(append(origin, f.mirrors.Origin...)...)
	}
	f.arts = append(f.arts, generators.Artifact{Path: InstallConfigPath, Role: generators.File, Data: data, Comment: "#", Origin: origin})
	return nil
}
