# charter-lsp — build, test and try the language server.
GO       ?= go
BIN      := bin/charter-lsp
VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS  := -s -w -X main.version=$(VERSION)
PKGS     := ./...

.PHONY: all build test heavy-deps test-go test-long lint bench demo fuzz fuzz-short soak release clean

all: build

## build: compile bin/charter-lsp
build:
	$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/charter-lsp

## demo: build, then run check, status and interview on the bundled examples
demo: build
	@echo '== charter-lsp check examples/ (text) ==================================='
	@$(BIN) check examples/ || true
	@echo
	@echo '== charter-lsp status examples/pi-project ================================'
	@$(BIN) status examples/pi-project || true
	@echo
	@echo '== charter-lsp interview examples/rp1/.rp1/context/charter.md ==========='
	@$(BIN) interview examples/rp1/.rp1/context/charter.md || true

## test: every test: gofmt, vet, every Go test with the race detector (fuzzing: make test-long)
## (2½ minutes on a 2-core machine with a warm build cache; see the README)
test: heavy-deps lint test-go

# heavy-deps: go.lsp.dev/protocol's generated code takes 0.5-0.6 GB to compile
# (plain, and again under -race), more than anything else in the build. On a
# fresh machine it is compiled first and alone, so that it never coincides with
# another compile or a running test binary; with a warm cache this is a no-op.
heavy-deps:
	$(GO) build go.lsp.dev/protocol
	$(GO) build -race go.lsp.dev/protocol

# TEST_P: packages whose tests run at once. Each race-built test binary takes
# 0.05-0.35 GB; two at a time keep a 2-core machine busy without swapping.
TEST_P ?= 2
# TEST_LDFLAGS: test binaries are linked without DWARF (-w): nothing reads it
# (stack traces and race reports come from the binary's own tables), and the
# link of each of some 40 test binaries takes half the time and less memory.
TEST_LDFLAGS ?= -w
# TEST_MEMLIMIT: a soft memory limit (GOMEMLIMIT) for every Go process of the
# race run. Under load a race-built test binary's heap outgrows what it keeps
# live (the lsp tests peaked at 430 MB, 270 MB with the limit), and two test
# binaries and a link run at once; the limit costs no measurable time.
TEST_MEMLIMIT ?= 256MiB
test-go:
	GOMEMLIMIT=$(TEST_MEMLIMIT) $(GO) test -race -count=1 -p $(TEST_P) -ldflags='$(TEST_LDFLAGS)' $(PKGS)

## test-long: the long tests (CHARTER_TEST_LONG=1: 10 MB documents, the 17 MB refusal) with
## every other test, without -race; then FUZZLONG inputs per fuzz target. CI runs it after make test.
test-long:
	CHARTER_TEST_LONG=1 $(GO) test -count=1 -p $(TEST_P) -ldflags='$(TEST_LDFLAGS)' $(PKGS)
	@$(call fuzz_each,$(FUZZLONG))

## lint: gofmt and go vet must be clean
lint:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)

## bench: Go benchmarks with allocation counts, then the targets table (docs/performance.md)
bench: bench-go bench-table

bench-go:
	$(GO) test -run '^$$' -bench . -benchmem $(PKGS)

## bench-table: the performance targets against the built binary, with
## the peers (npm ci into bench/peers/node_modules, gitignored), the floor and
## the BENCH_BEFORE commit ("" for none) measured in the same run; BENCH_ONLY
## picks sections (keystroke,targets,history,curve,cancel,scale; default all);
## BENCH_BEFORE_LARGE=false skips the BENCH_BEFORE commit on the long history
BENCH_EDITS      ?= 1000
BENCH_SOURCES    ?= 50000
BENCH_RUNS       ?= 100000
BENCH_NODE_EDITS ?= 200
BENCH_NODE_ROUNDS ?= 3
BENCH_BEFORE     ?= baf3230
BENCH_ONLY       ?=
BENCH_BEFORE_LARGE ?= true
bench-table: build
	$(GO) run ./bench/cmd/lspbench -bin $(BIN) -peers bench/peers -edits $(BENCH_EDITS) -sources $(BENCH_SOURCES) \
	  -runs $(BENCH_RUNS) -node-edits $(BENCH_NODE_EDITS) -node-rounds $(BENCH_NODE_ROUNDS) -before '$(BENCH_BEFORE)' -only '$(BENCH_ONLY)' \
	  -before-large=$(BENCH_BEFORE_LARGE)

## fuzz: longer fuzz runs of every fuzz target (FUZZTIME per target)
## fuzz-short: every fuzz target for FUZZSHORT inputs (a quick look before a commit; make test-long runs FUZZLONG inputs)
FUZZTIME  ?= 30s
# Counts, not durations: with a duration, Go before 1.27 can fail a target with
# "context deadline exceeded" when -fuzztime runs out while a worker is busy
# (go.dev/issue/75804), which a loaded machine makes likely; a count just
# takes longer there.
FUZZSHORT ?= 500x
FUZZLONG  ?= 10000x
# Every func FuzzXxx in a _test.go file, one at a time (a fuzz run takes one
# target). Each package's fuzz-instrumented test binary is built once and run
# per target, in the package's folder and with go test's corpus cache: new
# corpus entries stay in the build cache, a failing input is written to the
# package's testdata/fuzz/. The binaries are built one package at a time (-p 1):
# with fuzz instrumentation go.lsp.dev/protocol is a third 0.6 GB compile.
fuzz_each = set -e; cache=$$($(GO) env GOCACHE)/fuzz; bins=$$(mktemp -d); trap 'rm -rf "$$bins"' EXIT; \
	for dir in $$(grep -rl --include='*_test.go' '^func Fuzz' . | xargs -n1 dirname | sort -u); do \
	  pkg=$$($(GO) list $$dir); bin=$$bins/$$(echo $$dir | tr ./ __).test; \
	  $(GO) test -c -p 1 -fuzz '^Fuzz' -ldflags='$(TEST_LDFLAGS)' -o $$bin $$dir; \
	  for f in $$(sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*/\1/p' $$dir/*_test.go); do \
	    echo "== $$dir $$f ($(1))"; \
	    out=$$(cd $$dir && $$bin -test.run '^$$' -test.fuzz "^$$f$$" -test.fuzztime $(1) \
	      -test.fuzzcachedir $$cache/$$pkg 2>&1) || { echo "$$out"; exit 1; }; \
	  done; \
	done

fuzz:
	@$(call fuzz_each,$(FUZZTIME))

fuzz-short:
	@$(call fuzz_each,$(FUZZSHORT))

## soak: drive the built binary with random edits and requests for
## SOAK_DURATION (default 10m); reports RSS, latency percentiles, errors
soak: build
	$(GO) run ./cmd/soak -bin $(BIN)

## release: dist/ with charter-lsp for each RELEASE_PLATFORMS (an archive with the
## binary, LICENSE, README.md, the man page and the shell completions), a
## platform-specific .vsix for each, SHA256SUMS;
## needs npm (Node.js 20) besides Go, to pack the .vsix files with vsce, and zip
RELEASE_PLATFORMS := linux-amd64 linux-arm64 darwin-amd64 darwin-arm64 windows-amd64 windows-arm64
DIST := dist
NPM  ?= npm
release:
	@command -v $(NPM) >/dev/null 2>&1 || { echo "make release needs npm (Node.js 20) to pack the VS Code extension (.vsix) with vsce; install it, or build the binaries alone with make build" >&2; exit 2; }
	@command -v zip >/dev/null 2>&1 || { echo "make release needs zip for the windows archives" >&2; exit 2; }
	rm -rf $(DIST) && mkdir -p $(DIST)
	@set -e; for p in $(RELEASE_PLATFORMS); do \
	  os=$${p%-*}; arch=$${p#*-}; exe=charter-lsp; [ $$os = windows ] && exe=charter-lsp.exe; \
	  name=charter-lsp_$(VERSION)_$${os}_$${arch}; stage=$(DIST)/.stage/$$name; \
	  target=$$(echo $$p | sed 's/^windows-/win32-/; s/amd64$$/x64/'); \
	  echo "== $$name"; mkdir -p $$stage; \
	  CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $$stage/$$exe ./cmd/charter-lsp; \
	  cp LICENSE README.md docs/charter-lsp.1 $$stage/ && cp -R docs/completion $$stage/; \
	  if [ $$os = windows ]; then (cd $(DIST)/.stage && zip -qrX ../$$name.zip $$name); \
	  else tar -C $(DIST)/.stage --owner=0 --group=0 --numeric-owner -czf $(DIST)/$$name.tar.gz $$name; fi; \
	  $(MAKE) --no-print-directory -C editors/vscode vsix-target VERSION=$(VERSION) TARGET=$$target \
	    SERVER_BIN=$(CURDIR)/$$stage/$$exe OUT=$(CURDIR)/$(DIST)/charter-lsp-$$target-$(VERSION).vsix; \
	done
	rm -rf $(DIST)/.stage
	cd $(DIST) && sha256sum -- *.tar.gz *.zip *.vsix > SHA256SUMS
	@echo; ls -l $(DIST)

clean:
	rm -rf bin $(DIST)

# --- editors (editors/Makefile): VS Code extension and real-editor end-to-end tests --------
.PHONY: vsix e2e e2e-node e2e-nvim e2e-vscode e2e-deps
## vsix: the VS Code extension with the linux-amd64 server inside (editors/vscode/charter-lsp.vsix)
## e2e: editor end-to-end tests: Node LSP client, headless Neovim, VS Code (code-server + Chromium)
vsix e2e e2e-node e2e-nvim e2e-vscode e2e-deps:
	$(MAKE) -C editors $@
