package load

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/errors"
	"cuelang.org/go/cue/format"
	"cuelang.org/go/cue/token"

	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/schema"
)

// describe says in words what a schema pattern accepts. Every pattern in the
// schema has an entry (a test checks it).
var describe = map[string]string{
	`^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$`:                                          "a DNS-1123 label: lowercase letters, digits and '-', starting and ending with a letter or digit, at most 63 characters",
	`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`:             "a DNS-1123 subdomain: lowercase letters, digits, '-' and '.'",
	`^4\.[1-9][0-9](\.(0|[1-9][0-9]*))?$`:                                           `an OpenShift version "4.N" or "4.N.z", 4.10 or later (quote it in YAML: "4.16")`,
	`^[a-z0-9][a-z0-9-]*$`:                                                          "lowercase letters, digits and '-'",
	`^[a-zA-Z0-9][a-zA-Z0-9_.:-]{0,14}$`:                                            "a Linux interface name (at most 15 characters: letters, digits, '_', '.', ':', '-')",
	`^[a-z0-9]([-a-z0-9.]*[a-z0-9])?(:[0-9]{1,5})?$`:                                "a host name with an optional port, in lowercase (quay.example.com:8443)",
	`^[a-z0-9]([-a-z0-9.]*[a-z0-9])?(:[0-9]{1,5})?(/[a-z0-9]+([._-]+[a-z0-9]+)*)*$`: "a registry location host[:port][/path] in lowercase, without scheme, tag or digest",
	`^\*(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)+$`:                                        "a wildcard domain *.example.com",
	`^[a-z0-9]([-a-z0-9.]*[a-z0-9])?(:[0-9]{1,5})?(/[a-z0-9]+([._-]+[a-z0-9]+)*)+(:[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?(@sha256:[a-f0-9]{64})?$`: "an image reference host[/path]/name[:tag][@sha256:digest] with a registry host",
	`^[a-z0-9]+(?:[._-][a-z0-9]+)*$`:                  "a Quay organization name (lowercase letters and digits, separated by '.', '_' or '-')",
	`^(MTU|NET|MIR|ING|EGR|MCF|INS|INP|RND)[0-9]{3}$`: "a rule ID such as MTU001 (MTU, NET, MIR, ING, EGR, MCF, INS, INP or RND and three digits)",
	`[^ ]`:                          "a non-empty text",
	`^[a-z][a-z0-9-]*\.[a-z0-9]+$`:  "an EC2 instance type such as m6i.xlarge",
	`^[a-z][a-z0-9.+-]*://[^ ]+$`:   "a BMC address with its scheme, such as redfish-virtualmedia+https://10.0.0.10/redfish/v1/Systems/1 or ipmi://10.0.0.10",
	`^/dev/`:                        "a device path under /dev, such as /dev/sda or /dev/disk/by-path/...",
	`^[0-9]+:[0-9]+:[0-9]+:[0-9]+$`: "a SCSI address host:channel:target:lun such as 0:0:0:0",
	`^(ssh-(rsa|ed25519|dss)|ecdsa-sha2-nistp(256|384|521)|sk-(ssh-ed25519|ecdsa-sha2-nistp256)@openssh\.com) [A-Za-z0-9+/=]+( [^\n]*)?$`: "one SSH public key on one line, as in id_ed25519.pub: ssh-ed25519 AAAA... comment",
	`-----BEGIN CERTIFICATE-----`:                               "PEM certificates (-----BEGIN CERTIFICATE----- blocks)",
	`^[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){5}$`:                      "a MAC address such as 52:54:00:12:34:56",
	`^([a-z0-9.-]+/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$`: "a Kubernetes label key",
	`^http://[^@/\s]+/?$`:                                       "an http:// proxy URL without user-info (no credentials), such as http://proxy.example.com:3128",
	`^https?://[^@/\s]+/?$`:                                     "an http:// or https:// proxy URL without user-info (no credentials)",
	`^[^\s]+$`:                                                  "a comma-separated list without spaces, such as .example.com,10.0.0.0/8",
	`^https?://[^@\s]+$`:                                        "an http:// or https:// URL without user-info",
	`^[A-Z][A-Za-z0-9]*$`:                                       "a Kubernetes kind such as BareMetalHost",
}

var (
	reOutOfBound = regexp.MustCompile(`^invalid value (.*) \(out of bound (.*)\)$`)
	reNoMatch    = regexp.MustCompile(`^invalid value (.*) \(does not match =~(".*")\)$`)
	reNotSatisfy = regexp.MustCompile(`^invalid value (.*) \(does not satisfy ([\w.]+)(?:\(.*\))?\)(?:: .*)?$`)
	reMismatch   = regexp.MustCompile(`^conflicting values (.*) and (.*) \(mismatched types (\w+) and (\w+)\)$`)
	reConflict   = regexp.MustCompile(`^conflicting values (.*) and (.*)$`)
	reIncomplete = regexp.MustCompile(`^incomplete value (.*)$`)
	reDisjunct   = regexp.MustCompile(`^\d+ errors in empty disjunction:?$`)
	reMaxRunes   = regexp.MustCompile(`^invalid value (.*) \(does not satisfy strings.MaxRunes\((\d+)\)\)$`)
)

// builtinDescription says what a CUE builtin validator accepts.
var builtinDescription = map[string]string{
	"net.IP":     "an IP address",
	"net.IPv4":   "an IPv4 address",
	"net.IPv6":   "an IPv6 address",
	"net.IPCIDR": "a CIDR such as 10.0.0.0/16 or fd00::/48",
}

type cueError struct {
	path string
	sels []string
	msg  string
	pos  []diag.Position // user positions only
}

// translate turns CUE errors into diagnostics in the user's files.
func (l *Loader) translate(err error, user cue.Value, fallback diag.Position) diag.List {
	groups := map[string][]cueError{}
	var order []string
	for _, e := range errors.Errors(err) {
		sels := e.Path()
		if len(sels) > 0 && sels[0] == schema.Definition {
			sels = sels[1:]
		}
		format, args := e.Msg()
		ce := cueError{sels: sels, path: pathString(sels), msg: fmt.Sprintf(format, args...)}
		for _, p := range errors.Positions(e) {
			if p.IsValid() && p.Filename() != schema.Filename {
				ce.pos = append(ce.pos, diag.Position{File: p.Filename(), Line: p.Line(), Col: p.Column()})
			}
		}
		if _, ok := groups[ce.path]; !ok {
			order = append(order, ce.path)
		}
		groups[ce.path] = append(groups[ce.path], ce)
	}
	var out diag.List
	for _, path := range order {
		out = append(out, l.translateGroup(groups[path], user, fallback)...)
	}
	return out
}

func (l *Loader) translateGroup(g []cueError, user cue.Value, fallback diag.Position) diag.List {
	first := g[0]
	pos := fallback
	for _, e := range g {
		if len(e.pos) > 0 {
			pos = e.pos[0]
			break
		}
	}
	if len(g[0].pos) == 0 {
		if p, ok := userPos(user, first.sels); ok {
			pos = p
		}
	}
	d := diag.Diagnostic{Pos: pos, Path: first.path}

	// A disjunction: one line, "must be one of".
	disj := false
	for _, e := range g {
		if reDisjunct.MatchString(e.msg) {
			disj = true
		}
	}
	if disj || len(g) > 1 && allConflicts(g) {
		sv := l.schemaAt(first.sels)
		got := userValue(user, first.sels)
		if p, ok := userPos(user, first.sels); ok {
			d.Pos = p // the value, not the label
		}
		if vals := concreteAlternatives(sv); len(vals) > 0 {
			d.Message = fmt.Sprintf("%s is not allowed", got)
			d.Hint = "must be one of " + strings.Join(vals, ", ")
			if s := nearest(got, vals); s != "" && s != got {
				d.Hint = fmt.Sprintf("did you mean %s? %s", s, d.Hint)
			}
			return diag.List{d}
		}
		var kinds []string
		for _, alt := range disjuncts(sv) {
			kinds = append(kinds, l.describeSchema(alt))
		}
		d.Message = fmt.Sprintf("%s is not valid", got)
		d.Hint = "must be " + strings.Join(dedup(kinds), ", or ")
		return diag.List{d}
	}

	var out diag.List
	for _, e := range g {
		d := d
		switch m := e.msg; {
		case m == "field not allowed":
			// unknownFields reports, with suggestions, the fields it
			// finds, and loadSyntax removes them before validating: one
			// CUE still refuses is one the walk did not see. Report it
			// all the same: a refused site always says why.
			if len(e.sels) == 0 {
				d.Message = "field not allowed"
				break
			}
			name, parent := e.sels[len(e.sels)-1], e.sels[:len(e.sels)-1]
			d.Path = pathString(parent)
			if len(e.pos) > 0 {
				d.Pos = e.pos[0] // CUE's: where the user wrote the field
			} else if p, ok := userPos(user, e.sels); ok {
				d.Pos = p
			}
			d.Message, d.Hint = notAllowed(name, fieldNames(l.schemaAt(parent)))
		case reIncomplete.MatchString(m):
			sels := e.sels
			// A required list with no elements: name the list.
			for len(sels) > 0 && isIndex(sels[len(sels)-1]) {
				sels = sels[:len(sels)-1]
			}
			name := "value"
			if len(sels) > 0 {
				name = sels[len(sels)-1]
			}
			d.Path = pathString(sels[:max(len(sels)-1, 0)])
			if p, ok := userPos(user, sels[:max(len(sels)-1, 0)]); ok {
				d.Pos = p
			} else {
				d.Pos = fallback
			}
			d.Message = fmt.Sprintf("missing required field %q", name)
			d.Hint = fmt.Sprintf("add %s: <%s>", name, l.describeSchema(l.schemaAt(sels)))
		case reMaxRunes.MatchString(m):
			s := reMaxRunes.FindStringSubmatch(m)
			d.Message = fmt.Sprintf("%s is too long", s[1])
			d.Hint = "must be at most " + s[2] + " characters"
		case reOutOfBound.MatchString(m):
			s := reOutOfBound.FindStringSubmatch(m)
			d.Message = fmt.Sprintf("%s is out of range", s[1])
			if strings.HasPrefix(s[2], "=~") || strings.HasPrefix(s[2], "!~") {
				d.Message = fmt.Sprintf("%s is not valid", s[1])
			}
			d.Hint = "must be " + l.describeSchema(l.schemaAt(e.sels))
		case reNoMatch.MatchString(m):
			s := reNoMatch.FindStringSubmatch(m)
			re, _ := strconv.Unquote(s[2])
			d.Message = fmt.Sprintf("%s is not valid", s[1])
			if desc, ok := describe[re]; ok {
				d.Hint = "must be " + desc
			} else {
				d.Hint = "must match " + s[2]
			}
		case reNotSatisfy.MatchString(m):
			s := reNotSatisfy.FindStringSubmatch(m)
			d.Message = fmt.Sprintf("%s is not valid", s[1])
			if desc, ok := builtinDescription[s[2]]; ok {
				d.Hint = "must be " + desc
			} else {
				d.Hint = "must satisfy " + s[2]
			}
		case reMismatch.MatchString(m):
			got := userValue(user, e.sels)
			d.Message = fmt.Sprintf("%s has the wrong type", got)
			d.Hint = "must be " + l.describeSchema(l.schemaAt(e.sels))
		case reConflict.MatchString(m):
			s := reConflict.FindStringSubmatch(m)
			if len(e.pos) > 1 {
				// Two of the user's files disagree: point at the site's own
				// file, name the other.
				here, other := l.primary(e.pos)
				d.Pos = here
				d.Message = fmt.Sprintf("conflicting values %s and %s", s[1], s[2])
				d.Hint = fmt.Sprintf("the other value is at %s; a field has one value across all files of a site (mark shared values as defaults: *value | type)", other)
			} else {
				d.Message = fmt.Sprintf("%s is not valid", userValue(user, e.sels))
				if sv := l.schemaAt(e.sels); sv.Exists() {
					d.Hint = "must be " + l.describeSchema(sv)
				}
			}
		default:
			d.Message = m
		}
		out = append(out, d)
	}
	return out
}

// primary picks, of two positions, the one in the file loaded last (a
// site's own file over fleet defaults), and returns the other as well.
func (l *Loader) primary(pos []diag.Position) (here, other diag.Position) {
	here, other = pos[0], pos[1]
	if l.fileRank[other.File] > l.fileRank[here.File] {
		here, other = other, here
	}
	return here, other
}

func allConflicts(g []cueError) bool {
	for _, e := range g {
		if !reConflict.MatchString(e.msg) {
			return false
		}
	}
	return true
}

// schemaAt finds the schema node for a path of error selectors.
func (l *Loader) schemaAt(sels []string) cue.Value {
	v := l.schema
	top := l.ctx.CompileString("_")
	for _, s := range sels {
		if !v.Exists() {
			return v
		}
		if i, err := strconv.Atoi(s); err == nil && v.IncompleteKind()&cue.ListKind != 0 {
			v = schemaIndex(v, i)
			continue
		}
		v = schemaField(v, cue.Str(unquoteLabel(s)), top)
	}
	return v
}

// describeSchema says in words what a schema constraint accepts.
func (l *Loader) describeSchema(v cue.Value) string {
	if !v.Exists() {
		return "a valid value"
	}
	if vals := concreteAlternatives(v); len(vals) > 0 {
		if len(vals) == 1 {
			return vals[0]
		}
		return "one of " + strings.Join(vals, ", ")
	}
	switch v.IncompleteKind() {
	case cue.StructKind:
		return "a mapping"
	case cue.ListKind:
		return "a list"
	case cue.BoolKind:
		return "true or false"
	}
	return describeConstraint(strings.TrimPrefix(fmt.Sprint(v), "_ & "))
}

var reBound = regexp.MustCompile(`^(>=|<=|>|<)(-?\d+)$`)

// describeConstraint turns a printed CUE constraint such as
// `uint & >=576 & <=65536` into words.
func describeConstraint(s string) string {
	var words []string
	lo, hi := "", ""
	kind := ""
	for _, part := range strings.Split(s, " & ") {
		part = strings.TrimSpace(part)
		switch {
		case part == "int":
			kind = "an integer"
		case part == "uint":
			kind = "a non-negative integer"
		case part == "string":
			kind = "a string"
		case part == "number" || part == "float":
			kind = "a number"
		case strings.HasPrefix(part, "=~"):
			re, err := strconv.Unquote(part[2:])
			if d, ok := describe[re]; ok && err == nil {
				words = append(words, d)
			} else {
				words = append(words, "matching "+part[2:])
			}
		case reBound.MatchString(part):
			m := reBound.FindStringSubmatch(part)
			switch m[1] {
			case ">=":
				lo = m[2]
			case "<=":
				hi = m[2]
			default:
				words = append(words, part)
			}
		case strings.HasPrefix(part, "strings.MaxRunes("):
			words = append(words, "at most "+strings.TrimSuffix(strings.TrimPrefix(part, "strings.MaxRunes("), ")")+" characters")
		case builtinDescription[strings.TrimSuffix(part, "()")] != "":
			words = append(words, builtinDescription[strings.TrimSuffix(part, "()")])
		case part != "_":
			words = append(words, part)
		}
	}
	if kind == "" && len(words) == 0 {
		kind = "a value"
	}
	if lo != "" && kind == "a non-negative integer" {
		kind = "an integer"
	}
	if lo != "" && hi != "" {
		kind += " from " + lo + " to " + hi
	} else if lo != "" {
		kind += " of at least " + lo
	} else if hi != "" {
		kind += " of at most " + hi
	}
	if len(words) > 0 && (kind == "a string" || kind == "") {
		return strings.Join(words, " and ")
	}
	return strings.TrimSpace(strings.Join(append([]string{kind}, words...), ", "))
}

// concreteAlternatives lists the values of a disjunction of concrete values.
func concreteAlternatives(v cue.Value) []string {
	if !v.Exists() {
		return nil
	}
	alts := disjuncts(v)
	if len(alts) < 2 {
		if v.IsConcrete() && v.IncompleteKind() != cue.StructKind && v.IncompleteKind() != cue.ListKind {
			return []string{fmt.Sprint(v)}
		}
		return nil
	}
	var out []string
	for _, a := range alts {
		if !a.IsConcrete() || a.IncompleteKind() == cue.StructKind || a.IncompleteKind() == cue.ListKind {
			return nil
		}
		out = append(out, fmt.Sprint(a))
	}
	return out
}

func dedup(s []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

func unquoteLabel(s string) string {
	if u, err := strconv.Unquote(s); err == nil {
		return u
	}
	return s
}

// pathString prints error selectors as a CUE path.
func pathString(sels []string) string {
	var b strings.Builder
	for i, s := range sels {
		if _, err := strconv.Atoi(s); err == nil {
			fmt.Fprintf(&b, "[%s]", s)
			continue
		}
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(s)
	}
	return b.String()
}

func userLookup(user cue.Value, sels []string) cue.Value {
	v := user
	for _, s := range sels {
		if !v.Exists() {
			return v
		}
		if i, err := strconv.Atoi(s); err == nil && v.IncompleteKind() == cue.ListKind {
			v = v.LookupPath(cue.MakePath(cue.Index(i)))
			continue
		}
		v = v.LookupPath(cue.MakePath(cue.Str(unquoteLabel(s))))
	}
	return v
}

// userPos finds the nearest position the user wrote for a path.
func userPos(user cue.Value, sels []string) (diag.Position, bool) {
	if !user.Exists() {
		return diag.Position{}, false
	}
	for n := len(sels); n >= 0; n-- {
		if v := userLookup(user, sels[:n]); v.Exists() {
			if p := valuePos(v); p.IsValid() && p.Filename() != schema.Filename {
				return diag.Position{File: p.Filename(), Line: p.Line(), Col: p.Column()}, true
			}
		}
	}
	return diag.Position{}, false
}

// userValue prints what the user wrote at a path, for messages.
func userValue(user cue.Value, sels []string) string {
	v := userLookup(user, sels)
	if !v.Exists() {
		return "the value"
	}
	switch v.IncompleteKind() {
	case cue.StructKind:
		return "a mapping"
	case cue.ListKind:
		return "a list"
	}
	b, err := format.Node(v.Syntax(cue.Final()))
	if err != nil || len(b) > 80 {
		return "the value"
	}
	return string(b)
}

// valuePos is where a scalar's value is written (not its label); for
// mappings and lists it is where the field starts.
func valuePos(v cue.Value) token.Pos {
	if k := v.IncompleteKind(); k != cue.StructKind && k != cue.ListKind {
		if f, ok := v.Source().(*ast.Field); ok && f.Value != nil && f.Value.Pos().IsValid() {
			return f.Value.Pos()
		}
	}
	return v.Pos()
}

func isIndex(s string) bool {
	_, err := strconv.Atoi(s)
	return err == nil
}
