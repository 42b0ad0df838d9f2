package registries

import "strings"

// tableSet is the ordered list of [[registry]] tables being built, one per scope.
type tableSet struct {
	regs []Registry
}

// table returns the index of the table for scope, appending a new one when needed: a
// `*.domain` scope becomes a prefix with no location, anything else a location.
// Mirrors runtime-utils EditRegistriesConfig getRegistryEntry/addRegistryEntry.
func (t *tableSet) table(scope string) int {
	for i := range t.regs {
		if t.regs[i].Scope() == scope {
			return i
		}
	}
	reg := Registry{}
	if isWildcardScope(scope) {
		reg.Prefix = scope
	} else {
		reg.Location = scope
	}
	t.regs = append(t.regs, reg)
	return len(t.regs) - 1
}

// editInput is what the table builder consumes, already merged and filtered.
type editInput struct {
	insecure []string
	blocked  []string // after the payload rule
	digest   []mergedSource
	tag      []mergedSource
	legacy   bool // OpenShift <= 4.12: registry-level mirror-by-digest-only, no pull-from-mirror
}

// buildTables reproduces MCO's edit of the template, in MCO's order:
//  1. one table per digest source (sorted), then per tag source not seen yet (sorted); mirrors
//     appended with pull-from-mirror digest-only / tag-only; NeverContactSource => blocked;
//  2. a table for every blocked scope;
//  3. insecure: the scope's table, every table nested in it and every mirror located in it;
//  4. blocked: the scope's table and every table nested in it (mirrors are left alone);
//  5. every table nested in a mirrored source that has no mirrors of its own gets a copy of
//     the source's mirrors with the extra path appended; the first mirrored source in step 1
//     order wins, even when a more specific mirrored source also contains the table.
//
// Mirrors runtime-utils EditRegistriesConfig (4.13+) and its ICSP-only predecessor (<= 4.12).
func buildTables(in editInput) ([]Registry, error) {
	t := &tableSet{}
	addMirrors := func(sets []mergedSource, pullFromMirror string) {
		for _, set := range sets {
			i := t.table(set.source)
			if in.legacy {
				t.regs[i].MirrorByDigestOnly = true
			}
			if set.neverContactSource {
				t.regs[i].Blocked = true
			}
			for _, m := range set.mirrors {
				t.regs[i].Mirrors = append(t.regs[i].Mirrors, Mirror{Location: m, PullFromMirror: pullFromMirror})
			}
		}
	}
	if in.legacy {
		addMirrors(in.digest, "")
	} else {
		addMirrors(in.digest, PullFromMirrorDigestOnly)
		addMirrors(in.tag, PullFromMirrorTagOnly)
	}

	for _, scope := range in.blocked {
		t.table(scope)
	}
	for _, scope := range in.insecure {
		t.regs[t.table(scope)].Insecure = true
		for i := range t.regs {
			reg := &t.regs[i]
			if scopeIsNested(reg.Scope(), scope) {
				reg.Insecure = true
			}
			for j := range reg.Mirrors {
				if scopeIsNested(reg.Mirrors[j].Location, scope) {
					reg.Mirrors[j].Insecure = true
				}
			}
		}
	}
	for _, scope := range in.blocked {
		t.regs[t.table(scope)].Blocked = true
		for i := range t.regs {
			if scopeIsNested(t.regs[i].Scope(), scope) {
				t.regs[i].Blocked = true
			}
		}
	}

	mirrored := append(append([]mergedSource(nil), in.digest...), in.tag...)
	if in.legacy {
		mirrored = in.digest
	}
	for _, set := range mirrored {
		parent := t.table(set.source)
		parentScope := t.regs[parent].Scope()
		for i := range t.regs {
			scope := t.regs[i].Scope()
			if scope == parentScope || !scopeIsNested(scope, parentScope) || len(t.regs[i].Mirrors) != 0 {
				continue
			}
			copied, err := mirrorsForNestedScope(parentScope, scope, t.regs[parent].Mirrors)
			if err != nil {
				return nil, err
			}
			t.regs[i].Mirrors = copied
			if in.legacy {
				t.regs[i].MirrorByDigestOnly = t.regs[parent].MirrorByDigestOnly
			}
		}
	}
	return t.regs, nil
}

// mirrorsForNestedScope copies the mirrors of parent for a scope nested in it, appending the
// extra path (parent a.com/x, nested a.com/x/y: mirror m.io/p becomes m.io/p/y). A wildcard
// parent cannot be rewritten that way and makes MCO refuse to render.
// Mirrors runtime-utils mirrorsAdjustedForNestedScope (same error texts, same %#v).
func mirrorsForNestedScope(parent, nested string, mirrors []Mirror) ([]Mirror, error) {
	if isWildcardScope(parent) {
		return nil, mcoErrorf(ErrWildcardNestedScope, "internal error: mirrorsAdjustedForNestedScope for a wildcard scope %#v", parent)
	}
	if !strings.HasPrefix(nested, parent) {
		return nil, mcoErrorf(nil, "internal error: mirrorsAdjustedForNestedScope with unexpected scopes %#v and %#v", parent, nested)
	}
	suffix := nested[len(parent):]
	copied := make([]Mirror, 0, len(mirrors))
	for _, m := range mirrors {
		m.Location += suffix
		copied = append(copied, m)
	}
	return copied, nil
}
