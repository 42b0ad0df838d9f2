package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"cuelang.org/go/cue"
	cueast "cuelang.org/go/cue/ast"
	"cuelang.org/go/cue/cuecontext"
	"cuelang.org/go/encoding/yaml"
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/siteforge/siteforge/cmd/siteforge/internal/cli"
)

// TestMain lets testscript run this test binary as the real `siteforge`
// command, in its own process.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"siteforge": func() { cli.Process(os.Args[1:]) },
	})
}

// TestScripts runs testdata/script/*.txtar. UPDATE_GOLDEN=1 rewrites the
// expected files inside the archives (review the diff).
func TestScripts(t *testing.T) {
	examples, err := filepath.Abs("../../examples")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		UpdateScripts:       os.Getenv("UPDATE_GOLDEN") != "",
		RequireExplicitExec: true,
		Setup: func(e *testscript.Env) error {
			e.Setenv("EXAMPLES", examples)
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			// exitcode N cmd args...: run cmd and require exit status N.
			"exitcode": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) < 2 {
					ts.Fatalf("usage: exitcode N command [args...]")
				}
				want, err := strconv.Atoi(args[0])
				if err != nil {
					ts.Fatalf("exitcode: %v", err)
				}
				got := 0
				if err := ts.Exec(args[1], args[2:]...); err != nil {
					var ee *exec.ExitError
					if !errors.As(err, &ee) {
						ts.Fatalf("exitcode: %v", err)
					}
					got = ee.ExitCode()
				}
				if got != want {
					ts.Fatalf("%s exited %d, want %d", args[1], got, want)
				}
			},
		},
	})
}

// TestSchemaValidatesExamples: what `siteforge schema` prints is usable on its
// own by the CUE library to check a site.
func TestSchemaValidatesExamples(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := cli.Main([]string{"schema"}, nil, &out, &errOut); code != 0 {
		t.Fatalf("schema exited %d: %s", code, errOut.String())
	}
	ctx := cuecontext.New()
	schema := ctx.CompileBytes(out.Bytes(), cue.Filename("siteforge.cue"))
	if err := schema.Err(); err != nil {
		t.Fatalf("printed schema does not compile: %v", err)
	}
	def := schema.LookupPath(cue.ParsePath("#Site"))

	data, err := os.ReadFile("../../examples/disconnected-quay-cache/site.yaml")
	if err != nil {
		t.Fatal(err)
	}
	f, err := yaml.Extract("site.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	if err := def.Unify(ctx.BuildFile(f)).Validate(cue.Concrete(true)); err != nil {
		t.Errorf("example does not validate against the printed schema: %v", err)
	}

	bad := ctx.BuildFile(mustExtract(t, "apiVersion: siteforge.dev/v1alpha1\nkind: Site\nname: x\nbogus: 1\n"))
	if err := def.Unify(bad).Validate(cue.Concrete(true)); err == nil {
		t.Errorf("printed schema accepted an invalid site")
	}
}

func mustExtract(t *testing.T, src string) *cueast.File {
	t.Helper()
	f, err := yaml.Extract("bad.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return f
}
