package generators

import (
	"math/rand"
	"strings"
	"testing"
)

// commentBlockByConcatenation is CommentBlock as first written (a string
// grown word by word), the reference the faster one must match.
func commentBlockByConcatenation(text string) string {
	var b strings.Builder
	line := "#"
	for _, word := range strings.Fields(text) {
		if len(line)+1+len(word) > CommentLineWidth && line != "#" {
			b.WriteString(line + "\n")
			line = "#"
		}
		line += " " + word
	}
	b.WriteString(line + "\n")
	return b.String()
}

func TestCommentBlock(t *testing.T) {
	texts := []string{"", "   ", "one", strings.Repeat("x", 150), "a " + strings.Repeat("y", 120) + " b",
		strings.Repeat("word ", 60), "tabs\tand\nnewlines  between   words"}
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 500; i++ {
		var b strings.Builder
		for j := r.Intn(80); j > 0; j-- {
			b.WriteString(strings.Repeat("w", 1+r.Intn(30)))
			b.WriteString([]string{" ", "  ", "\n", "\t"}[r.Intn(4)])
		}
		texts = append(texts, b.String())
	}
	for _, text := range texts {
		if got, want := CommentBlock(text), commentBlockByConcatenation(text); got != want {
			t.Fatalf("CommentBlock(%q) =\n%s\nwant\n%s", text, got, want)
		}
	}
	if got := CommentBlock("a b"); got != "# a b\n" {
		t.Errorf("CommentBlock(%q) = %q", "a b", got)
	}
}
