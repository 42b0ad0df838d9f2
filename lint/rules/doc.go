// Package rules is siteforge's lint rule catalog, one file per family (MTU,
// NET, MIR, ING, EGR, MCF, INS). The input (INP) and render warning (RND) rules are
// the engine's, in package lint. Every rule registers itself in init and has a
// failing and a passing case in the table test (rules_test.go).
package rules
