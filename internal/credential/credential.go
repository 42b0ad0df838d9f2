// Package credential tells whether bytes hold a credential: a pull secret
// or any registry auth file, a private key, a kubeconfig token, a password,
// a URL with a password. It is the one check siteforge uses wherever a
// credential could leave the user's files: import never copies a file or
// value Find reports, a snippet never shows a line Line reports, and a
// site's Butane never writes to a Path or holds text In reports
// (internal/butane).
//
// The check looks at what a node would get, not only at the text: data:
// URLs (base64 or percent-encoded, gzip-compressed or not, as Ignition
// decodes them: internal/ignition), base64 runs of a PEM block or of a
// registry auth file, YAML and JSON documents embedded in strings (a
// MachineConfig in a ConfigMap, a ClusterInstance's ignitionConfigOverride,
// a site's Butane), and the files Ignition or Butane write to a path that
// holds credentials on a node (/var/lib/kubelet/config.json, the pull
// secret), whatever they write there.
package credential

import (
	"bytes"
	"io"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/siteforge/siteforge/internal/ignition"
)

// Find says what credential data holds ("" for none). data is a whole file
// or value: YAML or JSON (one or several documents) or any text. What it
// returns names the kind of credential and, for a file a node would get,
// its path; never the credential itself. It is Decoded, then the text
// heuristics of Line on every line (a key that names a credential, a URL
// with a password, a long base64 run).
func Find(data []byte) string {
	if what := Decoded(data); what != "" {
		return what
	}
	for _, line := range bytes.Split(data, []byte("\n")) {
		if textLine(line) {
			return "a credential (a key, a password, a token or a URL with a password)"
		}
	}
	return ""
}

// Decoded says what credential data holds once decoded ("" for none): In
// on the whole text, and walkAll on each of its YAML or JSON documents and on
// the documents embedded in their strings (a MachineConfig in a ConfigMap,
// an Ignition config in a JSON string, a Butane body in a site). Unlike
// Find, a key name alone is no finding: a rendered ClusterInstance names
// its pull secret (pullSecretRef) without holding it.
func Decoded(data []byte) string {
	return decoded(data, 0)
}

// maxDepth bounds how deep Decoded looks into documents embedded in
// strings.
const maxDepth = 3

// decoded is Decoded, each piece of text decoded once. The documents
// first (a file a node would get is named by its path), each string of
// them In and, when it is a document itself, decoded in turn. When the
// text is a stream of mappings and lists that all decode, what In
// decodes of the whole text is in those strings: of the whole text only
// the checks of the text itself are left (plain), and the decoding of
// what no string holds (comments, keys, scalars of other tags). Else In
// on the whole text, as text.
func decoded(data []byte, depth int) string {
	var first *yaml.Node
	var rest [][]byte
	whole := true // every document decoded, each a mapping or a list
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for i := 0; ; i++ {
		if i == maxDocuments {
			whole = false
			break
		}
		doc := new(yaml.Node)
		err := dec.Decode(doc)
		if err == io.EOF {
			whole = whole && first != nil
			break
		}
		if err != nil {
			whole = false
			break
		}
		if first == nil {
			first = doc
		}
		what := ""
		walker{f: func(f Finding) bool {
			what = f.What
			return false
		}, deeper: func(s string) (string, bool) {
			if depth+1 < maxDepth && embedded(s) {
				return decoded([]byte(s), depth+1), true
			}
			return "", false
		}, paths: true, seen: map[*yaml.Node]bool{}}.walk(doc, "")
		if what != "" {
			return what
		}
		if root := docRoot(doc); whole && root != nil && (root.Kind == yaml.MappingNode || root.Kind == yaml.SequenceNode) {
			rest = unwalked(doc, false, map[*yaml.Node]bool{}, rest)
		} else {
			whole = false
		}
	}
	if !whole {
		return In(data)
	}
	if what := plain(data, first); what != "" {
		return what
	}
	return base64Runs(bytes.Join(rest, []byte(" ")), 0, nil)
}

// docRoot is the root of a decoded document, nil when it has none.
func docRoot(doc *yaml.Node) *yaml.Node {
	if len(doc.Content) == 0 {
		return nil
	}
	return resolve(doc.Content[0])
}

// unwalked appends to rest the text of the document rooted at n that
// walk does not check as a string: comments, mapping keys (key: every
// scalar of n is one), scalars of other tags (!!binary).
func unwalked(n *yaml.Node, key bool, seen map[*yaml.Node]bool, rest [][]byte) [][]byte {
	n = resolve(n)
	if n == nil || seen[n] {
		return rest
	}
	seen[n] = true
	for _, c := range []string{n.HeadComment, n.LineComment, n.FootComment} {
		if c != "" {
			rest = append(rest, []byte(c))
		}
	}
	switch n.Kind {
	case yaml.ScalarNode:
		if key || n.Tag != "!!str" && n.Tag != "" {
			rest = append(rest, []byte(n.Value))
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			rest = unwalked(n.Content[i], true, seen, rest)
			rest = unwalked(n.Content[i+1], key, seen, rest)
		}
	case yaml.SequenceNode, yaml.DocumentNode:
		for _, c := range n.Content {
			rest = unwalked(c, key, seen, rest)
		}
	}
	return rest
}

// maxDocuments bounds the YAML documents Find reads of one stream.
const maxDocuments = 10000

// A Finding is a credential in a decoded YAML or JSON document.
type Finding struct {
	// Node is the string that holds the credential, or the path of a file
	// entry that writes to a credential path (Path is then true).
	Node *yaml.Node
	// Key is the mapping key Node is the value of ("" in a list).
	Key  string
	What string
	Path bool
}

// walkAll calls f for every credential of the document rooted at n, until f
// returns false: every string In reports, and every Ignition file entry
// (path with contents or append) or Butane one (path with contents) that
// writes to a credential path, whatever it writes there. Aliases and merge
// keys are followed, each node once.
func walkAll(n *yaml.Node, f func(Finding) bool) {
	walker{f: f, paths: true, seen: map[*yaml.Node]bool{}}.walk(n, "")
}

// WalkStrings is walkAll without the file entries: f is called for every
// string In reports. The Butane check, which judges the path of every
// storage entry itself (files, links, directories, trees; contents or
// not), walks the strings alone.
func WalkStrings(n *yaml.Node, f func(Finding) bool) {
	walker{f: f, seen: map[*yaml.Node]bool{}}.walk(n, "")
}

// walker is the state of walkAll, WalkStrings and decoded. deeper, when not nil, is Find's look into the
// documents embedded in strings: what credential a string holds, and
// whether it checked the string whole (In included: a document, decoded
// once). paths says whether file entries that write to a credential path
// are findings.
type walker struct {
	f      func(Finding) bool
	deeper func(string) (string, bool)
	paths  bool
	seen   map[*yaml.Node]bool
}

func (w walker) walk(n *yaml.Node, key string) bool {
	n = resolve(n)
	if n == nil || w.seen[n] {
		return true
	}
	w.seen[n] = true
	switch n.Kind {
	case yaml.ScalarNode:
		if n.Tag != "!!str" && n.Tag != "" {
			return true
		}
		what, whole := "", false
		if w.deeper != nil {
			what, whole = w.deeper(n.Value)
		}
		switch {
		case !whole:
			what = In([]byte(n.Value))
		case what != "":
			// found: the name In gives, when it finds one, comes first
			if in := In([]byte(n.Value)); in != "" {
				what = in
			}
		}
		if what != "" {
			return w.f(Finding{Node: n, Key: key, What: what})
		}
	case yaml.MappingNode:
		if w.paths {
			if p, what := writesCredentialPath(n); what != "" && !w.f(Finding{Node: p, Key: "path", What: what, Path: true}) {
				return false
			}
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			if !w.walk(n.Content[i+1], n.Content[i].Value) {
				return false
			}
		}
	case yaml.SequenceNode, yaml.DocumentNode:
		for _, c := range n.Content {
			if !w.walk(c, key) {
				return false
			}
		}
	}
	return true
}

// embedded reports whether a string may be a YAML or JSON document of its
// own (several lines, or a JSON object or list).
func embedded(s string) bool {
	t := bytes.TrimSpace([]byte(s))
	return bytes.IndexByte(t, '\n') >= 0 || len(t) > 1 && (t[0] == '{' || t[0] == '[')
}

// writesCredentialPath is the path of an Ignition file entry (path with
// contents or append) or a Butane one (path with contents: inline, local
// or source) and what it holds, when its path is a credential path (Path):
// whatever the contents, the file holds the credential on the node.
func writesCredentialPath(n *yaml.Node) (*yaml.Node, string) {
	p := resolve(lookup(n, "path"))
	if p == nil || p.Kind != yaml.ScalarNode {
		return nil, ""
	}
	if lookup(n, "contents") == nil && lookup(n, "append") == nil {
		return nil, ""
	}
	what, ok := Path(p.Value)
	switch {
	case !ok:
		return nil, ""
	case strings.HasPrefix(what, "is under "):
		return p, "a file that " + what + " (" + p.Value + ")"
	}
	return p, what + " (" + p.Value + ")"
}

// Line reports whether one line of a file looks like it holds a
// credential: a snippet never shows it. It does when it holds a private
// key header, a bearer token, a URL with a password or a long base64 run,
// when one of its key names names a credential (credentialKey), or when what it
// holds decodes to a credential (In: a data: URL, a base64 PEM block).
func Line(line []byte) bool {
	if textLine(line) || plain(line, nil) != "" {
		return true
	}
	// In of the line, and of each data: URL in it: each decoded once, and
	// a base64 run within a data: URL decoded as part of the URL only
	var done [][]int
	if bytes.HasPrefix(line, []byte("data:")) {
		if b := decodeDataURL(line); b != nil {
			if in(b, 1) != "" {
				return true
			}
			done = append(done, []int{0, len(line)})
		}
	}
	for _, loc := range dataURL.FindAllIndex(line, -1) {
		if within(loc, done) {
			continue
		}
		if b := decodeDataURL(line[loc[0]:loc[1]]); b != nil {
			if in(b, 1) != "" {
				return true
			}
			done = append(done, loc)
		}
	}
	if isGzip(line) {
		if z, err := ignition.Gunzip(line, maxDecoded); err == nil && in(z, 1) != "" {
			return true
		}
	}
	return base64Runs(line, 0, done) != ""
}

// dataURL is a data: URL inside a line of YAML or JSON.
var dataURL = regexp.MustCompile(`data:[^\s"'\\]*`)

// resolve follows YAML aliases.
func resolve(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 100; i++ {
		n = n.Alias
	}
	return n
}

// lookup returns the value of key in mapping n, through aliases and YAML
// merge keys (<<).
func lookup(n *yaml.Node, key string) *yaml.Node {
	return lookupDepth(n, key, 0)
}

func lookupDepth(n *yaml.Node, key string, depth int) *yaml.Node {
	n = resolve(n)
	if n == nil || n.Kind != yaml.MappingNode || depth > 100 {
		return nil
	}
	var merged []*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		switch n.Content[i].Value {
		case key:
			return n.Content[i+1]
		case "<<":
			v := resolve(n.Content[i+1])
			if v != nil && v.Kind == yaml.SequenceNode {
				merged = append(merged, v.Content...)
			} else {
				merged = append(merged, v)
			}
		}
	}
	for _, mm := range merged {
		if v := lookupDepth(mm, key, depth+1); v != nil {
			return v
		}
	}
	return nil
}

// Lookup is lookup for the Butane check, which walks its body itself to
// report each finding at its line.
func Lookup(n *yaml.Node, key string) *yaml.Node { return lookup(n, key) }

// Resolve is resolve for the Butane check.
func Resolve(n *yaml.Node) *yaml.Node { return resolve(n) }

// maxDecoded bounds what one value may decode or decompress to.
const maxDecoded = 16 << 20

// decodeDataURL is the bytes a data: URL holds, gunzipped when they are
// gzip (Ignition's compression: gzip), or nil.
func decodeDataURL(text []byte) []byte {
	b, err := ignition.Contents(string(text), "", maxDecoded)
	if err != nil {
		return nil
	}
	if isGzip(b) {
		if z, err := ignition.Gunzip(b, maxDecoded); err == nil {
			return z
		}
	}
	return b
}

func isGzip(b []byte) bool { return len(b) > 2 && b[0] == 0x1f && b[1] == 0x8b }
