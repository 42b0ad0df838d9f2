package diag

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
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
