package load

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/site"
)

// checkPlacement checks where each pool sits against the cluster: an AWS
// pool's zone against cluster.region and the pool's placement, and every
// pool subnet against network.machineNetwork.
func checkPlacement(s *site.Site) diag.List {
	var out diag.List
	var machine []netip.Prefix
	for _, c := range s.Network.MachineNetwork {
		if p, err := netip.ParsePrefix(c); err == nil {
			machine = append(machine, p)
		}
	}
	for _, name := range s.PoolNames() {
		pool := s.Pools[name]
		if s.Cluster.Platform == site.PlatformAWS && pool.Zone != "" {
			if d, bad := checkAWSZone(s, name, pool); bad {
				out = append(out, d)
			}
		}
		if len(machine) == 0 {
			continue // the schema requires a machine network
		}
		for i, c := range pool.Subnets {
			sub, err := netip.ParsePrefix(c)
			if err != nil {
				continue // the schema and the install checks report it
			}
			if !platform.SubnetInMachineNetworks(sub, machine) {
				out = append(out, s.At(site.FieldPath("pools", name, "subnets", i),
					fmt.Sprintf("subnet %s of pool %s is outside the machine network (%s): the pool's nodes take their addresses from it, and node addresses must lie in a machineNetwork (%s)",
						c, name, strings.Join(s.Network.MachineNetwork, ", "), platform.MachineNetworkSubnetCheck),
					"carve the subnet out of a network.machineNetwork CIDR (on AWS the VPC CIDR: docs \"AWS Local Zone or Wavelength Zone tasks\"), or add a machineNetwork CIDR that contains it"))
			}
		}
	}
	return out
}

// awsZoneTypeName is how messages name a zone type.
var awsZoneTypeName = map[platform.AWSZoneType]string{
	platform.AWSAvailabilityZone: "an Availability Zone",
	platform.AWSLocalZone:        "a Local Zone",
	platform.AWSWavelengthZone:   "a Wavelength Zone",
}

// checkAWSZone checks the zone of a pool of an AWS site: a zone name, of
// cluster.region, of the type the placement says (platform.AWSZone,
// platform.AWSZoneCheck).
func checkAWSZone(s *site.Site, name string, pool site.Pool) (diag.Diagnostic, bool) {
	path := site.FieldPath("pools", name, "zone")
	region, typ, ok := platform.AWSZone(pool.Zone)
	if !ok {
		return s.At(path, fmt.Sprintf("zone %q is not an AWS zone name (%s)", pool.Zone, platform.AWSZoneNaming),
			"write the zone's name, not its zone ID (use1-az1): for example us-east-1a, us-east-1-nyc-1a or us-east-1-wl1-bos-wlz-1"), true
	}
	if want := s.Cluster.Region; want != "" && region != want {
		return s.At(path, fmt.Sprintf("zone %q is in region %s, not in cluster.region %s: %s", pool.Zone, region, want, platform.AWSZoneCheck),
			fmt.Sprintf("use a zone of %s (its name starts with %q), or set cluster.region: %q", want, want, region)), true
	}
	want := platform.AWSAvailabilityZone
	switch pool.Placement {
	case site.PlacementAWSLocalZone:
		want = platform.AWSLocalZone
	case site.PlacementAWSWavelength:
		want = platform.AWSWavelengthZone
	}
	if typ == want {
		return diag.Diagnostic{}, false
	}
	var fix string
	switch typ {
	case platform.AWSLocalZone:
		fix = fmt.Sprintf("set placement: %q, or use %s of %s", site.PlacementAWSLocalZone, awsZoneTypeName[want], region)
	case platform.AWSWavelengthZone:
		fix = fmt.Sprintf("set placement: %q, or use %s of %s", site.PlacementAWSWavelength, awsZoneTypeName[want], region)
	default:
		fix = fmt.Sprintf("use %s of %s, or set placement: \"region\"", awsZoneTypeName[want], region)
	}
	var why string
	switch {
	case want == platform.AWSAvailabilityZone:
		why = "the installer puts the pool in controlPlane or compute \"worker\", whose zones must be Availability Zones; " + platform.AWSZoneCheck
	case typ == platform.AWSAvailabilityZone:
		why = "the installer puts the pool in compute \"" + platform.AWSEdgePoolName + "\", whose zones must be Local or Wavelength Zones; " + platform.AWSZoneCheck
	default:
		why = fmt.Sprintf("the placement says which kind of edge zone the pool is in, and the release an install needs depends on it (the installer's edge pool takes Local Zones from %s, Wavelength Zones from %s)",
			platform.AWSEdgeLocalZonesSince, platform.AWSEdgeWavelengthSince)
	}
	return s.At(path, fmt.Sprintf("placement %q needs %s, but zone %q is %s: %s",
		pool.Placement, awsZoneTypeName[want], pool.Zone, awsZoneTypeName[typ], why), fix), true
}
