package lsp

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
)

// A frame whose body is a JSON array — a JSON-RPC batch, which LSP does not
// use — is answered with InvalidRequest and the connection goes on.
func TestWireBatchesAreAnswered(t *testing.T) {
	c := startRaw(t, New(Options{}))
	c.initialize(1)
	for _, body := range []string{`[]`, `[1]`, ` [{"jsonrpc":"2.0","id":7,"method":"shutdown"}]`, `[{"jsonrpc":"2.0","method":"exit"}]`} {
		c.frame(body)
		m := c.wantError("null", jsonrpc2.InvalidRequest)
		if !strings.Contains(m.Error.Message, "batch") {
			t.Errorf("%s: %q", body, m.Error.Message)
		}
	}
	c.call(2, "textDocument/hover", `{"textDocument":{"uri":"file:///x/charter.md"},"position":{"line":0,"character":0}}`)
	c.wantResult("2")
}

// A 500 MB frame is read past, never held: its request gets an error
// answer with its id, the next request is answered, and the server
// allocated a small fraction of the frame's size.
func TestWireOversizedFrameIsSkipped(t *testing.T) {
	c := startRaw(t, New(Options{}))
	c.initialize(1)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)

	c.paddedFrame(`{"jsonrpc":"2.0","id":42,"method":"textDocument/hover","params":{"pad":"`, 500<<20, `"}}`)
	m := c.wantError("42", jsonrpc2.InvalidRequest)
	if !strings.Contains(m.Error.Message, "500 MB") {
		t.Errorf("message %q does not give the size", m.Error.Message)
	}
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20 {
		t.Errorf("the server allocated %d MB for a 500 MB frame it skips", grew>>20)
	}
	// A frame over the limit whose id does not show first: id null.
	c.paddedFrame(`{"params":{"pad":"`, maxFrameBytes+64, `"},"id":43,"jsonrpc":"2.0","method":"x"}`)
	c.wantError("null", jsonrpc2.InvalidRequest)
	c.call(2, "textDocument/hover", `{"textDocument":{"uri":"file:///x/charter.md"},"position":{"line":0,"character":0}}`)
	c.wantResult("2")
}

// A header that never ends — a line without a newline, a block of endless
// header lines — or one without a usable Content-Length ends the
// connection cleanly (exit code 1) after reading at most the header limit:
// the next message's start cannot be known.
func TestWireBadHeadersEndCleanly(t *testing.T) {
	for name, header := range map[string]string{
		"line without newline":    "Content-Length: 10" + strings.Repeat("x", 4<<20),
		"endless header lines":    strings.Repeat("X-Padding: yes\r\n", 1<<18),
		"no Content-Length":       "Content-Type: application/json\r\n\r\n{}",
		"huge Content-Length":     "Content-Length: 99999999999999999999999\r\n\r\n{}",
		"negative Content-Length": "Content-Length: -5\r\n\r\n{}",
	} {
		t.Run(name, func(t *testing.T) {
			serverEnd, clientEnd := net.Pipe()
			code := make(chan int, 1)
			go func() { code <- New(Options{}).Serve(context.Background(), serverEnd) }()
			go io.Copy(io.Discard, clientEnd)
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			written := make(chan int64, 1)
			go func() {
				n, _ := io.Copy(clientEnd, strings.NewReader(header))
				written <- n
			}()
			select {
			case c := <-code:
				if c != 1 {
					t.Errorf("exit code %d, want 1", c)
				}
			case <-time.After(wireTimeout):
				t.Fatal("the server is still reading")
			}
			clientEnd.Close()
			if n := <-written; n > maxHeaderBytes+64<<10+64 && len(header) > int(n) {
				t.Errorf("read %d bytes of a bad header", n)
			}
			runtime.ReadMemStats(&after)
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 16<<20 {
				t.Errorf("allocated %d MB on a bad header", grew>>20)
			}
		})
	}
}

// 100,000 pipelined requests that nobody reads answers to: the server
// stops reading once maxOwed answers wait (backpressure), so the requests
// read, goroutines and memory stay bounded; once the client reads again,
// answers flow (the first thousand are checked; the rest would follow).
func TestWirePipelinedRequestsAreBounded(t *testing.T) {
	const n = 100_000
	s := New(Options{})
	serverEnd, clientEnd := net.Pipe()
	code := make(chan int, 1)
	go func() { code <- s.Serve(context.Background(), serverEnd) }()
	defer func() {
		clientEnd.Close()
		<-code
	}()
	r := bufio.NewReader(clientEnd)
	write := func(body string) error {
		_, err := fmt.Fprintf(clientEnd, "Content-Length: %d\r\n\r\n%s", len(body), body)
		return err
	}
	write(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"processId":null,"rootUri":null,"capabilities":{}}}`)
	if id, err := readID(r); err != nil || id != "0" {
		t.Fatalf("initialize: %s %v", id, err)
	}
	write(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)

	goroutines := runtime.NumGoroutine()
	var base runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&base)
	var sent atomic.Int64
	go func() {
		for i := 1; i <= n; i++ {
			if write(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///x/charter.md"},"position":{"line":0,"character":0}}}`, i)) != nil {
				return
			}
			sent.Add(1)
		}
	}()
	// Nobody reads: wait until every answer slot is taken.
	deadline := time.Now().Add(wireTimeout)
	for st := s.transport.Load(); st == nil || len(st.slots) < maxOwed; st = s.transport.Load() {
		if time.Now().After(deadline) {
			t.Fatalf("answer slots never filled: %d requests sent", sent.Load())
		}
		time.Sleep(time.Millisecond)
	}
	// From here on the server reads at most what its read buffer holds.
	const frame = 150
	limit := int64(maxOwed + maxWork + (64<<10)/frame + 2)
	for i := 0; i < 20; i++ {
		if got := sent.Load(); got > limit {
			t.Fatalf("%d requests read while their answers went unread, want at most %d", got, limit)
		}
		if g := runtime.NumGoroutine() - goroutines; g > 2*maxOwed+maxWork+16 {
			t.Fatalf("%d goroutines more while stalled", g)
		}
		runtime.Gosched()
	}
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	if ms.HeapInuse > base.HeapInuse+32<<20 {
		t.Errorf("heap in use grew from %d to %d MB while stalled", base.HeapInuse>>20, ms.HeapInuse>>20)
	}
	t.Logf("stalled after %d of %d requests", sent.Load(), n)

	// The client reads again: answers flow.
	answered := 0
	for answered < 1000 {
		clientEnd.SetReadDeadline(time.Now().Add(wireTimeout))
		id, err := readID(r)
		if err != nil {
			t.Fatalf("after %d answers: %v", answered, err)
		}
		if id != "null" && id != "" {
			answered++
		}
	}
}

// readID reads one frame and returns its "id" (a JSON literal).
func readID(r *bufio.Reader) (string, error) {
	n := -1
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return "", err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
			n, _ = strconv.Atoi(v)
		}
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r, body); err != nil {
		return "", err
	}
	return string(peekIDRaw(body)), nil
}

func peekIDRaw(body []byte) []byte {
	id := peekID(body)
	if v, ok := id.Number(); ok {
		return []byte(strconv.FormatInt(v, 10))
	}
	if v, ok := id.StringValue(); ok {
		return []byte(strconv.Quote(v))
	}
	return []byte("null")
}

// answeredID reads back the id of exactly the answers jsonrpc2 encodes, as
// idKey keys the requests read.
func TestAnsweredID(t *testing.T) {
	for _, c := range []struct {
		msg  jsonrpc2.Message
		want string
	}{
		{jsonrpc2.NewResponse(jsonrpc2.NewNumberID(42), []byte(`{"x":1}`), nil), idKey(jsonrpc2.NewNumberID(42))},
		{jsonrpc2.NewResponse(jsonrpc2.NewNumberID(-7), nil, jsonrpc2.NewError(1, "e")), idKey(jsonrpc2.NewNumberID(-7))},
		{jsonrpc2.NewResponse(jsonrpc2.NewStringID(`a"b\c`), nil, nil), idKey(jsonrpc2.NewStringID(`a"b\c`))},
		{jsonrpc2.NewResponse(jsonrpc2.ID{}, nil, jsonrpc2.NewError(1, "e")), ""},
		{jsonrpc2.NewCall(jsonrpc2.NewNumberID(3), "workspace/applyEdit", []byte(`{}`)), ""},
		{jsonrpc2.NewNotification("textDocument/publishDiagnostics", []byte(`{}`)), ""},
	} {
		body, _ := jsonrpc2.EncodeMessage(c.msg)
		got, ok := answeredID(body)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("%s: %q %v, want %q", body, got, ok, c.want)
		}
	}
}

// paddedFrame writes a frame of size bytes: head, then padding streamed a
// megabyte at a time (the test never holds the frame), then tail.
func (c *rawClient) paddedFrame(head string, size int, tail string) {
	c.t.Helper()
	c.wmu.Lock()
	defer c.wmu.Unlock()
	c.conn.SetWriteDeadline(time.Now().Add(wireTimeout))
	fmt.Fprintf(c.conn, "Content-Length: %d\r\n\r\n%s", size, head)
	chunk := []byte(strings.Repeat("a", 1<<20))
	for left := size - len(head) - len(tail); left > 0; left -= len(chunk) {
		if _, err := c.conn.Write(chunk[:min(left, len(chunk))]); err != nil {
			c.t.Fatal(err)
		}
	}
	if _, err := io.WriteString(c.conn, tail); err != nil {
		c.t.Fatal(err)
	}
}
