// Command siteforge compiles OpenShift site descriptions into the manifests
// each site needs, and lints sites and plain manifests.
package main

import (
	"os"

	"github.com/siteforge/siteforge/cmd/siteforge/internal/cli"
)

func main() { cli.Process(os.Args[1:]) }
