package registries

import "sort"

// mirrorGraph orders the mirrors of one source from the consecutive pairs of every
// contributing list. Mirrors runtime-utils topoGraph.Sorted: Kahn's algorithm with a FIFO
// queue seeded by the edge-free nodes in lexicographic order; the nodes freed by each output
// node are appended to the queue as one lexicographically sorted batch (so this is NOT a
// global "smallest first" order); when the queue is empty but nodes remain (a cycle), the
// lexicographically first unused node is output next.
type mirrorGraph struct {
	nodes map[string]*mirrorNode
}

type mirrorNode struct {
	name string
	used bool
	ins  map[*mirrorNode]struct{} // unprocessed predecessors, consumed by sorted()
	outs map[*mirrorNode]struct{}
}

func newMirrorGraph() *mirrorGraph { return &mirrorGraph{nodes: map[string]*mirrorNode{}} }

func (g *mirrorGraph) node(name string) *mirrorNode {
	n, ok := g.nodes[name]
	if !ok {
		n = &mirrorNode{name: name, ins: map[*mirrorNode]struct{}{}, outs: map[*mirrorNode]struct{}{}}
		g.nodes[name] = n
	}
	return n
}

// addEdge records that from is preferred to to. Repeated edges collapse; self-edges are kept
// (they make the node part of a cycle, as upstream).
func (g *mirrorGraph) addEdge(from, to string) {
	f, t := g.node(from), g.node(to)
	f.outs[t] = struct{}{}
	t.ins[f] = struct{}{}
}

func sortNodes(nodes []*mirrorNode) {
	sort.Slice(nodes, func(i, j int) bool { return nodes[i].name < nodes[j].name })
}

// sorted returns every node once. It consumes the graph.
func (g *mirrorGraph) sorted() []string {
	all := make([]*mirrorNode, 0, len(g.nodes))
	for _, n := range g.nodes {
		all = append(all, n)
	}
	sortNodes(all)

	var queue []*mirrorNode
	for _, n := range all {
		if len(n.ins) == 0 {
			queue = append(queue, n)
		}
	}
	out := make([]string, 0, len(all))
	next := 0 // cycle breaking walks all[] once, in order
	for len(queue) > 0 || next < len(all) {
		var n *mirrorNode
		if len(queue) > 0 {
			n, queue = queue[0], queue[1:]
		} else {
			n = all[next]
			next++
			if n.used {
				continue
			}
		}
		n.used = true
		out = append(out, n.name)

		var freed []*mirrorNode
		for succ := range n.outs {
			delete(succ.ins, n)
			if len(succ.ins) == 0 && !succ.used {
				freed = append(freed, succ)
			}
		}
		sortNodes(freed)
		queue = append(queue, freed...)
	}
	return out
}
