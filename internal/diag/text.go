package diag

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Limits on what a diagnostic shows of the user's files: a site file may be
// one 4 MiB line (minified JSON), and a diagnostic names a place, it does
// not reproduce the input.
const (
	// MaxSnippetBytes is the most of one source line a snippet shows: a
	// window around the column, marked with … where it is cut.
	MaxSnippetBytes = 160
	// MaxSnippetsPerFile is the most snippets one printer shows of a file;
	// further diagnostics in that file are printed without one.
	MaxSnippetsPerFile = 20
	// MaxMessageBytes bounds what Clean prints of one value, message or
	// hint (a message can quote a value): a line of output holds a few of
	// them, so no input makes it much longer than a few KiB.
	MaxMessageBytes = 1024
)

// Clean is the one escaping and bounding function for every value
// siteforge echoes: file names, site and pool names, revisions, arguments,
// environment variable names, messages and the error text of other programs,
// in every output format. Control characters (newlines included), DEL, C1
// controls and bidirectional overrides are escaped as \xNN or \uNNNN, so a
// value cannot start a new line (a forged GitHub workflow command), move the
// cursor, or reorder what is shown. Invalid UTF-8 bytes are escaped too. At
// most MaxMessageBytes are printed (escaping can quadruple a byte, so the
// bound is on what is printed), cut between runes and never inside an
// escape, and marked "… (N more bytes)".
func Clean(s string) string {
	if len(s) <= MaxMessageBytes && isClean(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		piece, size := cleanRune(s, i)
		if b.Len()+len(piece) > MaxMessageBytes {
			fmt.Fprintf(&b, "… (%d more bytes)", len(s)-i)
			break
		}
		b.WriteString(piece)
		i += size
	}
	return b.String()
}

// cleanRune is the rune of s at i as Clean prints it, and its size in s.
func cleanRune(s string, i int) (string, int) {
	r, size := utf8.DecodeRuneInString(s[i:])
	switch {
	case r == utf8.RuneError && size <= 1:
		return fmt.Sprintf(`\x%02x`, s[i]), 1
	case r < 0x20 || r == 0x7f:
		return fmt.Sprintf(`\x%02x`, r), size
	case (r >= 0x80 && r <= 0x9f) || isBidi(r):
		return fmt.Sprintf(`\u%04x`, r), size
	}
	return s[i : i+size], size
}

func isClean(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

func isBidi(r rune) bool {
	return (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x200e || r == 0x200f || r == 0x061c
}

// lineStart makes a printed line safe at its start: CI runners read a line
// starting with "::" (GitHub workflow commands) or "##[" (its older form)
// as a command, so a file name starting with ":" (the ": " siteforge writes
// after a position would complete the "::") or "##[" gets "./".
func lineStart(s string) string {
	if strings.HasPrefix(s, ":") || strings.HasPrefix(s, "##[") {
		return "./" + s
	}
	return s
}

// SafeLine is Clean for a value that starts an output line (a position, a
// path, a site name).
func SafeLine(s string) string { return lineStart(Clean(s)) }

// Showable reports whether a file may be quoted in a snippet: a site or a
// manifest, the files siteforge reads as input. Anything else a user may
// point siteforge at by mistake (a registry auth file, a Helm values file)
// is never echoed: its diagnostics name the place only.
func Showable(name string, data []byte) bool {
	if strings.EqualFold(extOf(name), ".cue") {
		return true
	}
	head := data
	if len(head) > 64<<10 {
		head = head[:64<<10]
	}
	return manifestKey.Match(head) || jsonManifestKey.Match(head) || siteKey.Match(head)
}

var (
	// a top-level apiVersion or kind: a Kubernetes object, a site, an
	// install-config (apiVersion: v1) or agent-config
	manifestKey     = regexp.MustCompile(`(?m)^(apiVersion|kind|baseDomain)\s*:`)
	jsonManifestKey = regexp.MustCompile(`"(apiVersion|kind)"\s*:`)
	// a part of a site (fleet defaults written in YAML)
	siteKey = regexp.MustCompile(`(?m)^(cluster|network|pools|paths|mtu|networkMigration|mirroring|ingress|egress|ovs|machineConfigs|lint)\s*:`)
)

func extOf(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 && !strings.ContainsAny(name[i:], `/\`) {
		return name[i:]
	}
	return ""
}

// HoldsCredential reports whether any line of data looks like it holds a
// credential (credentialLine): such a file is never copied by siteforge
// import.
func HoldsCredential(data []byte) bool {
	for _, line := range bytes.Split(data, []byte("\n")) {
		if credentialLine(line) {
			return true
		}
	}
	return false
}

// credentialLine reports whether a source line looks like it holds a
// credential: it is never shown, even from a site or manifest (a Secret, a
// kubeconfig, a key pasted by mistake). It does when it holds a private key
// header, a bearer token, a URL with a password or a long base64 run, or
// when one of its key names (a word before ":" or "=", or after "--")
// names a credential (credentialKey).
func credentialLine(line []byte) bool {
	if credentialText.Match(line) {
		return true
	}
	for _, m := range keyName.FindAllSubmatch(line, -1) {
		if credentialKey(string(m[1])) || credentialKey(string(m[2])) {
			return true
		}
	}
	return false
}

var (
	credentialText = regexp.MustCompile(`(?i)-----BEGIN [A-Z0-9 ]*PRIVATE KEY|-----BEGIN PGP PRIVATE|\bbearer\s+[A-Za-z0-9._~+/=-]{8,}|://[^/\s:@]+:[^/\s@]+@|^\s*[A-Za-z0-9+/]{60,}={0,2}\s*$`)
	// a key (YAML, JSON, INI, an environment assignment, a systemd
	// Environment=) or a command line flag
	keyName = regexp.MustCompile(`([\p{L}\p{N}_.-]+)["'\]]?\s*[:=]|--([\p{L}\p{N}_.-]+)`)
)

// credentialKey reports whether a key name names a credential. The name is
// split into words (camelCase, snake_case, kebab-case, dotted: AWS's
// aws_secret_access_key, secretAccessKey and SecretAccessKey are the words
// secret, access, key); it names a credential when a word is one of
// credentialWords, ends in one of credentialSuffixes (dbpassword,
// clientsecret, authtoken), or is "key" (or ends in it: apikey) with a
// qualifier of keyQualifiers in the name (api_key, private-key, tls.key,
// client-key-data). A bare "key" (a toleration's, a label selector's) or a
// public key (sshKey, publicKey, authorizedKeys) is no credential. The
// words are those of gitleaks' generic-api-key rule (its keywords, minus
// the ones that name no credential alone: api, client, access) and of
// detect-secrets' KeywordDetector DENYLIST; TestCredentialKeyNames lists
// the key names they come from.
func credentialKey(name string) bool {
	words := keyWords(name)
	qualified := false
	for _, w := range words {
		if keyQualifiers[w] {
			qualified = true
		}
	}
	for _, w := range words {
		if credentialWords[w] {
			return true
		}
		for _, suf := range credentialSuffixes {
			if strings.HasSuffix(w, suf) {
				return true
			}
		}
		for _, k := range []string{"key", "keys"} {
			if pre, ok := strings.CutSuffix(w, k); ok && (qualified || keyQualifiers[pre]) {
				return true
			}
		}
	}
	return false
}

var (
	credentialWords = setOf("password", "passwords", "passwd", "pwd", "pass", "passphrase", "secret", "secrets",
		"secrete", "secreto", "token", "tokens", "credential", "credentials", "creds", "cred", "auth", "auths",
		"authorization", "bearer", "dockerconfigjson", "dockercfg", "htpasswd", "psk", "keypass", "dbpass",
		"contrasena", "contraseña")
	credentialSuffixes = []string{"password", "passwd", "passphrase", "secret", "token"}
	keyQualifiers      = setOf("access", "secret", "private", "priv", "api", "app", "application", "auth", "service",
		"account", "db", "database", "client", "consumer", "signing", "sign", "encryption", "encrypt", "master",
		"tls", "ssl", "storage", "session", "hmac", "shared")
)

func setOf(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// keyWords splits a key name into lower-case words: at every character
// that is no letter or digit, between a lower-case letter or digit and an
// upper-case one (secretAccessKey), and before the last capital of a run
// followed by a lower-case letter (APIKey: API, Key).
func keyWords(name string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(name)
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush()
			continue
		}
		if unicode.IsUpper(r) && i > 0 {
			prev := rs[i-1]
			next := rune(0)
			if i+1 < len(rs) {
				next = rs[i+1]
			}
			if unicode.IsLower(prev) || unicode.IsDigit(prev) || unicode.IsUpper(prev) && unicode.IsLower(next) {
				flush()
			}
		}
		cur = append(cur, r)
	}
	flush()
	return words
}

// snippetLine returns the part of line shown under a diagnostic at byte
// column col (1-based): at most MaxSnippetBytes around col, cleaned, and
// the column of the caret in what is returned.
func snippetLine(line []byte, col int) (shown string, caretPad string, rest int, ok bool) {
	if !utf8.Valid(line) || bytes.IndexByte(line, 0) >= 0 {
		return "", "", 0, false
	}
	line = bytes.TrimRight(line, "\r")
	col = min(max(col, 1), len(line)+1)
	start, end := 0, len(line)
	if end > MaxSnippetBytes {
		start = max(0, col-1-MaxSnippetBytes/2)
		end = min(len(line), start+MaxSnippetBytes)
		start = max(0, end-MaxSnippetBytes)
		for start > 0 && !utf8.RuneStart(line[start]) {
			start++
		}
		for end < len(line) && !utf8.RuneStart(line[end]) {
			end--
		}
	}
	prefix := cleanSnippet(string(line[start : col-1]))
	after := cleanSnippet(string(line[col-1 : end]))
	body := prefix + after
	if start > 0 {
		body = "…" + body
		prefix = " " + prefix
	}
	if end < len(line) {
		body += "…"
	}
	pad := strings.Map(func(r rune) rune {
		if r == '\t' {
			return '\t'
		}
		return ' '
	}, prefix)
	return body, pad, utf8.RuneCountInString(after), true
}

// cleanSnippet is Clean that keeps tabs (the caret line repeats them).
func cleanSnippet(s string) string {
	parts := strings.Split(s, "\t")
	for i, p := range parts {
		parts[i] = Clean(p)
	}
	return strings.Join(parts, "\t")
}

// LoneCRToLF turns a CR that is not part of a CRLF into LF. YAML 1.2 (5.4
// Line Break Characters) and JSON's whitespace count a lone CR as a line
// break; siteforge's positions, its snippets and CUE's YAML decoder count
// LF. The bytes keep their offsets, so columns do not move.
func LoneCRToLF(data []byte) []byte {
	i := bytes.IndexByte(data, '\r')
	if i < 0 {
		return data
	}
	var out []byte
	for ; i >= 0 && i < len(data); i = nextCR(data, i+1) {
		if i+1 < len(data) && data[i+1] == '\n' {
			continue
		}
		if out == nil {
			out = append([]byte(nil), data...)
		}
		out[i] = '\n'
	}
	if out == nil {
		return data
	}
	return out
}

func nextCR(data []byte, from int) int {
	if from >= len(data) {
		return -1
	}
	j := bytes.IndexByte(data[from:], '\r')
	if j < 0 {
		return -1
	}
	return from + j
}
