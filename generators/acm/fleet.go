package acm

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/bits"
	"reflect"
	"sort"
	"strings"
	"sync"

	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/site"
)

// Fleet gathers the sites of one render that deliver through a hub. Add is
// safe for concurrent use (render's workers call it); each distinct object
// is kept once, so memory grows with the distinct configurations and, per
// site, with a list of object numbers.
type Fleet struct {
	mu      sync.Mutex
	objects []Object       // distinct objects, by number
	index   map[string]int // canonical JSON -> number
	sites   []fleetSite
}

type fleetSite struct {
	Record
	objs []int
}

// Add adds a site.
func (f *Fleet) Add(s *Site) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.index == nil {
		f.index = map[string]int{}
	}
	fs := fleetSite{Record: s.Record, objs: make([]int, 0, len(s.Objects))}
	for _, o := range s.Objects {
		n, ok := f.index[string(o.JSON)]
		if !ok {
			n = len(f.objects)
			f.objects = append(f.objects, o)
			f.index[string(o.JSON)] = n
		}
		fs.objs = append(fs.objs, n)
	}
	f.sites = append(f.sites, fs)
}

// Len is the number of sites added.
func (f *Fleet) Len() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.sites)
}

// Tiers of the ZTP reference layout.
const (
	tierCommon = iota
	tierGroup
	tierSite
)

// set is a set of site numbers (a bitset over the fleet's sites).
type set []uint64

func newSet(n int) set { return make(set, (n+63)/64) }

func (s set) add(i int)      { s[i/64] |= 1 << (i % 64) }
func (s set) has(i int) bool { return s[i/64]&(1<<(i%64)) != 0 }
func (s set) key() string    { return string(keyBytes(s)) }
func (s set) and(t set) set {
	u := make(set, len(s))
	for i := range s {
		u[i] = s[i] & t[i]
	}
	return u
}
func (s set) equal(t set) bool { return reflect.DeepEqual(s, t) }
func (s set) covers(t set) bool {
	for i := range s {
		if t[i]&^s[i] != 0 {
			return false
		}
	}
	return true
}
func (s set) count() (n int) {
	for _, w := range s {
		n += bits.OnesCount64(w)
	}
	return n
}
func (s set) first() int {
	for i, w := range s {
		if w != 0 {
			return i*64 + bits.TrailingZeros64(w)
		}
	}
	return -1
}
func (s set) members() (out []int) {
	for i := range len(s) * 64 {
		if s.has(i) {
			out = append(out, i)
		}
	}
	return out
}

// keyBytes is the set as bytes, a map key.
func keyBytes(s set) []byte {
	b := make([]byte, 8*len(s))
	for i, w := range s {
		for j := range 8 {
			b[8*i+j] = byte(w >> (8 * j))
		}
	}
	return b
}

// plan is the policies of a fleet.
type plan struct {
	opts       site.ACMDelivery
	placements []*placement
	objects    []Object
}

// placement is one Placement: the clusters a label selector picks, and
// the policies placed there, one per wave.
type placement struct {
	tier     int
	ns       string
	base     string // names the placement, its binding and its policies
	name     string // the Placement's name
	binding  string // the PlacementBinding's name
	selector map[string]string
	sites    set
	policies []*policy
}

type policy struct {
	name string
	wave int
	objs []int
	deps []*policy
	pl   *placement
}

// planFleet factors the fleet's objects into placements and policies.
func (f *Fleet) planFleet() (*plan, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	sites := f.sites
	sort.Slice(sites, func(i, j int) bool { return sites[i].Site < sites[j].Site })
	if len(sites) == 0 {
		return nil, nil
	}
	p := &plan{opts: sites[0].Delivery, objects: f.objects}
	for _, s := range sites[1:] {
		if !reflect.DeepEqual(s.Delivery, p.opts) {
			return nil, diag.List{{Pos: s.Positions["delivery.acm"].diag(), Path: "delivery.acm",
				Message: fmt.Sprintf("site %s delivers through the hub with other settings than site %s: the sites of one render share the hub's policies, so they share delivery.acm", s.Site, sites[0].Site),
				Hint:    "set delivery.acm once, in the fleet defaults"}}
		}
	}
	n := len(sites)
	all := newSet(n)
	for i := range sites {
		all.add(i)
	}
	// label k=v -> the sites that have it
	byLabel := map[string]map[string]set{}
	for i, s := range sites {
		for k, v := range s.Labels {
			if byLabel[k] == nil {
				byLabel[k] = map[string]set{}
			}
			if byLabel[k][v] == nil {
				byLabel[k][v] = newSet(n)
			}
			byLabel[k][v].add(i)
		}
	}
	groupKeys := p.opts.GroupLabels
	if len(groupKeys) == 0 {
		for k, vals := range byLabel {
			// a key with one value per site names sites, not groups
			if len(vals) < n {
				groupKeys = append(groupKeys, k)
			}
		}
	}
	sort.Strings(groupKeys)
	matching := func(sel map[string]string) set {
		m := all
		for k, v := range sel {
			s, ok := byLabel[k][v]
			if !ok {
				return newSet(n)
			}
			m = m.and(s)
		}
		return m
	}
	shared := func(s set, keys []string) map[string]string {
		sel := map[string]string{}
		first := sites[s.first()].Labels
		for _, k := range keys {
			v, ok := first[k]
			if !ok {
				continue
			}
			if byLabel[k][v].covers(s) {
				sel[k] = v
			}
		}
		return sel
	}
	allKeys := func(i int) []string {
		var keys []string
		for k := range sites[i].Labels {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		return keys
	}
	// the objects of each distinct set of sites
	type share struct {
		sites set
		objs  []int
	}
	shares := map[string]*share{}
	objSites := make([]set, len(f.objects))
	for i, s := range sites {
		for _, o := range s.objs {
			if objSites[o] == nil {
				objSites[o] = newSet(n)
			}
			objSites[o].add(i)
		}
	}
	var order []string
	for o, s := range objSites {
		if s == nil {
			continue
		}
		k := s.key()
		if shares[k] == nil {
			shares[k] = &share{sites: s}
			order = append(order, k)
		}
		shares[k].objs = append(shares[k].objs, o)
	}
	siteObjs := make([][]int, n)
	var pls []*placement
	for _, k := range order {
		sh := shares[k]
		c := sh.sites.count()
		switch {
		case n > 1 && c == n:
			sel := shared(all, allKeys(0))
			if len(sel) == 0 {
				return nil, diag.List{{Pos: sites[0].Positions["install.hub.clusterLabels"].diag(), Path: "install.hub.clusterLabels",
					Message: "the sites delivering through the hub share no cluster label: the policies of what they have in common cannot be placed on them alone",
					Hint:    "label every site of the fleet alike (the ZTP reference sets common: \"true\"), in the fleet defaults"}}
			}
			pls = append(pls, &placement{tier: tierCommon, ns: p.opts.Namespaces.Common, base: "common", selector: sel, sites: sh.sites, policies: wavePolicies(sh.objs, f.objects, platform.ZTPCommonWave)})
			continue
		case n > 1:
			// a group: the sites one group label value picks (a group of one
			// site too: a release's canary), or several group labels
			var sel map[string]string
			for _, g := range groupKeys {
				if v, ok := sites[sh.sites.first()].Labels[g]; ok && byLabel[g][v].equal(sh.sites) {
					sel = map[string]string{g: v}
					break
				}
			}
			if sel == nil && c > 1 {
				if s := shared(sh.sites, groupKeys); len(s) > 0 && matching(s).equal(sh.sites) {
					sel = s
				}
			}
			if sel != nil {
				pls = append(pls, &placement{tier: tierGroup, ns: p.opts.Namespaces.Group, base: groupBase(sel), selector: sel, sites: sh.sites, policies: wavePolicies(sh.objs, f.objects, platform.ZTPGroupWave)})
				continue
			}
		}
		// no label picks exactly these sites: each site's own policy
		for _, i := range sh.sites.members() {
			siteObjs[i] = append(siteObjs[i], sh.objs...)
		}
	}
	for i, objs := range siteObjs {
		if len(objs) == 0 {
			continue
		}
		one := newSet(n)
		one.add(i)
		var sel map[string]string
		for _, k := range allKeys(i) {
			if v := sites[i].Labels[k]; byLabel[k][v].equal(one) && n > 1 {
				sel = map[string]string{k: v}
				break
			}
		}
		if sel == nil {
			if s := shared(one, allKeys(i)); matching(s).equal(one) {
				sel = s
			}
		}
		if sel == nil {
			other := sites[matching(sites[i].Labels).and(notOne(all, i)).first()].Site
			return nil, diag.List{{Pos: sites[i].Positions["install.hub.clusterLabels"].diag(), Path: "install.hub.clusterLabels",
				Message: fmt.Sprintf("the cluster labels of site %s do not single it out (site %s has them too): its own policy cannot be placed on it alone", sites[i].Site, other),
				Hint:    "label each cluster with its site, as the ZTP reference does (site: <name>)"}}
		}
		sort.Ints(objs)
		pls = append(pls, &placement{tier: tierSite, ns: p.opts.Namespaces.Site, base: sites[i].Site, selector: sel, sites: one, policies: wavePolicies(objs, f.objects, platform.ZTPSiteWave)})
	}
	sort.Slice(pls, func(i, j int) bool {
		if pls[i].tier != pls[j].tier {
			return pls[i].tier < pls[j].tier
		}
		return pls[i].base < pls[j].base
	})
	name(pls)
	depend(pls)
	p.placements = pls
	return p, nil
}

func notOne(all set, i int) set {
	s := append(set(nil), all...)
	s[i/64] &^= 1 << (i % 64)
	return s
}

// groupBase names a group placement after its labels.
func groupBase(sel map[string]string) string {
	keys := make([]string, 0, len(sel))
	for k := range sel {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := []string{"group"}
	for _, k := range keys {
		if _, after, ok := strings.Cut(k, "/"); ok {
			k = after
		}
		parts = append(parts, k, sel[k])
	}
	return strings.Join(parts, "-")
}

// wavePolicies splits objects by wave (an object's own, else the tier's),
// in wave order; the objects of a policy are in kind, namespace, name
// order.
func wavePolicies(objs []int, all []Object, tierWave int) []*policy {
	byWave := map[int][]int{}
	for _, o := range objs {
		w := all[o].Wave
		if w == 0 {
			w = tierWave
		}
		byWave[w] = append(byWave[w], o)
	}
	var out []*policy
	for w, os := range byWave {
		sort.Slice(os, func(i, j int) bool {
			a, b := all[os[i]], all[os[j]]
			if a.Kind != b.Kind {
				return a.Kind < b.Kind
			}
			if a.Namespace != b.Namespace {
				return a.Namespace < b.Namespace
			}
			if a.Name != b.Name {
				return a.Name < b.Name
			}
			return string(a.JSON) < string(b.JSON)
		})
		out = append(out, &policy{wave: w, objs: os})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].wave < out[j].wave })
	return out
}

// name gives every placement, binding and policy its name: DNS-1123, unique
// in its namespace, and a policy's namespace and name within
// platform.ACMPolicyNameMax (a longer name is cut and ends with a hash of
// the whole).
func name(pls []*placement) {
	taken := map[string]bool{}
	for _, pl := range pls {
		base := bounded(sanitize(pl.base), maxBase)
		if taken[pl.ns+"/"+base] {
			base = bounded(base, maxBase-9) + "-" + hash(pl.base)
		}
		taken[pl.ns+"/"+base] = true
		pl.base = base
		pl.name = "placement-" + base
		tierWave := map[int]int{tierCommon: platform.ZTPCommonWave, tierGroup: platform.ZTPGroupWave, tierSite: platform.ZTPSiteWave}[pl.tier]
		for _, po := range pl.policies {
			n := base + "-config"
			if po.wave != tierWave {
				n = fmt.Sprintf("%s-wave%d", base, po.wave)
			}
			po.name = bounded(n, platform.ACMPolicyNameMax-len(pl.ns))
			po.pl = pl
		}
		if len(pl.policies) == 1 {
			pl.binding = "binding-" + pl.policies[0].name
		} else {
			pl.binding = "binding-" + base
		}
	}
}

// maxBase bounds the name a placement's names start from, so that
// placement-<base> is at most 63 characters: the placement controller
// labels its PlacementDecisions with the Placement's name
// (cluster.open-cluster-management.io/placement), a label value.
const maxBase = 63 - len("placement-")

// sanitize makes s a DNS-1123 label's characters: lower case, anything but
// letters, digits and '-' becomes '-'.
func sanitize(s string) string {
	b := []byte(strings.ToLower(s))
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			b[i] = '-'
		}
	}
	return strings.Trim(string(b), "-")
}

// bounded cuts s to max characters, ending with a hash of the whole when
// cut.
func bounded(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := strings.Trim(s[:max-9], "-")
	return cut + "-" + hash(s)
}

func hash(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:4])
}

// depend orders the policies as the PolicyGenerator's orderPolicies does
// (each policy depends on the previous one being Compliant), across
// placements: a policy depends on the policies of the nearest lower wave
// placed on at least every cluster it is placed on (a dependency placed on
// fewer clusters would stay Pending on the others). Common and group
// policies are few; a site's policy looks at them and at its own.
func depend(pls []*placement) {
	var shared []*policy
	for _, pl := range pls {
		if pl.tier != tierSite {
			shared = append(shared, pl.policies...)
		}
	}
	for _, pl := range pls {
		cands := shared
		if pl.tier == tierSite {
			cands = append(append([]*policy(nil), shared...), pl.policies...)
		}
		for _, po := range pl.policies {
			best := -1
			var deps []*policy
			for _, q := range cands {
				if q == po || q.wave >= po.wave || q.wave < best || !q.pl.sites.covers(pl.sites) {
					continue
				}
				if q.wave > best {
					best, deps = q.wave, nil
				}
				deps = append(deps, q)
			}
			sort.Slice(deps, func(i, j int) bool {
				if deps[i].pl.ns != deps[j].pl.ns {
					return deps[i].pl.ns < deps[j].pl.ns
				}
				return deps[i].name < deps[j].name
			})
			po.deps = deps
		}
	}
}
