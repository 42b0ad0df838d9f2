package diag

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSnippetWindow(t *testing.T) {
	line := "x: " + strings.Repeat("a ", 2500) + "BAD" + strings.Repeat(" b", 2500)
	p := &Printer{Source: func(string) ([]byte, bool) { return []byte("apiVersion: x\n" + line + "\n"), true }}
	out := p.Format(Diagnostic{Pos: Position{File: "s.yaml", Line: 2, Col: 5004}, Message: "m", Len: 3})
	lines := strings.Split(out, "\n")
	if len(lines) < 4 || !strings.Contains(lines[2], "BAD") || !strings.HasPrefix(lines[2], "2 | …") || !strings.HasSuffix(lines[2], "…") {
		t.Fatalf("window:\n%s", out)
	}
	caret := strings.Index(lines[3], "^^^")
	if caret < 0 || lines[2][caret:caret+3] != "BAD" && !strings.Contains(lines[2], "BAD") {
		t.Errorf("caret not under BAD:\n%s", out)
	}
	if got, want := utf8.RuneCountInString(lines[3][:caret]), utf8.RuneCountInString(lines[2][:strings.Index(lines[2], "BAD")]); got != want {
		t.Errorf("caret at rune %d, BAD at %d:\n%s", got, want, out)
	}
	for _, l := range lines {
		if len(l) > MaxSnippetBytes+40 {
			t.Errorf("a %d-byte line", len(l))
		}
	}
}

func TestSnippetsPerFileCapped(t *testing.T) {
	src := []byte("apiVersion: x\n" + strings.Repeat("k: v\n", 100))
	p := &Printer{Source: func(string) ([]byte, bool) { return src, true }}
	shown := 0
	for i := 2; i < 100; i++ {
		if strings.Contains(p.Format(Diagnostic{Pos: Position{File: "s.yaml", Line: i, Col: 1}, Message: "m"}), " | k: v") {
			shown++
		}
	}
	if shown != MaxSnippetsPerFile {
		t.Errorf("%d snippets shown, want %d", shown, MaxSnippetsPerFile)
	}
}

func TestNoSnippetFromOtherFiles(t *testing.T) {
	for name, src := range map[string]string{
		"config.json": `{"auths": {"q.example.com": {"auth": "c2VjcmV0"}}}`,
		"values.yaml": "image: x\npassword: hunter2\nreplicas: 3\n",
	} {
		p := &Printer{Source: func(string) ([]byte, bool) { return []byte(src), true }}
		out := p.Format(Diagnostic{Pos: Position{File: name, Line: 1, Col: 3}, Message: "m"})
		if strings.Contains(out, "|") {
			t.Errorf("%s quoted:\n%s", name, out)
		}
	}
	// from a manifest, a line holding a credential is hidden
	p := &Printer{Source: func(string) ([]byte, bool) {
		return []byte("apiVersion: v1\nkind: Secret\nstringData:\n  password: hunter2\n"), true
	}}
	if out := p.Format(Diagnostic{Pos: Position{File: "s.yaml", Line: 4, Col: 3}, Message: "m"}); strings.Contains(out, "hunter2") || !strings.Contains(out, "line not shown") {
		t.Errorf("credential line shown:\n%s", out)
	}
}

func TestLoneCRToLF(t *testing.T) {
	for in, want := range map[string]string{
		"a\rb\r\nc\r": "a\nb\r\nc\n",
		"no cr":       "no cr",
		"\r\r\n":      "\n\r\n",
	} {
		if got := string(LoneCRToLF([]byte(in))); got != want {
			t.Errorf("LoneCRToLF(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzFormat: whatever the source and position, a diagnostic prints in
// bounded lines, with no control character but newlines and tabs.
func FuzzFormat(f *testing.F) {
	f.Add([]byte("apiVersion: v1\nkind: x\n"), 2, 3, "msg", "file.yaml")
	f.Add([]byte("apiVersion: v1\n\x1b[31m\t\ré\n"), 2, 1, "a\nb", "x\n::error file=y::z.yaml")
	f.Add([]byte(strings.Repeat("é", 300)), 1, 200, "m", "a.cue")
	f.Fuzz(func(t *testing.T, src []byte, line, col int, msg, file string) {
		p := &Printer{Source: func(string) ([]byte, bool) { return src, true }}
		out := p.FormatSeverity(Diagnostic{Pos: Position{File: file, Line: line, Col: col}, Message: msg, Hint: msg, Path: msg}, "error")
		for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
			// a position, then a path and a message of at most
			// MaxMessageBytes each (plus "… (N more bytes)"); or a
			// snippet line
			if len(l) > 2*(MaxMessageBytes+32)+4*MaxSnippetBytes+len(file)*4+64 {
				t.Fatalf("a %d-byte line", len(l))
			}
			if strings.HasPrefix(l, "::") {
				t.Fatalf("line starts a workflow command: %q", l)
			}
			for _, r := range l {
				if (r < 0x20 && r != '\t') || r == 0x7f {
					t.Fatalf("control character %q in %q", r, l)
				}
			}
		}
	})
}

// TestMessageBoundAfterEscaping: escaping can make a byte four; the bound
// is on what is printed, and an escape is never cut (fuzz crasher
// 2af4bd75c2d60d12: 5 KiB lines from 1 KiB of control bytes).
func TestMessageBoundAfterEscaping(t *testing.T) {
	msg := strings.Repeat("\x1a", 2000)
	got := Clean(msg)
	body, suffix, ok := strings.Cut(got, "…")
	if !ok || suffix != " (1744 more bytes)" {
		t.Fatalf("no or wrong cut mark: %q", got[max(0, len(got)-40):])
	}
	if len(body) > MaxMessageBytes || len(body)%4 != 0 || !strings.HasSuffix(body, `\x1a`) {
		t.Errorf("printed %d bytes, ending %q: want whole escapes within %d", len(body), body[len(body)-6:], MaxMessageBytes)
	}
	if got := Clean("plain"); got != "plain" {
		t.Errorf("clean short text changed: %q", got)
	}
	if got := Clean(strings.Repeat("a", MaxMessageBytes+5)); !strings.HasSuffix(got, "… (5 more bytes)") {
		t.Errorf("long clean text: %q", got[len(got)-30:])
	}
}

// FuzzClean: Clean, the one escaping function, prints no control
// character, C1 control, bidirectional override or invalid UTF-8, at most
// MaxMessageBytes and its cut mark; SafeLine never starts a workflow
// command; text Clean leaves alone is printed as it is.
func FuzzClean(f *testing.F) {
	f.Add("plain")
	f.Add("a\x1b[2J\rb\n::error file=x::y")
	f.Add("::warning::x")
	f.Add("##[error]x")
	f.Add("\u202etxt.exe\u2066\u0085\x7f\xff")
	f.Add(strings.Repeat("\x1a", 2000))
	f.Add(strings.Repeat("é", 600))
	f.Fuzz(func(t *testing.T, s string) {
		got := Clean(s)
		body, _, cut := strings.Cut(got, "… (")
		if cut && !strings.HasSuffix(got, " more bytes)") || len(body) > MaxMessageBytes {
			t.Fatalf("%d bytes printed: %.100q", len(got), got)
		}
		if !utf8.ValidString(got) {
			t.Fatalf("invalid UTF-8 printed: %q", got)
		}
		for _, r := range got {
			if r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f || isBidi(r) {
				t.Fatalf("%U printed: %q", r, got)
			}
		}
		if !cut && !strings.Contains(got, `\`) && got != s {
			t.Fatalf("clean text changed: %q -> %q", s, got)
		}
		if !cut && Clean(got) != got {
			t.Fatalf("Clean is not idempotent: %q -> %q", got, Clean(got))
		}
		if l := SafeLine(s); strings.HasPrefix(l, ":") || strings.HasPrefix(l, "##[") {
			t.Fatalf("SafeLine(%q) = %q", s, l)
		}
	})
}
