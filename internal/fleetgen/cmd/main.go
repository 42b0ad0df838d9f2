//go:build fleetgen

// Command fleetgen writes a synthetic fleet: go run -tags fleetgen
// ./internal/fleetgen/cmd -n 1000 -o /tmp/fleet (make fleet N=1000 OUT=/tmp/fleet);
// -hub [-acm] writes stores installed from a hub (and delivering day 2
// through it).
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/siteforge/siteforge/internal/fleetgen"
)

func main() {
	n := flag.Int("n", 100, "number of sites")
	out := flag.String("o", "", "output directory (created)")
	hub := flag.Bool("hub", false, "stores installed from a hub (fleetgen.WriteHub)")
	acm := flag.Bool("acm", false, "with -hub: the stores deliver day 2 through the hub (delivery: acm: {})")
	flag.Parse()
	if *out == "" || *n < 1 {
		fmt.Fprintln(os.Stderr, "usage: fleetgen -n N -o DIR")
		os.Exit(2)
	}
	write := fleetgen.Write
	if *hub {
		write = func(dir string, n int) error { return fleetgen.WriteHub(dir, n, *acm) }
	}
	if err := write(*out, *n); err != nil {
		fmt.Fprintln(os.Stderr, "fleetgen:", err)
		os.Exit(1)
	}
	fmt.Printf("wrote %d sites to %s\n", *n, *out)
}
