# charter-lsp — build, test and try the language server.
GO       ?= go
BIN      := bin/charter-lsp
VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS  := -s -w -X main.version=$(VERSION)
PKGS     := ./...

.PHONY: all build test test-go lint bench demo fuzz clean

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
test: lint test-go

test-go:
	$(GO) test -race -count=1 $(PKGS)

## lint: gofmt and go vet must be clean
lint:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)

## bench: Go benchmarks with allocation counts
bench:
	$(GO) test -run '^$$' -bench . -benchmem $(PKGS)

## fuzz: longer fuzz runs of every parser (FUZZTIME per target)
FUZZTIME ?= 30s
fuzz:
	@for pkg in $$($(GO) list $(PKGS)); do \
	  for f in $$($(GO) test -list '^Fuzz' $$pkg 2>/dev/null | grep '^Fuzz'); do \
	    echo "== $$pkg $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
	  done; \
	done

clean:
	rm -rf bin

# --- editors (editors/Makefile): VS Code extension and real-editor end-to-end tests --------
.PHONY: vsix e2e e2e-node e2e-nvim e2e-vscode e2e-deps
## vsix: the VS Code extension with the linux-amd64 server inside (editors/vscode/charter-lsp.vsix)
## e2e: editor end-to-end tests: Node LSP client, headless Neovim, VS Code (code-server + Chromium)
vsix e2e e2e-node e2e-nvim e2e-vscode e2e-deps:
	$(MAKE) -C editors $@
