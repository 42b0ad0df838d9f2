package registries

import "sort"

// mirrorEntry is one source->mirrors entry of an IDMS, ITMS or ICSP, in object order.
type mirrorEntry struct {
	source             string
	mirrors            []string
	neverContactSource bool
}

// mergedSource is the merged result for one source.
type mergedSource struct {
	source             string
	mirrors            []string
	neverContactSource bool
}

// hasRealMirror reports whether mirrors name anything besides the source itself.
// Mirrors runtime-utils mirrorsContainsARealMirror.
func hasRealMirror(source string, mirrors []string) bool {
	for _, m := range mirrors {
		if m != source {
			return true
		}
	}
	return false
}

// mergeMirrorEntries merges entries per source, sources in sorted order.
// Entries without a real mirror are ignored entirely (their policy included); a
// NeverContactSource on any remaining entry blocks the source. Each entry contributes the
// edges m[i]->m[i+1], plus last->source when the source is not listed; the source is dropped
// when it sorts last (c/image tries it last anyway).
// Mirrors runtime-utils mergedDigestMirrorSets / mergedTagMirrorSets / mirrorSets.mergedMirrors.
func mergeMirrorEntries(entries []mirrorEntry) []mergedSource {
	lists := map[string][][]string{}
	never := map[string]bool{}
	for _, e := range entries {
		if !hasRealMirror(e.source, e.mirrors) {
			continue
		}
		lists[e.source] = append(lists[e.source], e.mirrors)
		if e.neverContactSource {
			never[e.source] = true
		}
	}
	sources := make([]string, 0, len(lists))
	for s := range lists {
		sources = append(sources, s)
	}
	sort.Strings(sources)

	merged := make([]mergedSource, 0, len(sources))
	for _, source := range sources {
		g := newMirrorGraph()
		for _, list := range lists[source] {
			listsSource := false
			for i, m := range list {
				if i+1 < len(list) {
					g.addEdge(m, list[i+1])
				}
				if m == source {
					listsSource = true
				}
			}
			if !listsSource {
				g.addEdge(list[len(list)-1], source)
			}
		}
		order := g.sorted()
		if order[len(order)-1] == source {
			order = order[:len(order)-1]
		}
		merged = append(merged, mergedSource{source: source, mirrors: order, neverContactSource: never[source]})
	}
	return merged
}
