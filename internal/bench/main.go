//go:build bench

// Command bench measures siteforge as users run it and prints the table of
// `make bench`: fleet render and fleet lint wall time and peak RSS at several fleet sizes,
// per-site cost against the CUE library alone, single-site lint and version
// latency as whole processes. Build-tagged: not part of `go install ./...`.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/build"
	"cuelang.org/go/cue/cuecontext"
	"cuelang.org/go/cue/parser"

	"github.com/siteforge/siteforge/internal/fleetgen"
	"github.com/siteforge/siteforge/schema"
)

func main() {
	bin := flag.String("bin", "bin/siteforge", "siteforge binary")
	sizes := flag.String("sizes", "100,1000,3500", "fleet sizes")
	runs := flag.Int("runs", 21, "runs of each whole-process latency measurement")
	flag.Parse()

	tmp, err := os.MkdirTemp("", "siteforge-bench-")
	check(err)
	defer os.RemoveAll(tmp)

	host, _ := os.Hostname()
	fmt.Printf("machine: %s, %d cores (GOMAXPROCS %d), %s/%s, %s\n\n", host, runtime.NumCPU(), runtime.GOMAXPROCS(0), runtime.GOOS, runtime.GOARCH, runtime.Version())
	fmt.Println("| measurement | value |")
	fmt.Println("|---|---|")

	var perSite, cuePerSite time.Duration
	var times = map[int]time.Duration{}
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		check(err)
		dir := filepath.Join(tmp, fmt.Sprintf("fleet-%d", n))
		check(fleetgen.Write(dir, n))
		out := filepath.Join(tmp, fmt.Sprintf("out-%d", n))
		wall, rss := run(*bin, "render", dir, "-o", out)
		times[n] = wall
		fmt.Printf("| fleet render, %d sites: wall | %.2f s |\n", n, wall.Seconds())
		fmt.Printf("| fleet render, %d sites: peak RSS | %d MiB |\n", n, rss>>20)
		lwall, lrss := run(*bin, "lint", dir)
		fmt.Printf("| fleet lint, %d sites: wall (lint / render) | %.2f s (%.2fx) |\n", n, lwall.Seconds(), lwall.Seconds()/wall.Seconds())
		fmt.Printf("| fleet lint, %d sites: peak RSS | %d MiB |\n", n, lrss>>20)
		if n == 100 {
			perSite = wall / time.Duration(n)
			cuePerSite = cueAlone(dir, n)
		}
	}
	if times[1000] > 0 && times[3500] > 0 {
		fmt.Printf("| scaling 1000 -> 3500 sites (target <= 3.8x) | %.2fx |\n", times[3500].Seconds()/times[1000].Seconds())
	}
	if perSite > 0 {
		fmt.Printf("| per-site render (100-site fleet, whole process / sites) | %.2f ms |\n", ms(perSite))
		fmt.Printf("| per-site CUE library alone (load + unify schema + export, one core) | %.2f ms |\n", ms(cuePerSite))
		fmt.Printf("| ratio render / CUE alone (target <= 1.5x; render uses %d cores) | %.2fx |\n", runtime.NumCPU(), perSite.Seconds()/cuePerSite.Seconds())
	}

	fmt.Printf("| single-site lint, whole process, median of %d (target <= 100 ms) | %.1f ms |\n", *runs, ms(median(*runs, *bin, "lint", filepath.Join("examples", "disconnected-quay-cache"))))
	fmt.Printf("| siteforge version, whole process, median of %d (target <= 20 ms) | %.1f ms |\n", *runs, ms(median(*runs, *bin, "version")))
}

// cueAlone evaluates every site of a fleet with the CUE library only: the
// site's files and the fleet defaults as one package, unified with the
// schema, exported to JSON (what `cue export` does), on one core.
func cueAlone(dir string, n int) time.Duration {
	ctx := cuecontext.New()
	sch := ctx.CompileBytes(schema.Source, cue.Filename(schema.Filename)).LookupPath(cue.ParsePath(schema.Definition))
	defaults, err := os.ReadFile(filepath.Join(dir, "defaults.cue"))
	check(err)
	start := time.Now()
	for i := 0; i < n; i++ {
		f := filepath.Join(dir, "sites", fmt.Sprintf("site-%05d", i), "site.cue")
		src, err := os.ReadFile(f)
		check(err)
		inst := build.NewContext().NewInstance(filepath.Dir(f), nil)
		for name, b := range map[string][]byte{"defaults.cue": defaults, f: src} {
			file, err := parser.ParseFile(name, b)
			check(err)
			check(inst.AddSyntax(file))
		}
		v := sch.Unify(ctx.BuildInstance(inst))
		if _, err := v.MarshalJSON(); err != nil {
			// fleet defaults are resolved against the schema's defaults
			// by siteforge; plain CUE may leave a field ambiguous: count
			// the evaluation all the same
			_ = err
		}
	}
	return time.Since(start) / time.Duration(n)
}

func run(bin string, args ...string) (time.Duration, int64) {
	cmd := exec.Command(bin, args...)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = nil, &stderr
	start := time.Now()
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok && args[0] == "lint" && ee.ExitCode() == 1 {
		err = nil // findings: the run completed
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s %v: %v\n%s", bin, args, err, stderr.String())
		os.Exit(1)
	}
	wall := time.Since(start)
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	return wall, ru.Maxrss * 1024
}

func median(n int, bin string, args ...string) time.Duration {
	var d []time.Duration
	for i := 0; i < n; i++ {
		cmd := exec.Command(bin, args...)
		start := time.Now()
		_ = cmd.Run() // lint exits 1 on findings; only the time matters
		d = append(d, time.Since(start))
	}
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	return d[len(d)/2]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}
