package cli

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/pflag"

	"github.com/siteforge/siteforge/cmd/siteforge/internal/guard"
	"github.com/siteforge/siteforge/internal/diag"
	"github.com/siteforge/siteforge/internal/fsread"
	"github.com/siteforge/siteforge/internal/importer"
	"github.com/siteforge/siteforge/internal/manifests"
	"github.com/siteforge/siteforge/internal/output"
)

// importOptions are the import verb's flags.
type importOptions struct {
	out, format, release string
}

func init() {
	register(&command{
		name:    "import",
		args:    "PATH... -o DIR",
		summary: "make sites of SiteConfigs, ClusterInstances and installation folders",
		help: `PATH is a ZTP SiteConfig v1 file (ran.openshift.io/v1: each of its clusters
becomes a site), a ClusterInstance file (siteconfig.open-cluster-management.io
/v1alpha1) or a folder of them with the extra-manifests ConfigMaps they name,
or an installation folder (install-config.yaml, agent-config.yaml, openshift/,
manifests/). One cluster is written as DIR/site.yaml; several as a fleet,
DIR/sites/<name>/site.yaml with the values they all share in DIR/defaults.yaml.

Secrets are never copied or printed: the pull secret, BMC credentials and
SSH private keys stay references (install.hub.pullSecretRef,
bmc.credentialsSecret) or are left out (an install-config's pullSecret is
skipped, with a warning). What a site has no place for is a
warning at file:line:col of the input, listed again at the top of the site
file; a manifest (an extra manifest of a ClusterInstance, a file of
openshift/ or manifests/) is kept verbatim in extra-manifests/ next to the
site. DIR must not exist or be empty, and is written as a whole or not at
all. Exit 0 when the sites are written, 2 when an input cannot be read
(nothing is written). Check the result with siteforge vet DIR.`,
		flags: func(fs *pflag.FlagSet) func(env, []string) int {
			var o importOptions
			fs.StringVarP(&o.out, "output", "o", "", "the folder to write the sites into (new or empty)")
			fs.StringVar(&o.format, "format", "yaml", "site file format: yaml or cue")
			fs.StringVar(&o.release, "release", "", "the OpenShift release (4.N) of clusters whose input does not name it (default "+importer.DefaultRelease+", with a warning)")
			return func(e env, args []string) int { return runImport(e, o, args) }
		},
	})
}

func runImport(e env, o importOptions, args []string) int {
	if len(args) == 0 || o.out == "" {
		fmt.Fprintln(e.stderr, "siteforge import: PATH and -o DIR are required\nusage: siteforge import PATH... -o DIR")
		return ExitFailure
	}
	if o.format != "yaml" && o.format != "cue" {
		fmt.Fprintf(e.stderr, "siteforge import: --format %s: yaml or cue\n", `"`+diag.Clean(o.format)+`"`)
		return ExitFailure
	}
	var files, dirs []string
	for _, a := range args {
		if fi, err := os.Stat(a); err == nil && fi.IsDir() {
			dirs = append(dirs, a)
		} else {
			files = append(files, a)
		}
	}
	if err := output.CheckNotInput(o.out, files, dirs); err != nil {
		fmt.Fprintf(e.stderr, "siteforge import: %s\n", diag.Clean(err.Error()))
		return ExitFailure
	}
	res, errs := importer.Import(args, importer.Options{Release: o.release})
	p := sourcePrinter()
	if len(errs) > 0 {
		for _, d := range errs {
			fmt.Fprint(e.stderr, p.Format(d))
		}
		fmt.Fprintf(e.stderr, "%d error%s: nothing written\n", len(errs), plural(len(errs)))
		return ExitFailure
	}
	tree, err := res.Files(o.format)
	if err == nil {
		err = writeImport(o.out, tree)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "siteforge import: %s\n", diag.Clean(err.Error()))
		return ExitFailure
	}
	printImport(e.stderr, e.stdout, p, res, o.out)
	return ExitOK
}

func writeImport(dir string, files map[string][]byte) error {
	t, err := output.NewTree(dir, files)
	if err != nil {
		return err
	}
	defer guard.OnAbort(t.Abort)()
	return t.Commit()
}

func printImport(stderr, stdout io.Writer, p *diag.Printer, res *importer.Result, out string) {
	n := 0
	for _, s := range res.Sites {
		for _, w := range s.Warnings {
			fmt.Fprint(stderr, p.FormatSeverity(w, "warning"))
			n++
		}
	}
	for _, s := range res.Sites {
		fmt.Fprintf(stdout, "imported %s\n", diag.Clean(s.Name))
	}
	fmt.Fprintf(stdout, "%d site%s written to %s, %d warning%s\n", len(res.Sites), plural(len(res.Sites)), diag.SafeLine(out), n, plural(n))
}

// sourcePrinter shows snippets of the input files, read bounded.
func sourcePrinter() *diag.Printer {
	return &diag.Printer{Source: func(file string) ([]byte, bool) {
		b, err := fsread.File(file, manifests.MaxFileSize)
		return b, err == nil
	}}
}
