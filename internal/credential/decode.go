package credential

import (
	"bytes"
	"encoding/base64"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/siteforge/siteforge/internal/ignition"
)

var (
	// every PEM private key kind (PKCS#1 RSA, SEC1 EC, DSA, PKCS#8 plain
	// and encrypted, OpenSSH) and PGP secret key blocks; PuTTY key files
	privateKey = regexp.MustCompile(`-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|PuTTY-User-Key-File-\d+:`)
	// kubeconfig credentials (users[].user) and the like, one per line
	kubeconfigPW = regexp.MustCompile(`(?m)^\s*["']?(client-key-data|token|password|access-token|refresh-token|id-token)["']?\s*:\s*["']?\S`)
	// a registry auth file's shape, where the text is not a whole
	// document (auths inside a unit's heredoc)
	authsText = regexp.MustCompile(`"auths"\s*:\s*\{[\s\S]*"(auth|password|identitytoken|registrytoken)"\s*:\s*"[^"]`)
	// a base64 run of a PEM block: "-----BEGIN" encoded at any of the three
	// byte alignments
	base64PEM = regexp.MustCompile(`(?:LS0tLS1CRUdJT|0tLS0tQkVHSU|tLS0tLUJFR0lO)[A-Za-z0-9+/=\r\n]*`)
	// a base64 run of a JSON object, a Secret's .dockerconfigjson value
	// (base64 of {"auths": ...}): "{" followed by a quote, a space or a
	// newline encoded at the start of the run (eyI-eyL, eyA-eyD, ewo-ewr)
	base64JSON = regexp.MustCompile(`\bey[A-L][A-Za-z0-9+/=\r\n]{16,}|\bew[o-r][A-Za-z0-9+/=\r\n]{16,}`)
)

// A pattern matches only text holding one of its literals: matched
// first (bytes.Contains), they spare the regular expression the text
// that cannot match, most of it (Go's regexp runs a pattern that starts
// with an alternation at every byte).
var (
	privateKeyLiterals   = literals("-----BEGIN ", "PuTTY-User-Key-File-")
	kubeconfigPWLiterals = literals("token", "password", "client-key-data")
	base64PEMLiterals    = literals("LS0t") // in each of the three alignments
	base64JSONLiterals   = literals("ey", "ew")
)

func literals(ls ...string) [][]byte {
	out := make([][]byte, len(ls))
	for i, l := range ls {
		out[i] = []byte(l)
	}
	return out
}

// holdsAny reports whether text holds one of the literals.
func holdsAny(text []byte, literals [][]byte) bool {
	for _, l := range literals {
		if bytes.Contains(text, l) {
			return true
		}
	}
	return false
}

// In names the kind of credential text holds ("" for none): a private key,
// a registry auth file with a credential (a Docker config.json or
// containers auth.json, JSON or YAML: a pull secret), kubeconfig
// credentials or a password line; in the text itself, in the bytes a data:
// URL holds (base64 or percent-encoded, gzip-compressed or not), or in a
// base64 run of a PEM block or of a JSON document.
func In(text []byte) string {
	return in(text, 0)
}

func in(text []byte, depth int) string {
	if what := plain(text, nil); what != "" {
		return what
	}
	return encoded(text, depth)
}

// plain names the kind of credential the text itself holds, not decoded:
// In's first checks. first, when not nil, is the text's first YAML
// document, already decoded (registryAuths).
func plain(text []byte, first *yaml.Node) string {
	switch {
	case holdsAny(text, privateKeyLiterals) && privateKey.Match(text):
		return "a private key"
	case registryAuths(text, first):
		return "registry credentials (a pull secret)"
	case holdsAny(text, kubeconfigPWLiterals) && kubeconfigPW.Match(text):
		return "kubeconfig credentials or a password"
	}
	return ""
}

// encoded names the kind of credential text holds once decoded: In
// without its checks of the text itself. A data: URL is what it decodes
// to, and nothing else: its base64 is not looked at again.
func encoded(text []byte, depth int) string {
	if depth > 2 {
		return ""
	}
	if bytes.HasPrefix(text, []byte("data:")) {
		if b := decodeDataURL(text); b != nil {
			return in(b, depth+1)
		}
	}
	if isGzip(text) {
		if z, err := ignition.Gunzip(text, maxDecoded); err == nil {
			if s := in(z, depth+1); s != "" {
				return s
			}
		}
	}
	return base64Runs(text, depth, nil)
}

// base64Runs names the kind of credential a base64 run of a PEM block or
// of a JSON document in text holds once decoded, leaving out the runs
// that lie within one of the spans done (byte offsets [start, end) of
// text, decoded already).
func base64Runs(text []byte, depth int, done [][]int) string {
	for _, p := range []struct {
		re       *regexp.Regexp
		literals [][]byte
	}{{base64PEM, base64PEMLiterals}, {base64JSON, base64JSONLiterals}} {
		if !holdsAny(text, p.literals) {
			continue
		}
		for _, loc := range p.re.FindAllIndex(text, -1) {
			if within(loc, done) {
				continue
			}
			clean := bytes.Map(func(r rune) rune {
				if r == '\n' || r == '\r' {
					return -1
				}
				return r
			}, text[loc[0]:loc[1]])
			for off := 0; off < 3 && off < len(clean); off++ {
				b, err := base64.StdEncoding.DecodeString(trimBase64(string(clean[off:])))
				if err == nil {
					if s := in(b, depth+1); s != "" {
						return s
					}
				}
			}
		}
	}
	return ""
}

// within reports whether the span loc lies within one of spans.
func within(loc []int, spans [][]int) bool {
	for _, s := range spans {
		if loc[0] >= s[0] && loc[1] <= s[1] {
			return true
		}
	}
	return false
}

// trimBase64 cuts s to a whole number of base64 quanta.
func trimBase64(s string) string {
	s = strings.TrimRight(s, "=")
	s = s[:len(s)-len(s)%4]
	return s
}

// registryAuths reports a container auth file (Docker config.json,
// containers auth.json: containers-auth.json(5)), JSON or YAML, with a
// credential for any registry; the legacy .dockercfg shape (registries at
// the top, kubernetes.io/dockercfg) too. first, when not nil, is the
// text's first YAML document, decoded already: it is not parsed again.
func registryAuths(text []byte, first *yaml.Node) bool {
	if !bytes.Contains(text, []byte("auth")) {
		return false
	}
	// as YAML, the text is its first document (yaml.Unmarshal's reading)
	var doc map[string]any
	var err error
	if first != nil {
		err = first.Decode(&doc)
	} else {
		err = yaml.Unmarshal(text, &doc)
	}
	if err != nil {
		// not YAML or JSON as a whole: look for the shape in the text
		return authsText.Match(text)
	}
	entries, _ := doc["auths"].(map[string]any)
	if entries == nil && registryKeys(doc) {
		entries = doc // .dockercfg: {"registry": {"auth": ...}}
	}
	for _, raw := range entries {
		entry, _ := raw.(map[string]any)
		for _, k := range []string{"auth", "password", "identitytoken", "registrytoken"} {
			if v, ok := entry[k].(string); ok && v != "" {
				return true
			}
		}
	}
	return false
}

// registryKeys reports whether every key of a mapping is a registry host
// (a dot or a port in it), as in a .dockercfg.
func registryKeys(doc map[string]any) bool {
	for k := range doc {
		if !strings.ContainsAny(k, ".:") {
			return false
		}
	}
	return len(doc) > 0
}
