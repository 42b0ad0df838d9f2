// Package e2e holds siteforge's end-to-end tests: the integrations users wire
// up (the kustomize KRM function, the pre-commit hooks, the Argo CD plugin,
// the GitHub workflow), each driven through the real client.
//
// The tests build the siteforge binary from this tree and put it first on
// PATH. `make test` installs the pinned kustomize (KUSTOMIZE=path) and
// Debian's pre-commit; a test whose client is missing skips and says why.
//
// The tests that spend their time building siteforge or running pre-commit
// (the release, version, go install and pre-commit tests) call t.Parallel:
// each works in folders of its own (copies of the tree, its own
// PRE_COMMIT_HOME, GOBIN and output folders) and reads the checkout
// without writing into it, so they overlap with one another after the
// other tests, at most GOMAXPROCS at a time (go test -parallel). The tests
// that time or measure a process (the interrupt, kill and memory tests)
// stay sequential, alone but for the other packages' tests.
package e2e
