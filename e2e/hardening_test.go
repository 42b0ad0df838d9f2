package e2e

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/siteforge/siteforge/internal/fleetgen"
)

// Process-level hardening: what needs the real binary, a signal or a
// memory figure (the in-process regression tests are in cmd/siteforge/internal/cli).

// measured is a finished process with its peak memory.
type measured struct {
	result
	wall   time.Duration
	maxRSS int64 // bytes
}

func measure(t *testing.T, dir string, stdin io.Reader, args ...string) measured {
	t.Helper()
	cmd := exec.Command(filepath.Join(binDir, "siteforge"), args...)
	cmd.Dir = dir
	cmd.Stdin = stdin
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	m := measured{result: result{stdout: stdout.String(), stderr: stderr.String()}, wall: time.Since(start)}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		m.code = ee.ExitCode()
	case err != nil && !strings.Contains(err.Error(), "broken pipe"):
		t.Fatalf("siteforge %s: %v", strings.Join(args, " "), err)
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		m.maxRSS = ru.Maxrss << 10 // Linux reports KiB
	}
	return m
}

// stages lists the render stages under dir.
func stages(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), ".siteforge-stage-") {
			out = append(out, p)
			return fs.SkipDir
		}
		return nil
	})
	return out
}

// snapshot reads every file under dir.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	got := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, p)
		got[rel] = string(b)
		return nil
	})
	return got
}

func sameTree(t *testing.T, what string, got, want map[string]string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d files, want %d", what, len(got), len(want))
	}
	n := 0
	for p, w := range want {
		if got[p] != w && n < 5 {
			t.Errorf("%s: %s differs", what, p)
			n++
		}
	}
}

// TestRuntimeBombs: what only evaluation reveals (a comprehension over
// 20000x20000, two million generated pools) stops with exit 2, within 20 s
// and 512 MiB, and a render leaves nothing (before: 2.4 GB and more, or no
// end). The figures are logged for make test -v.
func TestRuntimeBombs(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"product/site.cue": "import \"list\"\n\nx: [for i in list.Range(0, 20000, 1) for j in list.Range(0, 20000, 1) {i * j}]\n",
		"pools/site.cue": "import \"list\"\n\napiVersion: \"siteforge.dev/v1alpha1\"\nkind: \"Site\"\nname: \"lab\"\n" +
			"pools: {for i in list.Range(0, 2000000, 1) {\"p\\(i)\": {uplinkInterface: \"eno1\", uplinkMTU: 1500}}}\n",
	})
	for _, tc := range []struct {
		args []string
	}{
		{[]string{"render", "-o", "out", "product"}},
		{[]string{"vet", "pools"}},
	} {
		m := measure(t, dir, nil, tc.args...)
		t.Logf("%s: exit %d, %.1f s, %d MiB", strings.Join(tc.args, " "), m.code, m.wall.Seconds(), m.maxRSS>>20)
		if m.code != 2 || !strings.Contains(m.stderr, ": error: evaluating this site ") {
			t.Errorf("%v: %s", tc.args, m.result)
		}
		if m.wall > 20*time.Second || m.maxRSS > 512<<20 {
			t.Errorf("%v: %.1f s, %d MiB: want under 20 s and 512 MiB", tc.args, m.wall.Seconds(), m.maxRSS>>20)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("an aborted render left its output folder: %v", err)
	}
	if s := stages(t, dir); len(s) > 0 {
		t.Errorf("an aborted render left its stage: %v", s)
	}
}

// TestStaticBombMemory: the bombs refused before evaluation stay small as
// whole processes too.
func TestStaticBombMemory(t *testing.T) {
	dir := t.TempDir()
	var alias strings.Builder
	alias.WriteString("apiVersion: siteforge.dev/v1alpha1\nx: &big \"" + strings.Repeat("a", 1<<20) + "\"\nmore: [")
	for i := 0; i < 3000; i++ {
		alias.WriteString("*big, ")
	}
	alias.WriteString("*big]\n")
	var keys strings.Builder
	keys.WriteString("apiVersion: siteforge.dev/v1alpha1\n")
	for i := 0; i < 100000; i++ {
		fmt.Fprintf(&keys, "k%d: 1\n", i)
	}
	writeFiles(t, dir, map[string]string{
		"alias/site.yaml": alias.String(),
		"keys/site.yaml":  keys.String(),
		"nets/site.yaml":  "apiVersion: siteforge.dev/v1alpha1\nnetwork:\n  machineNetwork: [" + strings.TrimSuffix(strings.Repeat("1.2.3.0/24,", 300000), ",") + "]\n",
	})
	for _, p := range []string{"alias", "keys", "nets"} {
		m := measure(t, dir, nil, "render", "-o", "out", p)
		t.Logf("render %s: exit %d, %.2f s, %d MiB", p, m.code, m.wall.Seconds(), m.maxRSS>>20)
		if m.code != 2 || m.wall > 20*time.Second || m.maxRSS > 512<<20 {
			t.Errorf("%s: %.1f s, %d MiB\n%s", p, m.wall.Seconds(), m.maxRSS>>20, m.result)
		}
	}
}

// TestFnInputCap: a 200 MB ResourceList is refused after reading the limit,
// not read whole (before: 1.7 GB).
func TestFnInputCap(t *testing.T) {
	pr, pw := io.Pipe()
	go func() {
		pw.Write([]byte("apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n"))
		item := []byte("- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: x}\n  data: {k: " + strings.Repeat("v", 1000) + "}\n")
		for n := 0; n < 200<<20; n += len(item) {
			if _, err := pw.Write(item); err != nil {
				break
			}
		}
		pw.Close()
	}()
	m := measure(t, t.TempDir(), pr, "fn")
	pr.Close()
	t.Logf("fn with 200 MB on stdin: exit %d, %.2f s, %d MiB", m.code, m.wall.Seconds(), m.maxRSS>>20)
	if m.code != 2 || !strings.Contains(m.stderr, "larger than the 16777216-byte limit") || m.maxRSS > 256<<20 {
		t.Errorf("%d MiB\n%s", m.maxRSS>>20, m.result)
	}
}

// startRender starts a render of fleet into out and waits until its stage
// exists (the sites are being evaluated and staged).
func startRender(t *testing.T, dir string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(filepath.Join(binDir, "siteforge"), "render", "fleet", "-o", "out")
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for len(stages(t, filepath.Join(dir, "out"))) == 0 {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("no stage appeared: %s", stderr.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(150 * time.Millisecond) // some sites staged
	return cmd, &stderr
}

// fleetWithOutput writes a fleet, renders it into out, then changes every
// site (so an interrupted render would change every folder).
func fleetWithOutput(t *testing.T, n int) (dir string, before map[string]string) {
	t.Helper()
	dir = t.TempDir()
	if err := fleetgen.Write(filepath.Join(dir, "fleet"), n); err != nil {
		t.Fatal(err)
	}
	if r := siteforge(t, dir, "render", "fleet", "-o", "out"); r.code != 0 {
		t.Fatal(r)
	}
	before = snapshot(t, filepath.Join(dir, "out"))
	defaults := filepath.Join(dir, "fleet", "defaults.cue")
	b, err := os.ReadFile(defaults)
	if err != nil {
		t.Fatal(err)
	}
	changed := strings.Replace(string(b), `*"registry-cas"`, `*"registry-cas-2"`, 1)
	if changed == string(b) {
		t.Fatal("the fleet defaults changed shape: pick another field to change")
	}
	if err := os.WriteFile(defaults, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, before
}

// TestInterruptedRenderKeepsOutput: SIGINT or SIGTERM during a fleet render
// exits 2, removes the stage and leaves the previous output as it was
// (before: the stage stayed forever).
func TestInterruptedRenderKeepsOutput(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			dir, before := fleetWithOutput(t, 400)
			cmd, stderr := startRender(t, dir)
			cmd.Process.Signal(sig)
			err := cmd.Wait()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 2 {
				t.Fatalf("exit %v, want 2; stderr:\n%s", err, stderr)
			}
			if !strings.Contains(stderr.String(), "siteforge: interrupted (") {
				t.Errorf("stderr: %s", stderr)
			}
			sameTree(t, "output after an interrupted render", snapshot(t, filepath.Join(dir, "out")), before)
			if s := stages(t, dir); len(s) > 0 {
				t.Errorf("stage left behind: %v", s)
			}
		})
	}
}

// TestKilledRenderIsCleanedUp: kill -9 leaves a stage nothing can remove at
// the time; render --check reports it, and the next render rolls it back,
// removes it and renders (before: it stayed forever, and --check ignored
// it).
func TestKilledRenderIsCleanedUp(t *testing.T) {
	dir, _ := fleetWithOutput(t, 400)
	cmd, _ := startRender(t, dir)
	// Both processes, supervisor and worker (one alone is cleaned up at
	// once: TestKilledSupervisorOrWorker).
	for _, pid := range []int{workerPID(t, cmd), cmd.Process.Pid} {
		syscall.Kill(pid, syscall.SIGKILL)
	}
	cmd.Wait()
	left := stages(t, dir)
	if len(left) != 1 {
		t.Fatalf("after kill -9: stages %v, want the killed render's", left)
	}
	r := siteforge(t, dir, "render", "--check", "-o", "out", "fleet")
	if r.code != 1 || !strings.Contains(r.stdout, "interrupted "+filepath.Join("out", filepath.Base(left[0]))) {
		t.Errorf("render --check after kill -9: %s", r)
	}
	if r := siteforge(t, dir, "render", "fleet", "-o", "out"); r.code != 0 {
		t.Fatal(r)
	}
	if s := stages(t, dir); len(s) > 0 {
		t.Errorf("the next render left the stale stage: %v", s)
	}
	if r := siteforge(t, dir, "render", "--check", "-o", "out", "fleet"); r.code != 0 {
		t.Errorf("after the next render: %s", r)
	}
}

// workerPID is the pid of the worker the supervisor cmd started
// (guard.Supervise).
func workerPID(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	p := fmt.Sprintf("/proc/%d/task/%d/children", cmd.Process.Pid, cmd.Process.Pid)
	var pid int
	if !waitFor(func() bool {
		b, err := os.ReadFile(p)
		if err != nil {
			return false
		}
		_, err = fmt.Sscan(string(b), &pid)
		return err == nil
	}, 10*time.Second) {
		t.Fatalf("no worker process under the supervisor (%s)", p)
	}
	return pid
}

// TestKilledSupervisorOrWorker: kill -9 of either process of a render ends
// it as an interrupt does: the previous output stays as it was and no stage
// is left (the worker gets SIGTERM when its supervisor dies; the supervisor
// recovers what a dead worker staged), exit 2 where anyone can still exit.
func TestKilledSupervisorOrWorker(t *testing.T) {
	t.Run("worker", func(t *testing.T) {
		dir, before := fleetWithOutput(t, 400)
		cmd, stderr := startRender(t, dir)
		syscall.Kill(workerPID(t, cmd), syscall.SIGKILL)
		err := cmd.Wait()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 2 {
			t.Fatalf("exit %v, want 2; stderr:\n%s", err, stderr)
		}
		if !strings.Contains(stderr.String(), "was killed (SIGKILL)") && !strings.Contains(stderr.String(), "siteforge: killed (SIGKILL)") {
			t.Errorf("stderr: %s", stderr)
		}
		sameTree(t, "output after the worker was killed", snapshot(t, filepath.Join(dir, "out")), before)
		if s := stages(t, dir); len(s) > 0 {
			t.Errorf("stage left behind: %v", s)
		}
	})
	t.Run("supervisor", func(t *testing.T) {
		dir, before := fleetWithOutput(t, 400)
		cmd, _ := startRender(t, dir)
		worker := workerPID(t, cmd)
		cmd.Process.Kill()
		cmd.Wait()
		if !waitFor(func() bool { return syscall.Kill(worker, 0) != nil }, 20*time.Second) {
			t.Fatalf("the worker %d runs on after its supervisor was killed", worker)
		}
		sameTree(t, "output after the supervisor was killed", snapshot(t, filepath.Join(dir, "out")), before)
		if s := stages(t, dir); len(s) > 0 {
			t.Errorf("stage left behind: %v", s)
		}
	})
}

// TestBuiltinAskingTooMuchMemory: a CUE builtin whose result the system
// cannot allocate (strings.Replace of a 16 MB string with an 8 MB
// replacement: 128 TiB) ends in exit 2 with the site named, not Go's fatal
// error and its stack dump, and leaves no output folder and no stage
// (before: "fatal error: runtime: out of memory", ~400 lines, no site
// named, the stage left in the output folder). The previous output of a
// render into an existing folder stays as it was.
func TestBuiltinAskingTooMuchMemory(t *testing.T) {
	var b strings.Builder
	b.WriteString("import \"strings\"\n\n_s0: \"x\" * 1000000\n")
	for i := 1; i <= 4; i++ {
		fmt.Fprintf(&b, "_s%d: \"\\(_s%d)\\(_s%d)\"\n", i, i-1, i-1)
	}
	b.WriteString("cluster: baseDomain: strings.Replace(_s4, \"x\", _s3, -1)\n")
	b.WriteString(smallSiteCUE("bomb"))
	bomb := b.String()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"bomb/site.cue":          bomb,
		"lab/site.cue":           smallSiteCUE("lab"),
		"fleet/defaults.cue":     "package site\n",
		"fleet/sites/a/site.cue": "package site\n\n" + smallSiteCUE("a"),
		"fleet/sites/b/site.cue": "package site\n\n" + bomb,
	})
	if r := siteforge(t, dir, "render", "lab", "-o", "prev"); r.code != 0 {
		t.Fatal(r)
	}
	before := snapshot(t, filepath.Join(dir, "prev"))
	for _, args := range [][]string{
		{"vet", "bomb"},
		{"render", "-o", "out", "bomb"},
		{"render", "-o", "prev", "fleet"},
		{"lint", "bomb"},
	} {
		m := measure(t, dir, nil, args...)
		t.Logf("%s: exit %d, %d MiB", strings.Join(args, " "), m.code, m.maxRSS>>20)
		if m.code != 2 || !strings.Contains(m.stderr, ": error: evaluating this site asked for more memory than one site may use (512 MiB) or the system gives") {
			t.Errorf("%v: %s", args, m.result)
		}
		for _, bad := range []string{"fatal error", "goroutine ", "runtime: "} {
			if strings.Contains(m.stderr, bad) {
				t.Errorf("%v: stderr has the runtime's dump (%q):\n%s", args, bad, m.stderr)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a crashed render left its output folder: %v", err)
	}
	if s := stages(t, dir); len(s) > 0 {
		t.Errorf("a crashed render left its stage: %v", s)
	}
	sameTree(t, "output after a crashed render", snapshot(t, filepath.Join(dir, "prev")), before)
}

// TestDoubledStringWithinTwiceTheSiteLimit: a string doubled field by
// field (1 MB, 2 MB, ... 8 GB; each step one allocation twice the last)
// is stopped with the site named, and the run's peak memory stays within
// twice the per-site limit above what a small site takes (before: the
// watchdog, looking every 10 ms, stopped it at 8 GB after 28 s; now the
// kernel refuses the allocation that would pass the worker's address-space
// bound, guard.SiteAddressSpaceGrowth). A string that needs less than the
// limit still evaluates.
func TestDoubledStringWithinTwiceTheSiteLimit(t *testing.T) {
	doubled := func(name string, steps int) string {
		var b strings.Builder
		b.WriteString("_s0: \"x\" * 1000000\n")
		for i := 1; i <= steps; i++ {
			fmt.Fprintf(&b, "_s%d: _s%d + _s%d\n", i, i-1, i-1)
		}
		site := strings.Replace(smallSiteCUE(name), `baseDomain: "example.com"`, fmt.Sprintf(`baseDomain: "x\(len(_s%d))example.com"`, steps), 1)
		return b.String() + site
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"small/site.cue": smallSiteCUE("small"),
		"bomb/site.cue":  doubled("bomb", 13),
		"fits/site.cue":  doubled("fits", 5),
	})
	small := measure(t, dir, nil, "vet", "small")
	if small.code != 0 {
		t.Fatal(small.result)
	}
	if m := measure(t, dir, nil, "vet", "fits"); m.code != 0 {
		t.Errorf("a site with a 32 MB string: %s", m.result)
	}
	for _, args := range [][]string{{"vet", "bomb"}, {"render", "-o", "out", "bomb"}, {"lint", "bomb"}} {
		m := measure(t, dir, nil, args...)
		t.Logf("%s: exit %d, %d MiB (a small site: %d MiB), %s", strings.Join(args, " "), m.code, m.maxRSS>>20, small.maxRSS>>20, m.wall)
		if m.code != 2 || !strings.Contains(m.stderr, "bomb: error: evaluating this site") {
			t.Errorf("%v: %s", args, m.result)
		}
		if limit := small.maxRSS + 2*256<<20; m.maxRSS > limit {
			t.Errorf("%v: peak %d MiB, more than a small site's %d MiB + twice the 256 MiB per-site limit", args, m.maxRSS>>20, small.maxRSS>>20)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a stopped render left its output folder: %v", err)
	}
}

// smallSiteCUE is a valid site named name, in CUE.
func smallSiteCUE(name string) string {
	return fmt.Sprintf(`apiVersion: "siteforge.dev/v1alpha1"
kind: "Site"
name: %q
cluster: {baseDomain: "example.com", version: "4.16", platform: "baremetal", installMethod: "agent", lifecycle: "install"}
network: machineNetwork: ["192.168.0.0/24"]
pools: master: {uplinkInterface: "eno1", uplinkMTU: 1500}
`, name)
}
