//go:build mangen

// Command mangen writes siteforge's man pages, one per command, from the
// command tree (cobra/doc): go run -tags mangen ./cmd/siteforge/internal/mangen
// -o bin/man (make man). The date in the pages is SOURCE_DATE_EPOCH's when
// it is set (reproducible pages), else today's.
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"

	"github.com/siteforge/siteforge/cmd/siteforge/internal/cli"
)

func main() {
	out := flag.String("o", "", "output directory (created)")
	flag.Parse()
	if *out == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: mangen -o DIR")
		os.Exit(2)
	}
	date := time.Now().UTC()
	if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		sec, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			fmt.Fprintf(os.Stderr, "mangen: SOURCE_DATE_EPOCH: %v\n", err)
			os.Exit(2)
		}
		date = time.Unix(sec, 0).UTC()
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintf(os.Stderr, "mangen: %v\n", err)
		os.Exit(1)
	}
	root := cli.Command()
	root.DisableAutoGenTag = true
	plain(root)
	header := &doc.GenManHeader{Title: "SITEFORGE", Section: "1", Source: "siteforge " + cli.Version(), Manual: "siteforge manual", Date: &date}
	if err := doc.GenManTree(root, header, *out); err != nil {
		fmt.Fprintf(os.Stderr, "mangen: %v\n", err)
		os.Exit(1)
	}
}

// markdownEscapes: cobra/doc reads a command's text as markdown; the help
// texts are plain text, where <name> is a placeholder and * or _ no
// emphasis.
var markdownEscapes = strings.NewReplacer("<", `\<`, "*", `\*`, "_", `\_`, "`", "\\`")

// plain escapes the help text of c and its subcommands for markdown.
func plain(c *cobra.Command) {
	c.Long = markdownEscapes.Replace(c.Long)
	for _, sub := range c.Commands() {
		plain(sub)
	}
}
