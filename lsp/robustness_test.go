package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/uri"

	"github.com/charter-lsp/charter-lsp/internal/testfixture"
)

// Protocol robustness over the wire: a raw client writes LSP frames by hand
// (so it can send what no well-behaved library would) and reads the
// server's answers.

// wireTimeout bounds every wait for the server (testfixture.Timeout scales
// it for the race detector and small machines).
var wireTimeout = testfixture.Timeout(10 * time.Second)

type rawClient struct {
	t    testing.TB
	conn net.Conn
	r    *bufio.Reader
	code chan int // the server's exit code
	wmu  sync.Mutex
	// msgs are the server's responses and notifications, read as they come
	// (like an editor, the client never stops reading: the server may be
	// writing diagnostics while we write edits). Server requests are
	// answered with null by the reader.
	msgs    chan wireMsg
	readErr chan error
}

func newRawClient(t testing.TB, conn net.Conn) *rawClient {
	c := &rawClient{t: t, conn: conn, r: bufio.NewReader(conn), code: make(chan int, 1),
		msgs: make(chan wireMsg, 1<<16), readErr: make(chan error, 1)}
	go func() {
		for {
			m, err := c.read()
			if err != nil {
				c.readErr <- err
				return
			}
			if m.Method != "" && m.ID != nil {
				c.write(fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"result":null}`, m.ID))
				continue
			}
			c.msgs <- m
		}
	}()
	return c
}

type wireMsg struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	} `json:"error,omitempty"`
}

func startRaw(t testing.TB, s *Server) *rawClient {
	t.Helper()
	serverEnd, clientEnd := net.Pipe()
	c := newRawClient(t, clientEnd)
	go func() { c.code <- s.Serve(context.Background(), serverEnd) }()
	t.Cleanup(func() {
		clientEnd.Close()
		select {
		case <-c.code:
		case <-time.After(wireTimeout):
			t.Error("server did not stop after the client went away")
		}
	})
	return c
}

// frame sends body with LSP's Content-Length framing.
func (c *rawClient) frame(body string) {
	c.t.Helper()
	if err := c.write(body); err != nil {
		c.t.Fatalf("write: %v", err)
	}
}

func (c *rawClient) write(body string) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.conn.SetWriteDeadline(time.Now().Add(wireTimeout))
	_, err := fmt.Fprintf(c.conn, "Content-Length: %d\r\n\r\n%s", len(body), body)
	return err
}

func (c *rawClient) call(id int, method, params string) {
	c.t.Helper()
	c.frame(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, id, method, params))
}

func (c *rawClient) notify(method, params string) {
	c.t.Helper()
	c.frame(fmt.Sprintf(`{"jsonrpc":"2.0","method":%q,"params":%s}`, method, params))
}

// read returns the next message from the server.
func (c *rawClient) read() (wireMsg, error) {
	n := -1
	for {
		line, err := c.r.ReadString('\n')
		if err != nil {
			return wireMsg{}, err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
			n, _ = strconv.Atoi(v)
		}
	}
	if n < 0 {
		return wireMsg{}, fmt.Errorf("frame without Content-Length")
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(c.r, body); err != nil {
		return wireMsg{}, err
	}
	var m wireMsg
	if err := json.Unmarshal(body, &m); err != nil {
		return wireMsg{}, fmt.Errorf("%v in %s", err, body)
	}
	return m, nil
}

// response waits for the response with the given id (a JSON literal: 1,
// null), skipping notifications.
func (c *rawClient) response(id string) wireMsg {
	c.t.Helper()
	timeout := time.After(wireTimeout)
	for {
		select {
		case m := <-c.msgs:
			if m.Method == "" && string(m.ID) == id {
				return m
			}
		case err := <-c.readErr:
			c.t.Fatalf("waiting for response %s: %v", id, err)
		case <-timeout:
			c.t.Fatalf("no response %s", id)
		}
	}
}

func (c *rawClient) wantError(id string, code jsonrpc2.Code) wireMsg {
	c.t.Helper()
	m := c.response(id)
	if m.Error == nil || m.Error.Code != int64(code) {
		c.t.Fatalf("response %s = %+v, result %s; want error %d", id, m.Error, m.Result, code)
	}
	return m
}

func (c *rawClient) wantResult(id string) wireMsg {
	c.t.Helper()
	m := c.response(id)
	if m.Error != nil {
		c.t.Fatalf("response %s: error %d %s", id, m.Error.Code, m.Error.Message)
	}
	return m
}

func (c *rawClient) initialize(id int) {
	c.t.Helper()
	c.initializeAt(id, "null")
}

// initializeAt initializes with rootUri root (JSON).
func (c *rawClient) initializeAt(id int, root string) {
	c.t.Helper()
	c.call(id, "initialize", `{"processId":null,"rootUri":`+root+`,"capabilities":{},"initializationOptions":{"debounceMs":0}}`)
	c.wantResult(strconv.Itoa(id))
	c.notify("initialized", `{}`)
}

// blockingDisk is a disk on which the check of the pi charter
// /robust/.pi/charters/c waits: reading its state.json, which the charter's
// view loads (opening the register reads only the project configuration),
// blocks until release is closed; started says a check is under way.
type blockingDisk struct {
	emptyFS
	started chan struct{}
	release chan struct{}
	once    sync.Once
}

func newBlockingDisk() *blockingDisk {
	return &blockingDisk{started: make(chan struct{}), release: make(chan struct{})}
}

func (b *blockingDisk) Stat(name string) (fs.FileInfo, error) {
	b.wait(name)
	return nil, fs.ErrNotExist
}

func (b *blockingDisk) ReadFile(name string) ([]byte, error) {
	b.wait(name)
	return nil, fs.ErrNotExist
}

func (b *blockingDisk) wait(name string) {
	if filepath.ToSlash(name) == "/robust/.pi/charters/c/state.json" {
		b.once.Do(func() { close(b.started) })
		<-b.release
	}
}

// textOf is the text the server holds for the document at u in its
// current snapshot: what every check of it reads.
func textOf(t *testing.T, s *Server, u string) string {
	t.Helper()
	p, err := filePath(uri.URI(u))
	if err != nil {
		t.Fatal(err)
	}
	return string(s.ws.Snapshot().File(p).Text)
}

const (
	charterURI  = "file:///robust/charter.md"
	registerURI = "file:///robust/.pi/charters/c/criteria.md"
)

func openParams(text string) string {
	return fmt.Sprintf(`{"textDocument":{"uri":%q,"languageId":"markdown","version":1,"text":%q}}`, charterURI, text)
}

func pullParams() string { return fmt.Sprintf(`{"textDocument":{"uri":%q}}`, charterURI) }

func TestWireMalformedJSONKeepsTheConnection(t *testing.T) {
	c := startRaw(t, New(Options{Disk: emptyFS{}}))
	c.frame(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{`) // cut short
	c.wantError("null", jsonrpc2.ParseError)
	c.frame(`not json at all`)
	c.wantError("null", jsonrpc2.ParseError)
	c.frame(``) // Content-Length: 0: framing intact, the message empty
	c.wantError("null", jsonrpc2.ParseError)
	c.frame(`{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"capabilities":"nope"}}`)
	c.wantError("2", jsonrpc2.InvalidParams)
	c.initialize(3) // still serving
}

func TestWireLifecycleErrors(t *testing.T) {
	c := startRaw(t, New(Options{Disk: emptyFS{}}))
	// Before initialize: requests get ServerNotInitialized, notifications
	// are dropped.
	c.call(1, "textDocument/hover", `{"textDocument":{"uri":"file:///x.md"},"position":{"line":0,"character":0}}`)
	c.wantError("1", jsonrpc2.ServerNotInitialized)
	c.notify("textDocument/didOpen", openParams("# dropped\n"))
	c.initialize(2)
	c.call(3, "initialize", `{"capabilities":{}}`)
	c.wantError("3", jsonrpc2.InvalidRequest)

	// Unknown methods: requests get MethodNotFound, notifications nothing.
	c.notify("charter/unknown", `{"a":1}`)
	c.notify("$/unknown", `{}`)
	c.call(4, "charter/unknown", `{"a":1}`)
	c.wantError("4", jsonrpc2.MethodNotFound)
	c.call(5, "$/unknown", `{}`)
	c.wantError("5", jsonrpc2.MethodNotFound)
	c.call(6, "textDocument/hover", `{"textDocument":{"uri":"file:///robust/charter.md"},"position":{"line":0,"character":0}}`)
	if m := c.wantResult("6"); string(m.Result) != "null" {
		t.Errorf("hover on a document never opened (its didOpen came before initialize) = %s, want null", m.Result)
	}

	// After shutdown: InvalidRequest, then exit 0.
	c.call(7, "shutdown", `null`)
	c.wantResult("7")
	c.call(8, "textDocument/hover", `{"textDocument":{"uri":"file:///x.md"},"position":{"line":0,"character":0}}`)
	c.wantError("8", jsonrpc2.InvalidRequest)
	c.notify("exit", `null`)
	select {
	case code := <-c.code:
		c.code <- code
		if code != 0 {
			t.Errorf("exit after shutdown: code %d, want 0", code)
		}
	case <-time.After(wireTimeout):
		t.Fatal("server did not exit")
	}
}

func TestWireExitWithoutShutdown(t *testing.T) {
	c := startRaw(t, New(Options{Disk: emptyFS{}}))
	c.initialize(1)
	c.notify("exit", `null`)
	select {
	case code := <-c.code:
		c.code <- code
		if code != 1 {
			t.Errorf("exit without shutdown: code %d, want 1", code)
		}
	case <-time.After(wireTimeout):
		t.Fatal("server did not exit")
	}
}

// Stale and duplicate versions are refused; ranges outside the document
// clamp; the connection survives all of it.
func TestWireVersionsAndOutOfRangeEdits(t *testing.T) {
	s := New(Options{Disk: emptyFS{}})
	c := startRaw(t, s)
	c.initialize(1)
	c.notify("textDocument/didOpen", openParams("# Charter\n"))
	change := func(version int, rng, newText string) {
		c.notify("textDocument/didChange", fmt.Sprintf(`{"textDocument":{"uri":%q,"version":%d},"contentChanges":[{"range":%s,"text":%q}]}`,
			charterURI, version, rng, newText))
	}
	end := `{"start":{"line":1,"character":0},"end":{"line":1,"character":0}}`
	change(3, end, "three\n")
	change(2, end, "two (reordered)\n")
	change(3, end, "three again (duplicate)\n")
	change(4, `{"start":{"line":999,"character":5},"end":{"line":1000000,"character":4294967295}}`, "past the end\n")
	change(5, `{"start":{"line":0,"character":9},"end":{"line":0,"character":2}}`, "-") // reversed
	c.call(2, "textDocument/diagnostic", pullParams())
	c.wantResult("2") // answered: every change before it is applied
	if got, want := textOf(t, s, charterURI), "# -\nthree\npast the end\n"; got != want {
		t.Errorf("text = %q, want %q", got, want)
	}
}

// $/cancelRequest answers the in-flight request with RequestCancelled at
// once, and the time budget answers a request that takes too long; other
// requests are answered meanwhile.
func TestWireCancelAndBudget(t *testing.T) {
	// A register whose check waits on the disk (blockingDisk).
	open := fmt.Sprintf(`{"textDocument":{"uri":%q,"languageId":"markdown","version":1,"text":"## m1 One\n### VAL-A-001 — works\nVerifier: manual\nBecause: b\n"}}`, registerURI)
	pull := fmt.Sprintf(`{"textDocument":{"uri":%q}}`, registerURI)
	t.Run("cancel", func(t *testing.T) {
		b := newBlockingDisk()
		defer close(b.release)
		c := startRaw(t, New(Options{Disk: b}))
		c.initializeAt(1, `"file:///robust"`)
		c.notify("textDocument/didOpen", open)
		c.call(2, "textDocument/diagnostic", pull)
		<-b.started
		c.call(3, "textDocument/hover", `{"textDocument":{"uri":"file:///robust/charter.md"},"position":{"line":0,"character":0}}`)
		c.wantResult("3") // responsive while a check hangs
		c.notify("$/cancelRequest", `{"id":2}`)
		c.wantError("2", jsonrpc2.Code(-32800))
	})
	t.Run("budget", func(t *testing.T) {
		b := newBlockingDisk()
		defer close(b.release)
		c := startRaw(t, New(Options{Disk: b, RequestBudget: 200 * time.Millisecond}))
		c.initializeAt(1, `"file:///robust"`)
		c.notify("textDocument/didOpen", open)
		c.call(2, "textDocument/diagnostic", pull)
		m := c.wantError("2", codeRequestFailed)
		if !strings.Contains(m.Error.Message, "took longer") {
			t.Errorf("message %q does not say the request took too long", m.Error.Message)
		}
	})
}

// A panic inside a request handler becomes an InternalError answer; the
// connection stays up.
func TestWireHandlerPanicIsAnswered(t *testing.T) {
	s := New(Options{Disk: emptyFS{}})
	real := s.dispatch
	s.dispatch = func(ctx context.Context, req *jsonrpc2.Request) (any, error) {
		if req.Method() == "textDocument/hover" || req.Method() == "textDocument/didOpen" {
			panic("boom in " + req.Method())
		}
		return real(ctx, req)
	}
	c := startRaw(t, s)
	c.initialize(1)
	c.notify("textDocument/didOpen", openParams("# Charter\n")) // a panicking notification
	c.call(2, "textDocument/hover", `{"textDocument":{"uri":"file:///robust/charter.md"},"position":{"line":0,"character":0}}`)
	c.wantError("2", jsonrpc2.InternalError)
	c.call(3, "textDocument/diagnostic", pullParams())
	c.wantResult("3")
}

// A client that disappears ends the session (exit code 1) and leaves no
// goroutine behind.
func TestWireClientDisappears(t *testing.T) {
	before := runtime.NumGoroutine()
	for range 5 {
		s := New(Options{Disk: emptyFS{}})
		serverEnd, clientEnd := net.Pipe()
		code := make(chan int, 1)
		go func() { code <- s.Serve(context.Background(), serverEnd) }()
		c := newRawClient(t, clientEnd)
		c.initialize(1)
		c.notify("textDocument/didOpen", openParams("# Charter\n"))
		c.call(2, "textDocument/diagnostic", pullParams())
		clientEnd.Close() // gone mid-request
		select {
		case got := <-code:
			if got != 1 {
				t.Errorf("exit code %d after the client vanished, want 1", got)
			}
		case <-time.After(wireTimeout):
			t.Fatal("server still serving a client that is gone")
		}
	}
	deadline := time.Now().Add(wireTimeout)
	for runtime.NumGoroutine() > before+2 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before+2 {
		buf := make([]byte, 1<<20)
		t.Errorf("%d goroutines before, %d after five sessions:\n%s", before, n, buf[:runtime.Stack(buf, true)])
	}
}

// One didChange carrying 20,000 changes that leave 10 MB, then one with
// 400,000 one-character changes: each is applied in time linear in the
// text and the changes (not one copy of the text per change, which took
// minutes), the text is exactly what the client holds, and the server
// answers the next request. The wait is the usual wire timeout: no timing
// assertion (BenchmarkApplyChanges* measure).
func TestWireManyChangesInOneDidChange(t *testing.T) {
	if testing.Short() {
		t.Skip("large messages")
	}
	s := New(Options{Disk: emptyFS{}})
	c := startRaw(t, s)
	c.initialize(1)
	c.notify("textDocument/didOpen", openParams(""))
	didChange := func(version int, changes []string) {
		c.frame(fmt.Sprintf(`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":%q,"version":%d},"contentChanges":[%s]}}`,
			charterURI, version, strings.Join(changes, ",")))
	}
	// 20,000 lines of 512 bytes, each inserted at the start of the line
	// the previous one ended on (the end of the text); then 400,000
	// one-character changes. Under the race detector, which makes this
	// test take 20 s and 900 MB, a twentieth of each: what is checked is that
	// every change applies in order, and the benchmarks time the sizes.
	lines, typed := 20_000, 400_000
	if testfixture.Race {
		lines, typed = 1_000, 20_000
	}
	block := strings.Repeat("pasted ", 72) + "✓ —\n"
	changes := make([]string, lines)
	for i := range changes {
		changes[i] = fmt.Sprintf(`{"range":{"start":{"line":%d,"character":0},"end":{"line":%d,"character":0}},"text":%q}`, i, i, block)
	}
	didChange(2, changes)
	want := strings.Repeat(block, lines)
	check := func(id int) {
		t.Helper()
		c.call(id, "textDocument/diagnostic", pullParams())
		c.wantResult(strconv.Itoa(id)) // answered: every change before it is applied
		if got := textOf(t, s, charterURI); got != want {
			t.Fatalf("text after the changes: %d bytes, want %d (first difference at %d)", len(got), len(want), firstDiff(got, want))
		}
	}
	check(2)

	// One-character changes, typed at the end of the first line.
	changes = make([]string, typed)
	for i := range changes {
		col := len([]rune(block)) - 1 + i
		changes[i] = fmt.Sprintf(`{"range":{"start":{"line":0,"character":%d},"end":{"line":0,"character":%d}},"text":"x"}`, col, col)
	}
	didChange(3, changes)
	first, rest, _ := strings.Cut(want, "\n")
	want = first + strings.Repeat("x", typed) + "\n" + rest
	check(3)
}

func firstDiff(a, b string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// A 50 MB document opened by the client (over the 16 MB analysis limit,
// under the 64 MB frame limit), then documentSymbol on it: the time to the
// answer is reading and decoding the frame (the protocol package's string
// decoder is most of it); the document itself is refused before any work.
func BenchmarkOpenHugeDocument(b *testing.B) {
	c := startRaw(b, New(Options{Disk: emptyFS{}}))
	c.initialize(1)
	text, _ := json.Marshal("# Criteria\n\n## m1\n\n" + strings.Repeat("filler line — for a very large criteria file ✓\n", (50<<20)/50))
	open := fmt.Sprintf(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":%q,"languageId":"markdown","version":1,"text":%s}}}`, charterURI, text)
	id := 1
	for b.Loop() {
		c.frame(open)
		id++
		c.call(id, "textDocument/documentSymbol", pullParams())
		if m := c.wantResult(strconv.Itoa(id)); string(m.Result) != "[]" {
			b.Fatalf("symbols of a document over the limit: %s", m.Result)
		}
		c.notify("textDocument/didClose", pullParams())
	}
}
