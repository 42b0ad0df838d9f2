package discover

import (
	"strings"
	"testing"
)

// FuzzIgnore: any .siteforgeignore line (user input) compiles or is
// dropped, never panics, and matching any path terminates.
func FuzzIgnore(f *testing.F) {
	for _, s := range []string{"*.yml", "/a.yaml", "dir/", "!keep.yaml", "**/bar/*.yaml", "foo/**/q", "[ab].yaml", "[]", "[!a-", `\#x`, "a\\", "***", "/**/", "**"} {
		f.Add(s, "dir/sub/a.yaml")
	}
	f.Fuzz(func(t *testing.T, pattern, path string) {
		ig := &ignorer{}
		for _, line := range strings.Split(pattern, "\n") {
			ig.add("root", line)
		}
		_ = ig.ignored("root/"+path, false)
		_ = ig.ignored("root/"+path, true)
	})
}
