package platform

import (
	"net/netip"
	"testing"
)

func TestAWSZone(t *testing.T) {
	for _, tc := range []struct {
		name, region string
		typ          AWSZoneType
	}{
		{"us-east-1a", "us-east-1", AWSAvailabilityZone},
		{"us-gov-west-1a", "us-gov-west-1", AWSAvailabilityZone},
		{"ap-northeast-1c", "ap-northeast-1", AWSAvailabilityZone},
		{"cn-north-1b", "cn-north-1", AWSAvailabilityZone},
		{"us-east-1-nyc-1a", "us-east-1", AWSLocalZone},
		{"us-west-2-lax-1a", "us-west-2", AWSLocalZone},
		{"us-east-1-atl-2a", "us-east-1", AWSLocalZone},
		{"ap-northeast-1-tpe-1a", "ap-northeast-1", AWSLocalZone},
		{"eu-central-1-ham-1a", "eu-central-1", AWSLocalZone},
		{"us-east-1-wl1-bos-wlz-1", "us-east-1", AWSWavelengthZone},
		{"ap-northeast-1-wl1-nrt-wlz-1", "ap-northeast-1", AWSWavelengthZone},
	} {
		region, typ, ok := AWSZone(tc.name)
		if !ok || region != tc.region || typ != tc.typ {
			t.Errorf("AWSZone(%q) = %q, %q, %v; want %q, %q", tc.name, region, typ, ok, tc.region, tc.typ)
		}
	}
	for _, name := range []string{"use1-az1", "us-east-1", "us-east-1ab", "us-east-1-", "useast1a", "rack-7"} {
		if region, typ, ok := AWSZone(name); ok {
			t.Errorf("AWSZone(%q) = %q, %q; want not a zone name", name, region, typ)
		}
	}
}

func TestSubnetInMachineNetworks(t *testing.T) {
	nets := []netip.Prefix{netip.MustParsePrefix("10.0.0.0/16"), netip.MustParsePrefix("fd00::/48")}
	for sub, want := range map[string]bool{
		"10.0.128.0/20":       true,
		"10.0.0.0/16":         true,
		"fd00:0:0:1::/64":     true,
		"10.0.0.0/15":         false, // starts inside, ends outside
		"10.1.0.0/20":         false,
		"fd01::/64":           false,
		"::ffff:10.0.1.0/120": false, // another family
	} {
		if got := SubnetInMachineNetworks(netip.MustParsePrefix(sub), nets); got != want {
			t.Errorf("SubnetInMachineNetworks(%s) = %v, want %v", sub, got, want)
		}
	}
}
