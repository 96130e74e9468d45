package lsp_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/charter-lsp/charter-lsp/lsp/lsptest"
)

// applyText applies a quick fix's edits for u to text (edits of one
// document do not overlap; applied from the end).
func applyText(t *testing.T, text string, u uri.URI, e *protocol.WorkspaceEdit) string {
	t.Helper()
	var edits []protocol.TextEdit
	edits = append(edits, e.Changes[u]...)
	for _, dc := range e.DocumentChanges {
		if te, ok := dc.(*protocol.TextDocumentEdit); ok && te.TextDocument.URI == u {
			for _, x := range te.Edits {
				edits = append(edits, *x.(*protocol.TextEdit))
			}
		}
	}
	if len(edits) == 0 {
		t.Fatalf("the edit changes nothing in %s", u)
	}
	off := func(p protocol.Position) int {
		lines := strings.SplitAfter(text, "\n")
		n := 0
		for i := 0; i < int(p.Line); i++ {
			n += len(lines[i])
		}
		return n + int(p.Character)
	}
	sort.Slice(edits, func(i, j int) bool { return off(edits[i].Range.Start) > off(edits[j].Range.Start) })
	for _, e := range edits {
		text = text[:off(e.Range.Start)] + e.NewText + text[off(e.Range.End):]
	}
	return text
}

// Each quick fix turns the fixture's problem into the line upstream reads,
// and the diagnostic is gone in the next version.
func TestPiQuickFixes(t *testing.T) {
	for _, tc := range []struct {
		code, near, title, wantLine string
		typed                       string // what the user then types at the end of wantLine
	}{
		{"val-id-invalid", "### VAL-roll-002", "Change the id to VAL-ROLL-002", "### VAL-ROLL-002 — Dashboard shows the share of token sessions", ""},
		{"invalid-verifier", "Verifier: commnad", "Change the verifier to command", "Verifier: command", ""},
		{"field-not-parsed", "- Verifier: subagent", "Rewrite as `Verifier: subagent`", "Verifier: subagent", ""},
		{"missing-because", "### VAL-SESS-003", "Add a `Because:` line", "Verifier: manual\nBecause: ", "a person checks it"},
	} {
		t.Run(tc.code, func(t *testing.T) {
			c, u, text := startPi(t)
			line := pos(t, text, tc.near, 0).Line
			var d *protocol.Diagnostic
			for _, x := range codesOf(latestDiagnostics(c, u))[tc.code] {
				if d == nil && (x.Range.Start.Line == line || x.Range.Start.Line == line+1) {
					d = &x
				}
			}
			if d == nil {
				t.Fatalf("no %s diagnostic near line %d", tc.code, line)
			}
			var fix *protocol.CodeAction
			for _, a := range codeActions(t, c, u, d.Range.Start, []protocol.Diagnostic{*d}) {
				if a.Kind != nil && *a.Kind == protocol.CodeActionKindQuickFix && a.Title == tc.title {
					fix = a
				}
			}
			if fix == nil || fix.Edit == nil {
				t.Fatalf("no quick fix %q", tc.title)
			}
			fixed := applyText(t, text, u, fix.Edit)
			if !strings.Contains(fixed, tc.wantLine) {
				t.Fatalf("fixed text lacks %q:\n%s", tc.wantLine, fixed)
			}
			fixed = strings.Replace(fixed, tc.wantLine, tc.wantLine+tc.typed, 1)
			c.Replace(u, 2, fixed)
			for _, x := range codesOf(c.WaitDiagnostics(u, 2).Params.Diagnostics)[tc.code] {
				if x.Range.Start.Line == d.Range.Start.Line {
					t.Errorf("%s still reported after the fix: %+v", tc.code, x.Range)
				}
			}
		})
	}
}

// missing-verifier adds the two lines after the description paragraph, so
// upstream still reads the paragraph as the description.
func TestMissingVerifierFix(t *testing.T) {
	c, u, text := startPi(t)
	text = strings.Replace(text, "Verifier: command\nCommand: bun test -t 'rejects expired token'\n", "Expired tokens get a 401 response.\n", 1)
	c.Replace(u, 2, text)
	line := pos(t, text, "### VAL-SESS-002", 0).Line
	var d *protocol.Diagnostic
	for _, x := range codesOf(c.WaitDiagnostics(u, 2).Params.Diagnostics)["missing-verifier"] {
		if x.Range.Start.Line == line {
			d = &x
		}
	}
	if d == nil {
		t.Fatal("no missing-verifier on VAL-SESS-002")
	}
	acts := codeActions(t, c, u, d.Range.Start, []protocol.Diagnostic{*d})
	for _, a := range acts {
		if a.Title == "Add `Verifier: manual` and `Because:` lines" {
			fixed := applyText(t, text, u, a.Edit)
			if !strings.Contains(fixed, "Expired tokens get a 401 response.\nVerifier: manual\nBecause: \n") {
				t.Errorf("fixed text:\n%s", fixed)
			}
			return
		}
	}
	t.Fatalf("no missing-verifier fix among %d actions", len(acts))
}

// The server never runs a Command: line or a ## Commands line, whatever
// the user asks of it.
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
	if _, err := c.Server.CodeLens(t.Context(), &protocol.CodeLensParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}}); err != nil {
		t.Fatal(err)
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

func completionLabels(t *testing.T, c *lsptest.Client, u uri.URI, p protocol.Position) []string {
	t.Helper()
	res, err := c.Server.Completion(t.Context(), &protocol.CompletionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: p,
	}})
	if err != nil {
		t.Fatal(err)
	}
	items, _ := res.(protocol.CompletionItemSlice)
	var out []string
	for _, it := range items {
		out = append(out, it.Label)
	}
	return out
}

func TestPiCompletion(t *testing.T) {
	c, u, text := startPi(t)
	text = strings.Replace(text, "Verifier: manual\n\n### VAL-SESS-004", "Verifier: manual\nFre\nVerifier: \nKind: \nFresh evidence required: \nSee VAL-S\n\n### VAL-SESS-004", 1)
	c.Replace(u, 2, text)
	c.WaitDiagnostics(u, 2)
	for _, tc := range []struct {
		name, needle string
		delta        int
		want         []string
		none         bool
	}{
		{"field keys", "\nFre\n", 4, []string{"Verifier:", "Because:", "Fresh evidence required:"}, false},
		{"verifier kinds", "\nVerifier: \nKind", 11, []string{"command", "manual", "evidence-exists", "review"}, false},
		{"evidence kinds", "\nKind: \n", 7, []string{"review", "qa", "readiness", "command"}, false},
		{"booleans", "\nFresh evidence required: \nSee", 26, []string{"true", "false"}, false},
		{"VAL ids", "See VAL-S", 9, []string{"VAL-SESS-001", "VAL-SESS-004", "VAL-ROLL-001"}, false},
		{"nothing in a heading", "### VAL-SESS-003", 2, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := completionLabels(t, c, u, pos(t, text, tc.needle, tc.delta))
			if tc.none && len(got) != 0 {
				t.Errorf("completions %q, want none", got)
			}
			for _, w := range tc.want {
				if !strings.Contains("|"+strings.Join(got, "|")+"|", "|"+w+"|") {
					t.Errorf("completions %q lack %q", got, w)
				}
			}
		})
	}
}

func TestPiDefinition(t *testing.T) {
	c, u, text := startPi(t)
	stateRel := ".pi/charters/auth-rework/criterion-state.json"
	state := string(readFile(t, c.Path(stateRel)))
	su := c.Open(stateRel, state)
	report := c.Open(".pi/charters/auth-rework/REPORT.md", "# R\n\n## Outcome\n\nVAL-SESS-002 now returns 401.\n")
	for _, tc := range []struct {
		name    string
		u       uri.URI
		at      protocol.Position
		target  string
		line    uint32
		anyLine bool
	}{
		{"VAL id in REPORT.md", report, protocol.Position{Line: 4, Character: 3}, criteriaRel, pos(t, text, "### VAL-SESS-002", 0).Line, false},
		{"VAL id in criterion-state.json", su, pos(t, state, `"VAL-ROLL-001"`, 5), criteriaRel, pos(t, text, "### VAL-ROLL-001", 0).Line, false},
		{"evidence path", su, pos(t, state, "work/_charter/evidence/2026-11-10", 10), ".pi/charters/auth-rework/work/_charter/evidence/2026-11-10T08-00-00-000Z/evidence.json", 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := c.Server.Definition(t.Context(), &protocol.DefinitionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
				TextDocument: protocol.TextDocumentIdentifier{URI: tc.u}, Position: tc.at,
			}})
			if err != nil {
				t.Fatal(err)
			}
			loc, ok := res.(*protocol.Location)
			if !ok || loc.URI != c.URI(tc.target) || loc.Range.Start.Line != tc.line {
				t.Errorf("definition = %#v, want %s line %d", res, tc.target, tc.line)
			}
		})
	}
	_ = u
}

func TestPiWorkspaceSymbolsAndLens(t *testing.T) {
	c, u, text := startPi(t)
	for query, want := range map[string][]string{
		"val-sess": {"VAL-SESS-001", "VAL-SESS-002", "VAL-SESS-003", "VAL-SESS-004"},
		"VAL-ROLL": {"VAL-ROLL-001", "VAL-ROLL-003"}, // VAL-roll-002 is dropped upstream
		"vs004":    {"VAL-SESS-004"},                 // fuzzy: the characters in order
		"rollback": {"VAL-ROLL-003"},                 // titles count
	} {
		res, err := c.Server.Symbols(t.Context(), &protocol.WorkspaceSymbolParams{Query: query})
		if err != nil {
			t.Fatal(err)
		}
		// Both union members are arrays of {name, kind, location}; the
		// client decodes whichever it likes.
		var got []string
		switch syms := res.(type) {
		case protocol.WorkspaceSymbolSlice:
			for _, s := range syms {
				got = append(got, strings.Fields(s.Name)[0])
			}
		case protocol.SymbolInformationSlice:
			for _, s := range syms {
				got = append(got, strings.Fields(s.Name)[0])
			}
		default:
			t.Fatalf("workspace/symbol result %T", res)
		}
		sort.Strings(got)
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("symbols for %q = %v, want %v", query, got, want)
		}
	}

	// Cancelled (superseded by the next query as the user types), the
	// handler stops though every view it needs is computed already. (The
	// client's Symbols would give up before sending: call the handler.)
	c.LSP.Settle()
	if _, err := c.LSP.Symbols(t.Context(), &protocol.WorkspaceSymbolParams{Query: "val"}); err != nil {
		t.Fatal(err)
	}
	cancelled, cancel := context.WithCancel(t.Context())
	cancel()
	if res, err := c.LSP.Symbols(cancelled, &protocol.WorkspaceSymbolParams{Query: "val"}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled workspace/symbol = %v, %v; want context.Canceled", res, err)
	}

	lenses, err := c.Server.CodeLens(t.Context(), &protocol.CodeLensParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}})
	if err != nil {
		t.Fatal(err)
	}
	byLine := map[uint32]string{}
	for _, l := range lenses {
		byLine[l.Range.Start.Line] = l.Command.Title
	}
	for needle, want := range map[string]string{
		"## m1-sessions":   "1/4 pass",
		"## m2-rollout":    "1/2 pass",
		"### VAL-SESS-001": "⚠ stale pass",
		"### VAL-SESS-003": "no evidence",
	} {
		if got := byLine[pos(t, text, needle, 0).Line]; got != want {
			t.Errorf("lens on %s = %q, want %q", needle, got, want)
		}
	}
	if got := byLine[pos(t, text, "### VAL-SESS-002", 0).Line]; !strings.HasPrefix(got, "✗ fail ") || !strings.HasSuffix(got, "d ago") {
		t.Errorf("lens on VAL-SESS-002 = %q", got)
	}
}

func TestStatusCommand(t *testing.T) {
	c, u, _ := startPi(t)
	for _, args := range [][]protocol.LSPAny{nil, {protocol.LSPAny(`{"uri":"` + string(u) + `"}`)}} {
		res, err := execute(c, t, protocol.Command{Command: "charter.status", Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		charters, _ := res["charters"].([]any)
		if len(charters) != 1 {
			t.Fatalf("charters = %v", res)
		}
		st := charters[0].(map[string]any)
		if st["charterId"] != "auth-rework" || st["valTotal"] != float64(6) {
			t.Errorf("status = charterId %v valTotal %v", st["charterId"], st["valTotal"])
		}
	}
}
