package lsp_test

import (
	"errors"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/charter-lsp/charter-lsp/analysis/ids"
	"github.com/charter-lsp/charter-lsp/lsp/lsptest"
)

func TestInitializeAnnouncesCapabilities(t *testing.T) {
	c := lsptest.Start(t, lsptest.Config{})
	caps := c.Result.Capabilities
	if caps.PositionEncoding != protocol.PositionEncodingKindUTF16 {
		t.Errorf("positionEncoding = %q, want utf-16", caps.PositionEncoding)
	}
	sync, ok := caps.TextDocumentSync.(*protocol.TextDocumentSyncOptions)
	if !ok || sync.Change == nil || *sync.Change != protocol.TextDocumentSyncKindIncremental || sync.OpenClose == nil || !*sync.OpenClose {
		t.Errorf("textDocumentSync = %#v, want open/close and incremental changes", caps.TextDocumentSync)
	}
	if _, ok := caps.DiagnosticProvider.(*protocol.DiagnosticOptions); !ok {
		t.Errorf("diagnosticProvider = %#v, want pull diagnostics", caps.DiagnosticProvider)
	}
	if c.Result.ServerInfo.Name != "charter-lsp" {
		t.Errorf("serverInfo.name = %q", c.Result.ServerInfo.Name)
	}
}

func TestInitializedRegistersFileWatchers(t *testing.T) {
	c := lsptest.Start(t, lsptest.Config{Settings: map[string]any{"sourceDirs": []string{"lib", "cmd"}}})
	regs := c.Registrations()
	if len(regs) != 1 || regs[0].Method != protocol.MethodWorkspaceDidChangeWatchedFiles {
		t.Fatalf("registrations = %+v, want one didChangeWatchedFiles", regs)
	}
	var opts struct {
		Watchers []struct {
			GlobPattern string `json:"globPattern"`
		} `json:"watchers"`
	}
	if err := protocol.Unmarshal(regs[0].RegisterOptions, &opts); err != nil {
		t.Fatal(err)
	}
	var globs []string
	for _, w := range opts.Watchers {
		globs = append(globs, w.GlobPattern)
	}
	want := "**/.pi/charters/** **/.charters/** **/charter.md **/.charter-lsp.json* **/lib/** **/cmd/** " + strings.Join(ids.TestGlobs(), " ") + " **/.git/index"
	if got := strings.Join(globs, " "); got != want {
		t.Errorf("globs = %s\nwant    %s", got, want)
	}

	// New source folders replace the registration.
	c.SetSettings(map[string]any{"sourceDirs": []string{"pkg"}})
	c.Sync()
	regs = c.Registrations()
	if len(regs) != 1 || !strings.Contains(string(regs[0].RegisterOptions), `"**/pkg/**"`) {
		t.Errorf("after a configuration change, registrations = %+v", regs)
	}
}

// A project file that names other source folders, changed on disk, makes
// the server watch them (registering waits on the client, so it runs
// behind the file change, which is handled in wire order).
func TestProjectFileChangeReregistersFileWatchers(t *testing.T) {
	c := lsptest.Start(t, lsptest.Config{})
	c.WriteFile(".charter-lsp.json", `{"sourceDirs": ["pkg"]}`)
	c.FilesChanged(protocol.FileChangeTypeCreated, ".charter-lsp.json")
	c.Sync()
	regs := c.Registrations()
	if len(regs) != 1 || !strings.Contains(string(regs[0].RegisterOptions), `"**/pkg/**"`) {
		t.Errorf("after the project file named pkg, registrations = %+v", regs)
	}
}

func TestNoDynamicRegistrationWithoutClientSupport(t *testing.T) {
	c := lsptest.Start(t, lsptest.Config{Capabilities: &protocol.ClientCapabilities{}})
	if regs := c.Registrations(); len(regs) != 0 {
		t.Errorf("registrations = %+v, want none", regs)
	}
	if n := c.ConfigurationRequests(); n != 0 {
		t.Errorf("workspace/configuration asked %d times of a client without support", n)
	}
}

func TestExitCodes(t *testing.T) {
	t.Run("shutdown then exit", func(t *testing.T) {
		c := lsptest.Start(t, lsptest.Config{})
		if code := c.Shutdown(); code != 0 {
			t.Errorf("exit code = %d, want 0", code)
		}
	})
	t.Run("exit without shutdown", func(t *testing.T) {
		c := lsptest.Start(t, lsptest.Config{})
		if code := c.Exit(); code != 1 {
			t.Errorf("exit code = %d, want 1", code)
		}
	})
}

func TestRequestsAfterShutdownAreRefused(t *testing.T) {
	c := lsptest.Start(t, lsptest.Config{})
	if err := c.Server.Shutdown(t.Context()); err != nil {
		t.Fatal(err)
	}
	_, err := c.Server.Diagnostic(t.Context(), &protocol.DocumentDiagnosticParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.URI("charter.md")}})
	var rpcErr *jsonrpc2.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc2.InvalidRequest {
		t.Errorf("request after shutdown: err = %v, want InvalidRequest", err)
	}
	if code := c.Exit(); code != 0 {
		t.Errorf("exit code = %d, want 0", code)
	}
}

func TestUnknownMessagesKeepTheConnection(t *testing.T) {
	c := lsptest.Start(t, lsptest.Config{InitializationOptions: map[string]any{"debounceMs": 0}})
	// An unknown notification must not tear the connection down.
	if err := c.Conn.Notify(t.Context(), "$/foo", map[string]any{"x": 1}); err != nil {
		t.Fatal(err)
	}
	if err := c.Conn.Notify(t.Context(), "charter/unknownNotification", nil); err != nil {
		t.Fatal(err)
	}
	// A request without params gets an error answer, not a dead connection.
	for _, method := range []string{"charter/noParams", "$/foo"} {
		_, err := c.Conn.Call(t.Context(), method, nil, nil)
		var rpcErr *jsonrpc2.Error
		if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc2.MethodNotFound {
			t.Errorf("%s without params: err = %v, want MethodNotFound", method, err)
		}
	}
	_, err := c.Conn.Call(t.Context(), "charter/unknown", map[string]any{"a": 1}, nil)
	var rpcErr *jsonrpc2.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc2.MethodNotFound {
		t.Errorf("unknown request: err = %v, want MethodNotFound", err)
	}
	// Still serving.
	u := c.Open(probeFile, probeHead+"TODO\n")
	c.WaitDiagnostics(u, 1)
	if code := c.Shutdown(); code != 0 {
		t.Errorf("exit code = %d, want 0", code)
	}
}
