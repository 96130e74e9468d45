package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/uri"

	"github.com/charter-lsp/charter-lsp/lsp"
)

type serverResult struct {
	open, edit, hover, action, completion float64 // medians, ms
	rssKB                                 []int64 // after open, then after each third of the edits
}

type pipes struct {
	io.Reader
	io.WriteCloser
}

// client is a minimal editor: it answers workspace/configuration with
// debounce 0 and reports each publishDiagnostics version.
type client struct {
	conn jsonrpc2.Conn
	mu   sync.Mutex
	seen map[int32]chan struct{}
	// progress is each work-done progress by token: when it began and
	// ended (the server's background scan, the reading of a history).
	progress map[string]*progressSeen
}

// progressSeen is one $/progress token's report.
type progressSeen struct {
	title      string
	begun, end time.Time
	ended      chan struct{}
}

// progressTitled waits up to limit for a progress titled title to end and
// returns it.
func (c *client) progressTitled(title string, limit time.Duration) (*progressSeen, error) {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		c.mu.Lock()
		var p *progressSeen
		for _, x := range c.progress {
			if x.title == title {
				p = x
			}
		}
		c.mu.Unlock()
		if p != nil {
			select {
			case <-p.ended:
				return p, nil
			case <-time.After(time.Until(deadline)):
			}
		} else {
			time.Sleep(20 * time.Millisecond)
		}
	}
	return nil, fmt.Errorf("no progress %q ended within %s", title, limit)
}

func (c *client) wait(version int32) chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := c.seen[version]
	if ch == nil {
		ch = make(chan struct{})
		c.seen[version] = ch
	}
	return ch
}

func (c *client) handle(_ context.Context, req *jsonrpc2.Request) (any, error) {
	switch req.Method() {
	case "textDocument/publishDiagnostics":
		// The whole message has arrived (the framing reads the full body
		// before dispatch); read only its version, so the client's decoding
		// of a large diagnostics array is not counted as server latency.
		if v, ok := publishedVersion(req.Params()); ok {
			ch := c.wait(v)
			c.mu.Lock()
			select {
			case <-ch:
			default:
				close(ch)
			}
			c.mu.Unlock()
		}
		return nil, nil
	case "window/workDoneProgress/create":
		return nil, nil
	case "$/progress":
		var p struct {
			Token any `json:"token"`
			Value struct {
				Kind  string `json:"kind"`
				Title string `json:"title"`
			} `json:"value"`
		}
		if json.Unmarshal(req.Params(), &p) == nil {
			token := fmt.Sprint(p.Token)
			c.mu.Lock()
			switch p.Value.Kind {
			case "begin":
				c.progress[token] = &progressSeen{title: p.Value.Title, begun: time.Now(), ended: make(chan struct{})}
			case "end":
				if x := c.progress[token]; x != nil {
					x.end = time.Now()
					close(x.ended)
				}
			}
			c.mu.Unlock()
		}
		return nil, nil
	case "workspace/configuration":
		var p struct {
			Items []json.RawMessage `json:"items"`
		}
		_ = json.Unmarshal(req.Params(), &p)
		out := make([]any, len(p.Items))
		for i := range out {
			out[i] = map[string]any{"debounceMs": 0}
		}
		return out, nil
	}
	return nil, nil
}

// session is a charter-lsp process with a client connected.
type session struct {
	cmd  *exec.Cmd
	c    *client
	ctx  context.Context
	doc  map[string]any // the register's textDocument identifier
	u    uri.URI
	text []byte

	typed  bool // the last edit typed a character (the next deletes it)
	closed bool
}

// startSession starts bin in root and initializes it (debounce 0) for a
// client that, like VS Code, watches files for the server when watch is
// set.
func startSession(bin, root, file string, watch bool) (*session, error) {
	args := []string{"serve"}
	if log := os.Getenv("LSPBENCH_LOG"); log != "" {
		// The servers' debug logs, to see where time goes.
		args = append(args, "-log-level", "debug", "-log-file", log)
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = root
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
	s := &session{cmd: cmd, ctx: context.Background(), u: uri.File(file)}
	s.doc = map[string]any{"uri": s.u}
	s.c = &client{seen: map[int32]chan struct{}{}, progress: map[string]*progressSeen{}}
	s.c.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(pipes{stdout, stdin}), jsonrpc2.WithCodec(lsp.Codec{}))
	s.c.conn.Go(s.ctx, s.c.handle)

	rootURI := uri.File(root)
	ws := map[string]any{"configuration": true, "workspaceFolders": true}
	if watch {
		ws["didChangeWatchedFiles"] = map[string]any{"dynamicRegistration": true}
	}
	caps := map[string]any{
		"workspace":    ws,
		"textDocument": map[string]any{"publishDiagnostics": map[string]any{"versionSupport": true}},
		"window":       map[string]any{"workDoneProgress": true},
	}
	var initRes json.RawMessage
	if _, err := s.c.conn.Call(s.ctx, "initialize", map[string]any{"processId": os.Getpid(), "rootUri": rootURI, "capabilities": caps,
		"workspaceFolders": []any{map[string]any{"uri": rootURI, "name": "bench"}}, "initializationOptions": map[string]any{"debounceMs": 0}}, &initRes); err != nil {
		s.close()
		return nil, fmt.Errorf("initialize: %w", err)
	}
	if err := s.c.conn.Notify(s.ctx, "initialized", map[string]any{}); err != nil {
		s.close()
		return nil, err
	}
	if s.text, err = os.ReadFile(file); err != nil {
		s.close()
		return nil, err
	}
	return s, nil
}

// await waits for the publish of version.
func (s *session) await(v int32) error {
	select {
	case <-s.c.wait(v):
		return nil
	case <-time.After(120 * time.Second):
		return fmt.Errorf("no diagnostics for version %d", v)
	}
}

// open opens the register as version and waits for its diagnostics.
func (s *session) open(version int32) error {
	if err := s.c.conn.Notify(s.ctx, "textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": s.u, "languageId": "markdown", "version": version, "text": string(s.text)}}); err != nil {
		return err
	}
	return s.await(version)
}

// edit types a character at p or, every other time, deletes it again, and
// waits for the publish of version.
func (s *session) edit(version int32, p map[string]any) error {
	change := map[string]any{"range": map[string]any{"start": p, "end": p}, "text": "x"}
	if s.typed = !s.typed; !s.typed {
		end := map[string]any{"line": p["line"], "character": p["character"].(int) + 1}
		change = map[string]any{"range": map[string]any{"start": p, "end": end}, "text": ""}
	}
	if err := s.c.conn.Notify(s.ctx, "textDocument/didChange", map[string]any{
		"textDocument": map[string]any{"uri": s.u, "version": version}, "contentChanges": []any{change}}); err != nil {
		return err
	}
	return s.await(version)
}

// call times one request; an empty or null answer to a request that must
// answer something is an error.
func (s *session) call(method string, params any) (float64, error) {
	var out json.RawMessage
	start := time.Now()
	_, err := s.c.conn.Call(s.ctx, method, params, &out)
	if err == nil && (len(out) == 0 || string(out) == "null" || string(out) == "[]") && method != "textDocument/codeAction" {
		err = fmt.Errorf("%s answered %s", method, out)
	}
	return since(start), err
}

func (s *session) close() {
	if s.closed {
		return
	}
	s.closed = true
	if s.c != nil && s.c.conn != nil {
		ctx, cancel := context.WithTimeout(s.ctx, 5*time.Second)
		_, _ = s.c.conn.Call(ctx, "shutdown", nil, nil)
		_ = s.c.conn.Notify(ctx, "exit", nil)
		cancel()
	}
	_ = s.cmd.Process.Kill()
	_ = s.cmd.Wait()
}

func measureServer(bin, root, file string, edits int) (serverResult, error) {
	var r serverResult
	s, err := startSession(bin, root, file, true)
	if err != nil {
		return r, err
	}
	defer s.close()
	heading, verifier, body := positions(s.text)

	// Open (three times: close and re-open with a new version).
	var opens []float64
	version := int32(0)
	for i := 0; i < 3; i++ {
		if i > 0 {
			_ = s.c.conn.Notify(s.ctx, "textDocument/didClose", map[string]any{"textDocument": s.doc})
		}
		version++
		start := time.Now()
		if err := s.open(version); err != nil {
			return r, err
		}
		opens = append(opens, since(start))
	}
	r.open = median(opens)
	r.rssKB = append(r.rssKB, rss(s.cmd.Process.Pid))

	// Edits: type a character at the end of "Verifier: command" and undo
	// it, so each version's diagnostics differ and are published.
	var editMs []float64
	for i := 0; i < edits; i++ {
		version++
		start := time.Now()
		if err := s.edit(version, verifier); err != nil {
			return r, err
		}
		editMs = append(editMs, since(start))
		if third := max(edits/3, 1); (i+1)%third == 0 && i+1 <= 3*third {
			r.rssKB = append(r.rssKB, rss(s.cmd.Process.Pid))
		}
	}
	r.edit = median(editMs)

	for _, m := range []struct {
		method string
		params any
		into   *float64
	}{
		{"textDocument/hover", map[string]any{"textDocument": s.doc, "position": heading}, &r.hover},
		{"textDocument/codeAction", map[string]any{"textDocument": s.doc, "range": map[string]any{"start": heading, "end": heading},
			"context": map[string]any{"diagnostics": []any{}}}, &r.action},
		{"textDocument/completion", map[string]any{"textDocument": s.doc, "position": body}, &r.completion},
	} {
		var xs []float64
		for i := 0; i < 30; i++ {
			d, err := s.call(m.method, m.params)
			if err != nil {
				return r, err
			}
			xs = append(xs, d)
		}
		*m.into = median(xs)
	}
	return r, nil
}

func since(t time.Time) float64 { return float64(time.Since(t).Microseconds()) / 1000 }

// positions finds, in the middle VAL: its heading, the end of its
// "Verifier: command" line, and the start of the blank line after it.
func positions(text []byte) (heading, verifier, body map[string]any) {
	lines := bytes.Split(text, []byte("\n"))
	pos := func(l, c int) map[string]any { return map[string]any{"line": l, "character": c} }
	seen := 0
	total := bytes.Count(text, []byte("\n### VAL-"))
	for i, l := range lines {
		if !bytes.HasPrefix(l, []byte("### VAL-")) {
			continue
		}
		if seen++; seen < total/2 {
			continue
		}
		for j := i + 1; j < len(lines) && j < i+8; j++ {
			if string(lines[j]) == "Verifier: command" {
				return pos(i, 6), pos(j, len(lines[j])), pos(j+3, 0)
			}
		}
	}
	return pos(0, 0), pos(0, 0), pos(0, 0)
}

// rss is the process's resident set size in KB, from /proc.
func rss(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmRSS:") {
			f := strings.Fields(l)
			if len(f) >= 2 {
				n, _ := strconv.ParseInt(f[1], 10, 64)
				return n
			}
		}
	}
	return 0
}

// publishedVersion reads the "version" member of publishDiagnostics params,
// stopping as soon as it has it.
func publishedVersion(params []byte) (int32, bool) {
	dec := json.NewDecoder(bytes.NewReader(params))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return 0, false
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return 0, false
		}
		if key == "version" {
			var v int32
			return v, dec.Decode(&v) == nil
		}
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return 0, false
		}
	}
	return 0, false
}
