// Package e2e holds siteforge's end-to-end tests: the integrations users wire
// up (the kustomize KRM function, the pre-commit hooks, the Argo CD plugin,
// the GitHub workflow), each driven through the real client.
//
// The tests build the siteforge binary from this tree and put it first on
// PATH. `make test` installs the pinned kustomize (KUSTOMIZE=path) and
// Debian's pre-commit; a test whose client is missing skips and says why.
package e2e
