package guard

import (
	"bytes"
	"strings"
	"testing"
)

// TestStderrFilter: the worker's standard error passes through as it is,
// "runtime: " lines included, until a Go runtime fatal error: its message
// and stack dump are kept aside (bounded) and recognised.
func TestStderrFilter(t *testing.T) {
	const normal = "site.cue:3:4: error: x\nruntime: a line of ours that is not the runtime's\nlast line without newline"
	const dump = "runtime: out of memory: cannot allocate 140737488355328-byte block (3997696 in use)\n" +
		"fatal error: out of memory\n\ngoroutine 1 gp=0xc000002380 m=0 mp=0x1 [running]:\nruntime.throw(...)\n"
	for _, tc := range []struct {
		name, in, out string
		dead, oom     bool
		first         string
	}{
		{name: "normal", in: normal, out: normal},
		{name: "out of memory", in: "site.cue:3:4: error: x\n" + dump + strings.Repeat("stack line\n", 5000),
			out: "site.cue:3:4: error: x\n", dead: true, oom: true, first: "fatal error: out of memory"},
		{name: "other fatal error", in: "fatal error: concurrent map writes\n\ngoroutine 5 [running]:\n",
			dead: true, first: "fatal error: concurrent map writes"},
		{name: "fatal text inside a line is not a fatal error", in: "a: fatal error: no\n", out: "a: fatal error: no\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			f := &stderrFilter{out: &out}
			f.run(strings.NewReader(tc.in))
			if out.String() != tc.out {
				t.Errorf("passed through %q, want %q", out.String(), tc.out)
			}
			if f.dead != tc.dead || f.outOfMemory() != tc.oom || f.firstFatalLine() != tc.first {
				t.Errorf("dead %v oom %v first %q; want %v %v %q", f.dead, f.outOfMemory(), f.firstFatalLine(), tc.dead, tc.oom, tc.first)
			}
			if len(f.fatal) > fatalKeep {
				t.Errorf("kept %d bytes of the dump, more than %d", len(f.fatal), fatalKeep)
			}
		})
	}
}

// TestWorkerReports: what the worker reports on its pipe (send) is what
// the supervisor reads: the site in progress that started first, the
// folders to recover, escaping intact.
func TestWorkerReports(t *testing.T) {
	var pipe bytes.Buffer
	reportMu.Lock()
	report = &pipe
	reportMu.Unlock()
	defer func() {
		reportMu.Lock()
		report = nil
		reportMu.Unlock()
	}()
	doneA := Track("sites/a b\n\"x\"")
	doneB := Track("sites/b")
	Announce("/out dir", ".siteforge-stage-")
	Announce("/out dir", ".siteforge-stage-")
	AnnounceCreated([]string{"/out dir"})
	s := newWorkerState()
	s.read(bytes.NewReader(pipe.Bytes()))
	if got := s.oldest(); got != "sites/a b\n\"x\"" {
		t.Errorf("oldest %q", got)
	}
	if len(s.announce) != 1 || s.announce[0] != [2]string{"/out dir", ".siteforge-stage-"} || len(s.created) != 1 {
		t.Errorf("announced %q, created %q", s.announce, s.created)
	}
	pipe.Reset()
	doneA()
	s.read(bytes.NewReader(pipe.Bytes()))
	if got := s.oldest(); got != "sites/b" {
		t.Errorf("after a ended: oldest %q", got)
	}
	doneB()
}

// TestCrashMessageEscapes: a site's label is echoed through diag.Clean.
func TestCrashMessageEscapes(t *testing.T) {
	msg := crashMessage("a\x1b[31m\nb", true, "", "")
	if strings.ContainsAny(msg[:strings.Index(msg, ": error")], "\x1b\n") {
		t.Errorf("raw label: %q", msg)
	}
}
