# ptyseam: make demo runs the end-to-end demo, make test runs every test.
GO       ?= go
# RELEASED are the modules published to importers (see docs/releasing.md).
RELEASED := internal core ptysession testharness consumers/gdbmi consumers/ssh consumers/docker consumers/k8s consumers/jobs screen sandbox remote cmd/ptyseam
MODULES  := $(RELEASED) hardening bench tools/releasecheck
PKGS     := $(addprefix ./,$(addsuffix /...,$(MODULES)))
# WINDOWS are the modules that build for Windows (docs/jobs.md, Windows).
WINDOWS  := internal core ptysession consumers/jobs cmd/ptyseam
WINPKGS  := $(addprefix ./,$(addsuffix /...,$(WINDOWS)))
TESTFLAGS ?= -race -count=1 -timeout 25m
FUZZTIME ?= 10s
N        ?= 5
K        ?= 2

.PHONY: all demo test test-k8s test-windows test-loaded deps lint vet fmt bench fuzz soak cross release-check tidy

all: lint test

## demo: build and run the end-to-end demo (a minute, no network needed)
demo:
	$(GO) run ./cmd/ptyseam demo

## deps: install what the tests need (Debian packages as root, npm client)
deps:
	bash scripts/deps.sh

## test: install missing dependencies, check the modules can be released, run every module's tests with -race, then the Windows test binaries under Wine
test: deps release-check
	TESTFLAGS="$(TESTFLAGS)" WINDOWS_MODULES="$(WINDOWS)" bash scripts/test.sh $(MODULES)
	bash scripts/wine-test.sh

## test-k8s: only the Kubernetes backend's tests, on a private one-node cluster (make test runs them too; the first run builds kube-apiserver and kubelet, 10-25 min)
test-k8s: deps
	cd consumers/k8s && $(GO) test $(TESTFLAGS) ./...

## test-windows: the Windows test binaries of the jobs layer and the ConPTY backend under Wine (scripts/wine-test.sh)
test-windows: deps
	bash scripts/wine-test.sh

## test-loaded: the suite of make test N times (default 5) beside K busy loops (default 2); lists each failing test with its package and run
test-loaded: deps
	N="$(N)" K="$(K)" TESTFLAGS="$(TESTFLAGS)" bash scripts/test-loaded.sh $(MODULES)

## lint: gofmt, go vet, and the darwin and windows cross-compiles
lint: vet cross
	@out=$$(gofmt -l $(MODULES)); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet $(PKGS)

cross:
	GOOS=darwin GOARCH=arm64 $(GO) build $(PKGS)
	GOOS=darwin GOARCH=arm64 $(GO) vet $(PKGS)
	GOOS=windows GOARCH=amd64 $(GO) build $(WINPKGS)

fmt:
	gofmt -w $(MODULES)

## bench: install missing dependencies, run the benchmarks and print the table with each row's spread; fails on a missing row (docs/performance.md)
bench: deps
	bash scripts/bench.sh

## fuzz: run every fuzz target for FUZZTIME each
fuzz:
	bash scripts/fuzz.sh $(FUZZTIME)

## soak: the long reliability runs
soak:
	PTYSEAM_SOAK=1 $(GO) test -race -count=1 -timeout 60m -run 'Soak|Stress|Orphan' $(PKGS)

## release-check: every published module zips, is tidy, builds outside the workspace and installs from a file-system proxy
release-check:
	$(GO) run ./tools/releasecheck $(RELEASED)

## tidy: go mod tidy in every published module against its siblings as they are now (go get and go mod tidy cannot resolve unpublished sibling versions in the workspace)
tidy:
	$(GO) run ./tools/releasecheck -tidy $(RELEASED)

print-released:
	@echo $(RELEASED)
