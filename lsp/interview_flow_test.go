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

// The protocol flow, in process: initialize → open a non-ASCII CRLF
// charter → diagnostics with codes and exact UTF-16 ranges → edit → the new
// version's diagnostics → hover → code action → applied edit → diagnostics
// gone → shutdown → exit 0.
func TestProtocolFlowNonASCIICRLF(t *testing.T) {
	c := lsptest.Start(t, lsptest.Config{Capabilities: editorCaps(), InitializationOptions: map[string]any{"debounceMs": 0}})
	text := strings.ReplaceAll(readFixture(t, "cafe-charter.md"), "\n", "\r\n")
	d := openDoc(t, c, "charter.md", text)

	// v1: one section-partial on the heading, related to the TBD marker,
	// whose UTF-16 column (12) is not its byte offset (17).
	ds := d.diagnostics()
	if got := diagCodes(ds); len(got) != 1 || got[0] != "section-partial" {
		t.Fatalf("v1 codes = %v, want [section-partial]", got)
	}
	heading := protocol.Range{Start: protocol.Position{Line: 14}, End: protocol.Position{Line: 14, Character: 21}}
	if ds[0].Range != heading {
		t.Errorf("section-partial at %+v, want %+v", ds[0].Range, heading)
	}
	marker := protocol.Range{Start: protocol.Position{Line: 16, Character: 12}, End: protocol.Position{Line: 16, Character: 15}}
	if len(ds[0].RelatedInformation) == 0 || ds[0].RelatedInformation[0].Location.Range != marker {
		t.Errorf("related = %+v, want the TBD marker at %+v", ds[0].RelatedInformation, marker)
	}

	// v2: the user replaces "TBD" (by its UTF-16 columns) with one sentence:
	// still partial, now for too few sentences, with no marker.
	d.change([]protocol.TextEdit{{Range: marker, NewText: "moins cher."}})
	if !strings.Contains(d.text, "Ça coûte 🌱 moins cher.\r\n") {
		t.Fatalf("edit landed wrong:\n%q", d.text)
	}
	ds = d.diagnostics()
	if got := diagCodes(ds); len(got) != 1 || got[0] != "section-partial" || ds[0].Range != heading {
		t.Fatalf("v2 = %v at %+v, want section-partial at the heading", got, ds)
	}
	if len(ds[0].RelatedInformation) != 0 {
		t.Errorf("v2 still points at a marker: %+v", ds[0].RelatedInformation)
	}

	// Hover on the heading says why.
	h, err := c.Server.Hover(reqCtx(t), &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: d.u}, Position: protocol.Position{Line: 14, Character: 5},
	}})
	if err != nil || h == nil {
		t.Fatalf("hover: %v, %v", h, err)
	}
	hover := h.Contents.(*protocol.MarkupContent).Value
	for _, want := range []string{"PARTIAL", "at least two sentences (it has 1)"} {
		if !strings.Contains(hover, want) {
			t.Errorf("hover lacks %q:\n%s", want, hover)
		}
	}

	// The quick fix disables the code for the heading line, in CRLF.
	d.run(d.action("Disable section-partial for this line", ds[0]))
	if !strings.Contains(d.text, "\r\n<!-- charter-lsp-disable-next-line section-partial -->\r\n## Business Rationale\r\n") {
		t.Fatalf("disable comment not inserted as expected:\n%q", d.text)
	}
	if ds := d.diagnostics(); len(ds) != 0 {
		t.Errorf("v%d still has %v", d.version, diagCodes(ds))
	}

	if code := c.Shutdown(); code != 0 {
		t.Errorf("exit code %d, want 0", code)
	}
}

// What a new user does: an empty charter.md, the interview code action five
// times with an answer typed after each question, then finish: the charter
// ends with its five sections written and no diagnostics at all.
func TestNewUserInterview(t *testing.T) {
	c := lsptest.Start(t, lsptest.Config{Capabilities: editorCaps(), InitializationOptions: map[string]any{"debounceMs": 0}})
	c.WriteFile("charter.md", "")
	d := openDoc(t, c, "charter.md", "")
	if got := diagCodes(d.diagnostics()); len(got) != 5 || got[0] != "section-missing" {
		t.Fatalf("empty charter: %v, want five section-missing", got)
	}

	answers := []struct{ action, topic, answer string }{
		{"Start charter interview", "Q1: Brain Dump",
			"Planning café rotas by hand is tedious and error prone. It takes hours every week and mistakes are costly."},
		{"Ask next interview question", "Q2: Target Users",
			"Café managers who schedule shift workers. They juggle availability in spreadsheets."},
		{"Ask next interview question", "Q3: Value Proposition",
			"A rota is drafted in minutes from stated availability. Conflicts are flagged while it is drafted."},
		{"Ask next interview question", "Q4: Scope",
			"Rota drafting and conflict checks are in. Payroll and hiring stay out."},
		{"Ask next interview question", "Q5: Success Criteria",
			"A rota takes under ten minutes to draft. Managers accept the draft without edits most weeks."},
	}
	for i, a := range answers {
		res := d.run(d.action(a.action))
		if res["type"] != "next_question" {
			t.Fatalf("step %d: %v", i+1, res)
		}
		if !strings.Contains(d.text, "### "+a.topic+"\n**Asked**: ") {
			t.Fatalf("step %d: no %q entry in\n%s", i+1, a.topic, d.text)
		}
		// The cursor waits right after "**Answer**: " of the new entry.
		pos := d.cursor()
		line := strings.Split(d.text, "\n")[pos.Line]
		if line != "**Answer**: " || int(pos.Character) != len(line) {
			t.Fatalf("step %d: cursor at %+v on line %q", i+1, pos, line)
		}
		if !hasLens(t, c, d.u, "Q"+a.topic[1:2]+" awaits an answer") {
			t.Errorf("step %d: no 'awaits an answer' lens", i+1)
		}
		d.typeAt(pos, a.answer)
	}
	if !hasLens(t, c, d.u, "Finish interview") {
		t.Errorf("no Finish lens after five answers")
	}

	res := d.run(d.action("Finish interview"))
	if res["type"] != "success" || res["charter_complete"] != true {
		t.Fatalf("finish: %v", res)
	}
	for _, want := range []string{"## Problem & Context\n", "## Target Users\n\nCafé managers", "## Business Rationale\n",
		"## Scope Guardrails\n", "## Success Criteria\n", "**Status**: Complete"} {
		if !strings.Contains(d.text, want) {
			t.Errorf("finished charter lacks %q:\n%s", want, d.text)
		}
	}
	if strings.Contains(d.text, "Scratch Pad") {
		t.Errorf("scratch pad left behind:\n%s", d.text)
	}
	if ds := d.diagnostics(); len(ds) != 0 {
		t.Errorf("finished charter has %v:\n%s", diagCodes(ds), d.text)
	}
	if code := c.Shutdown(); code != 0 {
		t.Errorf("exit code %d", code)
	}
}

func hasLens(t *testing.T, c *lsptest.Client, u uri.URI, title string) bool {
	t.Helper()
	c.Sync() // the lens reads the version the last didChange made
	lenses, err := c.Server.CodeLens(reqCtx(t), &protocol.CodeLensParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}})
	if err != nil {
		t.Fatalf("codeLens: %v", err)
	}
	for _, l := range lenses {
		if l.Command.Title == title {
			return true
		}
	}
	return false
}

// Skip marks the pending question skipped; the interview then moves on.
func TestSkipPendingQuestion(t *testing.T) {
	c := lsptest.Start(t, lsptest.Config{Capabilities: editorCaps(), InitializationOptions: map[string]any{"debounceMs": 0}})
	d := openDoc(t, c, "charter.md", readFixture(t, "cafe-charter.md"))
	if res := d.run(d.action("Ask next interview question (Q1 Value Proposition)")); res["type"] != "next_question" {
		t.Fatalf("ask: %v", res)
	}
	res := d.run(d.action("Skip pending question Q1 (Value Proposition)"))
	// Nothing else is open: the interview would finish next.
	if res["type"] != "success" {
		t.Errorf("after the skip: %v", res)
	}
	if !strings.Contains(d.text, "**Skipped**: Skipped by the user.") || strings.Contains(d.text, "**Answer**:") {
		t.Fatalf("skip not recorded:\n%s", d.text)
	}
	if hasLens(t, c, d.u, "Q1 awaits an answer") {
		t.Error("Q1 still awaits an answer after the skip")
	}
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
