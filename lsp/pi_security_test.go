package lsp_test

// Security properties of the pi-charter features that markers cannot
// express: the server runs no charter command, and writes nothing outside
// the workspace. The features themselves are marker tests
// (testdata/markers/pi, testdata/markers/fixtures/pi_project.txt).

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/charter-lsp/charter-lsp/internal/testfixture"
	"github.com/charter-lsp/charter-lsp/lsp/lsptest"
)

const criteriaRel = ".pi/charters/auth-rework/criteria.md"

// startPi copies the pi-project fixture (src/auth/token.go changed after
// VAL-SESS-001's pass) and opens its criteria.md.
func startPi(t *testing.T) (*lsptest.Client, uri.URI, string) {
	t.Helper()
	project, _ := testfixture.PiProject(t)
	src, err := os.ReadFile(filepath.Join(project, filepath.FromSlash(criteriaRel)))
	if err != nil {
		t.Fatal(err)
	}
	c := lsptest.Start(t, lsptest.Config{Root: project, Capabilities: editorCaps(), InitializationOptions: map[string]any{"debounceMs": 0}})
	text := string(src)
	u := c.Open(criteriaRel, text)
	c.WaitDiagnostics(u, 1)
	return c, u, text
}

// pos is the position of the first occurrence of needle (+delta bytes) in
// text; the fixture is ASCII, so bytes are UTF-16 columns.
func pos(t *testing.T, text, needle string, delta int) protocol.Position {
	t.Helper()
	i := strings.Index(text, needle)
	if i < 0 {
		t.Fatalf("no %q in the text", needle)
	}
	i += delta
	line := strings.Count(text[:i], "\n")
	col := i - (strings.LastIndex(text[:i], "\n") + 1)
	return protocol.Position{Line: uint32(line), Character: uint32(col)}
}

func codesOf(ds []protocol.Diagnostic) map[string][]protocol.Diagnostic {
	out := map[string][]protocol.Diagnostic{}
	for _, d := range ds {
		code, _ := d.Code.(protocol.String)
		out[string(code)] = append(out[string(code)], d)
	}
	return out
}

func hoverText(t *testing.T, c *lsptest.Client, u uri.URI, p protocol.Position) string {
	t.Helper()
	h, err := c.Server.Hover(t.Context(), &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: p,
	}})
	if err != nil {
		t.Fatalf("hover: %v", err)
	}
	if h == nil {
		return ""
	}
	mc, ok := h.Contents.(*protocol.MarkupContent)
	if !ok || mc.Kind != protocol.MarkupKindMarkdown {
		t.Fatalf("hover contents %T, want markdown", h.Contents)
	}
	return mc.Value
}

func codeActions(t *testing.T, c *lsptest.Client, u uri.URI, p protocol.Position, ds []protocol.Diagnostic) []*protocol.CodeAction {
	t.Helper()
	res, err := c.Server.CodeAction(t.Context(), &protocol.CodeActionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: u},
		Range:        protocol.Range{Start: p, End: p},
		Context:      protocol.CodeActionContext{Diagnostics: ds},
	})
	if err != nil {
		t.Fatalf("codeAction: %v", err)
	}
	var out []*protocol.CodeAction
	for _, r := range res {
		if a, ok := r.(*protocol.CodeAction); ok {
			out = append(out, a)
		}
	}
	return out
}

func execute(c *lsptest.Client, t *testing.T, cmd protocol.Command) (map[string]any, error) {
	t.Helper()
	raw, err := c.Server.ExecuteCommand(t.Context(), &protocol.ExecuteCommandParams{Command: cmd.Command, Arguments: cmd.Arguments})
	if err != nil {
		return nil, err
	}
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatalf("%s result %s: %v", cmd.Command, raw, err)
	}
	return out, nil
}

// The server never runs a Command: line or a ## Commands line unless the
// user said yes to that very command: opening, editing, hovering, every
// code action and every code lens clicked — the Run lens included, its
// question dismissed — run nothing.
func TestNeverExecutesCommands(t *testing.T) {
	c, u, text := startPi(t)
	marker := filepath.Join(t.TempDir(), "ran")
	text = strings.Replace(text, "Command: go test ./src/auth/...", "Command: touch "+marker+" && go test ./src/auth/...", 1)
	c.Replace(u, 2, text)
	c.WriteFile(".pi/charters/auth-rework/charter.md", "# Charter: x\n\n## Objective\n\nx\n\n## Commands\n\ntest: touch "+marker+"\n")
	c.FilesChanged(protocol.FileChangeTypeChanged, ".pi/charters/auth-rework/charter.md")
	c.Sync()

	heading := pos(t, text, "### VAL-SESS-001", 5)
	if h := hoverText(t, c, u, heading); !strings.Contains(h, "touch "+marker) {
		t.Errorf("hover does not show the command:\n%s", h)
	}
	for _, a := range codeActions(t, c, u, heading, nil) {
		if a.Title == "Record evidence: fail" {
			if _, err := execute(c, t, a.Command); err != nil {
				t.Fatalf("record: %v", err)
			}
		}
	}
	lenses, err := c.Server.CodeLens(t.Context(), &protocol.CodeLensParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}})
	if err != nil {
		t.Fatal(err)
	}
	ran := 0
	for _, l := range lenses {
		if l.Command.Command == "charter.verify" {
			ran++
			if _, err := execute(c, t, l.Command); err != nil {
				t.Fatalf("%s: %v", l.Command.Title, err)
			}
		}
	}
	if ran == 0 || len(c.Asked()) != ran {
		t.Errorf("%d Run lenses, %d questions: each should ask", ran, len(c.Asked()))
	}
	if _, err := execute(c, t, protocol.Command{Command: "charter.status"}); err != nil {
		t.Fatal(err)
	}
	c.Sync()
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("a charter command was executed")
	}
}

// Recording for a charter outside the workspace folders is refused with an
// error and a message, and nothing is written.
func TestRecordOutsideWorkspaceRefused(t *testing.T) {
	c, _, _ := startPi(t)
	other := t.TempDir()
	outside := filepath.Join(other, ".pi/charters/x/criteria.md")
	if err := os.MkdirAll(filepath.Dir(outside), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(outside, []byte("## m1 M\n\n### VAL-A-001 — A holds\nVerifier: command\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	arg, _ := json.Marshal(map[string]string{"uri": string(uri.File(outside)), "criterionId": "VAL-A-001", "outcome": "pass"})
	_, err := execute(c, t, protocol.Command{Command: "charter.recordEvidence", Arguments: []protocol.LSPAny{arg}})
	if err == nil || !strings.Contains(err.Error(), "outside the workspace") {
		t.Fatalf("err = %v, want a refusal", err)
	}
	c.Sync()
	msgs := c.Messages()
	if len(msgs) == 0 || msgs[len(msgs)-1].Type != protocol.MessageTypeError || !strings.Contains(msgs[len(msgs)-1].Message, "outside the workspace") {
		t.Errorf("showMessage = %+v", msgs)
	}
	if _, err := os.Stat(filepath.Join(other, ".pi/charters/x/work")); err == nil {
		t.Error("evidence was written outside the workspace")
	}
	if len(c.Edits()) != 0 {
		t.Errorf("edits sent: %d", len(c.Edits()))
	}
}

// The migration never creates files outside the workspace: with .charters
// a symbolic link to a folder elsewhere, no migration is offered, and
// every file an offered one creates lies in the workspace.
func TestMigrateStaysInWorkspace(t *testing.T) {
	c, u, _ := startPi(t)
	migrate := func() *protocol.CodeAction {
		res, err := c.Server.CodeAction(reqCtx(t), &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res {
			if a, ok := r.(*protocol.CodeAction); ok && strings.HasPrefix(a.Title, "Migrate to the current format") {
				return a
			}
		}
		return nil
	}
	a := migrate()
	if a == nil {
		t.Fatal("no migration offered")
	}
	for _, ch := range a.Edit.DocumentChanges {
		if cf, ok := ch.(*protocol.CreateFile); ok {
			if rel, err := filepath.Rel(c.Root, cf.URI.FsPath()); err != nil || strings.HasPrefix(rel, "..") || !strings.HasPrefix(filepath.ToSlash(rel), ".charters/") {
				t.Errorf("creates %s", cf.URI.FsPath())
			}
		}
	}

	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(c.Root, ".charters")); err != nil {
		t.Skip("no symlinks here")
	}
	c.FilesChanged(protocol.FileChangeTypeCreated, ".charters")
	c.Sync()
	if a := migrate(); a != nil {
		raw, _ := json.Marshal(a.Edit)
		t.Errorf("a migration into a .charters that leads outside the workspace was offered: %s", raw)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("wrote outside the workspace: %v", entries)
	}
}
