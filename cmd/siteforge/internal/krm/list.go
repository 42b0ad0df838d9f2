package krm

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/fn/framework"
	"sigs.k8s.io/kustomize/kyaml/kio"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
)

// peekFunctionConfig finds the functionConfig of a ResourceList written in
// block style (as kustomize and kpt write it: top-level keys at column 0)
// without decoding the items: the `functionConfig:` line at column 0 and
// the lines after it up to the next line at column 0 that is neither blank
// nor a comment are decoded alone. It returns false when the input has no
// such line, has more than one, or the part does not decode; the whole
// list is decoded then, and the function config checked after it.
func peekFunctionConfig(input []byte) (*kyaml.RNode, bool) {
	const key = "functionConfig:"
	start, end := -1, len(input)
	for off := 0; off < len(input); {
		line := input[off:]
		next := len(input)
		if i := bytes.IndexByte(line, '\n'); i >= 0 {
			line, next = line[:i], off+i+1
		}
		switch {
		case start >= 0 && end == len(input) && len(line) > 0 && line[0] != ' ' && line[0] != '\t' && line[0] != '#' && line[0] != '\r':
			end = off // the next top-level line
			if bytes.HasPrefix(line, []byte(key)) {
				return nil, false // a second functionConfig
			}
		case bytes.HasPrefix(line, []byte(key)):
			if start >= 0 {
				return nil, false // a second functionConfig
			}
			start = off
		}
		off = next
	}
	if start < 0 {
		return nil, false
	}
	doc, err := kyaml.Parse(string(input[start:end]))
	if err != nil {
		return nil, false
	}
	fc, err := doc.Pipe(kyaml.Lookup(strings.TrimSuffix(key, ":")))
	if err != nil || fc == nil || fc.YNode().Kind != kyaml.MappingNode {
		return nil, false
	}
	return fc, true
}

// execute is kyaml's framework.Execute, but for the output: kyaml encodes
// the whole ResourceList as one YAML document, and its encoder (yaml.v3)
// keeps every event of a document until the document ends, about 200 bytes
// each: writing a 4 MiB list of small objects cost 1 GB. writeList encodes
// item by item, each with its own encoder, into the same text.
func execute(p framework.ResourceListProcessor, rw *kio.ByteReadWriter) error {
	rl := framework.ResourceList{}
	var err error
	if rl.Items, err = rw.Read(); err != nil {
		return fmt.Errorf("failed to read ResourceList input: %w", err)
	}
	rw.Reader = nil // the input is not read again
	rl.FunctionConfig = rw.FunctionConfig
	annos, err := kio.PreprocessResourcesForInternalAnnotationMigration(rl.Items)
	if err != nil {
		return err
	}
	retErr := p.Process(&rl)
	if err := kio.ReconcileInternalAnnotations(rl.Items, annos); err != nil {
		return err
	}
	if len(rl.Results) > 0 {
		b, err := kyaml.Marshal(rl.Results)
		if err != nil {
			return err
		}
		y, err := kyaml.Parse(string(b))
		if err != nil {
			return err
		}
		rw.Results = y
	}
	if rw.WrappingKind == "" || rw.NoWrap || rw.Style != 0 {
		if err := rw.Write(rl.Items); err != nil { // not a ResourceList: kyaml writes it
			return err
		}
		return retErr
	}
	if err := writeList(rw.Writer, rw.WrappingAPIVersion, rw.WrappingKind, rl.Items, rw.FunctionConfig, rw.Results); err != nil {
		return err
	}
	return retErr
}

// writeList writes a ResourceList as kyaml's kio.ByteWriter does (with
// KeepReaderAnnotations, no Style): the same text, written piece by piece.
func writeList(w io.Writer, apiVersion, kind string, items []*kyaml.RNode, fc, results *kyaml.RNode) error {
	bw := bufio.NewWriter(w)
	head := &kyaml.Node{Kind: kyaml.MappingNode, Content: []*kyaml.Node{
		{Kind: kyaml.ScalarNode, Value: "apiVersion"}, {Kind: kyaml.ScalarNode, Value: apiVersion},
		{Kind: kyaml.ScalarNode, Value: "kind"}, {Kind: kyaml.ScalarNode, Value: kind},
	}}
	if len(items) == 0 {
		head.Content = append(head.Content, &kyaml.Node{Kind: kyaml.ScalarNode, Value: "items"}, &kyaml.Node{Kind: kyaml.SequenceNode})
	}
	if err := encodeNode(bw, head, ""); err != nil {
		return err
	}
	if len(items) > 0 {
		bw.WriteString("items:\n")
	}
	for _, it := range items {
		c := it.Copy() // the writer never changes an item
		if err := kyaml.ClearEmptyAnnotations(c); err != nil {
			return err
		}
		if err := encodeNode(bw, c.YNode(), "- "); err != nil {
			return err
		}
	}
	for _, f := range []struct {
		key string
		n   *kyaml.RNode
	}{{"functionConfig", fc}, {"results", results}} {
		if f.n == nil {
			continue
		}
		m := &kyaml.Node{Kind: kyaml.MappingNode, Content: []*kyaml.Node{{Kind: kyaml.ScalarNode, Value: f.key}, f.n.YNode()}}
		if err := encodeNode(bw, m, ""); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// encodeNode writes n as kyaml's encoder writes it, each line after the
// first indented by two spaces when first (a sequence entry's "- ") is
// given: the text n has as an item of a compact sequence.
func encodeNode(w *bufio.Writer, n *kyaml.Node, first string) error {
	var b bytes.Buffer
	enc := kyaml.NewEncoderWithOptions(&b, &kyaml.EncoderOptions{SeqIndent: kyaml.CompactSequenceStyle})
	if err := enc.Encode(n); err != nil {
		return err
	}
	if err := enc.Close(); err != nil {
		return err
	}
	text := b.Bytes()
	if first == "" {
		_, err := w.Write(text)
		return err
	}
	started := false
	for len(text) > 0 {
		line := text
		if j := bytes.IndexByte(text, '\n'); j >= 0 {
			line = text[:j+1]
		}
		text = text[len(line):]
		switch {
		case !started && (line[0] == '#' || line[0] == '\n'):
			// the item's head comment, written before its "- "
		case !started:
			w.WriteString(first)
			started = true
		case len(line) > 1:
			w.WriteString("  ")
		}
		w.Write(line)
	}
	return nil
}

// MaxNodes bounds the YAML nodes of a ResourceList, as nodeBound counts
// them: what the function holds in memory grows with the nodes (each item
// is held decoded while it is linted or rendered, and again as a copy the
// rules read), about 450 bytes each; 45,000 small ConfigMaps are about
// 720,000.
const MaxNodes = 1_000_000

// nodeBound is an upper bound on the YAML nodes in data, read without
// decoding it: a document and its root count two; every other node starts
// after a line break, a ':', ',', '-', '[', '{' or '?' (a key on its own
// line, a mapping value, a flow entry, a sequence entry, an explicit key);
// each of those bytes counts one, also where it starts no node (in a
// scalar, a comment), so the count only errs upward.
func nodeBound(data []byte) int {
	n := 2
	for _, c := range data {
		switch c {
		case '\n', ':', ',', '-', '[', '{', '?':
			n++
		}
	}
	return n
}
