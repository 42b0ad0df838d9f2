package cli

import (
	"github.com/spf13/pflag"

	"github.com/siteforge/siteforge/cmd/siteforge/internal/krm"
)

func init() {
	register(&command{
		name:    "fn",
		args:    "< ResourceList",
		summary: "run as a KRM function for kustomize or kpt (SiteRender generator, SiteLint linter)",
		help: `Reads a config.kubernetes.io/v1 ResourceList on stdin and writes one on
stdout; kustomize (or kpt) runs it. The function config (apiVersion
` + krm.APIVersion + `) decides what it does:

  kind: SiteRender   (kustomization generators:; kpt mutators:)
    spec.paths: [ONE site input, relative to the kustomization folder (under
    kpt the folder of this config file), anywhere in the git work tree
    holding that folder (../../sites/<name>; without git, inside the
    folder); absolute paths, .. and symbolic links leading out are
    refused] or
    spec.site: {an inline site}; spec.strict: true turns warnings into
    errors. Emits the site's resources, as render --stdout writes them,
    marked ` + krm.GeneratedByAnnotation + `: SiteRender/<name>; under kpt they
    are written to <site name>/<file> and a new run replaces them. One
    site per SiteRender: one build is one cluster.

  kind: SiteLint     (kustomization transformers:, LAST; kpt validators:)
    NOT kustomize validators:: kustomize v5.8.1 fails every validator that
    hands its items back ("validator shouldn't modify the resource map",
    kubernetes-sigs/kustomize#5036). Lints the items (as one cluster) and
    the sites in spec.paths / spec.site; spec.failOn (error|warning|info),
    spec.enable, spec.disable, spec.ocpVersion as for lint. Never changes
    an item.

Wire it with the annotation
  config.kubernetes.io/function: "exec: {path: siteforge, args: [fn]}"
(exec.args needs kustomize ` + krm.MinKustomizeVersion + ` or later) and build with
kustomize build --enable-alpha-plugins --enable-exec.
WITHOUT --enable-exec KUSTOMIZE SKIPS THE FUNCTION SILENTLY AND EXITS 0:
check the output for the siteforge.dev/source annotation (docs/integrations.md).
Under kpt (exec functions need kpt fn render --allow-exec): run kpt in
the package's root folder; spec.paths are relative to the package.

Findings are written as ResourceList results (rule, line, column in tags)
and as file:line:col: severity: message [RULE] lines on stderr (kustomize
prints stderr, never results). Exit 0 clean, 1 findings at or above
failOn, 2 the function could not run (bad config, invalid site).`,
		flags: func(fs *pflag.FlagSet) func(env, []string) int {
			return func(e env, args []string) int {
				if len(args) > 0 {
					return usageError(e, "fn", "takes no arguments: the function config comes in the ResourceList")
				}
				return krm.Run(e.stdin, e.stdout, e.stderr)
			}
		},
	})
}
