package output

import (
	"fmt"
	"testing"
)

// BenchmarkWrite: stage and swap in a site of 20 files.
func BenchmarkWrite(b *testing.B) {
	dir := b.TempDir()
	files := map[string][]byte{}
	for i := 0; i < 20; i++ {
		files[fmt.Sprintf("kind%d/object-%d.yaml", i%4, i)] = make([]byte, 2048)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := Write(dir, Site{Name: "s", Files: files}); err != nil {
			b.Fatal(err)
		}
	}
}
