package lsp_test

import (
	"bytes"
	"context"
	"io"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/charter-lsp/charter-lsp/internal/testfixture"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// The built binary speaks LSP on stdio: initialize → open → change →
// shutdown → exit 0, and exit without shutdown gives 1.
func TestBinaryOverStdio(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := testfixture.Server(t)

	for _, tt := range []struct {
		name     string
		shutdown bool
		want     int
	}{{"shutdown then exit", true, 0}, {"exit only", false, 1}} {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			ctx, cancel := context.WithTimeout(context.Background(), testfixture.Timeout(20*time.Second))
			defer cancel()
			cmd := exec.CommandContext(ctx, bin, "serve", "--stdio", "--log-level", "debug")
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}

			conn := jsonrpc2.NewConn(jsonrpc2.NewStream(pipe{stdout, stdin}), jsonrpc2.WithCodec(testCodec{}))
			published := make(chan protocol.PublishDiagnosticsParams, 16)
			conn.Go(ctx, func(ctx context.Context, req *jsonrpc2.Request) (any, error) {
				if req.Method() == protocol.MethodTextDocumentPublishDiagnostics {
					var p protocol.PublishDiagnosticsParams
					if err := protocol.Unmarshal(req.Params(), &p); err == nil {
						published <- p
					}
					return nil, nil
				}
				return jsonrpc2.MethodNotFoundHandler(ctx, req)
			})
			server := protocol.ServerDispatcher(conn)

			params := &protocol.InitializeParams{InitializationOptions: []byte(`{"debounceMs":0}`)}
			params.WorkspaceFolders = protocol.NewNullable([]protocol.WorkspaceFolder{{URI: uri.File(root), Name: "root"}})
			res, err := server.Initialize(ctx, params)
			if err != nil {
				t.Fatalf("initialize: %v\n%s", err, stderr.String())
			}
			if res.ServerInfo.Name != "charter-lsp" {
				t.Errorf("serverInfo = %+v", res.ServerInfo)
			}
			if err := server.Initialized(ctx, &protocol.InitializedParams{}); err != nil {
				t.Fatal(err)
			}
			u := uri.File(filepath.Join(root, "charter.md"))
			if err := server.DidOpen(ctx, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
				URI: u, LanguageID: "markdown", Version: 1, Text: "# Project Charter: Demo\n",
			}}); err != nil {
				t.Fatal(err)
			}
			if err := server.DidChange(ctx, &protocol.DidChangeTextDocumentParams{
				TextDocument: protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: u}, Version: 2},
				ContentChanges: []protocol.TextDocumentContentChangeEvent{&protocol.TextDocumentContentChangePartial{
					Range: protocol.Range{Start: protocol.Position{Line: 1}, End: protocol.Position{Line: 1}},
					Text:  "\n## Problem & Context\n\nPlants die.\n",
				}},
			}); err != nil {
				t.Fatal(err)
			}
			// The document is checked: a publish for version 1 or 2 arrives.
			select {
			case p := <-published:
				if p.URI != u {
					t.Errorf("publish for %s, want %s", p.URI, u)
				}
			case <-ctx.Done():
				t.Fatalf("no diagnostics published\n%s", stderr.String())
			}
			if tt.shutdown {
				if err := server.Shutdown(ctx); err != nil {
					t.Fatalf("shutdown: %v", err)
				}
			}
			if err := server.Exit(ctx); err != nil {
				t.Fatal(err)
			}
			err = cmd.Wait()
			code := cmd.ProcessState.ExitCode()
			if code != tt.want {
				t.Errorf("exit code %d (%v), want %d\nstderr:\n%s", code, err, tt.want, stderr.String())
			}
			_ = conn.Close()
		})
	}
}

type pipe struct {
	io.ReadCloser
	w io.WriteCloser
}

func (p pipe) Write(b []byte) (int, error) { return p.w.Write(b) }
func (p pipe) Close() error {
	_ = p.w.Close()
	return p.ReadCloser.Close()
}

type testCodec struct{}

func (testCodec) Marshal(v any) ([]byte, error) { return protocol.Marshal(v) }
func (testCodec) Unmarshal(data []byte, v any) error {
	if p, ok := v.(*jsonrpc2.RawMessage); ok {
		*p = append(jsonrpc2.RawMessage(nil), data...)
		return nil
	}
	return protocol.Unmarshal(data, v)
}
