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

func measureServer(bin, root, file string, edits int) (serverResult, error) {
	var r serverResult
	cmd := exec.Command(bin, "serve")
	cmd.Dir = root
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return r, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return r, err
	}
	if err := cmd.Start(); err != nil {
		return r, err
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	ctx := context.Background()
	c := &client{seen: map[int32]chan struct{}{}}
	c.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(pipes{stdout, stdin}), jsonrpc2.WithCodec(lsp.Codec{}))
	c.conn.Go(ctx, c.handle)

	rootURI := uri.File(root)
	u := uri.File(file)
	caps := map[string]any{
		"workspace":    map[string]any{"configuration": true, "workspaceFolders": true},
		"textDocument": map[string]any{"publishDiagnostics": map[string]any{"versionSupport": true}},
	}
	var initRes json.RawMessage
	if _, err := c.conn.Call(ctx, "initialize", map[string]any{"processId": os.Getpid(), "rootUri": rootURI, "capabilities": caps,
		"workspaceFolders": []any{map[string]any{"uri": rootURI, "name": "bench"}}, "initializationOptions": map[string]any{"debounceMs": 0}}, &initRes); err != nil {
		return r, fmt.Errorf("initialize: %w", err)
	}
	if err := c.conn.Notify(ctx, "initialized", map[string]any{}); err != nil {
		return r, err
	}
	text, err := os.ReadFile(file)
	if err != nil {
		return r, err
	}
	heading, verifier, body := positions(text)
	await := func(v int32) error {
		select {
		case <-c.wait(v):
			return nil
		case <-time.After(60 * time.Second):
			return fmt.Errorf("no diagnostics for version %d", v)
		}
	}
	doc := map[string]any{"uri": u}

	// Open (three times: close and re-open with a new version).
	var opens []float64
	version := int32(0)
	for i := 0; i < 3; i++ {
		if i > 0 {
			_ = c.conn.Notify(ctx, "textDocument/didClose", map[string]any{"textDocument": doc})
		}
		version++
		start := time.Now()
		if err := c.conn.Notify(ctx, "textDocument/didOpen", map[string]any{"textDocument": map[string]any{
			"uri": u, "languageId": "markdown", "version": version, "text": string(text)}}); err != nil {
			return r, err
		}
		if err := await(version); err != nil {
			return r, err
		}
		opens = append(opens, since(start))
	}
	r.open = median(opens)
	r.rssKB = append(r.rssKB, rss(cmd.Process.Pid))

	// Edits: type a character at the end of "Verifier: command" and undo
	// it, so each version's diagnostics differ and are published.
	var editMs []float64
	for i := 0; i < edits; i++ {
		version++
		rng := map[string]any{"start": verifier, "end": verifier}
		change := map[string]any{"range": rng, "text": "x"}
		if i%2 == 1 {
			end := map[string]any{"line": verifier["line"], "character": verifier["character"].(int) + 1}
			change = map[string]any{"range": map[string]any{"start": verifier, "end": end}, "text": ""}
		}
		start := time.Now()
		if err := c.conn.Notify(ctx, "textDocument/didChange", map[string]any{
			"textDocument": map[string]any{"uri": u, "version": version}, "contentChanges": []any{change}}); err != nil {
			return r, err
		}
		if err := await(version); err != nil {
			return r, err
		}
		editMs = append(editMs, since(start))
		if third := max(edits/3, 1); (i+1)%third == 0 && i+1 <= 3*third {
			r.rssKB = append(r.rssKB, rss(cmd.Process.Pid))
		}
	}
	r.edit = median(editMs)

	call := func(method string, params any) (float64, error) {
		var out json.RawMessage
		start := time.Now()
		_, err := c.conn.Call(ctx, method, params, &out)
		if err == nil && (len(out) == 0 || string(out) == "null") && method == "textDocument/hover" {
			err = fmt.Errorf("%s answered null", method)
		}
		return since(start), err
	}
	for _, m := range []struct {
		method string
		params any
		into   *float64
	}{
		{"textDocument/hover", map[string]any{"textDocument": doc, "position": heading}, &r.hover},
		{"textDocument/codeAction", map[string]any{"textDocument": doc, "range": map[string]any{"start": heading, "end": heading},
			"context": map[string]any{"diagnostics": []any{}}}, &r.action},
		{"textDocument/completion", map[string]any{"textDocument": doc, "position": body}, &r.completion},
	} {
		var xs []float64
		for i := 0; i < 30; i++ {
			d, err := call(m.method, m.params)
			if err != nil {
				return r, err
			}
			xs = append(xs, d)
		}
		*m.into = median(xs)
	}
	_, _ = c.conn.Call(ctx, "shutdown", nil, nil)
	_ = c.conn.Notify(ctx, "exit", nil)
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
