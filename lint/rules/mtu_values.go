package rules

import (
	"errors"
	"fmt"

	"github.com/siteforge/siteforge/internal/cluster/mtu"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/site"
)

// ---------------------------------------------------------------- cluster MTUs of a plain set

// mtuValue is a cluster MTU a plain set writes, and where.
type mtuValue struct {
	value   int
	obj     *manifests.Object
	path    []string
	what    string // the field, for messages
	netType string
	ipsec   bool // IPsec Full applies to it
	phase1  bool // network.to of an MTU migration
}

func (v mtuValue) pos() diag.Position { return v.obj.PosOf(v.path...) }

// specMTUs are the cluster MTUs the set writes into specs: install-config
// networking.clusterNetworkMTU and every operator config's mtu (phase 2
// included). CNO validates each of them.
func (ns *netSet) specMTUs() []mtuValue {
	return ns.clusterMTUs(false)
}

// effectiveMTUs are the cluster MTUs the cluster ends up with: phase 1's
// network.to, and the spec MTUs no migration of the set replaces (a value
// that is some migration's network.from is on its way out; phase 2 repeats
// network.to).
func (ns *netSet) effectiveMTUs() []mtuValue {
	return ns.clusterMTUs(true)
}

func (ns *netSet) clusterMTUs(effective bool) []mtuValue {
	from := map[int]bool{}
	for _, o := range ns.operators {
		if m := o.mtuMigration(); m != nil && m.NetworkFrom != nil && m.NetworkTo != nil {
			from[*m.NetworkFrom] = true
		}
	}
	setType := ns.networkType()
	var out []mtuValue
	for _, ic := range ns.installs {
		if v := ic.Networking.ClusterNetworkMTU; v != 0 && !(effective && from[v]) {
			out = append(out, mtuValue{value: v, obj: ic.Obj, path: []string{"networking", "clusterNetworkMTU"},
				what: "install-config networking.clusterNetworkMTU", netType: ic.NetworkType()})
		}
	}
	for _, o := range ns.operators {
		t := o.networkType()
		if t == "" {
			t = setType
		}
		if v, path := o.mtu(); v != nil && !(effective && (o.finalizesMigration() || from[*v])) {
			out = append(out, mtuValue{value: *v, obj: o.obj, path: path, what: path[len(path)-2] + ".mtu", netType: t, ipsec: o.ipsecFull()})
		}
		if m := o.mtuMigration(); effective && m != nil && m.NetworkTo != nil {
			out = append(out, mtuValue{value: *m.NetworkTo, obj: o.obj, path: []string{"spec", "migration", "mtu", "network", "to"},
				what: "MTU migration network.to", netType: setType, ipsec: ns.ipsecFull(), phase1: true})
		}
	}
	return out
}

// cnoInvalidMTU is CNO's message when it rejects mtu as a spec mtu ("invalid
// MTU %d"), or "" when it accepts it.
func cnoInvalidMTU(netType string, mtu int, anyIPv6 bool) string {
	err := platform.ValidateMTUChange(platform.NetworkState{NetworkType: netType, AppliedMTU: mtu, AnyIPv6: anyIPv6, CurrentConfigMTU: &mtu}, nil)
	var ce *platform.MTUChangeError
	if errors.As(err, &ce) && errors.Is(ce, platform.ErrMTUInvalid) {
		return ce.Error()
	}
	return ""
}

// posString is a position as file:line, for messages.
func posString(p diag.Position) string {
	if p.Line > 0 {
		return fmt.Sprintf("%s:%d", p.File, p.Line)
	}
	return p.File
}

func overheadLabel(netType string, ipsec bool) string {
	switch {
	case netType == platform.OpenShiftSDN:
		return "VXLAN"
	case ipsec:
		return "Geneve+IPsec"
	}
	return "Geneve"
}

// ---------------------------------------------------------------- sites

// sitePlan is the site's MTU plan (internal/cluster/mtu owns the math). A
// plan that stops early leaves Smallest 0.
func sitePlan(s *site.Site) mtu.Plan {
	p, _ := mtu.Of(s) // the render reports the plan's own errors
	return p
}
