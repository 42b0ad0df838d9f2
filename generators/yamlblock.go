package generators

import (
	"slices"
	"strconv"
	"strings"
)

// blockYAML writes m as go.yaml.in/yaml/v2's Marshal writes it, for the
// maps whose every value it can say the bytes of without the library's
// emitter; ok is false for any other map (marshalYAML then calls the
// library). It takes what typeNumbers leaves: maps, lists, strings, int,
// int64, uint64, booleans and null (a float64 is left to the library).
//
// The layout is yaml.v2's block style (emitterc.go, best_indent 2): a
// mapping's keys sorted by the library's order (sorter.go keyList.Less), a
// sequence under a mapping key not indented (yaml_emitter_emit_block_
// sequence_item's indentless sequence), an empty mapping or sequence in
// flow style ({} and []). A string is written only where plainStyle
// knows the library's style: plain (encode.go stringv: resolve gives !!str
// and it is not a base-60 float; emitterc.go yaml_emitter_analyze_scalar
// allows the block plain style), single-quoted (a block indicator), or
// double-quoted (the YAML 1.1 words resolve reads as a boolean or null,
// "yes", "off", "null", "", and the digits it reads as a number, "1",
// "4.16"); and where no line is folded (the emitter breaks a plain or
// quoted scalar's line at a space past column 80). Every other string
// (with a line break, a tab or a byte that is not printable ASCII, one
// that might resolve to a number or a time, a long one with a space, ...)
// makes ok false, so the bytes never differ: TestBlockYAMLGolden and
// TestBlockYAMLIsYAMLv2 compare both on what the generators write and on
// random values.
func blockYAML(m map[string]any) ([]byte, bool) {
	w := blockWriter{b: make([]byte, 0, 1024)}
	if len(m) == 0 {
		return append(w.b, "{}\n"...), true
	}
	if !w.mapping(m, 0, false) {
		return nil, false
	}
	return w.b, true
}

// yamlFoldWidth is yaml.v2's best_width: a plain scalar's line is broken
// at a space past this column.
const yamlFoldWidth = 80

type blockWriter struct {
	b    []byte
	keys []string // scratch, reused down the walk
}

func (w *blockWriter) indent(n int) {
	for range n {
		w.b = append(w.b, ' ')
	}
}

// mapping writes m (not empty) at indent; inline: its first key goes on
// the line already started ("- ").
func (w *blockWriter) mapping(m map[string]any, indent int, inline bool) bool {
	start := len(w.keys)
	for k := range m {
		w.keys = append(w.keys, k)
	}
	keys := w.keys[start:]
	if !sortKeys(keys) {
		return false
	}
	for i, k := range keys {
		if i > 0 || !inline {
			w.indent(indent)
		}
		mark := len(w.b)
		if !w.scalarString(k, true) {
			return false
		}
		w.b = append(w.b, ':')
		col := indent + len(w.b) - mark + 1
		if !w.value(m[k], indent, col, true) {
			return false
		}
	}
	w.keys = w.keys[:start]
	return true
}

// sequence writes l (not empty) at indent; inline as for mapping.
func (w *blockWriter) sequence(l []any, indent int, inline bool) bool {
	for i, e := range l {
		if i > 0 || !inline {
			w.indent(indent)
		}
		w.b = append(w.b, '-')
		if !w.value(e, indent+2, indent+2, false) {
			return false
		}
	}
	return true
}

// value writes v after a key's colon (inMap) or a sequence's dash, its
// scalar starting at column col; a mapping or sequence inside goes at
// indent (a sequence under a key at the key's indent).
func (w *blockWriter) value(v any, indent, col int, inMap bool) bool {
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 0 {
			w.b = append(w.b, " {}\n"...)
			return true
		}
		if inMap {
			w.b = append(w.b, '\n')
			return w.mapping(x, indent+2, false)
		}
		w.b = append(w.b, ' ')
		return w.mapping(x, indent, true)
	case []any:
		if len(x) == 0 {
			w.b = append(w.b, " []\n"...)
			return true
		}
		if inMap {
			w.b = append(w.b, '\n')
			return w.sequence(x, indent, false)
		}
		w.b = append(w.b, ' ')
		return w.sequence(x, indent, true)
	case string:
		w.b = append(w.b, ' ')
		mark := len(w.b)
		if !w.scalarString(x, false) {
			return false
		}
		if col+len(w.b)-mark > yamlFoldWidth && strings.IndexByte(x, ' ') >= 0 {
			return false // the library may fold it at a space
		}
	case int:
		w.b = append(w.b, ' ')
		w.b = strconv.AppendInt(w.b, int64(x), 10)
	case int64:
		w.b = append(w.b, ' ')
		w.b = strconv.AppendInt(w.b, x, 10)
	case uint64:
		w.b = append(w.b, ' ')
		w.b = strconv.AppendUint(w.b, x, 10)
	case bool:
		w.b = append(w.b, ' ')
		w.b = strconv.AppendBool(w.b, x)
	case nil:
		w.b = append(w.b, " null"...)
	default:
		return false
	}
	w.b = append(w.b, '\n')
	return true
}

// scalarString writes s plain, or double-quoted when resolve reads it as
// a boolean, null or a number (plainStyle); false when yaml.v2
// might write it otherwise. A key is never folded (a simple key), and one
// longer than 128 bytes is not simple (yaml_emitter_check_simple_key).
func (w *blockWriter) scalarString(s string, key bool) bool {
	if key && len(s) > 128 {
		return false
	}
	switch plainStyle(s) {
	case styleQuoted:
		w.b = append(w.b, '"')
		w.b = append(w.b, s...)
		w.b = append(w.b, '"')
		return true
	case styleSingle:
		w.b = append(w.b, '\'')
		w.b = append(w.b, s...)
		w.b = append(w.b, '\'')
		return true
	case stylePlain:
		w.b = append(w.b, s...)
		return true
	}
	return false
}

type scalarStyle int

const (
	styleOther  scalarStyle = iota // left to the library
	stylePlain                     // written as it is
	styleQuoted                    // written in double quotes
	styleSingle                    // written in single quotes
)

// yamlWords are the plain scalars go.yaml.in/yaml/v2 resolves to a boolean
// or null (resolve.go resolveMapList) that start with a letter: stringv
// double-quotes them. (The others there start with '~', '.', '+', '-' or
// '<', which plainStyle leaves to the library.)
var yamlWords = map[string]bool{
	"y": true, "Y": true, "yes": true, "Yes": true, "YES": true,
	"true": true, "True": true, "TRUE": true,
	"on": true, "On": true, "ON": true,
	"n": true, "N": true, "no": true, "No": true, "NO": true,
	"false": true, "False": true, "FALSE": true,
	"off": true, "Off": true, "OFF": true,
	"null": true, "Null": true, "NULL": true,
}

// plainStyle says how yaml.v2 writes the string s in block context, for
// the strings it is sure of: stringv asks for the plain style when resolve
// gives !!str (the double-quoted style otherwise), and the emitter takes
// the single-quoted style for a string with a block indicator
// (yaml_emitter_analyze_scalar: a first byte of #,[]{}&*!|>'"%@`, a colon
// before a space or at the end, a # after a space).
func plainStyle(s string) scalarStyle {
	if s == "" {
		return styleQuoted // resolve reads it as null
	}
	if s[0] == ' ' || s[len(s)-1] == ' ' {
		return styleOther
	}
	indicator, quote := false, false
	dotsOnly, dots := true, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < ' ' || c > '~' {
			return styleOther // a line break, a tab, not printable ASCII
		}
		switch c {
		case ':':
			indicator = indicator || i+1 == len(s) || s[i+1] == ' '
		case '#':
			indicator = indicator || i > 0 && s[i-1] == ' '
		case '\'':
			quote = true
		case '.':
			dots++
			continue
		}
		if c < '0' || c > '9' {
			dotsOnly = false
		}
	}
	switch c := s[0]; {
	case isASCIILetter(c):
		// resolve looks up the words starting with one of yYnNtTfFoO;
		// nothing else starting with a letter resolves
		if yamlWords[s] {
			return styleQuoted
		}
	case c >= '0' && c <= '9':
		// resolve tries a time, an integer, a float; isBase60Float a
		// base-60 float: none reads a dotted quad (10.0.0.1) nor a string
		// with a byte none of them has (10.0.0.0/24); digits with at most
		// one dot are an integer (ParseInt with base 0: 0644 is octal) or
		// else a float (yamlStyleFloat: 09, 4.16)
		switch {
		case dotsOnly && dots >= 2 || !onlyNumberBytes(s):
		case dotsOnly && s[len(s)-1] != '.':
			return styleQuoted
		default:
			return styleOther
		}
	case c == '/' || c == '_':
		// neither an indicator nor resolved
	case strings.IndexByte("#,[]{}&*!|>'\"%@`", c) >= 0:
		indicator = true // resolve leaves them strings
	default:
		return styleOther
	}
	if indicator {
		if quote {
			return styleOther // doubled inside the quotes: left to the library
		}
		return styleSingle
	}
	return stylePlain
}

// onlyNumberBytes reports whether every byte of s may be part of a YAML
// 1.1 number, time or base-60 float as resolve and isBase60Float read them:
// digits, Go's base prefixes and hex digits, '_', signs, '.', exponents,
// ':', and a time's 'T', 't', 'Z' and space.
func onlyNumberBytes(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9', c >= 'a' && c <= 'f', c >= 'A' && c <= 'F':
		case c == 'x' || c == 'X' || c == 'o' || c == 'O' || c == 'b' || c == 'B':
		case c == '_' || c == '+' || c == '-' || c == '.' || c == ':':
		case c == 'T' || c == 't' || c == 'Z' || c == ' ':
		default:
			return false
		}
	}
	return true
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isASCIIDigit(c byte) bool { return c >= '0' && c <= '9' }

// sortKeys sorts the keys of a mapping in yaml.v2's order (sorter.go
// keyList.Less on strings, all ASCII here). Without digits that order is
// total (bytes compared, anything before a letter); with digits it
// compares numbers, and the keys are kept only when every pair agrees (the
// library sorts with sort.Sort over Go's map order: an order that is not
// total would not give one answer).
func sortKeys(keys []string) bool {
	digits := false
	for _, k := range keys {
		for i := 0; i < len(k); i++ {
			if isASCIIDigit(k[i]) {
				digits = true
			}
		}
	}
	slices.SortFunc(keys, func(a, b string) int {
		if yamlKeyLess(a, b) {
			return -1
		}
		if yamlKeyLess(b, a) {
			return 1
		}
		return 0
	})
	if digits {
		if len(keys) > maxCheckedKeys {
			return false // the check below is quadratic
		}
		for i := range keys {
			for j := i + 1; j < len(keys); j++ {
				if !yamlKeyLess(keys[i], keys[j]) || yamlKeyLess(keys[j], keys[i]) {
					return false
				}
			}
		}
	}
	return true
}

// maxCheckedKeys bounds the keys with digits sortKeys checks pair by pair.
const maxCheckedKeys = 64

// yamlKeyLess is sorter.go's keyList.Less for two ASCII strings: at the
// first byte that differs, letters compare as bytes, a letter comes after
// anything else, and otherwise the runs of digits starting there compare
// as numbers, then by length, then the bytes.
func yamlKeyLess(a, b string) bool {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] == b[i] {
			continue
		}
		al, bl := isASCIILetter(a[i]), isASCIILetter(b[i])
		if al && bl {
			return a[i] < b[i]
		}
		if al || bl {
			return bl
		}
		var an, bn int64
		if a[i] == '0' || b[i] == '0' {
			for j := i - 1; j >= 0 && isASCIIDigit(a[j]); j-- {
				if a[j] != '0' {
					an, bn = 1, 1
					break
				}
			}
		}
		ai, bi := i, i
		for ; ai < len(a) && isASCIIDigit(a[ai]); ai++ {
			an = an*10 + int64(a[ai]-'0')
		}
		for ; bi < len(b) && isASCIIDigit(b[bi]); bi++ {
			bn = bn*10 + int64(b[bi]-'0')
		}
		if an != bn {
			return an < bn
		}
		if ai != bi {
			return ai < bi
		}
		return a[i] < b[i]
	}
	return len(a) < len(b)
}
