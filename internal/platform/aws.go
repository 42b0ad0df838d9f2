package platform

import (
	"regexp"
	"strings"
)

// AWSZoneType is the kind of an AWS zone, spelled as EC2
// DescribeAvailabilityZones reports it in ZoneType (and as the installer's
// pkg/types/aws AvailabilityZoneType, LocalZoneType and WavelengthZoneType).
type AWSZoneType string

// AWS zone types.
const (
	AWSAvailabilityZone AWSZoneType = "availability-zone"
	AWSLocalZone        AWSZoneType = "local-zone"
	AWSWavelengthZone   AWSZoneType = "wavelength-zone"
)

// AWSZoneNaming is where the zone names below come from, for messages.
const AWSZoneNaming = `AWS docs "AWS Availability Zones": an Availability Zone is its Region code followed by a letter (us-east-2a); "Available Local Zones" and "Available Wavelength Zones": a Local or Wavelength Zone is its parent Region's code followed by a location identifier (us-west-2-lax-1a, us-east-1-wl1-bos-wlz-1)`

// AWSZoneCheck is the installer's check of install-config machine pool
// zones, for messages: openshift/installer
// pkg/asset/installconfig/aws/validation.go validateMachinePool accepts only
// zones EC2 lists for the region (availabilityzones.go
// describeAvailabilityZones, filtered by region-name), availability zones for
// controlPlane and compute "worker" (availabilityZones), Local and Wavelength
// Zones for compute "edge" (edgeZones), and refuses the rest ("One or more
// zones are unavailable").
const AWSZoneCheck = `the installer's validateMachinePool accepts only the zones EC2 lists for the region, of the pool's type ("One or more zones are unavailable")`

// awsZoneName splits an AWS zone name into its Region code and the rest:
// the Region code is two letters, one or more words and a number
// (us-east-1, ap-northeast-1, us-gov-west-1, cn-north-1); the rest is an
// Availability Zone's letter or a Local or Wavelength Zone's location
// identifier (AWS docs "AWS Availability Zones", "Available Local Zones",
// "Available Wavelength Zones").
var awsZoneName = regexp.MustCompile(`^([a-z]{2}(?:-[a-z]+)+-[0-9]+)([a-z]|-[a-z0-9-]*[a-z0-9])$`)

// AWSZone reads an AWS zone name: the Region it belongs to and its type.
// ok is false when name is not a zone name (a zone ID such as use1-az1, or
// a typo). Wavelength Zones are told by their "-wlz-" location
// (us-east-1-wl1-bos-wlz-1), Availability Zones by the single letter after
// the Region code (us-east-1a); every other location is a Local Zone
// (us-east-1-nyc-1a, us-west-2-lax-1a).
func AWSZone(name string) (region string, typ AWSZoneType, ok bool) {
	m := awsZoneName.FindStringSubmatch(name)
	if m == nil {
		return "", "", false
	}
	region, rest := m[1], m[2]
	switch {
	case len(rest) == 1:
		typ = AWSAvailabilityZone
	case strings.Contains(rest+"-", "-wlz-"):
		typ = AWSWavelengthZone
	default:
		typ = AWSLocalZone
	}
	return region, typ, true
}
