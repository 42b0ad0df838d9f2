//go:build linux

package guard

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/siteforge/siteforge/cmd/siteforge/internal/guard/early"
)

// Supervise makes this process the supervisor of a worker that runs the
// same command (see supervise.go), and never returns; in the worker, it
// opens the report pipe and returns. It returns too, doing nothing, where
// the worker cannot be started (no executable path): the run is then
// unsupervised, as on other systems.
func Supervise() {
	if v, ok := os.LookupEnv(workerEnv); ok {
		os.Unsetenv(workerEnv) // not for the processes the worker starts (git)
		if fd, err := strconv.Atoi(v); err == nil && fd == workerFD {
			syscall.CloseOnExec(fd)
			reportMu.Lock()
			report = os.NewFile(uintptr(fd), "siteforge-report")
			reportMu.Unlock()
		}
		return
	}
	exe, err := os.Executable()
	if err != nil {
		return
	}
	os.Exit(supervise(exe, os.Args))
}

func supervise(exe string, args []string) int {
	repR, repW, err := os.Pipe()
	if err != nil {
		return unsupervised(err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		return unsupervised(err)
	}
	cmd := &exec.Cmd{
		Path:       exe,
		Args:       args,
		Env:        append(os.Environ(), workerEnv+"="+strconv.Itoa(workerFD)),
		Stdin:      os.Stdin,
		Stdout:     os.Stdout,
		Stderr:     errW,
		ExtraFiles: []*os.File{repW},
		// The worker gets SIGTERM when the supervisor dies (kill -9):
		// it aborts cleanly, as for any SIGTERM.
		SysProcAttr: &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM},
	}
	// A signal reaches the worker too: from the terminal, both get it (one
	// process group); sent to this process only, it is passed on. The
	// worker counts the two copies of one signal once (HandleSignals).
	var child atomic.Pointer[os.Process]
	early.Handle(func(sig os.Signal) {
		if p := child.Load(); p != nil {
			_ = p.Signal(sig)
			return
		}
		fmt.Fprintf(os.Stderr, "siteforge: interrupted (%s) while starting: stopped; nothing was written\n", early.Name(sig))
		os.Exit(2)
	})
	// Pdeathsig is tied to the thread that started the worker.
	runtime.LockOSThread()
	if err := cmd.Start(); err != nil {
		return unsupervised(err)
	}
	child.Store(cmd.Process)
	repW.Close()
	errW.Close()

	state := newWorkerState()
	filter := &stderrFilter{out: os.Stderr}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); state.read(repR) }()
	go func() { defer wg.Done(); filter.run(errR) }()
	werr := cmd.Wait()
	wg.Wait()

	ps := cmd.ProcessState
	var exitErr *exec.ExitError
	if werr != nil && !errors.As(werr, &exitErr) {
		fmt.Fprintf(os.Stderr, "siteforge: %s\n", werr)
		return 2
	}
	ws, _ := ps.Sys().(syscall.WaitStatus)
	switch {
	case ws.Signaled():
		state.recover(os.Stderr)
		fmt.Fprint(os.Stderr, crashMessage(state.oldest(), false, "", unix.SignalName(ws.Signal())))
		return 2
	case filter.dead:
		state.recover(os.Stderr)
		if os.Getenv("SITEFORGE_DEBUG") != "" {
			os.Stderr.Write(filter.fatal)
		}
		fmt.Fprint(os.Stderr, crashMessage(state.oldest(), filter.outOfMemory(), filter.firstFatalLine(), ""))
		return 2
	}
	return ps.ExitCode()
}

// unsupervised is where the worker could not be started: the supervisor
// says so and fails (it cannot run the job itself: its own start-up, the
// signal handling above, is not the worker's).
func unsupervised(err error) int {
	fmt.Fprintf(os.Stderr, "siteforge: cannot start: %v\n", err)
	return 2
}
