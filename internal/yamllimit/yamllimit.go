// Package yamllimit bounds what a YAML document costs once decoded. The
// YAML decoders siteforge uses count aliases by nodes (CUE's allows 50,000
// nodes; yaml.v2's alias ratio lets a large document through), not by
// bytes: a 1 MB string aliased 3,000 times is a 4 MB file that decodes to
// 3 GB. Alias expansion is measured here in bytes before any decoder
// expands it.
package yamllimit

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	yaml "go.yaml.in/yaml/v3"
)

// nodeCost is what a node costs beside its text: a decoded value is far
// larger than its bytes, and this keeps a bomb of empty values from passing.
const nodeCost = 16

// AliasError is a document whose aliases expand past the limit.
type AliasError struct {
	Line, Col int // the alias that crosses the limit
	Limit     int64
}

func (e *AliasError) Error() string {
	return fmt.Sprintf("aliases expand the document to more than %d bytes", e.Limit)
}

// CheckAliases returns an *AliasError when some document of data, with
// its aliases expanded, exceeds limit bytes. Documents without aliases cost
// nothing to check; a document that does not parse is left to the decoder
// that reports syntax errors.
func CheckAliases(data []byte, limit int64) error {
	if bytes.IndexByte(data, '*') < 0 {
		return nil // no alias
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) || err != nil {
			return nil
		}
		s := sizer{memo: map[*yaml.Node]int64{}, limit: limit}
		if s.size(&doc) > limit {
			return &AliasError{Line: s.line, Col: s.col, Limit: limit}
		}
	}
}

type sizer struct {
	memo      map[*yaml.Node]int64
	limit     int64
	total     int64
	line, col int
}

// size is the expanded size of n; it stops counting past the limit and
// remembers the alias where the expansion crossed it.
func (s *sizer) size(n *yaml.Node) int64 {
	if n == nil {
		return 0
	}
	if v, ok := s.memo[n]; ok {
		return v
	}
	s.memo[n] = s.limit + 1 // an alias to itself is infinite
	var v int64
	switch n.Kind {
	case yaml.AliasNode:
		v = s.size(n.Alias)
	default:
		v = int64(len(n.Value)) + nodeCost
		for _, c := range n.Content {
			cv := s.size(c)
			if c.Kind == yaml.AliasNode && v+cv > s.limit && s.line == 0 {
				s.line, s.col = c.Line, c.Column
			}
			v += cv
			if v > s.limit {
				if s.line == 0 {
					s.line, s.col = c.Line, c.Column
				}
				break
			}
		}
	}
	v = min(v, s.limit+1)
	s.memo[n] = v
	return v
}
