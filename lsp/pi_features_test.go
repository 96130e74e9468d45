package lsp_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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

func latestDiagnostics(c *lsptest.Client, u uri.URI) []protocol.Diagnostic {
	ps := c.Published(u)
	if len(ps) == 0 {
		return nil
	}
	return ps[len(ps)-1].Params.Diagnostics
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

// The scenario: the stale VAL-SESS-001 shows a diagnostic and a
// stale hover; recording evidence through the code action creates the run's
// evidence.json and updates criterion-state.json (written by the server),
// opens the new file with the summary selected, and then the diagnostic
// goes and the hover shows the new pass.
func TestRecordEvidenceClearsStale(t *testing.T) {
	if time.Now().Before(testfixture.SourceChanged.Add(time.Minute)) {
		t.Skip("the clock is before the fixture's source change; a new record could not be fresh")
	}
	c, u, text := startPi(t)
	heading := pos(t, text, "### VAL-SESS-001", 6)

	stale := codesOf(latestDiagnostics(c, u))["stale-evidence"]
	if len(stale) != 1 || stale[0].Range.Start.Line != heading.Line {
		t.Fatalf("stale-evidence = %+v, want one on line %d", stale, heading.Line)
	}

	h := hoverText(t, c, u, heading)
	for _, want := range []string{
		"**VAL-SESS-001**", "Milestone `m1-sessions`: 1/4 pass", "Latest outcome: ✓ pass", "(2026-11-11T10:15:00Z)",
		"Summary: go test ./src/auth/... ok \\(12 tests\\)", "source verifier · recorded by agent:root",
		"](" + string(uri.File(filepath.Join(c.Root, ".pi/charters/auth-rework/work/m1-sessions/evidence/2026-11-11T10-15-00-000Z/evidence.json"))) + ")",
		"Verifier: command", "```sh\ngo test ./src/auth/...\n```", "Flags: fresh evidence required",
		"**⚠ Stale:**", "2026-11-12T09:00:00Z", "[src/auth/token.go](" + string(uri.File(filepath.Join(c.Root, "src/auth/token.go"))) + ")",
	} {
		if !strings.Contains(h, want) {
			t.Errorf("hover lacks %q:\n%s", want, h)
		}
	}

	// The cursor anywhere in the VAL's block offers the three outcomes.
	actions := codeActions(t, c, u, pos(t, text, "Command: go test", 3), nil)
	var record *protocol.CodeAction
	var titles []string
	for _, a := range actions {
		titles = append(titles, a.Title)
		if a.Title == "Record evidence: pass" {
			record = a
		}
	}
	if record == nil || !strings.Contains(strings.Join(titles, "|"), "Record evidence: fail|Record evidence: partial") {
		t.Fatalf("code actions %q lack the record-evidence ones", titles)
	}
	res, err := execute(c, t, record.Command)
	if err != nil {
		t.Fatalf("record evidence: %v", err)
	}
	evidence, _ := res["path"].(string)
	dir := filepath.Join(c.Root, ".pi/charters/auth-rework")
	if filepath.Dir(filepath.Dir(evidence)) != filepath.Join(dir, "work/m1-sessions/evidence") || filepath.Base(evidence) != "evidence.json" {
		t.Fatalf("path = %q, want a new run under work/m1-sessions/evidence", evidence)
	}

	// Written by the server through record's locked, atomic path, not sent
	// as a workspace edit for the editor to apply over whatever the disk
	// holds by then.
	if edits := c.Edits(); len(edits) != 0 {
		t.Errorf("recording sent %d workspace edits, want none", len(edits))
	}

	// The files are on disk and say what was recorded.
	var row map[string]any
	raw, err := os.ReadFile(evidence)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &row); err != nil {
		t.Fatalf("evidence.json: %v\n%s", err, raw)
	}
	if row["criterionId"] != "VAL-SESS-001" || row["outcome"] != "pass" || row["summary"] != "TODO: describe what was verified" || row["recordedBy"] != "user" {
		t.Errorf("evidence row = %v", row)
	}
	var state struct {
		Criteria map[string]map[string]any `json:"criteria"`
	}
	raw, _ = os.ReadFile(filepath.Join(dir, "criterion-state.json"))
	if err := json.Unmarshal(raw, &state); err != nil {
		t.Fatal(err)
	}
	rel, _ := filepath.Rel(dir, evidence)
	if got := state.Criteria["VAL-SESS-001"]; got["outcome"] != "pass" || got["lastEvidencePath"] != filepath.ToSlash(rel) {
		t.Errorf("criterion-state VAL-SESS-001 = %v", got)
	}
	if state.Criteria["VAL-SESS-002"]["outcome"] != "fail" {
		t.Errorf("criterion-state lost VAL-SESS-002: %v", state.Criteria)
	}

	// The new file opens with the placeholder summary selected.
	shown := c.ShownDocuments()
	if len(shown) == 0 || shown[len(shown)-1].URI != uri.File(evidence) || shown[len(shown)-1].Selection == nil {
		t.Fatalf("showDocument = %+v, want the evidence file with a selection", shown)
	}
	sel := *shown[len(shown)-1].Selection
	lines := strings.Split(string(readFile(t, evidence)), "\n")
	if got := lines[sel.Start.Line][sel.Start.Character:sel.End.Character]; sel.Start.Line != sel.End.Line || got != "TODO: describe what was verified" {
		t.Errorf("selection %+v covers %q", sel, got)
	}

	// The server re-checked at once; the client's watch events change nothing more.
	c.Sync()
	if st := codesOf(latestDiagnostics(c, u))["stale-evidence"]; len(st) != 0 {
		t.Errorf("stale-evidence still published after recording: %+v", st)
	}
	c.FilesChanged(protocol.FileChangeTypeCreated, filepath.ToSlash(filepath.Join(".pi/charters/auth-rework", rel)))
	c.FilesChanged(protocol.FileChangeTypeChanged, ".pi/charters/auth-rework/criterion-state.json")
	c.Sync()
	if st := codesOf(latestDiagnostics(c, u))["stale-evidence"]; len(st) != 0 {
		t.Errorf("stale-evidence back after the watch events: %+v", st)
	}
	h = hoverText(t, c, u, heading)
	if strings.Contains(h, "⚠ Stale") || !strings.Contains(h, "Latest outcome: ✓ pass** — just now") || !strings.Contains(h, "recorded by user") ||
		!strings.Contains(h, "Fresh: no source change since this pass") {
		t.Errorf("hover after recording:\n%s", h)
	}
}

func readFile(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
