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
// on the whole text, and Walk on each of its YAML or JSON documents and on
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

func decoded(data []byte, depth int) string {
	// the documents first: a file a node would get is named by its path
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for i := 0; i < maxDocuments; i++ {
		var doc yaml.Node
		if dec.Decode(&doc) != nil {
			break
		}
		what := ""
		walk(&doc, "", map[*yaml.Node]bool{}, func(f Finding) bool {
			what = f.What
			return false
		}, func(s string) string {
			if depth+1 < maxDepth && embedded(s) {
				return decoded([]byte(s), depth+1)
			}
			return ""
		})
		if what != "" {
			return what
		}
	}
	return In(data)
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

// Walk calls f for every credential of the document rooted at n, until f
// returns false: every string In reports, and every Ignition file entry
// (path with contents or append) or Butane one (path with contents) that
// writes to a credential path, whatever it writes there. Aliases and merge
// keys are followed, each node once.
func Walk(n *yaml.Node, f func(Finding) bool) {
	walk(n, "", map[*yaml.Node]bool{}, f, nil)
}

// walk is Walk; deeper, when not nil, says what credential a string holds
// beyond In (Find: the documents embedded in strings).
func walk(n *yaml.Node, key string, seen map[*yaml.Node]bool, f func(Finding) bool, deeper func(string) string) bool {
	n = resolve(n)
	if n == nil || seen[n] {
		return true
	}
	seen[n] = true
	switch n.Kind {
	case yaml.ScalarNode:
		if n.Tag != "!!str" && n.Tag != "" {
			return true
		}
		what := In([]byte(n.Value))
		if what == "" && deeper != nil {
			what = deeper(n.Value)
		}
		if what != "" {
			return f(Finding{Node: n, Key: key, What: what})
		}
	case yaml.MappingNode:
		if p, what := writesCredentialPath(n); what != "" && !f(Finding{Node: p, Key: "path", What: what, Path: true}) {
			return false
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			if !walk(n.Content[i+1], n.Content[i].Value, seen, f, deeper) {
				return false
			}
		}
	case yaml.SequenceNode, yaml.DocumentNode:
		for _, c := range n.Content {
			if !walk(c, key, seen, f, deeper) {
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
// when one of its key names names a credential (Key), or when what it
// holds decodes to a credential (In: a data: URL, a base64 PEM block).
func Line(line []byte) bool {
	if textLine(line) || In(line) != "" {
		return true
	}
	for _, u := range dataURL.FindAll(line, -1) {
		if In(u) != "" {
			return true
		}
	}
	return false
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
