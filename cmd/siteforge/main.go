// Command siteforge compiles OpenShift site descriptions into the manifests
// each site needs, and lints sites and plain manifests.
package main

import (
	"os"

	"github.com/siteforge/siteforge/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
