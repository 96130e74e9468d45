// Command soak drives the built charter-lsp binary over stdio for a while
// (10 minutes by default, SOAK_DURATION or -duration to change) with random
// edits and requests on copies of the example charters, as an editor and an
// agent typing at once would. It reports the server's memory (RSS from
// /proc), latency percentiles per method and the error count, and exits
// non-zero on any error: a failed request, a protocol error, a crash, or an
// exit code other than 0 after shutdown.
//
//	go run ./cmd/soak -bin bin/charter-lsp -duration 2m
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/charter-lsp/charter-lsp/analysis/source"
	"github.com/charter-lsp/charter-lsp/lsp"
)

func main() {
	bin := flag.String("bin", "bin/charter-lsp", "the charter-lsp binary to drive")
	examples := flag.String("examples", "examples", "folder whose charters are copied into the soak workspace")
	def := 10 * time.Minute
	if v := os.Getenv("SOAK_DURATION"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			fmt.Fprintf(os.Stderr, "soak: SOAK_DURATION: %v\n", err)
			os.Exit(2)
		}
		def = d
	}
	duration := flag.Duration("duration", def, "how long to drive the server")
	seed := flag.Uint64("seed", uint64(time.Now().UnixNano()), "random seed (printed, to replay a run)")
	flag.Parse()

	r, err := run(*bin, *examples, *duration, *seed)
	if err != nil {
		fmt.Fprintf(os.Stderr, "soak: %v\n", err)
		os.Exit(2)
	}
	r.print(os.Stdout)
	if r.errors() > 0 {
		os.Exit(1)
	}
}

// report is what a soak run measured.
type report struct {
	seed      uint64
	duration  time.Duration
	mu        sync.Mutex
	latencies map[string][]time.Duration
	failures  map[string]int // error text → count
	rss       []int64        // kB, sampled
	edits     int
	publishes int
	exitCode  int
}

func (r *report) observe(method string, d time.Duration, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.latencies[method] = append(r.latencies[method], d)
	if err != nil {
		r.failures[method+": "+err.Error()]++
	}
}

func (r *report) fail(what string) {
	r.mu.Lock()
	r.failures[what]++
	r.mu.Unlock()
}

func (r *report) errors() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, c := range r.failures {
		n += c
	}
	return n
}

func (r *report) print(w io.Writer) {
	r.mu.Lock()
	defer r.mu.Unlock()
	fmt.Fprintf(w, "soak: %s, seed %d, %d edits, %d diagnostics publishes, exit code %d\n", r.duration.Round(time.Second), r.seed, r.edits, r.publishes, r.exitCode)
	if len(r.rss) > 0 {
		peak := int64(0)
		for _, v := range r.rss {
			peak = max(peak, v)
		}
		fmt.Fprintf(w, "RSS: start %d MB, peak %d MB, end %d MB (%d samples)\n", r.rss[0]/1024, peak/1024, r.rss[len(r.rss)-1]/1024, len(r.rss))
	}
	methods := make([]string, 0, len(r.latencies))
	for m := range r.latencies {
		methods = append(methods, m)
	}
	sort.Strings(methods)
	fmt.Fprintf(w, "%-34s %8s %9s %9s %9s %9s\n", "method", "count", "p50", "p95", "p99", "max")
	for _, m := range methods {
		ls := r.latencies[m]
		sort.Slice(ls, func(i, j int) bool { return ls[i] < ls[j] })
		q := func(p float64) time.Duration { return ls[min(len(ls)-1, int(p*float64(len(ls))))] }
		fmt.Fprintf(w, "%-34s %8d %9s %9s %9s %9s\n", m, len(ls), round(q(.5)), round(q(.95)), round(q(.99)), round(ls[len(ls)-1]))
	}
	n := 0
	for what, c := range r.failures {
		fmt.Fprintf(w, "ERROR ×%d: %s\n", c, what)
		n += c
	}
	fmt.Fprintf(w, "errors: %d\n", n)
}

func round(d time.Duration) time.Duration {
	switch {
	case d > time.Second:
		return d.Round(time.Millisecond)
	case d > time.Millisecond:
		return d.Round(10 * time.Microsecond)
	}
	return d.Round(time.Microsecond)
}

func run(bin, examples string, duration time.Duration, seed uint64) (*report, error) {
	r := &report{seed: seed, duration: duration, latencies: map[string][]time.Duration{}, failures: map[string]int{}}
	root, err := os.MkdirTemp("", "charter-soak-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(root)
	docs, err := copyCharters(examples, root)
	if err != nil {
		return nil, err
	}
	if len(docs) == 0 {
		return nil, fmt.Errorf("no charter files under %s", examples)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "serve", "--stdio", "--log-level", "warn", "--log-file", filepath.Join(root, "server.log"))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()

	conn := jsonrpc2.NewConn(jsonrpc2.NewStream(stdio{stdout, stdin}), jsonrpc2.WithCodec(lsp.Codec{}))
	conn.Go(ctx, func(ctx context.Context, req *jsonrpc2.Request) (any, error) {
		switch req.Method() {
		case protocol.MethodTextDocumentPublishDiagnostics:
			r.mu.Lock()
			r.publishes++
			r.mu.Unlock()
			return nil, nil
		case protocol.MethodWorkspaceConfiguration:
			return []any{nil}, nil
		case protocol.MethodClientRegisterCapability, protocol.MethodClientUnregisterCapability,
			protocol.MethodWindowShowMessage, protocol.MethodWindowLogMessage, protocol.MethodWindowWorkDoneProgressCreate:
			return nil, nil
		}
		return jsonrpc2.MethodNotFoundHandler(ctx, req)
	})
	server := protocol.ServerDispatcher(conn)

	call := func(method string, f func(ctx context.Context) error) {
		cctx, ccancel := context.WithTimeout(ctx, 30*time.Second)
		defer ccancel()
		start := time.Now()
		err := f(cctx)
		r.observe(method, time.Since(start), err)
	}

	init := &protocol.InitializeParams{ClientInfo: protocol.ClientInfo{Name: "soak"}, InitializationOptions: []byte(`{"debounceMs":30}`)}
	yes := true
	init.Capabilities = protocol.ClientCapabilities{Workspace: &protocol.WorkspaceClientCapabilities{
		Configuration: &yes, DidChangeWatchedFiles: &protocol.DidChangeWatchedFilesClientCapabilities{DynamicRegistration: &yes},
	}}
	init.WorkspaceFolders = protocol.NewNullable([]protocol.WorkspaceFolder{{URI: uri.File(root), Name: "soak"}})
	call(protocol.MethodInitialize, func(ctx context.Context) error { _, err := server.Initialize(ctx, init); return err })
	call(protocol.MethodInitialized, func(ctx context.Context) error { return server.Initialized(ctx, &protocol.InitializedParams{}) })

	// Sample the server's memory while it runs.
	stopSampling := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			if kb, err := rssKB(cmd.Process.Pid); err == nil {
				r.mu.Lock()
				r.rss = append(r.rss, kb)
				r.mu.Unlock()
			}
			select {
			case <-stopSampling:
				return
			case <-t.C:
			}
		}
	}()

	snippets = append(snippets, "\n## Commands\n- Test: touch "+filepath.Join(root, executedMarker)+"\n",
		"\nCommand: touch "+filepath.Join(root, executedMarker)+"\n")
	rng := rand.New(rand.NewPCG(seed, seed>>1|1))
	d := &driver{r: r, rng: rng, server: server, call: call, docs: docs}
	d.openAll()
	deadline := time.Now().Add(duration)
	for time.Now().Before(deadline) && ctx.Err() == nil {
		select {
		case err := <-exited:
			r.fail(fmt.Sprintf("server exited during the soak: %v", err))
			close(stopSampling)
			<-sampled
			return r, nil
		default:
		}
		d.step()
	}
	close(stopSampling)
	<-sampled

	call(protocol.MethodShutdown, func(ctx context.Context) error { return server.Shutdown(ctx) })
	call(protocol.MethodExit, func(ctx context.Context) error { return server.Exit(ctx) })
	select {
	case err := <-exited:
		var exitErr *exec.ExitError
		switch {
		case errors.As(err, &exitErr):
			r.exitCode = exitErr.ExitCode()
			r.fail("exit code " + strconv.Itoa(r.exitCode) + " after shutdown")
		case err != nil:
			r.fail("waiting for the server: " + err.Error())
		}
	case <-time.After(10 * time.Second):
		r.fail("server did not exit after shutdown and exit")
	}
	if _, err := os.Stat(filepath.Join(root, executedMarker)); err == nil {
		r.fail("a command typed into a charter was executed")
	}
	if log, err := os.ReadFile(filepath.Join(root, "server.log")); err == nil {
		for _, line := range strings.Split(string(log), "\n") {
			if strings.Contains(line, "\tERROR\t") || strings.Contains(line, "panic") {
				r.fail("server log: " + line)
			}
		}
	}
	return r, nil
}

// doc is one charter file the driver edits; text mirrors the editor's copy.
type doc struct {
	path, original, text string
	uri                  uri.URI
	version              int32
	open                 bool
}

type driver struct {
	r      *report
	rng    *rand.Rand
	server protocol.Server
	call   func(string, func(context.Context) error)
	docs   []*doc
}

func (d *driver) openAll() {
	for _, x := range d.docs {
		d.open(x)
	}
}

func (d *driver) open(x *doc) {
	x.version++
	x.open = true
	d.call(protocol.MethodTextDocumentDidOpen, func(ctx context.Context) error {
		return d.server.DidOpen(ctx, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
			URI: x.uri, LanguageID: "markdown", Version: x.version, Text: x.text}})
	})
}

// snippets are what the driver types: charter structure, prose, line ends
// of every kind, non-ASCII and astral characters, command lines (which must
// never run).
var snippets = []string{"x", " ", "\n", "\r\n", "é", "🚀", "TBD", "Users lose work. It happens daily. ",
	"\n## Problem\n", "\n### VAL-SOAK-1: soaked\n- **Verifier:** go test ./...\n", "\n- item\n",
	"<!-- charter-lsp-disable-next-line section-partial -->\n",
	"\n### Q9: Scope\n**Asked**: what?\n**Answer**: this.\n"}

// executedMarker is a file a typed command line would create if the server
// ever ran one; its existence after the run is an error.
const executedMarker = "EXECUTED"

func (d *driver) step() {
	x := d.docs[d.rng.IntN(len(d.docs))]
	if !x.open {
		d.open(x)
		return
	}
	ix := source.NewIndex([]byte(x.text))
	pos := func() (int, protocol.Position) {
		off := ix.Offset(ix.Position(d.rng.IntN(len(x.text) + 1))) // a valid editor position
		p := ix.Position(off)
		return off, protocol.Position{Line: uint32(p.Line), Character: uint32(p.Character)}
	}
	docID := protocol.TextDocumentIdentifier{URI: x.uri}
	switch n := d.rng.IntN(100); {
	case n < 55: // an edit burst: typing or deleting, several notifications
		for range 1 + d.rng.IntN(8) {
			d.edit(x)
		}
	case n < 63:
		_, p := pos()
		d.call(protocol.MethodTextDocumentHover, func(ctx context.Context) error {
			_, err := d.server.Hover(ctx, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: docID, Position: p}})
			return err
		})
	case n < 70:
		_, a := pos()
		d.call(protocol.MethodTextDocumentCodeAction, func(ctx context.Context) error {
			_, err := d.server.CodeAction(ctx, &protocol.CodeActionParams{TextDocument: docID, Range: protocol.Range{Start: a, End: a}})
			return err
		})
	case n < 75:
		d.call(protocol.MethodTextDocumentDiagnostic, func(ctx context.Context) error {
			_, err := d.server.Diagnostic(ctx, &protocol.DocumentDiagnosticParams{TextDocument: docID})
			return err
		})
	case n < 79:
		d.call(protocol.MethodTextDocumentDocumentSymbol, func(ctx context.Context) error {
			_, err := d.server.DocumentSymbol(ctx, &protocol.DocumentSymbolParams{TextDocument: docID})
			return err
		})
	case n < 82:
		d.call(protocol.MethodTextDocumentFoldingRange, func(ctx context.Context) error {
			_, err := d.server.FoldingRanges(ctx, &protocol.FoldingRangeParams{TextDocument: docID})
			return err
		})
	case n < 85:
		d.call(protocol.MethodTextDocumentCodeLens, func(ctx context.Context) error {
			_, err := d.server.CodeLens(ctx, &protocol.CodeLensParams{TextDocument: docID})
			return err
		})
	case n < 88:
		_, p := pos()
		d.call(protocol.MethodTextDocumentCompletion, func(ctx context.Context) error {
			_, err := d.server.Completion(ctx, &protocol.CompletionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: docID, Position: p}})
			return err
		})
	case n < 91:
		_, p := pos()
		d.call(protocol.MethodTextDocumentDefinition, func(ctx context.Context) error {
			_, err := d.server.Definition(ctx, &protocol.DefinitionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{TextDocument: docID, Position: p}})
			return err
		})
	case n < 93:
		d.call(protocol.MethodWorkspaceSymbol, func(ctx context.Context) error {
			_, err := d.server.Symbols(ctx, &protocol.WorkspaceSymbolParams{Query: "VAL"})
			return err
		})
	case n < 95: // save: the disk catches up with the editor
		if err := os.WriteFile(x.path, []byte(x.text), 0o644); err != nil {
			d.r.fail("writing " + x.path + ": " + err.Error())
		}
		d.call(protocol.MethodTextDocumentDidSave, func(ctx context.Context) error {
			return d.server.DidSave(ctx, &protocol.DidSaveTextDocumentParams{TextDocument: docID})
		})
		d.call(protocol.MethodWorkspaceDidChangeWatchedFiles, func(ctx context.Context) error {
			return d.server.DidChangeWatchedFiles(ctx, &protocol.DidChangeWatchedFilesParams{Changes: []protocol.FileEvent{{URI: x.uri, Type: protocol.FileChangeTypeChanged}}})
		})
	case n < 97: // close, and reopen from the original text later
		x.open = false
		x.text = x.original
		d.call(protocol.MethodTextDocumentDidClose, func(ctx context.Context) error {
			return d.server.DidClose(ctx, &protocol.DidCloseTextDocumentParams{TextDocument: docID})
		})
	default: // the whole text at once, back to the original: bounds growth
		d.replace(x, x.original)
	}
	if len(x.text) > 4*len(x.original)+4096 {
		d.replace(x, x.original)
	}
}

// edit sends one incremental change at a valid position and applies it to
// the driver's copy.
func (d *driver) edit(x *doc) {
	ix := source.NewIndex([]byte(x.text))
	a := ix.Offset(ix.Position(d.rng.IntN(len(x.text) + 1)))
	b := a
	ins := snippets[d.rng.IntN(len(snippets))]
	if d.rng.IntN(3) == 0 { // delete (or replace) a short span
		b = ix.Offset(ix.Position(min(len(x.text), a+d.rng.IntN(40))))
		if b < a {
			a, b = b, a
		}
		if d.rng.IntN(2) == 0 {
			ins = ""
		}
	}
	rg := ix.Range(source.Span{Start: a, End: b})
	x.text = x.text[:a] + ins + x.text[b:]
	x.version++
	d.r.mu.Lock()
	d.r.edits++
	d.r.mu.Unlock()
	change := &protocol.TextDocumentContentChangePartial{Text: ins, Range: protocol.Range{
		Start: protocol.Position{Line: uint32(rg.Start.Line), Character: uint32(rg.Start.Character)},
		End:   protocol.Position{Line: uint32(rg.End.Line), Character: uint32(rg.End.Character)},
	}}
	d.change(x, change)
}

func (d *driver) replace(x *doc, text string) {
	x.text = text
	x.version++
	d.change(x, &protocol.TextDocumentContentChangeWholeDocument{Text: text})
}

func (d *driver) change(x *doc, c protocol.TextDocumentContentChangeEvent) {
	d.call(protocol.MethodTextDocumentDidChange, func(ctx context.Context) error {
		return d.server.DidChange(ctx, &protocol.DidChangeTextDocumentParams{
			TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: x.uri}, Version: x.version},
			ContentChanges: []protocol.TextDocumentContentChangeEvent{c},
		})
	})
}

// copyCharters copies every file under src into dst and returns the
// markdown files as documents to drive.
func copyCharters(src, dst string) ([]*doc, error) {
	var docs []*doc
	err := filepath.WalkDir(src, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(target, b, 0o644); err != nil {
			return err
		}
		if strings.HasSuffix(p, ".md") && filepath.Base(p) != "README.md" {
			docs = append(docs, &doc{path: target, original: string(b), text: string(b), uri: uri.File(target)})
		}
		return nil
	})
	return docs, err
}

// rssKB reads the resident set size of pid from /proc (Linux).
func rssKB(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			return strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		}
	}
	return 0, errors.New("no VmRSS")
}

// stdio joins the server's stdout and stdin into one stream.
type stdio struct {
	io.ReadCloser
	w io.WriteCloser
}

func (s stdio) Write(b []byte) (int, error) { return s.w.Write(b) }
func (s stdio) Close() error {
	_ = s.w.Close()
	return s.ReadCloser.Close()
}
