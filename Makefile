# charter-lsp — build, test and try the language server.
GO       ?= go
BIN      := bin/charter-lsp
VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS  := -s -w -X main.version=$(VERSION)
PKGS     := ./...

.PHONY: all build test test-go lint bench demo fuzz fuzz-short soak clean

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

## test: every test: gofmt, vet, Go tests with the race detector, short fuzz runs
test: lint test-go fuzz-short

test-go:
	$(GO) test -race -count=1 $(PKGS)

## lint: gofmt and go vet must be clean
lint:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)

## bench: Go benchmarks with allocation counts, then the targets table (issue 8)
bench: bench-go bench-table

bench-go:
	$(GO) test -run '^$$' -bench . -benchmem $(PKGS)

## bench-table: the issue-8 and issue-15 targets against the built binary, with
## the peers (npm ci into bench/peers/node_modules, gitignored), the floor and
## the BENCH_BEFORE commit ("" for none) measured in the same run; BENCH_ONLY
## picks sections (keystroke,targets,history,curve,cancel; default all)
BENCH_EDITS      ?= 1000
BENCH_SOURCES    ?= 50000
BENCH_RUNS       ?= 100000
BENCH_NODE_EDITS ?= 200
BENCH_BEFORE     ?= 8b5bfb2
BENCH_ONLY       ?=
bench-table: build
	$(GO) run ./bench/cmd/lspbench -bin $(BIN) -peers bench/peers -edits $(BENCH_EDITS) -sources $(BENCH_SOURCES) \
	  -runs $(BENCH_RUNS) -node-edits $(BENCH_NODE_EDITS) -before '$(BENCH_BEFORE)' -only '$(BENCH_ONLY)'

## fuzz: longer fuzz runs of every fuzz target (FUZZTIME per target)
## fuzz-short: every fuzz target for FUZZSHORT (part of make test)
FUZZTIME  ?= 30s
FUZZSHORT ?= 2s
# Every func FuzzXxx in a _test.go file, run one at a time (go test -fuzz
# takes one target in one package). New corpus entries stay in the build
# cache; a failing input is written to the package's testdata/fuzz/.
fuzz_each = set -e; \
	for file in $$(grep -rl --include='*_test.go' '^func Fuzz' . | sort); do \
	  for f in $$(sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*/\1/p' $$file); do \
	    echo "== $$(dirname $$file) $$f ($(1))"; \
	    out=$$($(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(1) ./$$(dirname $$file) 2>&1) || \
	      { echo "$$out"; exit 1; }; \
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

clean:
	rm -rf bin

# --- editors (editors/Makefile): VS Code extension and real-editor end-to-end tests --------
.PHONY: vsix e2e e2e-node e2e-nvim e2e-vscode e2e-deps
## vsix: the VS Code extension with the linux-amd64 server inside (editors/vscode/charter-lsp.vsix)
## e2e: editor end-to-end tests: Node LSP client, headless Neovim, VS Code (code-server + Chromium)
vsix e2e e2e-node e2e-nvim e2e-vscode e2e-deps:
	$(MAKE) -C editors $@
