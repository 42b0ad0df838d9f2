package load

import (
	"fmt"

	"cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/token"

	"github.com/siteforge/siteforge/internal/diag"
)

// Shape limits, checked on the parsed files before CUE evaluates anything:
// the cost of evaluating a site grows faster than its size (a 4 MiB file of
// 100,000 keys took 90 s and 2.9 GB), so what no cluster could use is
// refused up front, at its position. The largest thing a site describes is
// its nodes: OpenShift is tested up to 2,000 nodes per cluster (OpenShift
// docs, "Planning your environment according to object maximums": number
// of nodes 2,000), each with a few fields.
const (
	// MaxListLen is the longest list a site may write: the node list of a
	// cluster at the platform's maximum.
	MaxListLen = 2000
	// MaxFields is the most fields one mapping may have (pools, EgressIPs,
	// MachineConfigs, catalogs, mirrored sources: each far below the node
	// count).
	MaxFields = 2000
	// MaxValues is the most values (fields and list elements) a site may
	// write, all its files together: 2,000 nodes with every field they can
	// have, and room for the rest of the site.
	MaxValues = 50000
	// MaxEvaluatedValues is the most values a site may have once CUE
	// evaluated it (comprehensions generate values the files do not
	// write).
	MaxEvaluatedValues = 100000
	// MaxExpandedYAML bounds a YAML site file with its aliases expanded:
	// no larger than the file-size limit.
	MaxExpandedYAML = MaxFileSize
)

// maxEvaluatedValues is MaxEvaluatedValues; tests lower it.
var maxEvaluatedValues = MaxEvaluatedValues

// shape counts what parsed files write.
type shape struct {
	values int
	diags  diag.List
}

// check walks one parsed file.
func (s *shape) check(f *ast.File) {
	ast.Walk(f, func(n ast.Node) bool {
		if len(s.diags) > 0 {
			return false
		}
		switch x := n.(type) {
		case *ast.ListLit:
			s.values += len(x.Elts)
			if len(x.Elts) > MaxListLen {
				s.fail(x.Pos(), fmt.Sprintf("list of %d entries, more than the limit of %d", len(x.Elts), MaxListLen),
					fmt.Sprintf("no list of a site is that long: a cluster has at most %d nodes (OpenShift's tested maximum)", MaxListLen))
			}
		case *ast.StructLit:
			if len(x.Elts) > MaxFields {
				s.fail(x.Pos(), fmt.Sprintf("mapping of %d fields, more than the limit of %d", len(x.Elts), MaxFields),
					"no mapping of a site is that large; is this generated data?")
			}
		case *ast.File:
			if len(x.Decls) > MaxFields {
				s.fail(x.Pos(), fmt.Sprintf("file of %d top-level declarations, more than the limit of %d", len(x.Decls), MaxFields),
					"a site has a dozen top-level fields")
			}
		case *ast.Field:
			s.values++
		}
		if s.values > MaxValues && len(s.diags) == 0 {
			s.fail(n.Pos(), fmt.Sprintf("the site writes more than %d values", MaxValues),
				fmt.Sprintf("a site at the platform's maximum of %d nodes needs far fewer; is this generated data?", MaxListLen))
		}
		return len(s.diags) == 0
	}, nil)
}

func (s *shape) fail(p token.Pos, msg, hint string) {
	pos := diag.Position{File: p.Filename(), Line: p.Line(), Col: p.Column()}
	s.diags = append(s.diags, diag.Diagnostic{Pos: pos, Message: msg, Hint: hint})
}

// tooManyValues is the diagnostic of a site that evaluated to more than
// MaxEvaluatedValues values (counted by unknownFields' walk).
func tooManyValues(at diag.Position) diag.List {
	return diag.List{{Pos: at, Message: fmt.Sprintf("the site evaluates to more than %d values", maxEvaluatedValues),
		Hint: fmt.Sprintf("a comprehension generates far more than a cluster could use (at most %d nodes)", MaxListLen)}}
}
