package credential

import (
	"regexp"
	"strings"
	"unicode"
)

// textLine reports whether a source line, as text, looks like it holds a
// credential: a private key header, a bearer token, a URL with a password
// or a long base64 run, or a key name (a word before ":" or "=", or after
// "--") that names a credential (credentialKey).
func textLine(line []byte) bool {
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

// credentialKey reports whether a key name names a credential. The name is split
// into words (camelCase, snake_case, kebab-case, dotted: AWS's
// aws_secret_access_key, secretAccessKey and SecretAccessKey are the words
// secret, access, key); it names a credential when a word is one of
// credentialWords, ends in one of credentialSuffixes (dbpassword,
// clientsecret, authtoken), or is "key" (or ends in it: apikey) with a
// qualifier of keyQualifiers in the name (api_key, private-key, tls.key,
// client-key-data). A bare "key" (a toleration's, a label selector's) or a
// public key (sshKey, publicKey, authorizedKeys) is no credential. The
// words are those of gitleaks' generic-api-key rule (its keywords, minus
// the ones that name no credential alone: api, client, access) and of
// detect-secrets' KeywordDetector DENYLIST; TestKeyNames lists the key
// names they come from.
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
