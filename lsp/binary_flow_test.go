package lsp_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charter-lsp/charter-lsp/internal/testfixture"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// The protocol flow against the built binary over stdio: open a
// non-ASCII CRLF charter → exact diagnostics → edit → new version's
// diagnostics → hover → quick fix → its edit applied → diagnostics gone →
// an interview code action whose command sends workspace/applyEdit for the
// current version → shutdown → exit 0.
func TestBinaryProtocolFlow(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := testfixture.Server(t)
	root := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), testfixture.Timeout(20*time.Second))
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "serve")
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

	ed := &stdioEditor{published: map[int32][]protocol.Diagnostic{}}
	ed.cond = sync.NewCond(&ed.mu)
	conn := jsonrpc2.NewConn(jsonrpc2.NewStream(pipe{stdout, stdin}), jsonrpc2.WithCodec(testCodec{}))
	conn.Go(ctx, ed.handle)
	server := protocol.ServerDispatcher(conn)
	defer conn.Close()

	params := &protocol.InitializeParams{Capabilities: *editorCaps(), InitializationOptions: []byte(`{"debounceMs":0}`)}
	params.WorkspaceFolders = protocol.NewNullable([]protocol.WorkspaceFolder{{URI: uri.File(root), Name: "root"}})
	if _, err := server.Initialize(ctx, params); err != nil {
		t.Fatalf("initialize: %v\n%s", err, stderr.String())
	}
	if err := server.Initialized(ctx, &protocol.InitializedParams{}); err != nil {
		t.Fatal(err)
	}

	text := strings.ReplaceAll(readFixture(t, "cafe-charter.md"), "\n", "\r\n")
	path := filepath.Join(root, "charter.md")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	u := uri.File(path)
	doc := protocol.TextDocumentIdentifier{URI: u}
	if err := server.DidOpen(ctx, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: u, LanguageID: "markdown", Version: 1, Text: text,
	}}); err != nil {
		t.Fatal(err)
	}
	change := func(version int32, edits ...protocol.TextEdit) {
		t.Helper()
		var cs []protocol.TextDocumentContentChangeEvent
		for _, e := range edits {
			cs = append(cs, &protocol.TextDocumentContentChangePartial{Range: e.Range, Text: e.NewText})
		}
		if err := server.DidChange(ctx, &protocol.DidChangeTextDocumentParams{
			TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: doc, Version: version},
			ContentChanges: cs,
		}); err != nil {
			t.Fatal(err)
		}
	}

	heading := protocol.Range{Start: protocol.Position{Line: 14}, End: protocol.Position{Line: 14, Character: 21}}
	marker := protocol.Range{Start: protocol.Position{Line: 16, Character: 12}, End: protocol.Position{Line: 16, Character: 15}}
	ds := ed.wait(t, ctx, 1)
	if got := diagCodes(ds); len(got) != 1 || got[0] != "section-partial" || ds[0].Range != heading ||
		len(ds[0].RelatedInformation) != 1 || ds[0].RelatedInformation[0].Location.Range != marker {
		t.Fatalf("v1 diagnostics = %+v", ds)
	}

	change(2, protocol.TextEdit{Range: marker, NewText: "moins cher."})
	ds = ed.wait(t, ctx, 2)
	if got := diagCodes(ds); len(got) != 1 || ds[0].Range != heading || len(ds[0].RelatedInformation) != 0 {
		t.Fatalf("v2 diagnostics = %+v", ds)
	}

	h, err := server.Hover(ctx, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: doc, Position: protocol.Position{Line: 14, Character: 3},
	}})
	if err != nil || h == nil || !strings.Contains(h.Contents.(*protocol.MarkupContent).Value, "PARTIAL") {
		t.Fatalf("hover = %+v, %v", h, err)
	}

	actions, err := server.CodeAction(ctx, &protocol.CodeActionParams{TextDocument: doc, Range: heading,
		Context: protocol.CodeActionContext{Diagnostics: ds}})
	if err != nil {
		t.Fatal(err)
	}
	var fix, ask *protocol.CodeAction
	for _, a := range actions {
		ca := a.(*protocol.CodeAction)
		switch {
		case ca.Title == "Disable section-partial for this line":
			fix = ca
		case strings.HasPrefix(ca.Title, "Ask next interview question"):
			ask = ca
		}
	}
	if fix == nil || ask == nil {
		t.Fatalf("code actions = %+v", actions)
	}
	tde := fix.Edit.DocumentChanges[0].(*protocol.TextDocumentEdit)
	if v := tde.TextDocument.Version; v == nil || *v != 2 {
		t.Errorf("quick fix edit for version %v, want 2", v)
	}
	change(3, *tde.Edits[0].(*protocol.TextEdit))
	if ds := ed.wait(t, ctx, 3); len(ds) != 0 {
		t.Errorf("v3 diagnostics = %v, want none", diagCodes(ds))
	}

	// The interview action was offered for version 2: refused now.
	if _, err := server.ExecuteCommand(ctx, &protocol.ExecuteCommandParams{Command: ask.Command.Command, Arguments: ask.Command.Arguments}); err == nil ||
		!strings.Contains(err.Error(), "changed since") {
		t.Errorf("stale interview action: %v", err)
	}
	// Asked again for version 3, it edits version 3.
	actions, err = server.CodeAction(ctx, &protocol.CodeActionParams{TextDocument: doc})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range actions {
		if ca := a.(*protocol.CodeAction); strings.HasPrefix(ca.Title, "Ask next interview question") {
			ask = ca
		}
	}
	if _, err := server.ExecuteCommand(ctx, &protocol.ExecuteCommandParams{Command: ask.Command.Command, Arguments: ask.Command.Arguments}); err != nil {
		t.Fatalf("%s: %v", ask.Command.Command, err)
	}
	ed.mu.Lock()
	edits := ed.edits
	ed.mu.Unlock()
	if len(edits) != 1 {
		t.Fatalf("applyEdit requests: %d", len(edits))
	}
	got := edits[0].DocumentChanges[0].(*protocol.TextDocumentEdit)
	if v := got.TextDocument.Version; v == nil || *v != 3 || !strings.Contains(got.Edits[0].(*protocol.TextEdit).NewText, "### Q1: Value Proposition\r\n**Asked**: ") {
		t.Errorf("interview edit = %+v", got)
	}

	if err := server.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	if err := server.Exit(ctx); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != 0 {
		t.Errorf("exit code %d\n%s", code, stderr.String())
	}
}

// stdioEditor answers the binary's requests and records what it sends.
type stdioEditor struct {
	mu        sync.Mutex
	cond      *sync.Cond
	published map[int32][]protocol.Diagnostic
	edits     []protocol.WorkspaceEdit
}

func (e *stdioEditor) handle(ctx context.Context, req *jsonrpc2.Request) (any, error) {
	switch req.Method() {
	case protocol.MethodTextDocumentPublishDiagnostics:
		var p protocol.PublishDiagnosticsParams
		if err := protocol.Unmarshal(req.Params(), &p); err == nil {
			if p, err = protocol.Clone(p); err == nil {
				v, _ := p.Version.Get()
				e.mu.Lock()
				e.published[v] = p.Diagnostics
				e.cond.Broadcast()
				e.mu.Unlock()
			}
		}
		return nil, nil
	case protocol.MethodWorkspaceApplyEdit:
		var p protocol.ApplyWorkspaceEditParams
		if err := protocol.Unmarshal(req.Params(), &p); err != nil {
			return nil, err
		}
		p, _ = protocol.Clone(p)
		e.mu.Lock()
		e.edits = append(e.edits, p.Edit)
		e.mu.Unlock()
		return &protocol.ApplyWorkspaceEditResult{Applied: true}, nil
	case protocol.MethodWindowShowDocument:
		return &protocol.ShowDocumentResult{Success: true}, nil
	case protocol.MethodWorkspaceConfiguration:
		return []any{nil}, nil
	}
	return nil, nil // registrations, messages: accepted
}

func (e *stdioEditor) wait(t *testing.T, ctx context.Context, version int32) []protocol.Diagnostic {
	t.Helper()
	stop := context.AfterFunc(ctx, func() {
		e.mu.Lock()
		e.cond.Broadcast()
		e.mu.Unlock()
	})
	defer stop()
	e.mu.Lock()
	defer e.mu.Unlock()
	for {
		if ds, ok := e.published[version]; ok {
			return ds
		}
		if ctx.Err() != nil {
			t.Fatalf("no diagnostics for version %d", version)
		}
		e.cond.Wait()
	}
}
