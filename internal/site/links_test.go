package site

import (
	"reflect"
	"testing"
)

func TestLinksAWSEdgeDefaults(t *testing.T) {
	s := &Site{
		Cluster: Cluster{Platform: "aws"},
		Pools: map[string]Pool{
			"master": {Name: "master", UplinkMTU: 9001, Placement: "region"},
			"worker": {Name: "worker", UplinkMTU: 9001, Placement: "region"},
			"edge":   {Name: "edge", UplinkMTU: 9001, Placement: PlacementAWSLocalZone},
		},
		// an explicit path overrides the platform default
		Paths: []Path{{Between: [2]string{"worker", "edge"}, MTU: 1250}},
	}
	type row struct {
		pools  []string
		mtu    int
		origin string
	}
	var got []row
	for _, l := range s.Links() {
		got = append(got, row{l.Pools, l.MTU, l.Origin})
	}
	want := []row{
		{[]string{"edge"}, 9001, "site: pools.edge.uplinkMTU"},
		{[]string{"master"}, 9001, "site: pools.master.uplinkMTU"},
		{[]string{"worker"}, 9001, "site: pools.worker.uplinkMTU"},
		{[]string{"edge", "master"}, 1300, "platform default: AWS Local Zone / Wavelength Zone <-> Region path MTU (AWS Local Zones docs)"},
		{[]string{"edge", "worker"}, 1250, "site: paths[0]"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Links() =\n%v\nwant\n%v", got, want)
	}

	// Off AWS, no default paths.
	s.Cluster.Platform = "baremetal"
	s.Paths = nil
	if n := len(s.Links()); n != 3 {
		t.Errorf("baremetal: %d links, want the 3 uplinks", n)
	}
}
