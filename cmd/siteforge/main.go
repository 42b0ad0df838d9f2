// Command siteforge compiles OpenShift site descriptions into the manifests
// each site needs, and lints sites and plain manifests.
package main

import (
	"os"

	"github.com/siteforge/siteforge/cmd/siteforge/internal/cli"
	"github.com/siteforge/siteforge/cmd/siteforge/internal/guard"
)

func main() {
	guard.Supervise() // on Linux: the supervisor stays here; the worker goes on
	cli.Process(os.Args[1:])
}
