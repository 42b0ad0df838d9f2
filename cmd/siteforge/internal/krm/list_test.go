package krm

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"sigs.k8s.io/kustomize/kyaml/kio"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
)

// configMapList is a ResourceList of n small ConfigMaps (about 84 bytes
// each: 45,000 are 3.6 MiB) and a function config of the kind given.
func configMapList(n int, kind string) []byte {
	var b bytes.Buffer
	b.WriteString("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: cm-%06d\n  data:\n    k: v\n", i)
	}
	fmt.Fprintf(&b, "functionConfig:\n  apiVersion: siteforge.dev/v1alpha1\n  kind: %s\n  metadata:\n    name: fc\n", kind)
	return b.Bytes()
}

// TestUnknownKindRefusedBeforeItems: a function config the function
// refuses costs no decoding of the items (it cost 2 GB of allocations for
// 45,000 ConfigMaps when the whole list was decoded first).
func TestUnknownKindRefusedBeforeItems(t *testing.T) {
	in := configMapList(45000, "Bogus")
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var stdout, stderr bytes.Buffer
	code := Run(bytes.NewReader(in), &stdout, &stderr)
	runtime.ReadMemStats(&after)
	if code != exitFailure || !strings.Contains(stderr.String(), "functionConfig is siteforge.dev/v1alpha1 Bogus") || !strings.Contains(stdout.String(), "severity: error") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
		t.Errorf("refusing the function config allocated %d MiB: the items were decoded", alloc>>20)
	}
}

// TestSiteLintManyItemsMemory: SiteLint over 45,000 small ConfigMaps
// (3.6 MiB) keeps the Go heap in use under 448 MiB (it peaked at 690 MiB,
// 940 MB of RSS, when the list was written as one YAML document and the
// garbage collector had no limit).
func TestSiteLintManyItemsMemory(t *testing.T) {
	in := configMapList(45000, KindSiteLint)
	runtime.GC()
	var peak atomic.Uint64
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			if m.HeapInuse > peak.Load() {
				peak.Store(m.HeapInuse)
			}
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
	}()
	var stdout bytes.Buffer
	code := Run(bytes.NewReader(in), &stdout, io.Discard)
	close(stop)
	<-done
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	if n := strings.Count(stdout.String(), "\n- apiVersion: v1\n"); n != 45000 {
		t.Errorf("%d items handed back, want 45000", n)
	}
	if p := peak.Load(); p > 448<<20 {
		t.Errorf("heap in use peaked at %d MiB, want <= 448 MiB", p>>20)
	}
}

// TestNodeBound: the count errs only upward, whatever the style; a list
// past MaxNodes is refused before it is decoded.
func TestNodeBound(t *testing.T) {
	for _, doc := range []string{
		string(configMapList(3, KindSiteLint)),
		"a: [1,2,[3,4],{b: c, d: [e]}]\n",
		"- - - a\n  - b\n- ? x\n  : y\n",
		"k: |\n  text\n  more\nl: >-\n  folded\n",
		"{a: 1, b: {c: [x, y, z]}}",
		"a: &x [1, 2]\nb: *x\nc:\nd: ''\n",
	} {
		var root kyaml.Node
		if err := kyaml.Unmarshal([]byte(doc), &root); err != nil {
			t.Fatal(err)
		}
		if got, want := nodeBound([]byte(doc)), countNodes(&root); got < want {
			t.Errorf("nodeBound %d < %d nodes in\n%s", got, want, doc)
		}
	}
	in := configMapList(MaxNodes/14+10, KindSiteLint)
	var stdout, stderr bytes.Buffer
	code := Run(bytes.NewReader(in), &stdout, &stderr)
	if code != exitFailure || !strings.Contains(stderr.String(), "node limit") || stdout.Len() != 0 {
		t.Errorf("exit %d, stdout %d bytes:\n%s", code, stdout.Len(), stderr.String())
	}
}

func countNodes(n *kyaml.Node) int {
	c := 1
	for _, k := range n.Content {
		c += countNodes(k)
	}
	return c
}

// TestWriteListAsKyaml: the ResourceList written item by item is the text
// kyaml's ByteWriter writes as one document.
func TestWriteListAsKyaml(t *testing.T) {
	for name, in := range map[string]string{
		"plain": string(configMapList(3, KindSiteLint)),
		"styles": `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
# the first
- apiVersion: v1
  kind: ConfigMap # a kind
  metadata:
    name: a
    annotations:
      config.kubernetes.io/path: a.yaml
      config.kubernetes.io/index: '0'
  data:
    script: |
      #!/bin/sh
        indented

      echo "x"
    lead: |2-
        two spaces
    folded: >
      a b
      c
    quoted: "a\tb"
    empty: ""
- apiVersion: v1
  kind: List
  items:
  - {a: 1, b: [x, y]}
  -   - nested
      - list
  metadata: {name: b, annotations: {}}
functionConfig:
  apiVersion: siteforge.dev/v1alpha1
  kind: SiteLint
  metadata: {name: fc}
  spec:
    disable: [MIR001]
results:
- message: earlier
  severity: info
`,
		"no items": "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\nfunctionConfig: {apiVersion: v1, kind: X}\n",
	} {
		t.Run(name, func(t *testing.T) {
			read := func() (*kio.ByteReadWriter, []*kyaml.RNode) {
				rw := &kio.ByteReadWriter{Reader: strings.NewReader(in), KeepReaderAnnotations: true}
				items, err := rw.Read()
				if err != nil {
					t.Fatal(err)
				}
				return rw, items
			}
			rw, items := read()
			var want bytes.Buffer
			rw.Writer = &want
			if err := rw.Write(items); err != nil {
				t.Fatal(err)
			}
			rw, items = read()
			var got bytes.Buffer
			if err := writeList(&got, rw.WrappingAPIVersion, rw.WrappingKind, items, rw.FunctionConfig, rw.Results); err != nil {
				t.Fatal(err)
			}
			if got.String() != want.String() {
				t.Errorf("writeList:\n%s\nkyaml:\n%s", got.String(), want.String())
			}
		})
	}
}
