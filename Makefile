# siteforge: `make help` lists the targets. CI runs `make test`.
SHELL := /bin/bash
GO ?= go
BIN := $(CURDIR)/bin
# One set of build flags for every go command make runs, the ones `make
# release` builds with: CGO_ENABLED=0 (no package of the module or of its
# dependencies needs cgo; the release binaries are static) and -trimpath.
# cmd/go keys each compiled package by its flags, its cgo setting and,
# without -trimpath, its folder (cmd/go/internal/work/exec.go,
# buildActionID): with one set, each dependency is compiled once and
# shared by go vet, the tests, the e2e tests' builds of siteforge (from the
# checkout, from copies of it at other paths, from pre-commit's GOPATH and
# from `go install ...@version`'s module cache) and the release test. With
# two sets, a clean clone compiled the module's whole dependency graph a
# second time for the release test alone (110 s of CPU). The race run
# alone needs cgo (-race requires it); it is a separate build anyway.
export CGO_ENABLED := 0
export GOFLAGS := $(strip $(filter-out -trimpath,$(GOFLAGS)) -trimpath)
# Short fuzz run per target inside `make test`; `make fuzz` runs longer.
# The seed corpora (f.Add and testdata/fuzz) already run as ordinary tests in
# `make unit`; fuzz-short adds 1000 coverage-guided executions per target.
# Where a clean clone's `make test` spends its CPU, user+sys of each go
# command, empty build and module caches, 2 cores, 2026-12-06 (before the
# steps below): go vet 206 s (it downloads the modules and compiles every
# dependency, which the tests then reuse), the pinned tools 72 s, the tests
# 408 s (110 s of it the release test compiling everything again without
# cgo and with -trimpath), the race tests 152 s, fuzz-short 279 s (go test
# -fuzz instruments every package it links, the dependencies too, so each
# fuzz binary compiled its dependency graph a third time: FuzzLoadCUE's
# 126 s, FuzzBuild's 75 s): 1130 s in all, about 10 min of wall time.
# Since then: every build shares one set of flags (above), fuzz-short
# instruments the module's own packages only, make test runs race-short
# (the concurrency primitives' packages; `make race` runs the CLI's tests
# too), the CUE tool is built from this module's CUE packages, the unit
# tests no longer wait for a job slot (unit, below), and the e2e tests that
# build or run pre-commit overlap: 592 s of CPU, 5 min 20 s of wall time
# (go vet 111 s beside go mod tidy -diff, the tools 34 s, then the tests,
# race-short and fuzz-short side by side 171 s, the corpus).
FUZZ_SHORT ?= 1000x
FUZZTIME ?= 30s
# Real clients the end-to-end tests drive, pinned, installed into ./bin.
KUSTOMIZE_VERSION := v5.8.1
KUSTOMIZE := $(BIN)/kustomize-$(KUSTOMIZE_VERSION)
# The last kustomize BELOW the documented minimum (v5.7.0, docs/integrations.md):
# e2e runs it to confirm it refuses the function annotation's exec.args.
KUSTOMIZE_BELOW_MIN_VERSION := v5.6.0
KUSTOMIZE_BELOW_MIN := $(BIN)/kustomize-$(KUSTOMIZE_BELOW_MIN_VERSION)
# The CUE tool, for the e2e test of the README's `cue vet` recipes: the
# command of the cuelang.org/go module siteforge uses, at the version go.mod
# requires, built in this module (its packages are siteforge's own CUE
# packages, already compiled; `go install cuelang.org/go/cmd/cue@version`
# compiled them again with its own dependency versions: 30 s of CPU).
CUE_VERSION := $(shell sed -n 's/^[[:space:]]*cuelang\.org\/go \(v[^ ]*\).*/\1/p' go.mod)
CUE := $(BIN)/cue-$(CUE_VERSION)
# Microsoft's SARIF multitool (npm package, a self-contained Linux binary):
# the e2e test validates siteforge's SARIF with it (schema and SARIF rules).
SARIF_MULTITOOL_VERSION := 5.7.0
SARIF_MULTITOOL_DIR := $(BIN)/sarif-multitool-$(SARIF_MULTITOOL_VERSION)
SARIF_MULTITOOL := $(SARIF_MULTITOOL_DIR)/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool
# package:FuzzTarget, every fuzz target of the module.
FUZZ_TARGETS := \
	./internal/load:FuzzLoadCUE \
	./internal/load:FuzzLoadYAML \
	./internal/load:FuzzLoadJSON \
	./internal/registries:FuzzRender \
	./internal/manifests:FuzzReadBytes \
	./internal/diag:FuzzFormat \
	./internal/diag:FuzzClean \
	./cmd/siteforge/internal/cli:FuzzImpactOutput \
	./internal/butane:FuzzBuild \
	./lint/rules:FuzzParseRegistriesConf \
	./lint/rules:FuzzLintManifests \
	./internal/discover:FuzzIgnore

.PHONY: help build test unit race race-short vet-go tidy-check gofmt-check tools pre-commit node-tools sarif-multitool fuzz-short fuzz golden vet fleet bench bench-acm bench-mustgather corpus man shared-data-warnings

help: ## list the targets
	@grep -hE '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-12s %s\n", $$1, $$2}'

# -buildvcs=auto: stamp the commit (siteforge version) where the go command
# can, whatever GOFLAGS says (a flag on the command line wins over GOFLAGS,
# and CI images often set GOFLAGS=-buildvcs=false); auto, not true, so a
# build from a tarball or a linked git worktree (golang/go#58218) still
# builds, and `siteforge version` says it carries no VCS information.
BUILDVCS := -buildvcs=auto
build: ## build bin/siteforge (stamped with the commit of a clone)
	$(GO) build $(BUILDVCS) -o $(BIN)/siteforge ./cmd/siteforge

# Man pages, one per command, from the cobra command tree (cobra/doc), into
# bin/man (not committed); SOURCE_DATE_EPOCH fixes the date in them.
man: ## write the man pages to bin/man (man -l bin/man/siteforge.1)
	$(GO) run -tags mangen ./cmd/siteforge/internal/mangen -o $(BIN)/man

# internal/_fidelity, the validation harness the tests import, sits in a
# folder the go command leaves out of ./... (a leading underscore): the
# pre-commit golang hook's `go install ./...` does not build it, and
# `go install .../cmd/siteforge@version` needs no replace directive. Every
# target that walks ./... names it too.
FIDELITY := ./internal/_fidelity
vet: vet-go tidy-check gofmt-check ## go vet and gofmt check, go.mod tidy (make -j runs the three side by side)

vet-go:
	$(GO) vet ./... $(FIDELITY)

# go mod tidy -diff reads the module graph with the tests of the
# dependencies (downloading what it lacks) and compiles nothing: beside go
# vet it takes no CPU from it.
tidy-check:
	$(GO) mod tidy -diff

gofmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

# go test's own vet pass (a subset of go vet's analyzers, over the same
# packages and their tests) type-checks every package again: `make test`
# runs the whole go vet first, so its go test runs skip that pass
# (TESTFLAGS=-vet=off). `make unit` alone keeps it.
TESTFLAGS ?=
# Test binaries link without DWARF (-w): linking the ~60 test binaries of
# the module, hundreds of packages each, is a large part of a run's CPU,
# and DWARF is about 40% of a link (cli.test: 4.0 s CPU against 2.4 s).
# Panics, stack traces and profiles use the symbol table, which stays.
TEST_LDFLAGS ?= -ldflags=-w
# Under make test the tools are made before the tests (IN_TEST), not as a
# prerequisite of unit inside its make -j: there the prerequisites' recipes
# (pre-commit, node-tools, sarif-multitool) held job slots, and unit started
# only when the race or fuzz run ended (GNU make 4.3; 49 to 153 s of a
# clean clone's run).
unit: $(if $(IN_TEST),,tools) ## go test ./... (no fuzzing)
	KUSTOMIZE=$(KUSTOMIZE) KUSTOMIZE_BELOW_MIN=$(KUSTOMIZE_BELOW_MIN) SARIF_MULTITOOL=$(SARIF_MULTITOOL) CUE=$(CUE) $(GO) test $(TESTFLAGS) $(TEST_LDFLAGS) -count=1 ./... $(FIDELITY)
	@if [ -z "$(IN_TEST)" ]; then $(MAKE) --no-print-directory shared-data-warnings; fi

# The tests that read ../shared/upstream skip when it is absent, and a skip
# inside go test is invisible without -v: this banner, at the end of unit
# (or, under make test, at the very end, after the corpus), names every
# missing part and what did not run.
shared-data-warnings:
	@missing=0; \
	warn() { echo "************************************************************************"; \
		for l in "$$@"; do echo "* $$l"; done; missing=1; }; \
	if [ ! -f "$(UPSTREAM_SITECONFIG)/siteconfig.open-cluster-management.io_clusterinstances.yaml" ]; then \
		warn "WARNING: $(UPSTREAM_SITECONFIG) is not here: rendered ClusterInstances" \
		     "were NOT validated against the siteconfig CRD, and the upstream" \
		     "ClusterInstance samples were NOT read (those tests SKIPPED)."; \
	fi; \
	if [ ! -d "$(UPSTREAM_ZTP)/siteconfig-converter/samples" ] || [ ! -d "$(UPSTREAM_ZTP)/example" ] || [ ! -d "$(UPSTREAM_ZTP)/ran-crd" ]; then \
		warn "WARNING: $(UPSTREAM_ZTP) is not here (or not whole): the import of the" \
		     "ZTP SiteConfigs and the converter's samples (against the converter's" \
		     "convert_test.go expectations), the SiteConfig conversion and the lint" \
		     "of the ZTP example tree (PolicyGenerator, PolicyGenTemplate) were NOT" \
		     "checked (those tests SKIPPED)."; \
	fi; \
	if [ ! -d "$(UPSTREAM_ACM)/crds" ] || [ ! -d "$(UPSTREAM_ACM)/policy-generator" ]; then \
		warn "WARNING: $(UPSTREAM_ACM) is not here (or not whole): rendered Policies," \
		     "Placements, PlacementBindings and ManagedClusterSetBindings were NOT" \
		     "validated against the ACM CRDs, and the policy ordering was NOT" \
		     "compared with the PolicyGenerator's (those tests SKIPPED)."; \
	fi; \
	if [ ! -d "$(UPSTREAM_INSIGHTS)/archive-sample" ]; then \
		warn "WARNING: $(UPSTREAM_INSIGHTS) is not here: the Insights operator's" \
		     "sample archive was NOT linted, planned or read as a running cluster" \
		     "(those tests SKIPPED)."; \
	fi; \
	if [ $$missing = 1 ]; then echo "************************************************************************"; fi

tools: $(KUSTOMIZE) $(KUSTOMIZE_BELOW_MIN) $(CUE) pre-commit node-tools sarif-multitool ## install the test clients (pinned kustomize and the one below the minimum into ./bin, pre-commit, shellcheck, systemd-analyze, curl, jq)

$(KUSTOMIZE):
	GOBIN=$(BIN)/.install $(GO) install sigs.k8s.io/kustomize/kustomize/v5@$(KUSTOMIZE_VERSION)
	mv $(BIN)/.install/kustomize $@

$(CUE):
	$(GO) build -o $(BIN)/.install-cue/cue cuelang.org/go/cmd/cue
	mv $(BIN)/.install-cue/cue $@

$(KUSTOMIZE_BELOW_MIN):
	GOBIN=$(BIN)/.install-below-min $(GO) install sigs.k8s.io/kustomize/kustomize/v5@$(KUSTOMIZE_BELOW_MIN_VERSION)
	mv $(BIN)/.install-below-min/kustomize $@

# The SARIF multitool through npm, pinned, into ./bin; without npm the SARIF
# validation test skips, and this says so loudly.
sarif-multitool:
	@if [ -x "$(SARIF_MULTITOOL)" ]; then exit 0; fi; \
	if command -v npm >/dev/null 2>&1 && \
	   npm install --prefix "$(SARIF_MULTITOOL_DIR)" --no-audit --no-fund --loglevel=error @microsoft/sarif-multitool@$(SARIF_MULTITOOL_VERSION) >/dev/null && \
	   chmod u+x "$(SARIF_MULTITOOL)"; then exit 0; fi; \
	echo "************************************************************************"; \
	echo "* WARNING: the SARIF multitool could not be installed (npm): the SARIF *"; \
	echo "* 2.1.0 validation test will be SKIPPED.                               *"; \
	echo "************************************************************************"

# Debian's pre-commit for the e2e hook tests: installed when missing and we are
# root; otherwise those tests skip, and this says so loudly.
pre-commit:
	@if command -v pre-commit >/dev/null 2>&1; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "installing pre-commit (Debian package) for the e2e tests"; \
		export DEBIAN_FRONTEND=noninteractive; \
		apt-get install -y -q pre-commit >/dev/null 2>&1 || \
		{ apt-get update -q >/dev/null 2>&1 && apt-get install -y -q pre-commit >/dev/null 2>&1; } || true; \
	fi; \
	if ! command -v pre-commit >/dev/null 2>&1; then \
		echo "************************************************************************"; \
		echo "* WARNING: pre-commit is not installed (apt-get install pre-commit as  *"; \
		echo "* root): the e2e pre-commit hook tests will be SKIPPED.                *"; \
		echo "************************************************************************"; \
	fi

# The tools the tests of the in-cluster cache's node script and units run
# (generators/mirroring TestInClusterCache*): shellcheck, systemd-analyze
# (Debian package systemd) and curl, and jq, which help examples pipe into
# (cli TestHelpExamplesRun), from Debian when missing and we are root;
# otherwise those tests skip, and this says so loudly.
NODE_TOOLS := shellcheck:shellcheck systemd-analyze:systemd curl:curl jq:jq
node-tools:
	@missing=; for t in $(NODE_TOOLS); do command -v $${t%%:*} >/dev/null 2>&1 || missing="$$missing $${t##*:}"; done; \
	if [ -z "$$missing" ]; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "installing$$missing (Debian packages) for the in-cluster cache script tests and the help examples"; \
		export DEBIAN_FRONTEND=noninteractive; \
		apt-get install -y -q $$missing >/dev/null 2>&1 || \
		{ apt-get update -q >/dev/null 2>&1 && apt-get install -y -q $$missing >/dev/null 2>&1; } || true; \
	fi; \
	for t in $(NODE_TOOLS); do \
		if ! command -v $${t%%:*} >/dev/null 2>&1; then \
			echo "************************************************************************"; \
			echo "* WARNING: $${t%%:*} is not installed (apt-get install $${t##*:} as root):"; \
			echo "* the tests that run it (the in-cluster cache script, the help examples) will be SKIPPED."; \
			echo "************************************************************************"; \
		fi; \
	done


# test runs its parts in three steps: go vet (which compiles the module's
# dependencies) beside go mod tidy -diff and gofmt, then the pinned tools'
# installs (after vet: side by side, the installs compiled again what vet
# was compiling: 27 s more CPU); then the tests, the race tests and the
# fuzz targets side by side (make -j, each part's output printed whole
# when it ends): what they compile does not overlap (the dependencies come
# from vet's build; the module's packages plain, under -race, and
# coverage-instrumented for the fuzzer), so together they compile nothing
# twice and keep both cores busy while one of them runs tests; then the
# corpus.
TEST_JOBS ?= 3
test: ## what CI runs: vet, all tests, the concurrency primitives' tests under -race, a short run of every fuzz target, the real-world corpus
	@$(MAKE) --no-print-directory -j$(TEST_JOBS) --output-sync=target vet
	@$(MAKE) --no-print-directory tools
	@$(MAKE) --no-print-directory -j$(TEST_JOBS) --output-sync=target unit race-short fuzz-short TESTFLAGS=-vet=off IN_TEST=1
	@$(MAKE) --no-print-directory corpus
	@$(MAKE) --no-print-directory shared-data-warnings

# The real-world corpus (38 sets of manifests from public repositories, with
# what a correct linter reports for each): run when ../shared/corpus is
# present next to the checkout; skipped, loudly, when it is not.
CORPUS ?= $(CURDIR)/../shared/corpus
# The siteconfig operator's ClusterInstance CRD and samples (data the tests
# read when they are checked out beside the repository).
UPSTREAM_SITECONFIG ?= $(CURDIR)/../shared/upstream/siteconfig
# The ZTP example tree, the siteconfig-converter's samples and ZTP's CRDs
# (upstream/ztp), and the ACM CRDs and PolicyGenerator reference
# (upstream/acm): read by the import, lint and ACM delivery tests.
UPSTREAM_ZTP ?= $(CURDIR)/../shared/upstream/ztp
UPSTREAM_ACM ?= $(CURDIR)/../shared/upstream/acm
UPSTREAM_INSIGHTS ?= $(CURDIR)/../shared/upstream/insights
corpus: build ## lint the real-world corpus and compare with its expectations (when the corpus is checked out beside the repository)
	@if [ ! -x "$(CORPUS)/check" ]; then \
		echo "************************************************************************"; \
		echo "* WARNING: $(CORPUS) is not here: the real-world corpus check is SKIPPED"; \
		echo "************************************************************************"; \
	elif ! command -v python3 >/dev/null 2>&1; then \
		echo "************************************************************************"; \
		echo "* WARNING: python3 is not installed: the real-world corpus check is SKIPPED"; \
		echo "************************************************************************"; \
	else \
		"$(CORPUS)/check" $(BIN)/siteforge; \
	fi

# The tests of what runs concurrently (render workers and writers, panics
# in them, staging, aborts), again under the race detector. -race compiles
# every package a test links again, instrumented: for the CLI's tests that
# is the whole dependency graph (CUE, the Kubernetes and OpenShift API
# types, containers/image, Butane), 158 s of CPU on a clean clone, a fifth
# of make test's. make test runs race-short: the concurrency primitives the
# render pipeline is built on, in packages with light dependencies
# (guard: the worker group, abort, watchdog; output: staging, commit,
# concurrent writers; 45 s of CPU); `make race` runs the pipeline's own
# (the CLI's) under -race too. -race requires cgo.
RACE_TESTS := TestWorkerPanicExits2|TestGroup|TestAbort|TestWatchdog|TestCommit|TestKilled|TestRunning|TestConcurrent
RACE_SHORT_PACKAGES := ./cmd/siteforge/internal/guard ./internal/output
race_run = CGO_ENABLED=1 $(GO) test $(TESTFLAGS) $(TEST_LDFLAGS) -race -count=1 -run '$(RACE_TESTS)' $(1)
race: ## the concurrency tests under -race, the CLI's render and lint pipeline among them
	$(call race_run,./cmd/siteforge/internal/cli $(RACE_SHORT_PACKAGES))

race-short: ## the tests of the concurrency primitives (worker group, abort, watchdog, staging, writers) under -race
	$(call race_run,$(RACE_SHORT_PACKAGES))

# fuzz-short instruments the module's own packages for coverage, with the
# compiler flag go test -fuzz adds to every package it links (-d=libfuzzer:
# cmd/go/internal/test/test.go marks them FuzzInstrument,
# cmd/go/internal/work/init.go fuzzInstrumentFlags), and links them with
# the dependencies the unit tests compiled: the fuzzer is guided by the
# coverage of siteforge's code, and a clean clone does not compile the
# dependency graph a third time for it. `make fuzz` instruments every
# package, as go test -fuzz does.
fuzz-short:
	$(call fuzz_run,$(FUZZ_SHORT),-gcflags=$(MODULE)/...=-d=libfuzzer)

# Each package's fuzz-instrumented test binary is built once (go test -c
# -fuzz instruments what it links as go test -fuzz does) and runs each of
# the package's targets as go test -fuzz runs it: in the package's folder
# (its testdata/fuzz seeds, where a failing input is written) with go
# test's corpus cache, GOCACHE/fuzz/<import path>. One link per package,
# not per target: 9 links of these large binaries instead of 12.
# fuzz_run(time, instrument flags; empty: go test -fuzz's) is the recipe
# of fuzz and of fuzz-short.
MODULE := $(shell sed -n 's/^module //p' go.mod)
define fuzz_run
@set -e; bins=$$(mktemp -d); trap 'rm -rf "$$bins"' EXIT; \
cache=$$($(GO) env GOCACHE)/fuzz; built=; \
for t in $(FUZZ_TARGETS); do \
	pkg=$${t%%:*}; name=$${t##*:}; bin=$$bins/$$(echo "$${pkg#./}" | tr / _).test; \
	if [ "$$pkg" != "$$built" ]; then $(GO) test $(TESTFLAGS) $(TEST_LDFLAGS) -c -o "$$bin" $(or $(2),-fuzz "^$$name$$") $$pkg; built=$$pkg; fi; \
	echo "fuzz $$pkg $$name ($(1))"; \
	(cd "$$pkg" && "$$bin" -test.run '^$$' -test.fuzz "^$$name$$" -test.fuzztime $(1) \
		-test.fuzzcachedir "$$cache/$(MODULE)/$${pkg#./}" -test.paniconexit0); \
done
endef
fuzz: ## run every fuzz target for FUZZTIME (default 30s)
	$(call fuzz_run,$(FUZZTIME),)

N ?= 100
OUT ?= $(CURDIR)/out/fleet
fleet: ## write a synthetic fleet of N sites (default 100) to OUT
	$(GO) run -tags fleetgen ./internal/fleetgen/cmd -n $(N) -o $(OUT)

# Fleet sizes of make bench. (A default in $(or ...) would be cut at its
# first comma: make functions split arguments on commas.) The table's rows
# are issue 18's, each with its target; the tmpfs rows write to
# BENCH_TMPFS, the disk rows (render against cp -r of the same output) to
# BENCH_DISK, which must be on disk. BENCH_SRC, a checkout (this one): the
# last three rows time its cold `go install ./...` (pre-commit's first
# install; modules from GOPROXY) and `make test` in a clean clone of it,
# with warm caches and with cold ones (empty build and module caches, the
# tools installed), which take minutes; BENCH_SRC= leaves them out. BENCH_MG is the size in
# MiB of the synthetic must-gather lint and mtu read (issue 29's rows, each
# marked when over 2 s or 256 MiB; written in BENCH_DISK, about half a
# minute for 2048; 0 leaves the rows out).
SIZES ?= 100,1000,3500
BENCH_TMPFS ?= /dev/shm
BENCH_DISK ?= $(BIN)
BENCH_SRC ?= $(CURDIR)
BENCH_MG ?= 2048
bench: build ## Go benchmarks, then issue 18's table with targets (make bench SIZES=100,1000,3500 BENCH_SRC= BENCH_MG=2048)
	$(GO) test -run '^$$' -bench . -benchmem -benchtime 20x ./internal/load ./generators/... ./internal/registries ./lint/... ./internal/output
	$(GO) test -tags bench ./internal/bench
	$(GO) run -tags bench ./internal/bench -bin $(BIN)/siteforge -sizes $(SIZES) -tmpfs $(BENCH_TMPFS) -disk $(BENCH_DISK) -src '$(BENCH_SRC)' -mustgather-mib $(BENCH_MG)

bench-mustgather: build ## only the rows of lint and mtu of a synthetic must-gather of BENCH_MG MiB
	$(GO) test -tags bench ./internal/bench
	$(GO) run -tags bench ./internal/bench -bin $(BIN)/siteforge -sizes '' -tmpfs $(BENCH_TMPFS) -disk $(BENCH_DISK) -mustgather-mib $(BENCH_MG) -mustgather-only

bench-acm: build ## only the rows of day-2 delivery through the hub (delivery.acm) at SIZES
	$(GO) run -tags bench ./internal/bench -bin $(BIN)/siteforge -sizes $(SIZES) -tmpfs $(BENCH_TMPFS) -disk $(BENCH_DISK) -acm-only

golden: ## rewrite golden files and test expectations (review the diff!)
	UPDATE_GOLDEN=1 $(GO) test -count=1 ./...

# Release files (internal/release): a -trimpath, reproducible binary per
# platform (CGO_ENABLED=0: static on linux) with the version the go command
# stamps from git (the tag at HEAD, else a pseudo-version), stamped into the
# CLI's link-time version too (a linked git worktree needs it: the go command
# stamps nothing there, golang/go#58218); a CycloneDX SBOM of each from the
# module graph recorded in it; SHA256SUMS (`cd dist && sha256sum -c
# SHA256SUMS`); the image from ./Containerfile with podman or buildah
# (SKIPPED, loudly, without them). RELEASE_ARGS=-n lists the files without
# building.
RELEASE_DIR ?= $(CURDIR)/dist
RELEASE_PLATFORMS ?= linux/amd64 linux/arm64 darwin/amd64 darwin/arm64
RELEASE_ARGS ?=
.PHONY: release
release: ## binaries for linux and darwin (amd64, arm64), their SBOMs, SHA256SUMS and the image into RELEASE_DIR (dist/)
	$(GO) run -tags release ./internal/release -o $(RELEASE_DIR) $(RELEASE_ARGS) $(RELEASE_PLATFORMS)
