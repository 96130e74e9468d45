package lsp

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"
)

// No notification stops the server: whatever a client sends without an id
// (but exit), the connection stays up and the next request is answered.

// cancelShapes are the $/cancelRequest notifications a client can send:
// the ids LSP allows, and every shape it does not.
var cancelShapes = []string{
	`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":7}}`,
	`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"7"}}`,
	`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":null}}`,
	`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":1.5}}`,
	`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":{"a":1}}}`,
	`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":[1]}}`,
	`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":true}}`,
	`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":1180591620717411303424}}`, // 2^70
	`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":-9223372036854775809}}`,
	`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":1e400}}`,
	`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{}}`,
	`{"jsonrpc":"2.0","method":"$/cancelRequest","params":null}`,
	`{"jsonrpc":"2.0","method":"$/cancelRequest","params":[]}`,
	`{"jsonrpc":"2.0","method":"$/cancelRequest","params":"7"}`,
	`{"jsonrpc":"2.0","method":"$/cancelRequest","params":7}`,
	`{"jsonrpc":"2.0","method":"$/cancelRequest"}`,
}

func TestWireEveryCancelShapeKeepsTheServer(t *testing.T) {
	for i, shape := range cancelShapes {
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			c := startRaw(t, New(Options{Disk: emptyFS{}}))
			c.initialize(1)
			c.frame(shape)
			c.alive(2)
		})
	}
}

// alive asks for something and wants an answer: the server is still
// serving (and did not exit).
func (c *rawClient) alive(id int) {
	c.t.Helper()
	select {
	case code := <-c.code:
		c.code <- code
		c.t.Fatalf("the server exited with code %d", code)
	default:
	}
	c.call(id, "textDocument/hover", `{"textDocument":{"uri":"file:///robust/charter.md"},"position":{"line":0,"character":0}}`)
	c.wantResult(strconv.Itoa(id))
}

// notificationMethods are the client-to-server notifications of LSP 3.17
// (but exit, which ends the session by design) and a few no server knows.
var notificationMethods = []string{
	"$/cancelRequest", "$/setTrace", "$/progress", "$/logTrace",
	"initialized", "workspace/didChangeConfiguration", "workspace/didChangeWatchedFiles",
	"workspace/didChangeWorkspaceFolders", "workspace/didCreateFiles", "workspace/didRenameFiles",
	"workspace/didDeleteFiles", "window/workDoneProgress/cancel",
	"textDocument/didOpen", "textDocument/didChange", "textDocument/didClose",
	"textDocument/didSave", "textDocument/willSave",
	"notebookDocument/didOpen", "notebookDocument/didChange", "notebookDocument/didSave", "notebookDocument/didClose",
	"telemetry/event", "charter/unknown", "", "$/", "initialize", "shutdown", "textDocument/hover",
}

// randomJSON is an arbitrary JSON value of at most depth levels, biased
// toward the shapes LSP params have (objects with the keys they use).
func randomJSON(r *rand.Rand, depth int) any {
	keys := []string{"id", "textDocument", "uri", "version", "text", "contentChanges", "range", "start", "end",
		"line", "character", "settings", "changes", "type", "event", "added", "removed", "value", "token", "files", "languageId"}
	atoms := []any{nil, true, false, 0, -1, 1.5, 1e308, json.Number("1180591620717411303424"), "", "x",
		"file:///robust/charter.md", "file:///", "file://host/share/x.md", "untitled:1", "\x00\u202e", strings.Repeat("a", 300),
		2147483647, 2147483648, -2147483649, 4294967295, 4294967296}
	if depth <= 0 || r.IntN(3) == 0 {
		return atoms[r.IntN(len(atoms))]
	}
	if r.IntN(4) == 0 {
		a := make([]any, r.IntN(4))
		for i := range a {
			a[i] = randomJSON(r, depth-1)
		}
		return a
	}
	m := map[string]any{}
	for range r.IntN(5) {
		m[keys[r.IntN(len(keys))]] = randomJSON(r, depth-1)
	}
	return m
}

// randomNotification is a notification frame body: a known or unknown
// method with arbitrary params, or no params at all.
func randomNotification(r *rand.Rand) string {
	method := notificationMethods[r.IntN(len(notificationMethods))]
	if r.IntN(3) == 0 {
		return fmt.Sprintf(`{"jsonrpc":"2.0","method":%q}`, method)
	}
	params, err := json.Marshal(randomJSON(r, 5))
	if err != nil {
		panic(err)
	}
	return fmt.Sprintf(`{"jsonrpc":"2.0","method":%q,"params":%s}`, method, params)
}

// A property: after any sequence of notifications (every method a client
// may send, arbitrary params), the server still answers.
func TestWireArbitraryNotificationsKeepTheServer(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(seed, 20))
	rounds := 40
	if testing.Short() {
		rounds = 8
	}
	for round := range rounds {
		c := startRaw(t, New(Options{Disk: emptyFS{}}))
		c.initialize(1)
		c.notify("textDocument/didOpen", openParams("# Charter\n\n## Objective\n\nx\n"))
		var sent []string
		for range 25 {
			body := randomNotification(r)
			sent = append(sent, body)
			if err := c.write(body); err != nil {
				t.Fatalf("round %d: write: %v\nsent:\n%s", round, err, strings.Join(sent, "\n"))
			}
		}
		select {
		case code := <-c.code:
			t.Fatalf("round %d: the server exited with code %d after:\n%s", round, code, strings.Join(sent, "\n"))
		default:
		}
		c.alive(2)
	}
}

// FuzzNotification sends one arbitrary frame body as a notification (seeded
// with every cancel shape) and wants the server to answer afterwards.
func FuzzNotification(f *testing.F) {
	for _, s := range cancelShapes {
		f.Add(s)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		f.Add(randomNotification(r))
	}
	f.Fuzz(func(t *testing.T, body string) {
		var probe struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if json.Unmarshal([]byte(body), &probe) == nil && (probe.ID != nil || probe.Method == "exit") {
			t.Skip("a request, or exit: not a notification that must leave the server up")
		}
		c := startRaw(t, New(Options{Disk: emptyFS{}}))
		c.initialize(1)
		c.frame(body)
		// A frame the server cannot read as a message is answered (id
		// null); read past it.
		c.alive(2)
	})
}
