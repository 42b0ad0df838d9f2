// Package lint is siteforge's lint engine: rules are data plus a check, run
// over sites (typed model and rendered objects) and over plain manifests in a
// GitOps repository, producing findings at the user's file:line:col.
//
// Rule families register themselves from lint/rules; the engine knows none of
// them.
package lint

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/platform"
	"github.com/siteforge/siteforge/internal/site"
)

// Severity of a finding.
type Severity int

// Severities, in increasing order.
const (
	Info Severity = iota
	Warning
	Error
)

func (s Severity) String() string {
	switch s {
	case Info:
		return "info"
	case Warning:
		return "warning"
	}
	return "error"
}

// ParseSeverity reads "error", "warning" or "info".
func ParseSeverity(s string) (Severity, error) {
	switch s {
	case "error":
		return Error, nil
	case "warning":
		return Warning, nil
	case "info":
		return Info, nil
	}
	return 0, fmt.Errorf("unknown severity %q (error, warning or info)", s)
}

// Families are the rule ID prefixes.
var Families = map[string]string{
	"MTU": "MTU math and MTU migrations",
	"NET": "network type migration, CIDR overlaps",
	"MIR": "image mirroring and registries",
	"ING": "ingress controllers and sharding",
	"EGR": "EgressIP",
	"MCF": "MachineConfigs, pools, remote workers, node tuning",
	"LNT": "the linter itself: suppressions",
	"INS": "install objects: install-config, agent-config, ClusterInstance (VIPs, addresses, sizes, hosts)",
	"INP": "inputs: files that cannot be read, templates, duplicate objects, sites that do not load",
	"RND": "render warnings: what rendering a site warns about, suppressed in the site like any finding (render honours it)",
}

var ruleIDPattern = regexp.MustCompile(`^([A-Z]{3})[0-9]{3}$`)
var kebab = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// Rule is one check, with everything `explain` prints.
type Rule struct {
	ID       string // family prefix + three digits: MTU001
	Name     string // kebab-case
	Severity Severity
	Summary  string // one line
	// Rationale states the platform fact and its source.
	Rationale string
	Fix       string
	// Since is the siteforge schema version that introduced the rule.
	Since string
	// Check runs the rule. It reports through the Reporter.
	Check func(set Set, r *Reporter)
	// CheckFindings, instead of Check, runs the rule after every other
	// rule checked the set, with their findings (before suppressions): a
	// rule about what the others found (a pool degraded by a MachineConfig
	// another rule flags). On a running cluster's state (Set.Live) they
	// are every rule's, selected or not; on any other set, the selected
	// rules' only.
	CheckFindings func(set Set, found []Finding, r *Reporter)
}

var registry = map[string]*Rule{}

// Register adds a rule; it panics on a malformed or duplicate rule, so a
// broken catalog fails every test.
// RegisterFamily registers a family's rules, all available since since;
// checks gives the check of each rule that does not set one (by ID).
func RegisterFamily(since string, checks map[string]func(Set, *Reporter), rules []*Rule) {
	for _, r := range rules {
		r.Since = since
		if r.Check == nil {
			r.Check = checks[r.ID]
		}
		Register(r)
	}
}

// Register adds a rule.
func Register(r *Rule) {
	m := ruleIDPattern.FindStringSubmatch(r.ID)
	switch {
	case m == nil || Families[m[1]] == "":
		panic("lint: bad rule ID " + r.ID)
	case !kebab.MatchString(r.Name):
		panic("lint: rule name not kebab-case: " + r.Name)
	case r.Summary == "" || r.Rationale == "" || r.Fix == "" || r.Since == "" || (r.Check == nil) == (r.CheckFindings == nil):
		panic("lint: rule " + r.ID + " lacks summary, rationale, fix, since or check (or has two)")
	case registry[r.ID] != nil:
		panic("lint: duplicate rule " + r.ID)
	}
	for _, other := range registry {
		if other.Name == r.Name {
			panic("lint: duplicate rule name " + r.Name)
		}
	}
	registry[r.ID] = r
}

// Rules returns every registered rule, sorted by ID.
func Rules() []*Rule {
	out := make([]*Rule, 0, len(registry))
	for _, r := range registry {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Lookup finds a rule by ID or name.
func Lookup(idOrName string) *Rule {
	if r := registry[strings.ToUpper(idOrName)]; r != nil {
		return r
	}
	for _, r := range registry {
		if r.Name == idOrName {
			return r
		}
	}
	return nil
}

// ResourceRef names the object a finding is about.
type ResourceRef struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace,omitempty"`
	Name       string `json:"name"`
}

// Finding is one problem found.
type Finding struct {
	Rule     string
	Name     string
	Severity Severity
	Message  string
	Pos      diag.Position
	End      diag.Position // zero when unknown
	Site     string
	Resource *ResourceRef
}

// Site is a site under lint: the typed model and its rendered objects.
type Site struct {
	Site *site.Site
	// Objects are the rendered resources, read back as manifests; their
	// positions are mapped to the site input by Origin.
	Objects []*manifests.Object
	// Origin maps a rendered object (by File) to the site position it came
	// from.
	Origin map[string]diag.Position
	// Extra are plain manifests of the same cluster, linted with the
	// site's objects (`siteforge lint SITE extra.yaml`, SiteLint's other
	// objects); their findings stay at their own lines.
	Extra []*manifests.Object
	// Warnings are the site's render warnings, suppressed or not
	// (generators.Output.AllWarnings): findings under each one's rule ID
	// (diag.Diagnostic.Rule), so the
	// site's suppressions and severity settings apply to them.
	Warnings diag.List
}

// Input is what rules look at.
type Input struct {
	Sites []*Site
	// Objects are plain manifests (not rendered by siteforge).
	Objects []*manifests.Object
	// Minor is the OpenShift minor version plain manifests target
	// (--ocp-version; 0: unknown).
	Minor platform.OCPMinor
	// MinorFrom says where Minor was given, as messages name it: "" is
	// --ocp-version; a configuration's key otherwise (a SiteLint's
	// spec.ocpVersion, .siteforge.yaml's ocp-version).
	MinorFrom string

	sets []Set // computed once
}

// Set is a group of objects that live in one cluster: a site's rendered
// objects (and the plain manifests of its cluster), or one cluster of plain manifests. Rules check one set at a
// time; what several rules derive from a set is computed once (see Fact).
type Set struct {
	// Site is the site the objects were rendered from; nil for plain
	// manifests.
	Site    *Site
	Objects []*manifests.Object
	// Minor is the OpenShift minor version: the site's cluster.version;
	// for plain manifests --ocp-version, else what the objects say
	// (manifests.ReadRelease: a ClusterVersion, else the ClusterImageSet of
	// a ClusterInstance / AgentClusterInstall, else an oc-mirror
	// ImageSetConfiguration); 0 when unknown. MinorFrom says where it comes
	// from: the flag, or the object, field and value.
	Minor     platform.OCPMinor
	MinorFrom string
	// MinorConflict, when the minor is unknown because the objects that
	// decide it disagree, says which say what.
	MinorConflict string
	// ReleaseImage is the release image when known (the site's
	// cluster.releaseImage, else a ClusterVersion's or ClusterImageSet's),
	// and where it is from.
	ReleaseImage, ReleaseImageFrom string
	// Disconnected is true for a site declared disconnected.
	Disconnected bool
	// Duplicates are objects defined more than once in the set; Objects
	// holds one of identical copies and every copy that differs (INP004
	// reports those).
	Duplicates []manifests.Duplicate
	// RenderedFrom is, for the objects of a rendered site folder linted
	// without their site, the site they were rendered from: its
	// suppressions and severity settings apply to their findings.
	RenderedFrom *RenderedFrom
	// Live is true for a running cluster's state (a must-gather or an
	// Insights archive): its objects are what the cluster holds, status
	// included. The rules about what a cluster is doing read it; no
	// finding is reported on an object a platform operator wrote itself
	// (manifests.Object.WrittenBy): the cluster took it from the operator
	// that generated it.
	Live bool

	facts *facts // shared by the copies of one set
}

// RenderedFrom is the site a rendered site folder was rendered from.
type RenderedFrom struct {
	Site *site.Site
	// Origins maps each file the site renders (by its path as read, as
	// Object.File) to the site positions it comes from
	// (generators.Output.Origins): a finding in one of them is the site's,
	// and a field's @lint(ignore=...) covers it when one of its origins
	// lies under the field.
	Origins map[string][]diag.Position
	// Acknowledged are the render warnings the site suppresses under the
	// ID of a lint rule with a check (the same fact, MIR021): the
	// folder's findings of that rule are the fact the site acknowledged.
	Acknowledged diag.List
}

// SiteSet is the set of a site and its rendered objects.
func SiteSet(s *Site) Set {
	objs := s.Objects
	if len(s.Extra) > 0 {
		objs = append(append([]*manifests.Object{}, s.Objects...), s.Extra...)
	}
	objs, dups := manifests.Dedup(objs)
	set := Set{Site: s, Objects: objs, Duplicates: dups, Disconnected: s.Site.Cluster.Connectivity == site.ConnectivityDisconnected, facts: &facts{}}
	if m, err := s.Site.Minor(); err == nil {
		set.Minor, set.MinorFrom = m, "the site's cluster.version"
	}
	if img := s.Site.Cluster.ReleaseImage; img != "" {
		set.ReleaseImage, set.ReleaseImageFrom = img, "the site's cluster.releaseImage"
	}
	return set
}

// ManifestSet is the set of plain manifests given together; minor is the
// --ocp-version (0: what the objects say, manifests.ReadRelease), given
// where from says (GivenMinorFrom). The precedence: --ocp-version, then
// ClusterVersion, then ClusterImageSet / ClusterInstance /
// AgentClusterInstall, then ImageSetConfiguration (docs/rules.md "The
// release of plain manifests").
func ManifestSet(objs []*manifests.Object, minor platform.OCPMinor, from string) Set {
	objs, dups := manifests.Dedup(objs)
	set := Set{Objects: objs, Duplicates: dups, Minor: minor, MinorFrom: GivenMinorFrom(from), facts: &facts{}}
	rel := manifests.ReadRelease(objs)
	if set.Minor == 0 {
		set.Minor, set.MinorFrom, set.MinorConflict = rel.Minor, rel.MinorFrom, rel.Conflict
	}
	set.ReleaseImage, set.ReleaseImageFrom = rel.Image, rel.ImageFrom
	return set
}

// GivenMinorFrom is where a version given to lint comes from, as messages
// name it: from, or --ocp-version when from is "".
func GivenMinorFrom(from string) string {
	if from == "" {
		return "--ocp-version"
	}
	return from
}

// LiveSet is the set of a running cluster's state (Set.Live): its release
// is the one its ClusterVersion records, which --ocp-version (minor) does
// not override; minor (given by from, as for ManifestSet) stands only
// where the state records none.
func LiveSet(objs []*manifests.Object, minor platform.OCPMinor, from string) Set {
	set := ManifestSet(objs, 0, "")
	if set.Minor == 0 && set.MinorConflict == "" && minor > 0 {
		set.Minor, set.MinorFrom = minor, GivenMinorFrom(from)
	}
	set.Live = true
	return set
}

// facts holds what rules derived from a set, by key.
type facts struct {
	mu sync.Mutex
	m  map[any]any
}

// Fact returns what compute derives from the set, computing it once per set
// and key (a comparable value of a type private to the caller, so keys of
// two packages never collide). What it returns is shared by every rule: read
// it, never change it. compute may itself ask for other facts. (Asked from
// several goroutines at once, compute may run more than once; every caller
// gets the value stored first. The engine checks a set on one goroutine.)
func Fact[T any](s Set, key any, compute func() T) T {
	f := s.facts
	if f == nil { // a Set built by hand, not by SiteSet or ManifestSet
		return compute()
	}
	f.mu.Lock()
	v, ok := f.m[key]
	f.mu.Unlock()
	if ok {
		return v.(T)
	}
	t := compute()
	f.mu.Lock()
	defer f.mu.Unlock()
	if v, ok := f.m[key]; ok {
		return v.(T)
	}
	if f.m == nil {
		f.m = map[any]any{}
	}
	f.m[key] = t
	return t
}

// MinorOrLatest is the set's minor, or the latest release when unknown
// (newer than every gate), with the words a message says it in (naming
// where the minor comes from).
func (s Set) MinorOrLatest() (platform.OCPMinor, string) {
	if s.Minor > 0 {
		return s.Minor, "OpenShift " + s.MinorIn()
	}
	if s.MinorConflict != "" {
		return platform.LatestMinor, "the latest OpenShift release (no version known: " + s.MinorConflict + "; pass --ocp-version)"
	}
	return platform.LatestMinor, "the latest OpenShift release (no version known: pass --ocp-version)"
}

// MinorIn is the set's minor as a message says it, with where it comes
// from: `4.17 (from --ocp-version)`, `4.22 (from ClusterInstance sno/sno
// spec.clusterImageSetNameRef "openshift-v4.22")`; "" when unknown.
func (s Set) MinorIn() string {
	switch {
	case s.Minor == 0:
		return ""
	case s.MinorFrom == "":
		return s.Minor.String()
	}
	return s.Minor.String() + " (from " + s.MinorFrom + ")"
}

// Sets returns every site's set, then the plain manifests' (when any). With
// exactly one site, the plain manifests are the same cluster: they are
// linted with the site's objects (Site.Extra). The sets are computed once
// per Input.
func (in *Input) Sets() []Set {
	if in.sets != nil || (len(in.Sites) == 0 && len(in.Objects) == 0) {
		return in.sets
	}
	if len(in.Sites) == 1 && len(in.Objects) > 0 {
		s := *in.Sites[0]
		s.Extra = append(append([]*manifests.Object{}, s.Extra...), in.Objects...)
		set := SiteSet(&s)
		if set.Minor == 0 && in.Minor > 0 {
			set.Minor, set.MinorFrom = in.Minor, GivenMinorFrom(in.MinorFrom)
		}
		in.sets = []Set{set}
		return in.sets
	}
	for _, s := range in.Sites {
		in.sets = append(in.sets, SiteSet(s))
	}
	if len(in.Objects) > 0 {
		in.sets = append(in.sets, ManifestSet(in.Objects, in.Minor, in.MinorFrom))
	}
	return in.sets
}

// Kind returns the objects of one apiVersion and kind.
func (s Set) Kind(apiVersion, kind string) []*manifests.Object {
	var out []*manifests.Object
	for _, o := range s.Objects {
		if o.Kind == kind && (apiVersion == "" || o.APIVersion == apiVersion) {
			out = append(out, o)
		}
	}
	return out
}
