package network

import (
	"strings"
	"testing"

	"github.com/siteforge/siteforge/internal/cluster/mtu"
	"github.com/siteforge/siteforge/internal/load"
)

func TestPlanPlatformDefaultPath(t *testing.T) {
	src := siteYAML("4.16", "install", "OVNKubernetes",
		"  edge:\n    role: worker\n    placement: aws-wavelength\n    zone: us-east-1-wl1-bos-wlz-1\n    uplinkInterface: ens5\n    uplinkMTU: 9001\n    count: 1\n")
	o, err := renderSource(t, src, true)
	if err != nil {
		t.Fatal(err)
	}
	p, err := mtu.Of(o.Site)
	if err != nil {
		t.Fatal(err)
	}
	b := p.BindingLinks()
	if len(b) != 1 || !b[0].IsPath() || b[0].MTU != 1300 || b[0].Pos.IsValid() ||
		!strings.HasPrefix(b[0].Origin, "platform default:") || b[0].Where != "edge: aws-wavelength us-east-1-wl1-bos-wlz-1" {
		t.Fatalf("binding = %+v", b)
	}
	if got := mtu.LinkPath(o.Site, b[0].Link); got != "pools.edge.placement" {
		t.Errorf("a platform default link points at %s, want the edge pool's placement", got)
	}
	if p.Largest != 1200 || p.Overhead != 100 || p.Floor != 576 || p.Machine != 0 {
		t.Errorf("plan %+v", p)
	}
}

func TestPlanMachineMTU(t *testing.T) {
	res := load.Load([]string{"testdata/machine-mtu/site.yaml"})
	if len(res.Diagnostics) > 0 {
		t.Fatal(res.Diagnostics)
	}
	p, err := mtu.Of(res.Sites[0])
	if err != nil {
		t.Fatal(err)
	}
	// The uplinks count at the machine MTU the site wants, not at today's 1500.
	for _, l := range p.Links {
		if l.MTU != 9000 || !strings.HasPrefix(l.Origin, "site: mtu.machine (pools.") || mtu.LinkPath(res.Sites[0], l.Link) != "mtu.machine" {
			t.Errorf("link %s: %d from %q", l.Label(), l.MTU, l.Origin)
		}
	}
	if p.Target != 8900 || p.Machine != 9000 || *p.Current != 1400 || !p.MigrationDue() {
		t.Errorf("plan %+v", p)
	}
	cfgs := interfaceConfigs(res.Sites[0], p.Machine)
	var got []string
	for _, c := range cfgs {
		got = append(got, c.Name+"/"+c.Role+"/"+strings.Join(c.Interfaces, ",")+"/"+strings.Join(c.Pools, ","))
	}
	want := "01-control-plane-interface/master/eno1/master 01-worker-interface/worker/eno1/infra,storage,worker 01-storage-interface/storage/ens1f0/storage"
	if strings.Join(got, " ") != want {
		t.Errorf("interface configs\n %s\nwant\n %s", strings.Join(got, " "), want)
	}
}

func TestPlanIPsec(t *testing.T) {
	res := load.Load([]string{"testdata/ipsec-install/site.yaml"})
	p, err := mtu.Of(res.Sites[0])
	if err != nil {
		t.Fatal(err)
	}
	if !p.AnyIPv6 || !p.IPsecFull || p.Overhead != 146 || p.OverheadName != "Geneve+IPsec" || p.Floor != 1280 || p.Target != 1354 {
		t.Errorf("plan %+v", p)
	}
}
