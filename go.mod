module github.com/charter-lsp/charter-lsp

go 1.26

require (
	github.com/aymanbagabas/go-udiff v0.4.1
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.2
	github.com/tailscale/hujson v0.0.0-20260727124030-b80ff77dac4f
	github.com/yuin/goldmark v1.8.7
	go.lsp.dev/jsonrpc2 v1.0.1
	go.lsp.dev/protocol v1.0.1
	go.lsp.dev/uri v1.0.1
	go.uber.org/zap v1.28.0
	go.uber.org/zap/exp v0.3.0
	golang.org/x/sys v0.45.0
	golang.org/x/term v0.39.0
	golang.org/x/tools v0.45.0
)

require (
	github.com/go-json-experiment/json v0.0.0-20260623181947-01eb4420fa68 // indirect
	go.uber.org/multierr v1.11.0 // indirect
	golang.org/x/text v0.36.0 // indirect
)
