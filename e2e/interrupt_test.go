package e2e

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/siteforge/siteforge/internal/fleetgen"
)

// Interrupts and kills of the commands that write temporary folders
// outside render's stage (impact --git, install-config), and signals in
// the first milliseconds of a run: the regression tests of issue 25
// (defects 4, 5 and 12).

// exitCode waits for cmd and returns its exit code; -1 for a death by a
// signal the process did not handle (a shell shows 128+n).
func exitCode(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	err := cmd.Wait()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal())
		}
		return ee.ExitCode()
	}
	t.Fatal(err)
	return 0
}

// matching lists the entries of dir whose name starts with prefix.
func matching(t *testing.T, dir, prefix string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), prefix) {
			out = append(out, e.Name())
		}
	}
	return out
}

// killGroup sends SIGKILL to every process of the run cmd started in its
// own process group (the supervisor, its worker, the worker's git), waits
// for the supervisor, then until no process of the group is left.
func killGroup(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if !waitFor(func() bool { return syscall.Kill(-cmd.Process.Pid, 0) == syscall.ESRCH }, 20*time.Second) {
		t.Fatal("the killed run's processes are still there")
	}
}

// waitFor polls until cond holds; false after the deadline.
func waitFor(cond func() bool, limit time.Duration) bool {
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(200 * time.Microsecond)
	}
	return true
}

// TestSignalWhileStartingExits2: SIGTERM at any point of package
// initialisation, the milliseconds before main, exits 2 (before: the
// runtime died of the signal until main installed the handler, exit 143
// in a shell). GODEBUG=inittrace=1 makes the binary print a line as each
// package finishes its initialisation: run i sends SIGTERM on reading a
// later line, so the runs cover the initialisation from its first
// packages to its last. siteforge fn then waits on stdin, held open, so a
// signal after the initialisation finds it running.
func TestSignalWhileStartingExits2(t *testing.T) {
	const runs = 40
	total := 0 // init lines of one run
	{
		cmd := exec.Command(filepath.Join(binDir, "siteforge"), "--version")
		cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			t.Fatal(err)
		}
		total = strings.Count(stderr.String(), "\ninit ") + 1
	}
	if total < 100 {
		t.Fatalf("only %d packages initialise: inittrace changed?", total)
	}
	for i := 0; i < runs; i++ {
		// from the 30th line (past the runtime's own packages and
		// os/signal) to the last
		at := 30 + i*(total-30)/runs
		cmd := exec.Command(filepath.Join(binDir, "siteforge"), "fn")
		cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
		stdin, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		stderr, err := cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(stderr)
		var tail strings.Builder
		n := 0
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "init ") {
				if n++; n == at {
					cmd.Process.Signal(syscall.SIGTERM)
				}
				continue
			}
			fmt.Fprintln(&tail, sc.Text())
		}
		stdin.Close()
		if code := exitCode(t, cmd); code != 2 {
			t.Errorf("SIGTERM after %d of %d packages initialised: exit %d, want 2\n%s", at, total, code, tail.String())
		}
	}
}

// impactRepo is a git repository holding a fleet, committed.
func impactRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("SKIPPED: git is not installed, so impact --git is NOT tested under interruption")
	}
	dir := t.TempDir()
	if err := fleetgen.Write(filepath.Join(dir, "fleet"), 200); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "fleet"}} {
		if r := run(t, dir, nil, "git", args...); r.code != 0 {
			t.Fatal(r)
		}
	}
	return dir
}

// startImpact starts impact --git HEAD with its own TMPDIR and waits
// until its temporary folder exists.
func startImpact(t *testing.T, dir, tmp string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(filepath.Join(binDir, "siteforge"), "impact", "--git", "HEAD", "fleet")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if !waitFor(func() bool { return len(matching(t, tmp, "siteforge-impact-")) > 0 }, 20*time.Second) {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatal("no siteforge-impact-* folder appeared")
	}
	return cmd
}

// TestInterruptedImpactLeavesNothing: SIGINT or SIGTERM during impact
// --git exits 2 and removes the copy of the tree at REV (before: only a
// defer removed it, which an abort never runs). kill -9 of the supervisor
// makes its worker clean up (Pdeathsig); kill -9 of the whole run leaves
// the folder, and the next impact --git removes it.
func TestInterruptedImpactLeavesNothing(t *testing.T) {
	dir := impactRepo(t)
	tmp := t.TempDir()
	for i, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGINT} {
		cmd := startImpact(t, dir, tmp)
		time.Sleep(time.Duration(i) * 20 * time.Millisecond)
		cmd.Process.Signal(sig)
		if code := exitCode(t, cmd); code != 2 {
			t.Errorf("%s: exit %d, want 2", sig, code)
		}
		if left := matching(t, tmp, "siteforge-impact-"); len(left) > 0 {
			t.Fatalf("%s left %v in TMPDIR", sig, left)
		}
	}
	// kill -9 of the supervisor alone: its worker gets SIGTERM
	// (Pdeathsig) and aborts as for any SIGTERM.
	cmd := startImpact(t, dir, tmp)
	cmd.Process.Kill()
	cmd.Wait()
	if !waitFor(func() bool { return len(matching(t, tmp, "siteforge-impact-")) == 0 }, 20*time.Second) {
		t.Fatalf("kill -9 of the supervisor: its worker left %v", matching(t, tmp, "siteforge-impact-"))
	}
	// kill -9 of every process of the run (a power cut, the OOM killer
	// of a cgroup): nothing runs to clean up, so the folder stays...
	cmd = startImpact(t, dir, tmp)
	killGroup(t, cmd)
	if left := matching(t, tmp, "siteforge-impact-"); len(left) != 1 {
		t.Fatalf("after kill -9 of the run: %v, want the killed run's folder", left)
	}
	// ...and the next impact --git removes it.
	if r := run(t, dir, []string{"TMPDIR=" + tmp}, filepath.Join(binDir, "siteforge"), "impact", "--git", "HEAD", "fleet"); r.code != 0 {
		t.Fatal(r)
	}
	if left := matching(t, tmp, "siteforge-impact-"); len(left) > 0 {
		t.Errorf("the next impact --git left the killed run's folder: %v", left)
	}
}

const pullSecret = `{"auths":{"quay.io":{"auth":"dXNlcjpwYXNz"}}}`

// installConfigInputs renders an example site and adds many files to its install/
// openshift/ (the writes take long enough to be interrupted); it returns
// the folder to run install-config in.
func installConfigInputs(t *testing.T, files int) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "pull-secret.json"), []byte(pullSecret), 0o600); err != nil {
		t.Fatal(err)
	}
	// an agent-installed single node: install/ holds install-config.yaml
	if r := siteforge(t, dir, "render", filepath.Join(root, "examples", "agent-sno", "site.cue"), "-o", "out"); r.code != 0 {
		t.Fatal(r)
	}
	extra := filepath.Join(dir, "out", "sno-edge", "install", "openshift")
	if err := os.MkdirAll(extra, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < files; i++ {
		if err := os.WriteFile(filepath.Join(extra, fmt.Sprintf("extra-%05d.yaml", i)), []byte("# filler\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "installs"), 0o700); err != nil {
		t.Fatal(err)
	}
	return dir
}

// startInstallConfig starts install-config --to installs/assets and waits
// until its staging folder exists.
func startInstallConfig(t *testing.T, dir string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(filepath.Join(binDir, "siteforge"), "install-config", "--pull-secret", "pull-secret.json", "--to", "installs/assets", "out/sno-edge")
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if !waitFor(func() bool { return len(matching(t, filepath.Join(dir, "installs"), ".assets.siteforge-")) > 0 }, 20*time.Second) {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatal("no staging folder appeared")
	}
	return cmd
}

// TestInterruptedInstallConfigLeavesNothing: SIGINT while install-config
// writes exits 2 and leaves neither the staging folder nor DIR (before:
// the abort's RemoveAll raced the writer, which went on writing into the
// folder being removed or moved it into place: 15 to 270 files left,
// once an empty DIR). kill -9 of the supervisor makes its worker clean up
// (Pdeathsig); kill -9 of the whole run leaves the staging folder, and the
// next install-config --to DIR removes it.
func TestInterruptedInstallConfigLeavesNothing(t *testing.T) {
	dir := installConfigInputs(t, 3000)
	installs := filepath.Join(dir, "installs")
	for i := 0; i < 8; i++ {
		cmd := startInstallConfig(t, dir)
		time.Sleep(time.Duration(i) * 3 * time.Millisecond)
		cmd.Process.Signal(syscall.SIGINT)
		code := exitCode(t, cmd)
		left := matching(t, installs, "")
		if code == 0 && len(left) == 1 && left[0] == "assets" {
			// finished before the signal: start again
			os.RemoveAll(filepath.Join(installs, "assets"))
			continue
		}
		if code != 2 || len(left) > 0 {
			t.Fatalf("SIGINT %d ms after the staging folder appeared: exit %d, left %v in %s", i*3, code, left, installs)
		}
	}
	// kill -9 of the supervisor alone: its worker gets SIGTERM
	// (Pdeathsig) and aborts, leaving neither the staging folder nor DIR.
	cmd := startInstallConfig(t, dir)
	cmd.Process.Kill()
	cmd.Wait()
	if !waitFor(func() bool { return len(matching(t, installs, "")) == 0 }, 20*time.Second) {
		t.Fatalf("kill -9 of the supervisor: its worker left %v in %s", matching(t, installs, ""), installs)
	}
	// kill -9 of every process of the run: the staging folder stays (the
	// kill may also come after the move into place: start again)...
	killed := false
	for i := 0; i < 5 && !killed; i++ {
		cmd := startInstallConfig(t, dir)
		killGroup(t, cmd)
		left := matching(t, installs, ".assets.siteforge-")
		killed = len(left) == 1
		os.RemoveAll(filepath.Join(installs, "assets"))
	}
	if !killed {
		t.Fatal("kill -9 never left a staging folder")
	}
	// ...and the next install-config --to DIR removes it.
	if r := siteforge(t, dir, "install-config", "--pull-secret", "pull-secret.json", "--to", "installs/assets", "out/sno-edge"); r.code != 0 {
		t.Fatal(r)
	}
	if left := matching(t, installs, "."); len(left) > 0 {
		t.Errorf("the next install-config left the killed run's folder: %v", left)
	}
}
