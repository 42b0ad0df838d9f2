// Command siteforge compiles OpenShift site descriptions into the manifests
// each site needs, and lints sites and plain manifests.
package main

import (
	"os"

	"github.com/siteforge/siteforge/cmd/siteforge/internal/cli"
	// On Linux: the supervisor stays in this package's initialisation; the
	// worker goes on (guard.Supervise).
	_ "github.com/siteforge/siteforge/cmd/siteforge/internal/guard/super"
)

func main() {
	cli.Process(os.Args[1:])
}
