// Package lsptest drives a charter-lsp server through a real JSON-RPC
// connection, as an editor would: an in-process server on one end of a
// net.Pipe (Start) or the built binary over stdio (StartBinary), a client
// built from the protocol package's client-side types on the other. The
// client records what the server sends (diagnostics, registrations, edits),
// answers the server's requests and keeps its own copy of every document it
// opened.
package lsptest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/charter-lsp/charter-lsp/internal/testfixture"
	"github.com/charter-lsp/charter-lsp/lsp"
)

// Timeout bounds every wait; a test that hits it has found a bug (a
// diagnostic never published), not a slow machine. It is scaled for the
// race detector and small machines (testfixture.Timeout).
var Timeout = testfixture.Timeout(10 * time.Second)

// Config describes the editor the client pretends to be.
type Config struct {
	Options lsp.Options
	// Root is the workspace folder (an OS path); default t.TempDir().
	Root string
	// InitializationOptions is sent as initializationOptions (JSON-encoded).
	InitializationOptions any
	// Settings answers workspace/configuration for section "charter".
	Settings any
	// Capabilities replaces the default client capabilities (which support
	// workspace/configuration, dynamic file watching and applyEdit).
	Capabilities *protocol.ClientCapabilities
	// ApplyToBuffers makes the client apply workspace edits as VS Code does:
	// an edit of an open document changes the client's copy (refused unless
	// it was made for that copy's version) and is sent as didChange, the file
	// on disk staying as it was until the user saves. By default every edit
	// is written to disk and open documents are left alone.
	ApplyToBuffers bool
}

// Client is the test editor.
type Client struct {
	t      testing.TB
	Server protocol.Server // typed dispatcher to the server
	Conn   jsonrpc2.Conn   // the raw connection, for custom messages
	LSP    *lsp.Server     // the in-process server; nil with StartBinary
	Root   string
	Result *protocol.InitializeResult

	exitCode chan int
	buffers  bool // Config.ApplyToBuffers
	caps     protocol.ClientCapabilities

	mu            sync.Mutex
	changed       chan struct{} // closed and replaced on every recorded event
	settings      any
	publishes     map[uri.URI][]Published
	registrations []protocol.Registration
	edits         []protocol.WorkspaceEdit
	configAsks    int
	refreshes     int // workspace/diagnostic/refresh requests
	viewRefreshes int // workspace/codeLens/refresh and workspace/inlayHint/refresh requests
	shown         []protocol.ShowDocumentParams
	messages      []protocol.ShowMessageParams
	progress      []Progress
	docs          map[uri.URI]*buffer          // the client's copy of each open document
	prompts       prompts                      // window/showMessageRequest (prompts.go)
	custom        map[string][]json.RawMessage // the server's own notifications (charter/…), by method
	// confirm answers for the user when an edit needs confirmation (nil: yes).
	confirm func(protocol.ChangeAnnotationIdentifier, protocol.ChangeAnnotation) bool
}

// buffer is the client's copy of an open document.
type buffer struct {
	text    string
	version int32
}

// Progress is one $/progress notification: its token and its value's
// kind ("begin", "report", "end"), title and message.
type Progress struct {
	Token   string
	Kind    string
	Title   string
	Message string
}

// Published is one textDocument/publishDiagnostics notification.
type Published struct {
	Params protocol.PublishDiagnosticsParams
	Raw    string // the params as sent on the wire
}

// Start connects a client to a new in-process server, and runs initialize
// and initialized.
func Start(t testing.TB, cfg Config) *Client {
	t.Helper()
	if cfg.Options.RequestBudget == 0 {
		// The server's own timeout, scaled like the client's waits: under
		// the race detector on a busy machine a hostile document's request
		// may take longer than the 10 s a user's editor allows.
		cfg.Options.RequestBudget = testfixture.Timeout(lsp.DefaultRequestBudget)
	}
	c := newClient(t, &cfg)
	c.LSP = lsp.New(cfg.Options)
	serverEnd, clientEnd := net.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	go func() { c.exitCode <- c.LSP.Serve(ctx, serverEnd) }()
	c.connect(ctx, clientEnd, cfg)
	t.Cleanup(func() {
		cancel()
		_ = clientEnd.Close()
		_ = serverEnd.Close()
		select {
		case <-c.exitCode:
		case <-time.After(Timeout):
			t.Errorf("server did not stop")
		}
	})
	c.initialize(cfg)
	return c
}

// StartBinary runs the charter-lsp binary at bin as `bin serve`, speaking
// LSP over its stdin and stdout as an editor does, and runs initialize and
// initialized. cfg.Options does not apply. The process's stderr (its log)
// is shown when the test fails.
//
// Against a process, Sync only orders the connection: the server has read
// everything sent before, but notifications it handles concurrently and the
// diagnostics they schedule may still be under way. Wait for what you need
// (WaitDiagnostics) or ask for it (Pull).
func StartBinary(t testing.TB, bin string, cfg Config) *Client {
	t.Helper()
	c := newClient(t, &cfg)
	// Pipes of our own: exec's StdoutPipe may not be read after Wait, and
	// Wait runs as soon as the process exits.
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr lockedBuffer
	cmd := exec.Command(bin, "serve")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", bin, err)
	}
	_ = inR.Close()
	_ = outW.Close()
	go func() {
		_ = cmd.Wait()
		c.exitCode <- cmd.ProcessState.ExitCode()
	}()
	ctx, cancel := context.WithCancel(context.Background())
	c.connect(ctx, stdio{outR, inW}, cfg)
	t.Cleanup(func() {
		cancel()
		_ = inW.Close() // the server sees the end of its input and stops
		select {
		case <-c.exitCode:
		case <-time.After(Timeout):
			_ = cmd.Process.Kill()
			<-c.exitCode
			t.Errorf("%s did not stop when its input closed", bin)
		}
		_ = outR.Close()
		if t.Failed() {
			t.Logf("%s stderr:\n%s", bin, stderr.String())
		}
	})
	c.initialize(cfg)
	return c
}

func newClient(t testing.TB, cfg *Config) *Client {
	if cfg.Root == "" {
		cfg.Root = t.TempDir()
	}
	return &Client{
		t: t, Root: cfg.Root,
		exitCode:  make(chan int, 1),
		buffers:   cfg.ApplyToBuffers,
		changed:   make(chan struct{}),
		settings:  cfg.Settings,
		publishes: map[uri.URI][]Published{},
		docs:      map[uri.URI]*buffer{},
	}
}

// connect speaks JSON-RPC over the client's end of the connection.
func (c *Client) connect(ctx context.Context, end io.ReadWriteCloser, cfg Config) {
	c.Conn = jsonrpc2.NewConn(jsonrpc2.NewStream(end), jsonrpc2.WithCodec(lsp.Codec{}))
	// Handled in order on the read loop, so publishes are recorded in the
	// order the server sent them.
	c.Conn.Go(ctx, c.recordRaw(protocol.ClientHandler(editor{c}, jsonrpc2.MethodNotFoundHandler)))
	c.Server = protocol.ServerDispatcher(c.Conn)
}

func (c *Client) initialize(cfg Config) {
	t := c.t
	t.Helper()
	params := &protocol.InitializeParams{
		ClientInfo:   protocol.ClientInfo{Name: "lsptest"},
		Capabilities: defaultCapabilities(),
	}
	params.WorkspaceFolders = protocol.NewNullable([]protocol.WorkspaceFolder{{URI: uri.File(cfg.Root), Name: "root"}})
	if cfg.Capabilities != nil {
		params.Capabilities = *cfg.Capabilities
	}
	c.caps = params.Capabilities
	if cfg.InitializationOptions != nil {
		raw, err := json.Marshal(cfg.InitializationOptions)
		if err != nil {
			t.Fatalf("initializationOptions: %v", err)
		}
		params.InitializationOptions = raw
	}
	res, err := c.Server.Initialize(c.ctx(), params)
	if err != nil {
		t.Fatalf("initialize: %v", err)
	}
	c.Result = res
	if err := c.Server.Initialized(c.ctx(), &protocol.InitializedParams{}); err != nil {
		t.Fatalf("initialized: %v", err)
	}
	c.Sync()
}

// stdio joins a process's stdout (read) and stdin (write).
type stdio struct {
	r io.ReadCloser
	w io.WriteCloser
}

func (s stdio) Read(b []byte) (int, error)  { return s.r.Read(b) }
func (s stdio) Write(b []byte) (int, error) { return s.w.Write(b) }
func (s stdio) Close() error {
	err := s.w.Close()
	if rerr := s.r.Close(); err == nil {
		err = rerr
	}
	return err
}

// lockedBuffer collects a process's stderr, read while it is written.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func defaultCapabilities() protocol.ClientCapabilities {
	yes := true
	return protocol.ClientCapabilities{
		Workspace: &protocol.WorkspaceClientCapabilities{
			ApplyEdit:             &yes,
			Configuration:         &yes,
			WorkspaceFolders:      &yes,
			DidChangeWatchedFiles: &protocol.DidChangeWatchedFilesClientCapabilities{DynamicRegistration: &yes},
		},
		TextDocument: &protocol.TextDocumentClientCapabilities{
			PublishDiagnostics: &protocol.PublishDiagnosticsClientCapabilities{VersionSupport: &yes},
		},
	}
}

func (c *Client) ctx() context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	c.t.Cleanup(cancel)
	return ctx
}

// URI is the file URI of a path relative to the workspace root.
func (c *Client) URI(rel string) uri.URI { return uri.File(c.Path(rel)) }

// Path is the OS path of a path relative to the workspace root.
func (c *Client) Path(rel string) string { return filepath.Join(c.Root, filepath.FromSlash(rel)) }

// WriteFile writes a file under the root (creating folders), as a user
// editing outside the editor would.
func (c *Client) WriteFile(rel, text string) {
	c.t.Helper()
	p := c.Path(rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		c.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		c.t.Fatal(err)
	}
}

// Open opens a document at version 1 with language id "markdown".
func (c *Client) Open(rel, text string) uri.URI {
	c.t.Helper()
	return c.OpenAs(rel, "markdown", text)
}

// OpenAs opens a document with the given language id.
func (c *Client) OpenAs(rel, languageID, text string) uri.URI {
	c.t.Helper()
	u := c.URI(rel)
	c.mu.Lock()
	c.docs[u] = &buffer{text: text, version: 1}
	c.mu.Unlock()
	err := c.Server.DidOpen(c.ctx(), &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: u, LanguageID: protocol.LanguageKind(languageID), Version: 1, Text: text,
	}})
	if err != nil {
		c.t.Fatalf("didOpen: %v", err)
	}
	return u
}

// Text returns the client's copy of the open document u and its version.
func (c *Client) Text(u uri.URI) (text string, version int32, open bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b := c.docs[u]
	if b == nil {
		return "", 0, false
	}
	return b.text, b.version, true
}

// Edit is one incremental change: replace the range with Text.
type Edit struct {
	StartLine, StartChar, EndLine, EndChar uint32
	Text                                   string
}

// Change sends didChange with incremental edits, applied in order.
func (c *Client) Change(u uri.URI, version int32, edits ...Edit) {
	c.t.Helper()
	changes := make([]protocol.TextDocumentContentChangeEvent, 0, len(edits))
	for _, e := range edits {
		changes = append(changes, &protocol.TextDocumentContentChangePartial{
			Range: protocol.Range{
				Start: protocol.Position{Line: e.StartLine, Character: e.StartChar},
				End:   protocol.Position{Line: e.EndLine, Character: e.EndChar},
			},
			Text: e.Text,
		})
	}
	c.sendChange(u, version, changes)
}

// Replace sends didChange replacing the whole text.
func (c *Client) Replace(u uri.URI, version int32, text string) {
	c.t.Helper()
	c.sendChange(u, version, []protocol.TextDocumentContentChangeEvent{&protocol.TextDocumentContentChangeWholeDocument{Text: text}})
}

func (c *Client) sendChange(u uri.URI, version int32, changes []protocol.TextDocumentContentChangeEvent) {
	if err := c.change(u, version, changes); err != nil {
		c.t.Fatal(err)
	}
}

// change updates the client's copy of u (when the version is newer, as the
// server would) and sends didChange.
func (c *Client) change(u uri.URI, version int32, changes []protocol.TextDocumentContentChangeEvent) error {
	c.mu.Lock()
	if b := c.docs[u]; b != nil && version > b.version {
		b.text, b.version = applyChanges(b.text, changes), version
	}
	c.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	err := c.Server.DidChange(ctx, &protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: u}, Version: version},
		ContentChanges: changes,
	})
	if err != nil {
		return fmt.Errorf("didChange: %w", err)
	}
	return nil
}

// Close sends didClose.
func (c *Client) Close(u uri.URI) {
	c.t.Helper()
	c.mu.Lock()
	delete(c.docs, u)
	c.mu.Unlock()
	if err := c.Server.DidClose(c.ctx(), &protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}}); err != nil {
		c.t.Fatalf("didClose: %v", err)
	}
}

// FilesChanged sends workspace/didChangeWatchedFiles for paths relative to
// the root.
func (c *Client) FilesChanged(kind protocol.FileChangeType, rels ...string) {
	c.t.Helper()
	var evs []protocol.FileEvent
	for _, r := range rels {
		evs = append(evs, protocol.FileEvent{URI: c.URI(r), Type: kind})
	}
	if err := c.Server.DidChangeWatchedFiles(c.ctx(), &protocol.DidChangeWatchedFilesParams{Changes: evs}); err != nil {
		c.t.Fatalf("didChangeWatchedFiles: %v", err)
	}
}

// SetSettings changes the answer to workspace/configuration and sends
// didChangeConfiguration.
func (c *Client) SetSettings(settings any) {
	c.t.Helper()
	c.mu.Lock()
	c.settings = settings
	c.mu.Unlock()
	if err := c.Server.DidChangeConfiguration(c.ctx(), &protocol.DidChangeConfigurationParams{Settings: []byte("null")}); err != nil {
		c.t.Fatalf("didChangeConfiguration: %v", err)
	}
}

// Pull asks textDocument/diagnostic.
func (c *Client) Pull(u uri.URI, previousResultID string) protocol.DocumentDiagnosticReport {
	c.t.Helper()
	p := &protocol.DocumentDiagnosticParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}}
	if previousResultID != "" {
		p.PreviousResultID = &previousResultID
	}
	var raw jsonrpc2.RawMessage // decoded below, not by the codec
	if _, err := c.Conn.Call(c.ctx(), protocol.MethodTextDocumentDiagnostic, p, &raw); err != nil {
		c.t.Fatalf("textDocument/diagnostic: %v", err)
	}
	rep, err := decodeReport(raw)
	if err != nil {
		c.t.Fatalf("textDocument/diagnostic answer: %v", err)
	}
	return rep
}

// Sync waits until the server has handled everything sent so far and
// finished the diagnostics that caused, and the client has recorded what
// the server sent. A request round trip orders the connection both ways.
// (Against a binary it can only do the round trip: see StartBinary.)
func (c *Client) Sync() {
	c.t.Helper()
	c.roundTrip()
	if c.LSP != nil {
		c.LSP.Settle()
		c.roundTrip()
	}
}

func (c *Client) roundTrip() {
	c.t.Helper()
	// Any request works; a pull for a document nobody opened is cheap.
	c.Pull(uri.File(filepath.Join(c.Root, ".lsptest-sync")), "")
}

// WaitDiagnostics waits for a publish for u with the given version and
// returns it. Version 0 waits for a publish without a version (on close).
func (c *Client) WaitDiagnostics(u uri.URI, version int32) Published {
	c.t.Helper()
	deadline := time.After(Timeout)
	for {
		c.mu.Lock()
		for _, p := range c.publishes[u] {
			v, ok := p.Params.Version.Get()
			if (version == 0 && !ok) || (ok && v == version) {
				c.mu.Unlock()
				return p
			}
		}
		ch := c.changed
		c.mu.Unlock()
		select {
		case <-ch:
		case <-deadline:
			c.t.Fatalf("no diagnostics for %s version %d; got %d publishes", u, version, len(c.Published(u)))
		}
	}
}

// Published returns every publish for u so far, in order.
func (c *Client) Published(u uri.URI) []Published {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Published(nil), c.publishes[u]...)
}

// ForgetPublished drops every publish received so far, so that a test
// measuring the server's memory after many publishes does not count the
// client's record of them.
func (c *Client) ForgetPublished() {
	c.record(func() { clear(c.publishes) })
}

// Registrations returns the capabilities the server registered.
func (c *Client) Registrations() []protocol.Registration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]protocol.Registration(nil), c.registrations...)
}

// Edits returns the workspace edits the server asked to apply.
func (c *Client) Edits() []protocol.WorkspaceEdit {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]protocol.WorkspaceEdit(nil), c.edits...)
}

// ShownDocuments returns the window/showDocument requests so far.
func (c *Client) ShownDocuments() []protocol.ShowDocumentParams {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]protocol.ShowDocumentParams(nil), c.shown...)
}

// ProgressReports returns the $/progress notifications received so far.
func (c *Client) ProgressReports() []Progress {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Progress(nil), c.progress...)
}

// Messages returns the window/showMessage notifications so far.
func (c *Client) Messages() []protocol.ShowMessageParams {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]protocol.ShowMessageParams(nil), c.messages...)
}

// ViewRefreshes counts workspace/codeLens/refresh and
// workspace/inlayHint/refresh requests.
func (c *Client) ViewRefreshes() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.viewRefreshes
}

// ConfigurationRequests counts workspace/configuration requests.
// DiagnosticRefreshes counts workspace/diagnostic/refresh requests.
func (c *Client) DiagnosticRefreshes() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.refreshes
}

func (c *Client) ConfigurationRequests() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.configAsks
}

// Shutdown sends shutdown then exit and returns the server's exit code.
func (c *Client) Shutdown() int {
	c.t.Helper()
	if err := c.Server.Shutdown(c.ctx()); err != nil {
		c.t.Fatalf("shutdown: %v", err)
	}
	return c.Exit()
}

// Exit sends exit and returns the server's exit code.
func (c *Client) Exit() int {
	c.t.Helper()
	if err := c.Server.Exit(c.ctx()); err != nil {
		c.t.Fatalf("exit: %v", err)
	}
	select {
	case code := <-c.exitCode:
		c.exitCode <- code // for Cleanup
		return code
	case <-time.After(Timeout):
		c.t.Fatalf("server did not exit")
		return -1
	}
}

func (c *Client) record(f func()) {
	c.mu.Lock()
	f()
	close(c.changed)
	c.changed = make(chan struct{})
	c.mu.Unlock()
}

// recordRaw keeps the wire form of publishDiagnostics (to see `[]` versus
// `null`) before the typed client handles it.
func (c *Client) recordRaw(next jsonrpc2.Handler) jsonrpc2.Handler {
	return func(ctx context.Context, req *jsonrpc2.Request) (any, error) {
		if req.Method() != protocol.MethodTextDocumentPublishDiagnostics {
			if !req.IsCall() && strings.HasPrefix(req.Method(), "charter/") {
				c.recordCustom(strings.Clone(req.Method()), json.RawMessage(req.Params())) // both borrow the read buffer
				return nil, nil
			}
			return next(ctx, req)
		}
		raw := string(req.Params())
		p, err := decodePublish(req.Params())
		if err != nil {
			c.t.Errorf("publishDiagnostics: %v", err)
			return nil, nil
		}
		c.record(func() { c.publishes[p.URI] = append(c.publishes[p.URI], Published{Params: p, Raw: raw}) })
		return nil, nil
	}
}

// The protocol package's decoder sizes every array it meets by what is
// left of the message (up to 4096 elements), so decoding a publish of 6,000
// diagnostics whole reserves room for 4096 related items in each: 600 MB
// per publish, 6 GB of race-detector memory in the hostile-document test.
// Decoding the diagnostics one by one gives each a hint from its own bytes.

// decodePublish decodes publishDiagnostics params one diagnostic at a time.
func decodePublish(raw []byte) (protocol.PublishDiagnosticsParams, error) {
	var env struct {
		URI         uri.URI           `json:"uri"`
		Version     *int32            `json:"version"`
		Diagnostics []json.RawMessage `json:"diagnostics"`
	}
	if err := json.Unmarshal(raw, &env); err != nil {
		return protocol.PublishDiagnosticsParams{}, err
	}
	p := protocol.PublishDiagnosticsParams{URI: env.URI}
	if env.Version != nil {
		p.Version = protocol.NewOptional(*env.Version)
	}
	var err error
	p.Diagnostics, err = decodeDiagnostics(env.Diagnostics)
	return p, err
}

// decodeReport decodes a textDocument/diagnostic answer, its items one at a
// time.
func decodeReport(raw []byte) (protocol.DocumentDiagnosticReport, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return nil, err
	}
	var kind string
	_ = json.Unmarshal(fields["kind"], &kind)
	if kind != "full" {
		var r protocol.RelatedUnchangedDocumentDiagnosticReport
		err := protocol.Unmarshal(raw, &r)
		return &r, err
	}
	var items []json.RawMessage
	if err := json.Unmarshal(fields["items"], &items); err != nil {
		return nil, err
	}
	fields["items"] = json.RawMessage("[]")
	rest, err := json.Marshal(fields)
	if err != nil {
		return nil, err
	}
	var r protocol.RelatedFullDocumentDiagnosticReport
	if err := protocol.Unmarshal(rest, &r); err != nil {
		return nil, err
	}
	r.Items, err = decodeDiagnostics(items)
	return &r, err
}

func decodeDiagnostics(raws []json.RawMessage) ([]protocol.Diagnostic, error) {
	if raws == nil {
		return nil, nil
	}
	out := make([]protocol.Diagnostic, len(raws))
	for i, raw := range raws {
		if err := protocol.Unmarshal(raw, &out[i]); err != nil {
			return nil, fmt.Errorf("diagnostic %d: %w", i, err)
		}
	}
	return out, nil
}

// editor answers the server's requests.
type editor struct{ c *Client }

var _ protocol.Client = editor{}

func (e editor) Progress(_ context.Context, p *protocol.ProgressParams) error {
	var v struct{ Kind, Title, Message string }
	if err := json.Unmarshal(p.Value, &v); err != nil {
		return err
	}
	token := fmt.Sprint(p.Token)
	e.c.record(func() {
		e.c.progress = append(e.c.progress, Progress{Token: token, Kind: v.Kind, Title: v.Title, Message: v.Message})
	})
	return nil
}
func (e editor) LogTrace(context.Context, *protocol.LogTraceParams) error { return nil }
func (e editor) RegisterCapability(_ context.Context, p *protocol.RegistrationParams) error {
	e.c.record(func() { e.c.registrations = append(e.c.registrations, p.Registrations...) })
	return nil
}
func (e editor) UnregisterCapability(_ context.Context, p *protocol.UnregistrationParams) error {
	e.c.record(func() {
		keep := e.c.registrations[:0]
		for _, r := range e.c.registrations {
			gone := false
			for _, u := range p.Unregisterations {
				gone = gone || u.ID == r.ID
			}
			if !gone {
				keep = append(keep, r)
			}
		}
		e.c.registrations = keep
	})
	return nil
}
func (e editor) ShowMessage(_ context.Context, p *protocol.ShowMessageParams) error {
	kept, err := protocol.Clone(*p) // decoded strings share the read buffer
	if err != nil {
		return err
	}
	e.c.record(func() { e.c.messages = append(e.c.messages, kept) })
	return nil
}
func (e editor) ShowMessageRequest(_ context.Context, p *protocol.ShowMessageRequestParams) (*protocol.MessageActionItem, error) {
	kept, err := protocol.Clone(*p)
	if err != nil {
		return nil, err
	}
	return e.c.ask(kept), nil // prompts.go
}
func (e editor) LogMessage(context.Context, *protocol.LogMessageParams) error { return nil }
func (e editor) ShowDocument(_ context.Context, p *protocol.ShowDocumentParams) (*protocol.ShowDocumentResult, error) {
	kept, err := protocol.Clone(*p)
	if err != nil {
		return nil, err
	}
	e.c.record(func() { e.c.shown = append(e.c.shown, kept) })
	return &protocol.ShowDocumentResult{Success: true}, nil
}
func (e editor) WorkDoneProgressCreate(context.Context, *protocol.WorkDoneProgressCreateParams) error {
	return nil
}
func (e editor) Telemetry(context.Context, protocol.LSPAny) error { return nil }
func (e editor) PublishDiagnostics(context.Context, *protocol.PublishDiagnosticsParams) error {
	return nil // recorded by recordRaw
}
func (e editor) Configuration(_ context.Context, p *protocol.ConfigurationParams) ([]protocol.LSPAny, error) {
	var settings any
	e.c.record(func() { e.c.configAsks++; settings = e.c.settings })
	out := make([]protocol.LSPAny, len(p.Items))
	for i, item := range p.Items {
		out[i] = protocol.LSPAny("null")
		if item.Section != nil && *item.Section == "charter" && settings != nil {
			raw, err := json.Marshal(settings)
			if err != nil {
				return nil, err
			}
			out[i] = raw
		}
	}
	return out, nil
}
func (e editor) WorkspaceFolders(context.Context) ([]protocol.WorkspaceFolder, error) {
	return []protocol.WorkspaceFolder{{URI: uri.File(e.c.Root), Name: "root"}}, nil
}
func (e editor) ApplyEdit(_ context.Context, p *protocol.ApplyWorkspaceEditParams) (*protocol.ApplyWorkspaceEditResult, error) {
	kept, err := protocol.Clone(p.Edit) // decoded strings share the read buffer
	if err != nil {
		return nil, err
	}
	e.c.record(func() { e.c.edits = append(e.c.edits, kept) })
	if err := e.c.ApplyEdit(kept); err != nil { // apply.go
		reason := err.Error()
		return &protocol.ApplyWorkspaceEditResult{Applied: false, FailureReason: &reason}, nil
	}
	return &protocol.ApplyWorkspaceEditResult{Applied: true}, nil
}
func (e editor) CodeLensRefresh(context.Context) error {
	e.c.record(func() { e.c.viewRefreshes++ })
	return nil
}
func (e editor) FoldingRangeRefresh(context.Context) error   { return nil }
func (e editor) SemanticTokensRefresh(context.Context) error { return nil }
func (e editor) InlineValueRefresh(context.Context) error    { return nil }
func (e editor) InlayHintRefresh(context.Context) error {
	e.c.record(func() { e.c.viewRefreshes++ })
	return nil
}
func (e editor) DiagnosticRefresh(context.Context) error {
	e.c.record(func() { e.c.refreshes++ })
	return nil
}
func (e editor) TextDocumentContentRefresh(context.Context, *protocol.TextDocumentContentRefreshParams) error {
	return nil
}
