package hostile_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/charter-lsp/charter-lsp/internal/testfixture"
)

// A client's notifications never stop the built server: $/cancelRequest
// with every id shape JSON allows (null, 1.5, an object, 2^70, none),
// every notification method of LSP with params of every JSON type, an
// empty frame, and initialize and shutdown sent without an id. The server
// then answers a request, shuts down and exits 0.
func TestServerSurvivesEveryNotification(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := testfixture.Server(t)
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "serve")
	cmd.Dir = t.TempDir()
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	send := func(body string) {
		if _, err := fmt.Fprintf(stdin, "Content-Length: %d\r\n\r\n%s", len(body), body); err != nil {
			t.Fatalf("the server stopped reading: %v\n%s", err, stderr.String())
		}
	}
	answers := make(chan map[string]json.RawMessage, 64)
	go func() {
		defer close(answers)
		r := bufio.NewReader(stdout)
		for {
			n := -1
			for {
				line, err := r.ReadString('\n')
				if err != nil {
					return
				}
				if line = strings.TrimSpace(line); line == "" {
					break
				}
				if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
					n, _ = strconv.Atoi(v)
				}
			}
			body := make([]byte, n)
			if _, err := io.ReadFull(r, body); err != nil {
				return
			}
			var m map[string]json.RawMessage
			if json.Unmarshal(body, &m) == nil && m["id"] != nil && m["method"] == nil {
				answers <- m
			}
		}
	}()
	answer := func(id string) map[string]json.RawMessage {
		t.Helper()
		for m := range answers {
			if string(m["id"]) == id {
				return m
			}
		}
		t.Fatalf("no answer %s: the server ended\n%s", id, stderr.String())
		return nil
	}

	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":null,"capabilities":{}}}`)
	answer("1")
	send(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)
	for _, id := range []string{`null`, `1.5`, `{"a":1}`, `[1]`, `true`, `1180591620717411303424`, `-1e400`, `"7"`} {
		send(`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":` + id + `}}`)
	}
	send(`{"jsonrpc":"2.0","method":"$/cancelRequest"}`)
	send(`{"jsonrpc":"2.0","method":"$/cancelRequest","params":{}}`)
	for _, method := range []string{"$/cancelRequest", "$/setTrace", "$/progress", "initialized",
		"workspace/didChangeConfiguration", "workspace/didChangeWatchedFiles", "workspace/didChangeWorkspaceFolders",
		"workspace/didCreateFiles", "workspace/didRenameFiles", "workspace/didDeleteFiles", "window/workDoneProgress/cancel",
		"textDocument/didOpen", "textDocument/didChange", "textDocument/didClose", "textDocument/didSave", "textDocument/willSave",
		"notebookDocument/didOpen", "initialize", "shutdown", "charter/unknown"} {
		for _, params := range []string{`null`, `[]`, `{}`, `"x"`, `1.5`, `{"textDocument":{"uri":7}}`, `{"textDocument":{"uri":"file:///x.md","version":1e99}}`} {
			send(fmt.Sprintf(`{"jsonrpc":"2.0","method":%q,"params":%s}`, method, params))
		}
	}
	send(``)
	send(`{"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///x.md"},"position":{"line":0,"character":0}}}`)
	if m := answer("2"); m["error"] != nil {
		t.Errorf("hover after the notifications: %s", m["error"])
	}
	send(`{"jsonrpc":"2.0","id":3,"method":"shutdown"}`)
	answer("3")
	send(`{"jsonrpc":"2.0","method":"exit"}`)
	stdin.Close()
	cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != 0 {
		t.Errorf("exit code %d after shutdown and exit, want 0\n%s", code, stderr.String())
	}
}
