package lsp_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/charter-lsp/charter-lsp/lsp/lsptest"
)

func readFixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "interview", name))
	if err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(string(b), "\r\n", "\n")
}

// An action computed for one version is refused once the document moved
// on; an edit outside the workspace is refused with a message.
func TestInterviewRefusals(t *testing.T) {
	c := lsptest.Start(t, lsptest.Config{Capabilities: editorCaps(), InitializationOptions: map[string]any{"debounceMs": 0}})
	d := openDoc(t, c, "charter.md", "")
	stale := d.action("Start charter interview")
	d.typeAt(protocol.Position{}, "# Project Charter: X\n")
	c.Sync()
	before := len(c.Edits())
	_, err := c.Server.ExecuteCommand(reqCtx(t), &protocol.ExecuteCommandParams{Command: stale.Command.Command, Arguments: stale.Command.Arguments})
	var rpcErr *jsonrpc2.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != -32801 || !strings.Contains(rpcErr.Message, "changed since") {
		t.Errorf("stale action: err = %v, want ContentModified", err)
	}

	outside := filepath.Join(t.TempDir(), "charter.md")
	if err := os.WriteFile(outside, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	arg := []protocol.LSPAny{protocol.LSPAny(`{"uri":"` + string(uri.File(outside)) + `"}`)}
	_, err = c.Server.ExecuteCommand(reqCtx(t), &protocol.ExecuteCommandParams{Command: "charter.interview.start", Arguments: arg})
	if err == nil || !strings.Contains(err.Error(), "outside the workspace") {
		t.Errorf("outside the workspace: err = %v", err)
	}
	c.Sync()
	if len(c.Edits()) != before {
		t.Errorf("an edit was sent despite the refusals: %+v", c.Edits()[before:])
	}
	msgs := c.Messages()
	if len(msgs) == 0 || !strings.Contains(msgs[len(msgs)-1].Message, "outside the workspace") {
		t.Errorf("no message to the user: %+v", msgs)
	}
	if b, _ := os.ReadFile(outside); len(b) != 0 {
		t.Errorf("the file outside was written: %q", b)
	}
}
