package cli

import (
	"fmt"
	"strings"

	"github.com/siteforge/siteforge/internal/cluster/mtu"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/registries"
	"github.com/siteforge/siteforge/internal/site"
	"github.com/siteforge/siteforge/lint"
)

// The --format json outputs of vet, mtu, mirrors, explain and version: one
// JSON object each, documented by a JSON Schema in docs/json/<verb>.schema.json
// (TestJSONOutputsMatchSchemas validates every one against it). A change
// that breaks a consumer bumps jsonSchemaVersion. Every value taken from
// the user's input goes through diag.Clean, as in text.
const jsonSchemaVersion = "1"

// formatFlag checks a --format value of a verb with text and json output.
func formatFlag(e env, verb, format string) bool {
	if format == "text" || format == "json" {
		return true
	}
	usageError(e, verb, fmt.Sprintf("unknown --format \"%s\" (text, json)", format))
	return false
}

// jsonDiag is one problem at its position.
type jsonDiag struct {
	Severity string `json:"severity"` // error or warning
	Rule     string `json:"rule,omitempty"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Path     string `json:"path,omitempty"`
	Message  string `json:"message"`
	Hint     string `json:"hint,omitempty"`
}

func diagJSON(severity string, d diag.Diagnostic) jsonDiag {
	return jsonDiag{Severity: severity, Rule: d.Rule, File: diag.Clean(d.Pos.File), Line: d.Pos.Line, Column: d.Pos.Col,
		Path: diag.Clean(d.Path), Message: diag.Clean(d.Message), Hint: diag.Clean(d.Hint)}
}

// vetJSON is vet's report (docs/json/vet.schema.json).
type vetJSON struct {
	SchemaVersion string     `json:"schemaVersion"`
	Sites         []vetSite  `json:"sites"`       // the sites that passed, in input order
	Diagnostics   []jsonDiag `json:"diagnostics"` // errors, then warnings, each sorted by position
	Notes         []string   `json:"notes"`       // checks that did not run, files not read
}

type vetSite struct {
	Name   string `json:"name"`
	Source string `json:"source"`
}

// runJSON is the report of a vet run.
func runJSON(run siteRun, sites []vetSite) vetJSON {
	out := vetJSON{SchemaVersion: jsonSchemaVersion, Sites: sites, Diagnostics: []jsonDiag{}, Notes: []string{}}
	if out.Sites == nil {
		out.Sites = []vetSite{}
	}
	for _, d := range run.Diagnostics {
		out.Diagnostics = append(out.Diagnostics, diagJSON("error", d))
	}
	var warnings diag.List
	for _, w := range run.Warnings {
		warnings = append(warnings, w...)
	}
	for _, d := range warnings.Sort() {
		out.Diagnostics = append(out.Diagnostics, diagJSON("warning", d))
	}
	for _, n := range run.Notes {
		out.Notes = append(out.Notes, diag.Clean(n))
	}
	if len(run.Diagnostics) > 0 {
		for _, s := range run.Skipped {
			if s != "" {
				out.Notes = append(out.Notes, diag.Clean(s))
			}
		}
	}
	return out
}

// mtuJSON is mtu's report (docs/json/mtu.schema.json).
type mtuJSON struct {
	SchemaVersion string        `json:"schemaVersion"`
	Sites         []mtuSiteJSON `json:"sites"`
}

type mtuSiteJSON struct {
	Name         string        `json:"name"`
	Source       string        `json:"source"`
	NetworkType  string        `json:"networkType"`
	IPv6         bool          `json:"ipv6"` // some cluster network is IPv6
	IPsec        string        `json:"ipsec"`
	Lifecycle    string        `json:"lifecycle"`
	Links        []mtuLinkJSON `json:"links"`
	Binding      int           `json:"bindingConstraint"` // the smallest link MTU
	Overhead     int           `json:"overhead"`
	OverheadName string        `json:"overheadName"`
	Largest      int           `json:"largest"` // the largest legal cluster MTU
	Floor        int           `json:"floor"`   // the bounds CNO accepts
	Max          int           `json:"max"`
	Target       int           `json:"target"`
	TargetFrom   string        `json:"targetFrom"`        // "mtu.target" or "computed"
	Current      *int          `json:"current"`           // mtu.current, null when unknown
	MigrationDue bool          `json:"migrationDue"`      // a running site's current MTU differs from the target
	Machine      int           `json:"machine,omitempty"` // the uplink MTU of every node, when one
	// State is, for a running cluster's plan, what it was read from
	// ("must-gather", "insights archive"); Phases the two oc patch
	// commands of the migration due.
	State  string   `json:"state,omitempty"`
	Phases []string `json:"phases,omitempty"`
}

type mtuLinkJSON struct {
	Label    string `json:"label"`
	MTU      int    `json:"mtu"`
	Binding  bool   `json:"binding"`
	Origin   string `json:"origin"`
	Position string `json:"position,omitempty"`
	Note     string `json:"note,omitempty"`
}

func planJSON(s *site.Site, p mtu.Plan) mtuSiteJSON {
	out := mtuSiteJSON{Name: diag.Clean(s.Name), Source: diag.Clean(s.Source), NetworkType: p.NetworkType, IPv6: p.AnyIPv6,
		IPsec: diag.Clean(s.Network.IPsec), Lifecycle: diag.Clean(s.Cluster.Lifecycle), Links: []mtuLinkJSON{},
		Binding: p.Smallest, Overhead: p.Overhead, OverheadName: p.OverheadName, Largest: p.Largest, Floor: p.Floor, Max: p.Max,
		Target: p.Target, TargetFrom: "computed", Current: p.Current, MigrationDue: s.Cluster.Lifecycle == "running" && p.MigrationDue(), Machine: p.Machine}
	if p.TargetFromSite {
		out.TargetFrom = "mtu.target"
	}
	for _, l := range p.Links {
		j := mtuLinkJSON{Label: diag.Clean(l.Label()), MTU: l.MTU, Binding: l.Binding, Origin: diag.Clean(l.Origin), Note: diag.Clean(l.Note)}
		if l.Pos.IsValid() {
			j.Position = diag.Clean(l.Pos.String())
		}
		out.Links = append(out.Links, j)
	}
	return out
}

// mirrorsPreviewJSON is mirrors preview's report (docs/json/mirrors-preview.schema.json).
type mirrorsPreviewJSON struct {
	SchemaVersion string               `json:"schemaVersion"`
	Clusters      []mirrorsPreviewConf `json:"clusters"`
}

type mirrorsPreviewConf struct {
	Cluster  string   `json:"cluster"` // "site NAME", "manifests", or the cluster root
	Path     string   `json:"path"`    // where nodes have the file
	Written  bool     `json:"written"` // false: MCO writes no registries.conf, nodes keep the default
	Content  string   `json:"content"` // the file, TOML
	Warnings []string `json:"warnings"`
	// Pools are, of a running cluster's state, the pools whose nodes run
	// the file, and RenderedConfigs the rendered configs it was read from
	// (each pool's status.configuration; none when it is MCO's rendering
	// of the mirror objects because the state holds no file contents).
	Pools           []string `json:"pools,omitempty"`
	RenderedConfigs []string `json:"renderedConfigs,omitempty"`
}

// mirrorsResolveJSON is mirrors resolve's report (docs/json/mirrors-resolve.schema.json).
type mirrorsResolveJSON struct {
	SchemaVersion string               `json:"schemaVersion"`
	Clusters      []mirrorsResolveConf `json:"clusters"`
}

type mirrorsResolveConf struct {
	Cluster      string              `json:"cluster"`
	Disconnected bool                `json:"disconnected"` // judged as a disconnected cluster
	Images       []mirrorsResolution `json:"images"`
	// InClusterCache is the site's in-cluster cache host (mirroring.
	// inClusterCache); its images then say where they are pulled from once
	// the cache answers (OnceCacheAnswers).
	InClusterCache string `json:"inClusterCache,omitempty"`
	// Pools and RenderedConfigs are, of a running cluster's state, the
	// pools whose nodes run the registries.conf resolved with, and the
	// rendered configs it was read from (as in mirrors preview).
	Pools           []string `json:"pools,omitempty"`
	RenderedConfigs []string `json:"renderedConfigs,omitempty"`
}

type mirrorsResolution struct {
	Reference string          `json:"reference"` // normalized
	ByDigest  bool            `json:"byDigest"`
	Table     string          `json:"table"` // the matching registries.conf table's prefix, "" when none
	Endpoints []mirrorsTarget `json:"endpoints"`
	// SucceedsDisconnected: the pull can succeed without the source.
	SucceedsDisconnected bool   `json:"succeedsDisconnected"`
	FirstMirror          string `json:"firstMirror,omitempty"`
	// OnceCacheAnswers is the resolution with the in-cluster cache's
	// drop-in in place; the resolution above is the one before it answers.
	OnceCacheAnswers *mirrorsResolution `json:"onceCacheAnswers,omitempty"`
}

type mirrorsTarget struct {
	Location       string `json:"location"`
	Reference      string `json:"reference,omitempty"`
	Kind           string `json:"kind"` // mirror or source
	PullFromMirror string `json:"pullFromMirror,omitempty"`
	Insecure       bool   `json:"insecure"`
	Blocked        bool   `json:"blocked"`
	Skipped        bool   `json:"skipped"`
	SkipReason     string `json:"skipReason,omitempty"`
}

func resolutionJSON(r registries.Resolution) mirrorsResolution {
	out := mirrorsResolution{Reference: diag.Clean(r.Reference), ByDigest: r.Digest, Table: diag.Clean(r.Prefix), Endpoints: []mirrorsTarget{}}
	for _, ep := range r.Endpoints {
		kind := "source"
		if ep.Mirror && !ep.Source {
			kind = "mirror"
		}
		out.Endpoints = append(out.Endpoints, mirrorsTarget{Location: diag.Clean(ep.Location), Reference: diag.Clean(ep.Reference), Kind: kind,
			PullFromMirror: diag.Clean(ep.PullFromMirror), Insecure: ep.Insecure, Blocked: ep.Blocked, Skipped: ep.Skipped, SkipReason: diag.Clean(ep.SkipReason)})
	}
	out.SucceedsDisconnected = r.SucceedsDisconnected(func(string) bool { return true })
	if out.SucceedsDisconnected {
		for _, ep := range r.Attempts() {
			if ep.Mirror && !ep.Source && !ep.Blocked {
				out.FirstMirror = diag.Clean(ep.Location)
				break
			}
		}
	}
	return out
}

// explainJSON is explain's report (docs/json/explain.schema.json): every
// rule, or the one asked for, or a topic.
type explainJSON struct {
	SchemaVersion string          `json:"schemaVersion"`
	Rules         []explainRule   `json:"rules,omitempty"`
	Topic         *explainTopicJS `json:"topic,omitempty"`
}

type explainRule struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Severity  string `json:"severity"`
	Summary   string `json:"summary"`
	Rationale string `json:"rationale,omitempty"`
	Fix       string `json:"fix,omitempty"`
	Since     string `json:"since,omitempty"`
}

type explainTopicJS struct {
	Name string `json:"name"`
	Text string `json:"text"`
}

func ruleJSON(r *lint.Rule, full bool) explainRule {
	out := explainRule{ID: r.ID, Name: r.Name, Severity: r.Severity.String(), Summary: r.Summary}
	if full {
		out.Rationale, out.Fix, out.Since = strings.TrimSpace(r.Rationale), strings.TrimSpace(r.Fix), r.Since
	}
	return out
}
